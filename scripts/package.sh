#!/usr/bin/env bash
# Builds drift's Debian packages into dist/: drift_<version>_<arch>.deb (daemon, driftctl,
# applications, systemd unit, /etc/drift) and drift-dev_<version>_<arch>.deb (the SDK), from a
# Release build of their own (build-package/, prefix /usr, a unity build), then checks them with
# lintian where it is installed. Usage: bash scripts/package.sh [--version V]   (V: another
# package version, e.g. for an upgrade test; default the project's)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PACKAGE_BUILD_DIR:-$root/build-package}
version_arg=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --version) version_arg=(-DDRIFT_PACKAGE_VERSION="$2"); shift 2 ;;
    -h|--help) sed -n '2,7p' "$0"; exit 0 ;;
    *) echo "package.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
echo "== configuring $build (Release, prefix /usr)"
cmake -S "$root" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_UNITY_BUILD=ON \
  -DCMAKE_INSTALL_PREFIX=/usr -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON "${version_arg[@]}" >/dev/null
echo "== building what the packages hold"
cmake --build "$build" --target driftd driftctl drift_apps_all drift_app drift_man_pages \
  drift_changelog
mkdir -p "$root/dist"
echo "== cpack"
(cd "$build" && cpack -G DEB --config CPackConfig.cmake)
ls -l "$root"/dist/*.deb
if command -v lintian >/dev/null; then
  echo "== lintian"
  status=0
  # Tags we disagree with, each with its reason, are in packaging/lintian-overrides.
  suppressed=$(grep -v '^#' "$root/packaging/lintian-overrides" | cut -d' ' -f1 | paste -sd, -)
  for deb in "$root"/dist/*.deb; do
    lintian --fail-on error ${suppressed:+--suppress-tags "$suppressed"} "$deb" || status=1
  done
  [[ $status -eq 0 ]] || { echo "package.sh: lintian found errors" >&2; exit 1; }
else
  echo "(lintian is not installed: apt install lintian to check the packages)"
fi
