# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Reviewed plans against a live emulator: check mode saves the plan (plan_file), the real run applies
exactly it and refuses a stale one with nothing written, of two plans from one state only the first
applies, and limits refuse a plan before any write."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import re
import stat

from ansible_collections.posthog.admin.plugins.filter.plan_markdown import plan_markdown
from ansible_collections.posthog.admin.plugins.modules import organization_state

ORG = "Emulator Org"
SECRET = "a-token-that-must-never-show"


def base(live):
    return "/api/organizations/%s/" % live.info["organization"]["id"]


def setup(live):
    live.control("PUT", "organizations/%s/features" % live.info["organization"]["id"],
                 {"features": ["role_based_access"]})
    live.api("POST", base(live) + "roles/", {"name": "Old"})
    live.api("POST", base(live) + "domains/", {"domain": "old.example.com"})


def document(*roles):
    return dict(name=ORG, settings=dict(enforce_2fa=True), roles=[dict(name=r) for r in roles], domains=[],
                batch_exports=[dict(name="Nightly", interval="day", destination=dict(
                    type="HTTP", config=dict(url="https://eu.i.posthog.com/batch/", token=SECRET)))])


def test_a_saved_plan_is_applied_exactly_and_only_while_fresh(run_live, live, tmp_path):
    setup(live)
    plan_file = str(tmp_path / "acme.plan.json")
    doc = document("Analysts")
    planned = run_live(organization_state, dict(definition=doc, plan_file=plan_file, prune=True), check=True)
    assert not planned["failed"], planned["msg"]
    assert planned["plan_file"] == plan_file and stat.S_IMODE(os.stat(plan_file).st_mode) == 0o600
    text = open(plan_file).read()
    assert SECRET not in text and live.API_KEY not in text
    saved = json.loads(text)
    assert saved["plan"] == planned["plan"] and saved["host"] == live.url
    assert saved["organization"]["id"] == live.info["organization"]["id"]
    assert len(saved["document_sha256"]) == 64
    assert saved["states"]["/api/organizations/%s/roles/ name=analysts" % live.info["organization"]["id"]] == "absent"
    assert all(a["decided_on"] for a in saved["plan"])
    rendered = plan_markdown(saved)
    assert "**2 to add, 1 to change, 2 to remove.**" in rendered, rendered
    assert "- `+` created `roles[0] (role 'Analysts')`" in rendered
    assert "- `-` deleted `domains (domain 'old.example.com', not in the document)`" in rendered
    assert "  + enforce_2fa: true" in rendered and SECRET not in rendered
    live.forget()
    applied = run_live(organization_state, dict(definition=doc, plan_file=plan_file, prune=True))
    assert not applied["failed"], applied["msg"]
    assert applied["plan"] == saved["plan"]
    writes = [re.sub(r"/(roles|domains)/[^/]+/", r"/\1/ID/", w) for w in live.requests]
    assert sorted(writes) == sorted([
        "PATCH %s" % base(live), "POST %sroles/" % base(live), "DELETE %sroles/ID/" % base(live),
        "DELETE %sdomains/ID/" % base(live), "POST /api/projects/1/batch_exports/"])
    again = run_live(organization_state, dict(definition=doc, plan_file=plan_file, prune=True))
    assert again["failed"] and "no longer holds" in again["msg"]  # what it decided on has changed: it was applied


def test_a_stale_plan_is_refused_naming_what_changed_with_nothing_written(run_live, live, tmp_path):
    setup(live)
    plan_file = str(tmp_path / "acme.plan.json")
    doc = document("Analysts")
    assert not run_live(organization_state, dict(definition=doc, plan_file=plan_file), check=True)["failed"]
    live.api("PATCH", base(live), {"enforce_2fa": True})  # the setting the plan changes, changed by hand
    live.forget()
    result = run_live(organization_state, dict(definition=doc, plan_file=plan_file))
    assert result["failed"] and live.requests == []
    assert ("no longer holds, so nothing was changed: the plan no longer holds for /api/organizations/ "
            "name=Emulator Org: changed on the server since the plan was made") in result["msg"]
    other = run_live(organization_state, dict(definition=document("Viewers"), plan_file=plan_file))
    assert other["failed"] and "the document differs from the one the plan was made from" in other["msg"]
    saved = json.loads(open(plan_file).read())
    saved["host"] = "https://eu.posthog.com"
    with open(plan_file, "w") as handle:
        json.dump(saved, handle)
    moved = run_live(organization_state, dict(definition=doc, plan_file=plan_file))
    assert moved["failed"] and "it was made against https://eu.posthog.com, not %s" % live.url in moved["msg"]
    assert live.requests == []


def test_of_two_plans_from_one_state_only_the_first_applies(run_live, live, tmp_path):
    setup(live)
    first, second = str(tmp_path / "a.json"), str(tmp_path / "b.json")
    a, b = document("Analysts"), document("Viewers")
    assert not run_live(organization_state, dict(definition=a, plan_file=first), check=True)["failed"]
    assert not run_live(organization_state, dict(definition=b, plan_file=second), check=True)["failed"]
    assert not run_live(organization_state, dict(definition=a, plan_file=first))["failed"]
    live.forget()
    result = run_live(organization_state, dict(definition=b, plan_file=second))
    assert result["failed"] and "no longer holds" in result["msg"] and live.requests == []
    names = sorted(r["name"] for r in live.api("GET", base(live) + "roles/")["results"])
    assert names == ["Analysts", "Old"]  # the first plan's work stands


def test_limits_refuse_a_plan_before_any_write(run_live, live):
    setup(live)
    live.control("POST", "keys", {"email": "ana@example.com", "organization": live.info["organization"]["id"],
                                  "level": "owner"})
    me = live.control("GET", "info")["user"]["email"]
    doc = dict(document(), roster=dict(people=[dict(email=me, level="owner")]))
    live.forget()
    cases = [
        (dict(max_deletes=1), "The plan goes beyond limits, so nothing was changed: 3 deletes, more than "
                              "max_deletes (1): deleted roles (role 'Old', not in the document); deleted domains "
                              "(domain 'old.example.com', not in the document); removed ana@example.com"),
        (dict(remove_people=False), "people removed, which remove_people: false forbids: removed ana@example.com"),
        (dict(change_sso=False), "changes to SSO (domains, identity provider configurations), which change_sso: "
                                 "false forbids: deleted domains (domain 'old.example.com', not in the document)"),
        (dict(change_owners=False), "changes to owners, which change_owners: false forbids: lowered ana@example.com; removed ana@example.com"),
    ]
    for limits, message in cases:
        for check in (True, False):
            result = run_live(organization_state, dict(definition=doc, prune=True, prune_owners=True, limits=limits),
                              check=check)
            assert result["failed"] and message in result["msg"], (limits, result["msg"])
    assert live.requests == []
    within = run_live(organization_state, dict(definition=doc, prune=True, prune_owners=True,
                                               limits=dict(max_deletes=3)), check=True)
    assert not within["failed"] and within["changed"]
