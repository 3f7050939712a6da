# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.batch_export_backfill through main(): the request through the export's project,
a lost answer recognised among the backfills (never requested twice), PostHog's older route."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import batch_export_backfill
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import EXPORT_ID, NOT_FOUND, ORG, batch_export

EXPORTS = ORG + "batch_exports/"
LIST = "GET %s?limit=500" % EXPORTS
PROJECT_EXPORT = "/api/projects/2/batch_exports/%s/" % EXPORT_ID
BACKFILLS = "GET %sbackfills/" % PROJECT_EXPORT
REQUEST = "POST %sbackfill/" % PROJECT_EXPORT
WINDOW = dict(start_at="2026-01-01T00:00:00Z", end_at="2026-01-02T00:00:00Z")
EXPORT = batch_export(team_id=2)


def backfill(backfill_id, start="2026-01-01T00:00:00+00:00", end="2026-01-02T00:00:00+00:00"):
    return {"id": backfill_id, "start_at": start, "end_at": end, "status": "Starting"}


def run(run_module, check=False):
    return run_module(batch_export_backfill, dict(WINDOW, name="Nightly"), check=check)


def test_a_backfill_is_requested_through_the_exports_project(server, run_module):
    server.script((200, page(EXPORT)), (200, page(backfill("b1"))), (200, {"backfill_id": "b2"}))
    result = run(run_module)
    assert result["changed"] is True and result["batch_export"]["id"] == EXPORT_ID
    assert result["backfill"] == dict(WINDOW, batch_export_id=EXPORT_ID, backfill_id="b2")
    assert run_module.calls == [LIST, BACKFILLS, REQUEST] and run_module.bodies("POST") == [WINDOW]
    assert result["diff"] == {"before": {}, "after": {}}


def test_check_mode_only_finds_the_export(server, run_module):
    server.script((200, page(EXPORT)))
    result = run(run_module, check=True)
    assert result["changed"] is True and run_module.calls == [LIST]
    assert result["backfill"] == dict(WINDOW, batch_export_id=EXPORT_ID, backfill_id=None)


def test_without_a_project_it_is_two_requests(server, run_module):
    server.script((200, page(batch_export())), (200, {"backfill_id": "b2"}))
    assert run(run_module)["backfill"]["backfill_id"] == "b2"
    assert run_module.calls == [LIST, "POST %s%s/backfill/" % (EXPORTS, EXPORT_ID)]


@pytest.mark.parametrize("lost, after, workflow", [
    # 502: the backfill b2 of that window is there now (b1, of the same window, was there before);
    # its record carries no workflow id.
    ((502, "bad gateway"), [(200, page(backfill("b2"), backfill("b1")))], None),
    # 503: nothing new of that window arrived, so the backfill is requested again.
    ((503, {"detail": "Service temporarily unavailable."}),
     [(200, page(backfill("b3", "2026-02-01T00:00:00Z"), backfill("b1"))), (200, {"backfill_id": "w2"})], "w2"),
])
def test_a_lost_answer_is_found_among_the_backfills_not_requested_twice(server, run_module, lost, after, workflow):
    server.script(*[(200, page(EXPORT)), (200, page(backfill("b1"))), lost] + after)
    result = run(run_module)
    assert result["changed"] is True and result["backfill"]["backfill_id"] == workflow
    assert run_module.calls == [LIST, BACKFILLS, REQUEST, BACKFILLS] + [REQUEST] * (len(after) - 1)


def test_a_lost_answer_where_backfills_cannot_be_listed_fails_rather_than_repeat(server, run_module):
    server.script((200, page(EXPORT)), (404, NOT_FOUND), (502, "bad gateway"))
    result = run(run_module)
    assert result["failed"] and "The POST was not retried because it may have been applied" in result["msg"]
    assert run_module.calls == [LIST, BACKFILLS, REQUEST]


def test_posthogs_older_route_is_tried_after_a_404(server, run_module):
    server.script((200, page(EXPORT)), (200, page()), (404, NOT_FOUND), (201, {"id": "b9"}))
    assert run(run_module)["changed"] is True
    assert run_module.calls == [LIST, BACKFILLS, REQUEST, "POST %sbackfills/" % PROJECT_EXPORT]


def test_a_missing_export_fails_after_one_read(server, run_module):
    server.script((200, page()))
    result = run(run_module)
    assert result["failed"] and "batch export 'Nightly' not found in the organization" in result["msg"]
    assert len(server.requests) == 1


@pytest.mark.parametrize("args, words", [
    (dict(name="x", start_at="2026-01-01T00:00:00", end_at="2026-01-02T00:00:00Z"), "has no timezone"),
    (dict(name="x", start_at="2026-01-02T00:00:00Z", end_at="2026-01-01T00:00:00Z"), "must be before end_at"),
    (dict(name="x", start_at="2026-01-01T00:00:00Z"), "missing required arguments: end_at"),
    (dict(WINDOW), "one of the following is required: id, name"),
])
def test_bad_options_fail_before_any_request(run_module, args, words):
    assert words in run_module.refuses(batch_export_backfill, args)
