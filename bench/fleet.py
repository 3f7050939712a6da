"""The fleet benchmark (issue 25, part of `make bench`): many small organizations in one run.

BENCH_FLEET_ORGS organizations (default 50; 500 on request) are seeded through the emulator's control
API, each with 3 ingested events; each gets its own document (3 settings, 2 domains, 5 people,
1 batch export, 3 event definitions) in bench/.state/fleet/docs/<slug>.yml. The inventory plugin
(posthog.admin.organizations, a constructed group `fleet`) makes one host per organization and one
organization_state task converges each from its document (`definition_file`), connection local. The
first converge is untimed; then the unchanged re-run is timed, beside an ansible.builtin.ping play
over the same hosts at the same forks, in the same run:

- forks 1, 2 and 5 (BENCH_FLEET_FORKS), BENCH_FLEET_RUNS runs each (median): organization_state runs in
  the worker (its action plugin: connection local, the controller's Python);
- forks 2 with `-e posthog_admin_in_process=false`: organization_state as a module process;
- Mitogen's strategy (mitogen_linear, forks 5) when `ansible_mitogen` is importable;
- the floor: the same GET requests the re-run made, replayed with requests.Session in one process.

Each row: wall time, CPU seconds (user+sys of ansible-playbook and every process it waited for, from
getrusage(RUSAGE_CHILDREN)), CPU per organization, requests the emulator logged. CPU, not wall time,
is what a shared machine can compare: the target (issue 25) is organization_state <= 1.25x ping's CPU
per host at forks 2.

Then where one organization's CPU goes as a module process: the module process run by hand from a kept AnsiballZ payload
(`python <payload>`, as Ansible runs it and ANSIBLE_KEEP_REMOTE_FILES=1 leaves it), beside ping's,
Python's bare start-up and its imports one by one (ansible.module_utils.basic, requests, the collection's
code) from the payload's own zip; the rest is the controller's own work per host.

Finally `ansible-inventory --list` on BENCH_FLEET_INVENTORY_ORGS (default 2,000) organizations, cold
(empty cache) and warm (from the plugin's jsonfile cache).

    python bench/fleet.py                         # after `make collection`; `make bench` runs it
    BENCH_FLEET_ORGS=500 python bench/fleet.py    # the large fleet
    BENCH_FLEET_SMOKE=1 python bench/fleet.py     # 4 organizations, 1 run, 50 in the inventory
    python bench/fleet.py report                  # fleet.md again from bench/.state/fleet.json

Writes bench/fleet.md (bench/.state/fleet.md with BENCH_FLEET_SMOKE) and bench/.state/fleet.json.
"""

import glob
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

import requests

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)

from run import BIN, PYTHON, STATE, Emulator, ansible_env, say  # noqa: E402  (bench/run.py's helpers)

SMOKE = os.environ.get("BENCH_FLEET_SMOKE") == "1"
ORGS = int(os.environ.get("BENCH_FLEET_ORGS") or (4 if SMOKE else 50))
RUNS = int(os.environ.get("BENCH_FLEET_RUNS") or (1 if SMOKE else 3))
FORKS = [int(f) for f in (os.environ.get("BENCH_FLEET_FORKS") or "1,2,5").split(",")]
INVENTORY_ORGS = int(os.environ.get("BENCH_FLEET_INVENTORY_ORGS") or (50 if SMOKE else 2000))
WORK = os.path.join(STATE, "fleet")
DOCS = os.path.join(WORK, "docs")
PREFIX = "Fleet org"
HTTP = {"type": "HTTP", "config": {"url": "https://eu.i.posthog.com/batch/", "token": "fleet-token"}}
EVENTS = ["signed_up", "checkout_started", "invoice_paid"]
TARGET = 1.25  # organization_state's CPU per host, at most this times ping's (forks 2)
WORKER = "ansible-playbook"  # organization_state in the worker (its action plugin; connection local)
PROCESS = "ansible-playbook, module process"  # the same with posthog_admin_in_process=false


def document(slug, name, me):
    return {
        "name": name,
        "settings": {"enforce_2fa": False, "is_member_join_email_enabled": False,
                     "allow_publicly_shared_resources": False},
        "domains": [{"domain": "%s.%s.example" % (part, slug)} for part in ("eu", "us")],
        "roster": {"people": [{"email": "person%d@%s.example" % (i, slug), "level": "member"} for i in range(5)]
                   + [{"email": me, "level": "owner"}], "send_email": False},
        "batch_exports": [{"name": "Events to the warehouse", "interval": "day", "destination": HTTP}],
        "event_definitions": [{"name": e, "description": "%s (%s)" % (e.replace("_", " "), name)} for e in EVENTS],
    }


