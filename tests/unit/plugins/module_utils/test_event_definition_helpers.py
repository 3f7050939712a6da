# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Event definition rules (pure functions) and the Resource, driven against a scripted server."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogClient, PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._event_definition import (
    EventDefinition,
    current_value,
    normalise_tags,
    predict,
    validate_params,
)

ID = "0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f"


class Failed(Exception):
    pass


class Exited(Exception):
    def __init__(self, result):
        super(Exited, self).__init__("exit")
        self.result = result


class Warner:
    def __init__(self):
        self.warnings = []

    def warn(self, msg):
        self.warnings.append(msg)


class TaskStub:
    def __init__(self, server, params, check_mode=False, diff_mode=True):
        self.client = PostHogClient(host=server.url, api_key="phx_k", sleep=lambda s: None)
        self.params = params
        self.check_mode = check_mode
        self.diff_mode = diff_mode
        self.project_id = params.get("project_id", "7")
        self.module = Warner()

    def fail(self, msg, **kwargs):
        raise Failed(msg)

    def exit(self, **result):
        raise Exited(result)


def page(*items):
    return {"count": len(items), "next": None, "previous": None, "results": list(items)}


def definition(**fields):
    obj = dict(id=ID, name="signed_up", description="", tags=[], owner=None, verified=False, verified_at=None,
               verified_by=None, hidden=False, is_action=False)
    obj.update(fields)
    return obj


def params(**values):
    base = dict(state="present", id=None, name=None, description=None, tags=None, owner=None, verified=None,
                hidden=None, project_id="7")
    base.update(values)
    return base


def run(server, check_mode=False, **values):
    ph = TaskStub(server, params(**values), check_mode=check_mode)
    with pytest.raises(Exited) as info:
        EventDefinition(ph).run()
    return info.value.result, ph


def body_of(request):
    return json.loads(request["body"])


# ------------------------------------------------------------------------------ pure rules


def test_normalise_tags_trims_lowercases_dedupes_and_drops_blanks():
    assert normalise_tags([" Revenue ", "revenue", "Checkout", "", "  "]) == ["revenue", "checkout"]
    assert normalise_tags(None) == []


def test_current_value_reads_the_compared_form():
    obj = definition(description=None, tags=["b", "A"], owner={"id": 3, "email": "Ada@Example.com"}, hidden=None)
    assert current_value(obj, "description") == ""
    assert current_value(obj, "tags") == ["a", "b"]
    assert current_value(obj, "owner") == "ada@example.com"
    assert current_value(obj, "hidden") is False
    assert current_value(definition(), "owner") == ""


def test_validate_params():
    assert validate_params(params(name="x")) == []
    assert "both be true" in validate_params(params(name="x", hidden=True, verified=True))[0]
    assert validate_params(params(name="x", hidden=True, verified=False)) == []
    assert "UUID" in validate_params(params(id="42"))[0]
    assert "blank" in validate_params(params(name="  "))[0]
    assert "400" in validate_params(params(name="x" * 401))[0]
    assert "blank" in validate_params(params(name="x", tags=["ok", " "]))[0]
    assert "email" in validate_params(params(name="x", owner="ada"))[0]
    assert validate_params(params(name="x", owner="")) == []


def test_predict_follows_posthog_rules():
    verified = definition(verified=True, verified_by={"id": 1}, verified_at="t0")
    after = predict(verified, {"hidden": True})
    assert after["hidden"] is True and after["verified"] is False
    assert after["verified_by"] is None and after["verified_at"] is None
    after = predict(definition(hidden=True), {"verified": True}, requester={"id": 2}, now="t1")
    assert after["verified"] is True and after["hidden"] is False
    assert after["verified_by"] == {"id": 2} and after["verified_at"] == "t1"
    after = predict(verified, {"verified": True, "description": "d"})
    assert after["verified_by"] == {"id": 1} and after["verified_at"] == "t0"  # re-verify ignored
    after = predict(verified, {"verified": False})
    assert after["verified_by"] is None and after["verified_at"] is None
    assert predict(definition(), {"tags": ["B", "b"]})["tags"] == ["b"]


# ------------------------------------------------------------------------------ resource


def test_finds_by_exact_name_with_one_filtered_list(server):
    server.script((200, page(definition(name="signed_up_v2"), definition(), definition(name="x", is_action=True))))
    result, ph = run(server, name="signed_up", description="")
    assert result["changed"] is False
    assert len(server.requests) == 1
    path = server.requests[0]["path"]
    assert path.startswith("/api/projects/7/event_definitions/?")
    assert "search=signed_up" in path and "event_type=event" in path and "limit=500" in path


def test_never_ingested_fails_saying_so(server):
    server.script((200, page(definition(name="signed_up_v2"))))
    ph = TaskStub(server, params(name="signed_up", description="x"))
    with pytest.raises(Failed) as info:
        EventDefinition(ph).run()
    assert "never ingested" in str(info.value) and "cannot create" in str(info.value)
    assert [r["method"] for r in server.requests] == ["GET"]


def test_unknown_id_fails(server):
    server.script((404, {"type": "invalid_request", "code": "not_found", "detail": "Not found.", "attr": None}))
    ph = TaskStub(server, params(id=ID, description="x"))
    with pytest.raises(Failed) as info:
        EventDefinition(ph).run()
    assert "not found" in str(info.value)


def test_id_with_another_name_fails_as_rename(server):
    server.script((200, definition()))
    ph = TaskStub(server, params(id=ID, name="renamed", description="x"))
    with pytest.raises(Failed) as info:
        EventDefinition(ph).run()
    assert "cannot rename" in str(info.value)


