"""Batch exports (spec 2.3, 3.1, 4.2; docs/posthog_facts.md §5)."""

import datetime as dt

import pytest

from posthog_emulator import generations, profiles
from posthog_emulator.models import BatchExport, BatchExportBackfill
from tests.conftest import authed, error

S3_CONFIG = {
    "bucket_name": "acme-exports",
    "region": "eu-west-1",
    "prefix": "posthog/",
    "aws_access_key_id": "AKIA-SECRET-ID-123456",
    "aws_secret_access_key": "very-secret-access-key-987654",
}
SECRET_VALUES = ("AKIA-SECRET-ID-123456", "very-secret-access-key-987654")
EXPORT_FIELDS = {
    "id", "team_id", "name", "model", "destination", "interval", "paused", "created_at", "last_updated_at",
    "last_paused_at", "start_at", "end_at", "latest_runs", "schema", "filters",
}  # fmt: skip


def posthog_middle():
    """Profile ``posthog`` in the middle generation (the April 2026 PostHog: organization route,
    the ``backfill`` action); its default is the newest (tests/test_batch_exports_newest.py)."""
    profiles.set_profile("posthog")
    generations.update({"batch_exports": "middle"})


def org_url(boot, suffix=""):
    return f"/api/organizations/{boot.organization.id}/batch_exports/{suffix}"


def project_url(boot, suffix=""):
    return f"/api/projects/{boot.project.id}/batch_exports/{suffix}"


def s3_export(**overrides):
    body = {"name": "S3 export", "interval": "hour", "destination": {"type": "S3", "config": dict(S3_CONFIG)}}
    body.update(overrides)
    return body


@pytest.fixture
def export(api, boot):
    response = api.post(org_url(boot), s3_export(), format="json")
    assert response.status_code == 201, response.content
    return response.json()


def assert_no_secret(response):
    text = response.content.decode()
    for value in SECRET_VALUES:
        assert value not in text
    for key in ("aws_access_key_id", "aws_secret_access_key"):
        assert key not in text


# ------------------------------------------------------------------------------------ CRUD


def test_create_through_organization_route_lands_in_first_project(api, boot, export):
    assert set(export) == EXPORT_FIELDS  # the spec profile lists hogql_query only when the export has one
    assert export["team_id"] == boot.project.id
    assert export["model"] == "events" and export["paused"] is False and export["last_paused_at"] is None
    assert export["destination"] == {
        "type": "S3",
        "config": {"bucket_name": "acme-exports", "region": "eu-west-1", "prefix": "posthog/"},
    }
    assert export["latest_runs"] == [] and export["schema"] is None and "hogql_query" not in export
    stored = BatchExport.objects.get(id=export["id"])
    assert stored.destination.config["aws_secret_access_key"] == "very-secret-access-key-987654"


def test_create_through_project_route_and_both_routes_see_it(api, boot):
    response = api.post(project_url(boot), s3_export(name="via project"), format="json")
    assert response.status_code == 201
    created = response.json()
    assert api.get(org_url(boot, created["id"])).json()["name"] == "via project"
    assert api.get(project_url(boot, created["id"])).json()["id"] == created["id"]


def test_secrets_stripped_from_every_response(api, boot, export):
    assert_no_secret(api.get(org_url(boot)))
    assert_no_secret(api.get(org_url(boot, export["id"])))
    assert_no_secret(api.get(project_url(boot, export["id"])))
    assert_no_secret(api.patch(org_url(boot, export["id"]), {"name": "renamed"}, format="json"))
    assert_no_secret(api.post(org_url(boot, f"{export['id']}/pause")))


