"""Identity provider configurations (newest generation) and their link to domains."""

import pytest
from django.utils import timezone

from posthog_emulator import generations, profiles
from posthog_emulator.models import OrganizationDomain
from tests.conftest import authed, error

SAML = {"saml_entity_id": "https://idp.example.com/entity", "saml_acs_url": "https://idp.example.com/sso",
        "saml_x509_cert": "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"}
FIELDS = {
    "id", "name", "domain_scope", "config_scope", "organization_domain_ids", "created_at", "updated_at", "has_saml",
    "has_oidc", "has_oidc_client_secret", "oidc_issuer_url", "oidc_client_id", "saml_relay_state", "saml_entity_id",
    "saml_acs_url", "saml_x509_cert", "has_scim", "scim_enabled", "scim_base_url", "scim_bearer_token", "has_id_jag",
    "id_jag_issuer_url", "id_jag_jwks_url", "id_jag_allowed_clients",
}  # fmt: skip


PAID = ("oidc", "scim", "xaa_authentication")


@pytest.fixture(autouse=True)
def _newest():
    generations.update({"identity_providers": "newest", "domains": "newest"})


@pytest.fixture(autouse=True)
def _plan(boot):
    """The bootstrap organization on a plan with OIDC, SCIM and ID-JAG (tests of the gates take
    them away)."""
    grant(boot, *PAID)


def grant(boot, *features):
    boot.organization.available_product_features = [{"key": key, "name": key} for key in features]
    boot.organization.save(update_fields=["available_product_features"])


def url(boot, suffix=""):
    return f"/api/organizations/{boot.organization.id}/identity_provider_configs/{suffix}"


def verified_domain(boot, name="example.com"):
    return OrganizationDomain.objects.create(organization=boot.organization, domain=name, verified_at=timezone.now())


def test_absent_in_the_spec_profile_default(api, boot, client):
    generations.restore_defaults()
    response = client.get(url(boot))
    assert response.status_code == 404 and error(response)["detail"] == "Endpoint not found."
    profiles.set_profile("posthog")
    assert api.get(url(boot)).status_code == 200


def test_saml_config_on_a_verified_domain(api, boot):
    domain = verified_domain(boot)
    response = api.post(url(boot), {"name": "Okta", "config_scope": "saml", "organization_domain_ids": [str(domain.id)],
                                     **SAML}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) == FIELDS
    assert body["has_saml"] is True and body["organization_domain_ids"] == [str(domain.id)]
    assert body["saml_relay_state"] and body["scim_bearer_token"] is None
    linked = api.get(f"/api/organizations/{boot.organization.id}/domains/{domain.id}/").json()
    assert linked["identity_provider_config"] == body["id"] and linked["has_saml"] is True
    assert "saml_entity_id" not in linked


def test_overlapping_saml_configs_are_refused(api, boot):
    domain = verified_domain(boot)
    api.post(url(boot), {"name": "A", "config_scope": "saml", "organization_domain_ids": [str(domain.id)], **SAML},
             format="json")
    response = api.post(url(boot), {"name": "B", "config_scope": "saml", "organization_domain_ids": [str(domain.id)],
                                    **SAML}, format="json")
    assert response.status_code == 400 and error(response)["attr"] == "domain_scope"
    assert error(response)["detail"].startswith("This SAML configuration overlaps with another SAML configuration")
    other = verified_domain(boot, "other.com")
    ok = api.post(url(boot), {"name": "B", "config_scope": "saml", "organization_domain_ids": [str(other.id)], **SAML},
                  format="json")
    assert ok.status_code == 201


def test_oidc_secret_is_write_only(api, boot):
    body = {"name": "OIDC", "config_scope": "oidc", "oidc_issuer_url": "https://login.example.com",
            "oidc_client_id": "posthog", "oidc_client_secret": "oidc-top-secret"}
    response = api.post(url(boot), body, format="json")
    assert response.status_code == 201, response.content
    assert "oidc-top-secret" not in response.content.decode()
    assert response.json()["has_oidc"] is True and response.json()["has_oidc_client_secret"] is True
    cleared = api.patch(url(boot, f"{response.json()['id']}/"), {"oidc_client_secret": ""}, format="json").json()
    assert cleared["has_oidc_client_secret"] is False
    wrong = api.post(url(boot), {**body, "config_scope": "saml"}, format="json")
    assert error(wrong)["attr"] == "config_scope" and error(wrong)["detail"] == "Use an OIDC configuration for OIDC settings."
    insecure = api.post(url(boot), {**body, "oidc_issuer_url": "http://login.example.com"}, format="json")
    assert error(insecure)["detail"] == "Use an HTTPS issuer URL without credentials, a query, or a fragment."


