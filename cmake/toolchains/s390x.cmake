# Cross toolchain for s390x (64-bit, big-endian) with Debian's g++-12-s390x-linux-gnu; see
# debian-cross.cmake. Used by scripts/cross-build.sh.
set(DRIFT_CROSS_ARCH s390x)
set(DRIFT_CROSS_TRIPLET s390x-linux-gnu)
set(DRIFT_CROSS_MULTIARCH s390x-linux-gnu)
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