def write(path, text):
    with open(path, "w") as handle:
        handle.write(text)


def setup(emu):
    """Untimed: the fleet's organizations, their events, documents, inventory and playbooks."""
    emu.control("POST", "reset", {"api_key": emu.key})
    me = emu.control("GET", "info")["user"]["email"]
    emu.control("POST", "seed/organizations", {"count": ORGS, "prefix": PREFIX})
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(DOCS)
    orgs = [o for o in emu.api("GET", "/api/organizations/", params={"limit": 10000})["results"]
            if o["name"].startswith(PREFIX)]
    for org in orgs:
        detail = emu.api("GET", "/api/organizations/%s/" % org["id"])
        emu.control("POST", "projects/%s/events" % detail["teams"][0]["id"], {"events": EVENTS})
        write(os.path.join(DOCS, org["slug"] + ".yml"), json.dumps(document(org["slug"], org["name"], me), indent=1))
    write(os.path.join(WORK, "fleet.posthog.yml"),
          "plugin: posthog.admin.organizations\n"
          "groups:\n  fleet: posthog_name.startswith(%r)\n" % PREFIX)
    common = ("  hosts: fleet\n  connection: local\n  gather_facts: false\n"
              "  vars:\n    ansible_python_interpreter: \"{{ ansible_playbook_python }}\"\n  tasks:\n")
    write(os.path.join(WORK, "state.yml"),
          "---\n- name: Every organization of the fleet is as its document says\n" + common
          + "    - name: Converge the organization\n      posthog.admin.organization_state:\n"
          "        definition_file: \"%s/{{ inventory_hostname }}.yml\"\n" % DOCS)
    write(os.path.join(WORK, "ping.yml"), "---\n- name: Ping every organization host\n" + common
          + "    - name: Ping\n      ansible.builtin.ping:\n")
    emu.control("DELETE", "requests")
    return me


def cpu_children():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd, env, expect=None):
    """Wall and CPU seconds of a command (its CPU includes every process it waited for)."""
    cpu = cpu_children()
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=WORK, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.perf_counter() - started
    cpu = cpu_children() - cpu
    if proc.returncode:
        sys.exit("fleet: %s failed:\n%s" % (" ".join(cmd[:6]), proc.stdout[-4000:]))
    if expect is not None and proc.stdout.count(expect) != ORGS:
        sys.exit("fleet: expected %r for %d hosts:\n%s" % (expect, ORGS, proc.stdout[-4000:]))
    return wall, cpu, proc.stdout


def mitogen_strategy():
    try:
        import ansible_mitogen  # noqa: F401  (optional: `pip install mitogen`)
    except ImportError:
        return None
    return os.path.join(os.path.dirname(ansible_mitogen.__file__), "plugins", "strategy")


def play(env, book, forks, strategy=None):
    cmd = [os.path.join(BIN, "ansible-playbook"), "-i", "fleet.posthog.yml", "-f", str(forks), book]
    env = dict(env)
    if strategy:
        env.update({"ANSIBLE_STRATEGY_PLUGINS": strategy, "ANSIBLE_STRATEGY": "mitogen_linear"})
    return cmd, env


MODULE_PROCESS = ["-e", "posthog_admin_in_process=false"]  # organization_state as a module process


def measure_way(emu, env, label, forks, strategy=None, extra=()):
    """RUNS x (ping, then the unchanged re-run) at these forks; the medians and the re-run's requests."""
    pings, states, log = [], [], []
    for dummy in range(RUNS):
        cmd, e = play(env, "ping.yml", forks, strategy)
        pings.append(timed(cmd, e, expect="ok=1 ")[:2])
        emu.control("DELETE", "requests")
        cmd, e = play(env, "state.yml", forks, strategy)
        states.append(timed(cmd + list(extra), e, expect="changed=0 ")[:2])
        log = emu.requests_log()
        if any(r["method"] != "GET" for r in log):
            sys.exit("fleet: the unchanged re-run (%s) wrote" % label)
    row = dict(way=label, forks=forks, wall=statistics.median(s[0] for s in states),
               cpu=statistics.median(s[1] for s in states), ping_wall=statistics.median(p[0] for p in pings),
               ping_cpu=statistics.median(p[1] for p in pings), requests=len(log))
    say("%s: %.1f s wall, %.2f s CPU/org (ping %.2f s CPU/host, x%.2f), %d requests" % (
        label, row["wall"], row["cpu"] / ORGS, row["ping_cpu"] / ORGS, row["cpu"] / row["ping_cpu"], row["requests"]))
    return row, log


