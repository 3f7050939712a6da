# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.identity_provider_config on a plan without SCIM (issue 27.3): PostHog refuses any
``scim_enabled`` value, false included, from such an organization (``feature_not_available``), so
a new configuration is created without ``scim_enabled: false`` (SCIM starts off anyway), as an
exported organization_state document says it."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules import identity_provider_config
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import ORG

CONFIGS = ORG + "identity_provider_configs/"


def created(**fields):
    obj = dict(id="i1", name="Okta", config_scope="saml", scim_enabled=False, has_scim=False,
               organization_domain_ids=[], scim_bearer_token=None)
    obj.update(fields)
    return obj


def test_scim_off_is_not_sent_on_create(server, run_module):
    server.script((200, page()), (201, created()))
    result = run_module(identity_provider_config, dict(name="Okta", config_scope="saml", scim_enabled=False))
    assert result["changed"] is True
    assert run_module.bodies("POST") == [{"name": "Okta", "config_scope": "saml"}]


def test_scim_on_is_sent_on_create(server, run_module):
    server.script((200, page()), (201, created(config_scope="scim", scim_enabled=True, has_scim=True,
                                               scim_bearer_token="t0ken")))
    result = run_module(identity_provider_config, dict(name="Okta", config_scope="scim", scim_enabled=True))
    assert run_module.bodies("POST") == [{"name": "Okta", "config_scope": "scim", "scim_enabled": True}]
    assert result["changed"] is True


def test_scim_off_is_unchanged_on_an_existing_configuration(server, run_module):
    server.script((200, page(created())))
    result = run_module(identity_provider_config, dict(name="Okta", config_scope="saml", scim_enabled=False))
    assert result["changed"] is False and run_module.methods == ["GET"]
