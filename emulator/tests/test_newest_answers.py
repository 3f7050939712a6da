"""What PostHog's newest code answers where the emulator used to differ (issue 36), each test citing
the file it was read from (docs/posthog_facts.md §14). The real-client test
(``test_real_client.py``) calls every operation; these pin the rules behind the answers."""

import datetime as dt

import pytest

from posthog_emulator import profiles
from posthog_emulator.models import BatchExportRun
from tests.conftest import error

NO_PAK = "This action does not support Personal API Key access"


@pytest.fixture(autouse=True)
def _posthog(db):
    profiles.set_profile("posthog")


def make_export(api, client, boot):
    integration = client.post(f"/_emulator/projects/{boot.project.id}/integrations", {
        "kind": "aws-s3", "config": {"name": "aws"},
        "sensitive_config": {"aws_access_key_id": "AKIA", "aws_secret_access_key": "s"}}, format="json").json()["id"]
    body = {"name": "e", "interval": "hour", "model": "events", "destination": {
        "type": "AwsS3", "integration": integration, "config": {"bucket_name": "b", "region": "eu-west-1", "prefix": "p/"}}}
    response = api.post(f"/api/projects/{boot.project.id}/batch_exports/", body, format="json")
    assert response.status_code == 201, response.content
    make_export.body = body
    return response.json()["id"]


def test_run_listing_honours_status_a_seven_day_window_and_ordering(api, client, boot):
    # products/batch_exports/backend/presentation/views/batch_export/runs.py: BatchExportRunListQuerySerializer
    # (status: a list of the run choices), created_at within [-7d, now] by default, OrderingFilter.
    export = make_export(api, client, boot)
    runs = f"/api/projects/{boot.project.id}/batch_exports/{export}/runs/"
    for status in ("Completed", "Failed"):
        assert client.post(f"/_emulator/batch_exports/{export}/runs", {"status": status}, format="json").status_code == 201
    old = BatchExportRun.objects.filter(status="Failed").first()
    BatchExportRun.objects.filter(id=old.id).update(created_at=old.created_at - dt.timedelta(days=10))
    assert [r["status"] for r in api.get(runs).json()["results"]] == ["Completed"]
    assert [r["status"] for r in api.get(runs + "?after=-30d").json()["results"]] == ["Completed", "Failed"]
    assert api.get(runs + "?after=-30d&status=Failed").json()["results"][0]["status"] == "Failed"
    bogus = api.get(runs + "?status=Bogus")
    assert bogus.status_code == 400 and error(bogus)["code"] == "invalid_choice" and error(bogus)["attr"] == "status__0"
    ordered = api.get(runs + "?after=-30d&ordering=created_at").json()["results"]
    assert [r["status"] for r in ordered] == ["Failed", "Completed"]


def test_backfills_past_the_team_cap_are_429(api, client, boot):
    # backfills.py, create_backfill: TooManyConcurrentBackfills (429, too_many_concurrent_backfills)
    # once the team has BATCH_EXPORT_MAX_CONCURRENT_BACKFILLS_PER_TEAM starting or running backfills.
    export = make_export(api, client, boot)
    assert client.put("/_emulator/batch_exports/settings", {"max_concurrent_backfills_per_team": 1},
                      format="json").status_code == 200
    url = f"/api/projects/{boot.project.id}/batch_exports/{export}/backfills/"
    window = {"start_at": "2026-01-01T00:00:00+00:00", "end_at": "2026-01-02T00:00:00+00:00"}
    assert api.post(url, window, format="json").status_code == 201
    refused = api.post(url, window, format="json")
    assert refused.status_code == 429 and error(refused)["code"] == "too_many_concurrent_backfills"
    assert error(refused)["detail"].startswith("This team already has 1 batch export backfills running.")
    client.put("/_emulator/batch_exports/settings", {"max_concurrent_backfills_per_team": 10}, format="json")


