"""Event definitions of a project (spec 4.7, docs/posthog_facts.md §7 and §0.6) and their control endpoints."""

import uuid

import pytest

from posthog_emulator.models import EventDefinition, Organization, User
from tests.conftest import authed, error

ENTERPRISE_FIELDS = {
    "id", "name", "owner", "description", "tags", "created_at", "updated_at", "updated_by", "last_seen_at",
    "last_updated_at", "verified", "verified_at", "verified_by", "hidden", "is_action", "action_id",
    "is_calculating", "last_calculated_at", "created_by", "post_to_slack", "default_columns",
}  # fmt: skip
BASIC_FIELDS = {
    "id", "name", "created_at", "last_seen_at", "last_updated_at", "tags", "is_action", "action_id",
    "is_calculating", "last_calculated_at", "created_by", "post_to_slack",
}  # fmt: skip


def ingest(client, project_id, *events):
    response = client.post(f"/_emulator/projects/{project_id}/events", {"events": list(events)}, format="json")
    assert response.status_code == 200, response.content
    return {item["name"]: item for item in response.json()["results"]}


@pytest.fixture
def defs(boot, client):
    """Four ingested events in the bootstrap project, with distinct last_seen_at values."""
    return ingest(
        client,
        boot.project.id,
        {"name": "signed_up", "last_seen_at": "2026-01-03T10:00:00Z"},
        {"name": "purchase", "last_seen_at": "2026-01-05T10:00:00Z"},
        {"name": "$pageview", "last_seen_at": "2026-01-04T10:00:00Z"},
        {"name": "Signed In", "last_seen_at": "2026-01-05T09:00:00Z"},
    )


def url(boot, suffix=""):
    return f"/api/projects/{boot.project.id}/event_definitions/{suffix}"


# ------------------------------------------------------------------------------ control API


def test_ingest_creates_and_moves_last_seen_forward(boot, client):
    first = ingest(client, boot.project.id, "signed_up", {"name": "purchase", "last_seen_at": "2026-01-01T00:00:00Z"})
    assert first["signed_up"]["created"] and first["purchase"]["created"]
    assert first["purchase"]["last_seen_at"] == "2026-01-01T00:00:00Z"
    again = ingest(
        client,
        boot.project.id,
        {"name": "purchase", "last_seen_at": "2025-01-01T00:00:00Z"},  # older: ignored
        {"name": "signed_up", "last_seen_at": "2099-01-01T00:00:00Z"},
    )
    assert not again["purchase"]["created"] and again["purchase"]["id"] == first["purchase"]["id"]
    assert again["purchase"]["last_seen_at"] == "2026-01-01T00:00:00Z"
    assert again["signed_up"]["last_seen_at"] == "2099-01-01T00:00:00Z"
    assert EventDefinition.objects.filter(team=boot.project).count() == 2
    boot.project.refresh_from_db()
    assert boot.project.ingested_event is True


def test_ingest_bad_input(boot, client):
    response = client.post(f"/_emulator/projects/{boot.project.id}/events", {"events": []}, format="json")
    assert response.status_code == 400 and error(response)["attr"] == "events"
    response = client.post(f"/_emulator/projects/{boot.project.id}/events", {"events": ["ok", "  "]}, format="json")
    assert response.status_code == 400 and error(response)["attr"] == "events__1"
    response = client.post(
        f"/_emulator/projects/{boot.project.id}/events",
        {"events": [{"name": "x", "last_seen_at": "yesterday"}]},
        format="json",
    )
    assert response.status_code == 400 and "ISO 8601" in error(response)["detail"]
    response = client.post("/_emulator/projects/999/events", {"events": ["x"]}, format="json")
    assert response.status_code == 404
    assert not EventDefinition.objects.exists()


def test_taxonomy_control(boot, client):
    response = client.get(f"/_emulator/organizations/{boot.organization.slug}/taxonomy")
    assert response.json() == {"organization": str(boot.organization.id), "ingestion_taxonomy": True, "tagging": True}
    response = client.put(
        f"/_emulator/organizations/{boot.organization.id}/taxonomy", {"tagging": False}, format="json"
    )
    assert response.json()["tagging"] is False and response.json()["ingestion_taxonomy"] is True
    response = client.put(f"/_emulator/organizations/{boot.organization.id}/taxonomy", {"magic": True}, format="json")
    assert response.status_code == 400 and error(response)["attr"] == "magic"
    response = client.get("/_emulator/organizations/nope/taxonomy")
    assert response.status_code == 404