def slices(emu, env, count=2):
    """The fleet as AWX's job slicing runs it: `count` runs of the same play, each with --limit on every
    count-th host of the sorted host list (AWX gives each slice its own share of the inventory), one after
    the other. Each slice must converge only its hosts; together they make the requests of one run."""
    hosts = sorted(os.path.splitext(name)[0] for name in os.listdir(DOCS))
    out = []
    for index in range(count):
        share = hosts[index::count]
        limit = os.path.join(WORK, "slice-%d.txt" % index)
        write(limit, "\n".join(share) + "\n")
        emu.control("DELETE", "requests")
        cmd, e = play(env, "state.yml", 2)
        wall, cpu, stdout = timed(cmd + ["--limit", "@" + limit], e)
        ran = sorted(line.split()[0] for line in stdout.splitlines() if "changed=0" in line and " : ok=" in line)
        if ran != share:
            sys.exit("fleet: slice %d ran %d hosts, not its %d" % (index, len(ran), len(share)))
        log = emu.requests_log()
        out.append(dict(slice=index + 1, hosts=len(share), wall=wall, cpu=cpu, requests=len(log)))
        say("slice %d/%d: %d hosts, %.1f s wall, %.2f s CPU, %d requests" % (index + 1, count, len(share), wall, cpu,
                                                                            len(log)))
    return out


def floor(emu, log):
    """The same GETs the re-run made, with one requests.Session, in a process of its own."""
    urls = [emu.url + r["path"] + ("?" + r["query"] if r["query"] else "") for r in log]
    path = os.path.join(WORK, "floor-urls.json")
    write(path, json.dumps({"urls": urls, "key": emu.key}))
    walls, cpus = [], []
    for dummy in range(RUNS):
        emu.control("DELETE", "requests")
        wall, cpu, dummy_out = timed([PYTHON, os.path.abspath(__file__), "floor", path], dict(os.environ))
        walls.append(wall)
        cpus.append(cpu)
    count = len(emu.requests_log())  # one replay's (the log is cleared before each)
    row = dict(way="floor (requests, same GETs)", forks=1, wall=statistics.median(walls), cpu=statistics.median(cpus),
               ping_wall=None, ping_cpu=None, requests=count)
    say("floor: %.1f s wall, %.3f s CPU/org, %d requests" % (row["wall"], row["cpu"] / ORGS, count))
    return row


def floor_main(path):
    with open(path) as handle:
        data = json.load(handle)
    session = requests.Session()
    session.headers["Authorization"] = "Bearer " + data.pop("key")
    for url in data["urls"]:
        session.get(url, timeout=60).raise_for_status()


def cpu_of(cmd, env, cwd=WORK, repeat=5):
    """Median CPU seconds of a short command run `repeat` times."""
    samples = []
    for dummy in range(repeat):
        cpu = cpu_children()
        proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        samples.append(cpu_children() - cpu)
        if proc.returncode:
            sys.exit("fleet: %s failed:\n%s" % (" ".join(cmd), proc.stdout[-3000:]))
    return statistics.median(samples)


IMPORT_STEPS = (("basic", "ansible.module_utils.basic"), ("requests", "requests"),
                ("collection", "ansible_collections.posthog.admin.plugins.modules.organization_state"))


def import_costs(zip_path, repeat=7):
    """CPU seconds of each import step in turn (IMPORT_STEPS), from a zip of the payload's own files as
    AnsiballZ runs them (zipimport: sources compiled on every run), median of ``repeat`` fresh processes."""
    code = ("import sys, time\nsys.path.insert(0, %r)\nout = []\nt = time.process_time()\n"
            "for name in %r:\n    __import__(name)\n    now = time.process_time()\n    out.append(now - t)\n"
            "    t = now\nprint(' '.join(str(x) for x in out))\n" % (zip_path, [m for dummy, m in IMPORT_STEPS]))
    samples = []
    for dummy in range(repeat):
        out = subprocess.run([PYTHON, "-c", code], stdout=subprocess.PIPE, text=True, check=True).stdout
        samples.append([float(x) for x in out.split()])
    return dict((name, statistics.median(s[i] for s in samples)) for i, (name, dummy) in enumerate(IMPORT_STEPS))


