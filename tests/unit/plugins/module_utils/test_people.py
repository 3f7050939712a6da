# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""People logic: e-mail normalisation, levels, chunking, PostHog's level rules, invite and roster plans."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.module_utils import _people as people
from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.tests.unit.objects import invite, member


def wanted(*entries, **kwargs):
    return people.desired_people([dict(email=e) if isinstance(e, str) else e for e in entries], "email", **kwargs)


# --------------------------------------------------------------------------------------- e-mail
@pytest.mark.parametrize("raw,expected", [
    ("jane@example.com", "jane@example.com"),
    ("  Jane.Doe@Example.COM ", "Jane.Doe@example.com"),
    ("a+tag@Sub.Example.org", "a+tag@sub.example.org"),
])
def test_normalize_email_lowercases_only_the_domain(raw, expected):
    assert people.normalize_email(raw) == expected


@pytest.mark.parametrize("raw", ["", "jane", "@example.com", "jane@", "jane@localhost", "ja ne@example.com",
                                 "jane@.example.com", "jane@example.com.", None, 5])
def test_normalize_email_refuses_non_addresses(raw):
    with pytest.raises(ValueError):
        people.normalize_email(raw)


def test_email_key_is_case_insensitive():
    assert people.email_key("Jane@Example.com") == people.email_key("jane@EXAMPLE.com") == "jane@example.com"


# --------------------------------------------------------------------------------------- levels
@pytest.mark.parametrize("value,number", [("member", 1), ("admin", 8), ("Administrator", 8), ("owner", 15),
                                          (1, 1), (8, 8), (15, 15), ("15", 15)])
def test_level_number(value, number):
    assert people.level_number(value) == number


@pytest.mark.parametrize("value", ["boss", 5, "5", True, None])
def test_level_number_refuses_unknown_levels(value):
    with pytest.raises(ValueError):
        people.level_number(value)


def test_level_name_and_with_level_name():
    assert [people.level_name(n) for n in (1, 8, 15, 5, None)] == ["member", "admin", "owner", "5", None]
    original = {"level": 8, "user": {"email": "a@x.com"}}
    named = people.with_level_name(original)
    assert named["level_name"] == "admin" and named["level"] == 8
    assert "level_name" not in original


# --------------------------------------------------------------------------------------- chunks
def test_chunks_of_twenty():
    assert [len(c) for c in people.chunks(range(45))] == [20, 20, 5]
    assert people.chunks([]) == []
    assert people.chunks(range(20)) == [list(range(20))]
    with pytest.raises(ValueError):
        people.chunks([1], size=0)


# ------------------------------------------------------------------------------- desired people
def test_desired_people_defaults_and_normalisation():
    result = people.desired_people(
        [{"target_email": "A@X.COM"}, {"target_email": "b@x.com", "level": "admin", "first_name": "Bee"}],
        "target_email", defaults=dict(level="member", first_name="Pal", message="hi"))
    assert result == [
        dict(email="A@x.com", key="a@x.com", level=1, first_name="Pal", message="hi"),
        dict(email="b@x.com", key="b@x.com", level=8, first_name="Bee", message="hi"),
    ]
    assert people.desired_people([{"email": "c@x.com"}], "email")[0]["level"] is None


@pytest.mark.parametrize("entries,match", [
    ([{"email": "a@x.com"}, {"email": "A@X.com"}], "listed twice"),
    ([{"email": "nope"}], "not an email address"),
    ([{"email": "a@x.com", "level": "boss"}], "not a level"),
    ([{"first_name": "x"}], "has no email"),
    (["a@x.com"], "must be a dictionary"),
    ([{"email": "a@x.com", "first_name": "x" * 31}], "30 characters"),
])
def test_desired_people_refuses_bad_input(entries, match):
    with pytest.raises(ValueError, match=match):
        people.desired_people(entries, "email")


def test_invite_payload():
    person = dict(email="a@x.com", key="a@x.com", level=8, first_name="Ann", message=None)
    assert people.invite_payload(person) == {"target_email": "a@x.com", "level": 8, "first_name": "Ann"}
    person = dict(email="a@x.com", key="a@x.com", level=None, first_name=None, message="hi")
    assert people.invite_payload(person, send_email=False) == {
        "target_email": "a@x.com", "level": 1, "message": "hi", "send_email": False}


# -------------------------------------------------------------------------------------- rules
@pytest.mark.parametrize("caller,is_self,target,new,expected", [
    (1, False, 1, 8, people.MSG_EDIT_ADMIN),
    (1, False, 1, 1, people.MSG_EDIT_ADMIN),
    (8, False, 15, 1, people.MSG_EDIT_LEVEL),
    (8, False, 1, 15, people.MSG_MAKE_OWNER),
    (8, True, 8, 1, people.MSG_OWN_LEVEL),
    (15, True, 15, 8, people.MSG_OWN_LEVEL),
    (1, True, 1, 8, people.MSG_OWN_LEVEL),
    (8, False, 1, 8, None),
    (8, False, 8, 1, None),
    (15, False, 1, 15, None),
    (15, False, 15, 1, None),
])
def test_change_refusal_follows_posthog(caller, is_self, target, new, expected):
    assert people.change_refusal(caller, is_self, target, new) == expected


