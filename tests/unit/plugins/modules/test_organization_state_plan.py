# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""organization_state plans the whole organization before any write, against a live emulator:
an unsafe or contradictory plan is refused with nothing written (in check mode too), the real run
carries out exactly the plan's writes, drift is complete, and a failure says what was done."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules import organization_state, organization_state_info

ORG = "Emulator Org"


def org_id(live):
    return live.info["organization"]["id"]


def person(live, email, level="member"):
    live.control("POST", "keys", {"email": email, "organization": org_id(live), "level": level})


def role(live, name, *emails):
    """A role made through the API, held by ``emails`` (members already)."""
    base = "/api/organizations/%s/" % org_id(live)
    created = live.api("POST", base + "roles/", {"name": name})
    members = dict((m["user"]["email"], m["user"]["uuid"]) for m in live.api("GET", base + "members/")["results"])
    for email in emails:
        live.api("POST", base + "roles/%s/role_memberships/" % created["id"], {"user_uuid": members[email]})
    return created


def features(live, *keys):
    live.control("PUT", "organizations/%s/features" % org_id(live), {"features": list(keys)})


def refused(run_live, live, doc, fragment, **args):
    """The document is refused in check mode and for real, naming ``fragment``, with nothing written."""
    live.forget()
    for check in (True, False):
        result = run_live(organization_state, dict(definition=doc, **args), check=check)
        assert result["failed"], result
        assert fragment in result["msg"], result["msg"]
    assert live.requests == []
    return result


# ------------------------------------------------------------------------ unsafe plans
def test_prune_never_deletes_the_default_role_the_document_names(run_live, live):
    features(live, "role_based_access")
    role(live, "Keepers")
    doc = dict(name=ORG, default_role="Keepers", roles=[])
    result = refused(run_live, live, doc, "roles (role 'Keepers', not in the document) would be deleted, but "
                                          "default_role names it", prune=True)
    assert result["msg"].startswith("The plan is unsafe, so nothing was changed")
    assert any(a["action"] == "deleted" for a in result["plan"])


def test_prune_projects_never_deletes_the_project_the_document_lives_in(run_live, live):
    features(live, "organizations_projects")
    live.api("POST", "/api/organizations/%s/projects/" % org_id(live), {"name": "Second"})
    doc = dict(name=ORG, project_id="1", projects=[dict(name="Second")],
               batch_exports=[dict(name="Nightly", interval="day", destination=dict(
                   type="HTTP", config=dict(url="https://eu.i.posthog.com/batch/", token="t")))])
    result = refused(run_live, live, doc, "projects (project 'Default project', not in the document) would be "
                                          "deleted, but the document's project_id is the project", prune=True,
                     prune_projects=True)
    assert "batch_exports[0] (batch export 'Nightly') would be" not in result["msg"]
    assert "batch_exports[0] (batch export 'Nightly') lives in it" in result["msg"]


def test_a_person_the_roster_removes_cannot_be_given_a_role(run_live, live):
    features(live, "role_based_access")
    person(live, "ana@example.com")
    doc = dict(name=ORG, roles=[dict(name="Analysts", members=["ana@example.com"])],
               roster=dict(people=[dict(email="admin@example.com", level="owner")]))
    me = live.control("GET", "info")["user"]["email"]
    doc["roster"]["people"][0]["email"] = me
    refused(run_live, live, doc, "ana@example.com would be removed, but roles[0] (role 'Analysts') lists them in "
                                 "members", prune=True)


# ------------------------------------------------------------------------ contradictions
def test_an_object_listed_twice_is_refused_before_any_request(run_live, live):
    http = dict(type="HTTP", config=dict(url="https://eu.i.posthog.com/batch/", token="t"))
    doc = dict(name=ORG, batch_exports=[dict(name="Nightly", interval="hour", destination=http),
                                        dict(name="Nightly", interval="day", destination=http)])
    live.forget()
    result = run_live(organization_state, dict(definition=doc))
    assert result["failed"] and live.all_requests == []
    assert ("batch_exports[0] (batch export 'Nightly') and batch_exports[1] (batch export 'Nightly') name the "
            "same batch export (name 'Nightly')") in result["msg"]


def test_role_names_that_differ_only_in_case_are_one_role(run_live, live):
    doc = dict(name=ORG, roles=[dict(name="Analysts"), dict(name="analysts")])
    live.forget()
    result = run_live(organization_state, dict(definition=doc))
    assert result["failed"] and live.all_requests == []
    assert "roles[0] (role 'Analysts') and roles[1] (role 'analysts') name the same role" in result["msg"]


