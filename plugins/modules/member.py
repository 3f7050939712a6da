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
  - posthog.admin.posthog.project_unused
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
    - name: Find them
      posthog.admin.member_info:
        organization: Acme
        email: former-owner@example.com
      register: former_owner
    - name: Lower the owner to member (nothing to do once they are gone)
      posthog.admin.member:
        organization: Acme
        email: former-owner@example.com
        level: member
      when: former_owner.members | length > 0
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

from ansible_collections.posthog.admin.plugins.module_utils._module import run_module
from ansible_collections.posthog.admin.plugins.module_utils._people import MEMBER_ARGUMENT_SPEC, Member


def main():
    run_module(Member, MEMBER_ARGUMENT_SPEC, mutually_exclusive=[("email", "user_uuid")],
               required_one_of=[("email", "user_uuid")])


if __name__ == "__main__":
    main()
