#!/usr/bin/env python3
"""Draws a job's timeline (driftctl run ... --trace FILE) as an SVG: the time of each step
against the step number, with the rollbacks marked (a red line at the step the job went back to,
labelled with the node that failed), and the job's totals in the title. Needs nothing but Python.

Usage: scripts/plot-trace.py TRACE [-o OUT.svg]   (default: TRACE with .svg)
"""

import argparse
import html
import json
import os
import sys


def load(path):
    events = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                events.append(json.loads(line))
            except json.JSONDecodeError as e:
                sys.exit(f"plot-trace: {path}:{number}: not JSON ({e})")
    return events


def svg(events, title):
    end = next((e for e in events if e.get("event") in ("done", "failed")), None)
    step_s = end.get("step_s", []) if end and end.get("event") == "done" else []
    if not step_s:  # no end (or a failure): the times between the step events the client saw
        steps = [e for e in events if e.get("event") == "step"]
        step_s = [b["t"] - a["t"] for a, b in zip(steps, steps[1:])]
    rollbacks = [e for e in events if e.get("event") == "recovered"]
    w, h, left, bottom, top, right = 900, 360, 70, 40, 50, 20
    pw, ph = w - left - right, h - top - bottom
    n = max(1, len(step_s))
    peak = max(step_s) if step_s else 1.0
    peak = peak if peak > 0 else 1.0
    x = lambda i: left + pw * i / max(1, n - 1)
    y = lambda v: top + ph - ph * v / peak
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{w}" height="{h}" fill="white"/>',
           f'<text x="{left}" y="20" font-size="14">{html.escape(title)}</text>']
    if end and end.get("event") == "done":
        totals = (f'{len(step_s)} steps in {end.get("wall_s", 0):.1f} s · {end.get("migrations", 0)} '
                  f'migrations · {end.get("recoveries", 0)} recoveries ({end.get("steps_recomputed", 0)} '
                  f'steps again) · {end.get("splits", 0)} splits, {end.get("merges", 0)} merges')
    elif end:
        totals = "failed: " + end.get("reason", "")
    else:
        totals = "no end in the trace (the run was cut short)"
    out.append(f'<text x="{left}" y="38" fill="#555">{html.escape(totals)}</text>')
    out.append(f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="#999"/>')
    out.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="#999"/>')
    for frac in (0, 0.5, 1):
        v = peak * frac
        out.append(f'<text x="{left - 6}" y="{y(v) + 4:.1f}" text-anchor="end">{v * 1000:.1f} ms</text>')
    out.append(f'<text x="{left}" y="{h - 12}">step 1</text>')
    out.append(f'<text x="{left + pw}" y="{h - 12}" text-anchor="end">step {n}</text>')
    for r in rollbacks:
        rx = x(min(n - 1, r.get("step", 0)))
        out.append(f'<line x1="{rx:.1f}" y1="{top}" x2="{rx:.1f}" y2="{top + ph}" stroke="#c62828" '
                   f'stroke-dasharray="4 3"/>')
        out.append(f'<text x="{rx + 3:.1f}" y="{top + 12}" fill="#c62828">node {r.get("node", "?")} '
                   f'failed: back to step {r.get("step", 0)}</text>')
    if step_s:
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(step_s))
        out.append(f'<polyline points="{points}" fill="none" stroke="#3b7dd8" stroke-width="1.5"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("trace")
    p.add_argument("-o", "--out")
    a = p.parse_args()
    if not os.path.exists(a.trace):
        sys.exit(f"plot-trace: {a.trace}: no such file")
    events = load(a.trace)
    sub = next((e for e in events if e.get("event") == "submitted"), {})
    title = f'{sub.get("app", "job")}: {sub.get("tasks", "?")} tasks, {sub.get("steps", "?")} steps'
    out = a.out or os.path.splitext(a.trace)[0] + ".svg"
    with open(out, "w") as f:
        f.write(svg(events, title))
    print(f"plot-trace: wrote {out}")


if __name__ == "__main__":
    main()
