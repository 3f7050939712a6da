# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.event_definition through main(): the filtered look-up, PATCHes of what differs,
owners resolved among the project's organization, PostHog's hide/verify rules, absent, and lists."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import event_definition
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import DEFINITION_ID, NOT_FOUND, definition

DEFINITIONS = "/api/projects/7/event_definitions/"
BY_NAME = "GET %s?event_type=event&limit=500&search=signed_up" % DEFINITIONS
DETAIL = DEFINITIONS + DEFINITION_ID + "/"
ORG_ID = "0190a3f4-0000-7000-8000-000000000001"
ADA = {"id": 3, "uuid": "u3", "email": "ada@example.com"}
PROJECT = (200, {"id": 7, "organization": ORG_ID})


def run(run_module, check=False, **args):
    return run_module(event_definition, dict(args, project_id="7"), check=check)


def test_patches_only_what_differs_with_normalised_tags(server, run_module):
    current = definition(tags=["growth"], description="old")
    server.script((200, page(definition(name="signed_up_v2", id="x"), current)),
                  (200, dict(current, tags=["growth", "onboarding"], description="new")))
    result = run(run_module, name="signed_up", tags=["Onboarding", "growth ", "GROWTH"], description="new",
                 verified=False)
    assert result["changed"] is True and run_module.calls == [BY_NAME, "PATCH " + DETAIL]
    assert run_module.bodies("PATCH") == [{"tags": ["onboarding", "growth"], "description": "new"}]
    assert result["diff"]["before"] == {"name": "signed_up", "tags": ["growth"], "description": "old", "verified": False}
    assert result["diff"]["after"]["tags"] == ["growth", "onboarding"] and result["warnings"] == []


@pytest.mark.parametrize("current, args", [
    (definition(), dict(description="")),
    (definition(tags=["b", "a"]), dict(tags=["A", "B", "a"])),                       # order and case
    (definition(owner=dict(ADA)), dict(owner="ADA@example.com")),                   # no member look-up
    (definition(description=None, hidden=None), dict(description="", hidden=False)),
])
def test_a_converged_definition_is_one_filtered_list(server, run_module, current, args):
    server.script((200, page(definition(name="signed_up", id="a", is_action=True), current)))
    result = run(run_module, name="signed_up", **args)
    assert result["changed"] is False and run_module.calls == [BY_NAME]


def test_check_mode_predicts_that_hiding_unverifies(server, run_module):
    server.script((200, page(definition(verified=True, verified_by={"id": 1}, verified_at="t"))))
    result = run(run_module, check=True, name="signed_up", hidden=True)
    assert result["changed"] is True and run_module.calls == [BY_NAME]
    assert result["event_definition"]["verified"] is False and result["event_definition"]["verified_by"] is None
    assert result["diff"] == {"before": {"name": "signed_up", "hidden": False},
                              "after": {"name": "signed_up", "hidden": True}}


def test_tags_posthog_ignored_are_a_warning(server, run_module):
    server.script((200, page(definition())), (200, definition()))
    result = run(run_module, name="signed_up", tags=["vip"])
    assert result["changed"] is True and "tags need the organization's 'tagging' feature" in result["warnings"][0]


# ------------------------------------------------------------------------------------------ owner
def test_the_owner_is_resolved_among_the_members_of_the_projects_organization(server, run_module):
    server.script((200, page(definition())), PROJECT, (200, page({"user": ADA, "level": 1})),
                  (200, definition(owner=ADA)))
    result = run(run_module, name="signed_up", owner="ada@example.com")
    assert run_module.calls == [BY_NAME, "GET /api/projects/7/",
                                "GET /api/organizations/%s/members/?email=ada%%40example.com&limit=500" % ORG_ID,
                                "PATCH " + DETAIL]
    assert run_module.bodies("PATCH") == [{"owner": 3}] and result["diff"]["after"]["owner"] == "ada@example.com"


def test_an_owner_in_another_case_falls_back_to_all_members(server, run_module):
    server.script((200, page(definition())), PROJECT, (200, page()),
                  (200, page({"user": {"id": 1, "email": "admin@example.com"}}, {"user": ADA})))
    result = run(run_module, check=True, name="signed_up", owner="Ada@Example.com")
    assert result["changed"] is True and result["event_definition"]["owner"] == ADA
    assert set(run_module.methods) == {"GET"} and run_module.calls[-1].endswith("/members/?limit=500")


def test_an_owner_who_is_not_a_member_fails_before_writing(server, run_module):
    server.script((200, page(definition())), PROJECT, (200, page()), (200, page()))
    result = run(run_module, name="signed_up", owner="eve@example.com")
    assert result["failed"] and "owner eve@example.com is not a member of organization %s" % ORG_ID in result["msg"]
    assert "PATCH" not in run_module.methods


def test_clearing_the_owner_sends_null(server, run_module):
    server.script((200, page(definition(owner=ADA))), (200, definition()))
    result = run(run_module, name="signed_up", owner="")
    assert run_module.bodies("PATCH") == [{"owner": None}]
    assert result["diff"] == {"before": {"name": "signed_up", "owner": "ada@example.com"},
                              "after": {"name": "signed_up", "owner": ""}}


def test_payment_required_says_which_feature_is_missing(server, run_module):
    server.script((200, page(definition())), (402, {"type": "server_error", "code": "payment_required", "attr": None,
                                                    "detail": "This feature is part of the premium PostHog offering."}))
    result = run(run_module, name="signed_up", description="x")
    assert result["failed"] and result["error"]["status"] == 402
    assert result["msg"].startswith("updating event definition 'signed_up' in project 7: PostHog refused")
    assert "'ingestion_taxonomy' feature" in result["msg"]


