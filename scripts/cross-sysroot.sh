#!/usr/bin/env bash
# Fetches the foreign libraries driftd links (Boost.Program_options, spdlog, fmt, OpenSSL) for
# s390x and i386 with `apt-get download` and unpacks them with `dpkg -x` into a build-local
# sysroot, build-ARCH/sysroot/ (never installs a foreign package: a multiarch install conflicts).
# Header-only libraries (Asio, Cereal, the Boost headers, nlohmann-json) are exposed to the cross
# compiler by linking only their own include folders into the sysroot, never all of /usr/include.
# Usage: scripts/cross-sysroot.sh [ARCH ...]   (default: s390x i386). Needs root (or sudo) for
# `dpkg --add-architecture` and `apt-get update` the first time. Idempotent: a complete sysroot
# (its .complete stamp names the package list) is left alone.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=scripts/cross-arch.sh
source "$root/scripts/cross-arch.sh"

arch_packages=(
  libboost-program-options1.74.0 libboost-program-options1.74-dev
  libspdlog1.10 libspdlog-dev libfmt9 libfmt-dev
  libssl3 libssl-dev
)
# Architecture-independent (Architecture: all), fetched once per sysroot all the same.
all_packages=(nlohmann-json3-dev)
header_links=(/usr/include/asio /usr/include/asio.hpp /usr/include/cereal /usr/include/boost)

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo --non-interactive "$@"; fi
}

# True when apt knows PACKAGE:ARCH (after dpkg --add-architecture ARCH and apt-get update).
apt_knows() { apt-cache show "$1" >/dev/null 2>&1; }

ensure_apt_arch() {
  local arch=$1
  if apt_knows "libssl3:$arch"; then return; fi
  echo "cross-sysroot: adding the $arch architecture to apt (packages are only downloaded)"
  as_root dpkg --add-architecture "$arch"
  # A mirror in mid-sync fails some index; apt then keeps the old one, which is enough here.
  as_root apt-get update -q || echo "cross-sysroot: apt-get update reported errors; going on" >&2
  apt_knows "libssl3:$arch" || { echo "cross-sysroot: apt has no $arch packages" >&2; exit 1; }
}

make_sysroot() {
  local arch=$1 sysroot stamp want
  sysroot=$(cross_sysroot "$arch")
  stamp=$sysroot/.complete
  want="${arch_packages[*]} ${all_packages[*]} ${header_links[*]}"
  if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
    echo "cross-sysroot: $sysroot is complete"
    return
  fi
  ensure_apt_arch "$arch"
  rm -rf "$sysroot"
  mkdir -p "$sysroot/debs" "$sysroot/usr/include"
  local names=()
  for p in "${arch_packages[@]}"; do names+=("$p:$arch"); done
  names+=("${all_packages[@]}")
  echo "cross-sysroot: downloading ${names[*]}"
  (cd "$sysroot/debs" && apt-get download -q "${names[@]}")
  for deb in "$sysroot"/debs/*.deb; do dpkg -x "$deb" "$sysroot"; done
  for h in "${header_links[@]}"; do
    [[ -e "$h" ]] || { echo "cross-sysroot: $h is missing (scripts/install-deps.sh)" >&2; exit 1; }
    ln -sfn "$h" "$sysroot/usr/include/$(basename "$h")"
  done
  echo "$want" >"$stamp"
  echo "cross-sysroot: $sysroot ready"
}

arches=("$@")
[[ ${#arches[@]} -gt 0 ]] || arches=("${cross_arches[@]}")
for a in "${arches[@]}"; do
  cross_triplet "$a" >/dev/null
  make_sysroot "$a"
done