def test_destination_tests_are_served_with_batch_export_scopes(api, client, boot):
    # exports.py: test (batch_export:read; no destination -> 400 with no body), run_test_step_new and
    # run_test_step (batch_export:write).
    export = make_export(api, client, boot)
    base = f"/api/projects/{boot.project.id}/batch_exports/"
    assert api.get(base + "test/").status_code == 400
    assert api.get(base + "test/?destination=Nope").status_code == 404
    assert [s["name"] for s in api.get(base + "test/?destination=AwsS3").json()["steps"]][1] == "Check S3 bucket exists"
    step = api.post(base + export + "/run_test_step/", {"step": 0, **make_export.body}, format="json")
    assert step.status_code == 200 and step.json()["status"] == "Skipped"


def test_project_environments_are_refused_before_authentication(client, boot):
    # posthog/api/team.py: ProjectEnvironmentsViewSet.initial raises PermissionDenied for every request.
    for method in ("get", "post", "patch"):
        response = getattr(client, method)(f"/api/projects/{boot.project.id}/environments/{boot.project.id}/")
        assert response.status_code == 403
        assert error(response)["detail"].startswith("Multiple environments per project are no longer available.")


def test_access_controls_also_under_the_organization_project_route(api, boot):
    # AccessControlViewSetMixin is mixed into ProjectViewSet, registered under organizations too
    # (products/access_control/backend/presentation/access_control.py, posthog/api/project.py).
    nested = api.get(f"/api/organizations/{boot.organization.id}/projects/{boot.project.id}/access_controls/")
    assert nested.status_code == 200 and "access_controls" in nested.json()
    other = api.get(f"/api/organizations/{boot.organization.id}/projects/999999/access_controls/")
    assert other.status_code == 404


def test_organization_plugins_route(api, boot):
    # products/cdp/backend/routes.py: routers.organizations.register(r"plugins", plugin.PluginViewSet, ...).
    response = api.get(f"/api/organizations/{boot.organization.id}/plugins/")
    assert response.status_code == 200 and "results" in response.json()


def test_event_definitions_are_created_on_the_posthog_profile_only(api, boot):
    # posthog/api/event_definition.py: EventDefinitionViewSet mixes in CreateModelMixin;
    # validate_name refuses a name the project has; created_at and last_seen_at start null.
    url = f"/api/projects/{boot.project.id}/event_definitions/"
    created = api.post(url, {"name": "signed_up"}, format="json")
    assert created.status_code == 201, created.content
    assert created.json()["name"] == "signed_up" and created.json()["last_seen_at"] is None
    again = api.post(url, {"name": "signed_up"}, format="json")
    assert again.status_code == 400 and error(again)["detail"] == "Event definition with name 'signed_up' already exists"
    metrics = api.get(url + created.json()["id"] + "/metrics/")
    assert metrics.status_code == 403 and error(metrics)["detail"] == NO_PAK
    profiles.set_profile("spec")
    assert api.post(url, {"name": "other"}, format="json").status_code == 405


def test_project_actions(api, boot):
    # posthog/api/project.py: add_product_intent and complete_product_onboarding need project:read;
    # the other actions declare no scope.
    base = f"/api/organizations/{boot.organization.id}/projects/{boot.project.id}/"
    intent = api.patch(base + "add_product_intent/", {"product_type": "product_analytics"}, format="json")
    assert intent.status_code == 201 and intent.json()["id"] == boot.project.id
    missing = api.patch(base + "complete_product_onboarding/", {}, format="json")
    assert missing.status_code == 400 and missing.json() == {"error": "product_type is required"}
    for action in ("reset_token", "rotate_secret_token", "delete_secret_token_backup"):
        refused = api.patch(base + action + "/", {}, format="json")
        assert refused.status_code == 403 and error(refused)["detail"] == NO_PAK
    members = api.get(f"/api/organizations/{boot.organization.id}/members/").json()["results"]
    assert members[0]["is_guest"] is False and members[0]["guest_grant_count"] is None
