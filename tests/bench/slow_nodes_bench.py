#!/usr/bin/env python3
"""Slow PCs are not dead PCs: failure detection under real CPU quotas (issue: a slow PC is not a
dead PC).

Runs a matrix of fault scenarios with `driftctl fault run --json` (conf/faults/README.md), each
daemon in a cgroup of its own with a real CPU quota, and writes tests/bench/results/slow-nodes.md:

  bulk rows   a ballast task whose state (1 MB .. 500 MB) is moved back and forth between two
              slow nodes with `driftctl migrate` while it is checkpointed every 5 s; all nodes
              slow, or one or two slow nodes among fast ones; quotas 0.1 .. 1 core; the detector
              values of conf/local.conf and of conf/driftd.conf;
  hog row     the same with a CPU hog (an owner's compile) started in a slow node's cgroup mid-job;
  kill rows   kill -9 of one node after another (each restarted), at full speed and at 0.2 core:
              the time from the kill to the first survivor showing the node dead;
  long row    (--long) a 10-minute job.

Per row: the job's result against the serial reference, false deaths (harness observer), the
daemons' own counts (suspicions, refutations, fences), recoveries and steps recomputed, the share
of heartbeats received more than two intervals after the previous one (p99 <= 2 intervals means
at most 1 %), the longest heartbeat gap and the longest gap between membership rounds (a loop
stall). Needs root (cgroups); every row is SKIPPED with a clear message without.

Usage: slow_nodes_bench.py [--quick] [--long] [--only SUBSTRING] [--out FILE]
"""

import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build"))
CTL = os.path.join(BUILD, "bin", "driftctl")
APPS = os.path.join(BUILD, "lib", "drift", "apps")
DETECTORS = {"local": os.path.join(ROOT, "conf", "local.conf"),
             "driftd": os.path.join(ROOT, "conf", "driftd.conf")}
WORK_US = 500  # ballast's work per step


class Row:
    def __init__(self, name, detector="local", nodes=3, cpu=None, state="100M", seconds=60,
                 moves=True, hog=False, kills=0, steps=None):
        self.name = name
        self.detector = detector
        self.nodes = nodes
        self.cpu = cpu or {}  # node -> cores; absent: no quota
        self.state = state
        self.seconds = seconds
        self.moves = moves
        self.hog = hog
        self.kills = kills
        # A state of hundreds of MB on a tenth of a core spends most of its CPU on checkpoints
        # (the interval stretches to the time a copy takes): such rows name their steps.
        self.steps = steps

    def slowest(self):
        return min(self.cpu.values()) if self.cpu else 1.0

    def scenario(self, settings=()):
        """The scenario file's text; `settings`: more "key=value" config for every daemon."""
        lines = [f"# {self.name}", "[cluster]", f"nodes = {self.nodes}",
                 f"base_config = {DETECTORS[self.detector]}", "set = balance.strategy=none",
                 "set = checkpoint.interval_ms=5000", "cpu_period = 20ms"]
        lines += [f"set = {kv}" for kv in settings]
        for k, cores in sorted(self.cpu.items()):
            lines.append(f"cpu = {k}:{cores}")
        tasks = self.nodes if self.kills else 1
        if tasks == 1:  # one task, at the slowest node's pace (it visits the slow ones)
            step_us = WORK_US / self.slowest()
        else:  # every node's task, sharing the machine's cores and the quotas
            cores = min(os.cpu_count() or 2, sum(self.cpu.values()) if self.cpu else self.nodes)
            step_us = WORK_US * tasks / cores
        steps = self.steps or max(2000, int(self.seconds * 1e6 / step_us))
        lines += ["", "[job]", "app = ballast", f"tasks = {tasks}", f"steps = {steps}",
                  f"state = {self.state}", f"work = {WORK_US}",
                  f"timeout = {int(self.seconds * 6 + 300)}s", "", "[expect]", "correct = yes",
                  "max_false_deaths = 0", "", "[faults]"]
        slow = sorted(self.cpu) if self.cpu else [2, 3]
        a, b = (slow[-2], slow[-1]) if len(slow) >= 2 else (1, slow[-1])
        if self.moves:  # the first move soon, so the task runs on the slow nodes from early on
            # (at its first step: creating a state of hundreds of MB at a tenth of a core takes
            # longer than the 2 s a time would give it), then every 20 s
            lines.append(f"at step 1 migrate 0 to {b}")
            t, to = 22, a
            while t < self.seconds * 0.8:
                lines.append(f"at {t}s migrate 0 to {to}")
                to = a if to == b else b
                t += 20
        if self.hog:
            lines.append(f"at {int(self.seconds * 0.3)}s hog {b} for {int(self.seconds * 0.3)}s")
        for i in range(self.kills):
            victim = 2 + i % (self.nodes - 1)
            lines.append(f"at {10 + 15 * i}s kill {victim} for 5s")
        return "\n".join(lines) + "\n"


