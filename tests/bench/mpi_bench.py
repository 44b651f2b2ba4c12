#!/usr/bin/env python3
"""drift beside MPI (issue: balance real CPUs; move bytes at the speed of the wire): heat2d on 2
daemons of this machine against an MPI program doing the same sweep, halo exchange and per-step
reduction (tests/bench/mpi/heat2d_mpi.cc, built here with Debian's OpenMPI: apt-get install
openmpi-bin libopenmpi-dev). Target: drift's steady step time <= 1.1x MPI's.

Runs interleaved (--runs each): drift's heat2d in 2 tasks on 2 local daemons (no balancing), and
mpirun -np 2 of the MPI program (OpenMPI's default binding), the same grid and steps; the steady
step is the median of the steps after the first tenth. Both checksums must equal heat2d --serial's.
Writes tests/bench/results/mpi.md. Usage: mpi_bench.py [--size 2048] [--steps 300] [--runs 3]"""

import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

from local_cluster import Cluster, ROOT

BUILD = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build"))
KERNEL = ["apps/heat2d/jacobi_kernel.cc", "apps/heat2d/initial_condition.cc",
          "apps/heat2d/checksum.cc"]


def steady_step(step_s):
    return statistics.median(step_s[len(step_s) // 10:])


def build_mpi(out_dir):
    """The MPI program, with the flags apps/ builds heat2d with (apps/CMakeLists.txt)."""
    exe = os.path.join(out_dir, "heat2d_mpi")
    subprocess.run(["mpicxx", "-std=c++20", "-O2", "-DNDEBUG", "-ffp-contract=off", "-I", ROOT,
                    os.path.join(ROOT, "tests", "bench", "mpi", "heat2d_mpi.cc"),
                    *[os.path.join(ROOT, k) for k in KERNEL], "-o", exe], check=True)
    return exe


def run_mpi(exe, size, steps):
    args = ["mpirun", "-np", "2", exe, str(size), str(size), str(steps)]
    if os.geteuid() == 0:
        args[1:1] = ["--allow-run-as-root"]
    r = subprocess.run(args, text=True, capture_output=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {r.stderr.strip()}")
    result = json.loads(r.stdout.strip().splitlines()[-1])
    return steady_step(result["step_s"]), result["checksum"]


def run_drift(size, steps, port):
    c = Cluster(BUILD, 2, port)
    try:
        r = c.run("heat2d", "--size", f"{size}x{size}", "--steps", str(steps), "--tasks", "2")
        return steady_step(r["step_s"]), r["checksum"]
    finally:
        c.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--size", type=int, default=2048)
    p.add_argument("--steps", type=int, default=300)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--base-port", type=int, default=19300)
    p.add_argument("--out", default=os.path.join(ROOT, "tests", "bench", "results", "mpi.md"))
    args = p.parse_args()
    missing = [t for t in ("mpicxx", "mpirun") if shutil.which(t) is None]
    if missing:
        print(f"mpi_bench: {', '.join(missing)} not found: apt-get install openmpi-bin "
              "libopenmpi-dev", file=sys.stderr)
        return 2
    workdir = tempfile.mkdtemp(prefix="drift-mpi-")
    try:
        exe = build_mpi(workdir)
        serial = json.loads(subprocess.run(
            [os.path.join(BUILD, "lib", "drift", "apps", "heat2d"), "--serial", "--size",
             f"{args.size}x{args.size}", "--steps", str(args.steps), "--json"],
            text=True, capture_output=True, check=True).stdout)["checksum"]
        drift, mpi, sums = [], [], set()
        for run in range(args.runs):
            d, dsum = run_drift(args.size, args.steps, args.base_port)
            m, msum = run_mpi(exe, args.size, args.steps)
            drift.append(d)
            mpi.append(m)
            sums.update({dsum, msum})
            print(f"run {run + 1}: drift {d * 1e3:.2f} ms ({dsum}), MPI {m * 1e3:.2f} ms ({msum})",
                  flush=True)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    if sums != {serial}:
        print(f"mpi_bench: checksums {sorted(sums)} differ from the serial {serial}",
              file=sys.stderr)
        return 1
    d, m = statistics.median(drift), statistics.median(mpi)
    ratio = d / m
    mpi_version = subprocess.run(["mpirun", "--version"], text=True,
                                 capture_output=True).stdout.splitlines()[0]
    lines = [
        "# drift beside MPI: heat2d on 2 daemons of one machine",
        "",
        f"Run {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC on {os.cpu_count()} cores; "
        f"`python3 tests/bench/mpi_bench.py` ({args.runs} interleaved runs each; {mpi_version}).",
        "",
        "| case | drift | MPI | ratio | target | met? |",
        "|---|---:|---:|---:|---|---|",
        f"| heat2d {args.size}², 2 tasks / 2 ranks, steady step | {d * 1e3:.2f} ms | "
        f"{m * 1e3:.2f} ms | {ratio:.2f}× | ≤ 1.10× | {'yes' if ratio <= 1.10 else '**NO**'} |",
        "",
        f"- steady steps (ms): drift {', '.join(f'{x * 1e3:.2f}' for x in drift)}; "
        f"MPI {', '.join(f'{x * 1e3:.2f}' for x in mpi)}",
        f"- checksums: every run of both equals heat2d --serial's ({serial})",
        "- drift: 2 daemons started by driftctl local (conf/local.conf, balance.strategy none), the "
        "tasks in a worker process on each, messages over TLS; MPI: mpirun -np 2 with OpenMPI's "
        "defaults (shared memory between the ranks, each bound to a core)",
        "",
    ]
    with open(args.out, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {args.out}: drift {d * 1e3:.2f} ms, MPI {m * 1e3:.2f} ms, {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
