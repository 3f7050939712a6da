#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: roster
short_description: Declare the whole set of people in a PostHog organization
version_added: 0.1.0
description:
  - Converges the people of an organization to a list, in one task and a handful of requests.
  - Listed people who are not members are invited (PostHog's bulk endpoint, 20 to a request). A
    pending invite at the listed level counts as present, so nobody is invited twice. A pending
    invite at another level is replaced by a new one (PostHog cannot change an invite).
  - Listed members at another level get their level changed.
  - With O(purge=true), members who are not listed are removed and invites of people who are not
    listed are revoked; without it they are reported in RV(kept) and left alone.
  - The API key's own user is never removed, and owners are only removed with
    O(purge_owners=true) (PostHog never removes an owner, so the module first lowers them to
    member, then removes them).
  - Before the first write, the whole plan is checked against PostHog's level rules (who may invite
    at which level, who may change or remove whom); a plan PostHog would refuse fails with
    PostHog's own words and changes nothing.
  - People join by accepting their invite; PostHog has no way to add a member directly.
  - A person listed with O(people[].roles) holds exactly those roles of the organization after the
    task (missing ones given, others taken), in the same run. Only members can hold roles; for
    people who are invited but have not joined yet, the roles are reported in RV(roles_pending) and
    given by a later run (PostHog gives the organization's default role on joining).
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.attributes
options:
  people:
    description:
      - Everyone who should belong to the organization. Each email address may appear once;
        addresses are matched case-insensitively.
    type: list
    elements: dict
    required: true
    suboptions:
      email:
        description: The person's email address.
        type: str
        required: true
      level:
        description: The person's level.
        type: str
        choices: [member, admin, owner]
        default: member
      first_name:
        description:
          - The person's first name, used in the invite email (at most 30 characters).
          - Only used when an invite is sent; PostHog does not let anyone change another user's name.
        type: str
      roles:
        description:
          - The names of the roles the person holds (compared regardless of case); an empty list for
            none. Omit to leave the person's roles alone.
          - The roles must exist (see M(posthog.admin.role)); the task fails before any change
            otherwise. The organization's default role counts like any other; list it to keep it.
        type: list
        elements: str
  purge:
    description:
      - Whether to remove members who are not listed and revoke invites of people who are not
        listed (pending or expired).
    type: bool
    default: false
  purge_owners:
    description:
      - With O(purge), whether owners who are not listed are removed too (lowered to member, then
        removed). Only an owner's API key can do that.
    type: bool
    default: false
  resend_expired:
    description:
      - Whether listed people whose invites have all expired get a new invite. Otherwise they are
        reported in RV(expired).
    type: bool
    default: false
  send_email:
    description:
      - Whether PostHog emails new invites.
    type: bool
    default: true
  invite_message:
    description:
      - A personal message added to every invite email this task sends (PostHog's C(message) field).
    type: str
notes:
  - Needs the scopes C(organization_member:read) and C(organization_member:write), and C(user:read)
    when the task changes or removes members, revokes invites or invites above the member level
    (it reads C(/api/users/@me/) to recognise the key's own membership and level).
  - Changing levels, removing members and revoking invites needs the admin level; making owners and
    removing owners needs the owner level; nobody can change their own level.
  - "Requests: one list of members and one list of invites (500 per page), and one list of roles when
    a person has O(people[].roles); then, only when something changes, one read of the key's user,
    one request per 20 invites, one PATCH per level change, one DELETE per removal (two for an owner)
    or revoked invite, and one POST per role given and one DELETE per role taken. A run that changes
    nothing makes two requests (three with roles)."
  - Giving and taking roles needs the admin level and the scopes C(organization:read) and
    C(organization:write).
  - PostHog answers the bulk invite endpoint with HTTP 201; the spec documents 200. Both are accepted.
seealso:
  - module: posthog.admin.invite
  - module: posthog.admin.member
  - module: posthog.admin.member_info
"""

EXAMPLES = r"""
- name: The people of Acme, and nobody else
  posthog.admin.roster:
    organization: Acme
    purge: true
    people:
      - email: ada@example.com
        level: owner
      - email: jane@example.com
        level: admin
        first_name: Jane
      - email: bob@example.com
      - email: cy@example.com
        first_name: Cy
  register: acme_people

- name: Levels and roles of each person in one task
  posthog.admin.roster:
    organization: Acme
    people:
      - email: ada@example.com
        level: owner
        roles: [Engineering, Leadership]
      - email: bob@example.com
        roles: [Support]

- name: Show what happened
  ansible.builtin.debug:
    msg: "invited {{ acme_people.invited }}, updated {{ acme_people.updated }}, removed {{ acme_people.removed }}"

- name: Load the list from a file and preview the plan
  posthog.admin.roster:
    organization: Acme
    people: "{{ lookup('ansible.builtin.file', 'people.json') | from_json }}"
    purge: true
  check_mode: true
  diff: true
"""

RETURN = r"""
invited:
  description: Listed people invited by this task (no invite before, an invite at another level, or an expired one re-sent).
  returned: always
  type: list
  elements: str
  sample: [cy@example.com]
updated:
  description: Members whose level this task changed.
  returned: always
  type: list
  elements: dict
  sample:
    - email: jane@example.com
      before: member
      after: admin
removed:
  description: Members this task removed (O(purge)).
  returned: always
  type: list
  elements: str
  sample: [old@example.com]
revoked:
  description: People not listed whose invites this task deleted (O(purge)).
  returned: always
  type: list
  elements: str
  sample: [never-joined@example.com]
unchanged:
  description: Listed people already right, members at their level or people with a pending invite at it.
  returned: always
  type: list
  elements: str
  sample: [ada@example.com, bob@example.com]
expired:
  description: Listed people whose invites have all expired and were not re-sent (see O(resend_expired)).
  returned: always
  type: list
  elements: str
  sample: []
kept:
  description: People not listed who were left in place, with the reason.
  returned: always
  type: list
  elements: dict
  sample:
    - email: admin@example.com
      reason: the API key's own user
roles:
  description:
    - With O(people[].roles), the roles of each such member after the task (in check mode, as they
      would be), by email address.
  returned: when a person has O(people[].roles)
  type: dict
  sample:
    ada@example.com: [Engineering, Leadership]
roles_changed:
  description: The members whose roles this task changed, with the roles given and taken.
  returned: when a person has O(people[].roles)
  type: list
  elements: dict
  sample:
    - email: bob@example.com
      added: [Support]
      removed: []
roles_pending:
  description: People listed with O(people[].roles) who are not members yet (invited), with the roles a later run gives them.
  returned: when a person has O(people[].roles)
  type: list
  elements: dict
  sample:
    - email: cy@example.com
      roles: [Support]
roster:
  description:
    - Everyone involved after the task (in check mode, as it would be), by email address. A member
      shows as their level, others as C(invited as <level>), C(invite expired (<level>)),
      C(removed) or C(invite revoked).
  returned: always
  type: dict
  sample:
    ada@example.com: owner
    jane@example.com: admin
    cy@example.com: invited as member
diff:
  description:
    - The same view as RV(roster), before and after, in diff mode; with O(people[].roles), an entry
      C(<email> roles) for each member whose roles change.
  returned: when diff mode is on
  type: dict
  sample:
    before:
      jane@example.com: member
    after:
      jane@example.com: admin
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_module
from ansible_collections.posthog.admin.plugins.module_utils._people import ROSTER_ARGUMENT_SPEC, Roster


def main():
    run_module(Roster, ROSTER_ARGUMENT_SPEC)


if __name__ == "__main__":
    main()
