#!/usr/bin/env bash
# The multi-host test (issue: install like any system service): four "hosts" — network
# namespaces on a bridge, 10.78.0.1-4 — each running the packaged driftd as the drift user, started
# by the systemd unit's own ExecStart line from a config directory of its own, joined through one
# seed by address. The drift and drift-dev packages are unpacked (dpkg -x), not built from the
# tree. heat2d and the SDK's example (examples/wave, built against the unpacked drift-dev) run and
# must match their serial checksums; then, during a heat2d job, host 3's daemon gets SIGTERM (a
# clean leave: its tasks move first, the job never rolls back) and host 4's SIGKILL (the job
# recovers). Needs root, ip, setpriv and the packages in DIST; exits 77 (skipped) without them.
# Usage: multihost_test.sh DIST SRC
set -euo pipefail
dist=$1
src=$2
skip() { echo "SKIPPED: $*"; exit 77; }
[[ $(id -u) -eq 0 ]] || skip "needs root (network namespaces)"
for tool in ip setpriv dpkg-deb cmake; do command -v $tool >/dev/null || skip "needs $tool"; done
deb=$(ls "$dist"/drift_*.deb 2>/dev/null | sort -V | tail -1 || true)
dev=$(ls "$dist"/drift-dev_*.deb 2>/dev/null | sort -V | tail -1 || true)
[[ -n "$deb" && -n "$dev" ]] || skip "no drift and drift-dev packages in $dist (bash scripts/package.sh)"

work=$(mktemp -d /tmp/drift-multihost-XXXX)
chmod 755 "$work"
bridge=drift-mh$$
bridge=${bridge:0:15}
nodes=(1 2 3 4)
created_user=0
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  for k in "${nodes[@]}"; do ip netns del "drift-mh$k-$$" 2>/dev/null || true; done
  ip link del "$bridge" 2>/dev/null || true
  [[ $created_user -eq 1 ]] && userdel drift 2>/dev/null || true
  if [[ ${keep:-0} -eq 0 ]]; then rm -rf "$work"; else echo "logs kept in $work"; fi
}
trap cleanup EXIT
fail() { echo "FAIL: $*" >&2; keep=1; for k in "${nodes[@]}"; do echo "--- host $k"; tail -20 "$work/n$k/driftd.log" >&2 || true; done; exit 1; }

echo "== unpacking $(basename "$deb") and $(basename "$dev")"
root=$work/root
dpkg -x "$deb" "$root"
dpkg -x "$dev" "$root"
unit=$root/lib/systemd/system/driftd.service
[[ -f $unit ]] || fail "the package has no $unit"
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
unit_user=$(sed -n 's/^User=//p' "$unit")
[[ -n $exec_start && $unit_user == drift ]] || fail "unexpected unit: ExecStart '$exec_start', User '$unit_user'"
driftctl=$root/usr/bin/driftctl
if ! getent passwd drift >/dev/null; then
  useradd --system --user-group --no-create-home --shell /usr/sbin/nologin drift
  created_user=1
fi