@pytest.mark.parametrize(
    "destination_type, config, secrets",
    [
        ("Snowflake", {"account": "acct", "user": "snow-user-secret", "database": "db", "warehouse": "wh",
                       "schema": "public", "password": "snow-password-secret"}, ["user", "password"]),
        ("Postgres", {"user": "pg-user-secret", "password": "pg-password-secret", "host": "db.example.com",
                      "database": "analytics", "port": "6543"}, ["user", "password"]),
        ("Redshift", {"user": "rs-user-secret", "password": "rs-password-secret", "host": "rs.example.com",
                      "database": "dev"}, ["user", "password"]),
        ("BigQuery", {"project_id": "p", "dataset_id": "d", "private_key": "bq-private-key-secret",
                      "private_key_id": "bq-key-id-secret", "token_uri": "https://oauth2.example/token",
                      "client_email": "svc@example.iam"}, ["private_key", "private_key_id", "token_uri", "client_email"]),
        ("HTTP", {"url": "https://us.i.posthog.com/batch/", "token": "phc-http-token-secret"}, ["token"]),
        ("NoOp", {"arg": "x"}, []),
    ],
)  # fmt: skip
def test_secret_keys_per_destination_type(api, boot, destination_type, config, secrets):
    response = api.post(
        org_url(boot), {"name": destination_type, "interval": "day",
                        "destination": {"type": destination_type, "config": config}}, format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.content
    returned = response.json()["destination"]["config"]
    assert set(returned) == set(config) - set(secrets)
    for key in secrets:
        assert config[key] not in response.content.decode()
    if destination_type == "Postgres":
        assert returned["port"] == 6543  # strings converted to int


def test_redshift_copy_inputs_secrets_are_stripped_recursively(api, boot):
    config = {
        "user": "u", "password": "p", "host": "h", "database": "d", "mode": "COPY",
        "copy_inputs": {"s3_bucket": "b", "region_name": "us-east-1", "authorization": "arn:aws:iam::1:role/x",
                        "bucket_credentials": {"aws_access_key_id": "nested-key-id", "aws_secret_access_key": "nested-s"}},
    }  # fmt: skip
    response = api.post(
        org_url(boot),
        {"name": "rs", "interval": "hour", "destination": {"type": "Redshift", "config": config}},
        format="json",
    )
    assert response.status_code == 201, response.content
    copy_inputs = response.json()["destination"]["config"]["copy_inputs"]
    assert copy_inputs["bucket_credentials"] == {}
    assert "nested-key-id" not in response.content.decode()


def test_patch_merges_config_and_keeps_secrets(api, boot, export):
    response = api.patch(
        org_url(boot, export["id"]),
        {"destination": {"type": "S3", "config": {"prefix": "new/"}}, "interval": "day"},
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["interval"] == "day"
    assert body["destination"]["config"] == {"bucket_name": "acme-exports", "region": "eu-west-1", "prefix": "new/"}
    stored = BatchExport.objects.get(id=export["id"]).destination.config
    assert stored["aws_access_key_id"] == "AKIA-SECRET-ID-123456" and stored["prefix"] == "new/"


def test_patch_config_without_type_keeps_the_type(api, boot, export):
    response = api.patch(
        org_url(boot, export["id"]), {"destination": {"config": {"region": "us-east-1"}}}, format="json"
    )
    assert response.status_code == 200, response.content
    assert response.json()["destination"]["type"] == "S3"
    assert response.json()["destination"]["config"]["region"] == "us-east-1"


def test_put_requires_full_config(api, boot, export):
    response = api.put(
        org_url(boot, export["id"]),
        {"name": "x", "interval": "hour", "destination": {"type": "S3", "config": {"bucket_name": "b"}}},
        format="json",
    )
    assert response.status_code == 400
    assert error(response) == {
        "type": "validation_error", "code": "invalid_input",
        "detail": "Configuration missing required field: 'region'", "attr": "destination",
    }  # fmt: skip


def test_list_ordered_newest_first_and_paginated(api, boot):
    ids = [api.post(org_url(boot), s3_export(name=f"e{i}"), format="json").json()["id"] for i in range(3)]
    body = api.get(org_url(boot) + "?limit=2").json()
    assert body["count"] == 3
    assert [e["id"] for e in body["results"]] == ids[::-1][:2]
    assert body["next"].endswith("limit=2&offset=2")


def test_delete_is_soft(api, boot, export):
    backfill = api.post(org_url(boot, f"{export['id']}/backfill"), {}, format="json")
    assert backfill.status_code == 200
    assert api.delete(org_url(boot, export["id"])).status_code == 204
    assert api.get(org_url(boot, export["id"])).status_code == 404
    assert api.get(org_url(boot)).json()["count"] == 0
    assert api.delete(org_url(boot, export["id"])).status_code == 404
    stored = BatchExport.objects.get(id=export["id"])
    assert stored.deleted is True
    assert list(stored.backfills.values_list("status", flat=True)) == ["Cancelled"]


def test_other_organization_and_malformed_ids(api, boot, export, make_key):
    other_key, _ = make_key("other@example.com", organization="Other Org", level="owner")
    other = authed(other_key)
    assert other.get(org_url(boot, export["id"])).status_code == 403
    own_org = other.get("/api/organizations/@current/").json()["id"]
    assert other.get(f"/api/organizations/{own_org}/batch_exports/{export['id']}/").status_code == 404
    assert api.get(org_url(boot, "not-a-uuid")).status_code == 404


# ------------------------------------------------------------------------------ validation


@pytest.mark.parametrize(
    "body, detail, attr, code",
    [
        ({"interval": "hour", "destination": {"type": "NoOp", "config": {}}}, "This field is required.", "name", "required"),
        ({"name": "x", "destination": {"type": "NoOp", "config": {}}}, "This field is required.", "interval", "required"),
        ({"name": "x", "interval": "hour"}, "This field is required.", "destination", "required"),
        ({"name": "x", "interval": "monthly", "destination": {"type": "NoOp"}},
         '"monthly" is not a valid choice.', "interval", "invalid_choice"),
        ({"name": "x", "interval": "hour", "model": "people", "destination": {"type": "NoOp"}},
         '"people" is not a valid choice.', "model", "invalid_choice"),
        ({"name": "x", "interval": "hour", "destination": {"type": "FTP", "config": {}}},
         '"FTP" is not a valid choice.', "destination__type", "invalid_choice"),
        ({"name": "x", "interval": "hour", "destination": {"type": "S3", "config": {**S3_CONFIG, "colour": 1, "size": 2}}},
         "Configuration has unknown field/s: 'colour', 'size'", "destination", "invalid_input"),
        ({"name": "x", "interval": "hour", "destination": {"type": "S3", "config": {"region": "r", "prefix": "p"}}},
         "Configuration missing required field: 'bucket_name'", "destination", "invalid_input"),
        ({"name": "x", "interval": "hour", "destination": {"type": "S3", "config": {**S3_CONFIG, "max_file_size_mb": "big"}}},
         "Configuration has invalid type: got 'str', expected 'int'", "destination", "invalid_input"),
        ({"name": "x", "interval": "hour", "destination": {"type": "S3", "config": {**S3_CONFIG, "file_format": "CSV"}}},
         "File format CSV is not supported. Supported: JSONLines, Parquet.", "destination", "invalid_input"),
        ({"name": "x", "interval": "hour", "destination": {"type": "S3", "config": {**S3_CONFIG, "compression": "zstd"}}},
         "Compression zstd is not supported for file format JSONLines. Supported: gzip, brotli.", "destination", "invalid_input"),
        ({"name": "x", "interval": "hour", "destination": {"type": "S3", "config": {**S3_CONFIG, "bucket_name": " "}}},
         "The following inputs are empty: ['bucket_name']", "destination", "invalid_input"),
        ({"name": "x", "interval": "hour", "destination": {"type": "Snowflake", "config": {
            "account": "a", "user": "u", "database": "d", "warehouse": "w", "schema": "s"}}},
         "Password is required if authentication type is password", "destination", "invalid_input"),
        ({"name": "x", "interval": "hour", "destination": {"type": "HTTP", "config": {"url": "https://evil.example/", "token": "t"}}},
         "Invalid destination URL: https://evil.example/", "destination", "invalid_input"),
        ({"name": "x", "interval": "hour", "model": "persons",
          "destination": {"type": "HTTP", "config": {"url": "https://eu.i.posthog.com/batch/", "token": "t"}}},
         "HTTP batch exports only support the events model.", "model", "invalid_input"),
        ({"name": "x", "interval": "hour", "destination": {"type": "NoOp"}, "hogql_query": "SELECT a FROM persons"},
         "Query must only SELECT FROM events", "hogql_query", "invalid_input"),
        ({"name": "x", "interval": "hour", "destination": {"type": "NoOp"},
          "hogql_query": "SELECT event FROM events JOIN persons ON 1=1"}, "JOINs are not supported", "hogql_query", "invalid_input"),
        ({"name": "x", "interval": "hour", "destination": {"type": "NoOp"},
          "hogql_query": "SELECT 1 FROM events UNION ALL SELECT 2 FROM events"}, "UNIONs are not supported", "hogql_query", "invalid_input"),
        ({"name": "x", "interval": "hour", "destination": {"type": "NoOp"},
          "filters": [{"key": "data_interval_start", "type": "event"}]},
         "Filters may not reference 'data_interval_start' or 'data_interval_end'.", "filters", "invalid_input"),
    ],
)  # fmt: skip
def test_validation(api, boot, body, detail, attr, code):
    response = api.post(org_url(boot), body, format="json")
    assert response.status_code == 400, response.content
    assert error(response) == {"type": "validation_error", "code": code, "detail": detail, "attr": attr}
    assert BatchExport.objects.count() == 0


def test_databricks_needs_a_feature_the_emulator_lacks(api, boot):
    body = {"name": "x", "interval": "hour", "destination": {"type": "Databricks", "config": {}}}
    response = api.post(org_url(boot), body, format="json")
    assert response.status_code == 403
    assert error(response)["type"] == "authentication_error"


def test_high_frequency_intervals_and_sessions_model_are_accepted(api, boot):
    for interval in ("every 5 minutes", "every 15 minutes", "week"):
        body = {"name": interval, "interval": interval, "model": "sessions", "destination": {"type": "NoOp"}}
        assert api.post(org_url(boot), body, format="json").status_code == 201


def test_hogql_query_becomes_schema(api, boot):
    body = s3_export(hogql_query="SELECT event, properties.$browser AS browser, toString(uuid) FROM events")
    created = api.post(org_url(boot), body, format="json").json()
    assert created["schema"]["fields"] == [
        {"expression": "event", "alias": "event"},
        {"expression": "properties.$browser", "alias": "browser"},
        {"expression": "toString(uuid)", "alias": "toString(uuid)"},
    ]
    assert created["hogql_query"] == created["schema"]["hogql_query"]
    posthog_middle()
    assert "hogql_query" not in api.get(org_url(boot, created["id"])).json()


def test_s3_empty_endpoint_url_is_stored_as_null(api, boot):
    created = api.post(org_url(boot), s3_export(destination={"type": "S3", "config": {**S3_CONFIG, "endpoint_url": ""}}),
                       format="json").json()  # fmt: skip
    assert created["destination"]["config"]["endpoint_url"] is None


# --------------------------------------------------------------------------------- scopes


def test_scopes(boot, make_key):
    reader_key, _ = make_key("reader@example.com", scopes=["batch_export:read"])
    reader = authed(reader_key)
    assert reader.get(org_url(boot)).status_code == 200
    response = reader.post(org_url(boot), s3_export(), format="json")
    assert response.status_code == 403
    assert error(response)["detail"] == "API key missing required scope 'batch_export:write'"
    writer = authed(make_key("writer@example.com", scopes=["batch_export:write"])[0])
    created = writer.post(org_url(boot), s3_export(), format="json").json()
    for name in ("pause", "unpause", "backfill"):
        refused = reader.post(org_url(boot, f"{created['id']}/{name}"), {}, format="json")
        assert refused.status_code == 403
        assert error(refused)["detail"] == "API key missing required scope 'batch_export:write'"
    posthog_middle()  # the actions have an explicit scope: PAKs work in both profiles
    assert writer.post(org_url(boot, f"{created['id']}/pause")).status_code == 200


# -------------------------------------------------------------------------------- actions


def test_pause_unpause_spec_profile_answers_the_record(api, boot, export):
    url = org_url(boot, export["id"] + "/")
    paused = api.post(url + "pause").json()
    assert paused["id"] == export["id"] and paused["paused"] is True and paused["last_paused_at"]
    again = api.post(url + "pause").json()
    assert again["last_paused_at"] == paused["last_paused_at"]  # no-op when already paused
    unpaused = api.post(url + "unpause").json()
    assert unpaused["paused"] is False and unpaused["last_paused_at"] == paused["last_paused_at"]
    assert api.post(url + "unpause").json()["paused"] is False
    assert BatchExportBackfill.objects.count() == 0


def test_pause_unpause_posthog_profile(api, boot, export):
    posthog_middle()
    url = org_url(boot, export["id"] + "/")
    assert api.post(url + "pause").json() == {"paused": True}
    assert api.post(url + "pause").json() == {"paused": True}
    assert api.get(url).json()["paused"] is True
    assert api.post(url + "unpause", {"backfill": True}, format="json").json() == {"paused": False}
    assert api.post(url + "unpause").json() == {"paused": False}
    backfill = BatchExportBackfill.objects.get()
    assert backfill.start_at is not None and backfill.end_at is not None


def test_create_paused(api, boot):
    created = api.post(org_url(boot), s3_export(paused=True), format="json").json()
    assert created["paused"] is True and created["last_paused_at"]


def test_backfill_posthog_profile_answers_workflow_id(api, boot, export):
    posthog_middle()
    response = api.post(
        org_url(boot, f"{export['id']}/backfill"),
        {"start_at": "2026-01-01T00:00:00+01:00", "end_at": "2026-01-02T00:00:00Z"},
        format="json",
    )
    assert response.status_code == 200
    assert response.json() == {
        "backfill_id": f"{export['id']}-Backfill-2025-12-31T23:00:00+00:00-2026-01-02T00:00:00+00:00"
    }
    open_ended = api.post(org_url(boot, f"{export['id']}/backfill"), {}, format="json").json()
    assert open_ended == {"backfill_id": f"{export['id']}-Backfill-START-END"}


def test_backfill_spec_profile_answers_the_record_and_is_recorded(api, boot, export, client):
    response = api.post(
        org_url(boot, f"{export['id']}/backfill"),
        {"start_at": "2026-01-01T00:00:00Z", "end_at": "2026-01-02T00:00:00Z"},
        format="json",
    )
    assert response.status_code == 200 and response.json()["id"] == export["id"]
    backfills = api.get(project_url(boot, f"{export['id']}/backfills")).json()
    assert set(backfills) == {"next", "previous", "results"}
    assert [(b["start_at"], b["end_at"], b["status"]) for b in backfills["results"]] == [
        ("2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z", "Starting")
    ]
    stored = client.get(f"/_emulator/batch_exports/{export['id']}").json()
    assert stored["backfills"][0]["backfill_id"].endswith(
        "-Backfill-2026-01-01T00:00:00+00:00-2026-01-02T00:00:00+00:00"
    )


@pytest.mark.parametrize(
    "body, detail",
    [
        ({"start_at": "yesterday"}, "Input yesterday is not a valid ISO formatted datetime."),
        ({"start_at": "2026-01-01T00:00:00"}, "Input 2026-01-01T00:00:00 is naive."),
        ({"start_at": "2026-01-02T00:00:00Z", "end_at": "2026-01-01T00:00:00Z"},
         "The initial backfill datetime 'start_at' happens after 'end_at'"),
        ({"start_at": "2026-01-02T00:00:00Z", "end_at": "2026-01-02T00:00:00Z"},
         "The initial backfill datetime 'start_at' happens after 'end_at'"),
    ],
)  # fmt: skip
def test_backfill_validation(api, boot, export, body, detail):
    response = api.post(org_url(boot, f"{export['id']}/backfill"), body, format="json")
    assert response.status_code == 400
    assert error(response) == {"type": "validation_error", "code": "invalid_input", "detail": detail, "attr": None}
    assert BatchExportBackfill.objects.count() == 0


def test_backfill_too_far_in_the_future(api, boot, export):
    future = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=2)).replace(microsecond=0)
    response = api.post(
        org_url(boot, f"{export['id']}/backfill"),
        {"start_at": "2026-01-01T00:00:00Z", "end_at": future.isoformat()},
        format="json",
    )
    assert response.status_code == 400
    assert "is too far into the future. Cannot backfill beyond 1 batch period" in error(response)["detail"]