def profile(emu, env, rows):
    """Where one organization's CPU goes: the module process run from a kept payload as Ansible runs it,
    beside ping's, and its imports one by one."""
    remote = os.path.join(WORK, "remote_tmp")
    shutil.rmtree(remote, ignore_errors=True)
    keep = dict(env, ANSIBLE_KEEP_REMOTE_FILES="1", ANSIBLE_REMOTE_TMP=remote)
    payloads = {}
    for module, book in (("organization_state", "state.yml"), ("ping", "ping.yml")):
        cmd = [os.path.join(BIN, "ansible-playbook"), "-i", "fleet.posthog.yml", "-f", "1", "--limit",
               "fleet-org-%s" % ("1".zfill(max(4, len(str(ORGS))))), book]
        timed(cmd + (MODULE_PROCESS if module == "organization_state" else []), keep)
        found = sorted(glob.glob(os.path.join(remote, "ansible-tmp-*", "AnsiballZ_%s.py" % module)))
        if not found:
            sys.exit("fleet: no kept AnsiballZ payload for %s under %s" % (module, remote))
        payloads[module] = found[-1]
    bare = dict(os.environ, POSTHOG_HOST=emu.url, POSTHOG_API_KEY=emu.key)
    out = {"python_startup": cpu_of([PYTHON, "-c", "pass"], bare)}
    for module, payload in payloads.items():
        out[module + "_payload_bytes"] = os.path.getsize(payload)
        # `python <payload>`, as Ansible runs it: the module and its module_utils imported from the zip
        out[module + "_process"] = cpu_of([PYTHON, payload], bare, cwd=os.path.dirname(payload), repeat=7)
    emu.control("DELETE", "requests")
    # The imports one by one, from the payload's own files zipped again (explode unpacks them).
    payload = payloads["organization_state"]
    subprocess.run([PYTHON, payload, "explode"], cwd=os.path.dirname(payload), check=True, stdout=subprocess.PIPE)
    debug = os.path.join(os.path.dirname(payload), "debug_dir")
    zip_path = shutil.make_archive(os.path.join(WORK, "payload-files"), "zip", debug)
    out.update(("import_" + k, v) for k, v in import_costs(zip_path).items())
    out["module_utils_count"] = len(glob.glob(os.path.join(
        debug, "ansible_collections", "posthog", "admin", "plugins", "module_utils", "*.py"))) - 1
    forks2 = [r for r in rows if r["forks"] == 2 and r["way"] == WORKER]
    if forks2:
        r = forks2[0]
        out["state_per_org"] = r["cpu"] / ORGS
        out["ping_per_host"] = r["ping_cpu"] / ORGS
    out.update(split(emu, env))
    say("profile: %s" % json.dumps(out))
    return out


def split(emu, env):
    """The CPU of one play at forks 2 split between the module processes and the controller: the module runs
    under /usr/bin/time (a C program: nothing of its own to count), which appends each process's user+sys."""
    if not os.path.exists("/usr/bin/time"):
        return {}
    wrapper = os.path.join(WORK, "timed-python")
    write(wrapper, '#!/bin/sh\nexec /usr/bin/time -a -o "$FLEET_MODULE_CPU" -f "%%U %%S" %s "$@"\n' % PYTHON)
    os.chmod(wrapper, 0o755)
    out = {}
    for module, book in (("organization_state", "state.yml"), ("ping", "ping.yml")):
        record = os.path.join(WORK, "module-cpu-%s.txt" % module)
        if os.path.exists(record):
            os.remove(record)
        cmd, e = play(dict(env, FLEET_MODULE_CPU=record), book, 2)
        wall, cpu, dummy = timed(cmd + ["-e", "ansible_python_interpreter=" + wrapper], e)
        with open(record) as handle:
            samples = [sum(float(x) for x in line.split()) for line in handle if line.strip()]
        if len(samples) != ORGS:
            sys.exit("fleet: %d module processes timed for %d hosts" % (len(samples), ORGS))
        out[module + "_modules"] = sum(samples) / ORGS
        out[module + "_controller"] = (cpu - sum(samples)) / ORGS
    emu.control("DELETE", "requests")
    return out


