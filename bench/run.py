# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make bench`: the benchmark of issue 7, side by side in one run.

Starts its own emulator on a free loopback port, then:

1. Scenario, BENCH_RUNS times (default 3) for each way, on a freshly reset emulator each time:
   (a) the collection's modules (bench/playbooks/collection.yml), (b) the ansible.builtin.uri
   playbook an ops team would write (bench/playbooks/uri.yml), (c) the floor, plain Python with
   requests (bench/floor.py), (d) the whole scenario as one document, converged by
   posthog.admin.organization_state in one task (bench/playbooks/state.yml). Each run converges the scenario once (first run) and then again
   (idempotent re-run). The untimed setup before each run creates the organization, registers
   the plugin archives, raises the plugins access level and ingests the events.
2. Inventory of 2,000 organizations (seeded in bulk, untimed): `ansible-inventory --list` with
   posthog.admin.organizations (a), a uri + add_host play (b, BENCH_URI_INVENTORY_RUNS times,
   default 1: it is the slow one), and the floor paging with requests (c).
3. The emulator's throughput: 8 client threads, BENCH_THROUGHPUT_SECONDS (default 10) per workload;
   then its start-up time on a fresh database (BENCH_RUNS runs).

Per step and way: median wall time, the requests the emulator logged, the ratio to the floor.
Raw data: bench/.state/raw.json; report: bench/results.md and bench/results.png (bench/report.py,
which can be re-run alone on the raw data).
"""
import json
import os
import platform
import re
import statistics
import subprocess
import sys
import time

import requests

BENCH = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(BENCH)
sys.path.insert(0, BENCH)

import report  # noqa: E402
import scenario  # noqa: E402

PYTHON = sys.executable
BIN = os.path.dirname(PYTHON)
STATE = os.environ.get("BENCH_STATE") or os.path.join(BENCH, ".state")
BUILD = os.environ.get("BUILD") or "build"
COLLECTIONS = os.path.join(ROOT, BUILD)
RUNS = int(os.environ.get("BENCH_RUNS") or 3)
URI_INVENTORY_RUNS = int(os.environ.get("BENCH_URI_INVENTORY_RUNS") or 1)
THROUGHPUT_SECONDS = float(os.environ.get("BENCH_THROUGHPUT_SECONDS") or 10)
WAYS = ["collection", "uri", "floor", "state"]
# Way (d) converges the whole scenario in one task: one step.
WAY_STEPS = {"state": ["state"]}
WRITE_METHODS = ("POST", "PATCH", "PUT", "DELETE")


def say(text):
    print("[bench %s] %s" % (time.strftime("%H:%M:%S"), text), flush=True)


class Emulator:
    def __init__(self):
        self.ctl = [PYTHON, os.path.join(ROOT, "tests", "utils", "emulator_ctl.py")]
        self.state = os.path.join(STATE, "emulator")

    def start(self):
        subprocess.run(self.ctl + ["start", "--state", self.state], check=True)
        with open(os.path.join(self.state, "emulator.json")) as handle:
            info = json.load(handle)
        self.url, self.key = info["url"], info["api_key"]
        self.session = requests.Session()
        self.session.headers["Authorization"] = "Bearer " + self.key

    def stop(self):
        subprocess.run(self.ctl + ["stop", "--state", self.state], check=False)

    def control(self, method, path, body=None):
        response = requests.request(method, self.url + "/_emulator/" + path, json=body, timeout=120)
        if response.status_code >= 300:
            sys.exit("bench: %s /_emulator/%s -> %d %s" % (method, path, response.status_code, response.text[:300]))
        return response.json() if response.content else None

    def api(self, method, path, body=None, params=None):
        response = self.session.request(method, self.url + path, json=body, params=params, timeout=120)
        if response.status_code >= 300:
            sys.exit("bench: %s %s -> %d %s" % (method, path, response.status_code, response.text[:300]))
        return response.json() if response.content else None

    def requests_log(self, clear=True):
        log = self.control("GET", "requests")
        if clear:
            self.control("DELETE", "requests")
        return log


# ------------------------------------------------------------------------------------------ setup

def setup(emu, sc):
    """Untimed: a fresh emulator with the organization, its plugin archives and ingested events."""
    emu.control("POST", "reset", {"api_key": emu.key})
    org = emu.api("POST", "/api/organizations/", {"name": sc["org_name"]})
    emu.control("PUT", "organizations/%s/plugins_access_level" % org["id"], {"plugins_access_level": "install"})
    for plugin in sc["plugins"]:
        emu.control("POST", "plugin_archives", {
            "url": plugin["url"], "tag": "v1",
            "plugin_json": {"name": plugin["name"], "description": "A benchmark destination",
                            "capabilities": {"methods": ["onEvent"]}},
            "files": {"index.ts": "export function onEvent(event) {}\n"},
        })
    project = org["projects"][0]["id"]
    emu.control("POST", "projects/%d/events" % project, {"events": [e["name"] for e in sc["events"]]})
    emu.control("DELETE", "requests")
    return org["id"], project


def verify(emu, sc, org_id, project):
    """The end state every way must reach; returns a list of problems (empty when right)."""
    problems = []
    org = emu.api("GET", "/api/organizations/%s/" % org_id)
    for key, value in sc["org_settings"].items():
        if org.get(key) != value:
            problems.append("organization %s is %r" % (key, org.get(key)))
    base = "/api/organizations/%s/" % org_id
    big = {"limit": 10000}
    domains = set(d["domain"] for d in emu.api("GET", base + "domains/", params=big)["results"])
    if domains != set(sc["domains"]):
        problems.append("domains: %d of %d" % (len(domains & set(sc["domains"])), len(sc["domains"])))
    invites = emu.api("GET", base + "invites/", params=big)["results"]
    invited = set(i["target_email"] for i in invites if not i["is_expired"] and i["level"] == 1)
    wanted = set(p["email"] for p in sc["people"])
    if invited != wanted or len(invites) != len(wanted):
        problems.append("invites: %d pending for %d people (%d in all)" % (len(invited & wanted), len(wanted), len(invites)))
    exports = emu.api("GET", base + "batch_exports/", params=big)["results"]
    if sorted(e["name"] for e in exports) != sorted(e["name"] for e in sc["exports"]):
        problems.append("batch exports: %d of %d" % (len(exports), len(sc["exports"])))
    plugins = emu.api("GET", base + "pipeline_destinations/", params=big)["results"]
    if sorted(p["url"] for p in plugins) != sorted(p["url"] for p in sc["plugins"]):
        problems.append("plugins: %d of %d" % (len(plugins), len(sc["plugins"])))
    definitions = dict((d["name"], d) for d in emu.api("GET", "/api/projects/%s/event_definitions/" % project,
                                                       params=big)["results"])
    documented = sum(1 for e in sc["events"] if definitions.get(e["name"], {}).get("description") == e["description"]
                     and sorted(definitions[e["name"]].get("tags") or []) == sorted(e["tags"]))
    if documented != len(sc["events"]):
        problems.append("event definitions: %d of %d documented" % (documented, len(sc["events"])))
    return problems


# ------------------------------------------------------------------------------------------- ways

def ansible_env(emu, step_file):
    env = dict(os.environ)
    env.update({
        "ANSIBLE_CONFIG": os.path.join(BENCH, "ansible.cfg"),
        "ANSIBLE_COLLECTIONS_PATH": COLLECTIONS,
        "ANSIBLE_COLLECTIONS_SCAN_SYS_PATH": "false",
        "ANSIBLE_PYTHON_INTERPRETER": PYTHON,
        "ANSIBLE_CALLBACK_PLUGINS": os.path.join(BENCH, "callback_plugins"),
        "ANSIBLE_CALLBACKS_ENABLED": "bench_steps",
        "ANSIBLE_FORCE_COLOR": "0",
        "ANSIBLE_NOCOLOR": "1",
        "BENCH_EMULATOR_URL": emu.url,
        "BENCH_STEP_FILE": step_file,
        "POSTHOG_HOST": emu.url,
        "POSTHOG_API_KEY": emu.key,
        "PATH": BIN + os.pathsep + os.environ.get("PATH", ""),
    })
    return env


def run_logged(cmd, env, log_path, stdout_path=None):
    started = time.perf_counter()
    with open(log_path, "w") as log:
        out = open(stdout_path, "w") if stdout_path else log
        try:
            proc = subprocess.run(cmd, cwd=BENCH, env=env, stdout=out, stderr=log, check=False)
        finally:
            if stdout_path:
                out.close()
    wall = time.perf_counter() - started
    if proc.returncode:
        sys.exit("bench: %s failed (exit %d); see %s" % (" ".join(cmd[:3]), proc.returncode, log_path))
    return wall


def run_pass(emu, way, vars_file, tag):
    step_file = os.path.join(STATE, "steps-%s.json" % tag)
    log_path = os.path.join(STATE, "logs", "%s.log" % tag)
    env = ansible_env(emu, step_file)
    if way == "floor":
        cmd = [PYTHON, os.path.join(BENCH, "floor.py"), "scenario", "--vars", vars_file, "--out", step_file,
               "--emulator", emu.url]
    else:
        cmd = [os.path.join(BIN, "ansible-playbook"), "-i", "localhost,", "-c", "local",
               os.path.join(BENCH, "playbooks", way + ".yml"), "-e", "@" + vars_file]
    wall = run_logged(cmd, env, log_path)
    with open(step_file) as handle:
        steps = json.load(handle)["steps"]
    names = [s["name"] for s in steps]
    if names != WAY_STEPS.get(way, scenario.STEPS):
        sys.exit("bench: %s ran steps %s; see %s" % (way, names, log_path))
    for step in steps:
        if step["failed"]:
            sys.exit("bench: %s step %s failed; see %s" % (way, step["name"], log_path))
    return {"wall": wall, "steps": steps}


def scenario_phase(emu, sc):
    vars_file = os.path.join(STATE, "vars.json")
    with open(vars_file, "w") as handle:
        json.dump(dict(sc, bench_host=emu.url, bench_api_key=emu.key), handle)
    results = dict((way, []) for way in WAYS)
    for run in range(1, RUNS + 1):
        # The cheap way first and the ways in a rotating order, so slow drifts in machine load
        # do not always hit the same way.
        order = WAYS[run % len(WAYS):] + WAYS[:run % len(WAYS)]
        for way in order:
            org_id, project = setup(emu, sc)
            say("run %d/%d, %s: first run" % (run, RUNS, way))
            first = run_pass(emu, way, vars_file, "%s-%d-first" % (way, run))
            problems = verify(emu, sc, org_id, project)
            if problems:
                sys.exit("bench: %s did not reach the end state: %s" % (way, "; ".join(problems)))
            say("run %d/%d, %s: idempotent re-run" % (run, RUNS, way))
            again = run_pass(emu, way, vars_file, "%s-%d-again" % (way, run))
            problems = verify(emu, sc, org_id, project)
            if problems:
                sys.exit("bench: %s re-run broke the end state: %s" % (way, "; ".join(problems)))
            say("  %s: first %.1f s, re-run %.1f s (process wall)" % (way, first["wall"], again["wall"]))
            results[way].append({"first": first, "again": again})
    return results


def inventory_phase(emu):
    emu.control("POST", "reset", {"api_key": emu.key})
    seeded = emu.control("POST", "seed/organizations", {"count": scenario.N_INVENTORY_ORGS, "prefix": "Inventory org"})
    expected = seeded["created"] + 1  # and the bootstrap organization
    inv_dir = os.path.join(STATE, "inventory")
    os.makedirs(inv_dir, exist_ok=True)
    config = os.path.join(inv_dir, "bench.posthog.yml")
    with open(config, "w") as handle:
        handle.write("# posthog.admin.organizations; host and api_key from POSTHOG_HOST / POSTHOG_API_KEY\n"
                     "plugin: posthog.admin.organizations\n")
    vars_file = os.path.join(STATE, "vars.json")
    env = ansible_env(emu, os.path.join(STATE, "steps-inventory.json"))
    env.pop("ANSIBLE_CALLBACKS_ENABLED")
    results = {"collection": [], "uri": [], "floor": [], "hosts": expected}
    emu.control("DELETE", "requests")
    for run in range(1, RUNS + 1):
        say("inventory run %d/%d" % (run, RUNS))
        # (c) the floor, as a process
        out = os.path.join(STATE, "logs", "inventory-floor-%d.json" % run)
        wall = run_logged([PYTHON, os.path.join(BENCH, "floor.py"), "inventory", "--host", emu.url, "--api-key", emu.key],
                          env, os.path.join(STATE, "logs", "inventory-floor-%d.log" % run), stdout_path=out)
        with open(out) as handle:
            hosts = len(json.load(handle)["posthog_organizations"]["hosts"])
        with open(os.path.join(STATE, "logs", "inventory-floor-%d.log" % run)) as handle:
            in_process = json.loads(handle.read().strip().splitlines()[-1])["in_process_seconds"]
        results["floor"].append({"wall": wall, "hosts": hosts, "in_process": in_process, "requests": emu.requests_log()})
        # (a) ansible-inventory --list with the plugin, and the plugin alone in process
        out = os.path.join(STATE, "logs", "inventory-collection-%d.json" % run)
        wall = run_logged([os.path.join(BIN, "ansible-inventory"), "-i", config, "--list"], env,
                          os.path.join(STATE, "logs", "inventory-collection-%d.log" % run), stdout_path=out)
        with open(out) as handle:
            hosts = len(json.load(handle).get("posthog_organizations", {}).get("hosts", []))
        log = emu.requests_log()
        parse_out = os.path.join(STATE, "logs", "inventory-parse-%d.json" % run)
        run_logged([PYTHON, os.path.join(BENCH, "inventory_parse.py"), config], env,
                   os.path.join(STATE, "logs", "inventory-parse-%d.log" % run), stdout_path=parse_out)
        with open(parse_out) as handle:
            parsed = json.load(handle)
        emu.control("DELETE", "requests")
        # ansible-inventory's own start-up and output with a one-host inventory, for the breakdown
        baseline = run_logged([os.path.join(BIN, "ansible-inventory"), "-i", "localhost,", "--list"], env,
                              os.path.join(STATE, "logs", "inventory-baseline-%d.log" % run),
                              stdout_path=os.path.join(STATE, "logs", "inventory-baseline-%d.json" % run))
        results["collection"].append({"wall": wall, "hosts": hosts, "in_process": parsed["in_process_seconds"],
                                      "in_process_hosts": parsed["hosts"], "requests": log,
                                      "startup_baseline": baseline})
        # (b) uri + add_host
        if run <= URI_INVENTORY_RUNS:
            log_path = os.path.join(STATE, "logs", "inventory-uri-%d.log" % run)
            wall = run_logged([os.path.join(BIN, "ansible-playbook"), "-i", "localhost,", "-c", "local",
                               os.path.join(BENCH, "playbooks", "inventory_uri.yml"), "-e", "@" + vars_file],
                              env, log_path)
            with open(log_path) as handle:
                found = re.search(r'"msg": "(\d+) organizations"', handle.read())
            results["uri"].append({"wall": wall, "hosts": int(found.group(1)) if found else 0,
                                   "requests": emu.requests_log()})
    for way in ("collection", "uri", "floor"):
        for entry in results[way]:
            if entry["hosts"] != expected or entry.get("in_process_hosts", expected) != expected:
                sys.exit("bench: the %s inventory has %d hosts, expected %d" % (way, entry["hosts"], expected))
    return results


def throughput_phase(emu):
    emu.control("POST", "reset", {"api_key": emu.key})
    out = os.path.join(STATE, "throughput.json")
    say("emulator throughput: 8 threads, %g s per workload" % THROUGHPUT_SECONDS)
    subprocess.run([PYTHON, os.path.join(BENCH, "throughput.py"), "--url", emu.url, "--api-key", emu.key,
                    "--threads", "8", "--seconds", str(THROUGHPUT_SECONDS), "--out", out],
                   check=True, stdout=subprocess.DEVNULL)
    with open(out) as handle:
        return json.load(handle)


def startup_phase(runs):
    """The emulator's start-up: a fresh database each time, from the command to its "listening" line.
    (A timing, so it lives here rather than as a limit in the test suite.)"""
    say("emulator start-up: %d runs" % runs)
    seconds = []
    for run in range(runs):
        db = os.path.join(STATE, "startup-%d.sqlite3" % run)
        if os.path.exists(db):
            os.remove(db)
        started = time.perf_counter()
        process = subprocess.Popen([PYTHON, "-m", "posthog_emulator", "serve", "--host", "127.0.0.1", "--port", "0",
                                    "--db", db, "--api-key", "phx_" + "b" * 40, "--quiet"],
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            line = process.stdout.readline()
            seconds.append(time.perf_counter() - started)
            if "listening on" not in line:
                sys.exit("bench: the emulator did not start: %r" % line)
        finally:
            process.terminate()
            process.wait(timeout=30)
            process.stdout.close()
    return {"runs": runs, "median_s": statistics.median(seconds), "max_s": max(seconds)}


def environment():
    try:
        import ansible.release
        ansible_version = ansible.release.__version__
    except ImportError:
        ansible_version = "?"
    cpu = ""
    try:
        with open("/proc/cpuinfo") as handle:
            cpu = next((line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")), "")
    except OSError:
        pass
    return {"python": platform.python_version(), "ansible_core": ansible_version, "cpus": os.cpu_count(),
            "cpu_model": cpu, "platform": platform.platform(), "runs": RUNS, "uri_inventory_runs": URI_INVENTORY_RUNS,
            "throughput_seconds": THROUGHPUT_SECONDS, "date": time.strftime("%Y-%m-%d %H:%M %Z")}


def loadavg():
    try:
        return os.getloadavg()[0]
    except OSError:
        return None


def main():
    if RUNS < 1 or URI_INVENTORY_RUNS < 0:
        sys.exit("bench: BENCH_RUNS must be at least 1")
    if not os.path.isdir(os.path.join(COLLECTIONS, "ansible_collections", "posthog", "admin")):
        sys.exit("bench: no collection under %s; run `make collection` (or `make bench`)" % COLLECTIONS)
    os.makedirs(os.path.join(STATE, "logs"), exist_ok=True)
    started = time.perf_counter()
    env = environment()
    env["load_before"] = loadavg()
    emu = Emulator()
    emu.start()
    try:
        sc = scenario.scenario()
        data = {"environment": env}
        data["scenario"] = scenario_phase(emu, sc)
        data["inventory"] = inventory_phase(emu)
        data["throughput"] = throughput_phase(emu)
        data["startup"] = startup_phase(RUNS)
    finally:
        emu.stop()
    env["load_after"] = loadavg()
    env["total_seconds"] = time.perf_counter() - started
    raw = os.path.join(STATE, "raw.json")
    with open(raw, "w") as handle:
        json.dump(data, handle)
    out = STATE if scenario.SMOKE else BENCH
    report.write(data, os.path.join(out, "results.md"), os.path.join(out, "results.png"))
    say("done in %.0f s: %s, %s (raw data: %s)" % (
        env["total_seconds"], os.path.relpath(os.path.join(out, "results.md"), ROOT),
        os.path.relpath(os.path.join(out, "results.png"), ROOT), os.path.relpath(raw, ROOT)))


if __name__ == "__main__":
    main()
