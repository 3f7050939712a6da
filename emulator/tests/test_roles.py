"""Roles, role memberships and the organization's default role (docs/posthog_facts.md §10.4;
``ee/api/rbac/role.py``, ``User.join`` in ``posthog/models/user.py``)."""

import pytest

from posthog_emulator.models import Role, RoleMembership
from tests.conftest import authed, error
from tests.reference_schema import assert_matches

ROLES = "/api/organizations/{organization_id}/roles/"
ROLE = "/api/organizations/{organization_id}/roles/{id}/"
MEMBERSHIPS = "/api/organizations/{organization_id}/roles/{role_id}/role_memberships/"
ORG = "/api/organizations/{id}/"


def roles_url(suffix=""):
    return f"/api/organizations/@current/roles/{suffix}"


def memberships_url(role_id, suffix=""):
    return f"/api/organizations/@current/roles/{role_id}/role_memberships/{suffix}"


def create_role(api, name="Engineering"):
    response = api.post(roles_url(), {"name": name}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def join(api, client, email, level=1):
    """``email`` is invited and accepts; returns the accept answer."""
    api.post("/api/organizations/@current/invites/", {"target_email": email, "level": level}, format="json")
    response = client.post("/_emulator/invites/accept", {"email": email}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_role_shape_and_reference_schema(api, boot):
    role = assert_matches(create_role(api), ROLES, "post", "201")
    assert role["name"] == "Engineering" and role["members"] == [] and role["is_default"] is False
    # ee/api/rbac/role.py (commit 0d954cdcb5378a48eabe45b133870d398edee467) and its newest
    # products/ layout: RoleSerializer.create sets only the organization, so created_by is null.
    assert role["created_by"] is None
    listed = assert_matches(api.get(roles_url()).json(), ROLES)
    assert [r["id"] for r in listed["results"]] == [role["id"]]
    assert_matches(api.get(roles_url(f"{role['id']}/")).json(), ROLE)


def test_names_are_unique_regardless_of_case(api, boot):
    role = create_role(api)
    response = api.post(roles_url(), {"name": "ENGINEERING"}, format="json")
    assert response.status_code == 400
    assert error(response) == {"type": "validation_error", "code": "unique", "attr": "name",
                               "detail": "There is already a role with this name."}  # fmt: skip
    assert api.patch(roles_url(f"{role['id']}/"), {"name": "Engineering"}, format="json").status_code == 200
    assert api.patch(roles_url(f"{role['id']}/"), {"name": "Eng"}, format="json").json()["name"] == "Eng"
    assert error(api.post(roles_url(), {}, format="json"))["attr"] == "name"
    assert error(api.post(roles_url(), {"name": "x" * 201}, format="json"))["attr"] == "name"


def test_members_read_admins_write(api, boot, make_key):
    create_role(api)
    key, _ = make_key("member@example.com", level="member")
    member = authed(key)
    assert member.get(roles_url()).json()["count"] == 1
    response = member.post(roles_url(), {"name": "Mine"}, format="json")
    assert response.status_code == 403 and error(response)["detail"] == "Your organization access level is insufficient."
    reader, _ = make_key("reader@example.com", level="admin", scopes=["organization:read"])
    response = authed(reader).post(roles_url(), {"name": "Mine"}, format="json")
    assert error(response)["detail"] == "API key missing required scope 'organization:write'"


def test_role_memberships(api, boot, client):
    role = create_role(api)
    joined = join(api, client, "ann@example.com")
    response = api.post(memberships_url(role["id"]), {"user_uuid": joined["user"]["uuid"]}, format="json")
    assert response.status_code == 201, response.content
    membership = assert_matches(response.json(), MEMBERSHIPS, "post", "201")
    assert membership["role_id"] == role["id"] and membership["user"]["email"] == "ann@example.com"
    assert membership["organization_member"]["user"]["email"] == "ann@example.com"
    assert "user_uuid" not in membership
    listed = assert_matches(api.get(memberships_url(role["id"])).json(), MEMBERSHIPS)
    assert [m["id"] for m in listed["results"]] == [membership["id"]]
    shown = api.get(roles_url(f"{role['id']}/")).json()["members"]
    assert [m["user"]["email"] for m in shown] == ["ann@example.com"]
    again = api.post(memberships_url(role["id"]), {"user_uuid": joined["user"]["uuid"]}, format="json")
    assert (again.status_code, error(again)["detail"], error(again)["attr"]) == (
        400, "User is already part of the role.", None)
    assert api.delete(memberships_url(role["id"], f"{membership['id']}/")).status_code == 204
    assert api.get(memberships_url(role["id"])).json()["count"] == 0


@pytest.mark.parametrize(
    "body, detail",
    [({"user_uuid": "0190a3f4-0000-7000-8000-000000000001"}, "User does not exist."),
     ({}, "This field is required."),
     ({"user_uuid": "nope"}, "Must be a valid UUID.")],
)  # fmt: skip
def test_role_membership_refusals(api, boot, body, detail):
    role = create_role(api)
    response = api.post(memberships_url(role["id"]), body, format="json")
    assert response.status_code == 400 and error(response)["detail"] == detail


def test_membership_of_an_unknown_role(api, boot):
    user_uuid = str(boot.user.uuid)
    response = api.post(memberships_url("0190a3f4-0000-7000-8000-000000000009"), {"user_uuid": user_uuid}, format="json")
    assert error(response)["detail"] == "Role does not exist."
    assert api.get(memberships_url("not-a-uuid")).json()["count"] == 0


def test_leaving_the_organization_drops_roles(api, boot, client):
    role = create_role(api)
    joined = join(api, client, "bo@example.com")
    api.post(memberships_url(role["id"]), {"user_uuid": joined["user"]["uuid"]}, format="json")
    assert api.delete(f"/api/organizations/@current/members/{joined['user']['uuid']}/").status_code == 204
    assert not RoleMembership.objects.exists()


def test_default_role_is_given_to_people_who_join(api, boot, client):
    role = create_role(api)
    body = api.patch("/api/organizations/@current/", {"default_role_id": role["id"]}, format="json").json()
    assert_matches(body, ORG, "patch")
    assert body["default_role_id"] == role["id"]
    assert api.get(roles_url(f"{role['id']}/")).json()["is_default"] is True
    joined = join(api, client, "cy@example.com")
    assert joined["default_role"] == role["id"]
    members = api.get(roles_url(f"{role['id']}/")).json()["members"]
    assert [m["user"]["email"] for m in members] == ["cy@example.com"]
    assert api.delete(roles_url(f"{role['id']}/")).status_code == 204  # the default role goes: the setting clears
    assert api.get("/api/organizations/@current/").json()["default_role_id"] is None
    assert not Role.objects.exists()


def test_default_role_must_be_a_role_of_the_organization(api, boot):
    other, _, _ = __import__("posthog_emulator.models", fromlist=["Organization"]).Organization.objects.bootstrap(
        None, name="Other")
    foreign = Role.objects.create(organization=other, name="Theirs")
    for value in ("not-a-uuid", str(foreign.id)):
        response = api.patch("/api/organizations/@current/", {"default_role_id": value}, format="json")
        assert response.status_code == 400
        assert error(response) == {"type": "validation_error", "code": "does_not_exist", "attr": "default_role_id",
                                   "detail": f'Invalid pk "{value}" - object does not exist.'}  # fmt: skip
    role = create_role(api)
    api.patch("/api/organizations/@current/", {"default_role_id": role["id"]}, format="json")
    cleared = api.patch("/api/organizations/@current/", {"default_role_id": None}, format="json").json()
    assert cleared["default_role_id"] is None


def test_members_can_see_org_members_off_hides_members_from_non_admins(api, boot, client, make_key):
    """Issue 27.5: ``restricted_visible_membership_ids`` / ``get_project_scoped_visible_membership_ids``
    (``products/access_control/backend/facade/subject_access_control.py``, newest PostHog), applied by
    the members list and ``ee/api/rbac/role.py`` (commit 0d954cdcb5378a48eabe45b133870d398edee467):
    with the setting off and the ``access_control`` feature, a member who reaches no open project
    sees only themselves; admins, an open project, the setting on or no feature: everyone."""
    member_key = make_key("member@example.com")[0]
    member = authed(member_key)
    other = join(api, client, "other@example.com")
    role = create_role(api)
    for uuid in (boot.user.uuid, other["user"]["uuid"]):
        api.post(memberships_url(role["id"]), {"user_uuid": str(uuid)}, format="json")
    members = "/api/organizations/@current/members/"

    def seen(client_):
        emails = {m["user"]["email"] for m in client_.get(members).json()["results"]}
        holders = {m["user"]["email"] for m in client_.get(roles_url(f"{role['id']}/")).json()["members"]}
        listed = {m["user"]["email"] for m in client_.get(memberships_url(role["id"])).json()["results"]}
        assert holders == listed
        return emails, holders

    everyone = {"admin@example.com", "member@example.com", "other@example.com"}
    api.patch(f"/api/organizations/{boot.organization.id}/", {"members_can_see_org_members": False}, format="json")
    assert seen(member)[0] == everyone  # no access_control feature: PostHog ignores project rules
    client.put(f"/_emulator/organizations/{boot.organization.id}/features",
               {"features": ["access_control"]}, format="json")
    assert seen(member)[0] == everyone  # the default project is open to every member
    api.patch(f"/api/projects/{boot.project.id}/", {"access_control": True}, format="json")
    assert seen(member) == ({"member@example.com"}, set())  # only private projects: only themselves
    assert seen(api) == (everyone, {"admin@example.com", "other@example.com"})  # admins see all
    api.patch(f"/api/organizations/{boot.organization.id}/", {"members_can_see_org_members": True}, format="json")
    assert seen(member)[0] == everyone
