# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.identity_provider_config and identity_provider_config_info through main()."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules import identity_provider_config, identity_provider_config_info
from ansible_collections.posthog.admin.tests.unit.conftest import page

ORG = "0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f"
CONFIGS = "/api/organizations/%s/identity_provider_configs/" % ORG
DOMAINS = "/api/organizations/%s/domains/" % ORG
DOMAIN = {"id": "0190a3f4-0000-7000-8000-0000000000d1", "domain": "example.com", "is_verified": True}
SAML = dict(saml_entity_id="https://idp.example.com/entity", saml_acs_url="https://idp.example.com/sso",
            saml_x509_cert="-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----")
OKTA = dict(id="0190a3f4-0000-7000-8000-0000000000c1", name="Okta", config_scope="saml", domain_scope=None,
            organization_domain_ids=[DOMAIN["id"]], has_saml=True, has_oidc=False, has_oidc_client_secret=False,
            has_scim=False, scim_enabled=False, scim_bearer_token=None, oidc_issuer_url=None, oidc_client_id=None,
            **SAML)
SECRET = "oidc-client-secret-0001"
NOT_FOUND = {"type": "invalid_request", "code": "not_found", "detail": "Endpoint not found.", "attr": None}


def args(**extra):
    base = dict(organization=ORG, name="Okta")
    base.update(extra)
    return base


def test_creates_a_saml_config_for_a_domain_by_name(server, run_module):
    server.script((200, page()), (200, page(DOMAIN)), (201, OKTA))
    result = run_module(identity_provider_config, args(config_scope="saml", domains=["Example.com."], **SAML))
    assert result["changed"] and not result["failed"], result
    assert run_module.calls == ["GET %s?limit=500" % CONFIGS, "GET %s?limit=500" % DOMAINS, "POST %s" % CONFIGS]
    body = run_module.bodies("POST")[0]
    assert body["organization_domain_ids"] == [DOMAIN["id"]] and body["config_scope"] == "saml"
    assert result["diff"]["after"]["domains"] == ["example.com"]


def test_idempotent_run_reads_configs_and_domains_once(server, run_module):
    server.script((200, page(OKTA)), (200, page(DOMAIN)))
    result = run_module(identity_provider_config, args(config_scope="saml", domains=["example.com"], **SAML))
    assert result["changed"] is False and len(server.requests) == 2


def test_check_mode_predicts_without_writing(server, run_module):
    server.script((200, page()), (200, page(DOMAIN)))
    result = run_module(identity_provider_config, args(config_scope="saml", domains=["example.com"], **SAML),
                        check=True)
    assert result["changed"] and result["identity_provider_config"]["has_saml"] is True
    assert all(r["method"] == "GET" for r in server.requests)


def test_unknown_domain_fails_before_writing(server, run_module):
    server.script((200, page()), (200, page(DOMAIN)))
    result = run_module(identity_provider_config, args(config_scope="saml", domains=["other.com"]))
    assert result["failed"] and "other.com are not domains of the organization" in result["msg"]
    assert all(r["method"] == "GET" for r in server.requests)


def test_unverified_domain_warns(server, run_module):
    server.script((200, page()), (200, page(dict(DOMAIN, is_verified=False))), (201, OKTA))
    result = run_module(identity_provider_config, args(config_scope="saml", domains=["example.com"]))
    assert any("not verified yet" in w for w in result["warnings"])


def test_oidc_secret_sent_on_create_then_only_when_posthog_has_none(server, run_module):
    oidc = dict(OKTA, name="Entra", config_scope="oidc", organization_domain_ids=[], has_saml=False,
                oidc_issuer_url="https://login.example.com", oidc_client_id="posthog", has_oidc_client_secret=True)
    task = dict(name="Entra", config_scope="oidc", oidc_issuer_url="https://login.example.com",
                oidc_client_id="posthog", oidc_client_secret=SECRET)
    server.script((200, page()), (201, oidc))
    created = run_module(identity_provider_config, args(**task))
    assert run_module.bodies("POST")[0]["oidc_client_secret"] == SECRET
    assert SECRET not in str(created)
    server.script((200, page(oidc)))
    assert run_module(identity_provider_config, args(**task))["changed"] is False
    server.script((200, page(oidc)), (200, oidc))
    rotated = run_module(identity_provider_config, args(update_secrets="always", **task))
    assert rotated["changed"] and run_module.bodies("PATCH")[-1] == {"oidc_client_secret": SECRET}
    assert rotated["diff"]["after"]["oidc_client_secret"] == "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"


