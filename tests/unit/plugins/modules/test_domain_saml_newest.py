# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.domain's SAML options on PostHog's newest domain API point to identity_provider_config."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules import domain
from ansible_collections.posthog.admin.tests.unit.conftest import page

NEWEST = {"id": "0190a3f4-0000-7000-8000-0000000000d1", "domain": "example.com", "is_verified": True,
          "verified_at": "2026-01-01T00:00:00Z", "verification_challenge": "c", "jit_provisioning_enabled": False,
          "sso_enforcement": "", "has_saml": False, "has_scim": False, "scim_base_url": None, "has_id_jag": False,
          "identity_provider_config": None}


def test_saml_on_the_newest_api_shows_the_identity_provider_config_task(server, run_module):
    server.script((200, page(NEWEST)))
    result = run_module(domain, dict(domain="example.com", saml_entity_id="https://idp.example.com/entity",
                                     saml_acs_url="https://idp.example.com/sso"))
    assert result["failed"] and not result.get("changed")
    assert "posthog.admin.identity_provider_config with name: <a name>, config_scope: saml, domains: [example.com]" \
        in result["msg"]
    assert "saml_entity_id: https://idp.example.com/entity" in result["msg"]
    assert [r["method"] for r in server.requests] == ["GET"]
