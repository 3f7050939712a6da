# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Who holds which role of an organization: reading roles, planning and writing role memberships.

Shared by the role module (``_role.py``) and the roster (``_people.py``), and depending on neither.
PostHog answers a role with its ``members`` (role memberships, each with the member's user), adds a
membership with the member's user UUID (``POST .../roles/<id>/role_memberships/``) and removes one
by its own id (``DELETE .../role_memberships/<id>/``); role names are unique regardless of case.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

from ansible_collections.posthog.admin.plugins.module_utils._base import Failure
from ansible_collections.posthog.admin.plugins.module_utils._resource import Scope

#: Where an organization's roles live: the role kind's scope, and the path every read of roles here takes.
ROLES = Scope("organization", "roles")

MSG_ADMIN = "Only admins and owners create, change and delete roles and their members; use an admin's API key."


# ------------------------------------------------------------------------------------ reading roles
def role_key(name):
    """How role names are compared: PostHog keeps them unique regardless of case."""
    return (name or "").strip().lower()


def roles_path(task, organization_path=None):
    """The roles of the task's organization (or of ``organization_path``, ``/api/organizations/<id>/``)."""
    return "%s%s/" % (organization_path, ROLES.part) if organization_path else ROLES.path(task, {})


def holder_emails(role):
    """The email addresses of the people holding ``role`` (as PostHog lists its members), lower-cased."""
    return dict((((m.get("user") or {}).get("email") or "").lower(), m) for m in (role or {}).get("members") or []
                if (m.get("user") or {}).get("email"))


def member_emails(memberships):
    """Who holds a role, from its ``members`` (role memberships as PostHog answers them): their email
    addresses, lower-cased and sorted."""
    return sorted(holder_emails(dict(members=memberships)))


def with_member_emails(role):
    """A copy of a role with ``member_emails``: who holds it, sorted."""
    if not role:
        return role
    shaped = copy.deepcopy(role)
    shaped["member_emails"] = sorted(((m.get("user") or {}).get("email") or "") for m in role.get("members") or [])
    return shaped


def list_roles(task, organization_path=None):
    """The roles of the task's organization (or of ``organization_path``, ``/api/organizations/<id>/``)."""
    path = roles_path(task, organization_path)
    known = task.known(path)  # organization_state: the roles as its roles section left them
    if known is not None:
        return known
    if task.missing_parent:
        return []
    if ("roles", path) not in task.cache:  # read once per task
        task.cache[("roles", path)] = task.client.list_all(path, context="listing roles")
    return task.cache[("roles", path)]


def roles_by_key(roles):
    return dict((role_key(r.get("name")), r) for r in roles)


def memberships_path(task, role, organization_path=None):
    return "%s%s/role_memberships/" % (roles_path(task, organization_path), role["id"])


def add_request(task, role, member, organization_path=None):
    """The write that gives ``role`` to ``member`` (one POST of the member's user UUID)."""
    user = member["user"]
    return dict(method="POST", path=memberships_path(task, role, organization_path), body={"user_uuid": user["uuid"]},
                note="giving the role %r to %s" % (role.get("name"), user.get("email")))


def remove_request(task, role, membership, organization_path=None):
    """The write that takes ``role`` from the holder of ``membership`` (one DELETE)."""
    email = (membership.get("user") or {}).get("email")
    return dict(method="DELETE", path="%s%s/" % (memberships_path(task, role, organization_path), membership["id"]),
                note="taking the role %r from %s" % (role.get("name"), email))


def recover_membership(client, path, user_uuid):
    """After a lost answer to a membership POST: the membership if it arrived, else None (sent again)."""
    for membership in client.list_all(path, context="looking for the role membership of %s" % user_uuid):
        if str((membership.get("user") or {}).get("uuid")) == str(user_uuid):
            return membership
    return None


def check_membership(action, answer):
    """PostHog's answer to a membership POST: a membership (an object with an id), else a Failure."""
    if not isinstance(answer, dict) or answer.get("id") is None:
        raise Failure("%s: PostHog answered POST %s without the role membership it made" % (action.note, action.path))
    return answer


def explain(error):
    """Advice for PostHog's refusals of role writes; returns the error."""
    if error.status == 403 and "insufficient" in (error.detail or ""):
        return error.replace_hint(MSG_ADMIN)
    return error


# ------------------------------------------------------------------------------- the roster's roles
def plan_person_roles(wanted, roles, members_by_key, task=None):
    """What gives each person exactly the roles listed for them.

    ``wanted``: ``{email: [role names]}`` (listed people whose roles are managed); ``roles``: the
    organization's roles as PostHog lists them; ``members_by_key``: ``{email key: member}``.
    Returns ``{"add": [(email, member, role)], "remove": [(email, role, membership)], "pending":
    {email: [names]} (invited, not members yet), "before"/"after": {email: [names]}}``; fails
    (before any write) naming roles the organization does not have, except in check mode (``task``
    in check mode), where an earlier task may be about to create them.
    """
    index = roles_by_key(roles)
    unknown = sorted(set(n for names in wanted.values() for n in names if role_key(n) not in index))
    if unknown and task is not None and task.assumes_earlier_tasks:
        task.warn("roles %s do not exist yet; check mode assumes an earlier task creates them (a real run fails if "
                  "they still do not exist)" % ", ".join(repr(n) for n in unknown))
        index.update((role_key(n), dict(id=None, name=n, members=[])) for n in unknown)
        unknown = []
    if unknown:
        raise Failure("roles %s %s not exist in the organization; create %s first with posthog.admin.role"
                      % (", ".join(repr(n) for n in unknown), "does" if len(unknown) == 1 else "do",
                         "it" if len(unknown) == 1 else "them"))
    plan = dict(add=[], remove=[], pending={}, before={}, after={})
    for email, names in wanted.items():
        key = email.lower()
        member = members_by_key.get(key)
        if member is None:
            plan["pending"][email] = sorted(index[role_key(n)]["name"] for n in names)
            continue
        shown = ((member.get("user") or {}).get("email")) or email
        held = dict((role_key(r.get("name")), holder_emails(r).get(key)) for r in roles if key in holder_emails(r))
        want = set(role_key(n) for n in names)
        for name in sorted(want - set(held)):
            plan["add"].append((shown, member, index[name]))
        for name in sorted(set(held) - want):
            plan["remove"].append((shown, index[name], held[name]))
        plan["before"][shown] = sorted(index[k]["name"] for k in held)
        plan["after"][shown] = sorted(index[k]["name"] for k in want)
    return plan
