"""Scopes and scoped keys (docs/posthog_facts.md §0.6)."""

import pytest

from posthog_emulator.models import Organization
from tests.conftest import authed, error


def test_missing_scope_is_403_naming_the_scope(make_key):
    key, _ = make_key("reader@example.com", scopes=["project:read"])
    response = authed(key).get("/api/organizations/")
    assert response.status_code == 403
    assert error(response) == {
        "type": "authentication_error",
        "code": "permission_denied",
        "detail": "API key missing required scope 'organization:read'",
        "attr": None,
    }


def test_read_scope_cannot_write(make_key):
    key, _ = make_key("reader@example.com", scopes=["organization:read"], level="owner")
    api = authed(key)
    assert api.get("/api/organizations/").status_code == 200
    response = api.post("/api/organizations/", {"name": "Nope"}, format="json")
    assert response.status_code == 403
    assert error(response)["detail"] == "API key missing required scope 'organization:write'"


def test_write_implies_read(make_key):
    key, body = make_key("writer@example.com", scopes=["organization:write"])
    api = authed(key)
    assert api.get("/api/organizations/").status_code == 200
    assert api.get(f"/api/organizations/{body['organization']['id']}/").status_code == 200


def test_star_allows_everything(make_key):
    key, _ = make_key("star@example.com", scopes=["*"])
    api = authed(key)
    assert api.get("/api/organizations/").status_code == 200
    assert api.get("/api/projects/").status_code == 200
    assert api.post("/api/organizations/", {"name": "Mine"}, format="json").status_code == 201


def test_empty_scope_list_is_a_legacy_key_with_full_access(make_key):
    key, _ = make_key("legacy@example.com", scopes=[])
    api = authed(key)
    assert api.get("/api/organizations/").status_code == 200
    assert api.post("/api/organizations/", {"name": "Legacy"}, format="json").status_code == 201


def test_scoped_organizations_filter_the_list(boot, api, make_key):
    other = api.post("/api/organizations/", {"name": "Other"}, format="json").json()
    key, _ = make_key(boot.user.email, scopes=["organization:read"], scoped_organizations=[str(boot.organization.id)])
    scoped = authed(key)
    ids = [org["id"] for org in scoped.get("/api/organizations/").json()["results"]]
    assert ids == [str(boot.organization.id)]
    assert len(api.get("/api/organizations/").json()["results"]) == 2
    # A member's organization outside the key's scope is not found by ID...
    response = scoped.get(f"/api/organizations/{other['id']}/")
    assert response.status_code == 404
    assert error(response)["detail"] == "Not found."


def test_scoped_organizations_403_on_current_organization_outside_scope(boot, api, make_key):
    other = api.post("/api/organizations/", {"name": "Other"}, format="json").json()  # becomes current
    key, _ = make_key(boot.user.email, scopes=["*"], scoped_organizations=[str(boot.organization.id)])
    response = authed(key).get("/api/organizations/@current/")
    assert response.status_code == 403
    assert error(response)["detail"] == (
        f"API key does not have access to the requested organization: ID {other['id']}."
    )


@pytest.mark.urls("tests.nested_urls")
def test_scoped_organizations_403_on_other_org_nested_endpoint(boot, api, make_key):
    other = api.post("/api/organizations/", {"name": "Other"}, format="json").json()
    key, _ = make_key(boot.user.email, scopes=["*"], scoped_organizations=[str(boot.organization.id)])
    scoped = authed(key)
    assert scoped.get(f"/api/organizations/{boot.organization.id}/widgets/").status_code == 200
    response = scoped.get(f"/api/organizations/{other['id']}/widgets/")
    assert response.status_code == 403
    assert error(response)["detail"] == (
        f"API key does not have access to the requested organization: ID {other['id']}."
    )


def test_scoped_teams_refused_on_organization_endpoints(boot, make_key):
    key, _ = make_key(boot.user.email, scopes=["*"], scoped_teams=[boot.project.id])
    api = authed(key)
    for path in ("/api/organizations/", f"/api/organizations/{boot.organization.id}/", "/api/projects/"):
        response = api.get(path)
        assert response.status_code == 403, path
        assert error(response)["detail"] == (
            "API keys with scoped projects are only supported on project-based endpoints."
        )


def test_scoped_teams_on_project_endpoints(boot, api, make_key):
    second = Organization.objects.get(id=api.post("/api/organizations/", {"name": "Two"}, format="json").json()["id"])
    second_project = second.teams.get()
    key, _ = make_key(boot.user.email, scopes=["project:read"], scoped_teams=[boot.project.id])
    scoped = authed(key)
    assert scoped.get(f"/api/projects/{boot.project.id}/").status_code == 200
    response = scoped.get(f"/api/projects/{second_project.id}/")
    assert response.status_code == 403
    assert error(response)["detail"] == (
        f"API key does not have access to the requested project: ID {second_project.id}."
    )


@pytest.mark.urls("tests.nested_urls")
def test_scoped_teams_on_nested_project_endpoint(boot, make_key):
    key, _ = make_key(boot.user.email, scopes=["event_definition:read"], scoped_teams=[boot.project.id])
    scoped = authed(key)
    assert scoped.get(f"/api/projects/{boot.project.id}/things").status_code == 200
    assert scoped.get("/api/projects/@current/things").json()["project"] == boot.project.id
    response = scoped.get(f"/api/organizations/{boot.organization.id}/widgets")
    assert error(response)["detail"] == "API keys with scoped projects are only supported on project-based endpoints."


@pytest.mark.urls("tests.nested_urls")
def test_custom_action_without_mapping_depends_on_profile(boot, make_key, client):
    key, body = make_key("member@example.com", scopes=["organization_member:read"])
    api = authed(key)
    org = body["organization"]["id"]
    # spec profile: unmapped actions need <object>:write for unsafe methods, :read for safe ones.
    assert api.get(f"/api/organizations/{org}/widgets/unmapped_read/").status_code == 200
    response = api.post(f"/api/organizations/{org}/widgets/unmapped/")
    assert error(response)["detail"] == "API key missing required scope 'organization_member:write'"
    # posthog profile: personal API keys are refused outright.
    assert client.put("/_emulator/profile", {"profile": "posthog"}, format="json").status_code == 200
    for method, path in (("get", "unmapped_read"), ("post", "unmapped")):
        response = getattr(api, method)(f"/api/organizations/{org}/widgets/{path}/")
        assert response.status_code == 403
        assert error(response)["detail"] == "This action does not support Personal API Key access"
    # A legacy key (no scopes) may still use them; an explicit mapping is honoured.
    legacy, _ = make_key("legacy@example.com", scopes=[], organization=org, level="admin")
    assert authed(legacy).post(f"/api/organizations/{org}/widgets/unmapped/").status_code == 200
    response = api.post(f"/api/organizations/{org}/widgets/mapped/")
    assert error(response)["detail"] == "API key missing required scope 'organization_member:write'"
    writer, _ = make_key("writer@example.com", scopes=["organization_member:write"], organization=org, level="admin")
    assert authed(writer).post(f"/api/organizations/{org}/widgets/mapped/").status_code == 200


def test_control_api_rejects_unknown_scopes(boot, client):
    response = client.post(
        "/_emulator/keys", {"email": "x@example.com", "scopes": ["organisation:read"]}, format="json"
    )
    assert response.status_code == 400
    assert error(response)["attr"] == "scopes"