# ------------------------------------------------------------------------ drift
def test_event_definitions_are_checked_in_their_own_project(run_live, live):
    features(live, "organizations_projects")
    second = live.api("POST", "/api/organizations/%s/projects/" % org_id(live), {"name": "Second"})
    live.control("POST", "projects/%s/events" % second["id"], {"events": ["checkout"]})
    doc = dict(name=ORG, event_definitions=[dict(name="checkout", project_id=str(second["id"]),
                                                 description="A cart was paid")])
    result = run_live(organization_state, dict(definition=doc), check=True)
    assert not result["failed"], result["msg"]
    assert result["changed"] and result["sections"]["event_definitions"]["updated"] == [
        "event_definitions[0] (event definition 'checkout')"]
    assert not any("not found" in w for w in result["warnings"]), result["warnings"]
    result = run_live(organization_state, dict(definition=doc))
    assert result["changed"] and not result["failed"], result.get("msg")
    again = run_live(organization_state, dict(definition=doc))
    assert again["changed"] is False, again["sections"]


def test_a_role_given_by_hand_is_drift_of_an_exported_role(run_live, live):
    features(live, "role_based_access")
    person(live, "ana@example.com")
    person(live, "bo@example.com")
    role(live, "Analysts", "ana@example.com")
    exported = run_live(organization_state_info, dict(organization=org_id(live)))["definition"]
    assert exported["roles"] == [dict(name="Analysts", members=["ana@example.com"], purge=True)]
    base = "/api/organizations/%s/" % org_id(live)
    roles = live.api("GET", base + "roles/")["results"]
    bo = [m for m in live.api("GET", base + "members/")["results"] if m["user"]["email"] == "bo@example.com"][0]
    live.api("POST", base + "roles/%s/role_memberships/" % roles[0]["id"], {"user_uuid": bo["user"]["uuid"]})
    drift = run_live(organization_state, dict(definition=exported), check=True)
    assert drift["changed"] and drift["sections"]["roles"]["members changed"] == ["roles[0] (role 'Analysts')"]
    assert drift["diff"][0]["before"]["members"] == ["ana@example.com", "bo@example.com"]
    assert drift["diff"][0]["after"]["members"] == ["ana@example.com"]
    applied = run_live(organization_state, dict(definition=exported))
    assert applied["changed"] and not applied["failed"], applied.get("msg")
    held = live.api("GET", base + "roles/")["results"][0]["members"]
    assert [m["user"]["email"] for m in held] == ["ana@example.com"]


# ------------------------------------------------------------------------ plan = the real run's writes
def test_the_real_run_makes_exactly_the_writes_check_mode_planned(run_live, live):
    features(live, "role_based_access")
    person(live, "ana@example.com")
    role(live, "Old")
    http = dict(type="HTTP", config=dict(url="https://eu.i.posthog.com/batch/", token="t"))
    doc = dict(name=ORG, settings=dict(enforce_2fa=True),
               roles=[dict(name="Analysts", members=["ana@example.com"]), dict(name="Viewers")],
               domains=[dict(domain="plan.example.com")],
               batch_exports=[dict(name="Nightly", interval="day", destination=http)])
    planned = run_live(organization_state, dict(definition=doc, prune=True), check=True)
    assert not planned["failed"], planned["msg"]
    live.forget()
    applied = run_live(organization_state, dict(definition=doc, prune=True))
    assert not applied["failed"], applied["msg"]
    assert applied["plan"] == planned["plan"]
    base = "/api/organizations/%s/" % org_id(live)
    writes = live.requests
    expected = {
        ("organization", "updated", "organization"): ["PATCH %s" % base],
        ("roles", "created", "roles[0] (role 'Analysts')"): ["POST %sroles/" % base],
        ("roles", "members changed", "roles[0] (role 'Analysts')"): ["POST %sroles/ROLE/role_memberships/" % base],
        ("roles", "created", "roles[1] (role 'Viewers')"): ["POST %sroles/" % base],
        ("roles", "deleted", "roles (role 'Old', not in the document)"): ["DELETE %sroles/ROLE/" % base],
        ("domains", "created", "domains[0] (domain 'plan.example.com')"): ["POST %sdomains/" % base],
        ("batch_exports", "created", "batch_exports[0] (batch export 'Nightly')"):
            ["POST /api/projects/1/batch_exports/"],
    }
    assert sorted((a["section"], a["action"], a["item"]) for a in planned["plan"]) == sorted(expected)
    shapes = sorted(w for ws in expected.values() for w in ws)
    import re
    assert sorted(re.sub(r"roles/[^/]+/", "roles/ROLE/", w) for w in writes) == shapes
    again = run_live(organization_state, dict(definition=doc, prune=True))
    assert again["changed"] is False and again["plan"] == []


