"""``/api/projects`` (read, update, delete; scope ``project``)."""

import pytest

from posthog_emulator import profiles
from posthog_emulator.models import Organization
from tests.conftest import authed, error


def test_list_projects_of_my_organizations(api, boot):
    Organization.objects.bootstrap(None, name="Foreign")
    second = api.post("/api/organizations/", {"name": "Second"}, format="json").json()
    body = api.get("/api/projects/").json()
    assert body["count"] == 2
    assert [p["organization"] for p in body["results"]] == [str(boot.organization.id), second["id"]]
    first = body["results"][0]
    assert first["id"] == first["project_id"] == boot.project.id
    assert first["name"] == "Default project" and first["api_token"].startswith("phc_")


def test_retrieve_and_current(api, boot):
    body = api.get(f"/api/projects/{boot.project.id}/").json()
    assert body["id"] == boot.project.id and "created_at" in body
    assert api.get("/api/projects/@current/").json()["id"] == boot.project.id


def test_project_of_foreign_organization_is_404(api):
    _, _, team = Organization.objects.bootstrap(None, name="Foreign")
    response = api.get(f"/api/projects/{team.id}/")
    assert response.status_code == 404
    assert error(response)["detail"] == "Not found."


def test_non_integer_id_is_400_as_in_posthog(api):
    response = api.get("/api/projects/abc/")
    assert response.status_code == 400
    assert error(response) == {
        "type": "validation_error",
        "code": "invalid_input",
        "detail": "Field 'id' expected a number but got 'abc'.",
        "attr": None,
    }


def test_projects_need_project_scope_and_are_not_created_here(api, boot, make_key):
    key, _ = make_key("reader@example.com", scopes=["organization:read"])
    response = authed(key).get("/api/projects/")
    assert error(response)["detail"] == "API key missing required scope 'project:read'"
    response = api.post("/api/projects/", {"name": "New"}, format="json")
    assert response.status_code == 405


def test_scoped_organizations_filter_projects(api, boot, make_key):
    api.post("/api/organizations/", {"name": "Second"}, format="json")
    key, _ = make_key(boot.user.email, scopes=["project:read"], scoped_organizations=[str(boot.organization.id)])
    body = authed(key).get("/api/projects/").json()
    assert [p["id"] for p in body["results"]] == [boot.project.id]


@pytest.mark.parametrize("profile", ["spec", "posthog"])
def test_projects_are_updated_and_deleted_on_the_root_route(api, boot, make_key, profile):
    """Issue 27.1: ``router.register(r"projects", project.RootProjectViewSet, "projects")``
    (``posthog/api/__init__.py``), and ``RootProjectViewSet(ProjectViewSet)`` is the full viewset
    (``posthog/api/project.py``): a PATCH or PUT with ``project:write`` is accepted, not refused as
    an action without a scope; the member/admin split and the admin-only delete are the same as
    under the organization's route."""
    profiles.set_profile(profile)
    url = f"/api/projects/{boot.project.id}/"
    writer = authed(make_key(boot.user.email, scopes=["project:write"])[0])
    response = writer.patch(url, {"name": "Renamed", "timezone": "Europe/Paris"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["name"] == "Renamed" and response.json()["timezone"] == "Europe/Paris"
    assert writer.put(url, {"name": "Put"}, format="json").status_code in (200, 403)  # plan check on PUT
    reader = authed(make_key(boot.user.email, scopes=["project:read"])[0])
    assert error(reader.patch(url, {"name": "x"}, format="json"))["detail"] == (
        "API key missing required scope 'project:write'")
    member = authed(make_key("member@example.com")[0])
    response = member.patch(url, {"timezone": "UTC"}, format="json")
    assert response.status_code == 403 and "timezone" in error(response)["detail"]
    assert member.delete(url).status_code == 403
    assert writer.delete(url).status_code == 204
    assert api.get(url).status_code == 404
