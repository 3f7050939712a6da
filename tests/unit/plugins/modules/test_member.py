# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.member through main(): a member's level or removal, found by email (any case) or
user UUID; a person who is not a member fails, saying where their invite stands."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._people import MSG_OWN_LEVEL
from ansible_collections.posthog.admin.plugins.modules import member
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import ORG, invite, refusal, user_uuid
from ansible_collections.posthog.admin.tests.unit.objects import member as membership

MEMBERS = ORG + "members/"
BY_EMAIL = "GET %s?email=ann%%40x.com&limit=500" % MEMBERS
ANN = membership("ann@x.com", 1)
ANN_PATH = "%s%s/" % (MEMBERS, user_uuid("ann@x.com"))


def test_a_level_change_patches_the_member(server, run_module):
    server.script((200, page(ANN)), (200, dict(ANN, level=8)))
    result = run_module(member, dict(email="ann@x.com", level="admin"))
    assert result["changed"] is True and result["member"]["level_name"] == "admin"
    assert run_module.calls == [BY_EMAIL, "PATCH " + ANN_PATH] and run_module.bodies("PATCH") == [{"level": 8}]
    assert result["diff"] == {"before": {"email": "ann@x.com", "level": "member"},
                              "after": {"email": "ann@x.com", "level": "admin"}}


def test_check_mode_predicts_the_level(server, run_module):
    server.script((200, page(ANN)))
    result = run_module(member, dict(email="ann@x.com", level="owner"), check=True)
    assert result["changed"] is True and run_module.calls == [BY_EMAIL]
    assert result["member"]["level"] == 15 and result["diff"]["after"]["level"] == "owner"


@pytest.mark.parametrize("args", [dict(email="ann@x.com", level="member"), dict(email="ann@x.com")])
def test_a_member_at_the_level_is_one_request(server, run_module, args):
    server.script((200, page(ANN)))
    assert run_module(member, args)["changed"] is False and run_module.calls == [BY_EMAIL]


def test_a_user_uuid_in_any_form_finds_the_member_among_all(server, run_module):
    server.script((200, page(membership("bob@x.com"), ANN)), (204, None))
    result = run_module(member, dict(user_uuid=user_uuid("ann@x.com").upper().replace("-", ""), state="absent"))
    assert result["changed"] is True and result["member"] == {}
    assert run_module.calls == ["GET %s?limit=500" % MEMBERS, "DELETE " + ANN_PATH]


def test_an_address_in_another_case_falls_back_to_a_search(server, run_module):
    server.script((200, page()), (200, page(membership("Ann@x.com", 8), membership("anna@x.com"))))
    result = run_module(member, dict(email="ANN@x.com", level="admin"))
    assert result["changed"] is False and result["member"]["user"]["email"] == "Ann@x.com"
    assert run_module.calls[1] == "GET %s?limit=500&search=ANN%%40x.com" % MEMBERS


def test_absent_when_not_a_member_is_no_change(server, run_module):
    server.script((200, page()), (200, page()))
    result = run_module(member, dict(email="ann@x.com", state="absent"))
    assert result["changed"] is False and result["member"] == {} and len(server.requests) == 2


@pytest.mark.parametrize("invites, words", [
    ([invite("ann@x.com", 8, created="2026-02-01")], "A pending invite at level admin exists (sent 2026-02-01)."),
    ([invite("ann@x.com", expired=True)], "Their invite has expired; send a new one"),
    ([], "PostHog cannot add members directly: invite them with posthog.admin.invite"),
])
def test_someone_not_a_member_fails_saying_where_their_invite_stands(server, run_module, invites, words):
    server.script((200, page()), (200, page()), (200, page(*invites)))
    result = run_module(member, dict(email="ann@x.com", level="admin"))
    assert result["failed"] and result["msg"].startswith("ann@x.com is not a member") and words in result["msg"]
    assert run_module.methods == ["GET"] * 3


def test_posthogs_refusal_comes_with_what_to_do(server, run_module):
    server.script((200, page(ANN)), (403, refusal(MSG_OWN_LEVEL)))
    result = run_module(member, dict(email="ann@x.com", level="admin"))
    assert result["failed"] and result["msg"].startswith("changing the level of ann@x.com from member to admin")
    assert result["msg"].endswith("PostHog never lets anyone change their own level; another admin or owner must do it.")


@pytest.mark.parametrize("args, words", [
    (dict(email="ann"), "'ann' is not an email address"),
    (dict(user_uuid="42"), "user_uuid must be a UUID such as"),
    (dict(email="ann@x.com", user_uuid=user_uuid("ann@x.com")), "parameters are mutually exclusive: email|user_uuid"),
    (dict(level="admin"), "one of the following is required: email, user_uuid"),
])
def test_bad_options_fail_before_any_request(run_module, args, words):
    assert words in run_module.refuses(member, args)
