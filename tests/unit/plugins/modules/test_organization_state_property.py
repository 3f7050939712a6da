# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Properties of organization_state over generated organizations (Hypothesis), on a live emulator:
for any organization built through the API, its export applies with no change; after one change by
hand, check mode reports exactly that change, the real run undoes it, and the export is again the
first. And the fast path of the document's validation agrees with Ansible's validator."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

hypothesis = pytest.importorskip("hypothesis")  # in requirements-dev.txt (the main test run), not the compat runs
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from ansible_collections.posthog.admin.plugins.module_utils import _catalog, _state  # noqa: E402
from ansible_collections.posthog.admin.plugins.modules import organization_state, organization_state_info  # noqa: E402

PEOPLE = ["ana@example.com", "bo@example.com", "cy@example.com"]
EVENTS = ["signed_up", "paid", "churned"]
HTTP = dict(type="HTTP", config=dict(url="https://eu.i.posthog.com/batch/", token="t"))

organizations = st.fixed_dictionaries(dict(
    settings=st.fixed_dictionaries(dict(enforce_2fa=st.booleans(), members_can_invite=st.booleans())),
    people=st.dictionaries(st.sampled_from(PEOPLE), st.sampled_from(["member", "admin"]), max_size=3),
    roles=st.dictionaries(st.sampled_from(["Analysts", "Viewers", "Ops"]), st.sets(st.sampled_from(PEOPLE)), max_size=3),
    domains=st.sets(st.sampled_from(["a.example.com", "b.example.org"]), max_size=2),
    events=st.dictionaries(st.sampled_from(EVENTS), st.sampled_from(["Documented", "Another text"]), max_size=3),
    exports=st.dictionaries(st.sampled_from(["Nightly", "Hourly"]), st.sampled_from(["hour", "day"]), max_size=2),
))
MUTATIONS = ["setting", "level", "holder", "domain", "event", "export"]


def build(live, org):
    """The organization, made by hand through the emulator's API (not by the modules under test)."""
    live.reset()
    org_id = live.info["organization"]["id"]
    base = "/api/organizations/%s/" % org_id
    live.control("PUT", "organizations/%s/features" % org_id, {"features": ["role_based_access"]})
    live.api("PATCH", base, org["settings"])
    for email, level in sorted(org["people"].items()):
        live.control("POST", "keys", {"email": email, "organization": org_id, "level": level})
    uuids = dict((m["user"]["email"], m["user"]["uuid"]) for m in live.api("GET", base + "members/")["results"])
    for name, holders in sorted(org["roles"].items()):
        role = live.api("POST", base + "roles/", {"name": name})
        for email in sorted(holders & set(org["people"])):
            live.api("POST", base + "roles/%s/role_memberships/" % role["id"], {"user_uuid": uuids[email]})
    for domain in sorted(org["domains"]):
        live.api("POST", base + "domains/", {"domain": domain})
    if org["events"]:
        live.control("POST", "projects/1/events", {"events": sorted(org["events"])})
        for definition in live.api("GET", "/api/projects/1/event_definitions/")["results"]:
            live.api("PATCH", "/api/projects/1/event_definitions/%s/" % definition["id"],
                     {"description": org["events"][definition["name"]]})
    for name, interval in sorted(org["exports"].items()):
        live.api("POST", "/api/projects/1/batch_exports/", dict(name=name, interval=interval, destination=HTTP))
    return base, uuids


