#!/usr/bin/env bash
# Sourced by the cross scripts: what each foreign architecture is called by Debian, GCC and QEMU,
# where its build and sysroot live, and the command line that runs one of its programs here.
# Architectures: s390x (64-bit big-endian) and i386 (32-bit little-endian).
# Run directly, `bash scripts/cross-arch.sh command ARCH PROGRAM` prints the command line that runs
# build-ARCH/bin/PROGRAM here (e.g. for `driftctl local up --run K:COMMAND`), and
# `bash scripts/cross-arch.sh runner ARCH` the prefix alone (an emulated daemon's
# worker.launcher).

cross_arches=(s390x i386)

# Debian's GNU triplet of the cross compiler (g++-12-TRIPLET) and of its runtime in /usr/TRIPLET.
cross_triplet() {
  case "$1" in
    s390x) echo s390x-linux-gnu ;;
    i386) echo i686-linux-gnu ;;
    *) echo "cross: unknown architecture '$1' (s390x or i386)" >&2; return 2 ;;
  esac
}

# The multiarch directory the architecture's libraries are packaged in (usr/lib/MULTIARCH).
cross_multiarch() {
  case "$1" in
    s390x) echo s390x-linux-gnu ;;
    i386) echo i386-linux-gnu ;;
    *) echo "cross: unknown architecture '$1' (s390x or i386)" >&2; return 2 ;;
  esac
}

cross_build_dir() { echo "${CROSS_BUILD_ROOT:-$root}/build-$1"; }
cross_sysroot() { echo "$(cross_build_dir "$1")/sysroot"; }

# qemu-user with the cross compiler's runtime as its prefix. LD_LIBRARY_PATH names the guest's
# libc and the sysroot's libraries explicitly: otherwise the guest's loader reads this machine's
# /etc/ld.so.cache and may load a host multilib libc (/lib32) that hangs in pthread_create.
cross_runner() {
  local arch=$1 triplet multiarch
  triplet=$(cross_triplet "$arch") || return
  multiarch=$(cross_multiarch "$arch") || return
  echo "qemu-$arch -L /usr/$triplet -E LD_LIBRARY_PATH=/usr/$triplet/lib:$(cross_sysroot "$arch")/usr/lib/$multiarch"
}

# The command line that runs build-ARCH/bin/PROGRAM here.
cross_command() {
  local runner
  runner=$(cross_runner "$1") || return
  echo "$runner $(cross_build_dir "$1")/bin/$2"
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  set -euo pipefail
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  if [[ $# -eq 2 && $1 == runner ]]; then
    cross_runner "$2"
  elif [[ $# -eq 3 && $1 == command ]]; then
    cross_command "$2" "$3"
  else
    echo "usage: bash scripts/cross-arch.sh command ARCH PROGRAM | runner ARCH" >&2
    exit 2
  fi
fi