def test_reset_forgets_taxonomy_and_definitions(boot, client):
    ingest(client, boot.project.id, "signed_up")
    client.put(f"/_emulator/organizations/{boot.organization.id}/taxonomy", {"tagging": False}, format="json")
    body = client.post("/_emulator/reset", {"api_key": boot.key}, format="json").json()
    assert not EventDefinition.objects.exists()
    response = client.get(f"/_emulator/organizations/{body['organization']['id']}/taxonomy")
    assert response.json()["tagging"] is True


# ------------------------------------------------------------------------------ read


def test_retrieve_shape(api, boot, defs):
    body = api.get(url(boot, defs["purchase"]["id"])).json()
    assert set(body) == ENTERPRISE_FIELDS
    assert body["name"] == "purchase" and body["last_seen_at"] == "2026-01-05T10:00:00Z"
    assert body["description"] == "" and body["tags"] == [] and body["owner"] is None
    assert body["verified"] is False and body["hidden"] is False
    assert body["verified_by"] is None and body["verified_at"] is None and body["updated_by"] is None
    assert body["is_action"] is False and body["action_id"] is None and body["post_to_slack"] is False
    assert body["default_columns"] == []
    assert body["created_at"].endswith("Z")


def test_current_project_and_trailing_slash(api, boot, defs):
    assert api.get("/api/projects/@current/event_definitions").json()["count"] == 4
    assert api.get(f"/api/projects/@current/event_definitions/{defs['purchase']['id']}").status_code == 200


def test_unknown_and_malformed_ids_are_404(api, boot, defs):
    for value in (str(uuid.uuid4()), "not-a-uuid", "123"):
        response = api.get(url(boot, value))
        assert response.status_code == 404
        assert error(response) == {"type": "invalid_request", "code": "not_found", "detail": "Not found.", "attr": None}


def test_definition_of_another_project_is_404(api, boot, client):
    other_org = api.post("/api/organizations/", {"name": "Second"}, format="json").json()
    other_project = other_org["teams"][0]["id"]
    other = ingest(client, other_project, "elsewhere")
    assert api.get(url(boot, other["elsewhere"]["id"])).status_code == 404
    assert api.get(f"/api/projects/{other_project}/event_definitions/{other['elsewhere']['id']}").status_code == 200


def test_foreign_project_is_403_and_unknown_project_404(api, client):
    _, _, team = Organization.objects.bootstrap(None, name="Foreign")
    response = api.get(f"/api/projects/{team.id}/event_definitions/")
    assert response.status_code == 403
    assert api.get("/api/projects/9999/event_definitions/").status_code == 404
    assert api.get("/api/projects/abc/event_definitions/").status_code == 404


def test_default_order_is_last_seen_date_desc_then_name(api, boot, defs, client):
    ingest(client, boot.project.id, {"name": "never_seen_recently", "last_seen_at": "2020-01-01T00:00:00Z"})
    EventDefinition.objects.filter(name="never_seen_recently").update(last_seen_at=None)
    names = [d["name"] for d in api.get(url(boot)).json()["results"]]
    # 2026-01-05 (two, by name), 2026-01-04, 2026-01-03, then nulls last
    assert names == ["Signed In", "purchase", "$pageview", "signed_up", "never_seen_recently"]


def test_ordering_parameter(api, boot, defs):
    names = [d["name"] for d in api.get(url(boot), {"ordering": "name"}).json()["results"]]
    assert names == ["$pageview", "Signed In", "purchase", "signed_up"]
    names = [d["name"] for d in api.get(url(boot), {"ordering": "-name"}).json()["results"]]
    assert names == ["signed_up", "purchase", "Signed In", "$pageview"]
    names = [d["name"] for d in api.get(url(boot), {"ordering": "-last_seen_at"}).json()["results"]]
    assert names == ["purchase", "Signed In", "$pageview", "signed_up"]
    names = [d["name"] for d in api.get(url(boot), {"ordering": "bogus,last_seen_at"}).json()["results"]]
    assert names == ["signed_up", "$pageview", "Signed In", "purchase"]


def test_search_terms_are_case_insensitive_substrings(api, boot, defs):
    names = {d["name"] for d in api.get(url(boot), {"search": "SIGNED"}).json()["results"]}
    assert names == {"signed_up", "Signed In"}
    names = {d["name"] for d in api.get(url(boot), {"search": "sign in"}).json()["results"]}
    assert names == {"Signed In"}
    assert api.get(url(boot), {"search": "nothing"}).json()["count"] == 0


