# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The plan is the apply (issue 32), against a live emulator: every write a run makes is an action of
its plan, derived writes included; the real run sends exactly the plan's actions, in order; what cannot
happen yet is pending, not a failure; what PostHog would refuse is refused in the plan; prune covers
every project; a saved plan holds the states it was decided on, and only those."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import re

from ansible_collections.posthog.admin.plugins.modules import organization_state

ORG = "Emulator Org"
TOKEN = re.compile(r"\(known after apply: [^)]*\)")
ID = re.compile(r"/(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+)(?=/)")


def shape(path):
    """A path with its ids (and a plan's unknowns) as ID: a plan's path and the one sent compare."""
    return ID.sub("/ID", TOKEN.sub("ID", path.split("?")[0]))


def planned(result):
    return [(a["method"], shape(a["path"])) for a in result["plan"]]


def sent(live):
    return [(r.split()[0], shape(r.split()[1])) for r in live.requests]


def org_id(live):
    return live.info["organization"]["id"]


def features(live, *keys, organization=None):
    live.control("PUT", "organizations/%s/features" % (organization or org_id(live)), {"features": list(keys)})


def person(live, email, level="member"):
    live.control("POST", "keys", {"email": email, "organization": org_id(live), "level": level})


def me(live):
    return live.control("GET", "info")["user"]["email"]


# ------------------------------------------------------------------------ derived writes are actions
def test_the_default_role_is_an_action_of_the_plan_and_the_real_run_sends_exactly_the_plan(run_live, live):
    """A document that creates a role and names it default_role: the PATCH of default_role_id is the
    plan's fourth action (it was a write nobody reviewed), waiting for the role's creation."""
    features(live, "role_based_access")
    doc = dict(name=ORG, settings=dict(enforce_2fa=True), roles=[dict(name="Reviewers"), dict(name="Ops")],
               default_role="Reviewers")
    check = run_live(organization_state, dict(definition=doc), check=True, diff=True)
    assert not check["failed"], check["msg"]
    assert planned(check) == [("PATCH", "/api/organizations/ID/"), ("POST", "/api/organizations/ID/roles/"),
                              ("POST", "/api/organizations/ID/roles/"), ("PATCH", "/api/organizations/ID/")]
    default = check["plan"][-1]
    assert default["item"] == "organization (default role)" and default["waits_for"] == ["a2"]
    assert default["body"] == {"default_role_id": "(known after apply: a2.id ~%s)" % default["body"][
        "default_role_id"].split("~")[1][:-1]}
    assert check["diff"][-1]["after"] == {"name": ORG, "default_role": "Reviewers"}  # a name, never a UUID
    live.forget()
    applied = run_live(organization_state, dict(definition=doc))
    assert not applied["failed"], applied["msg"]
    assert applied["plan"] == check["plan"] and sent(live) == planned(check)
    roles = dict((r["name"], r["id"]) for r in live.api("GET", "/api/organizations/%s/roles/" % org_id(live))["results"])
    assert live.api("GET", "/api/organizations/%s/" % org_id(live))["default_role_id"] == roles["Reviewers"]
    again = run_live(organization_state, dict(definition=doc))
    assert again["changed"] is False and again["plan"] == []


# ------------------------------------------------------------------------ pending, not a failure
def test_recreating_an_organization_whose_role_holders_are_invited_is_pending_until_they_join(run_live, live):
    """The adopt guide's "Recreating an organization": a role lists people the roster invites. Check mode
    and the real run agree; the run does everything else and says what waits; after they join, the
    next run completes it, and the one after changes nothing."""
    owner = me(live)
    doc = dict(name="Recreated Org", roster=dict(people=[dict(email=owner, level="owner"), dict(email="ana@x.example")]),
               roles=[dict(name="Analysts", members=["ana@x.example", owner])])
    check = run_live(organization_state, dict(definition=doc), check=True)
    assert not check["failed"], check["msg"]
    assert [p["item"] for p in check["pending"]] == ["roles[0] (role 'Analysts')"]
    assert "ana@x.example is invited but not a member yet" in check["pending"][0]["reason"]
    live.forget()
    real = run_live(organization_state, dict(definition=doc))
    assert not real["failed"], real["msg"]
    assert real["pending"] == check["pending"] and sent(live) == planned(real)
    new_org = real["organization"]["id"]
    features(live, "role_based_access", organization=new_org)
    live.control("POST", "invites/accept", {"email": "ana@x.example", "organization": new_org})
    later = run_live(organization_state, dict(definition=doc))
    assert not later["failed"] and later["changed"] is True and "pending" not in later, later.get("msg")
    assert later["sections"]["roles"]["members changed"] == ["roles[0] (role 'Analysts')"]
    holders = live.api("GET", "/api/organizations/%s/roles/" % new_org)["results"][0]["members"]
    assert sorted(m["user"]["email"] for m in holders) == sorted(["ana@x.example", owner])
    assert run_live(organization_state, dict(definition=doc))["changed"] is False


