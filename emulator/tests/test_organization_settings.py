"""Organization settings of PostHog's newest code: ``enforce_verified_domains``, ``logo_media_id``."""

from django.utils import timezone

from posthog_emulator.models import OrganizationDomain
from tests.conftest import error


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
