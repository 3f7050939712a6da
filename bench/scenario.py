# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The benchmark scenario: one organization and what it should hold, shared by the three ways.

The data is generated deterministically so every way (collection modules, ``uri`` playbook,
plain Python floor) converges the very same end state. ``scenario()`` returns a plain dict that
is written to a JSON file and passed to the playbooks with ``-e @file``.
"""
import os

ORG_NAME = "Bench Org"
# The settings the organization step manages (the organization itself is created in the untimed
# setup, because the plugin access level and the ingested events of the later steps need it).
ORG_SETTINGS = {
    "enforce_2fa": True,
    "is_member_join_email_enabled": False,
    "allow_publicly_shared_resources": False,
}

# BENCH_SMOKE=1 shrinks everything to check the bench's machinery in a minute (results are then
# written under bench/.state, never to bench/results.md).
SMOKE = os.environ.get("BENCH_SMOKE") == "1"
N_DOMAINS = 2 if SMOKE else 5
N_PEOPLE = 23 if SMOKE else 100
N_EXPORTS = 2 if SMOKE else 20
N_PLUGINS = 2 if SMOKE else 10
N_EVENTS = 3 if SMOKE else 50
N_INVENTORY_ORGS = 50 if SMOKE else 2000

STEPS = ["organization", "domains", "people", "batch_exports", "plugins", "event_definitions"]
STEP_TITLES = {
    "organization": "organization (settings)",
    "domains": "%d domains" % N_DOMAINS,
    "people": "%d people" % N_PEOPLE,
    "batch_exports": "%d batch exports" % N_EXPORTS,
    "plugins": "%d plugins" % N_PLUGINS,
    "event_definitions": "%d event definitions" % N_EVENTS,
    "inventory": "inventory of {:,} orgs".format(N_INVENTORY_ORGS),
}


def plugin_url(index):
    return "https://github.com/bench-org/posthog-bench-plugin-%02d" % index


def scenario():
    domains = ["team%d.bench-org.example" % i for i in range(1, N_DOMAINS + 1)]
    people = [
        {"email": "person%03d@bench-org.example" % i, "first_name": "Person %d" % i, "level": "member"}
        for i in range(1, N_PEOPLE + 1)
    ]
    exports = []
    for i in range(1, N_EXPORTS + 1):
        exports.append({
            "name": "Bench export %02d" % i,
            "interval": "hour" if i % 2 else "day",
            "model": "events",
            "destination": {
                "type": "S3",
                "config": {
                    "bucket_name": "bench-exports-%02d" % i,
                    "region": "eu-west-1",
                    "prefix": "events/%02d/" % i,
                    "aws_access_key_id": "AKIABENCHKEY%08d" % i,
                    "aws_secret_access_key": "bench-secret-access-key-number-%02d" % i,
                },
            },
        })
    plugins = [{"url": plugin_url(i), "name": "Bench plugin %02d" % i} for i in range(1, N_PLUGINS + 1)]
    events = []
    for i in range(1, N_EVENTS + 1):
        events.append({
            "name": "bench_event_%02d" % i,
            "description": "Benchmark event number %d, documented by the scenario" % i,
            "tags": ["bench", "group-%d" % (i % 5)],
        })
    return {
        "org_name": ORG_NAME,
        "org_settings": dict(ORG_SETTINGS),
        "domains": domains,
        "domain_items": [{"domain": d} for d in domains],
        "people": people,
        "exports": exports,
        "plugins": plugins,
        "plugin_items": [{"url": p["url"]} for p in plugins],
        "events": events,
    }
