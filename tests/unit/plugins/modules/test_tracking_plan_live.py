# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The tracking plan as code through main(), against a live emulator (profile posthog): property groups
converged as sets, events declared before they are sent and given their groups by name, documented
property definitions, and organization_state planning all of it in order (what the document creates is
known after apply), refusing what would break a reference, and exporting a project's whole plan."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

import pytest

from ansible_collections.posthog.admin.plugins.modules import (
    event_definition,
    organization_state,
    organization_state_info,
    property_definition,
    property_group,
)

CHECKOUT = dict(name="Checkout", description="Checkout events", properties=[
    dict(name="cart_value", property_type="Numeric", is_required=True, validation_rules=dict(minimum=0)),
    dict(name="currency", property_type="String", validation_rules=dict(enum=["EUR", "USD"]))])
TOKEN = re.compile(r"\(known after apply: (a\d+)\.id ~[0-9a-f]+\)")


pytestmark = pytest.mark.usefixtures("module_side")


def groups(live):
    return live.api("GET", "/api/projects/1/schema_property_groups/")["results"]


def ingest(live, *events):
    return live.control("POST", "projects/1/events", {"events": list(events)})["results"]


# ------------------------------------------------------------------------ property groups
def test_a_group_is_converged_as_a_set_of_properties_matched_by_name(run_live, live):
    check = run_live(property_group, dict(CHECKOUT, project_id="1"), check=True)
    assert not check["failed"] and check["changed"] and live.requests == [], check.get("msg")
    created = run_live(property_group, dict(CHECKOUT, project_id="1"))
    assert not created["failed"], created["msg"]
    assert live.requests == ["POST /api/projects/1/schema_property_groups/"]
    cart = [p for p in created["property_group"]["properties"] if p["name"] == "cart_value"][0]
    live.forget()
    same = run_live(property_group, dict(CHECKOUT, project_id="1", properties=list(reversed(CHECKOUT["properties"]))))
    assert same["changed"] is False and live.requests == []
    changed = run_live(property_group, dict(project_id="1", name="Checkout", properties=[
        dict(name="cart_value", property_type="Numeric"), dict(name="coupon", property_type="String")]))
    assert not changed["failed"], changed["msg"]
    assert live.requests == ["PATCH /api/projects/1/schema_property_groups/%s/" % created["property_group"]["id"]]
    props = dict((p["name"], p) for p in groups(live)[0]["properties"])
    assert sorted(props) == ["cart_value", "coupon"] and props["cart_value"]["id"] == cart["id"]
    assert props["cart_value"]["is_required"] is False and props["cart_value"]["validation_rules"] is None


def test_a_group_found_by_id_is_renamed_with_its_properties_kept(run_live, live):
    """The module documents that a new name with id renames the group: name is a Field, sent when it differs."""
    created = run_live(property_group, dict(CHECKOUT, project_id="1"))["property_group"]
    live.forget()
    renamed = run_live(property_group, dict(project_id="1", id=created["id"], name="Checkout v2"))
    assert not renamed["failed"] and renamed["changed"], renamed.get("msg")
    assert live.requests == ["PATCH /api/projects/1/schema_property_groups/%s/" % created["id"]]
    assert [(g["id"], g["name"], len(g["properties"])) for g in groups(live)] == [(created["id"], "Checkout v2", 2)]
    live.forget()
    again = run_live(property_group, dict(project_id="1", id=created["id"], name="Checkout v2"))
    assert again["changed"] is False and live.requests == []


@pytest.mark.parametrize("props, words", [
    ([dict(name="a", property_type="String"), dict(name=" a ", property_type="String")], "already exists in this group"),
    ([dict(name="a", property_type="Boolean", validation_rules=dict(enum=["x"]))], "not supported for Boolean"),
    ([dict(name="", property_type="String")], "Property name is required"),
])
def test_posthog_refusals_of_a_group_come_before_any_request(run_live, live, props, words):
    result = run_live(property_group, dict(project_id="1", name="G", properties=props))
    assert result["failed"] and words in result["msg"] and live.all_requests == [], result


