# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.invite through main(): one invite or many (PostHog's bulk endpoint, in chunks of
20), what earlier chunks did when a later one fails, lost answers recovered, revoking."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._people import MSG_HIGHER_INVITE
from ansible_collections.posthog.admin.plugins.modules import invite
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import ORG, member, refusal
from ansible_collections.posthog.admin.tests.unit.objects import invite as invitation

INVITES = ORG + "invites/"
LIST_INVITES = "GET %s?limit=500" % INVITES
MEMBERS_OF_ANN = "GET %smembers/?limit=500&search=ann%%40x.com" % ORG
LIST_MEMBERS = "GET %smembers/?limit=500" % ORG


def people(count, **fields):
    return [dict(fields, target_email="p%02d@x.com" % i) for i in range(count)]


def test_one_invite_is_one_post(server, run_module):
    server.script((200, page()), (200, page()), (201, invitation("ann@x.com", 8)))
    result = run_module(invite, dict(target_email="Ann@X.COM", level="admin", first_name="Ann"))
    assert result["changed"] is True and result["created"] == ["Ann@x.com"]
    assert run_module.calls == [LIST_INVITES, "GET %smembers/?limit=500&search=Ann%%40x.com" % ORG, "POST " + INVITES]
    assert run_module.bodies("POST") == [{"target_email": "Ann@x.com", "level": 8, "first_name": "Ann"}]
    assert result["invite"]["level_name"] == "admin" and result["invite"]["id"].startswith("i-ann@x.com")
    assert result["diff"] == {"before": {"Ann@x.com": None}, "after": {"Ann@x.com": "invited as admin"}}


def test_check_mode_predicts_the_invite(server, run_module):
    server.script((200, page()), (200, page()))
    result = run_module(invite, dict(target_email="ann@x.com", send_email=False), check=True)
    assert result["changed"] is True and run_module.calls == [LIST_INVITES, MEMBERS_OF_ANN]
    assert result["invite"] == dict(id=None, target_email="ann@x.com", first_name="", level=1, message=None,
                                    is_expired=False, emailing_attempt_made=False, level_name="member")
    assert result["diff"]["after"] == {"ann@x.com": "invited as member"}


@pytest.mark.parametrize("invites, members, args, outcome", [
    ([invitation("ann@x.com", 8)], [], dict(level="admin"), dict(unchanged=["ann@x.com"])),
    ([invitation("ann@x.com", 8)], [], dict(), dict(unchanged=["ann@x.com"])),  # any pending invite
    ([invitation("ann@x.com", expired=True)], [], dict(), dict(expired=["ann@x.com"])),
    ([], [member("ann@x.com")], dict(), dict(already_members=["ann@x.com"])),
])
def test_nothing_to_send_is_two_reads(server, run_module, invites, members, args, outcome):
    server.script((200, page(*invites)), (200, page(*members)))
    result = run_module(invite, dict(args, target_email="ann@x.com"))
    assert result["changed"] is False and len(server.requests) == 2
    assert dict((k, result[k]) for k in outcome) == outcome


@pytest.mark.parametrize("members", [[], [member("Jane.Doe@ops.example")], [member("Jane.Doe@ops.example.org")]])
@pytest.mark.parametrize("check", [True, False])
@pytest.mark.parametrize("args", [dict(email="jane.doe@ops.example"), dict(target_email="jane.doe@ops.example"),
                                  dict(invites=[dict(email="jane.doe@ops.example")])])
def test_one_address_finds_a_member_whatever_its_case(server, run_module, members, check, args):
    """PostHog's ``?email=`` matches exactly, so one address is looked for with ``search`` (a
    case-insensitive substring) and matched case-insensitively, in check mode and for real: a member
    is never invited (the real run used to meet PostHog's 400 "already belongs" after check mode
    said "invited"). ``email`` is the spelling of member and roster; ``target_email`` still works."""
    server.script((200, page()), (200, page(*members)), (201, invitation("jane.doe@ops.example")))
    result = run_module(invite, args, check=check)
    posts = [c for c in run_module.calls if c.startswith("POST")]
    assert run_module.calls[1] == "GET %smembers/?limit=500&search=jane.doe%%40ops.example" % ORG
    if members and members[0]["user"]["email"] == "Jane.Doe@ops.example":
        assert result["changed"] is False and result["created"] == [] and posts == []
        assert result["already_members"] == ["Jane.Doe@ops.example"]
    else:  # nobody, or an address that only contains this one
        assert result["changed"] is True and result["created"] == ["jane.doe@ops.example"]
        assert posts == ([] if check else ["POST " + INVITES])


