# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.roster through main(): invites, level changes, purges, PostHog's refusals found
before the first write, what was applied before a failure, and the caller never removed."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._people import MSG_EDIT_LEVEL
from ansible_collections.posthog.admin.plugins.modules import roster
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import ORG, invite, member, refusal, user_uuid

MEMBERS = ORG + "members/"
READS = ["GET %s?limit=500" % MEMBERS, "GET %sinvites/?limit=500" % ORG]
ME = "GET /api/users/@me/"
OWNER = member("me@x.com", 15)
TEAM = [OWNER, member("ann@x.com", 1), member("extra@x.com", 1)]
STRANGER = invite("stranger@x.com", invite_id="i-s")
LISTED = [dict(email="me@x.com", level="owner"), dict(email="ann@x.com", level="admin"), dict(email="fresh@x.com")]


def at(email):
    """The path of a member."""
    return "%s%s/" % (MEMBERS, user_uuid(email))


def me(email="me@x.com"):
    """What GET /api/users/@me/ answers."""
    return dict(uuid=user_uuid(email), email=email)


def script(server, members=None, invites=(STRANGER,), caller=None, *writes):
    members = TEAM if members is None else members
    reads = [(200, page(*members)), (200, page(*invites))] + ([(200, caller)] if caller is not None else [])
    server.script(*(reads + list(writes)))


def test_invites_the_missing_and_re_levels_members(server, run_module):
    script(server, TEAM, [STRANGER], me(), (201, invite("fresh@x.com")), (200, member("ann@x.com", 8)))
    result = run_module(roster, dict(people=LISTED))
    assert result["changed"] is True and result["invited"] == ["fresh@x.com"]
    assert result["updated"] == [dict(email="ann@x.com", before="member", after="admin")]
    assert run_module.calls == READS + [ME, "POST %sinvites/" % ORG, "PATCH " + at("ann@x.com")]
    assert run_module.bodies()[3:] == [{"target_email": "fresh@x.com", "level": 1}, {"level": 8}]
    assert sorted(k["email"] for k in result["kept"]) == ["extra@x.com", "stranger@x.com"]
    assert result["diff"] == {"before": {"ann@x.com": "member", "fresh@x.com": None},
                              "after": {"ann@x.com": "admin", "fresh@x.com": "invited as member"}}


def test_check_mode_reads_and_reports_the_same_plan(server, run_module):
    script(server, TEAM, [STRANGER], me())
    result = run_module(roster, dict(people=LISTED, purge=True), check=True)
    assert result["changed"] is True and run_module.calls == READS + [ME]
    assert (result["invited"], result["removed"], result["revoked"]) == (["fresh@x.com"], ["extra@x.com"],
                                                                         ["stranger@x.com"])
    assert result["diff"]["after"] == {"ann@x.com": "admin", "fresh@x.com": "invited as member",
                                       "extra@x.com": "removed", "stranger@x.com": "invite revoked"}


def test_a_roster_in_place_is_two_reads(server, run_module):
    script(server, [OWNER, member("ann@x.com", 8)], [invite("cy@x.com", 8)])
    people = [dict(email="me@x.com", level="owner"), dict(email="ANN@x.com", level="admin"),
              dict(email="cy@x.com", level="admin")]
    result = run_module(roster, dict(people=people, purge=True))
    assert result["changed"] is False and run_module.calls == READS
    assert result["unchanged"] == ["me@x.com", "ANN@x.com", "cy@x.com"] and result["diff"] == {"before": {}, "after": {}}


def test_purge_removes_and_revokes_the_unlisted_but_not_owners(server, run_module):
    script(server, TEAM + [member("owner2@x.com", 15)], [STRANGER], me(), (204, None), (204, None))
    result = run_module(roster, dict(people=[dict(email="me@x.com", level="owner"), dict(email="ann@x.com")],
                                     purge=True))
    assert result["removed"] == ["extra@x.com"] and result["revoked"] == ["stranger@x.com"]
    assert run_module.calls[3:] == ["DELETE " + at("extra@x.com"), "DELETE %sinvites/i-s/" % ORG]
    assert {"email": "owner2@x.com", "reason": "an owner; set purge_owners to remove owners"} in result["kept"]