@pytest.mark.parametrize("caller,is_self,target,expected", [
    (1, False, 1, people.MSG_EDIT_ADMIN),
    (8, False, 15, people.MSG_EDIT_LEVEL),
    (15, False, 15, people.MSG_OWNER_LEAVE),
    (15, True, 15, people.MSG_OWNER_LEAVE),
    (1, True, 1, None),
    (8, False, 8, None),
])
def test_removal_refusal(caller, is_self, target, expected):
    assert people.removal_refusal(caller, is_self, target) == expected


def test_invite_and_revoke_refusals():
    assert people.invite_refusal(1, 8) == people.MSG_HIGHER_INVITE
    assert people.invite_refusal(8, 15) == people.MSG_HIGHER_INVITE
    assert people.invite_refusal(8, 8) is None and people.invite_refusal(None, 15) is None
    assert people.revoke_refusal(1) == people.MSG_LEVEL_INSUFFICIENT and people.revoke_refusal(8) is None


def test_explain_swaps_the_generic_hint_for_advice_once():
    hint = "Ask an owner of the organization to raise your membership level."
    exc = PostHogError("changing bob: PATCH /x failed with HTTP 403: %s %s" % (people.MSG_OWN_LEVEL, hint),
                       status=403, detail=people.MSG_OWN_LEVEL)
    exc.hint = hint
    assert people.explain(exc) is exc
    assert exc.message == ("changing bob: PATCH /x failed with HTTP 403: %s PostHog never lets anyone change their "
                           "own level; another admin or owner must do it." % people.MSG_OWN_LEVEL)
    people.explain(exc)
    assert exc.message.count("another admin or owner") == 1 and str(exc) == exc.message


def test_explain_leaves_other_errors_alone():
    exc = PostHogError("GET /x failed with HTTP 500", status=500, detail="boom")
    assert people.explain(exc).message == "GET /x failed with HTTP 500"


@pytest.mark.parametrize("me, expected", [
    ({"uuid": "U-1", "email": "other@x.com"}, "ann@x.com"),      # the uuid wins over the email
    ({"uuid": None, "email": " Ann@X.com "}, "ann@x.com"),
    ({"uuid": "nobody", "email": None}, None),
    ("not an object", None),
])
def test_caller_key(me, expected):
    members = [member("Ann@x.com", 8, uuid_="u-1"), member("bob@x.com")]
    assert people.caller_key(me, members) == expected


# ------------------------------------------------------------------------------------ invites
def test_plan_invites():
    people_list = people.desired_people(
        [{"e": "new@x.com", "level": "admin"}, {"e": "same@x.com", "level": "admin"}, {"e": "other@x.com", "level": "admin"},
         {"e": "old@x.com"}, {"e": "any@x.com"}, {"e": "Member@x.com"}], "e")
    invites_by_key = people.index_invites([
        invite("same@x.com", 8), invite("other@x.com", 1), invite("old@x.com", 1, expired=True), invite("any@x.com", 8),
    ])
    members_by_key = people.index_members([member("member@X.com")])
    plan = people.plan_invites(people_list, members_by_key, invites_by_key)
    emails = dict((k, [p["email"] for p in v]) for k, v in plan.items())
    assert emails == {"create": ["new@x.com", "other@x.com"], "unchanged": ["same@x.com", "any@x.com"],
                      "expired": ["old@x.com"], "already_members": ["Member@x.com"]}
    resent = people.plan_invites(people_list, members_by_key, invites_by_key, resend_expired=True)
    assert [p["email"] for p in resent["create"]] == ["new@x.com", "other@x.com", "old@x.com"]


def test_index_invites_newest_first_and_status():
    found = people.index_invites([invite("a@x.com", 1, created="2026-01-01"), invite("A@x.com", 8, created="2026-01-03"),
                                  invite("a@x.com", 15, expired=True, created="2026-01-02")])["a@x.com"]
    assert [i["level"] for i in found] == [8, 15, 1]
    assert people.invite_status(found) == ("invited", 8)
    assert people.invite_status([invite("a@x.com", 8, expired=True)]) == ("invite_expired", 8)
    assert people.invite_status([]) == ("none", None)
    assert people.describe_invites(found) == "invited as admin"


# ------------------------------------------------------------------------------------- roster
ORG_MEMBERS = [member("me@x.com", 15), member("ann@x.com", 1), member("bob@x.com", 8), member("owner2@x.com", 15),
               member("extra@x.com", 1)]
ORG_INVITES = [invite("pending@x.com", 1), invite("wronglevel@x.com", 1), invite("stale@x.com", 1, expired=True),
               invite("stranger@x.com", 1)]
LISTED = [dict(email="me@x.com", level="owner"), dict(email="ann@x.com", level="admin"), dict(email="Bob@X.com", level="admin"),
          dict(email="pending@x.com"), dict(email="wronglevel@x.com", level="admin"), dict(email="stale@x.com"),
          dict(email="fresh@x.com")]