# ------------------------------------------------------------------------------- absent, look-ups
def test_absent_deletes_then_finds_nothing(server, run_module):
    server.script((200, page(definition())), (204, None), (200, page()))
    result = run(run_module, name="signed_up", state="absent")
    assert result["changed"] is True and result["event_definition"] == {}
    assert run(run_module, name="signed_up", state="absent")["changed"] is False
    assert run_module.calls == [BY_NAME, "DELETE " + DETAIL, BY_NAME]


def test_a_definition_not_ingested_is_created_by_name(server, run_module):
    """PostHog's newest EventDefinitionViewSet mixes in CreateModelMixin (docs/posthog_facts.md §14.4)."""
    created = definition(description="x", created_at=None, last_seen_at=None)
    server.script((200, page(definition(name="signed_up_v2", id="x"))), (201, created))
    result = run(run_module, name="signed_up", description="x")
    assert result["changed"] is True and run_module.calls == [BY_NAME, "POST " + DEFINITIONS]
    assert run_module.bodies("POST") == [{"name": "signed_up", "description": "x"}]


def test_a_posthog_without_create_says_so(server, run_module):
    server.script((200, page()), (405, {"type": "invalid_request", "code": "method_not_allowed",
                                        "detail": 'Method "POST" not allowed.', "attr": None}))
    result = run(run_module, name="signed_up", description="x")
    assert result["failed"] and "this PostHog cannot create event definitions" in result["msg"]
    assert "Send the event once" in result["msg"]


@pytest.mark.parametrize("answer, args, words", [
    ((404, NOT_FOUND), dict(id=DEFINITION_ID, description="x"), "no event definition of that project has this id"),
    ((200, definition()), dict(id=DEFINITION_ID, name="renamed", description="x"),
     "is named 'signed_up', not 'renamed': PostHog cannot rename an event definition"),
    ((200, definition()), dict(id=DEFINITION_ID, name="purchase", state="absent"),
     "is named 'signed_up', not 'purchase': refusing to delete it"),
])
def test_what_cannot_be_found_or_changed_fails_after_one_read(server, run_module, answer, args, words):
    server.script(answer)
    result = run(run_module, **args)
    assert result["failed"] and words in result["msg"] and len(server.requests) == 1


@pytest.mark.parametrize("args, words", [
    (dict(name="x", hidden=True, verified=True), "hidden and verified cannot both be true"),
    (dict(id="42"), "id must be an event definition's UUID, got '42'"),
    (dict(name="x", owner="ada"), "owner must be the email address of a member"),
    (dict(name="x", tags=["ok", " "]), "tags must not contain blank entries"),
    (dict(name="x", project_id="seven"), "project_id must be a project's numeric id or '@current'"),
    (dict(event_definitions=[dict(name="x", project_id="3")]), "Unsupported parameters for (basic.py) module: "
     "event_definitions.project_id"),  # the project is the task's
])
def test_bad_options_fail_before_any_request(run_module, args, words):
    assert words in run_module.refuses(event_definition, args)


# ------------------------------------------------------------------------------------------ lists
def test_items_of_a_list_share_one_listing_and_the_owners_they_resolved(server, run_module):
    purchase = definition(id="0190a3f4-0000-7000-8000-0000000000p2", name="purchase")
    server.script((200, page(definition(), purchase)), PROJECT, (200, page({"user": ADA})),
                  (200, definition(owner=ADA)), (200, dict(purchase, owner=ADA)))
    items = [dict(name="signed_up", owner="ada@example.com"), dict(name="purchase", owner="Ada@example.com")]
    result = run(run_module, event_definitions=items)
    assert result["changed"] is True and [d["owner"] for d in result["event_definitions"]] == [ADA, ADA]
    assert run_module.methods == ["GET", "GET", "GET", "PATCH", "PATCH"]
    assert run_module.calls[0] == "GET %s?event_type=event&limit=500" % DEFINITIONS


def test_bad_items_fail_before_any_request_naming_each(run_module):
    items = [dict(id=" %s " % DEFINITION_ID.upper()), dict(id=DEFINITION_ID), dict(name=" "), dict(description="x")]
    msg = run_module.refuses(event_definition, dict(event_definitions=items, project_id="7"))
    assert "event_definitions[0] and event_definitions[1] name the same object" in msg
    assert "event_definitions[2] (event definition ' '): name must not be blank" in msg
    assert "event_definitions[3] (no name or id given): one of name or id is required" in msg


def test_a_posthog_that_keeps_event_schemas_to_its_web_app_is_named(server, run_module):
    """The one stored posthog/api/event_schema.py says scope_object "INTERNAL" (docs/posthog_facts.md §16.3):
    a personal API key is refused; the task says where the groups are given instead."""
    group = {"id": "g1", "name": "Checkout", "properties": [], "events": []}
    server.script((200, page(definition())), (200, page(group)),
                  (403, {"type": "authentication_error", "code": "permission_denied", "attr": None,
                         "detail": "This action does not support Personal API Key access"}))
    result = run(run_module, name="signed_up", property_groups=["Checkout"])
    assert result["failed"] and run_module.calls[-1] == "POST /api/projects/7/event_schemas/"
    assert "serves event schemas (the property groups an event carries) to its web app only" in result["msg"]
    assert run_module.bodies("POST") == [{"event_definition": DEFINITION_ID, "property_group_id": "g1"}]