def test_backfills_endpoint_creates_like_the_action(api, boot, export):
    response = api.post(project_url(boot, f"{export['id']}/backfills"), {"start_at": None}, format="json")
    assert response.status_code == 200
    assert response.json() == {"backfill_id": f"{export['id']}-Backfill-START-END"}


# ----------------------------------------------------------------------------------- runs


def test_runs_control_and_latest_runs(api, boot, export, client):
    url = f"/_emulator/batch_exports/{export['id']}/runs"
    for index in range(12):
        response = client.post(url, {"status": "Completed", "records_completed": index}, format="json")
        assert response.status_code == 201, response.content
    failed = client.post(url, {"status": "Failed", "latest_error": "bucket gone"}, format="json").json()
    assert failed["status"] == "Failed" and failed["batch_export"] == export["id"]
    body = api.get(org_url(boot, export["id"])).json()
    assert len(body["latest_runs"]) == 10
    assert body["latest_runs"][0]["id"] == failed["id"]
    assert [r["records_completed"] for r in body["latest_runs"][1:]] == list(range(11, 2, -1))
    runs = api.get(project_url(boot, f"{export['id']}/runs")).json()
    assert set(runs) == {"next", "previous", "results"} and len(runs["results"]) == 13
    assert set(runs["results"][0]) == {
        "id", "status", "records_completed", "latest_error", "data_interval_start", "data_interval_end", "cursor",
        "created_at", "finished_at", "last_updated_at", "records_total_count", "bytes_exported", "batch_export",
        "backfill",
    }  # fmt: skip


