# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.batch_export, _info and _backfill against PostHog's newest API, through main()."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules import batch_export, batch_export_backfill, batch_export_info
from ansible_collections.posthog.admin.tests.unit.conftest import page

EXPORTS = "/api/projects/12/batch_exports/"
ORG_EXPORTS = "/api/organizations/@current/batch_exports/"
CONFIG = {"bucket_name": "acme", "region": "eu-west-1", "prefix": "events/"}
EXPORT = {"id": "0190a3f4-0000-7000-8000-0000000000e1", "team_id": 12, "name": "To S3", "model": "events",
          "interval": "day", "paused": False, "timezone": "UTC", "offset_day": None, "offset_hour": 0,
          "filters": None, "hogql_query": None, "hogql_modifiers": None, "schema": None,
          "destination": {"type": "AwsS3", "config": CONFIG, "integration": 7}}
AWS = {"id": 7, "kind": "aws-s3", "config": {"name": "acme-aws"}, "display_name": "acme-aws (AWS account 1)"}
GONE = {"type": "invalid_request", "code": "not_found", "detail": "Endpoint not found.", "attr": None}


def aws_task(**extra):
    task = dict(project_id="12", name="To S3", interval="day",
                destination=dict(type="AwsS3", integration="acme-aws", config=dict(CONFIG)))
    task.update(extra)
    return task


def test_creates_on_the_project_route_with_the_integration_found_by_name(server, run_module):
    server.script((200, page()), (200, page(AWS)), (201, EXPORT))
    result = run_module(batch_export, aws_task(timezone="UTC", offset_hour=0))
    assert result["changed"] and not result["failed"], result
    assert run_module.calls[0] == "GET %s?limit=500" % EXPORTS
    assert run_module.calls[1].startswith("GET /api/projects/12/integrations/") and "kind=aws-s3" in run_module.calls[1]
    body = run_module.bodies("POST")[0]
    assert body["destination"] == {"type": "AwsS3", "config": CONFIG, "integration": 7}
    assert body["timezone"] == "UTC" and body["offset_hour"] == 0


def test_idempotent_with_an_integration_id_is_one_request(server, run_module):
    server.script((200, page(EXPORT)))
    task = aws_task(timezone="UTC", offset_hour=0)
    task["destination"]["integration"] = "7"
    result = run_module(batch_export, task)
    assert result["changed"] is False and run_module.calls == ["GET %s?limit=500" % EXPORTS]


def test_new_offset_is_sent_with_the_interval(server, run_module):
    server.script((200, page(EXPORT)), (200, dict(EXPORT, offset_hour=3)))
    task = aws_task(offset_hour=3)
    task["destination"]["integration"] = "7"
    task.pop("interval")
    result = run_module(batch_export, task)
    assert result["changed"] and run_module.bodies("PATCH") == [{"offset_hour": 3, "interval": "day"}]


def test_switching_the_integration_patches_it(server, run_module):
    server.script((200, page(EXPORT)), (200, dict(EXPORT, destination=dict(EXPORT["destination"], integration=9))))
    task = aws_task()
    task["destination"]["integration"] = "9"
    run_module(batch_export, task)
    assert run_module.bodies("PATCH") == [{"destination": {"type": "AwsS3", "config": {}, "integration": 9}}]


def test_unknown_integration_name_lists_what_there_is(server, run_module):
    server.script((200, page()), (200, page(AWS)))
    task = aws_task()
    task["destination"]["integration"] = "other"
    result = run_module(batch_export, task)
    assert result["failed"] and "no integration of kind aws-s3 named 'other' in project 12" in result["msg"]
    assert "acme-aws (AWS account 1) (id 7)" in result["msg"]


def test_check_mode_warns_that_an_earlier_task_may_create_the_integration(server, run_module):
    """Check mode used to fail where the integration is created by an earlier task of the play; it
    now warns, as for a missing organization or default role, and predicts the export."""
    server.script((200, page()), (200, page(AWS)))
    task = aws_task()
    task["destination"]["integration"] = "later-aws"
    result = run_module(batch_export, task, check=True)
    assert result["changed"] is True and not result.get("failed"), result
    assert any("integration 'later-aws' does not exist yet in project 12" in w and "earlier task" in w
               for w in result["warnings"])
    assert [c.split()[0] for c in run_module.calls] == ["GET", "GET"]


