#!/usr/bin/env bash
# The out-of-tree example (examples/wave) as a user builds and runs it: the SDK installed into a
# fresh temporary prefix, the example configured there from scratch with only
# find_package(drift CONFIG REQUIRED), then run on a local cluster under chaos migrations; its
# checksum must equal its own --serial reference. Also: pkg-config finds the SDK, and an install
# into another prefix writes nothing outside it.
# Usage: example_test.sh BUILD_DIR SOURCE_DIR BASE_PORT
set -euo pipefail
build=$1 source=$2 port=$3
work=$(mktemp -d "${TMPDIR:-/tmp}/drift-example-XXXXXX")
driftctl=$build/bin/driftctl
cleanup() {
  "$driftctl" local down --dir "$work/cluster" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

echo "== installing the SDK into $work/prefix"
cmake --install "$build" --prefix "$work/prefix" --component dev >/dev/null
test -f "$work/prefix/lib/cmake/drift/driftConfig.cmake"
test -f "$work/prefix/lib/cmake/drift/driftConfigVersion.cmake"
test -f "$work/prefix/lib/pkgconfig/drift.pc"
if command -v pkg-config >/dev/null; then
  PKG_CONFIG_PATH=$work/prefix/lib/pkgconfig pkg-config --cflags --libs drift
fi

echo "== the whole install into another prefix writes nothing outside it"
# (DESTDIR shows every file it wrote; the config file and the unit stay under the prefix unless
# the build was configured for /usr.)
DESTDIR=$work/dest cmake --install "$build" --prefix /opt/drift-test >/dev/null
system_paths=()  # a build for /usr keeps them in /etc and /lib/systemd, as a package does
if grep -q '^CMAKE_INSTALL_PREFIX:PATH=/usr$' "$build/CMakeCache.txt"; then
  system_paths=(! -path './etc/*' ! -path './lib/systemd/*')
fi
outside=$(cd "$work/dest" && find . -type f ! -path './opt/drift-test/*' "${system_paths[@]}")
[[ -z $outside ]] || { echo "FAIL: installed outside the prefix: $outside" >&2; exit 1; }
[[ ${#system_paths[@]} -gt 0 ]] || test -f "$work/dest/opt/drift-test/etc/drift/driftd.conf"

echo "== building examples/wave against it"
cp -r "$source/examples/wave" "$work/wave-src"
cmake -S "$work/wave-src" -B "$work/wave-build" -DCMAKE_PREFIX_PATH="$work/prefix" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$work/wave-build" --parallel 2 >/dev/null
wave=$work/wave-build/wave

echo "== serial reference"
serial=$("$wave" --serial --points 6000 --steps 300 --json)
echo "$serial"

echo "== on a local cluster of 3 daemons, 2 random migrations per step"
"$driftctl" local up --nodes 3 --base-port "$port" --dir "$work/cluster" \
  --base-config "$source/conf/local.conf" >/dev/null
cluster=$("$driftctl" --node "127.0.0.1:$port" --secret-file "$work/cluster/secret" \
  run "$wave" --tasks 6 --points 6000 --steps 300 --chaos-migrations 2 --json)
echo "$cluster"

checksum() { sed -E 's/.*"checksum":"([0-9a-f]+)".*/\1/' <<<"$1"; }
migrations() { sed -E 's/.*"migrations":([0-9]+).*/\1/' <<<"$1"; }
want=$(checksum "$serial") got=$(checksum "$cluster") moved=$(migrations "$cluster")
if [[ "$want" != "$got" ]]; then
  echo "FAIL: cluster checksum $got, serial $want"
  exit 1
fi
if [[ "$moved" -lt 1 ]]; then
  echo "FAIL: no task moved ($moved migrations)"
  exit 1
fi
echo "example: checksum $got matches the serial reference after $moved migrations"