def test_an_access_rule_for_an_invited_member_is_pending_and_blocks_nothing_else(run_live, live):
    doc = dict(name=ORG, settings=dict(members_can_invite=False),
               roster=dict(people=[dict(email=me(live), level="owner"), dict(email="bo@x.example")]),
               access_controls=[dict(member="bo@x.example", access_level="admin")])
    check = run_live(organization_state, dict(definition=doc), check=True)
    real = run_live(organization_state, dict(definition=doc))
    for result in (check, real):
        assert not result["failed"], result["msg"]
        assert [p["item"] for p in result["pending"]] == ["access_controls[0] (access control rule)"]
        assert result["sections"]["access_controls"] == dict(changed=False, pending=["access_controls[0] (access control rule)"])
    assert real["sections"]["organization"]["updated"] == ["organization"]
    assert real["sections"]["roster"]["invited"] == ["bo@x.example"]
    live.control("POST", "invites/accept", {"email": "bo@x.example"})
    joined = run_live(organization_state, dict(definition=doc))
    assert not joined["failed"] and joined["sections"]["access_controls"]["created"] == [
        "access_controls[0] (access control rule)"], joined


# ------------------------------------------------------------------------ refused in the plan
def test_a_rule_terraform_locks_is_refused_in_the_plan_before_any_write(run_live, live):
    terraform = {"User-Agent": "posthog/terraform-provider/1.0"}
    live.api("PUT", "/api/projects/1/resource_access_controls/", dict(resource="dashboard", access_level="viewer"),
             headers=terraform)
    live.api("PATCH", "/api/projects/1/access_control_management_settings/", dict(lock_terraform_managed_rules=True))
    doc = dict(name=ORG, settings=dict(enforce_2fa=True),
               access_controls=[dict(resource="dashboard", access_level="editor")])
    live.forget()
    for check in (True, False):
        result = run_live(organization_state, dict(definition=doc), check=check)
        assert result["failed"] and "Terraform lock is on" in result["msg"], result
        assert "found while planning: nothing was changed" in result["msg"]
    assert live.requests == []  # not the organization's setting either


# ------------------------------------------------------------------------ prune covers every project
def test_prune_removes_a_hog_function_of_another_project(run_live, live):
    features(live, "organizations_projects")
    second = live.api("POST", "/api/organizations/%s/projects/" % org_id(live), {"name": "Second"})
    stray = live.api("POST", "/api/projects/%s/hog_functions/" % second["id"], dict(
        name="Stray", type="destination", template_id="template-customerio",
        inputs=dict(site_id=dict(value="s"), token=dict(value="t"))))
    doc = dict(name=ORG, project_id="1", projects=[dict(name="Default project"), dict(name="Second")], hog_functions=[])
    drift = run_live(organization_state, dict(definition=doc, prune=True), check=True)
    assert not drift["failed"], drift["msg"]
    assert [(a["action"], a["item"], a["method"], a["path"]) for a in drift["plan"]] == [
        ("deleted", "hog_functions (hog function 'Stray', not in the document)", "PATCH",
         "/api/projects/%s/hog_functions/%s/" % (second["id"], stray["id"]))]
    applied = run_live(organization_state, dict(definition=doc, prune=True))
    assert not applied["failed"] and applied["plan"] == drift["plan"], applied.get("msg")
    assert live.api("GET", "/api/projects/%s/hog_functions/" % second["id"])["results"] == []