def test_aws_keys_inline_are_refused_before_any_request_with_the_way_forward(server, run_module):
    task = aws_task()
    task["destination"]["config"].update(aws_access_key_id="AKIA", aws_secret_access_key="secret-key-000")
    result = run_module(batch_export, task)
    assert result["failed"] and server.requests == []
    assert "do not take: aws_access_key_id, aws_secret_access_key" in result["msg"]
    assert "integration of kind aws-s3" in result["msg"] and "posthog.admin.integration (kind: aws-s3" in result["msg"]


def test_create_without_an_integration_says_how_to_make_one(server, run_module):
    server.script((200, page()))
    task = aws_task()
    del task["destination"]["integration"]
    result = run_module(batch_export, task)
    assert result["failed"] and "give destination.integration" in result["msg"]
    assert "create one with posthog.admin.integration (kind: aws-s3" in result["msg"] and "in project 12" in result["msg"]


def test_posthog_refusing_the_s3_type_explains_the_integration(server, run_module):
    refused = {"type": "validation_error", "code": "invalid_input", "attr": "destination",
               "detail": "The 'S3' destination type is deprecated and can no longer be used. Use 'AwsS3' for AWS "
                         "S3, or 'S3Compatible' for S3-compatible storage."}
    server.script((200, page()), (400, refused))
    task = dict(project_id="12", name="Old S3", interval="hour", destination=dict(type="S3", config=dict(
        CONFIG, aws_access_key_id="AKIA", aws_secret_access_key="secret-key-000")))
    result = run_module(batch_export, task)
    assert result["failed"] and "Use destination type AwsS3" in result["msg"] and "aws-s3" in result["msg"]
    assert "secret-key-000" not in str(result)


def test_without_project_id_newest_posthog_says_to_set_it(server, run_module):
    server.script((404, GONE))
    result = run_module(batch_export, dict(name="To S3", state="absent"))
    assert result["failed"] and "no organization route for batch exports" in result["msg"]
    assert "set project_id" in result["msg"]
    server.script((404, {"type": "invalid_request", "code": "not_found", "detail": "Not found."}), (404, GONE))
    by_id = run_module(batch_export, dict(id=EXPORT["id"], name="To S3"))
    assert "set project_id" in by_id["msg"]


def test_hogql_model_and_filters_are_checked_before_any_request(server, run_module):
    result = run_module(batch_export, aws_task(model="hogql", filters=[{"key": "$browser", "type": "event"}]))
    assert result["failed"] and "not supported with model=hogql" in result["msg"]
    result = run_module(batch_export, aws_task(filters=[{"key": "$browser", "type": "cohort"}], offset_day=2))
    assert "filters[0]: type must be one of event, person, hogql" in result["msg"]
    assert "offset_day is only for weekly exports" in result["msg"]
    assert server.requests == []


def test_info_adds_runs_and_backfills_from_the_project_route(server, run_module):
    runs = {"next": None, "previous": None, "results": [{"id": "r1", "status": "Completed"}]}
    backfills = {"next": None, "previous": None, "results": [{"id": "b1", "status": "Running"}]}
    server.script((200, page(EXPORT)), (200, runs), (200, backfills))
    result = run_module(batch_export_info, dict(project_id="12", runs=True, backfills=True))
    export = result["batch_exports"][0]
    assert export["runs"][0]["id"] == "r1" and export["backfills"][0]["status"] == "Running"
    assert run_module.calls[1:] == ["GET %s%s/runs/" % (EXPORTS, EXPORT["id"]),
                                    "GET %s%s/backfills/" % (EXPORTS, EXPORT["id"])]