echo "== four hosts on a bridge"
ip link add "$bridge" type bridge
ip addr add 10.78.0.254/24 dev "$bridge"
ip link set "$bridge" up
head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n' > "$work/secret"
for k in "${nodes[@]}"; do
  ns=drift-mh$k-$$
  ip netns add "$ns"
  ip link add "mh$k-$$" type veth peer name eth0 netns "$ns"
  ip link set "mh$k-$$" master "$bridge" up
  ip -n "$ns" addr add "10.78.0.$k/24" dev eth0
  ip -n "$ns" link set eth0 up
  ip -n "$ns" link set lo up
  # The host's /etc/drift, as the package lays it out, with this host's identity in it.
  etc=$work/n$k/etc/drift
  mkdir -p "$etc" "$work/n$k/var"
  install -m 0640 -g drift "$work/secret" "$etc/secret"
  seeds=""
  [[ $k -ne 1 ]] && seeds="seeds = 10.78.0.1:7400"
  sed -e "s/^id = .*/id = $k/" -e "s/^address = .*/address = 10.78.0.$k/" \
      -e "s|^data_dir = .*|data_dir = $work/n$k/var|" \
      -e "s|^secret_file = .*|secret_file = $etc/secret\n$seeds|" \
      -e "s|^\[log\]|[log]\nfile = $work/n$k/driftd.log|" \
      "$root/etc/drift/driftd.conf" > "$etc/driftd.conf"
  # The four "hosts" share one machine's load and have no owner at their keyboards: the owner
  # policy (tested on its own) must not reclaim them while this test loads the machine.
  printf '\n[owner]\npolicy = never\n' >> "$etc/driftd.conf"
  chown -R drift:drift "$work/n$k"
  # The unit's ExecStart, its paths pointing into the unpacked package and this host's config.
  cmd=${exec_start//\/usr\/sbin\//$root/usr/sbin/}
  cmd=${cmd//\/etc\/drift\//$etc/}
  # shellcheck disable=SC2086  # the unit's command line, split as systemd splits it
  ip netns exec "$ns" setpriv --reuid=drift --regid=drift --init-groups -- $cmd \
    > "$work/n$k/stderr.log" 2>&1 &
  pids+=($!)
done

ctl() { "$driftctl" --node 10.78.0.1:7400 --secret-file "$work/secret" "$@"; }
echo "== waiting for the four members"
for _ in $(seq 1 150); do
  alive=$(ctl status --json 2>/dev/null | grep -o '"state":"available"' | wc -l || true)
  [[ $alive -ge 4 ]] && break
  sleep 0.2
done
[[ ${alive:-0} -ge 4 ]] || fail "only ${alive:-0} of 4 members alive after 30 s"
ctl status

checksum() { grep -o '"checksum":"[^"]*"' "$1" | head -1 | cut -d'"' -f4; }
field() { grep -o "\"$2\":[0-9]*" "$1" | head -1 | cut -d: -f2; }

echo "== heat2d on the four hosts"
ctl run heat2d --tasks 8 --steps 200 --size 256x256 --json > "$work/heat.json" || fail "heat2d failed: $(cat "$work/heat.json")"
ctl run heat2d --serial --tasks 8 --steps 200 --size 256x256 --json > "$work/heat-serial.json"
[[ -n $(checksum "$work/heat.json") && $(checksum "$work/heat.json") == $(checksum "$work/heat-serial.json") ]] \
  || fail "heat2d checksum $(checksum "$work/heat.json") differs from the serial $(checksum "$work/heat-serial.json")"
echo "heat2d: checksum $(checksum "$work/heat.json") matches the serial reference"

echo "== the SDK example, built against the unpacked drift-dev"
cmake -S "$src/examples/wave" -B "$work/wave" -DCMAKE_PREFIX_PATH="$root/usr" \
  -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/wave" >/dev/null
wave=$(find "$work/wave" -maxdepth 1 -type f -perm -u+x -name wave | head -1)
[[ -x $wave ]] || fail "the example did not build"
ctl run "$wave" --tasks 8 --json > "$work/wave.json" || fail "wave failed: $(cat "$work/wave.json")"
"$wave" --serial --tasks 8 --json > "$work/wave-serial.json"
[[ -n $(checksum "$work/wave.json") && $(checksum "$work/wave.json") == $(checksum "$work/wave-serial.json") ]] \
  || fail "wave checksum $(checksum "$work/wave.json") differs from the serial $(checksum "$work/wave-serial.json")"
echo "wave: checksum $(checksum "$work/wave.json") matches the serial reference"

# Waits until host $1 runs a task of the running job.
wait_for_tasks_on() {
  for _ in $(seq 1 300); do
    ctl tasks --json 2>/dev/null | grep -q "\"node\":$1[,}]" && return 0
    sleep 0.1
  done
  return 1
}

# Runs a heat2d job of $3 tasks, sends host $1 signal $2 once it holds a task, and checks the
# job's checksum against the serial run; the result is in $work/$4.json.
signal_during_job() {
  local host=$1 sig=$2 tasks=$3 name=$4
  ctl run heat2d --tasks "$tasks" --steps 3000 --size 512x512 --placement even --json \
    > "$work/$name.json" &
  local job=$!
  wait_for_tasks_on "$host" || fail "no task reached host $host"
  kill "-$sig" "${pids[$((host - 1))]}"
  wait "$job" || fail "the job failed after SIG$sig to host $host: $(cat "$work/$name.json")"
  ctl run heat2d --serial --tasks "$tasks" --steps 3000 --size 512x512 --json > "$work/$name-serial.json"
  [[ $(checksum "$work/$name.json") == $(checksum "$work/$name-serial.json") ]] \
    || fail "checksum after SIG$sig to host $host differs"
}

echo "== SIGTERM to host 3 during a job: it leaves cleanly"
signal_during_job 3 TERM 16 leave
wait "${pids[2]}" 2>/dev/null || true
[[ $(field "$work/leave.json" recoveries) == 0 ]] || fail "the job rolled back after a clean leave: $(cat "$work/leave.json")"
grep -q "leaving the cluster" "$work/n3/driftd.log" || fail "host 3 did not log its leave"
echo "host 3 left: job correct, 0 recoveries"

echo "== SIGKILL to host 4 during a job: the job recovers"
signal_during_job 4 KILL 12 kill
[[ $(field "$work/kill.json" recoveries) -ge 1 ]] || fail "no recovery after host 4 was killed: $(cat "$work/kill.json")"
echo "host 4 killed: job correct, $(field "$work/kill.json" recoveries) recovery"
echo "PASS"
