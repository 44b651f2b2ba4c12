#!/usr/bin/env python3
"""Applications in worker processes against the in-daemon runtime they replaced (issue: users run
their own applications).

Measures, in one run, this build beside a baseline build of the last commit whose driftd ran the
applications itself (BASELINE below; built once into build-baseline/ by this script):
  (a) heat2d 2048x2048 on 4 local daemons: the steady step time (median of the steps after the
      first tenth) of each, runs interleaved;
  (b) task-to-task round trip (64 B) and throughput (1 MB) across two daemons: each build's own
      drift_bench --only pingpong (its method: tests/bench/README.md), runs interleaved;
and, for this build alone:
  (c) the first run of a job of a new 5 MB executable on 4 daemons (upload, every node fetching
      it, workers starting), the same job once it is cached everywhere, and the same executable
      installed on every node and named — a 1-step job, so the time is that of getting it going;
  (d) a worker killed with SIGKILL mid-job: the job's checksum, the recovery, the daemon alive.
Writes tests/bench/results/workers.md. Usage: worker_bench.py [--quick] [--runs N] [--out FILE]
"""

import argparse
import datetime
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time

from local_cluster import BUILD, Cluster, ROOT, steady_step

BASELINE = "a358272"  # the last commit with applications inside driftd
BASELINE_DIR = os.path.join(ROOT, "build-baseline")


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, text=True, capture_output=True, **kw)


def build_baseline():
    """The baseline's driftd, driftctl and drift_bench, built once from BASELINE."""
    src = os.path.join(BASELINE_DIR, "src")
    out = os.path.join(BASELINE_DIR, "build")
    bins = [os.path.join(out, "bin", b) for b in ("driftd", "driftctl", "drift_bench")]
    if all(os.path.exists(b) for b in bins):
        return out
    if not os.path.isdir(src):
        sh(["git", "-C", ROOT, "worktree", "add", "--detach", src, BASELINE])
    print(f"building the baseline ({BASELINE}) into {out}: once, a few minutes", flush=True)
    env = dict(os.environ, BUILD_DIR=out)
    subprocess.run(["bash", os.path.join(src, "scripts", "build.sh"), "driftd", "driftctl",
                    "drift_bench"], check=True, env=env)
    return out


def heat2d(build, size, steps, tasks, port):
    c = Cluster(build, 4, port)
    try:
        r = c.run("heat2d", "--size", f"{size}x{size}", "--steps", str(steps), "--tasks", str(tasks))
        return steady_step(r["step_s"]), r["checksum"]
    finally:
        c.close()


def pingpong(build, port, plaintext=False):
    """(round trip µs, throughput MB/s) of drift in that build's own drift_bench; `plaintext`:
    its daemons without TLS, as the baseline's were (this build only)."""
    out = tempfile.mktemp(suffix=".md")
    sh([os.path.join(build, "bin", "drift_bench"), "--only", "pingpong", "--out", out,
        "--base-port", str(port)] + (["--plaintext"] if plaintext else []), cwd=ROOT)
    text = open(out).read()
    os.unlink(out)
    rtt = re.search(r"\| round trip, 64 B[^|]*\| ([\d.]+) µs", text)
    tput = re.search(r"\| throughput, 1 MB[^|]*\| ([\d.]+) MB/s", text)
    return float(rtt.group(1)), float(tput.group(1))


def padded_copy(src, dst, size):
    """An executable of `size` bytes: `src` with random bytes after it (a new hash each time)."""
    shutil.copyfile(src, dst)
    with open(dst, "ab") as f:
        f.write(random.randbytes(max(0, size - os.path.getsize(src))))
    os.chmod(dst, 0o755)


def distribution(port, size_mb, repeats):
    """Seconds of a 1-step job: new executable, cached, installed and named."""
    wave = os.path.join(BUILD, "wave-bench", "wave")
    appdir = tempfile.mkdtemp(prefix="drift-wbench-apps-")
    os.chmod(appdir, 0o755)
    installed = os.path.join(appdir, "wave5m")
    padded_copy(wave, installed, size_mb << 20)
    c = Cluster(BUILD, 4, port, extra=[f"worker.apps_path={appdir}"],
                env=dict(os.environ, DRIFT_APPS_PATH=appdir))
    job = ["--tasks", "4", "--steps", "1", "--points", "4000"]
    first, cached, named = [], [], []
    try:
        for i in range(repeats):
            exe = os.path.join(appdir, f"new{i}")
            padded_copy(wave, exe, size_mb << 20)
            first.append(c.run(exe, *job)["client_s"])
            cached.append(c.run(exe, *job)["client_s"])
            named.append(c.run("wave5m", *job)["client_s"])
    finally:
        c.close()
        shutil.rmtree(appdir, ignore_errors=True)
    return statistics.median(first), statistics.median(cached), statistics.median(named)


