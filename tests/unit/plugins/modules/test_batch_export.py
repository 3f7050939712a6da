# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.batch_export through main(): write-only secrets, pause and resume (and their lost
answers), the project route, absent, and the batch_exports list. More of the list engine is in
tests/unit/plugins/module_utils/test_resource.py."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._resource import SECRET_MASK
from ansible_collections.posthog.admin.plugins.modules import batch_export
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import EXPORT_ID, NOT_FOUND, ORG
from ansible_collections.posthog.admin.tests.unit.objects import batch_export as export

EXPORTS = ORG + "batch_exports/"
LIST = "GET %s?limit=500" % EXPORTS
DETAIL = "%s%s/" % (EXPORTS, EXPORT_ID)
S3_PUBLIC = dict(bucket_name="b", region="eu", prefix="p")
S3 = dict(type="S3", config=dict(S3_PUBLIC, aws_secret_access_key="s3cr3t-value"))
NOOP = dict(type="NoOp")


def test_create_sends_the_secrets_once_and_shows_them_masked(server, run_module):
    server.script((200, page()), (201, export(destination=dict(type="S3", config=S3_PUBLIC))))
    result = run_module(batch_export, dict(name="Nightly", interval="day", destination=S3))
    assert result["changed"] is True and run_module.calls == [LIST, "POST " + EXPORTS]
    assert run_module.bodies("POST") == [{"name": "Nightly", "interval": "day", "destination": S3}]
    assert result["diff"]["after"]["destination"]["config"] == dict(S3_PUBLIC, aws_secret_access_key=SECRET_MASK)
    assert "s3cr3t-value" not in json.dumps(result)


def test_check_mode_predicts_the_update_and_the_pause(server, run_module):
    server.script((200, page(export())))
    result = run_module(batch_export, dict(name="Nightly", interval="hour", state="paused"), check=True)
    assert result["changed"] is True and run_module.calls == [LIST]
    assert result["batch_export"]["interval"] == "hour" and result["batch_export"]["paused"] is True
    assert result["diff"] == {"before": {"name": "Nightly", "interval": "day", "paused": False},
                              "after": {"name": "Nightly", "interval": "hour", "paused": True}}


@pytest.mark.parametrize("current, args", [
    (export(), dict(interval="day", destination=NOOP)),
    (export(destination=dict(type="S3", config=S3_PUBLIC)), dict(destination=S3)),  # secrets: on_create
    (export(schema={"hogql_query": "SELECT event FROM events"}), dict(hogql_query=" SELECT  event\nFROM events ")),
    (export(start_at="2026-01-01T01:00:00+01:00"), dict(start_at="2026-01-01T00:00:00Z")),
])
def test_a_converged_export_is_one_request(server, run_module, current, args):
    server.script((200, page(current)))
    result = run_module(batch_export, dict(args, name="Nightly"))
    assert result["changed"] is False and len(server.requests) == 1


def test_update_secrets_always_sends_them_again(server, run_module):
    current = export(destination=dict(type="S3", config=S3_PUBLIC))
    server.script((200, page(current)), (200, current))
    result = run_module(batch_export, dict(name="Nightly", destination=S3, update_secrets="always"))
    assert result["changed"] is True and run_module.calls == [LIST, "PATCH " + DETAIL]
    assert run_module.bodies("PATCH") == [{"destination": {"type": "S3", "config": {
        "aws_secret_access_key": "s3cr3t-value"}}}]


def test_absent_deletes_then_finds_nothing(server, run_module):
    server.script((200, page(export())), (204, None), (200, page()))
    result = run_module(batch_export, dict(name="Nightly", state="absent"))
    assert result["changed"] is True and result["batch_export"] == {}
    assert run_module(batch_export, dict(name="Nightly", state="absent"))["changed"] is False
    assert run_module.calls == [LIST, "DELETE " + DETAIL, LIST]


def test_a_new_export_goes_through_its_project(server, run_module):
    # With project_id the project's route is used to find it too (PostHog's newest API has no other).
    server.script((200, page()), (201, export(team_id=2)))
    result = run_module(batch_export, dict(name="Nightly", interval="day", destination=NOOP, project_id="2"))
    assert result["changed"] is True
    assert run_module.calls == ["GET /api/projects/2/batch_exports/?limit=500", "POST /api/projects/2/batch_exports/"]


@pytest.mark.parametrize("answer, args, words", [
    ((200, page()), dict(name="New", destination=NOOP), "batch export 'New' does not exist; to create it, give interval"),
    ((200, page()), dict(name="New", interval="day", destination=dict(type="S3", config=dict(bucket_name="b"))),
     "destination.config needs region, prefix (required for type S3)"),
    ((404, NOT_FOUND), dict(id=EXPORT_ID, interval="day"), "not found in the organization; omit id to create a new one"),
    ((200, page(export())), dict(name="Nightly", destination=dict(type="S3", config=dict(bucket_name="b"))),
     "changing the destination type from NoOp to S3 replaces its config; give every required key of type S3 "
     "(missing: region, prefix)"),
])
def test_what_cannot_be_written_fails_after_one_read(server, run_module, answer, args, words):
    # (an id PostHog answers 404 for costs one more read: whether the organization route exists at all)
    server.script(answer, (200, page()))
    result = run_module(batch_export, args)
    assert result["failed"] and words in result["msg"]
    assert len(server.requests) == (2 if args.get("id") else 1)


