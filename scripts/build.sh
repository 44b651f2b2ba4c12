#!/usr/bin/env bash
# Configures and builds drift into build/ (RelWithDebInfo; Ninja when installed; a unity build:
# each target's sources compiled a few at a time, which halves the time on 2 cores).
# Usage: scripts/build.sh [TARGET ...]   (default: everything, tests included)
# Environment: BUILD_DIR (build/), JOBS (nproc), CMAKE_ARGS (extra -D options), UNITY (ON; OFF
# compiles every source on its own, which also shows a file that misses an #include).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc)}

generator=()
if [[ ! -f "$build_dir/CMakeCache.txt" ]] && command -v ninja >/dev/null 2>&1; then
  generator=(-G Ninja)
fi
# shellcheck disable=SC2086  # CMAKE_ARGS is a list of options
cmake -S "$root" -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_UNITY_BUILD="${UNITY:-ON}" ${CMAKE_ARGS:-}
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build_dir" --parallel "$jobs" "${targets[@]}"