def worker_kill(port):
    c = Cluster(BUILD, 4, port)
    try:
        # Long enough (a few seconds) that the kill lands mid-job, not after its end.
        serial = json.loads(sh([c.ctl, "run", "heat2d", "--serial", "--size", "1024x1024",
                                "--steps", "2000", "--json"]).stdout)
        proc = subprocess.Popen(
            [c.ctl, "--node", f"127.0.0.1:{port}", "--secret-file",
             os.path.join(c.dir, "secret"), "run", "heat2d", "--size", "1024x1024", "--steps",
             "2000", "--tasks", "8", "--checkpoint-steps", "100", "--json"],
            text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        # Mid-job: once node 2's worker has computed for a fifth of a second of CPU time.
        daemon = c.pid(2)
        killed = None
        while killed is None and proc.poll() is None:
            children = open(f"/proc/{daemon}/task/{daemon}/children").read().split()
            for child in children:
                stat = open(f"/proc/{child}/stat").read().rsplit(")", 1)[1].split()
                if int(stat[11]) >= os.sysconf("SC_CLK_TCK") // 5:  # utime, in ticks
                    killed = int(child)
            time.sleep(0.01)
        if killed:
            os.kill(killed, signal.SIGKILL)
        out, err = proc.communicate(timeout=300)
        result = json.loads(out)
        alive = os.path.exists(f"/proc/{daemon}")
        recovered = re.search(r"running again after ([\d.]+) s", err)
        return {"killed": killed, "checksum": result["checksum"], "serial": serial["checksum"],
                "recoveries": result["recoveries"], "alive": alive,
                "recovery_s": float(recovered.group(1)) if recovered else None,
                "wall_s": result["wall_s"]}
    finally:
        c.close()


def build_wave():
    """examples/wave against this build's SDK, installed into build/sdk-bench."""
    prefix = os.path.join(BUILD, "sdk-bench")
    sh(["cmake", "--install", BUILD, "--component", "dev", "--prefix", prefix])
    sh(["cmake", "-S", os.path.join(ROOT, "examples", "wave"), "-B",
        os.path.join(BUILD, "wave-bench"), f"-DCMAKE_PREFIX_PATH={prefix}",
        "-DCMAKE_BUILD_TYPE=RelWithDebInfo"])
    sh(["cmake", "--build", os.path.join(BUILD, "wave-bench")])


def yes(ok):
    return "yes" if ok else "**NO**"


def message_rows(rtt, base_rtt, tp, base_tp):
    """The round-trip and throughput rows of a results table: ours beside the baseline."""
    return [
        f"| task-to-task round trip, 64 B, 2 daemons | {rtt:.1f} µs | {base_rtt:.1f} µs | "
        f"{rtt / base_rtt:.2f}× | ≤ 1.3× | {yes(rtt <= 1.3 * base_rtt)} |",
        f"| throughput, 1 MB messages, 2 daemons | {tp:.0f} MB/s | {base_tp:.0f} MB/s | "
        f"{tp / base_tp:.2f}× | ≥ 0.9× | {yes(tp >= 0.9 * base_tp)} |",
    ]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="small sizes, one run each")
    p.add_argument("--runs", type=int, default=3, help="interleaved runs per build (default 3)")
    p.add_argument("--out", default=os.path.join(ROOT, "tests", "bench", "results", "workers.md"))
    p.add_argument("--base-port", type=int, default=18600)
    a = p.parse_args()
    runs = 1 if a.quick else a.runs
    size, steps, tasks = (512, 40, 8) if a.quick else (2048, 120, 8)
    baseline = build_baseline()
    build_wave()
    lines = []
    port = a.base_port

    ours_steps, base_steps, checksums = [], [], set()
    for i in range(runs):
        for which, build, into in (("baseline", baseline, base_steps), ("ours", BUILD, ours_steps)):
            s, ck = heat2d(build, size, steps, tasks, port)
            into.append(s)
            checksums.add(ck)
            print(f"heat2d {size}² {which}: steady step {s * 1e3:.2f} ms", flush=True)
    ours_rtt, base_rtt, ours_tp, base_tp, plain_rtt, plain_tp = [], [], [], [], [], []
    for i in range(runs):
        for which, build, plaintext, rtt, tp in (
                ("baseline", baseline, False, base_rtt, base_tp),
                ("ours", BUILD, False, ours_rtt, ours_tp),
                ("ours in plaintext", BUILD, True, plain_rtt, plain_tp)):
            r, t = pingpong(build, port + 10, plaintext)
            rtt.append(r)
            tp.append(t)
            print(f"pingpong {which}: {r:.1f} µs, {t:.0f} MB/s", flush=True)
    first, cached, named = distribution(port + 20, 5, 1 if a.quick else 5)
    print(f"5 MB executable: first {first:.3f} s, cached {cached:.3f} s, installed {named:.3f} s")
    kill = worker_kill(port + 30)
    print(f"worker killed: {kill}")

    h_ours, h_base = statistics.median(ours_steps), statistics.median(base_steps)
    r_ours, r_base = statistics.median(ours_rtt), statistics.median(base_rtt)
    t_ours, t_base = statistics.median(ours_tp), statistics.median(base_tp)
    r_plain, t_plain = statistics.median(plain_rtt), statistics.median(plain_tp)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines += [
        "# drift: applications in worker processes beside the in-daemon runtime",
        "",
        f"Run {now} on {os.cpu_count()} cores; baseline: commit {BASELINE} (applications inside "
        f"driftd), built from source by tests/bench/worker_bench.py; medians of {runs} "
        "interleaved runs per build.",
        "",
        "| case | ours (workers) | baseline (in-daemon) | ratio | target | met? |",
        "|---|---:|---:|---:|---|---|",
        f"| heat2d {size}², {tasks} tasks, 4 daemons: steady step | {h_ours * 1e3:.2f} ms | "
        f"{h_base * 1e3:.2f} ms | {h_ours / h_base:.2f}× | ≤ 1.10× | {yes(h_ours <= 1.10 * h_base)} |",
        *message_rows(r_ours, r_base, t_ours, t_base),
        "",
        "The baseline predates TLS between daemons: its frames went in clear. The same two rows "
        "with ours in clear too (`drift_bench --plaintext`: test.plaintext, never on a real "
        "cluster), in the same run:",
        "",
        "| case | ours, plaintext | baseline (in-daemon, plaintext) | ratio | target | met? |",
        "|---|---:|---:|---:|---|---|",
        *message_rows(r_plain, r_base, t_plain, t_base),
        "",
        f"- heat2d checksums: {', '.join(sorted(checksums))} (one value: every run of both builds "
        "agreed)",
        f"- heat2d steady steps (ms): ours {', '.join(f'{x * 1e3:.2f}' for x in ours_steps)}; "
        f"baseline {', '.join(f'{x * 1e3:.2f}' for x in base_steps)}",
        f"- round trips (µs): ours {', '.join(f'{x:.1f}' for x in ours_rtt)}; baseline "
        f"{', '.join(f'{x:.1f}' for x in base_rtt)}; throughputs (MB/s): ours "
        f"{', '.join(f'{x:.0f}' for x in ours_tp)}; baseline {', '.join(f'{x:.0f}' for x in base_tp)}",
        f"- ours in plaintext: round trips (µs) {', '.join(f'{x:.1f}' for x in plain_rtt)}; "
        f"throughputs (MB/s) {', '.join(f'{x:.0f}' for x in plain_tp)}",
        "",
        "| executables shipped with the job (this build) | time | target | met? |",
        "|---|---:|---|---|",
        f"| a new 5 MB executable, 4 daemons: a 1-step job from driftctl's start to its result "
        f"(upload, 3 fetches, 4 workers) | {first:.3f} s | ≤ 0.5 s | {yes(first <= 0.5)} |",
        f"| the same once cached everywhere | {cached:.3f} s | — | — |",
        f"| the same executable installed on every node and named | {named:.3f} s | — | — |",
        f"| cached minus installed: what a cached executable adds | {(cached - named) * 1e3:.1f} ms | "
        f"≤ 20 ms | {yes(cached - named <= 0.020)} |",
        "",
        "| a worker killed with SIGKILL mid-job (heat2d 1024², 2000 steps, 8 tasks, 4 daemons) | |",
        "|---|---|",
        f"| the kill | {'pid ' + str(kill['killed']) if kill['killed'] else '**none: the job ended before a worker had computed 0.2 s** (this row shows nothing)'} |",
        f"| checksum | {kill['checksum']} (serial {kill['serial']}: "
        f"{'equal' if kill['checksum'] == kill['serial'] else '**DIFFERENT**'}) |",
        f"| recoveries | {kill['recoveries']}; running again {kill['recovery_s']} s after the loss |",
        f"| its daemon | {'alive' if kill['alive'] else '**GONE**'} |",
        "",
    ]
    with open(a.out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    print(f"written to {a.out}")


if __name__ == "__main__":
    sys.exit(main())
