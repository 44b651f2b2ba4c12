#!/usr/bin/env bash
# The packages as an administrator uses them, on this machine (CI's, which is thrown away; root):
# dpkg -i of drift and drift-dev; the unit checked by systemd-analyze; the PC made a cluster's
# first member with `driftctl cluster init`; the installed driftd started as the drift user from
# /etc/drift (the unit's ExecStart: no systemd runs here) and seen by `driftctl status` run by a
# normal user holding a copy of the secret; an upgrade to a newer package (the same files under a
# newer version string, scripts/repack-version.sh) that keeps the edited config, the secret and
# /var/lib/drift; remove, which keeps them; purge, which removes them and the drift user.
# Usage: upgrade_test.sh DIST SRC
set -euo pipefail
dist=$1
src=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || { echo "SKIPPED: needs root (installs packages)"; exit 77; }
deb=$(ls "$dist"/drift_*.deb | sort -V | tail -1)
dev=$(ls "$dist"/drift-dev_*.deb | sort -V | tail -1)
dpkg-query -W drift >/dev/null 2>&1 && fail "drift is installed on this machine already"
work=$(mktemp -d /tmp/drift-upgrade-XXXX)
chmod 755 "$work"
daemon=0
cleanup() {
  [[ $daemon -ne 0 ]] && kill -9 "$daemon" 2>/dev/null || true
  dpkg --purge drift-dev drift >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

v1=$(dpkg-deb -f "$deb" Version)
v2=$v1+upgrade1
newer=$(bash "$src/scripts/repack-version.sh" "$deb" "$v2" "$work")
dpkg --compare-versions "$v2" gt "$v1" || fail "$v2 is not newer than $v1"

echo "== dpkg -i drift $v1 and drift-dev"
dpkg -i "$deb" "$dev"
systemd-analyze verify /lib/systemd/system/driftd.service
echo "systemd-analyze verify: driftd.service is valid"
/usr/sbin/driftd --version
getent passwd drift >/dev/null || fail "postinst made no drift user"
[[ $(stat -c '%U:%G %a' /var/lib/drift) == "drift:drift 750" ]] || fail "/var/lib/drift: $(stat -c '%U:%G %a' /var/lib/drift)"

echo "== driftctl cluster init"
driftctl cluster init --address 127.0.0.1 --id 7 --port 7499 --name upgrade-test --cluster-name pkgtest
conf=/etc/drift/driftd.conf
grep -qx 'id = 7' "$conf" && grep -qx 'port = 7499' "$conf" || fail "cluster init did not set the identity: $(cat "$conf")"
[[ -f $conf.old && -f /etc/drift/secret.old ]] || fail "cluster init kept no copy of what it replaced"
[[ $(stat -c '%G %a' /etc/drift/secret) == "drift 640" ]] || fail "secret: $(stat -c '%G %a' /etc/drift/secret)"
echo kept > /var/lib/drift/marker
conf_sum=$(sha256sum < "$conf")
secret_sum=$(sha256sum < /etc/drift/secret)

echo "== the installed driftd as the drift user, driftctl status as a normal user"
exec_start=$(sed -n 's/^ExecStart=//p' /lib/systemd/system/driftd.service)
# shellcheck disable=SC2086  # the unit's command line, split as systemd splits it
setpriv --reuid=drift --regid=drift --init-groups -- $exec_start > "$work/driftd.log" 2>&1 &
daemon=$!
install -m 0644 /etc/drift/secret "$work/secret"  # the user's own copy of the secret
status_ok=0
for _ in $(seq 1 100); do
  if setpriv --reuid=nobody --regid=nogroup --clear-groups -- \
      driftctl --node 127.0.0.1:7499 --secret-file "$work/secret" status > "$work/status" 2>&1; then
    status_ok=1; break
  fi
  sleep 0.1  # polling the daemon until it listens
done
[[ $status_ok -eq 1 ]] || fail "driftctl status did not reach the daemon: $(cat "$work/status" "$work/driftd.log")"
cat "$work/status"
grep -q "upgrade-test" "$work/status" || fail "status does not show node upgrade-test"
kill -TERM "$daemon"
wait "$daemon" || fail "driftd did not exit cleanly on SIGTERM: $(tail -5 "$work/driftd.log")"
daemon=0

echo "== upgrade to $v2"
dpkg -i "$newer"
[[ $(dpkg-query -W -f='${Version}' drift) == "$v2" ]] || fail "drift is not $v2 after the upgrade"
[[ $(sha256sum < "$conf") == "$conf_sum" ]] || fail "the upgrade changed $conf"
[[ $(sha256sum < /etc/drift/secret) == "$secret_sum" ]] || fail "the upgrade changed the secret"
[[ -f /var/lib/drift/marker ]] || fail "the upgrade lost /var/lib/drift"
echo "config, secret and data dir kept"

echo "== remove, then purge"
dpkg -r drift-dev drift
[[ -f $conf && -f /etc/drift/secret && -f /var/lib/drift/marker ]] || fail "remove took the config or data"
dpkg --purge drift-dev drift
[[ ! -e /etc/drift && ! -e /var/lib/drift ]] || fail "purge left $(ls -d /etc/drift /var/lib/drift 2>/dev/null)"
getent passwd drift >/dev/null && fail "purge left the drift user"
echo "PASS"