# ------------------------------------------------------------------------ event definitions
def test_an_event_is_declared_before_it_is_sent_and_carries_its_groups(run_live, live):
    run_live(property_group, dict(CHECKOUT, project_id="1"))
    run_live(property_group, dict(project_id="1", name="Page", properties=[dict(name="path", property_type="String")]))
    args = dict(project_id="1", name="checkout_started", description="A person opened the checkout",
                property_groups=["Checkout", "Page"])
    live.forget()
    check = run_live(event_definition, args, check=True)
    assert not check["failed"] and check["changed"] and live.requests == [], check.get("msg")
    assert check["event_definition"]["property_groups"] == ["Checkout", "Page"]
    real = run_live(event_definition, args)
    assert not real["failed"], real["msg"]
    assert live.requests == ["POST /api/projects/1/event_definitions/", "POST /api/projects/1/event_schemas/",
                             "POST /api/projects/1/event_schemas/"]
    definition = real["event_definition"]
    assert definition["last_seen_at"] is None and definition["property_groups"] == ["Checkout", "Page"]
    live.forget()
    again = run_live(event_definition, args)
    assert again["changed"] is False and live.requests == []
    fewer = run_live(event_definition, dict(args, property_groups=["Page"]))
    assert fewer["changed"] and live.requests[-1].startswith("DELETE /api/projects/1/event_schemas/")
    assert fewer["diff"]["before"]["property_groups"] == ["Checkout", "Page"]
    assert [e["name"] for g in groups(live) if g["name"] == "Checkout" for e in g["events"]] == []
    unknown = run_live(event_definition, dict(args, property_groups=["Nope"]))
    assert unknown["failed"] and "property group(s) Nope do not exist" in unknown["msg"]


def test_the_spec_profile_cannot_create_and_says_so(run_live, live):
    live.control("PUT", "profile", {"profile": "spec"})
    try:
        result = run_live(event_definition, dict(project_id="1", name="never_sent", description="x"))
    finally:
        live.control("PUT", "profile", {"profile": "posthog"})
    assert result["failed"] and "this PostHog cannot create event definitions" in result["msg"], result


# ------------------------------------------------------------------------ property definitions
def test_an_ingested_property_is_documented_and_one_not_ingested_is_explained(run_live, live):
    ingest(live, {"name": "purchase", "properties": {"plan": "pro", "amount": 12}, "person_properties": {"plan": "x"}})
    args = dict(project_id="1", name="plan", description="The plan", tags=["Billing"], verified=True)
    check = run_live(property_definition, args, check=True)
    assert not check["failed"] and check["changed"] and live.requests == [], check.get("msg")
    real = run_live(property_definition, args)
    assert not real["failed"] and real["property_definition"]["verified_by"]["email"], real.get("msg")
    assert real["property_definition"]["tags"] == ["billing"]
    live.forget()
    assert run_live(property_definition, args)["changed"] is False and live.requests == []
    person = live.api("GET", "/api/projects/1/property_definitions/?type=person")["results"]
    assert person[0]["description"] == ""  # the event's plan, not the person's
    missing = run_live(property_definition, dict(project_id="1", name="not_sent", description="x"))
    assert missing["failed"] and "PostHog defines a property when it ingests" in missing["msg"]
    both = run_live(property_definition, dict(project_id="1", name="plan", hidden=True, verified=True))
    assert both["failed"] and "cannot both be true" in both["msg"]


# ------------------------------------------------------------------------ the whole plan
def tracking_plan(**changes):
    doc = dict(name="Emulator Org",
               integrations=[dict(kind="aws-s3", name="acme-aws", config=dict(
                   aws_access_key_id="AKIADOCUMENTKEY00001", aws_secret_access_key="document-secret-0001"))],
               batch_exports=[dict(name="Events to S3", interval="hour", destination=dict(
                   type="AwsS3", integration="acme-aws",
                   config=dict(bucket_name="b", region="eu-west-1", prefix="events/")))],
               property_groups=[CHECKOUT],
               event_definitions=[dict(name="checkout_started", description="A person opened the checkout",
                                       property_groups=["Checkout"])],
               property_definitions=[dict(name="plan", description="The plan")])
    doc.update(changes)
    return doc


def test_the_document_creates_what_it_names_first_and_the_plan_is_the_apply(run_live, live):
    ingest(live, {"name": "purchase", "properties": {"plan": "pro"}})
    check = run_live(organization_state, dict(definition=tracking_plan()), check=True)
    assert not check["failed"], check["msg"]
    assert [(a["section"], a["method"]) for a in check["plan"]] == [
        ("integrations", "POST"), ("batch_exports", "POST"), ("property_groups", "POST"),
        ("event_definitions", "POST"), ("event_definitions", "POST"), ("property_definitions", "PATCH")]
    export, schema = check["plan"][1], check["plan"][4]
    assert TOKEN.fullmatch(export["body"]["destination"]["integration"]).group(1) == "a1"
    assert export["waits_for"] == ["a1"] and schema["waits_for"] == ["a3", "a4"]
    assert "document-secret-0001" not in repr(check)
    live.forget()
    real = run_live(organization_state, dict(definition=tracking_plan()))
    assert not real["failed"], real["msg"]
    assert [(a["method"], a["path"].split("/")[4]) for a in real["plan"]] == [
        (r.split()[0], r.split()[1].split("/")[4]) for r in live.requests]
    aws = live.api("GET", "/api/projects/1/integrations/")["results"][0]
    exported = live.api("GET", "/api/projects/1/batch_exports/")["results"][0]
    assert exported["destination"]["integration"] == aws["id"]
    assert groups(live)[0]["events"][0]["name"] == "checkout_started"
    assert "document-secret-0001" not in repr(real)
    live.forget()
    again = run_live(organization_state, dict(definition=tracking_plan()))
    assert again["changed"] is False and again["plan"] == [] and live.requests == []


