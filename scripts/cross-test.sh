#!/usr/bin/env bash
# The mixed-architecture suite (docs/architecture.md §10), after scripts/cross-build.sh (run here first):
#  1. protocol_tests, golden vectors included, on s390x and i386 under qemu-user;
#  2. drift_crosscheck: each architecture (native, s390x, i386) writes the sample frames and
#     task states, and every architecture decodes what each one wrote;
#  3. the mixed cluster: ctest -L cross in the native build, with DRIFT_CROSS_DRIFTD naming the
#     s390x and i386 daemons and DRIFT_CROSS_WORKERS how they start their workers (their own
#     applications, under qemu-user too) (heat2d and particles: a task moved across every pair of
#     them, random migrations, a foreign daemon killed so that its checkpoints restore elsewhere;
#     examples/wave built for every architecture and shipped with its job, DRIFT_CROSS_WAVE).
# Ends with one line "cross: N passed, M failed"; exits non-zero if anything failed.
# Environment: BUILD_DIR (native build, build/), JOBS, CROSS_BUILD_ROOT (where build-ARCH/ are;
# the repository), CROSS_SKIP_BUILD=1 (use the builds as they are).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/cross-arch.sh
source "$root/scripts/cross-arch.sh"
build_dir=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc)}
started=$SECONDS
passed=0
failed=0
failures=()

step() {  # step NAME COMMAND...: runs it and counts it as passed or failed
  local name=$1 begin=$SECONDS
  shift
  echo "== $name"
  if "$@"; then
    passed=$((passed + 1))
    echo "-- ok: $name ($((SECONDS - begin)) s)"
  else
    failed=$((failed + 1))
    failures+=("$name")
    echo "-- FAILED: $name ($((SECONDS - begin)) s)"
  fi
}

if [[ "${CROSS_SKIP_BUILD:-0}" != 1 ]]; then
  JOBS=$jobs bash "$root/scripts/cross-build.sh" || exit 1
  BUILD_DIR=$build_dir JOBS=$jobs bash "$root/scripts/build.sh" \
    driftd driftctl drift_crosscheck mixed_arch_tests drift_apps_all drift_app || exit 1
  # examples/wave for this machine, against this build's SDK installed into a prefix.
  cmake --install "$build_dir" --component dev --prefix "$build_dir/sdk" >/dev/null || exit 1
  cmake -S "$root/examples/wave" -B "$build_dir/wave" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_PREFIX_PATH="$build_dir/sdk" >/dev/null && cmake --build "$build_dir/wave" || exit 1
fi

# The command that runs ARCH's build of PROGRAM here ("native": this build's).
runner_of() {
  if [[ $1 == native ]]; then echo "$build_dir/bin/$2"; else cross_command "$1" "$2"; fi
}

for arch in "${cross_arches[@]}"; do
  # shellcheck disable=SC2046  # the runner is a command line
  step "protocol_tests on $arch" $(runner_of "$arch" protocol_tests) --gtest_brief=1
done

exchange=$(mktemp -d "${TMPDIR:-/tmp}/drift-crosscheck-XXXXXX")
trap 'rm -rf "$exchange"' EXIT
all_arches=(native "${cross_arches[@]}")
for writer in "${all_arches[@]}"; do
  # shellcheck disable=SC2046
  step "crosscheck encode on $writer" $(runner_of "$writer" drift_crosscheck) encode "$exchange/$writer"
done
for writer in "${all_arches[@]}"; do
  for reader in "${all_arches[@]}"; do
    [[ $writer == "$reader" ]] && continue
    # shellcheck disable=SC2046
    step "crosscheck $writer -> $reader" $(runner_of "$reader" drift_crosscheck) decode "$exchange/$writer"
  done
done
# Portable means byte for byte: every architecture wrote the very same files.
for arch in "${cross_arches[@]}"; do
  step "crosscheck native and $arch wrote identical bytes" \
    diff -r --exclude=written-by "$exchange/native" "$exchange/$arch"
done

foreign=() workers=() waves=("native=$build_dir/wave/wave")
for arch in "${cross_arches[@]}"; do
  foreign+=("$arch=$(runner_of "$arch" driftd)")
  workers+=("$arch|$(cross_build_dir "$arch")/lib/drift/apps|$(cross_runner "$arch")")
  waves+=("$arch=$(cross_build_dir "$arch")/wave/wave")
done
export DRIFT_CROSS_DRIFTD DRIFT_CROSS_WORKERS DRIFT_CROSS_WAVE
DRIFT_CROSS_DRIFTD=$(IFS=';'; echo "${foreign[*]}")
DRIFT_CROSS_WORKERS=$(IFS=';'; echo "${workers[*]}")
DRIFT_CROSS_WAVE=$(IFS=';'; echo "${waves[*]}")
step "mixed cluster (ctest -L cross)" \
  ctest --test-dir "$build_dir" -L cross --output-on-failure -V

echo
for f in "${failures[@]}"; do echo "cross: FAILED $f"; done
echo "cross: the suite took $((SECONDS - started)) s"
echo "cross: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