# ------------------------------------------------------------------------ reviewed plans
def review(run_live, live, tmp_path, doc):
    plan_file = str(tmp_path / "plan.json")
    made = run_live(organization_state, dict(definition=doc, plan_file=plan_file), check=True)
    assert not made["failed"], made["msg"]
    return plan_file, json.loads(open(plan_file).read())


def rewrite(plan_file, saved):
    with open(plan_file, "w") as handle:
        json.dump(saved, handle)


def test_a_plan_file_without_its_states_or_with_edited_actions_is_refused_before_any_write(run_live, live, tmp_path):
    features(live, "role_based_access")
    doc = dict(name=ORG, settings=dict(enforce_2fa=True), roles=[dict(name="Analysts")])
    plan_file, saved = review(run_live, live, tmp_path, doc)
    live.forget()
    emptied = dict(saved, states={})
    rewrite(plan_file, emptied)
    result = run_live(organization_state, dict(definition=doc, plan_file=plan_file))
    assert result["failed"] and "the plan file lacks the state of" in result["msg"], result
    edited = json.loads(json.dumps(saved))
    edited["plan"][1]["body"]["name"] = "Admins"  # what the reviewer saw is not what planning gives
    rewrite(plan_file, edited)
    result = run_live(organization_state, dict(definition=doc, plan_file=plan_file))
    assert result["failed"] and "its actions are not the ones planning again gives" in result["msg"], result
    forged = json.loads(json.dumps(saved))
    forged["states"] = dict((k, "0" * 64) for k in saved["states"])
    rewrite(plan_file, forged)
    result = run_live(organization_state, dict(definition=doc, plan_file=plan_file))
    assert result["failed"] and "changed on the server since the plan was made" in result["msg"], result
    assert live.requests == []
    rewrite(plan_file, saved)
    applied = run_live(organization_state, dict(definition=doc, plan_file=plan_file))
    assert not applied["failed"] and sent(live) == planned(applied), applied.get("msg")


def test_only_what_the_plan_depends_on_makes_it_stale(run_live, live, tmp_path):
    features(live, "role_based_access")
    doc = dict(name=ORG, settings=dict(enforce_2fa=True), roles=[dict(name="Analysts")])
    plan_file, saved = review(run_live, live, tmp_path, doc)
    other = live.api("POST", "/api/organizations/", {"name": "Another Org"})  # the key sees it, the plan does not
    live.api("PATCH", "/api/organizations/%s/" % other["id"], {"enforce_2fa": True})
    live.api("POST", "/api/organizations/%s/roles/" % org_id(live), {"name": "Unrelated"})
    live.forget()
    applied = run_live(organization_state, dict(definition=doc, plan_file=plan_file))
    assert not applied["failed"], applied["msg"]
    assert applied["plan"] == saved["plan"] and sent(live) == planned(applied)


# ------------------------------------------------------------------------ applying: answers and recovery
def test_a_lost_answer_in_an_organization_the_plan_creates_is_recovered_by_its_real_path(run_live, live):
    """The domain's POST is committed but its answer dropped: the recovery's look-up reads the new
    organization's domains by its real id (the token of its id is known by then), finds the domain,
    and the run completes without sending it twice."""
    live.control("POST", "faults", {"method": "POST", "path": r"/api/organizations/[^/]+/domains", "mode":
                                    "drop_after_commit", "times": 1})
    doc = dict(name="Fresh Org", domains=[dict(domain="fresh.example.com")])
    live.forget()
    result = run_live(organization_state, dict(definition=doc))
    live.control("DELETE", "faults")
    assert not result["failed"], result["msg"]
    org = result["organization"]["id"]
    domains = live.api("GET", "/api/organizations/%s/domains/" % org)["results"]
    assert [d["domain"] for d in domains] == ["fresh.example.com"]
    reads = [r["path"] for r in live.all_requests if r["method"] == "GET"]
    assert "/api/organizations/%s/domains/" % org in reads  # the recovery's look-up, by the real id
    assert not any("known after apply" in r["path"] for r in live.all_requests)
