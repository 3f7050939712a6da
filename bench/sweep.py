"""The size sweep of organization_state (part of `make bench`): how the idempotent re-run of a whole
organization grows with its size, beside a one-task ansible.builtin.ping playbook and a plain-requests
floor making the reads needed to decide.

For S in BENCH_SWEEP_SIZES (default 10,100,1000,10000): an organization with S people (pending
invites), S documented event definitions and S/10 batch exports; the first run creates them (timed
once, its writes counted against the floor's: bulk invites 20 a request, one PATCH per definition, one
POST per export), then the re-run is timed BENCH_SWEEP_RUNS times (median). Writes bench/sweep.md and
bench/.state/sweep.json. Targets (issue 22): re-run at S=1,000 within ping + 1.5 s, at S=10,000 within
ping + 10 s; its requests at most the floor's plus one per extra page.

Issue 32 adds, per size: the CPU of the first run (plan and apply) against check mode's (the plan
alone) from the same state, at most 1.2 times; and the organization exported with
organization_state_info (``dest``) then applied again, as the guides do: with ``definition_file``
(target at S=10,000: ping + 3 s, its requests the floor's: each collection the export names read once,
500 a page) and inline (``definition: "{{ lookup('file', ...) | from_yaml }}"``, templated by Ansible and
run as a module process: ping + 10 s).

    python bench/sweep.py            # after `make collection`; `make bench` runs it
"""

import json
import os
import resource
import statistics
import subprocess
import sys
import time

import requests

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)

from run import BIN, PYTHON, STATE, Emulator, ansible_env, say  # noqa: E402  (bench/run.py's helpers)

SIZES = [int(s) for s in (os.environ.get("BENCH_SWEEP_SIZES") or "10,100,1000,10000").split(",")]
RUNS = int(os.environ.get("BENCH_SWEEP_RUNS") or 3)
PAGE = 500  # the collection's page size (and the floor's)
HTTP = {"type": "HTTP", "config": {"url": "https://eu.i.posthog.com/batch/", "token": "sweep-token"}}


