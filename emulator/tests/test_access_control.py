"""Access control of a project, as PostHog's newest code has it (profile ``posthog``; these routes are
hidden from PostHog's OpenAPI schema, so the tests cite the code):

* ``products/access_control/backend/presentation/access_control.py``: ``AccessControlSerializer``
  (levels, member or role, the role feature, admins only), ``apply_access_control_rule`` (PUT
  creates or updates, ``null`` deletes: 204), ``_get_access_controls`` and ``_get_users_with_access``;
* ``products/access_control/backend/facade/user_access_control.py``: the levels and their range;
* ``ee/api/rbac/access_control_management.py``: the Terraform claim, the lock and its 403.
"""

import pytest

from posthog_emulator import profiles
from posthog_emulator.models import AccessControl
from tests.conftest import authed, error

BASE = "/api/projects/{}/"


@pytest.fixture
def posthog(boot):
    profiles.set_profile("posthog")
    return boot


def url(boot, name):
    return BASE.format(boot.project.id) + name + "/"


def member_id(api, email):
    for member in api.get("/api/organizations/@current/members/").json()["results"]:
        if member["user"]["email"] == email:
            return member["id"]
    raise AssertionError(email)


def join(api, client, email):
    api.post("/api/organizations/@current/invites/", {"target_email": email, "level": 1}, format="json")
    assert client.post("/_emulator/invites/accept", {"email": email}, format="json").status_code == 200
    return member_id(api, email)


def test_spec_profile_has_no_access_control(api, boot, client):
    response = api.get(url(boot, "access_controls"))
    assert response.status_code == 404 and error(response)["detail"] == "Endpoint not found."
    client.put("/_emulator/generations", {"access_control": "newest"}, format="json")
    assert api.get(url(boot, "access_controls")).status_code == 200


def test_project_default_and_member_rules_upsert_and_delete(api, posthog, client):
    ann = join(api, client, "ann@example.com")
    answer = api.get(url(posthog, "access_controls")).json()
    assert answer["access_controls"] == [] and answer["available_access_levels"] == ["none", "member", "admin"]
    assert answer["default_access_level"] == "admin" and answer["inherited_access"] is None
    response = api.put(url(posthog, "access_controls"), {"access_level": "member"}, format="json")
    assert response.status_code == 200
    rule = response.json()
    assert rule["resource"] == "project" and rule["resource_id"] == str(posthog.project.id)
    assert rule["organization_member"] is None and rule["role"] is None
    assert set(rule) == {"access_level", "resource", "resource_id", "organization_member", "role", "created_by",
                         "created_at", "updated_at"}
    body = {"access_level": "none", "organization_member": ann}
    assert api.put(url(posthog, "access_controls"), body, format="json").json()["organization_member"] == ann
    body["access_level"] = "admin"
    assert api.put(url(posthog, "access_controls"), body, format="json").status_code == 200
    assert AccessControl.objects.count() == 2  # an upsert: the member's rule was updated, not added
    users = api.get(url(posthog, "users_with_access")).json()
    assert users["total_count"] == 2
    assert {u["access_source"] for u in users["users"]} == {"organization_admin", "explicit_member"}
    body["access_level"] = None
    assert api.put(url(posthog, "access_controls"), body, format="json").status_code == 204
    assert api.put(url(posthog, "access_controls"), body, format="json").status_code == 204  # nothing to delete
    assert len(api.get(url(posthog, "access_controls")).json()["access_controls"]) == 1


def test_levels_per_resource(api, posthog):
    put = lambda name, body: api.put(url(posthog, name), body, format="json")  # noqa: E731
    assert error(put("access_controls", {"access_level": "editor"}))["detail"] == \
        "Invalid access level. Must be one of: none, member, admin"
    assert put("resource_access_controls", {"resource": "dashboard", "access_level": "manager"}).status_code == 200
    assert error(put("resource_access_controls", {"resource": "dashboard", "access_level": "admin"}))["detail"] == \
        "Invalid access level. Must be one of: none, viewer, editor, manager"
    assert error(put("resource_access_controls", {"resource": "action", "access_level": "none"}))["detail"] == \
        "Access level cannot be set below the minimum 'viewer' for action."
    assert error(put("resource_access_controls", {"resource": "toolbar", "access_level": "editor"}))["detail"] == \
        "Access level cannot be set above the maximum 'viewer' for toolbar."
    assert error(put("resource_access_controls", {"resource": "nonsense", "access_level": "viewer"}))["attr"] == \
        "resource"
    response = put("resource_access_controls", {"resource": "dashboard", "resource_id": "7", "access_level": "viewer"})
    assert response.status_code == 403
    answer = api.get(url(posthog, "resource_access_controls")).json()
    assert [r["resource"] for r in answer["access_controls"]] == ["dashboard"]
    assert answer["available_access_levels"] == ["none", "viewer", "editor", "manager"]
    assert api.get(url(posthog, "global_access_controls")).json()["access_controls"] == answer["access_controls"]


