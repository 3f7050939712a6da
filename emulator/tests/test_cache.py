"""The caches (posthog_emulator.cache, posthog_emulator.responses) never answer stale data: a
revoked key, a removed membership, changed scopes or any other write takes effect on the next
request, whichever way it was written (ORM save, queryset update, delete, the API, the control
API, a reset)."""

from django.db import connection

from posthog_emulator import cache
from posthog_emulator.models import OrganizationDomain, OrganizationMembership, PersonalAPIKey, User
from tests.conftest import BOOTSTRAP_KEY, authed, error

DOMAINS = "/api/organizations/@current/domains/"


def test_a_revoked_key_is_refused_on_the_next_request(api, boot):
    assert api.get(DOMAINS).status_code == 200
    assert api.get(DOMAINS).status_code == 200  # now answered from the caches
    PersonalAPIKey.objects.filter(user=boot.user).delete()
    response = api.get(DOMAINS)
    assert response.status_code == 401
    assert error(response)["code"] == "authentication_failed"


def test_changed_scopes_apply_on_the_next_request(api, boot):
    assert api.get(DOMAINS).status_code == 200
    assert api.get(DOMAINS).status_code == 200
    PersonalAPIKey.objects.filter(user=boot.user).update(scopes=["project:read"])  # no signals
    response = api.get(DOMAINS)
    assert response.status_code == 403
    assert error(response)["detail"] == "API key missing required scope 'organization:read'"
    PersonalAPIKey.objects.filter(user=boot.user).update(scopes=["organization:read"])
    assert api.get(DOMAINS).status_code == 200


def test_scoped_organizations_apply_on_the_next_request(api, boot):
    assert api.get(DOMAINS).status_code == 200
    PersonalAPIKey.objects.filter(user=boot.user).update(scoped_organizations=["01234567-89ab-cdef-0123-456789abcdef"])
    assert api.get(DOMAINS).status_code == 403


def test_a_removed_membership_applies_on_the_next_request(make_key, boot, api):
    key, body = make_key("leaver@example.com", level="admin")
    client = authed(key)
    url = f"/api/organizations/{boot.organization.id}/domains/"
    assert client.get(url).status_code == 200
    assert client.get(url).status_code == 200
    assert api.delete(f"/api/organizations/{boot.organization.id}/members/{body['user']['uuid']}/").status_code == 204
    assert client.get(url).status_code == 403


def test_a_changed_level_applies_on_the_next_request(make_key, boot):
    key, body = make_key("admin2@example.com", level="admin")
    client = authed(key)
    url = f"/api/organizations/{boot.organization.id}/domains/"
    assert client.post(url, {"domain": "one.example.com"}, format="json").status_code == 201
    OrganizationMembership.objects.filter(user__email="admin2@example.com").update(level=1)
    response = client.post(url, {"domain": "two.example.com"}, format="json")
    assert response.status_code == 403
    assert error(response)["detail"] == "Your organization access level is insufficient."


def test_a_deactivated_user_is_refused_on_the_next_request(api, boot):
    assert api.get(DOMAINS).status_code == 200
    User.objects.filter(id=boot.user.id).update(is_active=False)
    assert api.get(DOMAINS).status_code == 401


def test_a_page_changes_with_the_data_behind_it(api, boot):
    api.post(DOMAINS, {"domain": "a.example.com"}, format="json")
    assert api.get(DOMAINS).json()["count"] == 1
    assert api.get(DOMAINS).json()["count"] == 1
    OrganizationDomain.objects.create(organization=boot.organization, domain="b.example.com",
                                      verification_challenge="x")
    assert api.get(DOMAINS).json()["count"] == 2
    OrganizationDomain.objects.filter(domain="a.example.com").update(saml_entity_id="changed")
    results = api.get(DOMAINS).json()["results"]
    assert results[0]["saml_entity_id"] == "changed"


def test_an_organization_change_shows_at_once(api, boot):
    assert api.get("/api/organizations/@current/").json()["name"] == "Emulator Org"
    type(boot.organization).objects.filter(id=boot.organization.id).update(name="Renamed")
    assert api.get("/api/organizations/@current/").json()["name"] == "Renamed"


def test_the_response_profile_and_generation_are_part_of_the_answer(api, boot, client):
    api.post(DOMAINS, {"domain": "a.example.com"}, format="json")
    assert "saml_entity_id" in api.get(DOMAINS).json()["results"][0]
    assert client.put("/_emulator/generations", {"domains": "newest"}, format="json").status_code == 200
    assert "saml_entity_id" not in api.get(DOMAINS).json()["results"][0]


def test_reset_forgets_every_cached_key(client, boot):
    api = authed(BOOTSTRAP_KEY)
    assert api.get(DOMAINS).status_code == 200
    assert client.post("/_emulator/reset", {"api_key": "phx_" + "n" * 40}, format="json").status_code == 200
    assert api.get(DOMAINS).status_code == 401
    assert authed("phx_" + "n" * 40).get(DOMAINS).status_code == 200