def roster(**kwargs):
    return people.plan_roster(wanted(*LISTED, default_level="member"), ORG_MEMBERS, ORG_INVITES, **kwargs)


def test_roster_without_purge_only_adds_and_updates():
    plan = roster()
    assert [p["email"] for p in plan["invite"]] == ["wronglevel@x.com", "fresh@x.com"]
    assert [(u["person"]["email"], u["before"], u["after"]) for u in plan["update"]] == [("ann@x.com", 1, 8)]
    assert [p["email"] for p in plan["unchanged"]] == ["me@x.com", "Bob@x.com", "pending@x.com"]
    assert [p["email"] for p in plan["expired"]] == ["stale@x.com"]
    assert plan["remove"] == [] and plan["revoke"] == []
    assert sorted(k["email"] for k in plan["kept"]) == ["extra@x.com", "owner2@x.com", "stranger@x.com"]
    assert plan["before"]["ann@x.com"] == "member" and plan["after"]["ann@x.com"] == "admin"
    assert plan["before"]["wronglevel@x.com"] == "invited as member"
    assert plan["after"]["wronglevel@x.com"] == "invited as admin"
    assert "fresh@x.com" not in plan["before"] and plan["after"]["fresh@x.com"] == "invited as member"
    assert plan["after"]["stale@x.com"] == "invite expired (member)"


def test_roster_purge_spares_the_caller_and_owners():
    plan = roster(purge=True, caller_key="extra@x.com")
    assert plan["remove"] == []
    reasons = dict((k["email"], k["reason"]) for k in plan["kept"])
    assert reasons == {"extra@x.com": "the API key's own user", "owner2@x.com": "an owner; set purge_owners to remove owners"}
    assert [r["email"] for r in plan["revoke"]] == ["stranger@x.com"]
    assert plan["after"]["stranger@x.com"] == "invite revoked"


def test_roster_purge_owners_demotes_then_removes():
    plan = roster(purge=True, purge_owners=True, caller_key="me@x.com")
    assert [(r["email"], r["demote"]) for r in plan["remove"]] == [("owner2@x.com", True), ("extra@x.com", False)]
    assert plan["after"]["owner2@x.com"] == "removed"


def test_roster_resend_expired():
    plan = roster(resend_expired=True)
    assert [p["email"] for p in plan["invite"]] == ["wronglevel@x.com", "stale@x.com", "fresh@x.com"]


def test_roster_idempotent_when_everything_matches():
    members = [member("me@x.com", 15), member("ann@x.com", 8)]
    invites = [invite("pending@x.com", 8)]
    plan = people.plan_roster(wanted(dict(email="me@x.com", level="owner"), dict(email="ann@x.com", level="admin"),
                                     dict(email="pending@x.com", level="admin"), default_level="member"),
                              members, invites, purge=True)
    assert not (plan["invite"] or plan["update"] or plan["remove"] or plan["revoke"])
    assert not people.roster_needs_caller(plan)
    assert plan["before"] == plan["after"]


def test_roster_needs_caller_only_for_writes_posthog_may_refuse():
    member_invites = people.plan_roster(wanted("new@x.com", default_level="member"), [], [])
    assert member_invites["invite"] and not people.roster_needs_caller(member_invites)
    admin_invite = people.plan_roster(wanted(dict(email="new@x.com", level="admin")), [], [])
    assert people.roster_needs_caller(admin_invite)
    assert people.roster_needs_caller(roster())


def test_roster_refusals_name_each_person():
    plan = roster(purge=True, purge_owners=True, caller_key="bob@x.com")
    refusals = people.roster_refusals(plan, "bob@x.com", 8)
    assert "Bob@x.com: " + people.MSG_OWN_LEVEL not in refusals  # bob is listed at his own level: unchanged
    # an admin may raise ann to admin, invite admins, revoke and remove members, but not touch an owner
    assert refusals == ["owner2@x.com: " + people.MSG_EDIT_LEVEL]
    member_plan = roster(purge=True, caller_key="ann@x.com")
    member_refusals = people.roster_refusals(member_plan, "ann@x.com", 1)
    assert "ann@x.com: " + people.MSG_OWN_LEVEL in member_refusals
    assert "wronglevel@x.com: " + people.MSG_HIGHER_INVITE in member_refusals
    assert "stranger@x.com: " + people.MSG_LEVEL_INSUFFICIENT in member_refusals
    owner_plan = roster(purge=True, purge_owners=True, caller_key="me@x.com")
    assert people.roster_refusals(owner_plan, "me@x.com", 15) == []


def test_hundred_people_plan_in_five_chunks():
    hundred = wanted(*["p%03d@x.com" % i for i in range(100)], default_level="member")
    plan = people.plan_roster(hundred, [member("me@x.com", 15)], [])
    assert len(plan["invite"]) == 100
    assert [len(c) for c in people.chunks(plan["invite"])] == [20] * 5
