# Cross toolchain for i386 (32-bit, little-endian) with Debian's g++-12-i686-linux-gnu; see
# debian-cross.cmake. Used by scripts/cross-build.sh. Everything uses SSE2 doubles: with the x87's
# 80-bit registers a reduction combined on this node could round differently from the others.
set(DRIFT_CROSS_ARCH i386)
set(DRIFT_CROSS_TRIPLET i686-linux-gnu)
set(DRIFT_CROSS_MULTIARCH i386-linux-gnu)
set(CMAKE_C_FLAGS_INIT "-msse2 -mfpmath=sse")
set(CMAKE_CXX_FLAGS_INIT "-msse2 -mfpmath=sse")
include(${CMAKE_CURRENT_LIST_DIR}/debian-cross.cmake)
