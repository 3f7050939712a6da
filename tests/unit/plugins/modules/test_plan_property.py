# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The plan is the apply, for any organization and any document (Hypothesis, on a live emulator):
check mode and the real run give the same verdict; a reviewed plan applied later sends exactly its
actions, one for one, or - when a hand change since touched what it was decided on - stops before any
write; and the organization is then as the document says."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

import pytest

hypothesis = pytest.importorskip("hypothesis")  # in requirements-dev.txt (the main test run), not the compat runs
from hypothesis import HealthCheck, event, given, settings, strategies as st  # noqa: E402

from ansible_collections.posthog.admin.plugins.modules import organization_state, organization_state_info  # noqa: E402
from ansible_collections.posthog.admin.tests.unit.plugins.modules.test_organization_state_property import (  # noqa: E402
    MUTATIONS,
    PEOPLE,
    applicable,
    build,
    mutate,
    organizations,
)

TOKEN = re.compile(r"\(known after apply: [^)]*\)")
ID = re.compile(r"/(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)(?=/)")


def shape(path):
    return ID.sub("/ID", TOKEN.sub("ID", path.split("?")[0]))


#: What a pull request changes in the exported document.
EDITS = ["none", "setting", "new role", "drop role", "holder", "level", "new person", "new event"]


def edit(document, how, draw):
    """``document`` with one change a person would make in a pull request."""
    doc = dict(document)
    if how == "setting":
        doc["settings"] = dict(doc.get("settings") or {}, members_can_invite=not (doc.get("settings") or {}).get(
            "members_can_invite", False))
    elif how == "new role":
        doc["roles"] = list(doc.get("roles") or []) + [dict(name="Added %s" % draw(st.integers(0, 9)), members=[],
                                                            purge=True)]
    elif how == "drop role" and doc.get("roles"):
        doc["roles"] = list(doc["roles"])[1:]
    elif how == "holder" and doc.get("roles"):
        people = [p["email"] for p in (doc.get("roster") or {}).get("people") or [] if p["email"] in PEOPLE]
        if people:
            first = dict(doc["roles"][0])
            first["members"] = sorted(set(first.get("members") or []) ^ set([people[0]]))
            doc["roles"] = [first] + list(doc["roles"][1:])
    elif how in ("level", "new person"):
        people = [dict(p) for p in (doc.get("roster") or {}).get("people") or []]
        if how == "new person":
            people.append(dict(email="newcomer@example.com", level="member"))
        else:
            for person in people:
                if person["email"] in PEOPLE:
                    person["level"] = "admin" if person["level"] == "member" else "member"
                    break
        doc["roster"] = dict(doc.get("roster") or {}, people=people)
    elif how == "new event" and doc.get("event_definitions"):
        first = dict(doc["event_definitions"][0], description="Reviewed in a pull request")
        doc["event_definitions"] = [first] + list(doc["event_definitions"][1:])
    return doc


@settings(max_examples=16, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(org=organizations, data=st.data())
def test_a_reviewed_plan_is_applied_action_for_action_or_not_at_all(live_emulator, run_live, org, data, tmp_path):
    live = live_emulator
    base, uuids = build(live, org)
    exported = run_live(organization_state_info, dict(organization=live.info["organization"]["id"]))
    assert not exported["failed"], exported["msg"]
    document = edit(exported["definition"], data.draw(st.sampled_from(EDITS[1:]), label="edit"), data.draw)
    prune = data.draw(st.booleans(), label="prune")
    plan_file = str(tmp_path / ("plan-%d.json" % data.draw(st.integers(0, 10 ** 9), label="file")))
    args = dict(definition=document, prune=prune)

    check = run_live(organization_state, dict(args, plan_file=plan_file), check=True)
    hand = data.draw(st.sampled_from(["none", "none", "unrelated"] + [m for m in MUTATIONS if m in applicable(org)]),
                     label="hand change")
    if hand == "unrelated":  # a role nobody planned for: the plan depends on it only when it prunes
        live.api("POST", base + "roles/", {"name": "Made by hand"})
    elif hand != "none":
        mutate(live, base, uuids, org, hand)
    live.forget()
    real = run_live(organization_state, dict(args, plan_file=plan_file))

    writes = [(r.split()[0], shape(r.split()[1])) for r in live.requests]
    if check["failed"]:
        # the same verdict: a plan that cannot be made is refused for real too, before any write
        event("the plan was refused")
        assert real["failed"] and writes == [], (check["msg"], real)
        return
    if real["failed"]:
        # a hand change since the plan touched what it was decided on: refused before any write
        event("a hand change made the plan stale")
        assert hand != "none", real["msg"]
        assert "no longer holds" in real["msg"] and writes == [], real["msg"]
        return
    event("applied, %s writes, hand change: %s" % ("some" if writes else "no", hand != "none"))
    assert writes == [(a["method"], shape(a["path"])) for a in check["plan"]], (check["plan"], live.requests)
    assert real["plan"] == check["plan"]
    if hand == "none":  # nothing changed by hand: the organization now is the document
        again = run_live(organization_state, args)
        assert not again["failed"] and again["changed"] is False, again.get("msg") or again["plan"]


@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(org=organizations, data=st.data())
def test_check_mode_and_the_real_run_give_the_same_verdict_and_the_same_writes(live_emulator, run_live, org, data):
    live = live_emulator
    build(live, org)
    exported = run_live(organization_state_info, dict(organization=live.info["organization"]["id"]))
    document = edit(exported["definition"], data.draw(st.sampled_from(EDITS), label="edit"), data.draw)
    prune = data.draw(st.booleans(), label="prune")
    check = run_live(organization_state, dict(definition=document, prune=prune), check=True)
    live.forget()
    real = run_live(organization_state, dict(definition=document, prune=prune))
    assert check["failed"] == real["failed"], (check.get("msg"), real.get("msg"))
    writes = [(r.split()[0], shape(r.split()[1])) for r in live.requests]
    if check["failed"]:
        assert writes == []
        return
    assert real["plan"] == check["plan"] and check.get("pending") == real.get("pending")
    assert writes == [(a["method"], shape(a["path"])) for a in check["plan"]]
