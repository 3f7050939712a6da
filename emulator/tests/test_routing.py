"""Trailing slashes, @current, nested routes, unknown paths (docs/posthog_facts.md §0.2, §0.4)."""

import uuid

import pytest

from posthog_emulator.models import Organization, OrganizationMembership, User
from tests.conftest import authed, error


@pytest.mark.parametrize("suffix", ["", "/"])
def test_trailing_slash_is_optional(api, boot, suffix):
    assert api.get(f"/api/organizations{suffix}").status_code == 200
    response = api.get(f"/api/organizations/{boot.organization.id}{suffix}")
    assert response.status_code == 200 and response.json()["id"] == str(boot.organization.id)
    assert api.get(f"/api/projects{suffix}").status_code == 200
    assert api.get(f"/api/projects/{boot.project.id}{suffix}").status_code == 200
    response = api.patch(f"/api/organizations/@current{suffix}", {"name": "Renamed"}, format="json")
    assert response.status_code == 200


def test_current_organization(api, boot):
    assert api.get("/api/organizations/@current").json()["id"] == str(boot.organization.id)


def test_current_organization_missing(boot, db):
    lonely = User.objects.create(email="lonely@example.com")
    from posthog_emulator.models import PersonalAPIKey

    _, raw = PersonalAPIKey.objects.issue(lonely)
    response = authed(raw).get("/api/organizations/@current/")
    assert response.status_code == 404
    assert error(response) == {
        "type": "invalid_request",
        "code": "not_found",
        "detail": "Current organization not found.",
        "attr": None,
    }


def test_unknown_api_path_is_json_404(api):
    response = api.get("/api/nothing-here/")
    assert response.status_code == 404
    assert error(response) == {
        "type": "invalid_request",
        "code": "not_found",
        "detail": "Endpoint not found.",
        "attr": None,
    }


def test_method_not_allowed_body(boot, make_key):
    legacy, _ = make_key("legacy@example.com", scopes=[])  # reaches the handler, no scope mapping involved
    response = authed(legacy).put("/api/organizations/", {"name": "x"}, format="json")
    assert response.status_code == 405
    assert error(response) == {
        "type": "invalid_request",
        "code": "method_not_allowed",
        "detail": 'Method "PUT" not allowed.',
        "attr": None,
    }


def test_malformed_body_is_400_parse_error(api):
    response = api.post("/api/organizations/", data="{not json", content_type="application/json")
    assert response.status_code == 400
    body = error(response)
    assert body["type"] == "invalid_request" and body["code"] == "parse_error"


@pytest.mark.urls("tests.nested_urls")
class TestOrganizationNested:
    def test_by_id_and_current(self, api, boot):
        for org in (boot.organization.id, "@current"):
            response = api.get(f"/api/organizations/{org}/widgets")
            assert response.status_code == 200
            assert response.json()["count"] == 1

    @pytest.mark.parametrize("org", ["not-a-uuid", "4ff6b15f-ccb1-4f65-9313-e3a6081ecfc1"])
    def test_malformed_or_unknown_organization_is_404(self, api, org):
        response = api.get(f"/api/organizations/{org}/widgets/")
        assert response.status_code == 404
        assert error(response)["detail"] == "Organization not found."

    def test_current_without_organization_is_404(self, boot):
        from posthog_emulator.models import PersonalAPIKey

        lonely = User.objects.create(email="lonely@example.com")
        _, raw = PersonalAPIKey.objects.issue(lonely)
        response = authed(raw).get("/api/organizations/@current/widgets/")
        assert response.status_code == 404
        assert error(response)["detail"] == "Organization not found."

    def test_foreign_organization_is_403_generic(self, api):
        foreign, _, _ = Organization.objects.bootstrap(None, name="Foreign")
        response = api.get(f"/api/organizations/{foreign.id}/widgets/")
        assert response.status_code == 403
        assert error(response) == {
            "type": "authentication_error",
            "code": "permission_denied",
            "detail": "You do not have permission to perform this action.",
            "attr": None,
        }

    def test_objects_of_other_organizations_are_404(self, api, boot):
        foreign, _, _ = Organization.objects.bootstrap(None, name="Foreign")
        other_member = User.objects.create(email="other@example.com")
        membership = OrganizationMembership.objects.create(organization=foreign, user=other_member)
        response = api.delete(f"/api/organizations/{boot.organization.id}/widgets/{membership.id}/")
        assert response.status_code == 404
        assert error(response)["detail"] == "Not found."

    def test_admin_write_permission(self, boot, make_key):
        key, _ = make_key("member@example.com", scopes=["*"])
        target = OrganizationMembership.objects.get(user=boot.user)
        response = authed(key).delete(f"/api/organizations/{boot.organization.id}/widgets/{target.id}/")
        assert response.status_code == 403
        assert error(response)["detail"] == "Your organization access level is insufficient."


@pytest.mark.urls("tests.nested_urls")
class TestProjectNested:
    def test_by_id_and_current(self, api, boot):
        for project in (boot.project.id, "@current"):
            body = api.get(f"/api/projects/{project}/things/").json()
            assert body == {"project": boot.project.id, "organization": str(boot.organization.id)}

    @pytest.mark.parametrize("project", ["abc", "999999"])
    def test_malformed_or_unknown_project_is_404(self, api, project):
        response = api.get(f"/api/projects/{project}/things/")
        assert response.status_code == 404
        assert error(response)["detail"] == "Project not found."

    def test_foreign_project_is_403(self, api):
        _, _, team = Organization.objects.bootstrap(None, name="Foreign")
        response = api.get(f"/api/projects/{team.id}/things/")
        assert response.status_code == 403
        assert error(response)["detail"] == "You don't have access to the project."

    def test_current_without_project_is_404(self, boot):
        from posthog_emulator.models import PersonalAPIKey

        lonely = User.objects.create(email="lonely@example.com")
        _, raw = PersonalAPIKey.objects.issue(lonely)
        response = authed(raw).get("/api/projects/@current/things/")
        assert response.status_code == 404
        assert error(response)["detail"] == "Project not found."
