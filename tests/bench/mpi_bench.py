#!/usr/bin/env python3
"""drift beside MPI (issue: balance real CPUs; move bytes at the speed of the wire): heat2d on 2
daemons of this machine against an MPI program doing the same sweep, halo exchange and per-step
reduction (tests/bench/mpi/heat2d_mpi.cc, built here with Debian's OpenMPI: apt-get install
openmpi-bin libopenmpi-dev). Target: drift's steady step time <= 1.1x MPI's.

Runs interleaved (--runs each): drift's heat2d in 2 tasks on 2 local daemons (no balancing), and
mpirun -np 2 of the MPI program (OpenMPI's default binding), the same grid and steps; the steady
step is the median of the steps after the first tenth. Both checksums must equal heat2d --serial's.
With --real SET (root; cgroups): the same MPI program beside drift on the real-CPU testbed, under
the same quotas: drift_testbed runs its "SET/heat2d: diffusion" row (daemons in cgroups with CPU
quotas, no emulation; heat2d 4096x4096, 32 tasks, 300 steps), then the MPI program runs one rank
per daemon, each rank in a cgroup with that daemon's quota (20 ms period, longer where a quota
would be under 1 ms, as the testbed does), bands of rows, no balancing — what MPI offers.
Writes tests/bench/results/mpi.md (or mpi-real-SET.md).
Usage: mpi_bench.py [--size 2048] [--steps 300] [--runs 3] [--real seed|random]"""

import argparse
import datetime
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

from local_cluster import BUILD, Cluster, ROOT, steady_step

KERNEL = ["apps/heat2d/jacobi_kernel.cc", "apps/heat2d/initial_condition.cc",
          "apps/heat2d/checksum.cc"]


def build_mpi(out_dir):
    """The MPI program, with the flags apps/ builds heat2d with (apps/CMakeLists.txt)."""
    exe = os.path.join(out_dir, "heat2d_mpi")
    subprocess.run(["mpicxx", "-std=c++20", "-O2", "-DNDEBUG", "-ffp-contract=off", "-I", ROOT,
                    os.path.join(ROOT, "tests", "bench", "mpi", "heat2d_mpi.cc"),
                    *[os.path.join(ROOT, k) for k in KERNEL], "-o", exe], check=True)
    return exe


def run_mpi(exe, size, steps, ranks=2, launcher=None):
    args = ["mpirun", "-np", str(ranks)]
    if os.geteuid() == 0:
        args += ["--allow-run-as-root"]
    if launcher:  # more ranks than cores, each held to its quota: no binding
        args += ["--oversubscribe", "--bind-to", "none", launcher]
    args += [exe, str(size), str(size), str(steps)]
    r = subprocess.run(args, text=True, capture_output=True, timeout=600)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {r.stderr.strip()}")
    result = json.loads(r.stdout.strip().splitlines()[-1])
    return steady_step(result["step_s"]), result["checksum"]


CGROUP_V2 = os.path.exists("/sys/fs/cgroup/cgroup.controllers")
CGROUP_CPU = "/sys/fs/cgroup" if CGROUP_V2 else "/sys/fs/cgroup/cpu"


def quota_period_us(cores, period_us=20000):
    """The testbed's rule (ctl/fault_cpu_quota.cc): a quota of at least the kernel's 1 ms."""
    if cores * period_us < 1000:
        period_us = min(1000000, math.ceil(1000 / cores))
    return max(1000, round(cores * period_us)), period_us


