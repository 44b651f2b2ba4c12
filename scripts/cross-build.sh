#!/usr/bin/env bash
# Cross-builds what the mixed-architecture suite runs on s390x and i386 into build-s390x/ and
# build-i386/: protocol_tests, driftd, drift_crosscheck and the applications (not the other
# tests); then installs that architecture's SDK into its sysroot and builds the out-of-tree
# example against it (build-ARCH/wave/wave), as a user with a cross compiler would. Makes the
# sysroot first (scripts/cross-sysroot.sh). The compilers come from scripts/install-deps.sh.
# Usage: scripts/cross-build.sh [ARCH ...]   (default: s390x i386)
# The foreign builds are unity builds without debug info (-O2 -DNDEBUG, as RelWithDebInfo minus
# -g): they only run tests, and this keeps the two of them within a few minutes on 2 cores.
# Environment: JOBS (nproc), CROSS_BUILD_ROOT (the repository), CROSS_TARGETS (the three above),
# CROSS_CMAKE_ARGS (extra -D options).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/cross-arch.sh
source "$root/scripts/cross-arch.sh"
jobs=${JOBS:-$(nproc)}
read -r -a targets <<<"${CROSS_TARGETS:-protocol_tests driftd drift_crosscheck drift_apps_all drift_app}"

arches=("$@")
[[ ${#arches[@]} -gt 0 ]] || arches=("${cross_arches[@]}")
bash "$root/scripts/cross-sysroot.sh" "${arches[@]}"

for arch in "${arches[@]}"; do
  build_dir=$(cross_build_dir "$arch")
  generator=()
  if [[ ! -f "$build_dir/CMakeCache.txt" ]] && command -v ninja >/dev/null 2>&1; then
    generator=(-G Ninja)
  fi
  echo "cross-build: $arch into $build_dir"
  mkdir -p "$build_dir"
  # shellcheck disable=SC2086  # CROSS_CMAKE_ARGS is a list of options
  cmake -S "$root" -B "$build_dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/$arch.cmake" \
    -DDRIFT_SYSROOT="$(cross_sysroot "$arch")" -DCMAKE_UNITY_BUILD=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -DNDEBUG" ${CROSS_CMAKE_ARGS:-} >"$build_dir/configure.log" 2>&1 ||
    { cat "$build_dir/configure.log" >&2; exit 1; }
  build_args=()
  for t in "${targets[@]}"; do build_args+=(--target "$t"); done
  cmake --build "$build_dir" --parallel "$jobs" "${build_args[@]}"
  # The SDK of this architecture, where its cross compiler's CMake looks (the sysroot's /usr),
  # and examples/wave built against it.
  sysroot=$(cross_sysroot "$arch")
  cmake --install "$build_dir" --component dev --prefix "$sysroot/usr" >/dev/null
  cmake -S "$root/examples/wave" -B "$build_dir/wave" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_TOOLCHAIN_FILE="$root/cmake/toolchains/$arch.cmake" \
    -DDRIFT_SYSROOT="$sysroot" -DCMAKE_PREFIX_PATH=/usr >"$build_dir/wave-configure.log" 2>&1 ||
    { cat "$build_dir/wave-configure.log" >&2; exit 1; }
  cmake --build "$build_dir/wave" --parallel "$jobs"
done
