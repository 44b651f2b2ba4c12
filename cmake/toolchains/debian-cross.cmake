# The part every Debian cross toolchain of drift shares (included by s390x.cmake and i386.cmake,
# which set DRIFT_CROSS_ARCH, DRIFT_CROSS_TRIPLET and DRIFT_CROSS_MULTIARCH first): GCC 12 for
# that triplet, a build-local sysroot made by scripts/cross-sysroot.sh (-DDRIFT_SYSROOT=DIR)
# holding the foreign libraries and links to the header-only ones, and qemu-user as the emulator
# ctest and gtest_discover_tests run the target's programs with.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR ${DRIFT_CROSS_ARCH})
set(CMAKE_C_COMPILER ${DRIFT_CROSS_TRIPLET}-gcc-12)
set(CMAKE_CXX_COMPILER ${DRIFT_CROSS_TRIPLET}-g++-12)

# try_compile projects read the toolchain again: hand them the sysroot too.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES DRIFT_SYSROOT)
if(NOT DRIFT_SYSROOT OR NOT EXISTS "${DRIFT_SYSROOT}/.complete")
  message(FATAL_ERROR "DRIFT_SYSROOT ('${DRIFT_SYSROOT}') is not a complete sysroot: run "
                      "scripts/cross-sysroot.sh ${DRIFT_CROSS_ARCH} and pass -DDRIFT_SYSROOT=DIR")
endif()

# --sysroot keeps the host's /usr/include away from the cross compiler; the compiler's own libc
# and libstdc++ (in /usr/TRIPLET) are found relative to the compiler, not the sysroot.
set(CMAKE_SYSROOT ${DRIFT_SYSROOT})
set(CMAKE_FIND_ROOT_PATH ${DRIFT_SYSROOT})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Boost's own CMake package needs the whole foreign libboost1.74-dev; FindBoost needs only the
# headers and the library the sysroot has.
set(Boost_NO_BOOST_CMAKE ON)

# Same command line as scripts/cross-arch.sh's cross_runner (see there why LD_LIBRARY_PATH).
set(CMAKE_CROSSCOMPILING_EMULATOR
    qemu-${DRIFT_CROSS_ARCH} -L /usr/${DRIFT_CROSS_TRIPLET}
    -E LD_LIBRARY_PATH=/usr/${DRIFT_CROSS_TRIPLET}/lib:${DRIFT_SYSROOT}/usr/lib/${DRIFT_CROSS_MULTIARCH})
