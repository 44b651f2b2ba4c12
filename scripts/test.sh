#!/usr/bin/env bash
# README command 2: install what is missing, build, run every test (unit and integration; the
# integration tests start real driftd processes on 127.0.0.1 ports 17400-17999), then the
# mixed-architecture suite (scripts/cross-test.sh: s390x and i386 builds under qemu-user), then
# the Debian packages (scripts/package.sh, lintian included), in CI their install, upgrade and purge
# (tests/package; also under systemd as PID 1 of a container), and the multi-host test on them (tests/multihost: four network namespaces, a
# rolling upgrade; root only). The two container and namespace tests each have 20 minutes: a hang
# fails CI instead of holding it to its limit.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc)}

# Each phase says how long it took (CI's budget is 40 minutes).
phase_start=$SECONDS
phase_done() {
  echo "== $1 took $((SECONDS - phase_start)) s (all so far: $SECONDS s)"
  phase_start=$SECONDS
}

bash "$root/scripts/install-deps.sh"
phase_done "installing dependencies"
BUILD_DIR=$build_dir JOBS=$jobs bash "$root/scripts/build.sh"
phase_done "the build"
ctest --test-dir "$build_dir" --output-on-failure --parallel "$jobs" -LE cross
phase_done "the tests"
BUILD_DIR=$build_dir JOBS=$jobs bash "$root/scripts/cross-test.sh"
phase_done "the mixed-architecture suite"
bash "$root/scripts/package.sh"
phase_done "the packages"
if [[ $(id -u) -eq 0 && -n "${CI:-}" ]]; then
  # CI's machine is thrown away: install, configure, upgrade and purge the packages as an
  # administrator would.
  bash "$root/tests/package/upgrade_test.sh" "$root/dist" "$root"
  phase_done "install, upgrade and purge"
  # The package under a real systemd (PID 1 of a container booted from a minimal Debian 12).
  status=0
  timeout --foreground -k 60 1200 bash "$root/tests/package/systemd_test.sh" "$root/dist" || status=$?
  if [[ $status -eq 77 ]]; then echo "systemd test skipped (see above)"; elif [[ $status -ne 0 ]]; then exit "$status"; fi
  phase_done "the package under systemd"
fi
status=0
timeout --foreground -k 60 1200 bash "$root/tests/multihost/multihost_test.sh" "$root/dist" "$root" || status=$?
if [[ $status -eq 77 ]]; then echo "multi-host test skipped (see above)"; elif [[ $status -ne 0 ]]; then exit "$status"; fi
phase_done "the multi-host test"