def document(size):
    return {
        "name": "Sweep Org",
        "roster": {"people": [{"email": "person%05d@sweep.example" % i, "level": "member"} for i in range(size)]
                   + [{"email": "admin@example.com", "level": "owner"}], "send_email": False},
        "batch_exports": [{"name": "Export %04d" % i, "interval": "day", "destination": HTTP}
                          for i in range(max(1, size // 10))],
        "event_definitions": [{"name": "event_%05d" % i, "description": "Event %d" % i} for i in range(size)],
    }


def setup(emu, size):
    emu.control("POST", "reset", {"api_key": emu.key})
    info = emu.control("GET", "info")
    org = info["organization"]
    emu.api("PATCH", "/api/organizations/%s/" % org["id"], {"name": "Sweep Org"})
    for start in range(0, size, 2000):
        emu.control("POST", "projects/%s/events" % info["project"]["id"],
                    {"events": ["event_%05d" % i for i in range(start, min(size, start + 2000))]})
    emu.control("DELETE", "requests")
    return org["id"], info["project"]["id"], info["user"]["email"]


def playbook(path, body):
    with open(path, "w") as handle:
        handle.write("---\n- name: Sweep\n  hosts: localhost\n  gather_facts: false\n  tasks:\n" + body)


def timed(cmd, env):
    """``(wall seconds, output, CPU seconds)``: the CPU (user + sys) of the command and everything it
    started, which a busy machine inflates far less than the wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=BENCH, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        sys.exit("sweep: %s failed:\n%s" % (" ".join(cmd[:4]), proc.stdout[-3000:]))
    return wall, proc.stdout, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def floor_reads(emu, org_id, project):
    """The reads that decide the re-run, with requests and 500 a page; returns (seconds, requests)."""
    session = requests.Session()
    session.headers["Authorization"] = "Bearer " + emu.key
    started = time.perf_counter()
    count = 0
    paths = ["/api/organizations/", "/api/organizations/%s/members/" % org_id, "/api/organizations/%s/invites/" % org_id,
             "/api/projects/%s/batch_exports/" % project, "/api/projects/%s/event_definitions/" % project]
    for path in paths:
        url = emu.url + path + "?limit=%d" % PAGE
        while url:
            page = session.get(url, timeout=120).json()
            count += 1
            url = page.get("next") if isinstance(page, dict) else None
    return time.perf_counter() - started, count


def measure(emu, size, env):
    org_id, project, me = setup(emu, size)
    doc = document(size)
    doc["roster"]["people"][-1]["email"] = me
    doc_path = os.path.join(STATE, "sweep-%d.yml" % size)
    with open(doc_path, "w") as handle:
        json.dump(doc, handle)  # JSON is YAML
    book = os.path.join(STATE, "sweep-state.yml")
    playbook(book, "    - name: The organization is as the document says\n"
                   "      posthog.admin.organization_state:\n        definition_file: %s\n" % doc_path)
    ping = os.path.join(STATE, "sweep-ping.yml")
    playbook(ping, "    - name: Ping\n      ansible.builtin.ping:\n")
    cmd = [os.path.join(BIN, "ansible-playbook"), "-i", "localhost,", "-c", "local"]
    plan_cpu = timed(cmd + ["--check", book], env)[2]  # the plan alone, from the state the first run starts in
    emu.requests_log()
    first, dummy_out, first_cpu = timed(cmd + [book], env)
    log = emu.requests_log()
    first_writes = sum(1 for r in log if r["method"] != "GET")
    floor_writes = -(-size // 20) + size + max(1, size // 10)  # bulk invites, a PATCH per definition, exports
    reruns, pings, floors, reqs, cpus, ping_cpus = [], [], [], None, [], []
    for dummy in range(RUNS):
        wall, dummy_out, cpu = timed(cmd + [ping], env)
        pings.append(wall)
        ping_cpus.append(cpu)
        wall, out, cpu = timed(cmd + [book], env)
        if "changed=0" not in out:
            sys.exit("sweep: the re-run at S=%d changed something:\n%s" % (size, out[-3000:]))
        reruns.append(wall)
        cpus.append(cpu)
        log = emu.requests_log()
        reqs = len(log)
        if any(r["method"] != "GET" for r in log):
            sys.exit("sweep: the re-run at S=%d wrote" % size)
        floors.append(floor_reads(emu, org_id, project))
        emu.requests_log()
    floor_s = statistics.median(f[0] for f in floors)
    floor_n = floors[0][1]
    row = dict(size=size, first=first, first_writes=first_writes, floor_writes=floor_writes,
               rerun=statistics.median(reruns), ping=statistics.median(pings), floor=floor_s,
               requests=reqs, floor_requests=floor_n, cpu=statistics.median(cpus), ping_cpu=statistics.median(ping_cpus),
               plan_cpu=plan_cpu, first_cpu=first_cpu, load=os.getloadavg()[0])
    row.update(exported(emu, size, env, cmd))
    say("S=%d: re-run %.2f s, %.2f s CPU (ping %.2f s, %.2f s CPU; floor %.2f s), %d requests (floor %d); first run "
        "%.1f s, %d writes (floor %d); load %.1f" % (size, row["rerun"], row["cpu"], row["ping"], row["ping_cpu"],
                                                    floor_s, reqs, floor_n, first, first_writes, floor_writes, row["load"]))
    return row


def exported(emu, size, env, cmd):
    """The organization exported (organization_state_info, dest), then applied again as the guides do:
    ``definition_file``, and inline through Ansible's templating (a module process). Re-run times, CPU,
    requests, and the floor's requests: each collection the re-run reads, once, 500 a page."""
    dest = os.path.join(STATE, "sweep-export-%d.yml" % size)
    book = os.path.join(STATE, "sweep-export.yml")
    playbook(book, "    - name: Export the organization\n      posthog.admin.organization_state_info:\n"
                   "        organization: Sweep Org\n        dest: %s\n" % dest)
    timed(cmd + [book], env)
    applied = os.path.join(STATE, "sweep-apply-file.yml")
    playbook(applied, "    - name: The organization is as its export says\n      posthog.admin.organization_state:\n"
                      "        definition_file: %s\n" % dest)
    inline = os.path.join(STATE, "sweep-apply-inline.yml")
    playbook(inline, "    - name: The organization is as its export says (inline)\n"
                     "      posthog.admin.organization_state:\n"
                     "        definition: \"{{ lookup('ansible.builtin.file', '%s') | from_yaml }}\"\n"
                     "      vars:\n        posthog_admin_in_process: false\n" % dest)
    emu.requests_log()
    out = {}
    for name, path in (("file", applied), ("inline", inline)):
        walls, cpus = [], []
        for dummy in range(RUNS):
            wall, text, cpu = timed(cmd + [path], env)
            if "changed=0" not in text:
                sys.exit("sweep: applying the export (%s) at S=%d changed something:\n%s" % (name, size, text[-3000:]))
            walls.append(wall)
            cpus.append(cpu)
            log = emu.requests_log()
            if any(r["method"] != "GET" for r in log):
                sys.exit("sweep: applying the export (%s) at S=%d wrote" % (name, size))
        out["export_%s" % name] = statistics.median(walls)
        out["export_%s_cpu" % name] = statistics.median(cpus)
        out["export_%s_requests" % name] = len(log)
        out["export_floor_requests"] = floor_of(emu, log)
    return out


def floor_of(emu, log):
    """The fewest requests that read what ``log`` read: each distinct collection or object once, 500 a page."""
    session = requests.Session()
    session.headers["Authorization"] = "Bearer " + emu.key
    count = 0
    for path in sorted(set(r["path"].split("?")[0] for r in log if r["method"] == "GET")):
        url = emu.url + path + "?limit=%d" % PAGE
        while url:
            page = session.get(url, timeout=120).json()
            count += 1
            url = page.get("next") if isinstance(page, dict) else None
    return count


def report(rows):
    lines = ["# organization_state: the size sweep", "",
             "S people (pending invites), S documented event definitions and S/10 batch exports in one organization; "
             "the idempotent re-run of one `organization_state` task (`definition_file`), median of %d, beside a "
             "one-task `ansible.builtin.ping` playbook and the floor (the same reads with requests, %d a page). "
             "Written by `bench/sweep.py` (`make bench`)." % (RUNS, PAGE), "",
             "| S | re-run (s) | ping (s) | re-run - ping (s) | target | re-run CPU (s) | ping CPU (s) | floor reads (s) "
             "| requests | floor requests | first run (s) | first-run writes | floor writes | load |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        target = {1000: 1.5, 10000: 10.0}.get(r["size"])
        over = r["rerun"] - r["ping"]
        verdict = "" if target is None else ("%s (<= %.1f)" % ("met" if over <= target else "MISSED", target))
        lines.append("| %d | %.2f | %.2f | %.2f | %s | %.2f | %.2f | %.2f | %d | %d | %.1f | %d | %d | %.1f |" % (
            r["size"], r["rerun"], r["ping"], over, verdict, r["cpu"], r["ping_cpu"], r["floor"], r["requests"],
            r["floor_requests"], r["first"], r["first_writes"], r["floor_writes"], r["load"]))
    lines += ["", "## Planning and applying (issue 32)", "",
              "The first run (plan and apply, from the setup's state) against check mode (the plan alone, from the "
              "same state): the CPU seconds of the whole `ansible-playbook`. Target: at most 1.2 times.", "",
              "| S | check mode CPU (s) | first run CPU (s) | ratio | target |", "|---|---|---|---|---|"]
    for r in rows:
        ratio = r["first_cpu"] / r["plan_cpu"] if r["plan_cpu"] else 0
        lines.append("| %d | %.2f | %.2f | %.2f | %s |" % (r["size"], r["plan_cpu"], r["first_cpu"], ratio,
                                                           "met" if ratio <= 1.2 else "MISSED (<= 1.2)"))
    lines += ["", "## Applying the export again (issue 32)", "",
              "The organization exported with `organization_state_info` (`dest`), then applied again with no change, "
              "as the guides do: with `definition_file` (the document read as data, in the controller's worker) and "
              "inline (`definition: \"{{ lookup('file', ...) | from_yaml }}\"`, templated by Ansible, run as a module "
              "process). Median of %d; floor requests: each collection the re-run reads, once, %d a page. Targets at "
              "S=10,000: `definition_file` within ping + 3 s with the floor's requests, inline within ping + 10 s."
              % (RUNS, PAGE), "",
              "| S | definition_file (s) | - ping (s) | CPU (s) | requests | floor requests | inline (s) | - ping (s) "
              "| CPU (s) | target |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        file_over, inline_over = r["export_file"] - r["ping"], r["export_inline"] - r["ping"]
        target = ""
        if r["size"] == 10000:
            met = file_over <= 3 and inline_over <= 10 and r["export_file_requests"] <= r["export_floor_requests"]
            target = "met" if met else "MISSED"
        lines.append("| %d | %.2f | %.2f | %.2f | %d | %d | %.2f | %.2f | %.2f | %s |" % (
            r["size"], r["export_file"], file_over, r["export_file_cpu"], r["export_file_requests"],
            r["export_floor_requests"], r["export_inline"], inline_over, r["export_inline_cpu"], target))
    lines += ["", "Wall times depend on how busy the machine is (the load average at the end of each size is the "
              "last column of the first table; on a shared machine, compare CPU seconds). The requests and writes "
              "do not."]
    with open(os.path.join(BENCH, "sweep.md"), "w") as handle:
        handle.write("\n".join(lines) + "\n")
    with open(os.path.join(STATE, "sweep.json"), "w") as handle:
        json.dump(rows, handle, indent=1)


def main():
    os.makedirs(STATE, exist_ok=True)
    emu = Emulator()
    emu.start()
    try:
        env = ansible_env(emu, os.path.join(STATE, "sweep-steps.json"))
        env.pop("ANSIBLE_CALLBACKS_ENABLED", None)
        rows = [measure(emu, size, env) for size in SIZES]
    finally:
        emu.stop()
    report(rows)
    say("sweep: bench/sweep.md")


if __name__ == "__main__":
    main()