# ------------------------------------------------------------------------------- pause / resume
@pytest.mark.parametrize("state, current, action", [("paused", export(), "pause"),
                                                    ("present", export(paused=True), "unpause")])
def test_posthogs_short_answer_to_a_pause_is_the_export_as_read_and_paused(server, run_module, state, current, action):
    server.script((200, page(current)), (200, {"paused": state == "paused"}))
    result = run_module(batch_export, dict(name="Nightly", state=state))
    assert result["changed"] is True and result["batch_export"]["paused"] is (state == "paused")
    assert result["batch_export"]["name"] == "Nightly"
    assert run_module.calls == [LIST, "POST %s%s/" % (DETAIL, action)]


def test_a_pause_whose_answer_was_lost_is_read_back_not_asked_again(server, run_module):
    server.script((200, page(export())), (502, "bad gateway"), (200, export(paused=True)))
    result = run_module(batch_export, dict(name="Nightly", state="paused"))
    assert result["changed"] is True and result["batch_export"]["paused"] is True
    assert run_module.calls == [LIST, "POST %spause/" % DETAIL, "GET " + DETAIL]


def test_a_resume_that_did_not_happen_is_asked_again(server, run_module):
    server.script((200, page(export(paused=True))), (500, {"detail": "A server error occurred."}),
                  (200, export(paused=True)), (200, export()))
    result = run_module(batch_export, dict(name="Nightly", state="present"))
    assert result["changed"] is True and result["batch_export"]["paused"] is False
    assert run_module.calls == [LIST, "POST %sunpause/" % DETAIL, "GET " + DETAIL, "POST %sunpause/" % DETAIL]
    assert result["warnings"] == ["Retried: POST %sunpause/: HTTP 500; retrying in 0.0 s" % DETAIL]


# ------------------------------------------------------------------------------------ bad input
@pytest.mark.parametrize("args, words", [
    (dict(name="  "), "name must not be blank"),
    (dict(name="x", start_at="2026-01-01T00:00:00"), "start_at: '2026-01-01T00:00:00' has no timezone"),
    (dict(name="x", start_at="2026-02-01T00:00:00Z", end_at="2026-01-01T00:00:00Z"),
     "start_at (2026-02-01T00:00:00Z) must be before end_at (2026-01-01T00:00:00Z)"),
    (dict(name="x", end_at="yesterday"), "end_at: 'yesterday' is not an ISO-8601 date-time"),
    (dict(name="x", project_id="two"), "project_id must be a project's numeric id"),
])
def test_bad_options_fail_before_any_request(run_module, args, words):
    assert words in run_module.refuses(batch_export, args)


def test_bad_items_fail_before_any_request_naming_each_problem(run_module):
    items = [dict(name="Bad", start_at="2026-01-01T00:00:00", project_id="two",
                  destination=dict(type="S3", config=dict(bucket_name="b", password="secret-value"))),
             dict(interval="day"), dict(name="Events"), dict(name="Events", id=EXPORT_ID)]
    msg = run_module.refuses(batch_export, dict(batch_exports=items))
    assert "batch_exports[0] (batch export 'Bad'): destination.config has key(s) that destinations of type S3 " \
           "do not take: password" in msg and "secret-value" not in msg
    assert "has no timezone" in msg and "project_id must be a project's numeric id" in msg
    assert "batch_exports[1] (no name or id given): one of name or id is required" in msg
    assert "batch_exports[2] and batch_exports[3] name the same object" in msg


def test_a_list_creates_through_a_project_and_pauses_from_one_listing(server, run_module):
    # The item with project_id reads its project's exports; the others share the organization's listing.
    other = export(id="0190a3f4-0000-7000-8000-0000000000e2", name="Other")
    server.script((200, page()), (200, page(export(), other)), (201, export(id="e3", name="New", team_id=2)),
                  (200, {"paused": True}))
    items = [dict(name="New", interval="day", destination=NOOP, project_id="2"),
             dict(name="Nightly", state="paused"), dict(name="Other", interval="day")]
    result = run_module(batch_export, dict(batch_exports=items))
    assert result["changed"] is True and [e["name"] for e in result["batch_exports"]] == ["New", "Nightly", "Other"]
    # the plan reads everything first, then applies its writes in order
    assert run_module.calls == ["GET /api/projects/2/batch_exports/?limit=500", LIST,
                                "POST /api/projects/2/batch_exports/", "POST %spause/" % DETAIL]
    assert len(result["diff"]) == 2