def test_a_failure_in_the_middle_says_what_was_done_and_what_was_not_attempted(run_live, live):
    features(live, "role_based_access")
    http = dict(type="HTTP", config=dict(url="https://eu.i.posthog.com/batch/", token="t"))
    doc = dict(name=ORG, settings=dict(enforce_2fa=True), roles=[dict(name="A"), dict(name="B")],
               domains=[dict(domain="fail.example.com")],
               batch_exports=[dict(name="Nightly", interval="day", destination=http)])
    live.control("POST", "faults", {"method": "POST", "path": "/api/organizations/%s/domains" % org_id(live),
                                    "status": 500})
    result = run_live(organization_state, dict(definition=doc))
    live.control("DELETE", "faults")
    assert result["failed"] and result["changed"]
    assert result["msg"].startswith("domains[0] (domain 'fail.example.com'): ")
    assert ("Done before it: updated organization, created roles[0] (role 'A'), created roles[1] (role 'B'). "
            "Not attempted: created batch_exports[0] (batch export 'Nightly').") in result["msg"]
    assert [a["item"] for a in result["not_attempted"]] == ["batch_exports[0] (batch export 'Nightly')"]
    rerun = run_live(organization_state, dict(definition=doc))
    assert not rerun["failed"] and rerun["sections"]["roles"] == dict(
        changed=False, unchanged=["roles[0] (role 'A')", "roles[1] (role 'B')"])


