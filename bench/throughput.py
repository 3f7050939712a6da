# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""How much the emulator holds: N client threads (each its own requests.Session, keep-alive) hammer
it on loopback for a bounded time; report requests per second and p50/p99 latency.

    python bench/throughput.py --url URL --api-key KEY [--threads 8] [--seconds 10] [--out FILE.json]

Two workloads, run one after the other on the bootstrap organization:

* ``read``: ``GET /api/organizations/@current/domains/`` (a page of 10 domains).
* ``mixed``: 80 % that same list, 10 % ``POST …/invites/`` (a new address each time), 10 %
  ``PATCH /api/organizations/@current/`` (toggle a setting).

The clients run on the same machine as the server, so they share its cores: the numbers are what a
test suite on the same machine gets, not the server alone.
"""
import argparse
import json
import statistics
import threading
import time

import requests


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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--api-key", required=True)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--out")
    args = parser.parse_args()
    url = args.url.rstrip("/")
    session = requests.Session()
    session.headers["Authorization"] = "Bearer " + args.api_key
    for i in range(10):  # the page the read workload lists
        session.post(url + "/api/organizations/@current/domains/", json={"domain": "load%d.bench-org.example" % i}, timeout=30)
    results = [run(url, args.api_key, workload, args.threads, args.seconds) for workload in ("read", "mixed")]
    if args.out:
        with open(args.out, "w") as handle:
            json.dump(results, handle)
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
