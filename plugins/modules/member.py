#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: member
short_description: Set the level of a PostHog organization member, or remove them
version_added: 0.1.0
description:
  - Makes sure a member of the organization has the level you give, or (O(state=absent)) that
    they no longer belong to the organization.
  - PostHog has no way to add a member directly; people join by accepting an invite. Asking for a
    member who does not exist fails and says to invite them with M(posthog.admin.invite) (or to
    list them in M(posthog.admin.roster)).
  - PostHog's rules apply, and its refusals come back as the task's message with advice. Nobody
    can change their own level. Only admins and owners change or remove others, and only people at
    or below their own level. Only an owner makes an owner. An owner can never be removed; another
    owner must first lower their level.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.attributes
options:
  state:
    description:
      - V(present) makes sure the person is a member, at O(level) when it is set.
      - V(absent) removes them from the organization (they keep their PostHog account). A member
        may remove themselves; owners cannot be removed.
    type: str
    choices: [present, absent]
    default: present
  email:
    description:
      - The member's email address (matched case-insensitively).
      - Exactly one of O(email) and O(user_uuid) is required.
    type: str
  user_uuid:
    description:
      - The member's user UUID (C(user.uuid) in M(posthog.admin.member_info)).
    type: str
  level:
    description:
      - The member's level. When not set, the level is not managed.
    type: str
    choices: [member, admin, owner]
notes:
  - Needs the scopes C(organization_member:read) and C(organization_member:write).
  - "Requests: one filtered list of members to find the person by email (a second, searching, list
    only when the exact address is not found, because PostHog compares addresses exactly), or one
    list of all members by O(user_uuid); then one PATCH or DELETE when something changes."
seealso:
  - module: posthog.admin.member_info
  - module: posthog.admin.invite
  - module: posthog.admin.roster
"""

EXAMPLES = r"""
- name: Make Jane an admin
  posthog.admin.member:
    organization: Acme
    email: jane@example.com
    level: admin

- name: Remove Bob from the organization
  posthog.admin.member:
    organization: Acme
    email: bob@example.com
    state: absent

- name: Remove an owner (lower the level first, then remove)
  block:
    - name: Lower the owner to member
      posthog.admin.member:
        organization: Acme
        email: former-owner@example.com
        level: member
    - name: Then remove them
      posthog.admin.member:
        organization: Acme
        email: former-owner@example.com
        state: absent
"""

RETURN = r"""
member:
  description:
    - The membership after the task (in check mode, as it would be), as PostHog returns it plus
      C(level_name). Empty after O(state=absent).
  returned: always
  type: dict
  sample:
    id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
    level: 8
    level_name: admin
    joined_at: "2026-11-22T10:00:00Z"
    user:
      uuid: 0190a3f4-0000-7000-8000-000000000001
      email: jane@example.com
      first_name: Jane
diff:
  description: The member's email and level before and after, in diff mode.
  returned: when diff mode is on
  type: dict
  sample:
    before:
      email: jane@example.com
      level: member
    after:
      email: jane@example.com
      level: admin
"""

import copy
import uuid

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._module import PostHogModule
from ansible_collections.posthog.admin.plugins.module_utils import _people as people_utils


def find_member(ph, email, user_uuid):
    if user_uuid is not None:
        for member in people_utils.list_members(ph):
            if canonical_uuid((member.get("user") or {}).get("uuid")) == user_uuid:
                return member
        return None
    key = email.lower()
    for query in (dict(email=email), dict(search=email)):
        for member in people_utils.list_members(ph, **query):
            if people_utils.member_email(member).lower() == key:
                return member
    return None


def who(ph, email, user_uuid):
    return email if email is not None else "the user %s" % user_uuid


def not_a_member(ph, email, user_uuid):
    message = ("%s is not a member of the organization. PostHog cannot add members directly: invite them "
               "with posthog.admin.invite (or list them in posthog.admin.roster); they become members when "
               "they accept." % who(ph, email, user_uuid))
    if email is not None:
        found = people_utils.index_invites(people_utils.list_invites(ph)).get(email.lower())
        status, level = people_utils.invite_status(found)
        if status == "invited":
            message += " A pending invite at level %s exists (sent %s)." % (
                people_utils.level_name(level), found[0].get("created_at"))
        elif status == "invite_expired":
            message += " Their invite has expired; send a new one with posthog.admin.invite and resend_expired: true."
    ph.fail(message)


def view(member, level=None):
    return dict(email=people_utils.member_email(member),
                level=people_utils.level_name(level if level is not None else member.get("level")))


def run(ph):
    params = ph.params
    email = params.get("email")
    user_uuid = params.get("user_uuid")
    if email is not None:
        try:
            email = people_utils.normalize_email(email)
        except ValueError as exc:
            ph.fail(str(exc))
    if user_uuid is not None:
        user_uuid = canonical_uuid(user_uuid)
        if user_uuid is None:
            ph.fail("user_uuid must be a UUID such as 0190a3f4-0000-7000-8000-000000000001, got %r" % params["user_uuid"])
    member = find_member(ph, email, user_uuid)
    state = params["state"]
    result = dict(changed=False, member={})
    if state == "absent":
        if member is not None:
            result["changed"] = True
            if not ph.check_mode:
                uuid = member["user"]["uuid"]
                try:
                    ph.client.delete(people_utils.members_path(ph, uuid),
                                     context="removing %s" % people_utils.member_email(member))
                except PostHogError as exc:
                    raise people_utils.explain(exc, "")
            if ph.diff_mode:
                result["diff"] = dict(before=view(member), after={})
        ph.exit(**result)

    if member is None:
        not_a_member(ph, email, user_uuid)
    wanted = people_utils.level_number(params["level"]) if params.get("level") else None
    after = member
    if wanted is not None and member.get("level") != wanted:
        result["changed"] = True
        if ph.check_mode:
            after = copy.deepcopy(member)
            after["level"] = wanted
        else:
            try:
                after = ph.client.patch(people_utils.members_path(ph, member["user"]["uuid"]), dict(level=wanted),
                                        context="changing the level of %s from %s to %s" % (
                                            people_utils.member_email(member),
                                            people_utils.level_name(member.get("level")),
                                            people_utils.level_name(wanted)))
            except PostHogError as exc:
                raise people_utils.explain(exc, "")
    result["member"] = people_utils.with_level_name(after)
    if ph.diff_mode:
        result["diff"] = dict(before=view(member), after=view(member, wanted))
    ph.exit(**result)


def canonical_uuid(value):
    """The UUID in its usual lower-case, hyphenated form, or None."""
    try:
        return str(uuid.UUID(str(value).strip()))
    except (TypeError, ValueError):
        return None


def main():
    ph = PostHogModule(
        argument_spec=dict(
            state=dict(type="str", default="present", choices=["present", "absent"]),
            email=dict(type="str"),
            user_uuid=dict(type="str"),
            level=dict(type="str", choices=["member", "admin", "owner"]),
        ),
        organization=True,
        mutually_exclusive=[("email", "user_uuid")],
        required_one_of=[("email", "user_uuid")],
        supports_check_mode=True,
    )
    ph.run(run)


if __name__ == "__main__":
    main()