def test_purge_owners_lowers_an_owner_before_removing_them(server, run_module):
    script(server, [OWNER, member("owner2@x.com", 15)], [], me(), (200, member("owner2@x.com")), (204, None))
    result = run_module(roster, dict(people=[dict(email="me@x.com", level="owner")], purge=True, purge_owners=True))
    assert result["removed"] == ["owner2@x.com"]
    assert run_module.calls[3:] == ["PATCH " + at("owner2@x.com"), "DELETE " + at("owner2@x.com")]
    assert run_module.bodies("PATCH") == [{"level": 1}]


def test_what_posthog_would_refuse_fails_before_the_first_write(server, run_module):
    admin = member("bob@x.com", 8)
    script(server, [admin, member("owner2@x.com", 15)], [], me("bob@x.com"))
    people = [dict(email="bob@x.com", level="admin"), dict(email="new@x.com", level="owner")]
    result = run_module(roster, dict(people=people, purge=True, purge_owners=True))
    assert result["failed"] and "the API key acts as bob@x.com, level admin" in result["msg"]
    assert result["refusals"] == ["new@x.com: You cannot invite a user with a higher permission level than your own.",
                                  "owner2@x.com: " + MSG_EDIT_LEVEL]
    assert run_module.calls == READS + [ME]


def test_a_failing_write_says_what_was_applied_before_it(server, run_module):
    script(server, TEAM, [STRANGER], me(), (201, invite("fresh@x.com")), (403, refusal(MSG_EDIT_LEVEL)))
    result = run_module(roster, dict(people=LISTED))
    assert result["failed"] and result["changed"] is True and result["invited"] == ["fresh@x.com"]
    assert result["msg"].startswith("changing the level of ann@x.com from member to admin: PATCH")
    assert result["msg"].endswith("Applied before this failure: invited fresh@x.com.")
    assert "Admins cannot change or remove owners; use an owner's API key." in result["msg"]


def test_a_key_without_the_user_read_scope_is_told_why_it_needs_it(server, run_module):
    script(server, TEAM, [], None, (403, refusal("API key missing required scope 'user:read'")))
    result = run_module(roster, dict(people=LISTED))
    assert result["failed"] and "Give the personal API key the scope 'user:read'" in result["msg"]
    assert "(posthog.admin.roster reads the key's own user so that it never removes" in result["msg"]


@pytest.mark.parametrize("people, words", [
    ([dict(email="nope")], "'nope' is not an email address"),
    ([dict(email="a@x.com"), dict(email="A@x.com", level="admin")], "A@x.com is listed twice (items 1 and 2)"),
    ([dict(level="admin")], "missing required arguments: email"),
])
def test_bad_people_fail_before_any_request(run_module, people, words):
    assert words in run_module.refuses(roster, dict(people=people))


# -------------------------------------------------------------------------------- the caller is kept
@pytest.mark.parametrize("caller", [
    dict(uuid=user_uuid("boss@x.com")),                   # no email: the uuid names the caller
    dict(uuid=None, email="  Boss@X.COM "),               # an email in another case, with spaces
    dict(email="boss@x.com"),                             # no uuid at all
])
def test_purge_never_removes_the_caller(server, run_module, caller):
    boss = member("boss@x.com", 8)
    script(server, [boss, member("ann@x.com"), member("extra@x.com")], [], caller, (204, None))
    result = run_module(roster, dict(people=[dict(email="ann@x.com")], purge=True))
    assert result["changed"] is True and result["removed"] == ["extra@x.com"]
    assert {"email": "boss@x.com", "reason": "the API key's own user"} in result["kept"]
    assert run_module.calls == READS + [ME, "DELETE " + at("extra@x.com")]


@pytest.mark.parametrize("caller", [dict(uuid=user_uuid("nobody@x.com")), dict(uuid="", email=""), {}])
def test_a_caller_who_cannot_be_told_apart_fails_before_any_removal(server, run_module, caller):
    script(server, [member("boss@x.com", 8), member("ann@x.com"), member("extra@x.com")], [], caller)
    result = run_module(roster, dict(people=[dict(email="ann@x.com")], purge=True))
    assert result["failed"] and "Cannot tell which member the API key's own user is" in result["msg"]
    assert "nothing was changed" in result["msg"] and "changed" not in result
    assert run_module.calls == READS + [ME]
