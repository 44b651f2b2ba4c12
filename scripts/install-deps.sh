#!/usr/bin/env bash
# Installs the Debian packages drift needs to build and test, only those that are missing.
# Run as root (CI does); non-interactive. Says what it installs, or that nothing was missing.
set -euo pipefail

packages=(
  cmake ninja-build g++
  libasio-dev libcereal-dev libboost-program-options-dev
  libgtest-dev libgmock-dev libssl-dev libspdlog-dev libfmt-dev nlohmann-json3-dev
  iproute2 nftables procps
  # Debian packages and the service (scripts/package.sh, tests/multihost): sd_notify, man pages,
  # dpkg-shlibdeps, lintian, systemd-analyze
  libsystemd-dev help2man dpkg-dev file lintian systemd
  # the mixed-architecture suite (scripts/cross-*.sh); never g++-multilib, which removes these
  g++-12-s390x-linux-gnu g++-12-i686-linux-gnu qemu-user googletest
)

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  echo "install-deps: all ${#packages[@]} packages are installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    exec sudo --non-interactive env DEBIAN_FRONTEND=noninteractive bash "$0" "$@"
  fi
  echo "install-deps: missing packages and not root; run: sudo bash $0" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# A mirror in mid-sync fails some index (the foreign architectures' ones too, once
# scripts/cross-sysroot.sh added them); apt keeps the old one and the install says what is missing.
apt-get update -q || echo "install-deps: apt-get update reported errors; going on" >&2
apt-get install -y -q --no-install-recommends "${missing[@]}"
