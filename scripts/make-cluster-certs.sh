#!/usr/bin/env bash
# Makes a cluster CA and one certificate per member, for cluster.tls_ca / tls_cert / tls_key
# (README, "Member certificates"). Keys are EC P-256; certificates last DAYS days.
#
#   scripts/make-cluster-certs.sh [--days DAYS] DIR NAME...
#
# DIR/ca.pem and DIR/ca.key are made once (kept if there: run it again to add members); then
# DIR/NAME.pem and DIR/NAME.key for each NAME (a member's node.name is a good choice; it goes in
# the certificate's subject). Keep ca.key off the members: only ca.pem goes on every machine,
# and NAME.pem / NAME.key on NAME's only (mode 0600, readable by the daemon's user).
set -euo pipefail

usage() { sed -n '2,11s/^# \{0,1\}//p' "$0"; }

days=825
while [[ $# -gt 0 ]]; do
  case "$1" in
    --days) [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || { echo "--days needs a whole number of days" >&2; exit 2; }
            days="$2"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; break ;;
    -*) echo "unknown option $1" >&2; usage >&2; exit 2 ;;
    *) break ;;
  esac
done
if [[ $# -lt 2 ]]; then
  usage >&2
  exit 2
fi
command -v openssl >/dev/null || { echo "openssl is needed (apt-get install openssl)" >&2; exit 1; }
dir="$1"; shift
mkdir -p "$dir"
umask 077

if [[ ! -e "$dir/ca.pem" ]]; then
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days "$days" \
    -subj "/CN=drift cluster CA" -keyout "$dir/ca.key" -out "$dir/ca.pem" 2>/dev/null
  chmod 0644 "$dir/ca.pem"
  echo "made $dir/ca.pem (and its key, $dir/ca.key)"
fi
for name in "$@"; do
  if [[ ! "$name" =~ ^[A-Za-z0-9._@-]+$ ]]; then
    echo "'$name' is not a usable name (letters, digits and . _ - @)" >&2
    exit 2
  fi
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=$name" \
    -keyout "$dir/$name.key" -out "$dir/$name.csr" 2>/dev/null
  openssl x509 -req -in "$dir/$name.csr" -CA "$dir/ca.pem" -CAkey "$dir/ca.key" \
    -CAcreateserial -days "$days" -out "$dir/$name.pem" 2>/dev/null
  rm -f "$dir/$name.csr"
  echo "made $dir/$name.pem and $dir/$name.key"
done