def test_invite_expiry_follows_the_clock(api, boot, client):
    """Answers that read the emulator clock are never reused."""
    api.post("/api/organizations/@current/invites/", {"target_email": "x@example.com"}, format="json")
    assert api.get("/api/organizations/@current/invites/").json()["results"][0]["is_expired"] is False
    client.post("/_emulator/clock", {"advance_days": 4}, format="json")
    assert api.get("/api/organizations/@current/invites/").json()["results"][0]["is_expired"] is True


def test_a_cached_answer_is_the_same_bytes(api, boot):
    api.post(DOMAINS, {"domain": "a.example.com"}, format="json")
    first = api.get(DOMAINS + "?limit=5")
    second = api.get(DOMAINS + "?limit=5")
    assert first.content == second.content
    assert dict(first.headers) == dict(second.headers)


def test_every_write_statement_bumps_its_table(db):
    table = User._meta.db_table
    (before,) = cache.versions([table])
    with connection.cursor() as cursor:
        cursor.execute(f'UPDATE "{table}" SET first_name = first_name WHERE id = -1')
    assert cache.versions([table])[0] > before


def test_a_setting_the_answer_read_invalidates_it(api, boot, client):
    """The plugin list depends on plugins_access_level (an organization column)."""
    url = "/api/organizations/@current/pipeline_destinations/"
    assert api.get(url).status_code == 200
    assert api.get(url).status_code == 200
    client.put(f"/_emulator/organizations/{boot.organization.id}/plugins_access_level",
               {"plugins_access_level": 0}, format="json")
    assert api.get(url).status_code == 403


def test_a_settings_change_keeps_pages_that_only_needed_the_organization(api, boot, monkeypatch):
    """A domain list under @current depends on the organization existing, not on its settings."""
    api.post(DOMAINS, {"domain": "kept.example.com"}, format="json")
    first = api.get(DOMAINS)
    assert api.patch("/api/organizations/@current/", {"enforce_2fa": True}, format="json").status_code == 200
    from posthog_emulator import responses

    computed = []
    original = responses._compute
    monkeypatch.setattr(responses, "_compute", lambda *a: computed.append(1) or original(*a))
    assert api.get(DOMAINS).content == first.content
    assert computed == []  # served from the cache


def test_a_deleted_organization_invalidates_its_pages(api, boot, make_key):
    key, _ = make_key("owner2@example.com")
    other = authed(key).post("/api/organizations/", {"name": "Short-lived"}, format="json").json()
    client2 = authed(key)
    url = f"/api/organizations/{other['id']}/domains/"
    assert client2.get(url).status_code == 200
    assert client2.get(url).status_code == 200
    assert client2.delete(f"/api/organizations/{other['id']}/").status_code == 204
    assert client2.get(url).status_code == 404


def test_member_count_and_projects_follow_the_data(api, boot, make_key):
    url = "/api/organizations/@current/"
    first = api.patch(url, {"enforce_2fa": True}, format="json").json()
    assert first["member_count"] == 1 and len(first["teams"]) == len(first["projects"]) == 1
    make_key("joiner@example.com")
    from posthog_emulator.models import Team

    Team.objects.create(organization=boot.organization, name="Second")
    after = api.patch(url, {"enforce_2fa": False}, format="json").json()
    assert after["member_count"] == 2
    assert [t["name"] for t in after["teams"]] == ["Default project", "Second"]
    assert [p["name"] for p in after["projects"]] == ["Default project", "Second"]
    User.objects.filter(email="joiner@example.com").update(is_active=False)
    assert api.get(url).json()["member_count"] == 1


def test_the_cached_organization_is_a_plain_organization_once_read(api, boot):
    from posthog_emulator import cache as cache_module
    from posthog_emulator.models import CachedOrganization, Organization

    found = cache_module.organization(boot.organization.id)
    assert type(found) is CachedOrganization and found == boot.organization
    assert found.name == "Emulator Org"
    assert type(found) is Organization  # the dependency is recorded once, then normal speed
    found.enforce_2fa = True
    found.save()
    assert Organization.objects.get(id=boot.organization.id).enforce_2fa is True
    assert cache_module.organization(boot.organization.id).enforce_2fa is True


def test_a_new_member_cannot_be_invited_again_at_once(api, boot, client):
    invites = "/api/organizations/@current/invites/"
    assert api.post(invites, {"target_email": "new@example.com"}, format="json").status_code == 201
    assert client.post("/_emulator/invites/accept", {"email": "new@example.com"}, format="json").status_code == 200
    response = api.post(invites, {"target_email": "new@Example.com"}, format="json")  # the domain is lower-cased
    assert response.status_code == 400
    assert error(response)["detail"] == "A user with this email address already belongs to the organization."
    User.objects.filter(email="new@example.com").update(email="renamed@example.com")
    assert api.post(invites, {"target_email": "new@example.com"}, format="json").status_code == 201
    assert api.post(invites, {"target_email": "renamed@EXAMPLE.com"}, format="json").status_code == 400
    # PostHog's check is exact (user__email=): another case of the local part is someone else
    assert api.post(invites, {"target_email": "Renamed@example.com"}, format="json").status_code == 201