def test_runs_control_validation(boot, client, export):
    url = f"/_emulator/batch_exports/{export['id']}/runs"
    response = client.post(url, {"status": "Exploded"}, format="json")
    assert response.status_code == 400 and error(response)["attr"] == "status"
    assert client.post("/_emulator/batch_exports/nope/runs", {"status": "Completed"}, format="json").status_code == 404


def test_control_shows_stored_secrets_and_backfill_status(api, boot, export, client):
    stored = client.get(f"/_emulator/batch_exports/{export['id']}").json()
    assert stored["destination"]["config"]["aws_secret_access_key"] == "very-secret-access-key-987654"
    api.post(org_url(boot, f"{export['id']}/backfill"), {}, format="json")
    backfill = client.get(f"/_emulator/batch_exports/{export['id']}").json()["backfills"][0]
    response = client.patch(f"/_emulator/batch_exports/{export['id']}/backfills/{backfill['id']}",
                            {"status": "Completed"}, format="json")  # fmt: skip
    assert response.status_code == 200 and response.json()["status"] == "Completed"


# ------------------------------------------------------- high-frequency intervals (feature flag)
HIGH_FREQUENCY_DENIED = "Higher frequency batch exports are not enabled for this team."


def _export(interval):
    return {"name": f"every {interval}", "interval": interval,
            "destination": {"type": "NoOp", "config": {}}}


