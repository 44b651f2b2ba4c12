"""A local drift cluster for the Python benchmarks: N daemons of one build on 127.0.0.1, started
and stopped with that build's own `driftctl local`, and jobs run on it with `driftctl run --json`.
Shared by worker_bench.py, heartbeat_bench.py and mpi_bench.py."""

import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("BUILD_DIR", os.path.join(ROOT, "build"))


def steady_step(step_s):
    """A job's steady step time: the median of its steps after the first tenth."""
    return statistics.median(step_s[len(step_s) // 10:])


class Cluster:
    """N daemons of one build. `extra`: config keys for every daemon ("key=value"); `driftd`: the
    daemon binary (default: the build's); `http_port`: daemon K serves /metrics on port + K - 1
    (None: driftctl's default, where it has one)."""

    def __init__(self, build, nodes, port, extra=(), env=None, balance="none", driftd=None,
                 http_port=None, timeout=20):
        self.ctl = os.path.join(build, "bin", "driftctl")
        self.env = env  # driftctl's environment (e.g. DRIFT_APPS_PATH, as the daemons' apps path)
        self.dir = tempfile.mkdtemp(prefix="drift-bench-")
        self.port = port
        self.nodes = nodes
        self.http_port = http_port
        args = [self.ctl, "local", "up", "--nodes", str(nodes), "--base-port", str(port),
                "--dir", self.dir, "--base-config", os.path.join(ROOT, "conf", "local.conf"),
                "--timeout", str(timeout)]
        if http_port:  # named only when wanted: older builds' driftctl does not know it
            args += ["--http-port", str(http_port)]
        if driftd:
            args += ["--driftd", driftd]
        for k in range(1, nodes + 1):
            if balance:
                args += ["--set", f"{k}:balance.strategy={balance}"]
            for e in extra:
                args += ["--set", f"{k}:{e}"]
        r = subprocess.run(args, text=True, capture_output=True)
        if r.returncode != 0:
            self.close()
            raise RuntimeError(f"driftctl local up: {r.stderr.strip() or r.stdout.strip()}")

    def command(self, *args):
        """driftctl's command line for `args` against node 1."""
        return [self.ctl, "--node", f"127.0.0.1:{self.port}", "--secret-file",
                os.path.join(self.dir, "secret"), *args]

    def run(self, *args, timeout=600):
        cmd = self.command("run", *args, "--json")
        started = time.monotonic()
        r = subprocess.run(cmd, text=True, capture_output=True, timeout=timeout, env=self.env)
        elapsed = time.monotonic() - started
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: {r.stderr.strip()}")
        result = json.loads(r.stdout)
        result["client_s"] = elapsed
        result["stderr"] = r.stderr
        return result

    def metrics(self, k):
        """Daemon k's /metrics as {name: value} (names without labels only)."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.http_port + k - 1}/metrics",
                                    timeout=5) as reply:
            text = reply.read().decode()
        out = {}
        for line in text.splitlines():
            if line and not line.startswith("#") and "{" not in line:
                name, value = line.rsplit(" ", 1)
                out[name] = float(value)
        return out

    def pid(self, k):
        with open(os.path.join(self.dir, f"node{k}.pid")) as f:
            return int(f.read().split()[0])

    def close(self):
        subprocess.run([self.ctl, "local", "down", "--dir", self.dir], capture_output=True)
        shutil.rmtree(self.dir, ignore_errors=True)