def inventory(emu, env):
    """ansible-inventory --list on INVENTORY_ORGS organizations: cold (empty cache), then warm."""
    emu.control("POST", "reset", {"api_key": emu.key})
    emu.control("POST", "seed/organizations", {"count": INVENTORY_ORGS, "prefix": "Inventory org"})
    cache = os.path.join(WORK, "inventory-cache")
    write(os.path.join(WORK, "large.posthog.yml"),
          "plugin: posthog.admin.organizations\ncache: true\ncache_plugin: ansible.builtin.jsonfile\n"
          "cache_connection: %s\ncache_timeout: 3600\n" % cache)
    cmd = [os.path.join(BIN, "ansible-inventory"), "-i", "large.posthog.yml", "--list"]
    rows = []
    for label in ("cold (empty cache)", "warm (from the cache)"):
        if label.startswith("cold"):
            shutil.rmtree(cache, ignore_errors=True)
        emu.control("DELETE", "requests")
        wall, cpu, out = timed(cmd, env)
        hosts = len(json.loads(out[out.index("{"):])["_meta"]["hostvars"])
        rows.append(dict(way=label, wall=wall, cpu=cpu, requests=len(emu.requests_log()), hosts=hosts))
        say("inventory %s: %.2f s wall, %.2f s CPU, %d requests, %d hosts" % (
            label, wall, cpu, rows[-1]["requests"], hosts))
    return rows