class RankQuotas:
    """A cgroup with a CPU quota per MPI rank, and the launcher that puts each rank in its own."""

    def __init__(self, quotas, workdir):
        self.dirs = []
        for k, cores in enumerate(quotas):
            d = os.path.join(CGROUP_CPU, f"drift-mpi-{os.getpid()}-{k}")
            os.mkdir(d)
            self.dirs.append(d)
            quota, period = quota_period_us(cores)
            if CGROUP_V2:
                with open(os.path.join(d, "cpu.max"), "w") as f:
                    f.write(f"{quota} {period}")
            else:
                with open(os.path.join(d, "cpu.cfs_period_us"), "w") as f:
                    f.write(str(period))
                with open(os.path.join(d, "cpu.cfs_quota_us"), "w") as f:
                    f.write(str(quota))
        self.launcher = os.path.join(workdir, "in-rank-cgroup")
        with open(self.launcher, "w") as f:
            f.write("#!/bin/sh\n"
                    f'echo $$ > "{CGROUP_CPU}/drift-mpi-{os.getpid()}-$OMPI_COMM_WORLD_RANK/'
                    'cgroup.procs" || exit 97\nexec "$@"\n')
        os.chmod(self.launcher, 0o755)

    def close(self):
        for d in self.dirs:
            try:
                os.rmdir(d)
            except OSError as e:
                print(f"mpi_bench: cannot remove {d}: {e}", file=sys.stderr)


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
    p.add_argument("--real", choices=["seed", "random"],
                   help="beside the real-CPU testbed's diffusion row of this quota set (root)")
    args = p.parse_args()
    if args.real and args.out == p.get_default("out"):
        args.out = os.path.join(ROOT, "tests", "bench", "results", f"mpi-real-{args.real}.md")
    missing = [t for t in ("mpicxx", "mpirun") if shutil.which(t) is None]
    if missing:
        print(f"mpi_bench: {', '.join(missing)} not found: apt-get install openmpi-bin "
              "libopenmpi-dev", file=sys.stderr)
        return 2
    workdir = tempfile.mkdtemp(prefix="drift-mpi-")
    if args.real:
        try:
            return real(args, workdir)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
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


def real(args, workdir):
    """MPI under the testbed's quotas beside drift's diffusion row of the same set and run."""
    if os.geteuid() != 0:
        print("mpi_bench --real: needs root (cgroups with CPU quotas)", file=sys.stderr)
        return 2
    exe = build_mpi(workdir)
    row = f"{args.real}/heat2d: diffusion"
    subprocess.run([os.path.join(BUILD, "bin", "drift_testbed"), "--only", "real", "--row", row,
                    "--out-dir", workdir, "--base-port", str(args.base_port)], check=True)
    md = open(os.path.join(workdir, "testbed-real.md")).read()
    quotas = [float(q) for q in re.search(r"Quotas \(cores\): ([\d., ]+)\.", md).group(1).split(",")]
    found = re.search(r"\| heat2d: diffusion \| ([\d.]+) ms", md)
    if not found:
        print(f"mpi_bench: no '{row}' row in the testbed's report", file=sys.stderr)
        return 1
    drift = float(found.group(1)) / 1e3
    size, steps = 4096, 300  # the testbed's heat2d (tests/bench/testbed/testbed_real.cc)
    serial = json.loads(subprocess.run(
        [os.path.join(BUILD, "lib", "drift", "apps", "heat2d"), "--serial", "--size",
         f"{size}x{size}", "--steps", str(steps), "--json"],
        text=True, capture_output=True, check=True).stdout)["checksum"]
    groups = RankQuotas(quotas, workdir)
    try:
        mpi, checksum = run_mpi(exe, size, steps, len(quotas), groups.launcher)
    finally:
        groups.close()
    if checksum != serial:
        print(f"mpi_bench: MPI's checksum {checksum} differs from the serial {serial}",
              file=sys.stderr)
        return 1
    ratio = drift / mpi
    lines = [
        f"# drift beside MPI under real CPU quotas ({args.real} set)",
        "",
        f"Run {datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC on {os.cpu_count()} cores; "
        f"`sudo python3 tests/bench/mpi_bench.py --real {args.real}`.",
        "",
        f"Quotas (cores), one per daemon and one per MPI rank: {', '.join(f'{q:.3f}' for q in quotas)}.",
        "",
        "| case | drift (diffusion) | MPI (one band per rank) | ratio | target | met? |",
        "|---|---:|---:|---:|---|---|",
        f"| heat2d {size}², {steps} steps, steady step | {drift * 1e3:.1f} ms | {mpi * 1e3:.1f} ms "
        f"| {ratio:.2f}× | ≤ 1.10× | {'yes' if ratio <= 1.10 else '**NO**'} |",
        "",
        f"- drift: drift_testbed's \"{row}\" row in this run (32 tasks over the daemons, balanced "
        "by diffusion on the capacities they sense); its report's steady step",
        f"- MPI: mpirun -np {len(quotas)} --bind-to none, each rank in a cgroup of its own with its "
        f"daemon's quota; checksum equal to heat2d --serial's ({serial})",
        "",
    ]
    with open(args.out, "w") as f:
        f.write("\n".join(lines))
    print(f"wrote {args.out}: drift {drift * 1e3:.1f} ms, MPI {mpi * 1e3:.1f} ms, {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