def mutate(live, base, uuids, org, how):
    """One change by hand; the (section, item label fragment) check mode must report, or None when the
    organization has nothing of that kind to change."""
    if how == "setting":
        live.api("PATCH", base, {"enforce_2fa": not org["settings"]["enforce_2fa"]})
        return "organization", "organization"
    if how == "level" and org["people"]:
        email = sorted(org["people"])[0]
        live.api("PATCH", base + "members/%s/" % uuids[email],
                 {"level": 8 if org["people"][email] == "member" else 1})
        return "roster", email
    if how == "holder" and org["roles"] and org["people"]:
        name = sorted(org["roles"])[0]
        roles = dict((r["name"], r) for r in live.api("GET", base + "roles/")["results"])
        holders = roles[name]["members"]
        if holders:
            live.api("DELETE", base + "roles/%s/role_memberships/%s/" % (roles[name]["id"], holders[0]["id"]))
        else:
            live.api("POST", base + "roles/%s/role_memberships/" % roles[name]["id"],
                     {"user_uuid": uuids[sorted(org["people"])[0]]})
        return "roles", "role %r" % name
    if how == "domain" and org["domains"]:
        domain = live.api("GET", base + "domains/")["results"][0]
        live.api("DELETE", base + "domains/%s/" % domain["id"])
        return "domains", "domain %r" % domain["domain"]
    if how == "event" and org["events"]:
        definition = live.api("GET", "/api/projects/1/event_definitions/")["results"][0]
        live.api("PATCH", "/api/projects/1/event_definitions/%s/" % definition["id"], {"description": "Changed by hand"})
        return "event_definitions", "event definition %r" % definition["name"]
    if how == "export" and org["exports"]:
        export = live.api("GET", "/api/projects/1/batch_exports/")["results"][0]
        live.api("PATCH", "/api/projects/1/batch_exports/%s/" % export["id"],
                 {"interval": "day" if export["interval"] == "hour" else "hour"})
        return "batch_exports", "batch export %r" % export["name"]
    return None


def applicable(org):
    """The mutations ``org`` has something to change for."""
    has = dict(setting=True, level=org["people"], holder=org["roles"] and org["people"], domain=org["domains"],
               event=org["events"], export=org["exports"])
    return [how for how in MUTATIONS if has[how]]


@settings(max_examples=12, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(org=organizations, data=st.data())
def test_export_apply_mutate_detect_apply_export(live_emulator, run_live, org, data):
    live = live_emulator
    how = data.draw(st.sampled_from(applicable(org)), label="mutation")
    base, uuids = build(live, org)
    first = run_live(organization_state_info, dict(organization=live.info["organization"]["id"]))
    assert not first["failed"], first["msg"]
    document = first["definition"]
    unchanged = run_live(organization_state, dict(definition=document))
    assert not unchanged["failed"] and unchanged["changed"] is False, unchanged.get("msg") or unchanged["plan"]
    expected = mutate(live, base, uuids, org, how)
    drift = run_live(organization_state, dict(definition=document), check=True)
    assert not drift["failed"], drift["msg"]
    section, item = expected
    assert drift["changed"] and set(a["section"] for a in drift["plan"]) == set([section]), drift["plan"]
    assert all(item in a["item"] for a in drift["plan"]), (item, drift["plan"])
    applied = run_live(organization_state, dict(definition=document))
    assert not applied["failed"] and applied["plan"] == drift["plan"], applied.get("msg")
    again = run_live(organization_state_info, dict(organization=live.info["organization"]["id"]))["definition"]
    assert again == document


# ------------------------------------------------------------------------ the validator's fast path
def spec_items():
    return [
        ("roles", dict(name="Analysts", members=["a@example.com"], purge=True)),
        ("projects", dict(name="Web", timezone="UTC", anonymize_ips=True, app_urls=["https://a.example"],
                          session_recording_sample_rate=1)),
        ("domains", dict(domain="example.com", state="verified")),
        ("roster", dict(people=[dict(email="a@example.com", level="admin", roles=["Ops"])], purge=True)),
        ("batch_exports", dict(name="X", interval="day", destination=dict(type="HTTP", config=dict(url="u", token="s")),
                               project_id="2")),
        ("event_definitions", dict(name="e", description="d", tags=["a"], project_id="2", verified=True)),
        ("plugins", dict(family="destination", url="https://github.com/a/b", is_global=False)),
    ]


@pytest.mark.parametrize("key,item", spec_items())
def test_the_fast_path_validates_as_ansible_does(key, item):
    section = _catalog.section(key)
    secrets = set()
    fast = _state.plainly_valid(section.options, item, secrets, section.required_one_of)
    result = section.validator.validate(dict(item))
    assert not result.errors.messages
    if fast is not None:  # where it answers, it answers as Ansible's validator does
        assert fast == result.validated_parameters
        assert secrets == set(result._no_log_values)


def test_the_fast_path_leaves_anything_doubtful_to_ansible():
    section = _catalog.section("roles")
    assert _state.plainly_valid(section.options, dict(name="A", colour="blue"), set()) is None
    assert _state.plainly_valid(section.options, dict(name=3), set()) is None
    assert _state.plainly_valid(section.options, dict(name="A", state="gone"), set()) is None
    assert _state.plainly_valid(section.options, dict(members=["a@b.c"]), set(), section.required_one_of) is None
