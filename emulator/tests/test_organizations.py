"""The organizations resource (spec 2.2 / 4.1, docs/posthog_facts.md §1)."""

import uuid

import pytest

from posthog_emulator.models import Organization, OrganizationMembership, PersonalAPIKey, Team, User
from tests.conftest import authed, error

ORGANIZATION_FIELDS = {
    "id", "name", "slug", "logo_media_id", "created_at", "updated_at", "membership_level",
    "plugins_access_level", "teams", "projects", "available_product_features",
    "is_member_join_email_enabled", "metadata", "customer_id", "enforce_2fa", "members_can_invite",
    "members_can_use_personal_api_keys", "allow_publicly_shared_resources", "member_count",
    "is_ai_data_processing_approved", "default_experiment_stats_method", "default_role_id",
    "enforce_verified_domains", "members_can_create_projects", "members_can_see_org_members",
    "is_ai_training_opted_in", "default_anonymize_ips", "is_ai_training_locked", "is_ai_training_cta_shown",
    "is_hipaa", "is_active", "is_not_active_reason", "is_pending_deletion",
}  # fmt: skip


def test_retrieve_shape(api, boot):
    body = api.get(f"/api/organizations/{boot.organization.id}/").json()
    assert set(body) == ORGANIZATION_FIELDS
    assert body["name"] == "Emulator Org" and body["slug"] == "emulator-org"
    assert body["membership_level"] == 15
    assert body["plugins_access_level"] == 3
    assert body["member_count"] == 1 and isinstance(body["member_count"], int)
    assert body["metadata"] == {"instance_tag": "none"}
    assert body["available_product_features"] == []
    assert body["is_member_join_email_enabled"] is True
    assert body["enforce_2fa"] is None
    assert body["members_can_invite"] is True
    assert body["members_can_use_personal_api_keys"] is True
    assert body["allow_publicly_shared_resources"] is True
    assert body["is_ai_data_processing_approved"] is None
    assert body["default_experiment_stats_method"] == "bayesian"
    assert body["customer_id"] is None and body["logo_media_id"] is None and body["default_role_id"] is None
    assert body["created_at"].endswith("Z")
    assert [t["id"] for t in body["teams"]] == [boot.project.id]
    assert set(body["teams"][0]) >= {"id", "uuid", "organization", "project_id", "api_token", "name"}
    assert body["teams"][0]["api_token"].startswith("phc_")
    assert body["projects"] == [
        {"id": boot.project.id, "organization_id": str(boot.organization.id), "name": "Default project"}
    ]


def test_member_count_counts_active_humans(api, boot, make_key):
    make_key("second@example.com")
    make_key("bot@posthogbot.user")
    inactive, _ = User.objects.get_or_create_user("gone@example.com")
    inactive.is_active = False
    inactive.save()
    OrganizationMembership.objects.create(organization=boot.organization, user=inactive)
    assert api.get("/api/organizations/@current/").json()["member_count"] == 2


