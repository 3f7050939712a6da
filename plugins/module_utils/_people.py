# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""People of an organization: invites, members and the roster.

Pure logic shared by the invite, invite_info, member, member_info and roster modules, plus the
few helpers that talk to PostHog for them (bulk invites in chunks, the caller's identity):

* e-mail addresses: PostHog lower-cases the domain part of an invite's address and keeps the
  local part (``posthog/api/organization_invite.py``); people are matched case-insensitively.
* levels by name (member 1, admin 8, owner 15) and PostHog's rules about who may invite, change
  and remove whom (``OrganizationMembership.validate_update``, ``User.leave``), so a plan that
  PostHog would refuse fails before the first write, with PostHog's own words.
* planning: what an invite task and a roster task must do, from one list of members and one list
  of invites.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import uuid as uuid_module

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError, require_object
from ansible_collections.posthog.admin.plugins.module_utils._resource import (
    Failure,
    Field,
    Planner,
    Resource,
    Scope,
    options_of,
)
from ansible_collections.posthog.admin.plugins.module_utils._role_membership import (
    add_request,
    check_membership,
    list_roles,
    recover_membership,
    plan_person_roles,
    remove_request,
)
from ansible_collections.posthog.admin.plugins.module_utils._section import Section, options_from

MAX_BULK_INVITES = 20  # PostHog's bulk endpoint refuses more (posthog/api/organization_invite.py)
LEVELS = {"member": 1, "admin": 8, "owner": 15}
LEVEL_NAMES = dict((number, name) for name, number in LEVELS.items())
MEMBER, ADMIN, OWNER = 1, 8, 15

# PostHog's refusals, word for word, and what a person can do about each.
MSG_HIGHER_INVITE = "You cannot invite a user with a higher permission level than your own."
MSG_EDIT_ADMIN = "You can only edit others if you are an admin."
MSG_EDIT_LEVEL = "You can only edit others with level lower or equal to you."
MSG_OWN_LEVEL = "You can't change your own access level."
MSG_MAKE_OWNER = "You can only make another member owner if you're this organization's owner."
MSG_ABOVE_OWN = "You can only change access level of others to lower or equal to your current one."
MSG_OWNER_LEAVE = "Cannot leave the organization as its owner!"
MSG_LEVEL_INSUFFICIENT = "Your organization access level is insufficient."
MSG_ALREADY_MEMBER = "A user with this email address already belongs to the organization."

ADVICE = (
    (MSG_HIGHER_INVITE, "Invite at your own level or lower, or use the API key of someone with a higher level."),
    (MSG_EDIT_ADMIN, "Only admins and owners change or remove other members; use an admin's or owner's API key."),
    (MSG_EDIT_LEVEL, "Admins cannot change or remove owners; use an owner's API key."),
    (MSG_OWN_LEVEL, "PostHog never lets anyone change their own level; another admin or owner must do it."),
    (MSG_MAKE_OWNER, "Only an owner can make someone an owner; use an owner's API key."),
    (MSG_ABOVE_OWN, "You can only give levels up to your own."),
    (MSG_OWNER_LEAVE, "PostHog never removes an owner: another owner must first lower their level (set level to "
                      "admin or member), then remove them."),
    (MSG_ALREADY_MEMBER, "This person is already a member; manage their level with posthog.admin.member. If the "
                         "member list did not show them, the organization hides its members from non-admins "
                         "(members_can_see_org_members: false): use an admin's API key."),
)


# ------------------------------------------------------------------------------------ e-mail
def normalize_email(value):
    """The address as PostHog stores it on an invite: trimmed, domain lower-cased.

    Raises ValueError for something that is not ``local@domain``.
    """
    if not isinstance(value, str):
        raise ValueError("an email address must be a string, got %r" % (value,))
    text = value.strip()
    local, sep, domain = text.rpartition("@")
    if not sep or not local or not domain or "." not in domain or " " in text or domain.startswith(".") \
            or domain.endswith("."):
        raise ValueError("%r is not an email address" % value)
    return "%s@%s" % (local, domain.lower())


def email_key(value):
    """The key people are matched by: the whole address, lower-cased."""
    return normalize_email(value).lower()


def member_email(member):
    return ((member or {}).get("user") or {}).get("email") or ""


# ------------------------------------------------------------------------------------ levels
def level_number(value):
    """1, 8 or 15 for a level name (``member``, ``admin``/``administrator``, ``owner``) or number."""
    if isinstance(value, bool):
        raise ValueError("%r is not a level" % (value,))
    if isinstance(value, int):
        if value in LEVEL_NAMES:
            return value
        raise ValueError("%r is not a level; use member, admin or owner" % (value,))
    text = str(value).strip().lower()
    if text == "administrator":
        text = "admin"
    if text in LEVELS:
        return LEVELS[text]
    if text.isdigit() and int(text) in LEVEL_NAMES:
        return int(text)
    raise ValueError("%r is not a level; use member, admin or owner" % (value,))


def level_name(number):
    """``member``/``admin``/``owner`` for 1/8/15; the number as text for anything else; None for None."""
    if number is None:
        return None
    try:
        return LEVEL_NAMES.get(int(number), str(number))
    except (TypeError, ValueError):
        return str(number)


LEVEL_CHOICES = ["member", "admin", "owner"]


def level_field(**option):
    """A person's level: named in the options (member, admin, owner), sent and compared as PostHog's
    number (1, 8, 15), shown and exported by name again."""
    return Field("level", option=dict(option, choices=LEVEL_CHOICES), to_api=level_number, to_user=level_name)


#: A member's or an invite's level.
LEVEL = level_field()


def with_level_name(obj):
    """A copy of a member or invite with ``level_name`` next to PostHog's ``level`` number."""
    if not isinstance(obj, dict):
        return obj
    result = copy.deepcopy(obj)
    result["level_name"] = LEVEL.to_user(obj.get("level"))
    return result


# ------------------------------------------------------------------------------------ chunks
def chunks(items, size=MAX_BULK_INVITES):
    """Consecutive slices of at most ``size`` items."""
    if size < 1:
        raise ValueError("chunk size must be positive")
    items = list(items)
    return [items[start:start + size] for start in range(0, len(items), size)]


# ------------------------------------------------------------------------------------- rules
def invite_refusal(caller_level, level):
    """PostHog's refusal of an invite at ``level`` by someone at ``caller_level``, or None."""
    if caller_level is not None and level > caller_level:
        return MSG_HIGHER_INVITE
    return None


def change_refusal(caller_level, is_self, target_level, new_level):
    """PostHog's refusal of a level change (checks in PostHog's order), or None."""
    if not is_self:
        if caller_level < ADMIN:
            return MSG_EDIT_ADMIN
        if target_level > caller_level:
            return MSG_EDIT_LEVEL
    if is_self:
        return MSG_OWN_LEVEL
    if new_level == OWNER and caller_level != OWNER:
        return MSG_MAKE_OWNER
    if new_level != OWNER and new_level > caller_level:
        return MSG_ABOVE_OWN
    return None


def removal_refusal(caller_level, is_self, target_level):
    """PostHog's refusal of a removal, or None (an owner is never removed)."""
    if not is_self:
        if caller_level < ADMIN:
            return MSG_EDIT_ADMIN
        if target_level > caller_level:
            return MSG_EDIT_LEVEL
    if target_level == OWNER:
        return MSG_OWNER_LEAVE
    return None


def revoke_refusal(caller_level):
    """Deleting invites needs admin (PostHog's newest tests)."""
    if caller_level < ADMIN:
        return MSG_LEVEL_INSUFFICIENT
    return None


def advice_for(detail):
    """A sentence saying what to do about one of PostHog's people refusals, or ''."""
    for message, advice in ADVICE:
        if detail and message in detail:
            return advice
    return ""


def explain(exc):
    """Swap the client's generic 403 advice for what to do about a level rule PostHog named; returns exc."""
    return exc.replace_hint(advice_for(exc.detail))


# ------------------------------------------------------------------------------------ indexes
class MemberIndex(dict):
    """{email key: member}, where a key two members share (addresses that differ only in case: PostHog's
    users are unique by exact address) is refused wherever it is looked up, naming both: the person the
    task means could be either, and picking one would give a role, a rule or a level to the wrong
    account. Iterating gives every member (twins too): what is not looked up is not chosen."""

    def __init__(self, members):
        super(MemberIndex, self).__init__()
        self.twins = {}
        for member in members:
            email = member_email(member)
            if not email:
                continue
            key = email.lower()
            if key in self.twins:
                self.twins[key].append(member)
            elif dict.__contains__(self, key):
                self.twins[key] = [dict.pop(self, key), member]
            else:
                dict.__setitem__(self, key, member)

    def _refuse(self, key):
        twins = self.twins[key]
        raise Failure("%s could be any of %d members whose e-mail addresses differ only in case (%s); PostHog "
                      "keeps them as separate accounts, so posthog.admin will not choose one: remove or rename "
                      "the extra account in PostHog, then run this again"
                      % (key, len(twins), ", ".join("%s (member id %s)" % (member_email(m), m.get("id"))
                                                    for m in twins)))

    def __contains__(self, key):
        if isinstance(key, str) and key in self.twins:
            self._refuse(key)
        return dict.__contains__(self, key)

    def __getitem__(self, key):
        if isinstance(key, str) and key in self.twins:
            self._refuse(key)
        return dict.__getitem__(self, key)

    def get(self, key, default=None):
        if isinstance(key, str) and key in self.twins:
            self._refuse(key)
        return dict.get(self, key, default)

    def items(self):
        return list(dict.items(self)) + [(key, m) for key, twins in self.twins.items() for m in twins]

    def values(self):
        return [member for dummy, member in self.items()]


def index_members(members):
    """{email key: member} (:class:`MemberIndex`: a key two members share is refused when looked up)."""
    return MemberIndex(members)


def index_invites(invites):
    """{email key: [invites, newest first]} (PostHog lists invites newest first)."""
    result = {}
    for invite in invites:
        email = invite.get("target_email")
        if email:
            result.setdefault(email.lower(), []).append(invite)
    for found in result.values():
        found.sort(key=lambda i: i.get("created_at") or "", reverse=True)
    return result


def pending_invites(invites):
    return [i for i in invites or [] if not i.get("is_expired")]


def invite_status(invites):
    """(status, level) of a person who is not a member: ``invited``, ``invite_expired`` or ``none``."""
    pending = pending_invites(invites)
    if pending:
        return "invited", pending[0].get("level")
    if invites:
        return "invite_expired", invites[0].get("level")
    return "none", None


def describe_member(level):
    """How a member shows in a diff: their level name."""
    return level_name(level)


def describe_invites(found):
    """How an invited person shows in a diff."""
    status, level = invite_status(found)
    if status == "invited":
        return "invited as %s" % level_name(level)
    if status == "invite_expired":
        return "invite expired (%s)" % level_name(level)
    return None


# ----------------------------------------------------------------------------- desired people
def desired_people(entries, email_field="email", default_level=None, defaults=None):
    """Normalise a list of people; fail (ValueError) on a bad address or level, or a repeated person.

    Each result is ``{"email", "key", "level" (number or None), "first_name", "message"}``.
    """
    defaults = defaults or {}
    seen = {}
    result = []
    for index, entry in enumerate(entries or []):
        if not isinstance(entry, dict):
            raise ValueError("item %d must be a dictionary with %s, got %r" % (index + 1, email_field, entry))
        raw = entry.get(email_field)
        if not raw:
            raise ValueError("item %d has no %s" % (index + 1, email_field))
        email = normalize_email(raw)
        key = email.lower()
        if key in seen:
            raise ValueError("%s is listed twice (items %d and %d); list each person once" % (
                email, seen[key] + 1, index + 1))
        seen[key] = index
        level = entry.get("level")
        if level is None:
            level = defaults.get("level", default_level)
        first_name = entry.get("first_name")
        if first_name is None:
            first_name = defaults.get("first_name")
        if first_name is not None and len(first_name) > 30:
            raise ValueError("first_name of %s is longer than PostHog's 30 characters" % email)
        message = entry.get("message")
        if message is None:
            message = defaults.get("message")
        result.append(dict(email=email, key=key, level=LEVEL.to_api(level) if level is not None else None,
                           first_name=first_name, message=message))
    return result


def invite_payload(person, send_email=True):
    """The body of one invite for PostHog: the person's fields (:data:`INVITE_FIELDS`) under PostHog's names."""
    given = dict(email=person["email"], level=person.get("level") or MEMBER, first_name=person.get("first_name"),
                 invite_message=person.get("message"))
    payload = dict((field.api, given[field.name]) for field in INVITE_FIELDS if given[field.name] is not None)
    if not send_email:
        payload["send_email"] = False
    return payload


def predicted_invite(payload):
    """What PostHog would return for a new invite (check mode)."""
    return dict(id=None, target_email=payload["target_email"], first_name=payload.get("first_name", ""),
                level=payload.get("level", MEMBER), message=payload.get("message"), is_expired=False,
                emailing_attempt_made=payload.get("send_email", True))


# ------------------------------------------------------------------------------------ invites
def plan_invites(people, members_by_key, invites_by_key, resend_expired=False):
    """What an invite task does for each person.

    Returns a dict of lists of people: ``create`` (no invite, a pending invite at another level,
    or an expired one when ``resend_expired``), ``unchanged`` (a pending invite at the level, or
    any pending invite when the level is not managed), ``expired`` (only expired invites, not
    re-sent), ``already_members``.
    """
    plan = dict(create=[], unchanged=[], expired=[], already_members=[])
    for person in people:
        key = person["key"]
        if key in members_by_key:
            plan["already_members"].append(person)
            continue
        invites = invites_by_key.get(key) or []
        pending = pending_invites(invites)
        if pending:
            wanted = person.get("level")
            if wanted is None or any(i.get("level") == wanted for i in pending):
                plan["unchanged"].append(person)
            else:
                plan["create"].append(person)
        elif invites and not resend_expired:
            plan["expired"].append(person)
        else:
            plan["create"].append(person)
    return plan


# ------------------------------------------------------------------------------------- roster
def plan_roster(people, members, invites, caller_key=None, purge=False, purge_owners=False,
                resend_expired=False):
    """What a roster task must do so the organization holds exactly ``people``.

    ``people``: desired_people() output (levels default to member). Returns a dict:

    * ``invite``: people to invite (not members; no pending invite at their level).
    * ``update``: ``{"person", "member", "before", "after"}`` for members at another level.
    * ``remove``: ``{"member", "email", "demote"}`` for unlisted members (``purge``), never the
      caller, owners only with ``purge_owners`` (``demote`` says an owner is lowered first).
    * ``revoke``: ``{"email", "invites"}`` for unlisted people's invites (``purge``).
    * ``unchanged``: listed people already right (member at the level, or pending invite at it).
    * ``expired``: listed people with only an expired invite, not re-sent.
    * ``kept``: ``{"email", "reason"}`` for unlisted members or invites left in place.
    * ``before`` / ``after``: ``{email: description}`` of everyone involved, for the diff.
    """
    members_by_key = index_members(members)
    invites_by_key = index_invites(invites)
    listed = set(p["key"] for p in people)
    plan = dict(invite=[], update=[], remove=[], revoke=[], unchanged=[], expired=[], kept=[], before={}, after={})

    for person in people:
        email, key = person["email"], person["key"]
        wanted = person.get("level") or MEMBER
        member = members_by_key.get(key)
        if member is not None:
            shown = member_email(member)
            plan["before"][shown] = describe_member(member.get("level"))
            if member.get("level") == wanted:
                plan["unchanged"].append(person)
            else:
                plan["update"].append(dict(person=person, member=member, before=member.get("level"), after=wanted))
            plan["after"][shown] = describe_member(wanted)
            continue
        found = invites_by_key.get(key) or []
        if found:
            plan["before"][email] = describe_invites(found)
        status, level = invite_status(found)
        if status == "invited" and any(i.get("level") == wanted for i in pending_invites(found)):
            plan["unchanged"].append(person)
            plan["after"][email] = "invited as %s" % level_name(wanted)
        elif status == "invite_expired" and not resend_expired:
            plan["expired"].append(person)
            plan["after"][email] = plan["before"][email]
        else:
            plan["invite"].append(person)
            plan["after"][email] = "invited as %s" % level_name(wanted)

    for key, member in members_by_key.items():
        if key in listed:
            continue
        email = member_email(member)
        level = member.get("level")
        plan["before"][email] = describe_member(level)
        reason = None
        if not purge:
            reason = "not listed; purge is off"
        elif caller_key is not None and key == caller_key:
            reason = "the API key's own user"
        elif level == OWNER and not purge_owners:
            reason = "an owner; set purge_owners to remove owners"
        if reason:
            plan["kept"].append(dict(email=email, reason=reason))
            plan["after"][email] = plan["before"][email]
        else:
            plan["remove"].append(dict(member=member, email=email, demote=level == OWNER))
            plan["after"][email] = "removed"

    for key, found in invites_by_key.items():
        if key in listed or key in members_by_key:
            continue
        email = found[0].get("target_email")
        plan["before"][email] = describe_invites(found)
        if purge:
            plan["revoke"].append(dict(email=email, invites=found))
            plan["after"][email] = "invite revoked"
        else:
            plan["kept"].append(dict(email=email, reason="not listed; purge is off"))
            plan["after"][email] = plan["before"][email]
    return plan


def roster_needs_caller(plan):
    """Whether the caller's identity and level matter: any write PostHog may refuse by level."""
    roles = plan.get("roles") or {}
    return bool(plan["update"] or plan["remove"] or plan["revoke"] or roles.get("add") or roles.get("remove")
                or any((p.get("level") or MEMBER) > MEMBER for p in plan["invite"]))


def roster_refusals(plan, caller_key, caller_level):
    """PostHog's refusals the plan would meet, as ``["<email>: <message>", ...]``."""
    refusals = []
    for person in plan["invite"]:
        refusal = invite_refusal(caller_level, person.get("level") or MEMBER)
        if refusal:
            refusals.append("%s: %s" % (person["email"], refusal))
    for change in plan["update"]:
        is_self = change["person"]["key"] == caller_key
        refusal = change_refusal(caller_level, is_self, change["before"], change["after"])
        if refusal:
            refusals.append("%s: %s" % (change["person"]["email"], refusal))
    for removal in plan["remove"]:
        level = removal["member"].get("level")
        if removal["demote"]:
            refusal = change_refusal(caller_level, False, level, MEMBER)
        else:
            refusal = removal_refusal(caller_level, False, level)
        if refusal:
            refusals.append("%s: %s" % (removal["email"], refusal))
    if plan["revoke"]:
        refusal = revoke_refusal(caller_level)
        if refusal:
            refusals.append("%s: %s" % (", ".join(r["email"] for r in plan["revoke"]), refusal))
    roles = plan.get("roles") or {}
    changing = sorted(set(change[0] for change in roles.get("add", []) + roles.get("remove", [])))
    if changing and caller_level < ADMIN:
        refusals.append("roles of %s: %s" % (", ".join(changing), MSG_LEVEL_INSUFFICIENT))
    return refusals


# ------------------------------------------------------------------------------- talking to PostHog
def list_members(task, **query):
    params = dict((k, v) for k, v in query.items() if v is not None)
    path = Member.SCOPE.path(task, {})
    known = task.known(path) if not params else None  # a new organization's: its owner, as the plan knows
    if known is not None:
        return known
    if task.missing_parent:
        return []  # the organization would be created by an earlier task
    return task.client.list_all(path, params=params or None, context="listing members")


def members_with_email(task, email):
    """The members whose address is ``email`` in any letter case (and whoever else the read returned:
    match them with ``member_email(m).lower()``). One read: PostHog's ``?email=`` filter matches the
    address exactly, its ``search`` matches it as a case-insensitive substring first
    (docs/posthog_facts.md §4); an address longer than search's 200 characters reads every member."""
    if len(email) > 200:
        return list_members(task)
    return list_members(task, search=email)


def member_path(task, member):
    """The path of ``member`` (PostHog's): its user's UUID in the organization's members (:attr:`Member.SCOPE`)."""
    return "%s%s/" % (Member.SCOPE.path(task, {}), member["user"]["uuid"])


def invite_path(task, invite_id=None):
    """The organization's invites (:attr:`Invites.SCOPE`), or the one with ``invite_id``."""
    path = Invites.SCOPE.path(task, {})
    return path if invite_id is None else "%s%s/" % (path, invite_id)


def list_invites(task):
    path = invite_path(task)
    if task.missing_parent:
        return []
    return task.client.list_all(path, context="listing invites")


def standing(task, emails):
    """``(members, invited, unknown)`` of ``emails``: ``{email key: member}`` of those who are members,
    and the addresses of those only invited (by PostHog's pending invites, or by the roster of the
    document this run converges: ``task.provided["people"]``) or neither. One list of members (and
    one of invites when someone is not a member), kept in ``task.cache`` for the task's other items."""
    if not emails:
        return {}, [], []
    if "members" not in task.cache:
        task.cache["members"] = index_members(list_members(task))
    members = task.cache["members"]
    strangers = [e for e in emails if e.lower() not in members]
    invited, unknown = [], []
    if strangers:
        if "invites" not in task.cache:
            task.cache["invites"] = index_invites(list_invites(task))
        announced = set(e.lower() for e in (getattr(task, "provided", None) or {}).get("people", ()))
        for email in strangers:
            if pending_invites(task.cache["invites"].get(email.lower())) or email.lower() in announced:
                invited.append(email)
            elif task.missing_parent and task.assumes_earlier_tasks:
                invited.append(email)  # check mode: an earlier task creates the organization and invites them
            else:
                unknown.append(email)
    return dict((e.lower(), members[e.lower()]) for e in emails if e.lower() in members), invited, unknown


def caller_identity(task, purpose):
    """The API key's user (``GET /api/users/@me/``); a missing scope fails with advice."""
    try:
        return task.client.get("/api/users/@me/", context="finding the API key's own user")
    except PostHogError as exc:
        if exc.status == 403 and exc.missing_scope:
            exc.append("(%s reads the key's own user so that it never removes, demotes or re-levels it.)" % purpose)
        raise


def caller_key(me, members):
    """The email key of the API key's user among ``members``: matched by user uuid first, then by
    normalised email; None when neither identifies them."""
    me = me if isinstance(me, dict) else {}
    uuid = str(me.get("uuid") or "").strip().lower()
    if uuid:
        for member in members:
            if str((member.get("user") or {}).get("uuid") or "").strip().lower() == uuid:
                return member_email(member).strip().lower() or None
    email = str(me.get("email") or "").strip().lower()
    return email or None


def case_variant_requests(task, payloads, invites_by_key):
    """The revocations of the older invites of a person invited again whose address differs only in case.

    PostHog replaces the older invites of exactly the address it is sent (``target_email=``); this
    module matches people case-insensitively, so it removes the others itself, after the new invite
    exists: one invite per person, as before.
    """
    requests = []
    for payload in payloads:
        sent = payload["target_email"]
        for invite in invites_by_key.get(sent.lower()) or []:
            if invite.get("target_email") != sent:
                requests.append(dict(verb="revoked", method="DELETE", path=invite_path(task, invite["id"]),
                                     label=invite.get("target_email"),
                                     note="replacing the invite of %s" % invite.get("target_email")))
    return requests


def invite_requests(task, payloads):
    """The writes that create invites: one POST for a single one, else the bulk endpoint in chunks of 20.

    PostHog's bulk endpoint is all-or-nothing per request and answers 201 (the spec says 200) with the
    list of invites.
    """
    path = invite_path(task)
    if len(payloads) == 1:
        payload = payloads[0]
        return [dict(verb="invited", method="POST", path=path, body=payload, label=payload["target_email"],
                     answers="object")]
    return [dict(verb="invited", method="POST", path=path + "bulk/", body=chunk,
                 label=", ".join(p["target_email"] for p in chunk), items=[p["target_email"] for p in chunk])
            for chunk in chunks(payloads)]


def invited_answer(action, answer):
    """The invites PostHog answered to an invite action, checked: one per person sent."""
    if action.answers == "object":
        require_object(answer, action.method, action.path)
        return [answer]
    answered = [i for i in _as_list(answer) if isinstance(i, dict)]
    if len(answered) != len(action.body):
        raise Failure("%s: PostHog answered POST %s with %d invite(s) for the %d sent" % (
            action.note or "inviting %s" % action.label, action.path, len(answered), len(action.body)))
    return answered


def _as_list(body):
    if isinstance(body, list):
        return body
    if isinstance(body, dict) and isinstance(body.get("results"), list):
        return body["results"]
    if isinstance(body, dict) and body:
        return [body]
    return []


def recover_invites(task, chunk):
    """After an ambiguous invite POST failure: the chunk's invites if they all exist now, else None."""
    wanted = dict((p["target_email"].lower(), p.get("level", MEMBER)) for p in chunk)
    found = {}
    for invite in list_invites(task):
        key = (invite.get("target_email") or "").lower()
        if key in wanted and key not in found and not invite.get("is_expired") \
                and invite.get("level") == wanted[key]:
            found[key] = invite
    if len(found) == len(wanted):
        return [found[p["target_email"].lower()] for p in chunk] if len(chunk) > 1 else found[
            chunk[0]["target_email"].lower()]
    return None


def canonical_uuid(value):
    """The UUID in its usual lower-case, hyphenated form, or None."""
    try:
        return str(uuid_module.UUID(str(value).strip()))
    except (TypeError, ValueError):
        return None


# ------------------------------------------------------------------------------------ members
#: A member, described once: found by its user's email (any case) or UUID, which PostHog answers
#: inside ``user`` (never sent), and its level, the one field a member's update sends.
MEMBER_FIELDS = (
    Field("email", api="user", from_api=lambda user: (user or {}).get("email") or "", sent=False),
    Field("user_uuid", api="user", from_api=lambda user: canonical_uuid((user or {}).get("uuid")), sent=False),
    LEVEL,
)

MEMBER_ARGUMENT_SPEC = dict(state=dict(type="str", default="present", choices=["present", "absent"]))
MEMBER_ARGUMENT_SPEC.update(options_of(MEMBER_FIELDS))

MEMBER_INFO_ARGUMENT_SPEC = dict(
    email=dict(type="str"),
    search=dict(type="str"),
    level=dict(LEVEL.option),
    order=dict(type="str", default="-joined_at", choices=["joined_at", "-joined_at"]),
)


class Member(Resource):
    """A member of the organization, by email or user UUID: its level, or its removal. PostHog
    cannot add members: a missing member fails, pointing at the invite."""

    kind = "member"
    return_key = "member"
    SCOPE = Scope("organization", "members")
    lookups = ("user_uuid", "email")
    folded = ("email",)  # people are matched by their address in any case
    named_by = "email or user_uuid"
    id_option = None
    FIELDS = MEMBER_FIELDS

    def path_of(self, obj):
        return member_path(self.task, obj)

    def identity(self):
        option, value = self.lookup()
        if option == "user_uuid":
            return "the user %s" % value
        return value if option else super(Member, self).identity()

    def validate(self):
        params = self.params
        try:
            if params.get("email") is not None:
                params["email"] = normalize_email(params["email"])
        except ValueError as exc:
            return [str(exc)]
        if params.get("user_uuid") is not None:
            canonical = canonical_uuid(params["user_uuid"])
            if canonical is None:
                return ["user_uuid must be a UUID such as 0190a3f4-0000-7000-8000-000000000001, got %r"
                        % params["user_uuid"]]
            params["user_uuid"] = canonical
        return []

    def candidates(self, option, value):
        if option == "email":
            # PostHog filters by exact email; when that misses (another case), search.
            found = list_members(self.task, email=value)
            if any(member_email(m).lower() == value.lower() for m in found):
                return found
            return list_members(self.task, search=value)
        return list_members(self.task)

    def view(self, obj, desired):
        """The member as the user names it, whatever the task changes: its address and level name."""
        if not obj:
            return {}
        return dict(email=member_email(obj), level=LEVEL.to_user(obj.get("level")))

    def shape(self, obj):
        return with_level_name(obj) if obj else obj

    def missing(self):
        email = self.params.get("email")
        message = ("%s is not a member of the organization. PostHog cannot add members directly: invite them "
                   "with posthog.admin.invite (or list them in posthog.admin.roster); they become members when "
                   "they accept." % self.identity())
        if email is not None:
            found = index_invites(list_invites(self.task)).get(email.lower())
            status, level = invite_status(found)
            if status == "invited":
                message += " A pending invite at level %s exists (sent %s)." % (
                    level_name(level), found[0].get("created_at"))
            elif status == "invite_expired":
                message += (" Their invite has expired; send a new one with posthog.admin.invite and "
                            "resend_expired: true.")
        return message

    def update_request(self, current, payload):
        return dict(method="PATCH", path=self.path_of(current), body=payload, answers="object",
                    note="changing the level of %s from %s to %s" % (
                        member_email(current), level_name(current.get("level")), level_name(payload.get("level"))))

    def delete_request(self, current):
        return dict(method="DELETE", path=self.path_of(current), note="removing %s" % member_email(current))

    def explain(self, error):
        return explain(error)


def read_members(task, params):
    """member_info: the members (filtered by email, search, level), each with its level name."""
    search = params.get("search")
    if search is not None and len(search) > 200:
        raise Failure("search must be at most 200 characters (PostHog's limit), got %d" % len(search))
    members = list_members(task, email=params.get("email"), search=search,
                           order=params["order"] if not search else None)
    if params.get("level"):
        members = [m for m in members if m.get("level") == LEVEL.to_api(params["level"])]
    return dict(members=[with_level_name(m) for m in members])


# ------------------------------------------------------------------------------------ invites
#: What an invite is, each field described once: the options of the task (and of each of its
#: ``invites``) and what an invite's body sends them as (:func:`invite_payload`).
INVITE_FIELDS = (
    Field("email", api="target_email", option=dict(aliases=["target_email"])),
    LEVEL,
    Field("first_name"),
    Field("invite_message", api="message"),
)

INVITE_ARGUMENT_SPEC = dict(state=dict(type="str", default="present", choices=["present", "absent"]))
INVITE_ARGUMENT_SPEC.update(options_of(INVITE_FIELDS))
INVITE_ARGUMENT_SPEC.update(
    invites=dict(type="list", elements="dict", options=options_of(INVITE_FIELDS)),
    resend_expired=dict(type="bool", default=False),
    send_email=dict(type="bool", default=True),
)
INVITE_ARGUMENT_SPEC["invites"]["options"]["email"]["required"] = True

INVITE_INFO_ARGUMENT_SPEC = dict(email=dict(type="str"), include_expired=dict(type="bool", default=True))


class Invites(Planner):
    """The invites of one task (``email`` or ``invites``): sent in bulk where missing, or revoked."""

    SCOPE = Scope("organization", "invites")
    FIELDS = INVITE_FIELDS
    progress_kinds = ("invited", "revoked")

    def validate(self):
        params = self.params
        defaults = dict(level=params.get("level"), first_name=params.get("first_name"),
                        message=params.get("invite_message"))
        if params.get("invites") is not None:
            items = [dict(email=i["email"], level=i.get("level"), first_name=i.get("first_name"),
                          message=i.get("invite_message")) for i in params["invites"]]
        else:
            items = [dict(email=params["email"])]
        try:
            self.people = desired_people(items, "email", defaults=defaults)
        except ValueError as exc:
            return [str(exc)]
        return []

    def decide(self):
        invites_by_key = index_invites(list_invites(self.task))
        if self.params["state"] == "absent":
            doomed = [(p, invites_by_key.get(p["key"]) or []) for p in self.people]
            return dict(absent=True, doomed=[(p, found) for p, found in doomed if found])
        if len(self.people) == 1:
            members = members_with_email(self.task, self.people[0]["email"])
        else:
            members = list_members(self.task)
        members_by_key = index_members(members)
        plan = plan_invites(self.people, members_by_key, invites_by_key, self.params["resend_expired"])
        plan.update(absent=False, members_by_key=members_by_key, invites_by_key=invites_by_key, created={})
        plan["payloads"] = [invite_payload(p, self.params["send_email"]) for p in plan["create"]]
        return plan

    def requests(self, decisions):
        if decisions["absent"]:
            return [dict(verb="revoked", method="DELETE", path=invite_path(self.task, invite["id"]),
                         label=person["email"], note="revoking the invite of %s" % person["email"])
                    for person, found in decisions["doomed"] for invite in found]
        return (invite_requests(self.task, decisions["payloads"]) +
                case_variant_requests(self.task, decisions["payloads"], decisions["invites_by_key"]))

    def recovery(self, action, path, body):
        if action.method == "POST":
            return lambda: recover_invites(self.task, body if isinstance(body, list) else [body])
        return None

    def absorb(self, action, answer):
        if action.verb == "invited":
            for invite in invited_answer(action, answer):
                self.decisions["created"][(invite.get("target_email") or "").lower()] = invite
        return answer

    def explain(self, error):
        return explain(error)

    def report(self, decisions):
        if decisions["absent"]:
            result = dict(invites=[], created=[], unchanged=[], expired=[], already_members=[],
                          removed=[p["email"] for p, dummy in decisions["doomed"]])
        else:
            if not decisions["created"]:
                decisions["created"] = dict((p["target_email"].lower(), predicted_invite(p))
                                            for p in decisions["payloads"])
            invites = []
            for person in self.people:
                if person["key"] in decisions["members_by_key"]:
                    continue
                found = decisions["invites_by_key"].get(person["key"]) or []
                pending = pending_invites(found)
                invite = decisions["created"].get(person["key"]) or (
                    pending[0] if pending else (found[0] if found else None))
                if invite:
                    invites.append(with_level_name(invite))
            result = dict(
                invites=invites,
                created=[p["email"] for p in decisions["create"]],
                unchanged=[p["email"] for p in decisions["unchanged"]],
                expired=[p["email"] for p in decisions["expired"]],
                already_members=[member_email(decisions["members_by_key"][p["key"]])
                                 for p in decisions["already_members"]],
                removed=[],
            )
        if self.params.get("email") is not None:
            result["invite"] = result["invites"][0] if result["invites"] else {}
        return result

    def diff(self, decisions):
        if decisions["absent"]:
            return (dict((p["email"], describe_invites(found)) for p, found in decisions["doomed"]),
                    dict((p["email"], None) for p, dummy in decisions["doomed"]))
        before, after = {}, {}
        creating = set(p["key"] for p in decisions["create"])
        for person in self.people:
            if person["key"] in decisions["members_by_key"]:
                continue
            found = decisions["invites_by_key"].get(person["key"]) or []
            before[person["email"]] = describe_invites(found)
            after[person["email"]] = ("invited as %s" % level_name(person.get("level") or MEMBER)
                                      if person["key"] in creating else before[person["email"]])
        return before, after


def read_invites(task, params):
    """invite_info: the invites (of one address, with or without expired ones), each with its level name."""
    key = None
    if params.get("email") is not None:
        try:
            key = email_key(params["email"])
        except ValueError as exc:
            raise Failure(str(exc))
    invites = list_invites(task)
    if key is not None:
        invites = [i for i in invites if (i.get("target_email") or "").lower() == key]
    if not params["include_expired"]:
        invites = [i for i in invites if not i.get("is_expired")]
    return dict(invites=[with_level_name(i) for i in invites])


# ------------------------------------------------------------------------------------- roster
#: A person of the roster, each field described once: invited (or re-levelled) with the email,
#: level and first name, given exactly the roles listed (converged through the roles' memberships).
PERSON_FIELDS = (
    Field("email", api="target_email", option=dict(required=True)),
    level_field(default="member"),
    Field("first_name"),
    Field("roles", "list", elements="str", sent=False),
)

ROSTER_ARGUMENT_SPEC = dict(
    people=dict(type="list", elements="dict", required=True, options=options_of(PERSON_FIELDS)),
    purge=dict(type="bool", default=False),
    purge_owners=dict(type="bool", default=False),
    resend_expired=dict(type="bool", default=False),
    send_email=dict(type="bool", default=True),
    invite_message=dict(type="str"),
)


class Roster(Planner):
    """The whole set of people of an organization: invite who is missing, re-level members, and
    (``purge``) remove who is not listed — never the API key's own user. A person listed with
    ``roles`` holds exactly those roles (members only; invited people get them once they joined)."""

    FIELDS = PERSON_FIELDS
    progress_kinds = ("invited", "updated", "removed", "revoked", "roles changed")

    def validate(self):
        try:
            self.people = desired_people(self.params["people"], "email", default_level="member",
                                         defaults=dict(message=self.params.get("invite_message")))
        except ValueError as exc:
            return [str(exc)]
        self.roles_wanted = dict((person["email"], entry["roles"]) for person, entry in
                                 zip(self.people, self.params["people"]) if entry.get("roles") is not None)
        self.roles = None
        return []

    def plan_roles(self, plan, members):
        """Add to ``plan`` what gives the people listed with ``roles`` exactly those (one list of roles)."""
        if not self.roles_wanted:
            return plan
        if self.roles is None:
            self.roles = list_roles(self.task)
        plan["roles"] = plan_person_roles(self.roles_wanted, self.roles, index_members(members), self.task)
        return plan

    def decide(self):
        members = list_members(self.task)
        invites = list_invites(self.task)
        options = dict(purge=self.params["purge"], purge_owners=self.params["purge_owners"],
                       resend_expired=self.params["resend_expired"])
        plan = self.plan_roles(plan_roster(self.people, members, invites, **options), members)
        if not roster_needs_caller(plan):
            return plan
        me = caller_identity(self.task, "posthog.admin.roster")
        key = caller_key(me, members)
        if key is None and (plan["remove"] or plan["update"]):
            raise Failure("Cannot tell which member the API key's own user is (GET /api/users/@me/ answered no "
                          "uuid or email that matches a member), so nothing was changed: the roster never removes "
                          "or re-levels its own caller, and will not guess.")
        plan = self.plan_roles(plan_roster(self.people, members, invites, caller_key=key, **options), members)
        caller = index_members(members).get(key) if key else None
        if caller is not None:
            refusals = roster_refusals(plan, key, caller.get("level"))
            if refusals:
                raise Failure("PostHog would refuse part of this roster, so nothing was changed (the API key acts as "
                              "%s, level %s): %s" % (member_email(caller), level_name(caller.get("level")),
                                                     "; ".join("%s %s" % (r, advice_for(r)) for r in refusals)),
                              refusals=refusals)
        return plan

    def requests(self, decisions):
        """Invites, level changes, removals (an owner lowered first), revocations, then role changes."""
        payloads = [invite_payload(p, self.params["send_email"]) for p in decisions["invite"]]
        requests = invite_requests(self.task, payloads)
        for change in decisions["update"]:
            email = member_email(change["member"])
            before, after = level_name(change["before"]), level_name(change["after"])
            requests.append(dict(verb="updated", method="PATCH", path=member_path(self.task, change["member"]),
                                 body=dict(level=change["after"]), label=email, answers="object",
                                 person="owner" in (before, after),
                                 note="changing the level of %s from %s to %s" % (email, before, after)))
        for removal in decisions["remove"]:
            path = member_path(self.task, removal["member"])
            if removal["demote"]:
                requests.append(dict(verb="lowered", method="PATCH", path=path, body=dict(level=MEMBER),
                                     label=removal["email"], person=True, answers="object",
                                     note="lowering owner %s to member before removing them" % removal["email"]))
            requests.append(dict(verb="removed", method="DELETE", path=path, label=removal["email"],
                                 person=bool(removal["demote"]), note="removing %s" % removal["email"]))
        for revoke in decisions["revoke"]:
            for invite in revoke["invites"]:
                requests.append(dict(verb="revoked", method="DELETE", path=invite_path(self.task, invite["id"]),
                                     label=revoke["email"], note="revoking the invite of %s" % revoke["email"]))
        roles = decisions.get("roles") or {}
        for email, role, membership in roles.get("remove", []):
            requests.append(dict(remove_request(self.task, role, membership), verb="roles changed",
                                 label=email))
        for email, member, role in roles.get("add", []):
            requests.append(dict(add_request(self.task, role, member), verb="roles changed", label=email))
        return requests

    def recovery(self, action, path, body):
        if action.verb == "invited":
            return lambda: recover_invites(self.task, body if isinstance(body, list) else [body])
        if action.verb == "roles changed" and action.method == "POST":
            return lambda: recover_membership(self.client, path, body["user_uuid"])
        return None

    def absorb(self, action, answer):
        if action.verb == "invited":
            invited_answer(action, answer)
        elif action.verb == "roles changed" and action.method == "POST":
            check_membership(action, answer)
        elif action.answers == "object":
            require_object(answer, action.method, action.path)
        return answer

    def explain(self, error):
        return explain(error)

    def report(self, decisions):
        report = dict(
            invited=[p["email"] for p in decisions["invite"]],
            updated=[dict(email=member_email(c["member"]), before=level_name(c["before"]),
                          after=level_name(c["after"])) for c in decisions["update"]],
            removed=[r["email"] for r in decisions["remove"]],
            removed_owners=[r["email"] for r in decisions["remove"] if r.get("demote")],
            revoked=[r["email"] for r in decisions["revoke"]],
            unchanged=[p["email"] for p in decisions["unchanged"]],
            expired=[p["email"] for p in decisions["expired"]],
            kept=decisions["kept"],
            roster=decisions["after"],
        )
        roles = decisions.get("roles")
        if roles is not None:
            changes = {}
            for email, dummy, role in roles["add"]:
                changes.setdefault(email, dict(email=email, added=[], removed=[]))["added"].append(role["name"])
            for email, role, dummy in roles["remove"]:
                changes.setdefault(email, dict(email=email, added=[], removed=[]))["removed"].append(role["name"])
            report.update(roles=roles["after"], roles_changed=[changes[e] for e in sorted(changes)],
                          roles_pending=[dict(email=e, roles=names) for e, names in sorted(roles["pending"].items())])
        return report

    def diff(self, decisions):
        changed = [e for e in decisions["after"] if decisions["before"].get(e) != decisions["after"][e]]
        before = dict((e, decisions["before"].get(e)) for e in changed)
        after = dict((e, decisions["after"][e]) for e in changed)
        roles = decisions.get("roles") or {}
        for email, wanted in (roles.get("after") or {}).items():
            if roles["before"].get(email) != wanted:
                before["%s roles" % email] = ", ".join(roles["before"].get(email) or [])
                after["%s roles" % email] = ", ".join(wanted)
        return before, after


# ---------------------------------------------------------------------------------- exporting
INTERNAL_EMAIL_SUFFIX = "@posthogbot.user"  # PostHog's bots (internal users) are not people to keep


def export_items(ctx):
    """organization_state_info: the roster - members and pending invites, by level."""
    people = {}
    for member in list_members(ctx.task):
        email = member_email(member)
        if email and not email.endswith(INTERNAL_EMAIL_SUFFIX):
            people[email.lower()] = dict(email=email, level=LEVEL.to_user(member.get("level")))
    for invite in pending_invites(list_invites(ctx.task)):
        email = invite.get("target_email") or ""
        if email and email.lower() not in people:
            people[email.lower()] = dict(email=email, level=LEVEL.to_user(invite.get("level")))
    return dict(people=[people[k] for k in sorted(people)])


# ---------------------------------------------------------------------------------- the document
def _on_prune(params, options):
    """prune makes the roster the organization's people (purge), owners too with prune_owners."""
    return dict(params, purge=True, purge_owners=bool(params.get("purge_owners") or options.get("prune_owners")))


SECTION = Section(
    "roster", Roster, options_from(ROSTER_ARGUMENT_SPEC, ("people", "purge", "purge_owners", "resend_expired",
                                                          "send_email", "invite_message")),
    "roster", many=False, on_prune=_on_prune, keys=lambda obj, label: [label.lower()], export=export_items,
    provides=lambda params: dict(people=[p["email"] for p in params.get("people") or []]),
    guards=("remove_people",),
    comment="Members and pending invites, by level (posthog.admin.roster). purge: true removes who is not listed.")