def matrix(quick, long_run):
    rows = []
    if quick:
        rows.append(Row("0.2 core, 100 MB, local.conf", cpu={1: 0.2, 2: 0.2, 3: 0.2}, seconds=40))
        rows.append(Row("kill -9, full speed", nodes=4, state="1M", moves=False, kills=3,
                        seconds=60))
        return rows
    # Steps for the big states at a tenth of a core: about a minute of the job, migrations and
    # checkpoints included (measured since checkpoints stretch to 20x what they take: 500 MB at
    # 0.1 core runs ~15 steps a second with its moves, 0.2 core ~100).
    heavy = {("0.1", "500M"): 1000, ("0.1", "300M"): 1000, ("0.2", "500M"): 4000}
    for cores in (0.1, 0.2, 0.5, 1.0):
        for state in ("1M", "100M", "500M"):
            rows.append(Row(f"all at {cores} core, {state}, local.conf",
                            cpu={1: cores, 2: cores, 3: cores}, state=state,
                            steps=heavy.get((str(cores), state))))
    for state in ("100M", "300M", "500M"):
        rows.append(Row(f"all at 0.1 core, {state}, driftd.conf", detector="driftd",
                        cpu={1: 0.1, 2: 0.1, 3: 0.1}, state=state,
                        steps=heavy.get(("0.1", state))))
    # Among fast nodes the task moves to a slow node at its first step and back and forth between
    # it and node 1 (or the other slow node) every 20 s.
    for state in ("100M", "500M"):
        steps = heavy.get(("0.1", state))
        rows.append(Row(f"node 3 at 0.1 core among fast, {state}", cpu={3: 0.1}, state=state,
                        steps=steps))
        rows.append(Row(f"nodes 3, 4 at 0.1 core among fast, {state}", nodes=4,
                        cpu={3: 0.1, 4: 0.1}, state=state, steps=steps))
    rows.append(Row("hog mid-job, 0.2 core, 100 MB", cpu={1: 0.2, 2: 0.2, 3: 0.2}, hog=True))
    rows.append(Row("kill -9, full speed", nodes=5, state="1M", moves=False, kills=6,
                    seconds=120))
    rows.append(Row("kill -9, 0.2 core", nodes=5, state="1M", moves=False, kills=6, seconds=120,
                    cpu={k: 0.2 for k in range(1, 6)}))
    if long_run:
        rows.append(Row("10-minute job, 0.2 core, 100 MB", cpu={1: 0.2, 2: 0.2, 3: 0.2},
                        seconds=600))
    return rows


def run_row(row, port, workdir, settings=()):
    path = os.path.join(workdir, row.name.replace(" ", "_").replace(",", "").replace("/", "") +
                        ".scn")
    with open(path, "w") as f:
        f.write(row.scenario(settings))
    env = dict(os.environ, DRIFT_APPS_PATH=APPS)
    r = subprocess.run([CTL, "fault", "run", path, "--json", "--base-port", str(port)],
                       text=True, capture_output=True, env=env,
                       timeout=row.seconds * 8 + 900)
    if r.returncode == 77:
        return {"skipped": (r.stderr or r.stdout).strip().splitlines()[-1]}
    try:
        return json.loads(r.stdout)
    except json.JSONDecodeError:
        return {"error": (r.stderr or r.stdout).strip()[-400:]}


def summarize(row, report):
    if "skipped" in report:
        return {"row": row.name, "skipped": report["skipped"]}
    if "error" in report:
        return {"row": row.name, "error": report["error"]}
    counters = report.get("counters", {}).values()
    total = lambda key: sum(c.get(key, 0) for c in counters)
    top = lambda key: max([c.get(key, 0) for c in counters] or [0])
    jobs = report.get("jobs", [])
    detections = [f["detected_s"] for f in report.get("faults", [])
                  if f["kind"] == "kill" and f.get("detected_s") is not None]
    kills = [f for f in report.get("faults", []) if f["kind"] == "kill"]
    received = total("heartbeats_received")
    return {
        "row": row.name,
        "correct": all(j["correct"] for j in jobs) and bool(jobs),
        "result": "; ".join(j["result"] for j in jobs),
        "wall_s": sum(j["wall_s"] for j in jobs),
        "false_deaths": len(report.get("false_deaths", [])),
        "suspicions": total("suspicions"),
        "refutations": total("refutations"),
        "fences": total("fences"),
        "recoveries": sum(j["recoveries"] for j in jobs),
        "recomputed": sum(j["steps_recomputed"] for j in jobs),
        "late_pct": 100.0 * total("late_heartbeats") / received if received else None,
        "longest_gap_ms": top("longest_gap_ms"),
        "longest_stall_ms": top("longest_stall_ms"),
        "moves": report.get("moves", []),
        "kills": len(kills),
        "detected": detections,
        "passed": report.get("passed", False),
    }