def test_an_expired_invite_is_sent_again_when_asked(server, run_module):
    server.script((200, page(invitation("ann@x.com", expired=True))), (200, page()), (201, invitation("ann@x.com")))
    result = run_module(invite, dict(target_email="ann@x.com", resend_expired=True))
    assert result["changed"] is True and result["created"] == ["ann@x.com"]
    assert result["diff"] == {"before": {"ann@x.com": "invite expired (member)"},
                              "after": {"ann@x.com": "invited as member"}}


def test_absent_revokes_every_invite_of_the_person(server, run_module):
    pending, old = invitation("ann@x.com", invite_id="i1"), invitation("ann@x.com", expired=True, invite_id="i0")
    server.script((200, page(pending, old, invitation("bob@x.com"))), (204, None), (204, None))
    result = run_module(invite, dict(target_email="ann@x.com", state="absent"))
    assert result["changed"] is True and result["removed"] == ["ann@x.com"] and result["invite"] == {}
    assert run_module.calls == [LIST_INVITES, "DELETE %si1/" % INVITES, "DELETE %si0/" % INVITES]
    assert result["diff"] == {"before": {"ann@x.com": "invited as member"}, "after": {"ann@x.com": None}}


def test_absent_without_an_invite_is_one_read(server, run_module):
    server.script((200, page(invitation("bob@x.com"))))
    assert run_module(invite, dict(target_email="ann@x.com", state="absent"))["changed"] is False
    assert run_module.calls == [LIST_INVITES]


# ------------------------------------------------------------------------------------- many invites
def test_many_invites_go_in_bulk_chunks_of_twenty(server, run_module):
    wanted = people(25)
    server.script((200, page()), (200, page()),
                  (200, [invitation(p["target_email"]) for p in wanted[:20]]),   # the spec says 200
                  (201, [invitation(p["target_email"]) for p in wanted[20:]]))   # PostHog answers 201
    result = run_module(invite, dict(invites=wanted, send_email=False))
    assert result["changed"] is True and len(result["created"]) == 25 and len(result["invites"]) == 25
    assert run_module.calls == [LIST_INVITES, LIST_MEMBERS] + ["POST %sbulk/" % INVITES] * 2
    chunks = run_module.bodies("POST")
    assert [len(c) for c in chunks] == [20, 5] and chunks[1][0] == {"target_email": "p20@x.com", "level": 1,
                                                                    "send_email": False}


def test_a_refused_chunk_says_what_the_chunks_before_it_invited(server, run_module):
    wanted = people(21, level="admin")
    server.script((200, page()), (200, page()), (201, [invitation(p["target_email"], 8) for p in wanted[:20]]),
                  (403, refusal(MSG_HIGHER_INVITE)))
    result = run_module(invite, dict(invites=wanted))
    assert result["failed"] and result["changed"] is True
    assert result["msg"].startswith("inviting p20@x.com: POST %sbulk/ failed with HTTP 403" % INVITES)
    assert "Invite at your own level or lower, or use the API key of someone with a higher level." in result["msg"]
    assert "Applied before this failure: invited p00@x.com, p01@x.com" in result["msg"]
    assert result["invited"] == [p["target_email"] for p in wanted[:20]] and result["revoked"] == []


@pytest.mark.parametrize("args, path, ids", [
    (dict(invites=people(2)), "POST %sbulk/" % INVITES, ["i0", "i1"]),
    (dict(target_email="p01@x.com"), "POST " + INVITES, ["i1"]),
])
def test_a_lost_answer_is_recovered_from_the_invites_not_sent_again(server, run_module, args, path, ids):
    made = [invitation("p01@x.com", invite_id="i1"), invitation("p00@x.com", invite_id="i0")]
    server.script((200, page()), (200, page()), (502, {"detail": "bad gateway"}), (200, page(*made)))
    result = run_module(invite, args)
    assert result["changed"] is True and [i["id"] for i in result["invites"]] == ids
    assert run_module.calls[2:] == [path, LIST_INVITES]


@pytest.mark.parametrize("args, words", [
    (dict(target_email="nope"), "'nope' is not an email address"),
    (dict(invites=[dict(target_email="a@x.com"), dict(target_email="A@X.com")]), "A@x.com is listed twice (items 1 and 2)"),
    (dict(target_email="a@x.com", first_name="x" * 31), "longer than PostHog's 30 characters"),
    (dict(target_email="a@x.com", invites=[]), "parameters are mutually exclusive: email|invites"),
    (dict(level="admin"), "one of the following is required: email, invites"),
])
def test_bad_options_fail_before_any_request(run_module, args, words):
    assert words in run_module.refuses(invite, args)