def test_event_type_filter(api, boot, defs):
    def names(event_type):
        return {d["name"] for d in api.get(url(boot), {"event_type": event_type}).json()["results"]}

    assert names("event_posthog") == {"$pageview"}
    assert names("event_custom") == {"signed_up", "purchase", "Signed In"}
    assert names("all") == names("event") == names("action_event") == set(defs)
    response = api.get(url(boot), {"event_type": "bogus"})
    assert response.status_code == 400
    assert error(response)["attr"] == "event_type"


def test_exclude_hidden_and_excluded_properties(api, boot, defs):
    api.patch(url(boot, defs["purchase"]["id"]), {"hidden": True}, format="json")
    names = {d["name"] for d in api.get(url(boot), {"exclude_hidden": "true"}).json()["results"]}
    assert names == {"signed_up", "$pageview", "Signed In"}
    assert api.get(url(boot), {"exclude_hidden": "false"}).json()["count"] == 4
    names = {d["name"] for d in api.get(url(boot), {"excluded_properties": '["signed_up", "$pageview"]'}).json()["results"]}
    assert names == {"purchase", "Signed In"}


def test_pagination(api, boot, defs):
    page = api.get(url(boot), {"limit": 2}).json()
    assert page["count"] == 4 and len(page["results"]) == 2
    assert page["next"].startswith("http://testserver/api/projects/") and "offset=2" in page["next"]
    assert page["previous"] is None


# ------------------------------------------------------------------------------ update