def test_scim_token_shown_once_and_regenerated(api, boot, make_key):
    created = api.post(url(boot), {"name": "SCIM", "config_scope": "scim", "scim_enabled": True}, format="json").json()
    token = created["scim_bearer_token"]
    assert token and created["has_scim"] is True and created["scim_base_url"].startswith("http")
    assert api.get(url(boot, f"{created['id']}/")).json()["scim_bearer_token"] is None
    # scim/token has no scope mapping: the spec profile asks for organization:write, PostHog refuses keys
    regenerated = api.post(url(boot, f"{created['id']}/scim/token/"), format="json")
    assert regenerated.status_code == 200 and regenerated.json()["scim_bearer_token"] != token
    profiles.set_profile("posthog")
    refused = api.post(url(boot, f"{created['id']}/scim/token/"), format="json")
    assert refused.status_code == 403
    legacy = authed(make_key("legacy@example.com", scopes=[], level="admin")[0])
    assert legacy.post(url(boot, f"{created['id']}/scim/token/"), format="json").status_code == 200
    off = api.patch(url(boot, f"{created['id']}/"), {"scim_enabled": False}, format="json").json()
    assert off["has_scim"] is False
    assert legacy.post(url(boot, f"{created['id']}/scim/token/"), format="json").json() == {
        "detail": "SCIM is not enabled for this config"}


def test_admin_only_and_delete_needs_a_scope(api, boot, make_key):
    member = authed(make_key("member@example.com", level="member")[0])
    assert member.get(url(boot)).status_code == 200
    response = member.post(url(boot), {"name": "x", "config_scope": "saml"}, format="json")
    assert response.status_code == 403
    unscoped = api.post(url(boot), {"name": "Unscoped"}, format="json").json()
    response = api.delete(url(boot, f"{unscoped['id']}/"))
    assert response.status_code == 400 and error(response)["code"] == "unscoped_config"
    scoped = api.post(url(boot), {"name": "Scoped", "config_scope": "saml"}, format="json").json()
    assert api.delete(url(boot, f"{scoped['id']}/")).status_code == 204


def test_domains_of_another_organization_are_refused(api, boot, make_key):
    _, other = make_key("owner@other.example", organization="Other org", level="owner")
    from posthog_emulator.models import Organization

    foreign = OrganizationDomain.objects.create(organization=Organization.objects.get(id=other["organization"]["id"]),
                                                domain="foreign.com")
    response = api.post(url(boot), {"name": "x", "organization_domain_ids": [str(foreign.id)]}, format="json")
    assert response.status_code == 400 and error(response)["code"] == "does_not_exist"


def test_domain_links_a_config_through_identity_provider_config(api, boot):
    domain = verified_domain(boot)
    config = api.post(url(boot), {"name": "Okta", "config_scope": "saml", **SAML}, format="json").json()
    domains = f"/api/organizations/{boot.organization.id}/domains/{domain.id}/"
    linked = api.patch(domains, {"identity_provider_config": config["id"]}, format="json")
    assert linked.status_code == 200 and linked.json()["identity_provider_config"] == config["id"]
    assert api.get(url(boot, f"{config['id']}/")).json()["organization_domain_ids"] == [str(domain.id)]
    response = api.patch(domains, {"identity_provider_config": "00000000-0000-0000-0000-000000000000"}, format="json")
    assert response.status_code == 400 and error(response)["code"] == "does_not_exist"
    assert api.patch(domains, {"identity_provider_config": None}, format="json").json()["identity_provider_config"] is None


# Issue 27.3, 27.4, 27.9: read in PostHog's newest posthog/api/identity_provider_config.py (the
# version with domain_scope/config_scope and the scim/logs action), posthog/api/scim_request_log.py
# (commit 2ff7bd7e2d6782f3733f1932b328ce22669da848) and posthog/security/url_validation.py
# (commit 14ed102f3c6c6daca65a4446e157bedf444743cf).
OIDC = {"name": "OIDC", "config_scope": "oidc", "oidc_issuer_url": "https://login.example.com",
        "oidc_client_id": "posthog", "oidc_client_secret": "s3cret"}


