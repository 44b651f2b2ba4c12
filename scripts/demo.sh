#!/usr/bin/env bash
# README command 1: install what is missing, build, start 4 daemons on this machine, run heat2d
# across them, run the serial reference, and compare the checksums. The local cluster is always
# stopped again. Exits non-zero when the checksums differ.
# Overrides: NODES (4), BASE_PORT (7400), SIZE (512x512), STEPS (200), TASKS (16).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${BUILD_DIR:-$root/build}
nodes=${NODES:-4}
base_port=${BASE_PORT:-7400}
size=${SIZE:-512x512}
steps=${STEPS:-200}
tasks=${TASKS:-16}
dir=$root/drift-local

bash "$root/scripts/install-deps.sh" --demo
BUILD_DIR=$build_dir bash "$root/scripts/build.sh" driftd driftctl drift_apps_all

driftctl=$build_dir/bin/driftctl
trap '"$driftctl" local down --dir "$dir" || true' EXIT

"$driftctl" local up --nodes "$nodes" --base-port "$base_port" --dir "$dir" \
  --base-config "$root/conf/local.conf"
connection=(--node "127.0.0.1:$base_port" --secret-file "$dir/secret")
"$driftctl" "${connection[@]}" status

echo
echo "== heat2d --size $size --steps $steps --tasks $tasks on $nodes daemons"
"$driftctl" "${connection[@]}" run heat2d --size "$size" --steps "$steps" --tasks "$tasks" \
  | tee "$dir/cluster.out"
echo
echo "== the serial reference"
"$driftctl" run heat2d --serial --size "$size" --steps "$steps" | tee "$dir/serial.out"

checksum_of() { awk '$1 == "checksum" { print $2 }' "$1"; }
cluster=$(checksum_of "$dir/cluster.out")
serial=$(checksum_of "$dir/serial.out")
echo
if [[ -n "$cluster" && "$cluster" == "$serial" ]]; then
  echo "heat2d on $nodes daemons: checksum $cluster matches the serial reference"
else
  echo "heat2d on $nodes daemons: checksum ${cluster:-?} DIFFERS from the serial reference ${serial:-?}" >&2
  exit 1
fi
