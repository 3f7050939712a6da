# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.organization: the settings of PostHog's newest API, through main()."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules import organization
from ansible_collections.posthog.admin.tests.unit.conftest import page

ACME = {"id": "0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f", "name": "Acme", "members_can_invite": True,
        "members_can_use_personal_api_keys": True, "allow_publicly_shared_resources": True,
        "is_ai_data_processing_approved": None, "default_experiment_stats_method": "bayesian",
        "enforce_verified_domains": None, "logo_media_id": None}
MEDIA = "0190a3f4-0000-7000-8000-0000000000f1"
EVERYTHING = dict(members_can_invite=False, members_can_use_personal_api_keys=False,
                  allow_publicly_shared_resources=False, is_ai_data_processing_approved=True,
                  default_experiment_stats_method="frequentist", enforce_verified_domains=True, logo_media_id=MEDIA)


def test_every_setting_is_patched_then_idempotent(server, run_module):
    after = dict(ACME, **EVERYTHING)
    server.script((200, page(ACME)), (200, after))
    result = run_module(organization, dict(name="Acme", **EVERYTHING))
    assert result["changed"] and run_module.bodies("PATCH") == [EVERYTHING]
    server.script((200, page(dict(after, logo_media_id=MEDIA.upper()))))
    assert run_module(organization, dict(name="Acme", **EVERYTHING))["changed"] is False


def test_an_empty_logo_clears_it(server, run_module):
    server.script((200, page(dict(ACME, logo_media_id=MEDIA))), (200, ACME))
    run_module(organization, dict(name="Acme", logo_media_id=""))
    assert run_module.bodies("PATCH") == [{"logo_media_id": None}]


def test_a_logo_that_is_no_uuid_fails_before_any_request(server, run_module):
    result = run_module(organization, dict(name="Acme", logo_media_id="logo.png"))
    assert result["failed"] and "logo_media_id must be the id" in result["msg"] and server.requests == []


def test_enforcing_verified_domains_refused_says_what_to_verify(server, run_module):
    refused = {"type": "validation_error", "code": "invalid_input", "attr": "enforce_verified_domains",
               "detail": "Verify the domain of your own email address first, otherwise this would lock you out"}
    server.script((200, page(ACME)), (400, refused))
    result = run_module(organization, dict(name="Acme", enforce_verified_domains=True))
    assert result["failed"] and "state=verified" in result["msg"]
