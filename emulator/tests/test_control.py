"""The control API under /_emulator/."""

import pytest

from posthog_emulator import bootstrap
from posthog_emulator.models import Organization, OrganizationMembership, PersonalAPIKey, User
from tests.conftest import BOOTSTRAP_KEY, authed, error


def test_keys_creates_user_membership_and_key(boot, client):
    response = client.post(
        "/_emulator/keys",
        {"email": "dev@example.com", "scopes": ["organization:read"], "first_name": "Dev", "level": "admin"},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["key"].startswith("phx_") and len(body["key"]) == 44
    assert set(body["user"]) == {"id", "uuid", "email", "first_name", "last_name", "distinct_id"}
    assert body["user"]["email"] == "dev@example.com" and body["user"]["first_name"] == "Dev"
    assert body["organization"] == {"id": str(boot.organization.id), "slug": "emulator-org", "name": "Emulator Org"}
    assert body["level"] == 8
    user = User.objects.get(email="dev@example.com")
    assert user.current_organization_id == boot.organization.id
    assert OrganizationMembership.objects.get(user=user, organization=boot.organization).level == 8
    assert authed(body["key"]).get("/api/organizations/").status_code == 200
    assert not PersonalAPIKey.objects.filter(secure_value__contains=body["key"]).exists()


def test_keys_reuses_user_and_updates_level_only_when_given(boot, client):
    first = client.post("/_emulator/keys", {"email": "dev@example.com", "level": "owner"}, format="json").json()
    again = client.post("/_emulator/keys", {"email": "DEV@example.com"}, format="json").json()
    assert again["user"]["id"] == first["user"]["id"] and again["level"] == 15
    lowered = client.post("/_emulator/keys", {"email": "dev@example.com", "level": 1}, format="json").json()
    assert lowered["level"] == 1
    assert first["key"] != again["key"] != lowered["key"]


def test_keys_creates_a_named_organization_owned_by_nobody_else(boot, client):
    body = client.post("/_emulator/keys", {"email": "x@example.com", "organization": "Beta Inc"}, format="json").json()
    organization = Organization.objects.get(name="Beta Inc")
    assert body["organization"] == {"id": str(organization.id), "slug": "beta-inc", "name": "Beta Inc"}
    assert list(organization.memberships.values_list("user__email", "level")) == [("x@example.com", 1)]
    assert organization.teams.count() == 1
    # the same organization is found again by name, slug or ID
    for reference in ("Beta Inc", "beta-inc", str(organization.id)):
        again = client.post("/_emulator/keys", {"email": "y@example.com", "organization": reference}, format="json")
        assert again.json()["organization"]["id"] == str(organization.id)


def test_keys_scoped_organizations_accept_references(boot, client):
    body = client.post(
        "/_emulator/keys",
        {"email": "s@example.com", "scoped_organizations": ["emulator-org"], "scoped_teams": [boot.project.id]},
        format="json",
    ).json()
    assert body["scoped_organizations"] == [str(boot.organization.id)]
    assert body["scoped_teams"] == [boot.project.id]


@pytest.mark.parametrize(
    ("payload", "attr"),
    [
        ({}, "email"),
        ({"email": "no-at-sign"}, "email"),
        ({"email": "a@example.com", "level": "boss"}, "level"),
        ({"email": "a@example.com", "scopes": "organization:read"}, "scopes"),
        ({"email": "a@example.com", "scoped_teams": ["1"]}, "scoped_teams"),
        ({"email": "a@example.com", "scoped_organizations": ["nope"]}, "scoped_organizations"),
    ],
)
def test_keys_validation(boot, client, payload, attr):
    response = client.post("/_emulator/keys", payload, format="json")
    assert response.status_code == 400
    assert error(response)["attr"] == attr


def test_request_log(api, client):
    api.get("/api/organizations/?limit=5")
    api.get("/api/nothing")
    client.get("/_emulator/info")  # control calls are not logged
    assert client.get("/_emulator/requests").json() == [
        {"method": "GET", "path": "/api/organizations/", "query": "limit=5", "status": 200},
        {"method": "GET", "path": "/api/nothing", "query": "", "status": 404},
    ]
    response = client.delete("/_emulator/requests")
    assert response.status_code == 204
    assert client.get("/_emulator/requests").json() == []


def test_request_hook_can_short_circuit(api, client):
    from django.http import JsonResponse

    from posthog_emulator import middleware

    def hook(request):
        if request.method == "POST":
            return JsonResponse(
                {"type": "throttled_error", "code": "throttled", "detail": "x", "attr": None}, status=429
            )
        return None

    middleware.add_request_hook(hook)
    try:
        assert api.post("/api/organizations/", {"name": "x"}, format="json").status_code == 429
        assert api.get("/api/organizations/").status_code == 200
    finally:
        middleware.remove_request_hook(hook)
    assert [e["status"] for e in client.get("/_emulator/requests").json()] == [429, 200]
    assert not Organization.objects.filter(name="x").exists()


def test_reset_keeps_the_bootstrap_key(boot, api, client):
    api.post("/api/organizations/", {"name": "Temporary"}, format="json")
    client.post("/_emulator/keys", {"email": "someone@example.com"}, format="json")
    response = client.post("/_emulator/reset")
    assert response.status_code == 200
    body = response.json()
    assert body["api_key"] == BOOTSTRAP_KEY
    assert body["organization"]["name"] == "Emulator Org" and body["organization"]["slug"] == "emulator-org"
    assert body["project"]["name"] == "Default project"
    assert Organization.objects.count() == 1 and User.objects.count() == 1
    assert client.get("/_emulator/requests").json() == []
    assert api.get("/api/organizations/").json()["count"] == 1


def test_reset_with_a_new_key(boot, client):
    new_key = "phx_" + "n" * 40
    body = client.post("/_emulator/reset", {"api_key": new_key}, format="json").json()
    assert body["api_key"] == new_key
    assert authed(new_key).get("/api/organizations/").status_code == 200
    assert authed(BOOTSTRAP_KEY).get("/api/organizations/").status_code == 401
    assert bootstrap.bootstrap_key() == new_key


def test_reset_callbacks_run(boot, client):
    calls = []

    def callback():
        calls.append(Organization.objects.count())

    bootstrap.on_reset(callback)
    try:
        client.post("/_emulator/reset")
    finally:
        bootstrap._reset_callbacks.remove(callback)  # the emulator's own callbacks stay registered
    assert calls == [1]


def test_info(boot, client):
    body = client.get("/_emulator/info").json()
    assert body["profile"] == "spec" and body["version"] == "0.1.0"
    assert body["user"]["email"] == "admin@example.com"
    assert body["user"]["first_name"] == "Ada" and body["user"]["last_name"] == "Admin"
    assert body["organization"] == {"id": str(boot.organization.id), "slug": "emulator-org", "name": "Emulator Org"}
    assert body["project"]["id"] == boot.project.id


def test_profile_switch(boot, client):
    assert client.get("/_emulator/profile").json() == {"profile": "spec"}
    assert client.put("/_emulator/profile", {"profile": "posthog"}, format="json").json() == {"profile": "posthog"}
    assert client.get("/_emulator/info").json()["profile"] == "posthog"
    response = client.put("/_emulator/profile", {"profile": "nope"}, format="json")
    assert response.status_code == 400 and error(response)["attr"] == "profile"
    assert client.get("/_emulator/profile").json() == {"profile": "posthog"}


SPEC_GENERATIONS = {"domains": "middle", "batch_exports": "middle", "identity_providers": "absent",
                    "hog_functions": "absent", "access_control": "absent"}
NEWEST_GENERATIONS = {"domains": "newest", "batch_exports": "newest", "identity_providers": "newest",
                      "hog_functions": "newest", "access_control": "newest"}


def test_generations_switch_validate_and_reset(boot, client):
    assert client.get("/_emulator/generations").json() == SPEC_GENERATIONS
    response = client.put("/_emulator/generations", {"domains": "newest"}, format="json")
    assert response.status_code == 200 and response.json() == {**SPEC_GENERATIONS, "domains": "newest"}
    assert client.get("/_emulator/generations").json() == {**SPEC_GENERATIONS, "domains": "newest"}
    for body, attr in (({"domains": "oldest"}, "domains"), ({"invites": "newest"}, "invites"),
                       ({"batch_exports": "newest", "identity_providers": "middle"}, "identity_providers")):
        response = client.put("/_emulator/generations", body, format="json")
        assert response.status_code == 400 and error(response)["attr"] == attr
        assert error(response)["code"] == "invalid_choice"
    response = client.put("/_emulator/generations", {}, format="json")
    assert response.status_code == 400
    # nothing half-applied
    assert client.get("/_emulator/generations").json() == {**SPEC_GENERATIONS, "domains": "newest"}
    client.post("/_emulator/reset")
    assert client.get("/_emulator/generations").json() == SPEC_GENERATIONS


def test_generations_default_to_newest_in_the_posthog_profile(boot, client):
    client.put("/_emulator/generations", {"batch_exports": "newest"}, format="json")
    client.put("/_emulator/profile", {"profile": "posthog"}, format="json")
    assert client.get("/_emulator/generations").json() == NEWEST_GENERATIONS  # the switch dropped the override
    response = client.put("/_emulator/generations", {"domains": "middle"}, format="json")
    assert response.json() == {**NEWEST_GENERATIONS, "domains": "middle"}
    client.post("/_emulator/reset")
    assert client.get("/_emulator/generations").json() == NEWEST_GENERATIONS
    client.put("/_emulator/profile", {"profile": "spec"}, format="json")
    assert client.get("/_emulator/generations").json() == SPEC_GENERATIONS


def test_unknown_control_path_and_method(boot, client):
    response = client.get("/_emulator/nothing")
    assert response.status_code == 404 and error(response)["code"] == "not_found"
    response = client.get("/_emulator/reset")
    assert response.status_code == 405 and error(response)["code"] == "method_not_allowed"
    assert response.headers["Allow"] == "POST"
    response = client.post("/_emulator/keys", data="[1]", content_type="application/json")
    assert response.status_code == 400


def test_control_api_is_not_under_api(boot, client):
    assert client.get("/api/_emulator/info").status_code == 404


def test_bootstrap_on_existing_database_adds_a_given_key(boot):
    other = "phx_" + "o" * 40
    raw, created = bootstrap.ensure_bootstrap(other)
    assert (raw, created) == (other, False)
    assert Organization.objects.count() == 1
    assert authed(other).get("/api/organizations/").status_code == 200