def commit():
    """The checkout's commit, "+ changes" when its tree differs from it."""
    def git(*a):
        r = subprocess.run(["git", "-C", ROOT, *a], text=True, capture_output=True)
        return r.stdout.strip() if r.returncode == 0 else ""
    head = git("rev-parse", "--short", "HEAD") or "unknown commit"
    return head + (" + changes" if git("status", "--porcelain", "--untracked-files=no") else "")


def markdown(results, args):
    out = ["# Slow nodes under real CPU quotas (issue: a slow PC is not a dead PC)", "",
           f"`python3 tests/bench/slow_nodes_bench.py{' --quick' if args.quick else ''}"
           f"{' --long' if args.long else ''}"
           f"{''.join(' --set ' + kv for kv in args.set)}` on "
           f"{datetime.date.today().isoformat()}, commit {commit()}, {platform.node()}, "
           f"{os.cpu_count()} cores; "
           "each daemon in a cgroup of its own (20 ms period), a ballast task moved between the "
           "slow nodes every 20 s, checkpoints every 5 s. *late*: heartbeats received more than "
           "two intervals after the previous one from the same member (target: p99 <= 2 "
           "intervals, i.e. <= 1 %); *stall*: the longest gap between a daemon's membership "
           "rounds (target: one interval late at most, 200 ms with local.conf's 100 ms, 400 ms "
           "with driftd.conf's 200 ms).", "",
           "| row | result | job | false deaths | suspicions / refuted | fences | recoveries / "
           "steps recomputed | late hb | longest hb gap | longest stall | moves |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in results:
        if "skipped" in r or "error" in r:
            out.append(f"| {r['row']} | {'SKIPPED: ' + r['skipped'] if 'skipped' in r else 'ERROR: ' + r['error']} |||||||||")
            continue
        moved = sum(1 for m in r["moves"] if "moved in" in m)
        late = "-" if r["late_pct"] is None else f"{r['late_pct']:.2f} %"
        out.append(
            f"| {r['row']} | {'correct' if r['correct'] else r['result']} | {r['wall_s']:.0f} s "
            f"| {r['false_deaths']} | {r['suspicions']} / {r['refutations']} | {r['fences']} "
            f"| {r['recoveries']} / {r['recomputed']} | {late} | {r['longest_gap_ms']} ms "
            f"| {r['longest_stall_ms']} ms | {moved} of {len(r['moves'])} |")
    kills = [r for r in results if r.get("kills")]
    if kills:
        out += ["", "Detection of kill -9 (kill to the first survivor showing the node dead; "
                "target: median <= 1 s at full speed, <= 3 s at 0.2 core):", "",
                "| row | kills | detected | median | max |", "|---|---:|---:|---:|---:|"]
        for r in kills:
            d = r["detected"]
            med = f"{statistics.median(d):.2f} s" if d else "-"
            mx = f"{max(d):.2f} s" if d else "-"
            out.append(f"| {r['row']} | {r['kills']} | {len(d)} | {med} | {mx} |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="two short rows (a smoke run)")
    ap.add_argument("--long", action="store_true", help="add the 10-minute job")
    ap.add_argument("--only", help="run only rows whose name contains this")
    ap.add_argument("--port", type=int, default=18500, help="base port of the daemons")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="config for every daemon of every row (repeatable), e.g. "
                         "worker.huge_pages=false")
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "bench", "results",
                                                  "slow-nodes.md"))
    args = ap.parse_args()
    if not os.path.exists(CTL):
        sys.exit(f"no {CTL}: build first (scripts/build.sh)")
    rows = [r for r in matrix(args.quick, args.long) if not args.only or args.only in r.name]
    results = []
    with tempfile.TemporaryDirectory(prefix="drift-slow-") as workdir:
        for i, row in enumerate(rows):
            print(f"[{i + 1}/{len(rows)}] {row.name} (about {row.seconds} s)...", flush=True)
            summary = summarize(row, run_row(row, args.port, workdir, args.set))
            results.append(summary)
            print("   ", json.dumps({k: v for k, v in summary.items() if k != "moves"}),
                  flush=True)
    with open(args.out, "w") as f:
        f.write(markdown(results, args))
    print(f"results written to {args.out}")
    failed = [r["row"] for r in results if not r.get("passed") and "skipped" not in r]
    if failed:
        print("rows that did not pass: " + "; ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