def test_create(api, boot):
    response = api.post(
        "/api/organizations/",
        {"name": "Acme Corp", "enforce_2fa": True, "plugins_access_level": 9, "slug": "ignored"},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert set(body) == ORGANIZATION_FIELDS
    assert body["name"] == "Acme Corp" and body["slug"] == "acme-corp"
    assert body["enforce_2fa"] is True
    assert body["plugins_access_level"] == 3  # read-only: ignored when sent
    assert body["membership_level"] == 15
    assert [t["name"] for t in body["teams"]] == ["Default project"]
    organization = Organization.objects.get(id=body["id"])
    assert OrganizationMembership.objects.get(organization=organization, user=boot.user).level == 15
    boot.user.refresh_from_db()
    assert boot.user.current_organization_id == organization.id
    assert boot.user.current_team == organization.teams.get()
    assert api.get("/api/organizations/@current/").json()["id"] == body["id"]


def test_slug_generation_and_collision(api):
    first = api.post("/api/organizations/", {"name": "Emulator Org"}, format="json").json()
    assert first["slug"].startswith("emulator-org-") and len(first["slug"]) == len("emulator-org-") + 4
    assert first["slug"][-4:].isalpha() and first["slug"][-4:].islower()
    long_name = "A very long organization name that is longer than 48"  # 52 characters
    one = api.post("/api/organizations/", {"name": long_name}, format="json").json()
    assert one["slug"] == "a-very-long-organization-name-that-is-longer-tha"  # cut to 48
    two = api.post("/api/organizations/", {"name": long_name}, format="json").json()
    assert two["slug"][:43] == one["slug"][:43] and two["slug"][43] == "-" and len(two["slug"]) == 48


@pytest.mark.parametrize(
    ("payload", "code", "detail"),
    [
        ({}, "required", "This field is required."),
        ({"name": ""}, "blank", "This field may not be blank."),
        ({"name": "x" * 65}, "max_length", "Ensure this field has no more than 64 characters."),
        ({"name": None}, "null", "This field may not be null."),
    ],
)
def test_create_name_validation(api, payload, code, detail):
    response = api.post("/api/organizations/", payload, format="json")
    assert response.status_code == 400
    assert error(response) == {"type": "validation_error", "code": code, "detail": detail, "attr": "name"}


def test_invalid_choice_and_media(api):
    response = api.patch("/api/organizations/@current/", {"default_experiment_stats_method": "magic"}, format="json")
    assert error(response) == {
        "type": "validation_error",
        "code": "invalid_choice",
        "detail": '"magic" is not a valid choice.',
        "attr": "default_experiment_stats_method",
    }
    media = str(uuid.uuid4())
    response = api.patch("/api/organizations/@current/", {"logo_media_id": media}, format="json")
    assert error(response) == {
        "type": "validation_error",
        "code": "does_not_exist",
        "detail": f'Invalid pk "{media}" - object does not exist.',
        "attr": "logo_media_id",
    }
    response = api.patch("/api/organizations/@current/", {"enforce_2fa": "maybe"}, format="json")
    assert error(response)["code"] == "invalid_input" and error(response)["attr"] == "enforce_2fa"


def test_update_writable_fields(api, boot):
    payload = {
        "name": "Renamed",
        "is_member_join_email_enabled": False,
        "enforce_2fa": True,
        "members_can_invite": False,
        "members_can_use_personal_api_keys": False,
        "allow_publicly_shared_resources": False,
        "is_ai_data_processing_approved": True,
        "default_experiment_stats_method": "frequentist",
        "logo_media_id": None,
        "slug": "not-writable",
        "member_count": "99",
    }
    response = api.patch(f"/api/organizations/{boot.organization.id}", payload, format="json")
    assert response.status_code == 200
    body = response.json()
    for field in set(payload) - {"slug", "member_count"}:
        assert body[field] == payload[field], field
    assert body["slug"] == "emulator-org" and body["member_count"] == 1
    assert api.get("/api/organizations/@current").json()["name"] == "Renamed"


def test_put_requires_name(api):
    response = api.put("/api/organizations/@current/", {"enforce_2fa": True}, format="json")
    assert error(response)["code"] == "required" and error(response)["attr"] == "name"
    assert api.put("/api/organizations/@current/", {"name": "Put"}, format="json").status_code == 200


def test_update_needs_admin(boot, make_key):
    member, _ = make_key("member@example.com", level="member")
    response = authed(member).patch("/api/organizations/@current/", {"name": "Nope"}, format="json")
    assert response.status_code == 403
    assert error(response) == {
        "type": "authentication_error",
        "code": "permission_denied",
        "detail": "Your organization access level is insufficient.",
        "attr": None,
    }
    admin, _ = make_key("admin@corp.example", level="admin")
    assert authed(admin).patch("/api/organizations/@current/", {"name": "Yes"}, format="json").status_code == 200


def test_member_can_read(boot, make_key):
    member, _ = make_key("member@example.com", level="member")
    body = authed(member).get(f"/api/organizations/{boot.organization.id}/").json()
    assert body["membership_level"] == 1


def test_delete_needs_owner(boot, make_key):
    admin, _ = make_key("admin@corp.example", level="admin")
    response = authed(admin).delete(f"/api/organizations/{boot.organization.id}/")
    assert response.status_code == 403
    assert error(response)["detail"] == "Your organization access level is insufficient."
    assert Organization.objects.filter(id=boot.organization.id).exists()


def test_delete_by_owner(api, boot, make_key):
    second = api.post("/api/organizations/", {"name": "Second"}, format="json").json()
    member, _ = make_key("member@example.com", organization=second["id"])  # current org: Second
    response = api.delete(f"/api/organizations/{second['id']}/")
    assert response.status_code == 204
    assert response.content == b""
    assert not Organization.objects.filter(id=second["id"]).exists()
    assert not Team.objects.filter(organization_id=second["id"]).exists()
    assert not OrganizationMembership.objects.filter(organization_id=second["id"]).exists()
    boot.user.refresh_from_db()
    assert boot.user.current_organization_id == boot.organization.id  # moved to the remaining org
    assert boot.user.current_team_id == boot.project.id
    member_user = User.objects.get(email="member@example.com")
    assert member_user.current_organization is None  # no membership left
    assert api.get(f"/api/organizations/{second['id']}/").status_code == 404


def test_deleting_the_last_organization_then_listing(api, boot):
    assert api.delete(f"/api/organizations/{boot.organization.id}/").status_code == 204
    response = api.get("/api/organizations/")
    assert response.status_code == 404
    assert error(response)["detail"] == "You need to belong to an organization."
    response = api.get("/api/organizations/@current/")
    assert error(response)["detail"] == "Current organization not found."


@pytest.mark.parametrize("method", ["get", "patch", "delete"])
def test_non_member_and_unknown_ids_are_404(api, method):
    foreign, _, _ = Organization.objects.bootstrap(None, name="Foreign")
    for org_id in (foreign.id, uuid.uuid4(), "not-a-uuid"):
        response = getattr(api, method)(f"/api/organizations/{org_id}/", {}, format="json")
        assert response.status_code == 404, (org_id, response.content)
        assert error(response) == {"type": "invalid_request", "code": "not_found", "detail": "Not found.", "attr": None}
    assert Organization.objects.filter(id=foreign.id).exists()


def test_list_only_shows_memberships(api, boot):
    Organization.objects.bootstrap(None, name="Foreign")
    names = [o["name"] for o in api.get("/api/organizations/").json()["results"]]
    assert names == ["Emulator Org"]


def test_user_without_organization_cannot_list(boot):
    lonely = User.objects.create(email="lonely@example.com")
    _, raw = PersonalAPIKey.objects.issue(lonely)
    response = authed(raw).get("/api/organizations/")
    assert response.status_code == 404
    assert error(response)["detail"] == "You need to belong to an organization."
    # ...but can create one, and is its owner
    response = authed(raw).post("/api/organizations/", {"name": "Fresh start"}, format="json")
    assert response.status_code == 201 and response.json()["membership_level"] == 15