def report(rows, prof, inv, sliced, out_path):
    lines = ["# The fleet benchmark: many organizations in one run", "",
             "%d organizations, each converged by one `organization_state` task from its own document (3 settings, "
             "2 domains, 5 people, 1 batch export, 3 event definitions), hosts from the `posthog.admin.organizations` "
             "inventory plugin, `connection: local`; the unchanged re-run, median of %d, beside an "
             "`ansible.builtin.ping` play over the same hosts at the same forks, in the same run. CPU is user+sys of "
             "ansible-playbook and every process it ran (the module processes included). Written by `bench/fleet.py` "
             "(`make bench`) on %d cores." % (ORGS, RUNS, os.cpu_count()), "",
             "| way | forks | wall (s) | CPU (s) | CPU per organization (s) | ping CPU per host (s) | state / ping "
             "| requests |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        ratio = "%.2f" % (r["cpu"] / r["ping_cpu"]) if r["ping_cpu"] else ""
        ping = "%.3f" % (r["ping_cpu"] / ORGS) if r["ping_cpu"] else ""
        lines.append("| %s | %d | %.1f | %.1f | %.3f | %s | %s | %d |" % (
            r["way"], r["forks"], r["wall"], r["cpu"], r["cpu"] / ORGS, ping, ratio, r["requests"]))
    if prof:
        per_org = prof.get("state_per_org")
        lines += ["", "## Where one organization's CPU goes", "",
                  "With `connection: local` and the controller's own Python as the interpreter (as the inventory "
                  "plugin's examples set them), organization_state's action plugin runs the module's engine in the "
                  "worker that would otherwise start a module process (rows `%s`): no process, no payload, and "
                  "ansible-core's and the collection's code imported from their cached bytecode instead of compiled "
                  "from the payload's zip. The rows `%s` run it as a module process "
                  "(`posthog_admin_in_process: false`), as on any other connection; this section takes that path "
                  "apart." % (WORKER, PROCESS), "",
                  "The module processes run by hand from payloads kept with `ANSIBLE_KEEP_REMOTE_FILES=1`, as Ansible "
                  "runs them (`python <payload>`: the module and its module_utils imported from the payload's zip, "
                  "which Python compiles from source on every run), median of 7, alone and one at a time: the "
                  "module processes of the play (next table) run two at a time beside the machine's other jobs, "
                  "and cost more CPU for it. The imports are timed one after the other in a fresh process, from "
                  "the payload's own files zipped again.", "",
                  "| part | CPU (s) |", "|---|---|",
                  "| Python start-up (`python -c pass`) | %.3f |" % prof["python_startup"],
                  "| `ansible.module_utils.basic` imported (ping pays it too) | %.3f |" % prof["import_basic"],
                  "| then `requests` imported | %.3f |" % prof["import_requests"],
                  "| then organization_state's module and the module_utils it imports (%d in the payload) | %.3f |"
                  % (prof["module_utils_count"], prof["import_collection"]),
                  "| ping's module process (payload %d bytes) | %.3f |" % (prof["ping_payload_bytes"], prof["ping_process"]),
                  "| organization_state's module process (payload %d bytes): start-up, imports, the converge "
                  "(6 reads), the answer | %.3f |" % (prof["organization_state_payload_bytes"],
                                                     prof["organization_state_process"])]
        if "ping_modules" in prof:
            lines += ["", "One play at forks 2, each module process run under `/usr/bin/time` (an interpreter "
                      "wrapper): CPU per host.", "",
                      "| play | module processes (s) | controller (s) | total (s) |", "|---|---|---|---|"]
            for module in ("ping", "organization_state"):
                lines.append("| %s%s | %.3f | %.3f | %.3f |" % (
                    module, " (module process)" if module != "ping" else "", prof[module + "_modules"],
                    prof[module + "_controller"], prof[module + "_modules"] + prof[module + "_controller"]))
            if per_org:
                lines.append("| organization_state (in the worker; the forks-2 row above) | 0 | %.3f | %.3f |"
                             % (per_org, per_org))
        if per_org:
            lines += ["", "Target (issue 25): organization_state's CPU per organization at most %.2f x ping's per "
                      "host at forks 2: %.3f s vs %.3f s, x%.2f, %s." % (
                          TARGET, per_org, prof["ping_per_host"], per_org / prof["ping_per_host"],
                          "met" if per_org <= TARGET * prof["ping_per_host"] else "MISSED")]
    if sliced:
        lines += ["", "## Two slices, as AWX's job slicing runs them", "",
                  "The same play twice at forks 2, each with `--limit` on every second host of the sorted list, one "
                  "after the other (AWX runs them side by side on its execution nodes).", "",
                  "| slice | hosts | wall (s) | CPU (s) | requests |", "|---|---|---|---|---|"]
        for r in sliced:
            lines.append("| %d | %d | %.1f | %.1f | %d |" % (r["slice"], r["hosts"], r["wall"], r["cpu"], r["requests"]))
    if inv:
        lines += ["", "## The inventory of %d organizations" % INVENTORY_ORGS, "",
                  "`ansible-inventory -i large.posthog.yml --list` with the plugin's `jsonfile` cache.", "",
                  "| run | wall (s) | CPU (s) | requests | hosts |", "|---|---|---|---|---|"]
        for r in inv:
            lines.append("| %s | %.2f | %.2f | %d | %d |" % (r["way"], r["wall"], r["cpu"], r["requests"], r["hosts"]))
    write(out_path, "\n".join(lines) + "\n")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "floor":
        return floor_main(sys.argv[2])
    if len(sys.argv) == 2 and sys.argv[1] == "report":  # re-render fleet.md from bench/.state/fleet.json
        with open(os.path.join(STATE, "fleet.json")) as handle:
            data = json.load(handle)
        global ORGS, RUNS  # pylint: disable=global-statement
        ORGS, RUNS = data["orgs"], data["runs"]
        return report(data["rows"], data["profile"], data["inventory"], data.get("slices"),
                      os.path.join(STATE if SMOKE else BENCH, "fleet.md"))
    os.makedirs(STATE, exist_ok=True)
    emu = Emulator()
    emu.start()
    try:
        env = ansible_env(emu, os.path.join(STATE, "fleet-steps.json"))
        env.pop("ANSIBLE_CALLBACKS_ENABLED", None)
        env["ANSIBLE_INVENTORY_ENABLED"] = "posthog.admin.organizations"
        setup(emu)
        say("fleet: %d organizations seeded; the first converge (untimed, forks 5)" % ORGS)
        cmd, e = play(env, "state.yml", 5)
        timed(cmd, e, expect="changed=1 ")
        emu.requests_log()
        rows, log = [], []
        for forks in FORKS:
            row, log = measure_way(emu, env, WORKER, forks)
            rows.append(row)
        rows.append(measure_way(emu, env, PROCESS, 2, extra=MODULE_PROCESS)[0])
        strategy = mitogen_strategy() if os.environ.get("BENCH_FLEET_MITOGEN") != "0" else None
        if strategy:
            rows.append(measure_way(emu, env, "Mitogen (mitogen_linear)", 5, strategy)[0])
        else:
            say("Mitogen left out (not installed, or BENCH_FLEET_MITOGEN=0)")
        rows.append(floor(emu, log))
        sliced = slices(emu, env)
        prof = profile(emu, env, rows)
        inv = inventory(emu, env) if INVENTORY_ORGS else []
    finally:
        emu.stop()
    out_path = os.path.join(STATE if SMOKE else BENCH, "fleet.md")
    report(rows, prof, inv, sliced, out_path)
    with open(os.path.join(STATE, "fleet.json"), "w") as handle:
        json.dump({"orgs": ORGS, "runs": RUNS, "rows": rows, "profile": prof, "inventory": inv, "slices": sliced},
                  handle, indent=1)
    say("fleet: %s" % os.path.relpath(out_path, os.path.dirname(BENCH)))


if __name__ == "__main__":
    main()
