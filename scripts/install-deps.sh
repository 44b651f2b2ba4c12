#!/usr/bin/env bash
# Installs the Debian packages drift needs, only those that are missing. Run as root (CI does);
# non-interactive. Says what it installs, or that nothing was missing.
# Usage: install-deps.sh [--demo]   --demo: only what building driftd, driftctl and the
# applications needs (README command 1); default: also the tests' tools, the mixed-architecture
# suite's cross compilers and qemu, and the packaging tools (README command 2, CI).
set -euo pipefail

build=(
  cmake ninja-build g++ pkgconf
  libasio-dev libcereal-dev libboost-program-options-dev
  libgtest-dev libgmock-dev libssl-dev libspdlog-dev libfmt-dev nlohmann-json3-dev
  libsystemd-dev  # sd_notify
  libcpp-httplib-dev  # the HTTP endpoint (node/http/)
)
tests=(
  iproute2 nftables procps
  chromium  # the dashboard in a real browser, headless (tests/integration/http_test.cc)
  python3-prometheus-client  # /metrics parsed as Prometheus does (tests/integration/http_test.cc)
  tcpdump  # a capture of a job on the wire shows none of it (tests/integration/wire_capture_test.cc)
  # Debian packages and the service (scripts/package.sh, tests/multihost): man pages,
  # dpkg-shlibdeps, lintian, systemd-analyze
  help2man dpkg-dev file lintian systemd
  # the package under systemd as PID 1 of a container (tests/package/systemd_test.sh)
  debootstrap systemd-container
  # the mixed-architecture suite (scripts/cross-*.sh); never g++-multilib, which removes these
  g++-12-s390x-linux-gnu g++-12-i686-linux-gnu qemu-user googletest
)
case ${1:-} in
  --demo) packages=("${build[@]}") ;;
  "") packages=("${build[@]}" "${tests[@]}") ;;
  -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
  *) echo "install-deps: unknown argument '$1' (expected --demo or nothing)" >&2; exit 2 ;;
esac

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