def test_scim_token_is_returned_in_the_run_that_made_it(server, run_module):
    scim = dict(OKTA, name="SCIM", config_scope="scim", organization_domain_ids=[], has_saml=False)
    server.script((200, page(scim)), (200, dict(scim, scim_enabled=True, has_scim=True, scim_bearer_token="tok-1")))
    result = run_module(identity_provider_config, args(name="SCIM", scim_enabled=True))
    assert result["changed"] and result["identity_provider_config"]["scim_bearer_token"] == "tok-1"
    assert run_module.bodies("PATCH") == [{"scim_enabled": True}]


def test_regenerating_the_token_falls_back_to_off_and_on_for_api_keys(server, run_module):
    on = dict(OKTA, name="SCIM", config_scope="scim", scim_enabled=True, has_scim=True, organization_domain_ids=[])
    refused = {"type": "authentication_error", "code": "permission_denied",
               "detail": "This action does not support Personal API Key access", "attr": None}
    server.script((200, page(on)), (403, refused), (200, dict(on, scim_enabled=False)),
                  (200, dict(on, scim_bearer_token="tok-2")))
    result = run_module(identity_provider_config, args(name="SCIM", scim_enabled=True, regenerate_scim_token=True))
    assert result["changed"] and result["identity_provider_config"]["scim_bearer_token"] == "tok-2"
    assert run_module.calls[1:] == ["POST %s%s/scim/token/" % (CONFIGS, on["id"]), "PATCH %s%s/" % (CONFIGS, on["id"]),
                                    "PATCH %s%s/" % (CONFIGS, on["id"])]
    assert any("turned SCIM off and on" in w for w in result["warnings"])


def test_create_needs_a_config_scope(server, run_module):
    server.script((200, page()))
    result = run_module(identity_provider_config, args())
    assert result["failed"] and "give config_scope" in result["msg"]


def test_oidc_settings_need_the_oidc_scope_before_any_request(server, run_module):
    result = run_module(identity_provider_config, args(config_scope="saml", oidc_client_id="x"))
    assert result["failed"] and "need config_scope: oidc" in result["msg"] and server.requests == []


def test_older_posthog_says_to_use_the_domain_module(server, run_module):
    server.script((404, NOT_FOUND))
    result = run_module(identity_provider_config, args(config_scope="saml", **SAML))
    assert result["failed"] and "no identity provider configurations" in result["msg"]
    assert "posthog.admin.domain" in result["msg"]


def test_overlap_is_explained(server, run_module):
    overlap = {"type": "validation_error", "code": "invalid_input", "attr": "domain_scope",
               "detail": "This SAML configuration overlaps with another SAML configuration on one or more verified "
                         "domains. Choose different domains before saving."}
    server.script((200, page()), (200, page(DOMAIN)), (400, overlap))
    result = run_module(identity_provider_config, args(config_scope="saml", domains=["example.com"], **SAML))
    assert result["failed"] and "its own verified domains" in result["msg"]


def test_delete(server, run_module):
    server.script((200, page(OKTA)), (204, None))
    result = run_module(identity_provider_config, args(state="absent"))
    assert result["changed"] and run_module.calls[-1] == "DELETE %s%s/" % (CONFIGS, OKTA["id"])


def test_info_by_scope_and_domain(server, run_module):
    everything = dict(OKTA, id="c2", name="All", domain_scope="all", organization_domain_ids=[])
    scim = dict(OKTA, id="c3", name="SCIM", config_scope="scim", organization_domain_ids=[])
    server.script((200, page(OKTA, everything, scim)), (200, page(DOMAIN)))
    result = run_module(identity_provider_config_info, dict(organization=ORG, config_scope="saml", domain="example.com"))
    assert [c["name"] for c in result["identity_provider_configs"]] == ["Okta", "All"]
    server.script((404, NOT_FOUND))
    assert "no identity provider configurations" in run_module(identity_provider_config_info,
                                                               dict(organization=ORG))["msg"]


def test_info_by_domain_in_check_mode_of_an_organization_an_earlier_task_creates(server, run_module):
    """Check mode, organization not created yet: like every read of a missing parent, nothing and a
    warning; it used to ask for the domains of /api/organizations/Acme/ and fail with a 404 (issue 24)."""
    server.script((200, page({"id": ORG, "slug": "other", "name": "Other"})))
    result = run_module(identity_provider_config_info, dict(organization="Acme", domain="example.com"), check=True)
    assert not result["failed"], result["msg"]
    assert result["identity_provider_configs"] == [] and run_module.calls == ["GET /api/organizations/?limit=500"]
