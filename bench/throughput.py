# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""How much the emulator holds: N client threads (each its own requests.Session, keep-alive) hammer
it on loopback for a bounded time; report requests per second and p50/p99 latency.

    python bench/throughput.py --url URL --api-key KEY [--threads 8] [--seconds 10] [--out FILE.json]
    python bench/throughput.py --compare DIR [--threads 8] [--seconds 10] [--starts 5] [--out FILE.json]

``--compare DIR`` measures two emulators side by side in one run: the one in DIR (a directory
holding a ``posthog_emulator`` package, e.g. ``git archive main emulator | tar -x -C /tmp/main``
then ``/tmp/main/emulator``) and this checkout's ``emulator/``. Each is started on a free loopback
port with a fresh database (``python -m posthog_emulator serve`` run from its directory, so that
directory's package is the one imported), given the same 10 domains, and the workloads alternate
between them (read on one, read on the other, then mixed likewise) so that both meet the same
machine load. Besides the client's figures it reports the server's CPU time per request (from
/proc) and the start-up time, from process start to the "listening" line, median of ``--starts``.

Two workloads, run one after the other on the bootstrap organization:

* ``read``: ``GET /api/organizations/@current/domains/`` (a page of 10 domains).
* ``mixed``: 80 % that same list, 10 % ``POST …/invites/`` (a new address each time), 10 %
  ``PATCH /api/organizations/@current/`` (toggle a setting).

The clients run on the same machine as the server, so they share its cores: the numbers are what a
test suite on the same machine gets, not the server alone.
"""
import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import requests

HERE = os.path.dirname(os.path.abspath(__file__))
THIS_EMULATOR = os.path.join(os.path.dirname(HERE), "emulator")
KEY = "phx_" + "t" * 40
READY = re.compile(r"listening on (https?://\S+)")


def percentile(values, fraction):
    ordered = sorted(values)
    if not ordered:
        return None
    index = min(len(ordered) - 1, max(0, int(round(fraction * (len(ordered) - 1)))))
    return ordered[index]


def worker(url, key, workload, deadline, thread_no, out):
    session = requests.Session()
    session.headers["Authorization"] = "Bearer " + key
    latencies, errors, count = [], 0, 0
    domains = url + "/api/organizations/@current/domains/"
    invites = url + "/api/organizations/@current/invites/"
    org = url + "/api/organizations/@current/"
    while time.perf_counter() < deadline:
        kind = count % 10 if workload == "mixed" else 0
        started = time.perf_counter()
        try:
            if kind == 3:
                response = session.post(invites, json={"target_email": "load-%d-%d@bench-org.example" % (thread_no, count),
                                                       "send_email": False}, timeout=30)
            elif kind == 7:
                response = session.patch(org, json={"enforce_2fa": bool(count % 20 < 10)}, timeout=30)
            else:
                response = session.get(domains, timeout=30)
            ok = response.status_code < 300
        except requests.RequestException:
            ok = False
        latencies.append(time.perf_counter() - started)
        errors += 0 if ok else 1
        count += 1
    out[thread_no] = (latencies, errors)


def run(url, key, workload, threads, seconds):
    results = {}
    deadline = time.perf_counter() + seconds
    started = time.perf_counter()
    pool = [threading.Thread(target=worker, args=(url, key, workload, deadline, n, results)) for n in range(threads)]
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join(seconds + 60)
    elapsed = time.perf_counter() - started
    latencies = [lat for lats, dummy in results.values() for lat in lats]
    errors = sum(err for dummy, err in results.values())
    return {
        "workload": workload,
        "threads": threads,
        "seconds": round(elapsed, 2),
        "requests": len(latencies),
        "errors": errors,
        "rps": round(len(latencies) / elapsed, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 1) if latencies else None,
        "p99_ms": round(1000 * percentile(latencies, 0.99), 1) if latencies else None,
    }


def seed(url, key):
    session = requests.Session()
    session.headers["Authorization"] = "Bearer " + key
    for i in range(10):  # the page the read workload lists
        session.post(url + "/api/organizations/@current/domains/", json={"domain": "load%d.bench-org.example" % i}, timeout=30)


def cpu_seconds(pid):
    """User + system CPU time of a process (Linux /proc), or None elsewhere."""
    try:
        with open("/proc/%d/stat" % pid) as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


class Server:
    """``python -m posthog_emulator serve`` from ``directory`` on a free port, with a fresh database."""

    def __init__(self, directory):
        self.directory = directory
        self.state = tempfile.mkdtemp(prefix="throughput-")
        started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "posthog_emulator", "serve", "--host", "127.0.0.1", "--port", "0",
             "--db", os.path.join(self.state, "db.sqlite3"), "--api-key", KEY, "--quiet"],
            cwd=directory, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            env=dict(os.environ, PYTHONUNBUFFERED="1"))
        self.url = None
        for line in self.process.stdout:
            match = READY.search(line)
            if match:
                self.url = match.group(1)
                break
        self.startup = time.perf_counter() - started
        if self.url is None:
            raise SystemExit("the emulator in %s did not start" % directory)

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process.stdout.close()
        shutil.rmtree(self.state, ignore_errors=True)


def compare(args):
    targets = [("main", os.path.abspath(args.compare)), ("this", THIS_EMULATOR)]
    startups = {}
    for name, directory in targets:  # start-up first, on an otherwise idle emulator side
        times = []
        for _ in range(args.starts):
            server = Server(directory)
            times.append(server.startup)
            server.stop()
        startups[name] = {"median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3),
                          "runs": len(times)}
    servers = {name: Server(directory) for name, directory in targets}
    try:
        for server in servers.values():
            seed(server.url, KEY)
        results = []
        for workload in ("read", "mixed"):
            for name, server in servers.items():
                before = cpu_seconds(server.process.pid)
                row = run(server.url, KEY, workload, args.threads, args.seconds)
                after = cpu_seconds(server.process.pid)
                row["emulator"] = name
                if before is not None and after is not None and row["requests"]:
                    row["server_cpu_ms_per_request"] = round(1000 * (after - before) / row["requests"], 2)
                results.append(row)
    finally:
        for server in servers.values():
            server.stop()
    report = {"results": results, "startup": startups, "threads": args.threads, "seconds": args.seconds,
              "date": time.strftime("%Y-%m-%d %H:%M %Z"), "cpus": os.cpu_count(),
              "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None}
    if args.out:
        with open(args.out, "w") as handle:
            json.dump(report, handle, indent=1)
    print("| workload | emulator | requests/s | p50 | p99 | errors | server CPU per request |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for row in results:
        print("| %s | %s | %.1f | %.1f ms | %.1f ms | %d | %s |" % (
            row["workload"], row["emulator"], row["rps"], row["p50_ms"], row["p99_ms"], row["errors"],
            "%.2f ms" % row["server_cpu_ms_per_request"] if "server_cpu_ms_per_request" in row else "?"))
    for workload in ("read", "mixed"):
        main, this = [row for row in results if row["workload"] == workload]
        print("%s: %.1fx the requests/s, p50 %.2fx" % (workload, this["rps"] / main["rps"], this["p50_ms"] / main["p50_ms"]))
    for name, startup in startups.items():
        print("start-up %s: median %.3f s over %d, slowest %.3f s" % (name, startup["median_s"], startup["runs"],
                                                                     startup["max_s"]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url")
    parser.add_argument("--api-key")
    parser.add_argument("--compare", metavar="DIR", help="compare the emulator package in DIR with this checkout's")
    parser.add_argument("--starts", type=int, default=5, help="start-ups timed per emulator with --compare")
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--out")
    args = parser.parse_args()
    if args.compare:
        return compare(args)
    if not args.url or not args.api_key:
        parser.error("give --url and --api-key, or --compare DIR")
    url = args.url.rstrip("/")
    seed(url, args.api_key)
    results = [run(url, args.api_key, workload, args.threads, args.seconds) for workload in ("read", "mixed")]
    if args.out:
        with open(args.out, "w") as handle:
            json.dump(results, handle)
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
