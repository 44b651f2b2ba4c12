#!/usr/bin/env bash
# The drift package under a real systemd, as PID 1 of a container (systemd-nspawn) booted from a
# minimal Debian 12 tree (debootstrap, Debian's own packages): `apt install ./drift_*.deb` enables
# and starts driftd.service (Type=notify: systemd waits for READY=1; guest work in an idle CPU
# cgroup inside the one systemd delegates), a normal user with a copy of the secret sees it with
# `driftctl status` and runs a heat2d job that matches the serial reference, whose workers run
# as a uid of their own without capabilities (driftd as drift has CAP_SETUID, CAP_SETGID,
# CAP_KILL only); without it she reclaims and releases the PC through the owner socket once in
# drift-owners (refused before); `systemctl reload` (SIGHUP) and `systemctl stop` work and the
# journal has the log.
# Needs root, debootstrap, systemd-nspawn and the Debian mirror; exits 77 (skipped, said) without.
# Usage: systemd_test.sh DIST
set -euo pipefail
dist=$1
skip() { echo "SKIPPED: $*"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ $(id -u) -eq 0 ]] || skip "needs root"
for tool in debootstrap systemd-nspawn nsenter; do command -v $tool >/dev/null || skip "needs $tool"; done
deb=$(ls "$dist"/drift_*.deb 2>/dev/null | sort -V | tail -1 || true)
[[ -n $deb ]] || skip "no drift package in $dist (bash scripts/package.sh)"
mirror=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
mirror=${mirror:-http://deb.debian.org/debian}

tree=$(mktemp -d /var/tmp/drift-systemd-XXXX)
chmod 755 "$tree"  # the root directory of the container
nspawn=0
init=""
long=0
# Ends the container whatever state the test left it in: a job still running inside, a service
# that does not stop. An orderly poweroff gets 30 s, then its PID namespace is killed (SIGKILL to
# its init ends every process in it), so a failed check can never hold CI until its time limit.
cleanup() {
  [[ $long -ne 0 ]] && kill -KILL "$long" 2>/dev/null || true
  if [[ $nspawn -ne 0 ]] && kill -TERM "$nspawn" 2>/dev/null; then
    for _ in $(seq 1 150); do
      kill -0 "$nspawn" 2>/dev/null || break
      sleep 0.2  # polling the container's poweroff
    done
    if kill -0 "$nspawn" 2>/dev/null; then
      echo "the container did not power off within 30 s: killed"
      [[ -n $init ]] && kill -KILL "$init" 2>/dev/null || true
      kill -KILL "$nspawn" 2>/dev/null || true
    fi
    wait "$nspawn" 2>/dev/null || true
  fi
  rm -rf "$tree" "$tree.boot" "$tree.log" "$tree.owner"
}
trap cleanup EXIT
trap "exit 1" INT TERM

echo "== a minimal Debian 12 tree ($mirror)"
debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus bookworm "$tree" "$mirror" \
  > "$tree.log" 2>&1 || { tail -5 "$tree.log"; skip "debootstrap failed (no mirror?)"; }
cp "$deb" "$tree/root/"
echo drift-systemd > "$tree/etc/hostname"

echo "== booting it with systemd as PID 1"
# No systemd on the host: no scope (--keep-unit), no machined (--register=no); a cgroup v1 host
# needs the legacy hierarchy inside too.
unified=1
[[ -f /sys/fs/cgroup/cgroup.controllers ]] || unified=0
SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=$unified systemd-nspawn -D "$tree" --boot --register=no \
  --keep-unit --console=passive > "$tree.boot" 2>&1 &
nspawn=$!
for _ in $(seq 1 300); do
  init=$(pgrep -P "$nspawn" -x systemd || true)
  if [[ -n $init ]]; then
    state=$(nsenter -t "$init" -a -- systemctl is-system-running 2>/dev/null || true)
    [[ $state == running || $state == degraded ]] && break
  fi
  sleep 0.2  # polling the container's boot
done
[[ -n $init ]] || skip "the container did not boot: $(cat "$tree.boot")"
# Every command inside has a time limit: a hang fails the test, it does not stall CI.
inside() { timeout -k 5 300 nsenter -t "$init" -a -- "$@"; }
echo "PID 1 in the container: $(inside cat /proc/1/comm)"

echo "== apt install ./$(basename "$deb")"
inside env DEBIAN_FRONTEND=noninteractive sh -c "cd /root && apt-get update -q >/dev/null && \
  apt-get install -y -q ./$(basename "$deb")" > /dev/null || fail "apt install failed"
[[ $(inside systemctl is-enabled driftd) == enabled ]] || fail "driftd.service is not enabled"
[[ $(inside systemctl is-active driftd) == active ]] || fail "driftd.service is not active: $(inside systemctl status driftd --no-pager)"
status=$(inside systemctl show driftd -p StatusText --value)
[[ $status == "node 1 "* ]] || fail "no READY status from sd_notify: '$status'"
echo "driftd.service active, status from sd_notify: $status"
# Guest work in a CPU cgroup of its own at the lowest weight, inside the delegated cgroup.
containment=$(inside journalctl -u driftd --no-pager | grep -m1 'workers run as' || true)
echo "$containment"
if ! grep -Eq '(cpu.idle 1|cpu.shares 2|cpu.weight 1) in [^ ]*driftd.service/drift-1-[0-9]+-guests' <<< "$containment"; then
  # systemd-nspawn on a cgroup v1 host mounts the container's cpu hierarchy read-only, so no
  # service in it can be given a cgroup (Delegate= has nothing to delegate): said, not failed,
  # and driftd must have said why. The guests' cgroup itself is tested on the host (WorkerTest).
  if inside sh -c 'grep -Eq " /sys/fs/cgroup/(cpu|cpu,cpuacct) ro[, ]" /proc/self/mountinfo'; then
    grep -q 'no CPU cgroup: cannot make cgroups in' <<< "$containment" \
      || fail "driftd does not say why its workers have no CPU cgroup: '$containment'"
    echo "note: this container's cpu cgroup hierarchy is read-only (cgroup v1 host); Delegate= not exercised"
  else
    fail "workers get no idle CPU cgroup under systemd: '$containment'"
  fi
fi

echo "== a normal user: status and a job"
inside sh -c 'useradd -m alice && install -o alice -m 0600 /etc/drift/secret /home/alice/secret'
user() { inside su alice -s /bin/sh -c "$1"; }
status_out=$(user 'driftctl --secret-file ~/secret status') || fail "driftctl status failed"
echo "$status_out"
grep -q drift-systemd <<< "$status_out" || fail "driftctl status does not show the node"
# The container shares this machine's load: its owner policy may have reclaimed it; release.
user 'driftctl --secret-file ~/secret release' >/dev/null
cluster=$(user 'driftctl --secret-file ~/secret run heat2d --tasks 4 --steps 100 --size 128x128' | awk '$1 == "checksum" {print $2}')
serial=$(user 'driftctl run heat2d --serial --tasks 4 --steps 100 --size 128x128' | awk '$1 == "checksum" {print $2}')
[[ -n $cluster && $cluster == "$serial" ]] || fail "heat2d checksum '$cluster' differs from the serial '$serial'"
echo "heat2d under systemd: checksum $cluster matches the serial reference"

echo "== a job's workers: a user id of their own, no capability, no secret"
# The service runs driftd as drift with CAP_SETUID, CAP_SETGID and CAP_KILL (bits 7, 6, 5) and
# nothing else; its workers run as a uid of worker.job_uids, with no capability at all, and can
# read neither the secret (root:drift 0640) nor /var/lib/drift.
daemon=$(inside systemctl show driftd -p MainPID --value)
caps=$(inside sh -c "grep -E '^Cap(Eff|Bnd):' /proc/$daemon/status" | awk '{print $2}' | sort -u)
[[ $caps == 00000000000000e0 ]] || fail "driftd's capabilities are not just SETUID, SETGID, KILL: $caps"
inside journalctl -u driftd --no-pager | grep -q 'workers run as each job as a user id of its own' \
  || fail "driftd does not give each job a user id: $(inside journalctl -u driftd --no-pager | grep -m1 'workers run as')"
user 'driftctl --secret-file ~/secret run heat2d --tasks 2 --steps 100000000 --size 64x64 >/dev/null 2>&1' &
long=$!
worker=""
for _ in $(seq 1 300); do
  worker=$(inside pgrep -P "$daemon" | head -1 || true)
  [[ -n $worker ]] && inside sh -c "grep -q '^Uid:[[:space:]]*21' /proc/$worker/status" 2>/dev/null && break
  worker=""
  sleep 0.1  # polling for the job's worker to start
done
[[ -n $worker ]] || fail "no worker of the job ran as a job's uid"
status=$(inside cat /proc/$worker/status)
wuid=$(awk '$1 == "Uid:" {print $2}' <<< "$status")
(( wuid >= 2100000000 && wuid <= 2100065535 )) || fail "the worker runs as uid $wuid"
for set in CapInh CapPrm CapEff CapAmb; do
  grep -Eq "^$set:[[:space:]]+0+$" <<< "$status" || fail "the worker holds capabilities: $(grep "^$set:" <<< "$status")"
done
grep -Eq '^Groups:[[:space:]]*$' <<< "$status" || fail "the worker has groups: $(grep '^Groups:' <<< "$status")"
# Reading is tried for real: the secret's bytes (ls of a file needs only the right to search its
# folder, which every user has for /etc/drift) and the data folder's listing. The same commands
# as root must succeed, or the check would pass for a reason of its own (a wrong path).
as_job() { inside setpriv --reuid="$wuid" --regid="$wuid" --clear-groups "$@" >/dev/null 2>&1; }
for check in "head -c1 /etc/drift/secret" "ls /var/lib/drift"; do
  # shellcheck disable=SC2086  # each check is a command and its path
  inside $check >/dev/null 2>&1 || fail "root cannot run '$check' in the container"
  # shellcheck disable=SC2086
  if as_job $check; then fail "uid $wuid (the job's) may run '$check'"; fi
done
id=$(user 'driftctl --secret-file ~/secret jobs' | awk '$5 == "running" {print $1; exit}')
[[ -n $id ]] || fail "the long job is not listed as running"
user "driftctl --secret-file ~/secret cancel $id" >/dev/null || fail "could not cancel job $id"
wait "$long" || true
long=0
echo "worker $worker: uid $wuid, no capabilities, no groups; driftd holds CapEff $caps only"

echo "== the person at the PC: the owner socket, no secret"
# alice without her copy of the secret, from her home (no ./drift-local/secret there).
inside rm /home/alice/secret
refused=0
user 'cd && driftctl reclaim' > "$tree.owner" 2>&1 || refused=$?
[[ $refused -eq 4 ]] || fail "alice, not in drift-owners, got exit $refused: $(cat "$tree.owner")"
grep -q "may not use this PC's owner socket" "$tree.owner" || fail "no reason given: $(cat "$tree.owner")"
inside adduser --quiet alice drift-owners
user 'cd && driftctl reclaim' > "$tree.owner" 2>&1 || fail "alice in drift-owners cannot reclaim: $(cat "$tree.owner")"
grep -q reclaimed "$tree.owner" || grep -q draining "$tree.owner" || fail "reclaim said: $(cat "$tree.owner")"
user 'cd && driftctl release' > "$tree.owner" 2>&1 || fail "alice cannot release: $(cat "$tree.owner")"
inside journalctl -u driftd --no-pager | grep -q "alice (at this PC) asked it to reclaim" \
  || fail "the journal does not say alice reclaimed"
echo "owner socket: alice refused (exit 4) until in drift-owners, then reclaim and release"

echo "== reload, stop, the journal"
inside systemctl reload driftd || fail "systemctl reload failed: $(inside journalctl -u driftd --no-pager | tail -5)"
inside systemctl stop driftd
[[ $(inside systemctl is-active driftd || true) == inactive ]] || fail "driftd did not stop"
journal=$(inside journalctl -u driftd --no-pager)
grep -q "SIGHUP: log file reopened" <<< "$journal" || fail "no SIGHUP in the journal"
grep -q "driftd.service: Deactivated successfully" <<< "$journal" || fail "driftd did not stop cleanly: $(tail -5 <<< "$journal")"
echo "PASS"