def test_deleting_what_the_document_still_uses_is_refused_before_any_write(run_live, live):
    assert not run_live(organization_state, dict(definition=tracking_plan()))["failed"]
    live.forget()
    groupless = tracking_plan(property_groups=[dict(name="Checkout", state="absent")])
    refused = run_live(organization_state, dict(definition=groupless))
    assert refused["failed"] and "The plan is unsafe" in refused["msg"]
    assert "lists them in property_groups" in refused["msg"] and live.requests == []
    keyless = tracking_plan(integrations=[dict(kind="aws-s3", name="acme-aws", state="absent")])
    refused = run_live(organization_state, dict(definition=keyless))
    assert refused["failed"] and "This integration is used by batch exports: Events to S3" in refused["msg"]
    assert live.requests == []


def test_a_projects_whole_tracking_plan_round_trips(run_live, live, tmp_path):
    ingest(live, {"name": "purchase", "properties": {"plan": "pro"}})
    assert not run_live(organization_state, dict(definition=tracking_plan()))["failed"]
    dest = tmp_path / "org.yml"
    exported = run_live(organization_state_info, dict(dest=str(dest)))
    assert not exported["failed"], exported["msg"]
    document = exported["definition"]
    assert document["integrations"] == [dict(kind="aws-s3", name="acme-aws")]
    assert document["property_groups"][0]["name"] == "Checkout"
    assert document["event_definitions"] == [dict(name="checkout_started", description="A person opened the checkout",
                                                  property_groups=["Checkout"])]
    assert document["property_definitions"] == [dict(name="plan", description="The plan", property_type="String")]
    assert [n for n in exported["notes"] if "aws_access_key_id, aws_secret_access_key" in n]
    text = dest.read_text()
    assert "document-secret-0001" not in text and "AKIADOCUMENTKEY00001" not in text
    live.forget()
    again = run_live(organization_state, dict(definition_file=str(dest)))
    assert not again["failed"] and again["changed"] is False and live.requests == [], again.get("msg")


def test_a_saved_plan_holds_no_secret_of_an_integration(run_live, live, tmp_path):
    """A reviewed plan (plan_file) saves every action's body, masked: the keys an integration is created
    with are in no file, result or Markdown."""
    from ansible_collections.posthog.admin.plugins.filter.plan_markdown import plan_markdown

    plan_file = tmp_path / "plan.json"
    check = run_live(organization_state, dict(definition=tracking_plan(), plan_file=str(plan_file)), check=True)
    assert not check["failed"], check["msg"]
    text = plan_file.read_text()
    assert "document-secret-0001" not in text and "AKIADOCUMENTKEY00001" not in text
    assert "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER" in text
    markdown = plan_markdown(check)
    assert "acme-aws" in markdown and "document-secret-0001" not in markdown
    applied = run_live(organization_state, dict(definition=tracking_plan(), plan_file=str(plan_file)))
    assert not applied["failed"] and applied["changed"], applied.get("msg")
    stored = live.control("GET", "integrations/%s" % live.api("GET", "/api/projects/1/integrations/")["results"][0]["id"])
    assert stored["sensitive_config"]["aws_secret_access_key"] == "document-secret-0001"


def test_an_owner_the_roster_invites_is_pending_in_a_new_organization(run_live, live):
    """A new organization's project is known after apply: a declared event's owner is looked up among the
    organization's members as the plan knows them; one the roster only invites owns it once they join."""
    doc = dict(name="Brand New Org", roster=dict(people=[dict(email=live.control("GET", "info")["user"]["email"],
                                                              level="owner"), dict(email="grace@new.example")]),
               event_definitions=[dict(name="signed_up", description="A sign-up", owner="grace@new.example")])
    check = run_live(organization_state, dict(definition=doc), check=True)
    assert not check["failed"], check["msg"]
    assert [p["pending"] for p in check["pending"]] == ["owner grace@new.example"]
    real = run_live(organization_state, dict(definition=doc))
    assert not real["failed"] and real["pending"] == check["pending"], real.get("msg")
    project = real["project_id"]
    created = live.api("GET", "/api/projects/%s/event_definitions/" % project)["results"]
    assert [(d["name"], d["owner"]) for d in created] == [("signed_up", None)]
    stranger = dict(doc, event_definitions=[dict(name="other", owner="nobody@new.example")], name="Another New Org")
    refused = run_live(organization_state, dict(definition=stranger), check=True)
    assert refused["failed"] and "not a member of the organization" in refused["msg"]
