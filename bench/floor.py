# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Way (c), the floor: a plain Python script with requests doing the minimum HTTP calls.

For each step it reads what it needs to decide (one list request, all on one page: PostHog's
limit/offset pagination has no maximum page size) and writes only what differs: PATCH the
organization's settings, POST the missing domains, invite the missing people in bulk (20 to a
request, PostHog's limit), POST the missing exports and plugins, PATCH the event definitions whose
description or tags differ. Same end state as the other two ways.

    python bench/floor.py scenario --vars VARS.json --out STEPS.json [--emulator URL]
    python bench/floor.py inventory --host URL --api-key KEY [--page-size 500]

``scenario`` times each step (``time.perf_counter``) and, with ``--emulator``, reads and clears
the emulator's request log between steps, outside the timed span. ``inventory`` pages through
``GET /api/organizations/`` and prints the host names and variables as JSON, like
``ansible-inventory --list`` would; it writes its in-process time (Session to last page) to stderr.
"""
import argparse
import json
import sys
import time

import requests

BIG_PAGE = 10000
LEVEL_MEMBER = 1


class Api:
    def __init__(self, host, key):
        self.host = host.rstrip("/")
        self.session = requests.Session()
        self.session.headers["Authorization"] = "Bearer " + key

    def call(self, method, path, body=None, params=None, expect=(200,)):
        response = self.session.request(method, self.host + path, json=body, params=params, timeout=60)
        if response.status_code not in expect:
            sys.exit("%s %s -> %d %s" % (method, path, response.status_code, response.text[:300]))
        return response.json() if response.content else None

    def every(self, path):
        return self.call("GET", path, params={"limit": BIG_PAGE})["results"]


def step_organization(api, sc, ctx):
    orgs = api.every("/api/organizations/")
    org = next(o for o in orgs if o["name"] == sc["org_name"])
    changes = dict((k, v) for k, v in sc["org_settings"].items() if org.get(k) != v)
    if changes:
        api.call("PATCH", "/api/organizations/%s/" % org["id"], changes)
    ctx["org"] = org["id"]
    ctx["project"] = org["projects"][0]["id"]
    return 1 if changes else 0


def step_domains(api, sc, ctx):
    path = "/api/organizations/%s/domains/" % ctx["org"]
    have = set(d["domain"] for d in api.every(path))
    missing = [d for d in sc["domains"] if d not in have]
    for domain in missing:
        api.call("POST", path, {"domain": domain}, expect=(201,))
    return len(missing)


def step_people(api, sc, ctx):
    base = "/api/organizations/%s/" % ctx["org"]
    invited = set(i["target_email"].lower() for i in api.every(base + "invites/") if not i["is_expired"])
    members = set(m["user"]["email"].lower() for m in api.every(base + "members/"))
    missing = [p for p in sc["people"] if p["email"].lower() not in invited | members]
    for start in range(0, len(missing), 20):
        chunk = [{"target_email": p["email"], "first_name": p["first_name"], "level": LEVEL_MEMBER,
                  "send_email": False} for p in missing[start:start + 20]]
        api.call("POST", base + "invites/bulk/", chunk, expect=(200, 201))
    return len(missing)


def step_batch_exports(api, sc, ctx):
    path = "/api/organizations/%s/batch_exports/" % ctx["org"]
    have = set(e["name"] for e in api.every(path))
    missing = [e for e in sc["exports"] if e["name"] not in have]
    for export in missing:
        api.call("POST", path, export, expect=(201,))
    return len(missing)


def step_plugins(api, sc, ctx):
    path = "/api/organizations/%s/pipeline_destinations/" % ctx["org"]
    have = set(p["url"].rstrip("/") for p in api.every(path))
    missing = [p for p in sc["plugins"] if p["url"] not in have]
    for plugin in missing:
        api.call("POST", path, {"url": plugin["url"], "plugin_type": "custom"}, expect=(201,))
    return len(missing)


def normal_tags(tags):
    return sorted(set(t.strip().lower() for t in tags if t.strip()))


def step_event_definitions(api, sc, ctx):
    path = "/api/projects/%s/event_definitions/" % ctx["project"]
    have = dict((d["name"], d) for d in api.every(path))
    changed = 0
    for event in sc["events"]:
        current = have[event["name"]]
        if current.get("description") != event["description"] or normal_tags(current.get("tags") or []) != normal_tags(event["tags"]):
            api.call("PATCH", path + current["id"] + "/", {"description": event["description"], "tags": event["tags"]})
            changed += 1
    return changed


STEPS = [
    ("organization", step_organization),
    ("domains", step_domains),
    ("people", step_people),
    ("batch_exports", step_batch_exports),
    ("plugins", step_plugins),
    ("event_definitions", step_event_definitions),
]


def control(emulator, method, path):
    response = requests.request(method, emulator + path, timeout=30)
    response.raise_for_status()
    return response.json() if response.content else None


def run_scenario(args):
    with open(args.vars) as handle:
        sc = json.load(handle)
    api = Api(sc["bench_host"], sc["bench_api_key"])
    emulator = args.emulator.rstrip("/") if args.emulator else None
    ctx, steps = {}, []
    for name, func in STEPS:
        if emulator:
            control(emulator, "DELETE", "/_emulator/requests")
        started = time.perf_counter()
        changed = func(api, sc, ctx)
        step = {"name": name, "seconds": time.perf_counter() - started, "changed": changed, "failed": 0}
        if emulator:
            step["requests"] = control(emulator, "GET", "/_emulator/requests")
        steps.append(step)
    with open(args.out, "w") as handle:
        json.dump({"steps": steps}, handle)


def run_inventory(args):
    started = time.perf_counter()
    api = Api(args.host, args.api_key)
    url, params, hosts = api.host + "/api/organizations/", {"limit": args.page_size}, {}
    while url:
        response = api.session.get(url, params=params, timeout=60)
        response.raise_for_status()
        page = response.json()
        for org in page["results"]:
            hosts[org["slug"]] = {"posthog_id": org["id"], "posthog_name": org["name"],
                                  "posthog_membership_level": org.get("membership_level"),
                                  "posthog_projects": [p["id"] for p in org.get("projects") or []]}
        url, params = page.get("next"), None
    fetched = time.perf_counter() - started
    json.dump({"posthog_organizations": {"hosts": sorted(hosts)}, "_meta": {"hostvars": hosts}}, sys.stdout)
    sys.stderr.write(json.dumps({"in_process_seconds": fetched, "hosts": len(hosts)}) + "\n")


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="what", required=True)
    scen = sub.add_parser("scenario")
    scen.add_argument("--vars", required=True)
    scen.add_argument("--out", required=True)
    scen.add_argument("--emulator")
    inv = sub.add_parser("inventory")
    inv.add_argument("--host", required=True)
    inv.add_argument("--api-key", required=True)
    inv.add_argument("--page-size", type=int, default=500)
    args = parser.parse_args()
    (run_scenario if args.what == "scenario" else run_inventory)(args)


if __name__ == "__main__":
    main()
