# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.invite keeps one invite per person although PostHog replaces only an invite of
exactly the same address (``target_email=`` in ``posthog/api/organization_invite.py``; issue 27.6):
re-inviting someone whose pending invite differs only in case revokes that invite after the new
one exists."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules import invite
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import ORG
from ansible_collections.posthog.admin.tests.unit.objects import invite as invitation

INVITES = ORG + "invites/"


def test_a_case_variant_invite_is_revoked_after_the_new_one(server, run_module):
    old = invitation("Ann@x.com", 8, invite_id="old")
    server.script((200, page(old)), (200, page()), (201, invitation("ann@x.com", 1, invite_id="new")), (204, None))
    result = run_module(invite, dict(target_email="ann@x.com", level="member"))
    assert result["changed"] is True
    assert run_module.calls[-2:] == ["POST " + INVITES, "DELETE " + INVITES + "old/"]


def test_the_same_address_is_left_to_posthog(server, run_module):
    old = invitation("ann@x.com", 8, invite_id="old")
    server.script((200, page(old)), (200, page()), (201, invitation("ann@x.com", 1, invite_id="new")))
    result = run_module(invite, dict(target_email="ann@x.com", level="member"))
    assert result["changed"] is True and run_module.calls[-1] == "POST " + INVITES  # PostHog replaced it


def test_check_mode_revokes_nothing(server, run_module):
    server.script((200, page(invitation("Ann@x.com", 8, invite_id="old"))), (200, page()))
    result = run_module(invite, dict(target_email="ann@x.com", level="member"), check=True)
    assert result["changed"] is True and len(server.requests) == 2


def test_a_member_hidden_from_a_non_admin_key_is_explained(server, run_module):
    """Issue 27.5: with members_can_see_org_members off, a member's key does not see everyone, so
    the module may try to invite a member; PostHog's refusal then says what to do."""
    refused = {"type": "validation_error", "code": "invalid_input", "attr": None,
               "detail": "A user with this email address already belongs to the organization."}
    server.script((200, page()), (200, page()), (400, refused))
    result = run_module(invite, dict(target_email="ann@x.com"))
    assert result["failed"] and "members_can_see_org_members: false" in result["msg"]
    assert "admin's API key" in result["msg"]
