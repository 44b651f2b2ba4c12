#!/usr/bin/env python3
"""What serving /metrics costs a node (issue: watch the office at work).

In one run, on a local cluster of this build's daemons (4 by default) running heat2d:
  (a) the steady step time (median of the steps after the first tenth) of jobs with nobody
      asking for /metrics, and of jobs while every node's /metrics is fetched every second (as
      a Prometheus scrape would) — runs interleaved, so both see the same machine;
  (b) the same with every node's /metrics fetched 20 times a second, to show the cost where it
      can be measured at all;
  (c) the time one /metrics answer takes (1000 fetched back to back from one node): an upper
      bound on the network thread's work per scrape.
Target: scraping every second costs < 1 % of a step. Writes tests/bench/results/http.md.
Usage: http_overhead.py [--runs N] [--nodes N] [--out FILE]
"""

import argparse
import datetime
import http.client
import json
import os
import platform
import statistics
import subprocess
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build"))
DRIFTCTL = os.path.join(BUILD, "bin", "driftctl")
BASE_PORT, HTTP_PORT = 19600, 19680


def driftctl(*args, check=True):
    out = subprocess.run([DRIFTCTL, *args], capture_output=True, text=True)
    if check and out.returncode != 0:
        raise SystemExit(f"driftctl {' '.join(args)} failed ({out.returncode}):\n{out.stdout}{out.stderr}")
    return out.stdout


class Scraper:
    """Fetches /metrics of every node `rate` times a second until stopped."""

    def __init__(self, nodes, rate):
        self.nodes, self.period, self.fetched = nodes, 1.0 / rate, 0
        self.stop_event = threading.Event()
        self.thread = threading.Thread(target=self.run)

    def run(self):
        conns = [http.client.HTTPConnection("127.0.0.1", HTTP_PORT + k) for k in range(self.nodes)]
        next_at = time.monotonic()
        while not self.stop_event.is_set():
            for c in conns:
                c.request("GET", "/metrics")
                body = c.getresponse().read()
                assert body.startswith(b"# HELP")
                self.fetched += 1
            next_at += self.period
            self.stop_event.wait(max(0.0, next_at - time.monotonic()))

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop_event.set()
        self.thread.join()


def steady_step_s(job_args, secret):
    out = driftctl("--node", f"127.0.0.1:{BASE_PORT}", "--secret-file", secret, "run", *job_args, "--json")
    steps = json.loads(out)["step_s"]
    tail = steps[len(steps) // 10:]
    return statistics.median(tail)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--nodes", type=int, default=4)
    p.add_argument("--out", default=os.path.join(ROOT, "tests", "bench", "results", "http.md"))
    a = p.parse_args()
    job = ["heat2d", "--tasks", str(4 * a.nodes), "--steps", "300", "--size", "1024x1024"]
    work = tempfile.mkdtemp(prefix="drift-http-bench-")
    secret = os.path.join(work, "secret")
    driftctl("local", "up", "--nodes", str(a.nodes), "--dir", work, "--base-port", str(BASE_PORT),
             "--http-port", str(HTTP_PORT), "--base-config", os.path.join(ROOT, "conf", "local.conf"))
    try:
        modes = {"none": 0, "1/s": 1, "20/s": 20}
        times = {m: [] for m in modes}
        for r in range(a.runs):
            for m, rate in modes.items():
                if rate == 0:
                    times[m].append(steady_step_s(job, secret))
                else:
                    with Scraper(a.nodes, rate):
                        times[m].append(steady_step_s(job, secret))
            print(f"run {r + 1}/{a.runs}: " + ", ".join(f"{m} {times[m][-1] * 1000:.2f} ms" for m in modes),
                  flush=True)
        c = http.client.HTTPConnection("127.0.0.1", HTTP_PORT)
        t = time.perf_counter()
        for _ in range(1000):
            c.request("GET", "/metrics")
            c.getresponse().read()
        per_request_ms = (time.perf_counter() - t)  # 1000 requests: seconds -> ms each
    finally:
        driftctl("local", "down", "--dir", work, check=False)
    base = statistics.median(times["none"])
    rows = []
    for m in modes:
        med = statistics.median(times[m])
        rows.append(f"| {m} | {med * 1000:.2f} | {base * 1000:.2f} | {med / base:.3f} |")
    scrape_share = per_request_ms / 1000 / 1.0  # one scrape a second, each at most this long
    text = f"""# What serving /metrics costs (tests/bench/http_overhead.py)

{datetime.date.today()}, {platform.node()}, {os.cpu_count()} cores; {a.nodes} local daemons,
`{' '.join(job)}`, {a.runs} runs of each mode interleaved; steady step = median of the steps after
the first tenth; the ratio is against the runs with nobody scraping, in the same run.

| /metrics fetched from every node | step (ms) | no scraping (ms) | ratio |
|---|---|---|---|
""" + "\n".join(rows) + f"""

One /metrics answer, fetched back to back 1000 times: {per_request_ms:.3f} ms each (request, the
answer built on the node's network thread, transfer) — at one scrape a second at most
{scrape_share * 100:.3f} % of the node's time. Target: < 1 % of a step.
"""
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