def test_backfill_of_a_newest_export_goes_to_backfills_with_dates(server, run_module):
    server.script((200, page(EXPORT)), (200, {"results": []}), (201, {"backfill_id": "bf-1"}))
    result = run_module(batch_export_backfill, dict(project_id="12", name="To S3", start_at="2026-01-01",
                                                    end_at="2026-01-03"))
    assert result["changed"] and result["backfill"]["backfill_id"] == "bf-1"
    assert run_module.calls[-1] == "POST %s%s/backfills/" % (EXPORTS, EXPORT["id"])
    mixed = run_module(batch_export_backfill, dict(name="To S3", start_at="2026-01-01", end_at="2026-01-03T00:00Z"))
    assert mixed["failed"] and "both be dates" in mixed["msg"]


HOGQL = dict(EXPORT, model="hogql", hogql_query="SELECT distinct_id AS id, max(timestamp) AS v FROM events GROUP BY id",
             incremental_mode="MERGE", primary_key=["id"], version_key=["v"])


def hogql_task(**extra):
    task = aws_task(model="hogql", hogql_query=HOGQL["hogql_query"], incremental_mode="MERGE", primary_key=["id"])
    task["destination"]["integration"] = "7"
    task.update(extra)
    return task


def test_incremental_hogql_export_is_compared_and_patched(server, run_module):
    server.script((200, page(HOGQL)))
    result = run_module(batch_export, hogql_task(version_key=["v"]))
    assert result["changed"] is False and len(server.requests) == 1
    server.script((200, page(HOGQL)), (200, dict(HOGQL, version_key=["id"])))
    result = run_module(batch_export, hogql_task(version_key=["id"]))
    assert result["changed"] and run_module.bodies("PATCH") == [{"version_key": ["id"]}]
    assert result["diff"]["before"]["version_key"] == ["v"] and result["diff"]["after"]["version_key"] == ["id"]


def test_incremental_options_are_checked_before_any_request(server, run_module):
    result = run_module(batch_export, aws_task(model="events", primary_key=["uuid"]))
    assert result["failed"] and "primary_key is only for model=hogql" in result["msg"]
    result = run_module(batch_export, hogql_task(version_key=[]))
    assert result["failed"] and "at least one column" in result["msg"]
    assert server.requests == []
    server.script((200, page()))
    result = run_module(batch_export, hogql_task(primary_key=None))
    assert result["failed"] and "give primary_key" in result["msg"] and len(server.requests) == 1


def test_an_older_posthog_without_incremental_exports_fails_instead_of_resending(server, run_module):
    older = dict(EXPORT, model="hogql", hogql_query=HOGQL["hogql_query"])
    server.script((200, page(older)))
    result = run_module(batch_export, hogql_task())
    assert result["failed"] and "this PostHog has no incremental_mode, primary_key" in result["msg"]
    assert [c.split()[0] for c in run_module.calls] == ["GET"]


def test_inline_snowflake_credentials_are_refused_where_the_newest_api_shows(server, run_module):
    server.script((200, page(EXPORT)))
    result = run_module(batch_export, dict(project_id="12", name="To Snowflake", interval="hour", destination=dict(
        type="Snowflake", config=dict(account="acme", user="u", password="p", database="D", warehouse="W",
                                      schema="S"))))
    assert result["failed"] and "only on an integration" in result["msg"] and "kind snowflake" in result["msg"]
    assert [c.split()[0] for c in run_module.calls] == ["GET"]


def test_a_config_change_resends_the_integration_posthog_reads_from_the_request(server, run_module):
    databricks = dict(EXPORT, destination={"type": "Databricks", "integration": 9, "config": {
        "http_path": "/sql/1", "catalog": "main", "schema": "posthog", "table_name": "events"}})
    server.script((200, page(databricks)), (200, databricks))
    result = run_module(batch_export, dict(project_id="12", name="To S3", destination=dict(
        type="Databricks", config=dict(table_name="events_v2"))))
    assert not result["failed"], result["msg"]
    assert run_module.bodies("PATCH") == [{"destination": {"type": "Databricks", "config": {"table_name": "events_v2"},
                                                           "integration": 9}}]
