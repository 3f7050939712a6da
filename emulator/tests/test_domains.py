"""The domains resource (spec 2.4 / 3.3 / 4.3, docs/posthog_facts.md §2) and the DNS control endpoint."""

import re

import pytest

from posthog_emulator import profiles
from posthog_emulator.models import DNSRecord, OrganizationDomain
from tests.conftest import authed, error

DOMAIN_FIELDS = {
    "id", "domain", "is_verified", "verified_at", "verification_challenge", "jit_provisioning_enabled",
    "sso_enforcement", "has_saml", "saml_entity_id", "saml_acs_url", "saml_x509_cert", "has_scim",
    "scim_enabled", "scim_base_url", "scim_bearer_token",
}  # fmt: skip
SAML = {
    "saml_entity_id": "https://idp.example.com/entity",
    "saml_acs_url": "https://idp.example.com/acs",
    "saml_x509_cert": "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
}


def domains_url(organization="@current"):
    return f"/api/organizations/{organization}/domains/"


def create(api, domain="example.com", **fields):
    response = api.post(domains_url(), {"domain": domain, **fields}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def publish(client, name, value):
    return client.post("/_emulator/dns", {"name": name, "value": value}, format="json")


def verify(api, domain_id):
    return api.post(f"{domains_url()}{domain_id}/verify/", format="json")


def verified(api, client, domain="example.com", **fields):
    body = create(api, domain, **fields)
    publish(client, f"_posthog-challenge.{domain}", body["verification_challenge"])
    assert verify(api, body["id"]).json()["is_verified"] is True
    return body


# ------------------------------------------------------------------------------------ create


def test_create_shape_and_defaults(api):
    body = create(api)
    assert set(body) == DOMAIN_FIELDS
    assert body["domain"] == "example.com"
    assert body["is_verified"] is False and body["verified_at"] is None
    assert body["jit_provisioning_enabled"] is False and body["sso_enforcement"] == ""
    assert body["has_saml"] is False
    assert body["saml_entity_id"] is None and body["saml_acs_url"] is None and body["saml_x509_cert"] is None
    assert body["has_scim"] is False and body["scim_enabled"] is False
    assert body["scim_base_url"] is None and body["scim_bearer_token"] is None
    # secrets.token_urlsafe(32): 43 URL-safe characters
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", body["verification_challenge"])


def test_create_ignores_sso_and_read_only_fields_but_stores_saml(api):
    body = create(
        api,
        jit_provisioning_enabled=True,
        sso_enforcement="google-oauth2",
        scim_enabled=True,
        verified_at="2020-01-01T00:00:00Z",
        verification_challenge="mine",
        is_verified=True,
        **SAML,
    )
    assert body["jit_provisioning_enabled"] is False and body["sso_enforcement"] == ""
    assert body["scim_enabled"] is False
    assert body["verified_at"] is None and body["is_verified"] is False
    assert body["verification_challenge"] != "mine"
    assert body["has_saml"] is True
    assert {k: body[k] for k in SAML} == SAML


def test_has_saml_needs_all_three_fields(api):
    body = create(api, saml_entity_id="x", saml_acs_url="https://a")
    assert body["has_saml"] is False
    patched = api.patch(f"{domains_url()}{body['id']}/", {"saml_x509_cert": "cert"}, format="json").json()
    assert patched["has_saml"] is True
    patched = api.patch(f"{domains_url()}{body['id']}/", {"saml_acs_url": ""}, format="json").json()
    assert patched["has_saml"] is False


@pytest.mark.parametrize("domain", ["Example.com", "test@posthog.com", "one.two.c", "--alpha.com", "nodot", ""])
def test_invalid_domains(api, domain):
    response = api.post(domains_url(), {"domain": domain}, format="json")
    assert response.status_code == 400
    body = error(response)
    assert body["attr"] == "domain"
    if domain:
        assert body["code"] == "invalid_input"
        assert body["detail"] == "Please enter a valid domain or subdomain name."


def test_domain_is_required_and_bounded(api):
    response = api.post(domains_url(), {}, format="json")
    assert response.status_code == 400 and error(response)["code"] == "required"
    response = api.post(domains_url(), {"domain": "a" * 125 + ".com"}, format="json")
    assert response.status_code == 400 and error(response)["code"] == "max_length"


@pytest.mark.parametrize("domain", ["example.com", "sub.example.co.uk", "a-b.c-d.io", "x1.example.org"])
def test_valid_domains(api, domain):
    assert create(api, domain)["domain"] == domain


def test_domain_is_globally_unique(api, boot):
    create(api)
    other = api.post("/api/organizations/", {"name": "Other"}, format="json").json()
    response = api.post(domains_url(other["id"]), {"domain": "example.com"}, format="json")
    assert response.status_code == 400
    assert error(response) == {
        "type": "validation_error",
        "code": "unique",
        "detail": "domain with this domain already exists.",
        "attr": "domain",
    }


# ------------------------------------------------------------------------------ list/read


def test_list_ordered_by_domain_and_paginated(api):
    for name in ("zeta.com", "alpha.com", "mid.com"):
        create(api, name)
    body = api.get(domains_url()).json()
    assert set(body) == {"count", "next", "previous", "results"}
    assert [d["domain"] for d in body["results"]] == ["alpha.com", "mid.com", "zeta.com"]
    page = api.get(domains_url(), {"limit": 1, "offset": 1}).json()
    assert page["count"] == 3 and [d["domain"] for d in page["results"]] == ["mid.com"]
    assert page["next"].startswith("http://testserver/api/organizations/@current/domains/")


def test_retrieve_and_no_trailing_slash(api, boot):
    body = create(api)
    got = api.get(f"/api/organizations/{boot.organization.id}/domains/{body['id']}").json()
    assert got == body


def test_other_organization_isolation(api, boot, make_key):
    body = create(api)
    other = api.post("/api/organizations/", {"name": "Other"}, format="json").json()
    # api's user now has Other as current organization: the first org's domain is not there
    response = api.get(f"{domains_url()}{body['id']}/")
    assert response.status_code == 404 and error(response)["code"] == "not_found"
    stranger, _ = make_key("stranger@example.com", organization=other["id"])
    response = authed(stranger).get(domains_url(boot.organization.id))
    assert response.status_code == 403


def test_malformed_and_unknown_ids_are_404(api):
    assert api.get(f"{domains_url()}not-a-uuid/").status_code == 404
    assert api.get(f"{domains_url()}00000000-0000-0000-0000-000000000000/").status_code == 404


# ---------------------------------------------------------------------------- permissions


def test_members_read_admins_write(api, boot, make_key, client):
    body = create(api)
    member, _ = make_key("member@example.com", level="member")
    as_member = authed(member)
    assert as_member.get(domains_url(boot.organization.id)).json()["count"] == 1
    assert as_member.get(f"{domains_url(boot.organization.id)}{body['id']}/").status_code == 200
    attempts = [
        as_member.post(domains_url(boot.organization.id), {"domain": "member.com"}, format="json"),
        as_member.patch(f"{domains_url(boot.organization.id)}{body['id']}/", {"saml_entity_id": "x"}, format="json"),
        as_member.post(f"{domains_url(boot.organization.id)}{body['id']}/verify/"),
        as_member.delete(f"{domains_url(boot.organization.id)}{body['id']}/"),
    ]
    for response in attempts:
        assert response.status_code == 403
        assert error(response)["detail"] == "Your organization access level is insufficient."
    admin, _ = make_key("admin@corp.example.com", level="admin")
    as_admin = authed(admin)
    assert as_admin.post(domains_url(boot.organization.id), {"domain": "admin.com"}, format="json").status_code == 201


def test_scopes(api, boot, make_key):
    body = create(api)
    reader, _ = make_key("reader@example.com", scopes=["organization:read"], level="owner")
    as_reader = authed(reader)
    assert as_reader.get(domains_url(boot.organization.id)).status_code == 200
    response = as_reader.post(domains_url(boot.organization.id), {"domain": "r.com"}, format="json")
    assert response.status_code == 403
    assert error(response)["detail"] == "API key missing required scope 'organization:write'"
    response = as_reader.post(f"{domains_url(boot.organization.id)}{body['id']}/verify/")
    assert response.status_code == 403
    assert error(response)["detail"] == "API key missing required scope 'organization:write'"


def test_verify_refuses_personal_api_keys_in_posthog_profile(api, boot, make_key):
    body = create(api)
    profiles.set_profile("posthog")
    response = verify(api, body["id"])
    assert response.status_code == 403
    assert error(response)["detail"] == "This action does not support Personal API Key access"
    # a legacy key (no scopes) may do anything, as on PostHog
    legacy, _ = make_key(boot.user.email, scopes=[])
    assert authed(legacy).post(f"{domains_url(boot.organization.id)}{body['id']}/verify/").status_code == 200
    # the CRUD routes keep working with a key
    assert api.get(domains_url()).status_code == 200


# ---------------------------------------------------------------------------------- update


def test_domain_is_read_only_after_creation(api):
    body = create(api)
    response = api.patch(f"{domains_url()}{body['id']}/", {"domain": "Not Valid!"}, format="json")
    assert response.status_code == 200 and response.json()["domain"] == "example.com"
    response = api.put(f"{domains_url()}{body['id']}/", {"domain": "other.com", "saml_entity_id": "e"}, format="json")
    assert response.status_code == 200
    assert response.json()["domain"] == "example.com" and response.json()["saml_entity_id"] == "e"


@pytest.mark.parametrize(
    "payload, attr",
    [
        ({"jit_provisioning_enabled": True}, "jit_provisioning_enabled"),
        ({"jit_provisioning_enabled": False}, "jit_provisioning_enabled"),
        ({"sso_enforcement": "google-oauth2"}, "sso_enforcement"),
        ({"sso_enforcement": ""}, "sso_enforcement"),
        ({"scim_enabled": True}, "scim_enabled"),
        (
            {"saml_entity_id": "x", "sso_enforcement": "saml", "jit_provisioning_enabled": True},
            "jit_provisioning_enabled",
        ),
    ],
)
def test_sso_needs_verification(api, payload, attr):
    body = create(api)
    response = api.patch(f"{domains_url()}{body['id']}/", payload, format="json")
    assert response.status_code == 400
    assert error(response) == {
        "type": "validation_error",
        "code": "verification_required",
        "detail": "This attribute cannot be updated until the domain is verified.",
        "attr": attr,
    }
    stored = OrganizationDomain.objects.get(id=body["id"])
    assert stored.saml_entity_id is None and stored.jit_provisioning_enabled is False


def test_sso_settings_once_verified(api, client):
    body = verified(api, client)
    url = f"{domains_url()}{body['id']}/"
    response = api.patch(url, {"jit_provisioning_enabled": True, "sso_enforcement": "saml", **SAML}, format="json")
    assert response.status_code == 200
    got = response.json()
    assert got["jit_provisioning_enabled"] is True and got["sso_enforcement"] == "saml" and got["has_saml"] is True
    # any string of at most 28 characters is accepted (PostHog does not check the provider list)
    assert api.patch(url, {"sso_enforcement": "anything"}, format="json").status_code == 200
    response = api.patch(url, {"sso_enforcement": "x" * 29}, format="json")
    assert response.status_code == 400 and error(response)["attr"] == "sso_enforcement"
    assert api.patch(url, {"sso_enforcement": ""}, format="json").json()["sso_enforcement"] == ""


def test_scim_token_shown_once(api, client):
    body = verified(api, client)
    url = f"{domains_url()}{body['id']}/"
    enabled = api.patch(url, {"scim_enabled": True}, format="json").json()
    assert enabled["scim_enabled"] is True and enabled["has_scim"] is True
    assert enabled["scim_base_url"] == f"http://testserver/scim/v2/{body['id']}"
    assert len(enabled["scim_bearer_token"]) == 43
    again = api.get(url).json()
    assert again["scim_bearer_token"] is None and again["has_scim"] is True
    disabled = api.patch(url, {"scim_enabled": False}, format="json").json()
    assert disabled["has_scim"] is False and disabled["scim_base_url"] is None


# ---------------------------------------------------------------------------------- verify


def test_verify_without_record_answers_unverified(api):
    body = create(api)
    response = verify(api, body["id"])
    assert response.status_code == 200
    assert response.json()["is_verified"] is False and response.json()["verified_at"] is None
    assert OrganizationDomain.objects.get(id=body["id"]).last_verification_retry is not None


def test_verify_with_wrong_record_or_wrong_name(api, client):
    body = create(api)
    publish(client, "_posthog-challenge.example.com", "not-the-challenge")
    publish(client, "example.com", body["verification_challenge"])
    publish(client, "_posthog-challenge.other.com", body["verification_challenge"])
    assert verify(api, body["id"]).json()["is_verified"] is False


def test_verify_flow(api, client):
    body = create(api)
    # fully qualified, mixed case and zone-file quoting are all understood
    response = publish(client, "_posthog-challenge.EXAMPLE.com.", f'"{body["verification_challenge"]}"')
    assert response.status_code == 201
    assert response.json() == {
        "name": "_posthog-challenge.example.com",
        "type": "TXT",
        "value": f'"{body["verification_challenge"]}"',
    }
    publish(client, "_posthog-challenge.example.com", "some-other-txt")
    response = verify(api, body["id"])
    assert response.status_code == 200
    got = response.json()
    assert set(got) == DOMAIN_FIELDS
    assert got["is_verified"] is True and got["verified_at"].endswith("Z")
    assert OrganizationDomain.objects.get(id=body["id"]).last_verification_retry is None
    response = verify(api, body["id"])
    assert response.status_code == 400
    assert error(response) == {
        "type": "validation_error",
        "code": "already_verified",
        "detail": "This domain has already been verified.",
        "attr": None,
    }


def test_verify_spec_profile_allows_a_write_key(boot, api, make_key):
    body = create(api)
    writer, _ = make_key(boot.user.email, scopes=["organization:write"])
    assert authed(writer).post(f"{domains_url(boot.organization.id)}{body['id']}/verify/").status_code == 200


# ---------------------------------------------------------------------------------- delete


def test_delete(api):
    body = create(api)
    response = api.delete(f"{domains_url()}{body['id']}/")
    assert response.status_code == 204 and not response.content
    assert api.get(f"{domains_url()}{body['id']}/").status_code == 404
    assert create(api)["id"] != body["id"]  # the domain is free again


def test_deleting_the_organization_deletes_its_domains(api):
    other = api.post("/api/organizations/", {"name": "Other"}, format="json").json()
    create(api, "other.com")
    api.delete(f"/api/organizations/{other['id']}/")
    assert not OrganizationDomain.objects.filter(domain="other.com").exists()


# ----------------------------------------------------------------------------- DNS control


def test_dns_control_endpoint(boot, client):
    assert publish(client, "_posthog-challenge.a.com", "v1").status_code == 201
    assert publish(client, "_posthog-challenge.a.com", "v1").status_code == 200  # already there
    assert publish(client, "_posthog-challenge.a.com", "v2").status_code == 201
    assert publish(client, "_posthog-challenge.b.com", "v3").status_code == 201
    assert len(client.get("/_emulator/dns").json()) == 3
    assert [r["value"] for r in client.get("/_emulator/dns", {"name": "_posthog-challenge.A.com."}).json()] == [
        "v1",
        "v2",
    ]
    response = client.delete("/_emulator/dns", {"name": "_posthog-challenge.a.com", "value": "v1"}, format="json")
    assert response.status_code == 204
    assert [r["value"] for r in client.get("/_emulator/dns").json()] == ["v2", "v3"]
    assert client.delete("/_emulator/dns?name=_posthog-challenge.b.com").status_code == 204
    assert [r["value"] for r in client.get("/_emulator/dns").json()] == ["v2"]
    assert client.delete("/_emulator/dns").status_code == 204
    assert client.get("/_emulator/dns").json() == []


@pytest.mark.parametrize(
    "payload, attr",
    [({"value": "x"}, "name"), ({"name": "a.com"}, "value"), ({"name": 1, "value": "x"}, "name"),
     ({"name": "a.com", "value": 2}, "value"), ({"name": "a.com", "value": "x", "type": "A"}, "type")],
)  # fmt: skip
def test_dns_control_validation(boot, client, payload, attr):
    response = client.post("/_emulator/dns", payload, format="json")
    assert response.status_code == 400
    assert error(response)["attr"] == attr


def test_dns_records_are_cleared_on_reset(boot, client):
    publish(client, "_posthog-challenge.a.com", "v1")
    assert client.post("/_emulator/reset", {}, format="json").status_code == 200
    assert client.get("/_emulator/dns").json() == []
    assert not DNSRecord.objects.exists()


# ------------------------------------------------------------------ newest generation (docs/posthog_facts.md §2)

NEWEST_DOMAIN_FIELDS = [
    "id", "domain", "is_verified", "verified_at", "verification_challenge", "jit_provisioning_enabled",
    "sso_enforcement", "has_saml", "has_scim", "scim_base_url", "has_id_jag", "identity_provider_config",
]  # fmt: skip


@pytest.fixture
def newest(client):
    response = client.put("/_emulator/generations", {"domains": "newest"}, format="json")
    assert response.status_code == 200


def test_newest_generation_shape_and_order(api, newest):
    body = create(api)
    assert list(body) == NEWEST_DOMAIN_FIELDS
    assert body["has_saml"] is False and body["has_id_jag"] is False and body["identity_provider_config"] is None
    listed = api.get(domains_url()).json()["results"]
    assert [list(obj) for obj in listed] == [NEWEST_DOMAIN_FIELDS]


def test_newest_generation_ignores_saml_and_scim_keys(api, client, newest):
    body = create(api, **SAML)
    assert body["has_saml"] is False
    stored = OrganizationDomain.objects.get(id=body["id"])
    assert stored.saml_entity_id is None and stored.saml_acs_url is None and stored.saml_x509_cert is None
    body = verified(api, client, "login.example.com")
    url = f"{domains_url()}{body['id']}/"
    response = api.patch(url, {"scim_enabled": True, "sso_enforcement": "saml", **SAML}, format="json")
    assert response.status_code == 200, response.content
    got = response.json()
    assert got["sso_enforcement"] == "saml"  # still on the domain
    assert got["has_saml"] is False and got["has_scim"] is False and "scim_bearer_token" not in got
    stored = OrganizationDomain.objects.get(id=body["id"])
    assert stored.scim_enabled is False and stored.saml_entity_id is None


def test_newest_generation_still_gates_sso_on_verification(api, newest):
    body = create(api)
    response = api.patch(f"{domains_url()}{body['id']}/", {"sso_enforcement": "saml"}, format="json")
    assert response.status_code == 400 and error(response)["code"] == "verification_required"


def test_newest_generation_identity_provider_config(api, newest):
    body = create(api)
    url = f"{domains_url()}{body['id']}/"
    assert api.patch(url, {"identity_provider_config": None}, format="json").status_code == 200
    config = "0190a1b2-0000-7000-8000-000000000001"
    response = api.patch(url, {"identity_provider_config": config}, format="json")
    assert response.status_code == 400
    assert error(response)["code"] == "does_not_exist" and error(response)["attr"] == "identity_provider_config"
    assert error(response)["detail"] == f'Invalid pk "{config}" - object does not exist.'


def test_saml_written_in_the_middle_generation_shows_as_has_saml_in_the_newest(api, client):
    body = create(api, **SAML)
    client.put("/_emulator/generations", {"domains": "newest"}, format="json")
    got = api.get(f"{domains_url()}{body['id']}/").json()
    assert got["has_saml"] is True and "saml_entity_id" not in got