def test_patch_metadata(api, boot, defs):
    response = api.patch(
        url(boot, defs["purchase"]["id"]),
        {
            "description": "A completed checkout",
            "tags": [" Revenue ", "revenue", "Checkout", ""],
            "default_columns": ["event", "person"],
            "post_to_slack": True,
            "name": "renamed",
        },
        format="json",
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["name"] == "purchase"  # read-only
    assert body["description"] == "A completed checkout"
    assert sorted(body["tags"]) == ["checkout", "revenue"]
    assert body["default_columns"] == ["event", "person"]
    assert body["updated_by"]["email"] == boot.user.email
    stored = api.get(url(boot, defs["purchase"]["id"])).json()
    assert sorted(stored["tags"]) == ["checkout", "revenue"]
    assert stored["post_to_slack"] is False  # accepted, not stored
    # tags replace the whole set
    body = api.patch(url(boot, defs["purchase"]["id"]), {"tags": ["vip"]}, format="json").json()
    assert body["tags"] == ["vip"]
    assert body["description"] == "A completed checkout"


def test_put_updates_too(api, boot, defs):
    response = api.put(url(boot, defs["purchase"]["id"]), {"description": "via PUT"}, format="json")
    assert response.status_code == 200
    assert response.json()["description"] == "via PUT"


def test_verify_sets_and_clears_verifier(api, boot, defs):
    path = url(boot, defs["purchase"]["id"])
    body = api.patch(path, {"verified": True}, format="json").json()
    assert body["verified"] is True and body["hidden"] is False
    assert body["verified_by"]["email"] == boot.user.email and body["verified_at"]
    first_verified_at = body["verified_at"]
    # re-verifying is ignored: verified_at keeps its first value
    body = api.patch(path, {"verified": True}, format="json").json()
    assert body["verified_at"] == first_verified_at
    body = api.patch(path, {"verified": False}, format="json").json()
    assert body["verified"] is False and body["verified_by"] is None and body["verified_at"] is None


def test_hidden_forces_unverified_and_verified_forces_visible(api, boot, defs):
    path = url(boot, defs["purchase"]["id"])
    api.patch(path, {"verified": True}, format="json")
    body = api.patch(path, {"hidden": True}, format="json").json()
    assert body["hidden"] is True and body["verified"] is False
    assert body["verified_by"] is None and body["verified_at"] is None
    body = api.patch(path, {"verified": True}, format="json").json()
    assert body["verified"] is True and body["hidden"] is False


def test_hidden_and_verified_together_is_400(api, boot, defs):
    path = url(boot, defs["purchase"]["id"])
    response = api.patch(path, {"hidden": True, "verified": True, "description": "no"}, format="json")
    assert response.status_code == 400
    assert error(response) == {
        "type": "validation_error",
        "code": "invalid_input",
        "detail": "An event cannot be both hidden and verified",
        "attr": None,
    }
    assert api.get(path).json()["description"] == ""
    # one true, one false is fine
    assert api.patch(path, {"hidden": True, "verified": False}, format="json").status_code == 200


def test_owner_is_a_member_written_by_id_and_read_nested(api, boot, defs, make_key):
    path = url(boot, defs["purchase"]["id"])
    _, member = make_key("owner@example.com", first_name="Olga")
    body = api.patch(path, {"owner": member["user"]["id"]}, format="json").json()
    assert body["owner"]["email"] == "owner@example.com" and body["owner"]["first_name"] == "Olga"
    assert set(body["owner"]) >= {"id", "uuid", "distinct_id", "first_name", "last_name", "email"}
    assert api.get(path).json()["owner"]["id"] == member["user"]["id"]
    # a user who is not a member of the project's organization
    outsider, _ = User.objects.get_or_create_user("outsider@example.com")
    for value in (outsider.id, 99999):
        response = api.patch(path, {"owner": value}, format="json")
        assert response.status_code == 400
        assert error(response) == {
            "type": "validation_error",
            "code": "does_not_exist",
            "detail": f'Invalid pk "{value}" - object does not exist.',
            "attr": "owner",
        }
    response = api.patch(path, {"owner": "owner@example.com"}, format="json")
    assert response.status_code == 400 and error(response)["code"] == "incorrect_type"
    assert api.patch(path, {"owner": None}, format="json").json()["owner"] is None


def test_tags_ignored_without_tagging_feature(api, boot, defs, client):
    client.put(f"/_emulator/organizations/{boot.organization.id}/taxonomy", {"tagging": False}, format="json")
    path = url(boot, defs["purchase"]["id"])
    body = api.patch(path, {"tags": ["vip"], "description": "kept"}, format="json").json()
    assert body["tags"] == [] and body["description"] == "kept"
    client.put(f"/_emulator/organizations/{boot.organization.id}/taxonomy", {"tagging": True}, format="json")
    assert api.get(path).json()["tags"] == []


def test_open_source_serializer_refuses_updates_with_402(api, boot, defs, client):
    client.put(
        f"/_emulator/organizations/{boot.organization.id}/taxonomy", {"ingestion_taxonomy": False}, format="json"
    )
    path = url(boot, defs["purchase"]["id"])
    body = api.get(path).json()
    assert set(body) == BASIC_FIELDS
    response = api.patch(path, {"description": "nope"}, format="json")
    assert response.status_code == 402
    body = error(response)
    assert body["type"] == "server_error" and body["code"] == "payment_required"
    assert "premium PostHog offering" in body["detail"]
    # exclude_hidden is enterprise only: ignored
    EventDefinition.objects.filter(name="purchase").update(hidden=True)
    assert api.get(url(boot), {"exclude_hidden": "true"}).json()["count"] == 4


def test_delete(api, boot, defs):
    path = url(boot, defs["purchase"]["id"])
    assert api.delete(path).status_code == 204
    assert api.get(path).status_code == 404
    assert api.delete(path).status_code == 404


def test_no_create(api, boot):
    response = api.post(url(boot), {"name": "new_event"}, format="json")
    assert response.status_code == 405


# ------------------------------------------------------------------------------ scopes


def test_scopes(boot, defs, make_key):
    reader, _ = make_key("reader@example.com", scopes=["event_definition:read"])
    path = url(boot, defs["purchase"]["id"])
    assert authed(reader).get(url(boot)).status_code == 200
    response = authed(reader).patch(path, {"description": "x"}, format="json")
    assert response.status_code == 403
    assert error(response)["detail"] == "API key missing required scope 'event_definition:write'"
    assert authed(reader).delete(path).status_code == 403
    writer, _ = make_key("writer@example.com", scopes=["event_definition:write"])
    assert authed(writer).get(path).status_code == 200  # write implies read
    assert authed(writer).patch(path, {"description": "x"}, format="json").status_code == 200
    other, _ = make_key("other@example.com", scopes=["organization:read"])
    response = authed(other).get(url(boot))
    assert error(response)["detail"] == "API key missing required scope 'event_definition:read'"


def test_scoped_teams(boot, defs, make_key, client):
    response = client.post(
        "/_emulator/keys", {"email": "scoped@example.com", "scoped_teams": [boot.project.id]}, format="json"
    )
    assert authed(response.json()["key"]).get(url(boot)).status_code == 200
    response = client.post(
        "/_emulator/keys", {"email": "scoped2@example.com", "scoped_teams": [boot.project.id + 100]}, format="json"
    )
    response = authed(response.json()["key"]).get(url(boot))
    assert response.status_code == 403
    assert "does not have access to the requested project" in error(response)["detail"]
