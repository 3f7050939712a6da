"""Batch exports in the newest generation (the ``posthog`` profile's default)."""

import datetime as dt

import pytest

from posthog_emulator import generations, profiles
from posthog_emulator.models import BatchExport, BatchExportBackfill, BatchExportDestination
from tests.conftest import error

AWS_CONFIG = {"bucket_name": "acme-exports", "region": "eu-west-1", "prefix": "posthog/"}
NEWEST_FIELDS = {
    "id", "team_id", "name", "model", "destination", "interval", "paused", "created_at", "last_updated_at",
    "last_paused_at", "start_at", "end_at", "latest_runs", "hogql_query", "hogql_modifiers", "schema", "filters",
    "timezone", "offset_day", "offset_hour", "primary_key", "version_key", "incremental_mode",
}  # fmt: skip


@pytest.fixture(autouse=True)
def _posthog():
    profiles.set_profile("posthog")


def url(boot, suffix=""):
    return f"/api/projects/{boot.project.id}/batch_exports/{suffix}"


def make_integration(client, boot, kind="aws-s3", name="acme-aws", **config):
    body = {"kind": kind, "config": {"name": name, **config},
            "sensitive_config": {"aws_access_key_id": "AKIA-NEWEST", "aws_secret_access_key": "newest-secret"}}
    response = client.post(f"/_emulator/projects/{boot.project.id}/integrations", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def aws_export(integration, **overrides):
    body = {"name": "To S3", "interval": "hour",
            "destination": {"type": "AwsS3", "integration": integration, "config": dict(AWS_CONFIG)}}
    body.update(overrides)
    return body


@pytest.fixture
def integration(client, boot):
    return make_integration(client, boot)


def test_defaults_to_newest_in_the_posthog_profile():
    assert generations.of("batch_exports") == "newest"


def test_aws_s3_on_an_integration(api, boot, integration):
    response = api.post(url(boot), aws_export(integration), format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) == NEWEST_FIELDS
    assert body["destination"] == {"type": "AwsS3", "config": AWS_CONFIG, "integration": integration}
    assert body["timezone"] == "UTC" and body["offset_day"] is None and body["offset_hour"] is None
    assert body["hogql_query"] is None and body["hogql_modifiers"] is None and body["model"] == "events"
    # integration_id (PostHog's request schema name) works too
    other = api.post(url(boot), {**aws_export(None, name="Other"), "destination": {
        "type": "AwsS3", "integration_id": integration, "config": dict(AWS_CONFIG)}}, format="json")
    assert other.status_code == 201 and other.json()["destination"]["integration"] == integration


@pytest.mark.parametrize("destination, message", [
    ({"type": "S3", "config": {**AWS_CONFIG, "aws_access_key_id": "a", "aws_secret_access_key": "b"}},
     "The 'S3' destination type is deprecated and can no longer be used. Use 'AwsS3' for AWS S3, or "
     "'S3Compatible' for S3-compatible storage."),
    ({"type": "AwsS3", "config": {**AWS_CONFIG, "aws_access_key_id": "a", "aws_secret_access_key": "b"}},
     "Configuration has unknown field/s: 'aws_access_key_id', 'aws_secret_access_key'"),
    ({"type": "AwsS3", "config": AWS_CONFIG}, "Integration is required for AwsS3 batch exports"),
    ({"type": "Snowflake", "config": {"database": "d", "warehouse": "w", "schema": "s", "account": "a", "user": "u",
                                      "password": "p"}}, "Integration is required for Snowflake batch exports"),
    ({"type": "Postgres", "config": {"database": "d", "user": "u", "password": "p", "host": "h"}},
     "Integration is required for Postgres batch exports"),
    ({"type": "AwsS3", "config": {"bucket_name": "b", "region": "r"}}, "Configuration missing required field: 'prefix'"),
])  # fmt: skip
def test_inline_credentials_and_missing_integrations_are_refused(api, boot, destination, message):
    response = api.post(url(boot), {"name": "x", "interval": "hour", "destination": destination}, format="json")
    assert response.status_code == 400, response.content
    assert error(response)["detail"] == message and error(response)["attr"] == "destination"


def test_integration_of_the_wrong_kind_or_project(api, boot, client):
    snowflake = make_integration(client, boot, kind="snowflake", name="sf", account="acme", user="u")
    response = api.post(url(boot), aws_export(snowflake), format="json")
    assert error(response)["detail"] == "Integration provided is not an AWS S3 integration (got kind='snowflake')"
    response = api.post(url(boot), aws_export(4242), format="json")
    assert response.status_code == 400 and "object does not exist" in error(response)["detail"]


def test_update_merges_config_keeps_integration_and_refuses_type_change(api, boot, integration):
    created = api.post(url(boot), aws_export(integration), format="json").json()
    patched = api.patch(url(boot, f"{created['id']}/"), {"destination": {"type": "AwsS3", "config": {
        "prefix": "new/"}}}, format="json")
    assert patched.status_code == 200, patched.content
    assert patched.json()["destination"]["config"]["bucket_name"] == "acme-exports"
    assert patched.json()["destination"]["integration"] == integration
    response = api.patch(url(boot, f"{created['id']}/"), {"destination": {"type": "S3Compatible", "config": {}}},
                         format="json")
    assert error(response)["detail"] == ("Cannot change destination type from 'AwsS3' to 'S3Compatible'. Delete this "
                                         "batch export and create a new one with the new destination type.")
    response = api.patch(url(boot, f"{created['id']}/"), {"destination": {"type": "AwsS3", "integration": None}},
                         format="json")
    assert error(response)["detail"] == "Integration is required for AwsS3 batch exports"


def test_integration_on_update_as_each_type_reads_it(api, boot, client):
    """``validate_destination``: Snowflake and the S3 family keep the stored integration when a PATCH
    leaves it out; BigQuery (like Databricks and Azure Blob) reads it from the request alone; a
    Redshift export on an integration cannot drop it (exports.py, products/batch_exports/...)."""
    bigquery = make_integration(client, boot, kind="google-cloud-service-account", name="gcp")
    body = {"name": "To BigQuery", "interval": "hour",
            "destination": {"type": "BigQuery", "integration": bigquery, "config": {"dataset_id": "posthog"}}}
    created = api.post(url(boot), body, format="json")
    assert created.status_code == 201, created.content
    patch = {"destination": {"type": "BigQuery", "config": {"table_id": "events2"}}}
    response = api.patch(url(boot, f"{created.json()['id']}/"), patch, format="json")
    assert error(response)["detail"] == "Integration is required for BigQuery batch exports"
    patch["destination"]["integration"] = bigquery
    assert api.patch(url(boot, f"{created.json()['id']}/"), patch, format="json").status_code == 200
    redshift = make_integration(client, boot, kind="aws-redshift", name="rs", host="rs.example.com")
    body = {"name": "To Redshift", "interval": "hour",
            "destination": {"type": "Redshift", "integration": redshift, "config": {"database": "dev"}}}
    created = api.post(url(boot), body, format="json")
    assert created.status_code == 201, created.content
    response = api.patch(url(boot, f"{created.json()['id']}/"), {"destination": {"type": "Redshift", "config": {
        "schema": "x"}}}, format="json")
    assert error(response)["detail"].startswith("Cannot remove the integration from a Redshift batch export")


def test_timezone_and_offsets(api, boot, integration):
    response = api.post(url(boot), aws_export(integration, interval="week", timezone="Europe/Berlin",
                                              offset_day=1, offset_hour=6), format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["timezone"], body["offset_day"], body["offset_hour"]) == ("Europe/Berlin", 1, 6)
    patched = api.patch(url(boot, f"{body['id']}/"), {"interval": "day", "offset_hour": 3}, format="json").json()
    assert (patched["offset_day"], patched["offset_hour"]) == (None, 3)
    for extra, message in (({"offset_day": 2}, "offset_day is not applicable for non-weekly intervals"),
                           ({"interval": "hour", "offset_hour": 2},
                            "offset_hour is not applicable for non-daily/weekly intervals"),
                           ({"offset_hour": 24}, "Ensure this value is less than or equal to 23.")):
        response = api.patch(url(boot, f"{body['id']}/"), extra, format="json")
        assert response.status_code == 400 and error(response)["detail"] == message
    response = api.patch(url(boot, f"{body['id']}/"), {"timezone": "Mars/Olympus"}, format="json")
    assert response.status_code == 400 and error(response)["attr"] == "timezone"


def test_hogql_model_and_modifiers(api, boot, integration):
    body = aws_export(integration, model="hogql", hogql_query="SELECT event FROM events",
                      hogql_modifiers={"convertToProjectTimezone": False})
    created = api.post(url(boot), body, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["hogql_query"] == "SELECT event FROM events"
    assert created.json()["hogql_modifiers"] == {"convertToProjectTimezone": False}
    response = api.patch(url(boot, f"{created.json()['id']}/"), {"model": "events"}, format="json")
    assert error(response) == {**error(response), "attr": "model", "detail": (
        "Changing the model to or from 'hogql' is not supported. Create a new batch export instead.")}
    events = api.post(url(boot), aws_export(integration, name="Events"), format="json").json()
    response = api.patch(url(boot, f"{events['id']}/"), {"model": "hogql", "hogql_query": "SELECT 1 FROM events"},
                         format="json")
    assert error(response)["attr"] == "model"
    response = api.patch(url(boot, f"{events['id']}/"), {"hogql_modifiers": {"debug": True}}, format="json")
    assert error(response)["detail"] == "'hogql_modifiers' are only supported when 'model' is 'hogql'"
    response = api.post(url(boot), aws_export(integration, name="No query", model="hogql"), format="json")
    assert error(response)["detail"] == "'hogql_query' is required when 'model' is 'hogql'"
    response = api.post(url(boot), aws_export(integration, name="Bad", model="hogql", hogql_query="SELECT 1 FROM events",
                                              hogql_modifiers={"noSuchModifier": 1}), format="json")
    assert error(response)["attr"] == "hogql_modifiers"


def test_incremental_hogql_exports(api, boot, integration):
    """``primary_key``/``version_key``/``incremental_mode`` (``BatchExportSerializer.validate`` and
    ``_validate_hogql_query`` in products/batch_exports/backend/presentation/views/batch_export/exports.py)."""
    query = "SELECT distinct_id AS id, max(timestamp) AS version, count() AS n FROM events GROUP BY id"
    body = aws_export(integration, model="hogql", hogql_query=query, incremental_mode="MERGE")
    assert error(api.post(url(boot), body, format="json"))["detail"] == \
        "'primary_key' is required when 'incremental_mode' is 'MERGE'"
    body["primary_key"] = ["id", "nope"]
    response = api.post(url(boot), body, format="json")
    assert error(response) == {**error(response), "attr": "primary_key",
                               "detail": "'primary_key' contains columns that are not present in the query: nope"}
    body.update(primary_key=["id"], version_key=["version"])
    created = api.post(url(boot), body, format="json")
    assert created.status_code == 201, created.content
    assert {k: created.json()[k] for k in ("primary_key", "version_key", "incremental_mode")} == {
        "primary_key": ["id"], "version_key": ["version"], "incremental_mode": "MERGE"}
    patched = api.patch(url(boot, f"{created.json()['id']}/"), {"version_key": ["n"]}, format="json").json()
    assert patched["version_key"] == ["n"] and patched["primary_key"] == ["id"]
    response = api.patch(url(boot, f"{created.json()['id']}/"), {"primary_key": None}, format="json")
    assert error(response)["attr"] == "primary_key"  # MERGE still needs it
    events = api.post(url(boot), aws_export(integration, name="Events"), format="json").json()
    assert events["incremental_mode"] == "APPEND" and events["primary_key"] is None
    response = api.patch(url(boot, f"{events['id']}/"), {"primary_key": ["uuid"]}, format="json")
    assert error(response)["detail"] == "'primary_key' is only supported for 'hogql' not 'events' model"


def test_workflows_exports_are_refused_and_hidden_from_the_list(api, boot, integration):
    response = api.post(url(boot), {"name": "W", "interval": "hour", "destination": {"type": "Workflows"}},
                        format="json")
    assert response.status_code == 403
    assert error(response)["detail"] == "Backfilling Workflows is not enabled for this team."
    destination = BatchExportDestination.objects.create(type="Workflows", config={})
    hidden = BatchExport.objects.create(team=boot.project, name="Workflow backfill", destination=destination)
    shown = api.post(url(boot), aws_export(integration), format="json").json()
    assert [e["id"] for e in api.get(url(boot)).json()["results"]] == [shown["id"]]
    assert api.get(url(boot, f"{hidden.id}/")).json()["destination"]["type"] == "Workflows"


def test_filters_need_a_supported_type(api, boot, integration):
    response = api.post(url(boot), aws_export(integration, filters=[{"key": "$browser", "type": "cohort"}]),
                        format="json")
    assert error(response)["detail"] == "Each filter must have a 'type' of one of: 'event', 'hogql', 'person'"
    response = api.post(url(boot), aws_export(integration, filters=[{"key": "$browser", "type": "event",
                                                                     "operator": "exact", "value": ["Firefox"]}]),
                        format="json")
    assert response.status_code == 201 and response.json()["filters"][0]["type"] == "event"


def test_organization_route_and_backfill_action_are_gone(api, boot, integration):
    created = api.post(url(boot), aws_export(integration), format="json").json()
    for method, path in (("get", f"/api/organizations/{boot.organization.id}/batch_exports/"),
                         ("post", url(boot, f"{created['id']}/backfill/"))):
        response = getattr(api, method)(path, format="json")
        assert response.status_code == 404 and error(response)["detail"] == "Endpoint not found."
    generations.update({"batch_exports": "middle"})
    assert api.get(f"/api/organizations/{boot.organization.id}/batch_exports/").status_code == 200


def test_backfills_answer_201_with_the_backfill_id(api, boot, integration):
    created = api.post(url(boot), aws_export(integration), format="json").json()
    backfills = url(boot, f"{created['id']}/backfills/")
    response = api.post(backfills, {"start_at": "2026-01-01T00:00:00Z", "end_at": "2026-01-01T05:00:00Z"},
                        format="json")
    assert response.status_code == 201, response.content
    backfill_id = response.json()["backfill_id"]
    assert BatchExportBackfill.objects.filter(id=backfill_id).exists()
    listed = api.get(backfills).json()["results"]
    assert listed[0]["id"] == backfill_id and listed[0]["team"] == boot.project.id and "progress" in listed[0]
    future = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(minutes=30)).isoformat()
    response = api.post(backfills, {"start_at": "2026-01-01T00:00:00Z", "end_at": future}, format="json")
    assert response.status_code == 400 and error(response)["detail"].endswith("is in the future")
    response = api.post(backfills, {"start_at": "2026-01-02T00:00:00Z", "end_at": "2026-01-01T00:00:00Z"},
                        format="json")
    assert error(response)["detail"] == "The initial backfill datetime 'start_at' must be before 'end_at'"
    cancelled = api.post(url(boot, f"{created['id']}/backfills/{backfill_id}/cancel/"), format="json")
    assert cancelled.json() == {"cancelled": True}
    again = api.post(url(boot, f"{created['id']}/backfills/{backfill_id}/cancel/"), format="json")
    assert error(again)["detail"] == "Cannot cancel a backfill that is in 'Cancelled' status"


def test_daily_backfills_take_dates(api, boot, integration):
    created = api.post(url(boot), aws_export(integration, interval="day", offset_hour=2), format="json").json()
    backfills = url(boot, f"{created['id']}/backfills/")
    response = api.post(backfills, {"start_at": "2026-01-01T00:00:00Z", "end_at": "2026-01-03T00:00:00Z"},
                        format="json")
    assert response.status_code == 400 and "expect only the date component" in error(response)["detail"]
    response = api.post(backfills, {"start_at": "2026-01-01", "end_at": "2026-01-03"}, format="json")
    assert response.status_code == 201
    backfill = BatchExportBackfill.objects.get(id=response.json()["backfill_id"])
    assert backfill.start_at == dt.datetime(2026, 1, 1, 2, tzinfo=dt.timezone.utc)


def test_runs_cancel_retry_and_logs(api, boot, client, integration):
    created = api.post(url(boot), aws_export(integration), format="json").json()
    run = client.post(f"/_emulator/batch_exports/{created['id']}/runs", {"status": "Running"}, format="json").json()
    runs = url(boot, f"{created['id']}/runs/")
    assert api.post(runs + f"{run['id']}/cancel/", format="json").json() == {"cancelled": True}
    retried = api.post(runs + f"{run['id']}/retry/", format="json")
    assert retried.status_code == 201 and "backfill_id" in retried.json()
    assert api.get(runs + f"{run['id']}/logs/").json() == {"results": []}
    assert api.get(url(boot, f"{created['id']}/logs/")).json() == {"results": []}


def test_pause_answers_paused_only(api, boot, integration):
    created = api.post(url(boot), aws_export(integration), format="json").json()
    assert api.post(url(boot, f"{created['id']}/pause/"), format="json").json() == {"paused": True}
    assert api.post(url(boot, f"{created['id']}/unpause/"), format="json").json() == {"paused": False}
