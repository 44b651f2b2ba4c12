#!/usr/bin/env python3
"""Heartbeat and balancing traffic per node (issue: balance real CPUs; move bytes at the speed of
the wire): target <= 15 kB/s per node at the default 100 ms heartbeat, flat from 10 to 40
daemons, failure detection unchanged (drift_recovery_bench measures that).

For each cluster size, and for this build beside a baseline driftd when one is given
(--baseline-driftd, runs interleaved): N local daemons, idle, settle, then the bytes of heartbeat
and balancing frames each daemon sent and received over --seconds (its /metrics:
drift_{heartbeat,balance}_{sent,received}_bytes_total); the mean and the largest per node. One
more row with a job running on 10 daemons: particles in 15 tasks, which diffusion balancing
(the default) keeps moving, as 15 tasks never spread evenly over 10 equal daemons.
Frame bytes: the TLS record around each frame adds 22 bytes (5 header, 1 type, 16 tag), shown as
"on the wire" from the heartbeats counted. Writes tests/bench/results/heartbeat.md.
Usage: heartbeat_bench.py [--sizes 10,20,40] [--seconds 10] [--baseline-driftd PATH] [--out F]"""

import argparse
import datetime
import os
import platform
import statistics
import subprocess
import sys
import time

from local_cluster import BUILD, Cluster, ROOT

TLS_RECORD_BYTES = 22
COUNTERS = [f"drift_{kind}_{way}_bytes_total" for kind in ("heartbeat", "balance")
            for way in ("sent", "received")]


def snapshot(cluster):
    rows = []
    for k in range(1, cluster.nodes + 1):
        m = cluster.metrics(k)
        rows.append({name: m.get(name, 0.0) for name in COUNTERS + ["drift_heartbeats_received_total"]})
    return rows


def rates(before, after, seconds):
    """Per node: (sent B/s, received B/s, heartbeats received /s)."""
    out = []
    for a, b in zip(before, after):
        d = {k: (b[k] - a[k]) / seconds for k in a}
        sent = d["drift_heartbeat_sent_bytes_total"] + d["drift_balance_sent_bytes_total"]
        received = d["drift_heartbeat_received_bytes_total"] + d["drift_balance_received_bytes_total"]
        out.append((sent, received, d["drift_heartbeats_received_total"]))
    return out


def measure(driftd, nodes, port, seconds, job=False):
    c = Cluster(BUILD, nodes, port, driftd=driftd, http_port=port + 100, balance=None, timeout=90)
    try:
        runner = None
        if job:
            runner = subprocess.Popen(c.command("run", "particles", "--tasks", str(3 * nodes // 2),
                                                "--steps", "100000"),
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(3)  # joins and first placements spread
        before = snapshot(c)
        time.sleep(seconds)
        after = snapshot(c)
        if runner:
            running = runner.poll() is None
            runner.kill()
            runner.wait()
            if not running:
                raise RuntimeError("the particles job ended before the measurement did")
        return rates(before, after, seconds)
    finally:
        c.close()


def summary(per_node):
    sent = [s for s, _, _ in per_node]
    received = [r for _, r, _ in per_node]
    beats = statistics.mean(b for _, _, b in per_node)
    return {"sent": statistics.mean(sent), "received": statistics.mean(received),
            "max": max(max(sent), max(received)), "beats": beats,
            "wire": statistics.mean(received) + beats * TLS_RECORD_BYTES}


def kb(x):
    return f"{x / 1000:.1f}"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="10,20,40")
    p.add_argument("--seconds", type=float, default=10)
    p.add_argument("--baseline-driftd", help="a driftd to measure beside this build's")
    p.add_argument("--baseline-name", default="baseline")
    p.add_argument("--base-port", type=int, default=19100)
    p.add_argument("--out", default=os.path.join(ROOT, "tests", "bench", "results", "heartbeat.md"))
    args = p.parse_args()
    builds = [("ours", os.path.join(BUILD, "bin", "driftd"))]
    if args.baseline_driftd:
        builds.append((args.baseline_name, os.path.abspath(args.baseline_driftd)))
    cases = [(int(n), False) for n in args.sizes.split(",")] + [(10, True)]
    results = {}
    for nodes, job in cases:
        for name, driftd in builds:
            label = f"{nodes} daemons{', particles job running' if job else ', idle'}"
            print(f"{name}: {label} ...", flush=True)
            s = summary(measure(driftd, nodes, args.base_port, args.seconds, job))
            results[(label, name)] = s
            print(f"  sent {kb(s['sent'])} kB/s, received {kb(s['received'])} kB/s per node "
                  f"(largest {kb(s['max'])})", flush=True)
    labels = list(dict.fromkeys(label for label, _ in results))
    lines = [
        "# drift: heartbeat and balancing traffic per node",
        "",
        f"Run {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC on {os.cpu_count()} cores "
        f"({platform.machine()}), 100 ms heartbeats (conf/local.conf), {args.seconds:g} s per "
        "row after 3 s of settling; `python3 tests/bench/heartbeat_bench.py"
        + (f" --baseline-driftd {args.baseline_name}'s driftd" if args.baseline_driftd else "")
        + "`. Frame bytes from each daemon's /metrics (heartbeat + balancing, sent and received), "
        "mean over the daemons; \"on the wire\" adds the 22-byte TLS record of each heartbeat "
        "received.",
        "",
    ]
    header = "| cluster | ours: sent / received per node | on the wire | largest node |"
    rule = "|---|---:|---:|---:|"
    if args.baseline_driftd:
        header += f" {args.baseline_name}: sent / received | ratio (received) | target | met? |"
        rule += "---:|---:|---|---|"
    else:
        header += " target | met? |"
        rule += "---|---|"
    lines += [header, rule]
    for label in labels:
        o = results[(label, "ours")]
        row = (f"| {label} | {kb(o['sent'])} / {kb(o['received'])} kB/s | {kb(o['wire'])} kB/s "
               f"| {kb(o['max'])} kB/s |")
        met = "yes" if o["max"] <= 15000 else "**NO**"
        if args.baseline_driftd:
            b = results[(label, args.baseline_name)]
            row += (f" {kb(b['sent'])} / {kb(b['received'])} kB/s | "
                    f"{o['received'] / b['received']:.2f}× |")
        row += f" ≤ 15 kB/s each way | {met} |"
        lines.append(row)
    lines.append("")
    with open(args.out, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    sys.exit(main())
