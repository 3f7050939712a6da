"""Organization settings of PostHog's newest code: ``enforce_verified_domains``, ``logo_media_id``."""

from django.utils import timezone

from posthog_emulator.models import OrganizationDomain
from tests.conftest import authed, error


def org_url(boot):
    return f"/api/organizations/{boot.organization.id}/"


def test_enforce_verified_domains_needs_the_requesters_domain(api, boot):
    response = api.patch(org_url(boot), {"enforce_verified_domains": True}, format="json")
    assert response.status_code == 400 and error(response)["attr"] == "enforce_verified_domains"
    assert error(response)["detail"] == "Verify at least one domain to enable this setting"
    OrganizationDomain.objects.create(organization=boot.organization, domain="other.com", verified_at=timezone.now())
    response = api.patch(org_url(boot), {"enforce_verified_domains": True}, format="json")
    assert error(response)["detail"] == ("Verify the domain of your own email address first, otherwise this would "
                                         "lock you out")
    own = OrganizationDomain.objects.create(organization=boot.organization, domain="example.com",
                                            verified_at=timezone.now())
    response = api.patch(org_url(boot), {"enforce_verified_domains": True}, format="json")
    assert response.status_code == 200 and response.json()["enforce_verified_domains"] is True
    # deleting the domain that admits the requester is refused while the restriction is on
    response = api.delete(f"/api/organizations/{boot.organization.id}/domains/{own.id}/")
    assert response.status_code == 400 and error(response)["code"] == "would_block_self"
    assert api.patch(org_url(boot), {"enforce_verified_domains": False}, format="json").status_code == 200
    assert api.delete(f"/api/organizations/{boot.organization.id}/domains/{own.id}/").status_code == 204


def test_logo_media_id_names_uploaded_media(api, boot, client):
    unknown = api.patch(org_url(boot), {"logo_media_id": "01900000-0000-7000-8000-000000000001"}, format="json")
    assert unknown.status_code == 400 and error(unknown)["code"] == "does_not_exist"
    media = client.post(f"/_emulator/organizations/{boot.organization.slug}/media", {}, format="json")
    assert media.status_code == 201
    response = api.patch(org_url(boot), {"logo_media_id": media.json()["id"]}, format="json")
    assert response.status_code == 200 and response.json()["logo_media_id"] == media.json()["id"]
    assert api.patch(org_url(boot), {"logo_media_id": None}, format="json").json()["logo_media_id"] is None


# Issue 27.2. PostHog's newest OrganizationSerializer (its generated API schema, frontend
# ``generated/api.zod.ts`` of late 2026; model defaults from the squash migration beside
# ``posthog/migrations/1262_organization_members_can_see_org_members.py``) returns these settings;
# the first four are writable, the others read-only.
WRITABLE_DEFAULTS = {
    "members_can_create_projects": False,
    "members_can_see_org_members": True,
    "is_ai_training_opted_in": True,
    "default_anonymize_ips": False,
}
READ_ONLY_DEFAULTS = {
    "is_ai_training_locked": False,
    "is_ai_training_cta_shown": True,
    "is_hipaa": False,
    "is_active": True,
    "is_not_active_reason": None,
    "is_pending_deletion": False,
}


def test_newer_settings_are_stored_and_read_only_ones_ignored(api, boot):
    body = api.get(org_url(boot)).json()
    assert {k: body[k] for k in WRITABLE_DEFAULTS} == WRITABLE_DEFAULTS
    assert {k: body[k] for k in READ_ONLY_DEFAULTS} == READ_ONLY_DEFAULTS
    flipped = {k: not v for k, v in WRITABLE_DEFAULTS.items()}
    response = api.patch(org_url(boot), flipped, format="json")
    assert response.status_code == 200
    assert {k: response.json()[k] for k in flipped} == flipped
    assert {k: api.get(org_url(boot)).json()[k] for k in flipped} == flipped  # stored
    response = api.patch(org_url(boot), {"is_hipaa": True, "is_active": False, "is_pending_deletion": True,
                                         "is_ai_training_locked": True}, format="json")
    assert response.status_code == 200
    assert {k: response.json()[k] for k in READ_ONLY_DEFAULTS} == READ_ONLY_DEFAULTS


def test_members_can_create_projects_lets_members_create(api, boot, make_key, client):
    """``UserCanCreateProjectPermission`` (``posthog/permissions.py``): with the setting on (and the
    ``organization_invite_settings`` feature) a member creates projects; off, 403."""
    client.put(f"/_emulator/organizations/{boot.organization.id}/features",
               {"available_product_features": ["organization_invite_settings", "organizations_projects"]},
               format="json")
    member = authed(make_key("member@example.com")[0])
    url = f"/api/organizations/{boot.organization.id}/projects/"
    assert member.post(url, {"name": "Mine"}, format="json").status_code == 403
    api.patch(org_url(boot), {"members_can_create_projects": True}, format="json")
    assert member.post(url, {"name": "Mine"}, format="json").status_code == 201