def test_member_and_role_rules(api, posthog, client):
    ann = join(api, client, "ann@example.com")
    role = api.post("/api/organizations/@current/roles/", {"name": "Eng"}, format="json").json()["id"]
    body = {"resource": "insight", "access_level": "viewer", "role": role}
    response = api.put(url(posthog, "resource_access_controls"), body, format="json")
    assert response.status_code == 403
    assert error(response)["detail"] == "Role-based access controls require the Role-based access feature."
    client.put("/_emulator/organizations/emulator-org/features", {"features": ["role_based_access"]}, format="json")
    assert api.put(url(posthog, "resource_access_controls"), body, format="json").json()["role"] == role
    both = dict(body, organization_member=ann)
    assert error(api.put(url(posthog, "resource_access_controls"), both, format="json"))["detail"] == \
        "You can not scope an access control to both a member and a role."
    bad = {"resource": "insight", "access_level": "viewer", "organization_member": "12"}
    assert "Use the 'id' field" in error(api.put(url(posthog, "resource_access_controls"), bad, format="json"))["detail"]


def test_writes_need_an_admin_and_the_scopes(api, posthog, make_key):
    key, _ = make_key("member@example.com", level="member")
    response = authed(key).put(url(posthog, "resource_access_controls"),
                               {"resource": "dashboard", "access_level": "viewer"}, format="json")
    assert error(response)["detail"] == "Must be an Organization admin to modify project-wide permissions."
    reader, _ = make_key("reader@example.com", level="admin", scopes=["access_control:read"])
    assert authed(reader).get(url(posthog, "access_controls")).status_code == 200
    response = authed(reader).put(url(posthog, "access_controls"), {"access_level": "member"}, format="json")
    assert error(response)["detail"] == "API key missing required scope 'access_control:write'"


def test_terraform_lock(api, posthog):
    terraform = authed(posthog.key)
    terraform.credentials(HTTP_AUTHORIZATION=f"Bearer {posthog.key}", HTTP_USER_AGENT="posthog/terraform-provider 1.0")
    body = {"resource": "dashboard", "access_level": "viewer"}
    assert terraform.put(url(posthog, "resource_access_controls"), body, format="json").status_code == 200
    settings = api.get(url(posthog, "access_control_management_settings")).json()
    assert settings == {"lock_terraform_managed_rules": False, "has_terraform_managed_rules": True}
    body["access_level"] = "editor"
    assert api.put(url(posthog, "resource_access_controls"), body, format="json").status_code == 200  # lock off
    api.patch(url(posthog, "access_control_management_settings"), {"lock_terraform_managed_rules": True}, format="json")
    response = api.put(url(posthog, "resource_access_controls"), dict(body, access_level=None), format="json")
    assert response.status_code == 403 and error(response)["detail"].startswith("Terraform manages this access")
    other = {"resource": "insight", "access_level": "viewer"}
    assert api.put(url(posthog, "resource_access_controls"), other, format="json").status_code == 200  # new: allowed
    assert terraform.put(url(posthog, "resource_access_controls"), body, format="json").status_code == 200
    claim = {"resource": "dashboard", "managed_by": None}
    assert error(api.put(url(posthog, "access_control_management"), claim, format="json"))["detail"].startswith(
        "Terraform manages")
    assert terraform.put(url(posthog, "access_control_management"), claim, format="json").json()["managed_by"] is None
    assert api.put(url(posthog, "resource_access_controls"), dict(body, access_level=None),
                   format="json").status_code == 204
    missing = {"resource": "survey", "managed_by": "terraform"}
    assert api.put(url(posthog, "access_control_management"), missing, format="json").status_code == 404
