#!/usr/bin/env bash
# README command 2: install what is missing, build, run every test (unit and integration; the
# integration tests start real driftd processes on 127.0.0.1 ports 17400-17999), then the
# mixed-architecture suite (scripts/cross-test.sh: s390x and i386 builds under qemu-user).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc)}

bash "$root/scripts/install-deps.sh"
BUILD_DIR=$build_dir JOBS=$jobs bash "$root/scripts/build.sh"
ctest --test-dir "$build_dir" --output-on-failure --parallel "$jobs" -LE cross
BUILD_DIR=$build_dir JOBS=$jobs bash "$root/scripts/cross-test.sh"