# ------------------------------------------------------------------------ the export file
def test_the_export_file_is_private_from_its_first_byte_and_never_follows_a_planted_link(
        run_live, live, tmp_path, monkeypatch):
    import os
    import stat
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    dest = tmp_path / "acme.yml"
    os.symlink(str(victim), str(dest) + ".tmp")  # where the old export wrote its temporary file
    modes = []
    real_replace = os.replace

    def replace(src, dst):
        modes.append(stat.S_IMODE(os.stat(src).st_mode))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    old_umask = os.umask(0)  # a careless umask: the file must still never be readable by others
    try:
        result = run_live(organization_state_info, dict(organization=org_id(live), dest=str(dest)))
    finally:
        os.umask(old_umask)
    assert result["changed"] and not result["failed"], result.get("msg")
    assert victim.read_text() == "keep me" and stat.S_IMODE(os.stat(str(victim)).st_mode) != 0o600
    assert modes == [0o600] and stat.S_IMODE(os.stat(str(dest)).st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["acme.yml", "acme.yml.tmp", "victim.txt"]


def test_a_template_looking_name_is_exported_unsafe_and_applied_as_data(run_live, live, tmp_path):
    evil = "{{ lookup('pipe', 'touch %s') }}" % (tmp_path / "pwned")
    live.api("PATCH", "/api/organizations/%s/projects/1/" % org_id(live), {"name": evil})
    dest = tmp_path / "acme.yml"
    result = run_live(organization_state_info, dict(organization=org_id(live), dest=str(dest)))
    assert not result["failed"], result.get("msg")
    text = dest.read_text()
    assert "  - name: !unsafe '{{ lookup(''pipe''" in text, text
    from ansible.parsing.yaml.loader import AnsibleLoader
    loaded = AnsibleLoader(text).get_single_data()
    assert loaded["projects"][0]["name"] == evil  # include_vars / from_yaml read it as an unsafe string
    applied = run_live(organization_state, dict(definition_file=str(dest)))
    assert not applied["failed"] and applied["changed"] is False, applied
    assert not (tmp_path / "pwned").exists()
    both = run_live(organization_state, dict(definition_file=str(dest), definition=dict(name=ORG)))
    assert both["failed"] and "mutually exclusive" in both["msg"]


# ------------------------------------------------------------------------ hog functions as a section
def test_hog_functions_round_trip_with_their_secret_inputs_never_written(run_live, live):
    created = live.api("POST", "/api/projects/1/hog_functions/", dict(
        name="Customer.io", type="destination", template_id="template-customerio", enabled=True,
        inputs=dict(site_id=dict(value="site-1"), token=dict(value="cio-secret-token"))))
    live.api("POST", "/api/projects/1/hog_functions/", dict(
        name="Stray", type="destination", template_id="template-customerio",
        inputs=dict(site_id=dict(value="site-2"), token=dict(value="other-secret"))))
    exported = run_live(organization_state_info, dict(organization=org_id(live)))
    assert not exported["failed"], exported.get("msg")
    document = exported["definition"]
    names = sorted(f["name"] for f in document["hog_functions"])
    assert names == ["Customer.io", "Stray"]
    assert "cio-secret-token" not in str(exported)
    assert any("secret_inputs token are set" in n for n in exported["notes"]), exported["notes"]
    assert run_live(organization_state, dict(definition=document))["changed"] is False
    live.api("PATCH", "/api/projects/1/hog_functions/%s/" % created["id"], dict(enabled=False))
    document["hog_functions"] = [f for f in document["hog_functions"] if f["name"] == "Customer.io"]
    drift = run_live(organization_state, dict(definition=document, prune=True), check=True)
    assert sorted((a["action"], a["item"]) for a in drift["plan"]) == [
        ("deleted", "hog_functions (hog function 'Stray', not in the document)"),
        ("updated", "hog_functions[0] (hog function 'Customer.io')")]
    applied = run_live(organization_state, dict(definition=document, prune=True))
    assert applied["plan"] == drift["plan"] and not applied["failed"]
    listed = live.api("GET", "/api/projects/1/hog_functions/")["results"]
    assert [(f["name"], f["enabled"]) for f in listed] == [("Customer.io", True)]


def test_prune_keeps_roles_while_scim_manages_them(run_live, live):
    features(live, "role_based_access", "scim", "saml", "sso_enforcement")
    role(live, "Synced by SCIM")
    base = "/api/organizations/%s/" % org_id(live)
    domain = live.api("POST", base + "domains/", {"domain": "scim.example.com"})
    live.control("POST", "dns", {"name": "_posthog-challenge.scim.example.com", "type": "TXT",
                                 "value": domain["verification_challenge"]})
    live.control("PUT", "profile", {"profile": "spec"})  # the spec's PostHog lets an API key verify a domain
    live.api("POST", base + "domains/%s/verify/" % domain["id"])
    live.control("PUT", "profile", {"profile": "posthog"})
    live.api("POST", base + "identity_provider_configs/", dict(
        name="Okta", config_scope="scim", domain_scope="all", scim_enabled=True))
    result = run_live(organization_state, dict(definition=dict(name=ORG, roles=[]), prune=True), check=True)
    assert not result["failed"] and result["changed"] is False, result
    assert any("SCIM manages this organization's roles (identity provider configuration 'Okta' has SCIM on)" in w
               for w in result["warnings"]), result["warnings"]


def test_check_mode_and_the_real_run_refuse_alike_before_any_write(run_live, live):
    """The plan is the whole document: check mode assumes no earlier task, so it gives the real run's
    verdict (issue 32), and a real run whose plan fails writes nothing (not the settings, not the role)."""
    features(live, "role_based_access")
    doc = dict(name=ORG, settings=dict(enforce_2fa=True), roles=[dict(name="Analysts")], default_role="Nobody")
    refused(run_live, live, doc, "default_role 'Nobody' is not a role of the organization")


def test_access_control_rules_round_trip_and_prune(run_live, live):
    features(live, "role_based_access", "advanced_permissions", "access_control")
    person(live, "ana@example.com")
    ops = role(live, "Ops")
    live.api("PUT", "/api/projects/1/access_controls/", dict(access_level="member"))
    live.api("PUT", "/api/projects/1/access_controls/", dict(access_level="admin", role=ops["id"]))
    live.api("PUT", "/api/projects/1/resource_access_controls/", dict(resource="dashboard", access_level="viewer"))
    exported = run_live(organization_state_info, dict(organization=org_id(live)))
    assert not exported["failed"], exported.get("msg")
    document = exported["definition"]
    assert sorted(document["access_controls"], key=str) == sorted([
        dict(resource="project", access_level="member"), dict(resource="project", access_level="admin", role="Ops"),
        dict(resource="dashboard", access_level="viewer")], key=str)
    assert run_live(organization_state, dict(definition=document))["changed"] is False
    document["access_controls"] = [r for r in document["access_controls"] if r["resource"] == "project"]
    drift = run_live(organization_state, dict(definition=document, prune=True), check=True)
    assert not drift["failed"], drift["msg"]
    assert [(a["section"], a["action"]) for a in drift["plan"]] == [("access_controls", "deleted")]
    applied = run_live(organization_state, dict(definition=document, prune=True))
    assert not applied["failed"] and applied["plan"] == drift["plan"], applied.get("msg")
    assert live.api("GET", "/api/projects/1/resource_access_controls/")["access_controls"] == []
    assert run_live(organization_state, dict(definition=document, prune=True))["changed"] is False