@pytest.mark.parametrize("body, attr, detail", [
    (OIDC, "oidc_issuer_url", "OIDC is not available for this organization."),
    ({"name": "SCIM", "config_scope": "scim", "scim_enabled": False}, "scim_enabled",
     "SCIM provisioning is not available for this organization."),
    ({"name": "XAA", "config_scope": "xaa", "id_jag_issuer_url": "https://idp.example.com"}, "id_jag_issuer_url",
     "XAA (ID-JAG) is not available for this organization."),
])
def test_paid_protocols_need_their_feature(api, boot, body, attr, detail):
    """``IdentityProviderConfigSerializer.validate``: 400 ``feature_not_available`` per protocol (any
    ``scim_enabled`` value, false included); SAML is not gated."""
    grant(boot)
    response = api.post(url(boot), body, format="json")
    assert response.status_code == 400
    assert error(response) == {"type": "validation_error", "code": "feature_not_available", "attr": attr,
                               "detail": detail}
    assert api.post(url(boot), {"name": "SAML", "config_scope": "saml", **SAML}, format="json").status_code == 201
    grant(boot, *PAID)
    assert api.post(url(boot), body, format="json").status_code == 201


def test_scim_token_needs_the_scim_feature(api, boot):
    """``scim_token``: 403 "SCIM is not available for this organization" before the "not enabled" 400."""
    created = api.post(url(boot), {"name": "SCIM", "config_scope": "scim", "scim_enabled": True}, format="json").json()
    grant(boot)
    response = api.post(url(boot, f"{created['id']}/scim/token/"), format="json")
    assert response.status_code == 403 and error(response)["detail"] == "SCIM is not available for this organization"


@pytest.mark.parametrize("address, reason", [
    ("https://127.0.0.1", "Local/Loopback host not allowed"),
    ("https://localhost/tenant", "Local/Loopback host not allowed"),
    ("https://169.254.169.254", "Local/metadata host"),
    ("https://idp.corp", "Internal domain pattern blocked: .corp"),
    ("https://10.0.0.1", "Private IP address not allowed"),
    ("https://[::ffff:192.168.0.1]", "Private IP address not allowed"),
    ("https://100.64.0.1", "Private IP address not allowed"),
])
def test_internal_addresses_are_not_allowed(api, boot, address, reason):
    """``validate_oidc_issuer_url`` and ``_validate_id_jag_url`` call ``is_url_allowed``."""
    response = api.post(url(boot), {**OIDC, "oidc_issuer_url": address}, format="json")
    assert error(response) == {"type": "validation_error", "code": "invalid_input", "attr": "oidc_issuer_url",
                               "detail": f"URL is not allowed: {reason}"}
    for field in ("id_jag_issuer_url", "id_jag_jwks_url"):
        body = {"name": "XAA", "config_scope": "xaa", field: address.replace("https", "http")}
        response = api.post(url(boot), body, format="json")
        assert error(response)["attr"] == field and error(response)["detail"] == f"URL is not allowed: {reason}"
    assert api.post(url(boot), {**OIDC, "oidc_issuer_url": "https://login.example.com/v2.0"},
                    format="json").status_code == 201


def test_scim_logs_are_served_to_admins(api, boot, make_key):
    """``scim_logs`` (detail GET ``scim/logs``): members get 403, admins a page of the log
    (``SCIMRequestLogPagination``, 20 a page); no scope mapping, so PostHog refuses keys."""
    created = api.post(url(boot), {"name": "SCIM", "config_scope": "scim", "scim_enabled": True}, format="json").json()
    logs = url(boot, f"{created['id']}/scim/logs/")
    response = api.get(logs)
    assert response.status_code == 200 and response.json() == {"count": 0, "next": None, "previous": None,
                                                               "results": []}
    member = authed(make_key("member@example.com", level="member")[0])
    response = member.get(logs)
    assert response.status_code == 403 and error(response)["detail"] == "Only organization admins can view SCIM logs."
    assert api.get(url(boot, "01900000-0000-7000-8000-000000000001/scim/logs/")).status_code == 404
    profiles.set_profile("posthog")
    assert error(api.get(logs))["detail"] == "This action does not support Personal API Key access"
    legacy = authed(make_key("legacy@example.com", scopes=[], level="admin")[0])
    assert legacy.get(logs).status_code == 200
