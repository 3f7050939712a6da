"""``/api/projects`` (read-only, scope ``project``)."""

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


def test_projects_need_project_scope_and_are_read_only(api, boot, make_key):
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