@pytest.mark.parametrize("interval", ["every 5 minutes", "every 15 minutes"])
def test_high_frequency_intervals_are_on_by_default(api, boot, interval):
    response = api.post(f"/api/projects/{boot.project.id}/batch_exports/", _export(interval), format="json")
    assert response.status_code == 201, response.content
    assert response.json()["interval"] == interval


def test_features_control_endpoint(client, boot):
    url = f"/_emulator/organizations/{boot.organization.slug}/feature_flags"
    assert client.get(url).json() == {"organization": str(boot.organization.id),
                                      "features": {"high-frequency-batch-exports": True}}
    response = client.put(url, {"high-frequency-batch-exports": False}, format="json")
    assert response.status_code == 200
    assert response.json()["features"] == {"high-frequency-batch-exports": False}
    assert client.put(url, {"colour": True}, format="json").json()["attr"] == "colour"
    assert client.put(url, {"high-frequency-batch-exports": "no"}, format="json").status_code == 400
    assert client.get("/_emulator/organizations/nope/feature_flags").status_code == 404
    assert client.post("/_emulator/reset", {}, format="json").status_code == 200
    organization = client.get("/_emulator/info").json()["organization"]["id"]
    assert client.get(f"/_emulator/organizations/{organization}/feature_flags").json()["features"] == {
        "high-frequency-batch-exports": True}


@pytest.mark.parametrize("interval", ["every 5 minutes", "every 15 minutes"])
def test_high_frequency_intervals_need_the_flag(api, boot, client, interval):
    client.put(f"/_emulator/organizations/{boot.organization.id}/feature_flags",
               {"high-frequency-batch-exports": False}, format="json")
    for url in (f"/api/projects/{boot.project.id}/batch_exports/",
                f"/api/organizations/{boot.organization.id}/batch_exports/"):
        response = api.post(url, _export(interval), format="json")
        assert response.status_code == 403
        assert error(response) == {"type": "authentication_error", "code": "permission_denied",
                                   "detail": HIGH_FREQUENCY_DENIED, "attr": None}
    created = api.post(f"/api/projects/{boot.project.id}/batch_exports/", _export("hour"), format="json").json()
    # Updates too (PostHog checks in validate_interval); other intervals stay allowed.
    url = f"/api/projects/{boot.project.id}/batch_exports/{created['id']}/"
    assert api.patch(url, {"interval": interval}, format="json").status_code == 403
    assert api.patch(url, {"interval": "day"}, format="json").status_code == 200
    assert api.patch(url, {"name": "renamed"}, format="json").status_code == 200