def test_patches_only_what_differs_with_normalised_tags(server):
    current = definition(tags=["growth"], description="old")
    server.script((200, page(current)), (200, dict(current, tags=["growth", "onboarding"], description="new")))
    result, ph = run(server, name="signed_up", tags=["Onboarding", "growth ", "GROWTH"], description="new",
                     verified=False)
    assert result["changed"] is True
    assert server.requests[1]["method"] == "PATCH"
    assert server.requests[1]["path"] == "/api/projects/7/event_definitions/%s/" % ID
    assert body_of(server.requests[1]) == {"tags": ["onboarding", "growth"], "description": "new"}
    assert result["diff"]["before"] == {"name": "signed_up", "tags": ["growth"], "description": "old", "verified": False}
    assert result["diff"]["after"]["tags"] == ["growth", "onboarding"]
    assert ph.module.warnings == []


def test_tags_in_another_order_or_case_are_no_change(server):
    server.script((200, page(definition(tags=["b", "a"]))))
    result, ph = run(server, name="signed_up", tags=["A", "B", "a"])
    assert result["changed"] is False


def test_ignored_tags_warn(server):
    current = definition()
    server.script((200, page(current)), (200, current))
    result, ph = run(server, name="signed_up", tags=["vip"])
    assert result["changed"] is True
    assert "tagging" in ph.module.warnings[0]


def test_owner_unchanged_costs_no_lookup(server):
    server.script((200, page(definition(owner={"id": 3, "email": "ada@example.com"}))))
    result, ph = run(server, name="signed_up", owner="ADA@example.com")
    assert result["changed"] is False and len(server.requests) == 1


def test_owner_resolved_among_members_of_the_projects_organization(server):
    org = "0190a3f4-0000-7000-8000-000000000001"
    ada = {"id": 3, "uuid": "u", "email": "ada@example.com"}
    server.script(
        (200, page(definition())),
        (200, {"id": 7, "organization": org}),
        (200, page({"user": ada, "level": 1})),
        (200, definition(owner=ada)),
    )
    result, ph = run(server, name="signed_up", owner="ada@example.com")
    assert [r["method"] for r in server.requests] == ["GET", "GET", "GET", "PATCH"]
    assert server.requests[1]["path"] == "/api/projects/7/"
    assert server.requests[2]["path"].startswith("/api/organizations/%s/members/?" % org)
    assert "email=ada%40example.com" in server.requests[2]["path"]
    assert body_of(server.requests[3]) == {"owner": 3}
    assert result["diff"]["after"]["owner"] == "ada@example.com"


def test_owner_email_in_another_case_falls_back_to_all_members(server):
    ada = {"id": 3, "email": "ada@example.com"}
    server.script(
        (200, page(definition())),
        (200, {"id": 7, "organization": "o"}),
        (200, page()),
        (200, page({"user": {"id": 1, "email": "admin@example.com"}}, {"user": ada})),
    )
    result, ph = run(server, check_mode=True, name="signed_up", owner="Ada@Example.com")
    assert result["changed"] is True
    assert result["event_definition"]["owner"] == ada
    assert {r["method"] for r in server.requests} == {"GET"}


def test_owner_not_a_member_fails(server):
    server.script((200, page(definition())), (200, {"id": 7, "organization": "o"}), (200, page()), (200, page()))
    ph = TaskStub(server, params(name="signed_up", owner="eve@example.com"))
    with pytest.raises(Failed) as info:
        EventDefinition(ph).run()
    assert "not a member" in str(info.value)
    assert "PATCH" not in [r["method"] for r in server.requests]


def test_clearing_the_owner_sends_null(server):
    current = definition(owner={"id": 3, "email": "ada@example.com"})
    server.script((200, page(current)), (200, definition()))
    result, ph = run(server, name="signed_up", owner="")
    assert body_of(server.requests[1]) == {"owner": None}
    assert result["diff"] == {"before": {"name": "signed_up", "owner": "ada@example.com"},
                              "after": {"name": "signed_up", "owner": ""}}


def test_check_mode_predicts_hide_unverifies(server):
    server.script((200, page(definition(verified=True, verified_by={"id": 1}, verified_at="t"))))
    result, ph = run(server, check_mode=True, name="signed_up", hidden=True)
    assert result["changed"] is True
    assert result["event_definition"]["verified"] is False
    assert result["diff"]["after"] == {"name": "signed_up", "hidden": True}
    assert [r["method"] for r in server.requests] == ["GET"]


def test_payment_required_becomes_a_clear_message(server):
    server.script((200, page(definition())), (402, {"type": "server_error", "code": "payment_required",
                                                    "detail": "This feature is part of the premium PostHog offering.",
                                                    "attr": None}))
    ph = TaskStub(server, params(name="signed_up", description="x"))
    with pytest.raises(PostHogError) as info:
        EventDefinition(ph).run()
    assert "ingestion_taxonomy" in str(info.value) and info.value.status == 402


def test_absent_deletes_and_missing_is_no_change(server):
    server.script((200, page(definition())), (204, None))
    result, ph = run(server, name="signed_up", state="absent")
    assert result["changed"] is True and result["event_definition"] == {}
    assert [r["method"] for r in server.requests] == ["GET", "DELETE"]
    server.script((200, page()))
    result, ph = run(server, name="signed_up", state="absent")
    assert result["changed"] is False


def test_absent_by_id_with_another_name_refuses_to_delete(server):
    server.script((200, definition()))
    ph = TaskStub(server, params(id=ID, name="purchase", state="absent"))
    with pytest.raises(Failed) as info:
        EventDefinition(ph).run()
    assert "refusing to delete" in str(info.value)
    assert [r["method"] for r in server.requests] == ["GET"]
