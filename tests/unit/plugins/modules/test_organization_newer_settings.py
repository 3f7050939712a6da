# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The settings PostHog's newest OrganizationSerializer added (issue 27.2): the organization
module manages them idempotently, in check mode and diff, and organization_state's settings
section accepts and exports them (both read the names from _organization.SETTINGS)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules import organization, organization_state, organization_state_info
from ansible_collections.posthog.admin.tests.unit.conftest import page

ORG_ID = "0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f"
ACME = {"id": ORG_ID, "name": "Acme", "slug": "acme", "members_can_create_projects": False,
        "members_can_see_org_members": True, "is_ai_training_opted_in": True, "default_anonymize_ips": False,
        "is_hipaa": False, "is_ai_training_locked": False, "projects": []}
ACME_VIEW = dict(name="Acme")
NEWER = dict(members_can_create_projects=True, members_can_see_org_members=False, is_ai_training_opted_in=False,
             default_anonymize_ips=True)


def test_newer_settings_are_patched_then_idempotent(server, run_module):
    after = dict(ACME, **NEWER)
    server.script((200, page(ACME)), (200, after))
    result = run_module(organization, dict(name="Acme", **NEWER), diff=True)
    assert result["changed"] and run_module.bodies("PATCH") == [NEWER]
    assert result["diff"]["before"] == dict(ACME_VIEW, **dict((k, ACME[k]) for k in NEWER))
    assert result["diff"]["after"] == dict(ACME_VIEW, **NEWER)
    server.script((200, page(after)))
    assert run_module(organization, dict(name="Acme", **NEWER))["changed"] is False


def test_check_mode_reports_the_change_and_writes_nothing(server, run_module):
    server.script((200, page(ACME)))
    result = run_module(organization, dict(name="Acme", members_can_see_org_members=False), check=True)
    assert result["changed"] is True and run_module.methods == ["GET"]
    assert result["organization"]["members_can_see_org_members"] is False


def test_organization_state_settings_take_them(server, run_module):
    server.script((200, page(ACME)), (200, dict(ACME, default_anonymize_ips=True)))
    doc = dict(name="Acme", settings=dict(default_anonymize_ips=True, members_can_see_org_members=True))
    result = run_module(organization_state, dict(definition=doc))
    assert not result["failed"], result["msg"]
    assert run_module.bodies("PATCH") == [{"default_anonymize_ips": True}]


def test_organization_state_checks_their_type_before_any_request(server, run_module):
    bad = run_module.refuses(organization_state, dict(definition=dict(name="Acme", settings=dict(
        members_can_create_projects="sometimes"))))
    assert "members_can_create_projects" in bad


def test_organization_state_info_exports_them(server, run_module):
    server.script((200, dict(ACME, **NEWER)), *([(200, page())] * 20))
    result = run_module(organization_state_info, dict(organization=ORG_ID))
    assert not result["failed"], result["msg"]
    settings = result["definition"]["settings"]
    assert dict((k, settings[k]) for k in NEWER) == NEWER
    assert "is_hipaa" not in settings and "is_ai_training_locked" not in settings  # read-only: not settings
