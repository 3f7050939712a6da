#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: invite
short_description: Invite people to a PostHog organization, or revoke their invites
version_added: 0.1.0
description:
  - Makes sure one person (O(email)) or many (O(invites)) have a pending invite to the
    organization, or (O(state=absent)) that they have none.
  - Many invites go through PostHog's bulk endpoint, 20 to a request (PostHog's limit); each request
    is all or nothing.
  - A pending invite for the same address at the same level is left alone. PostHog cannot change an
    invite, so a pending invite at another level is replaced by a new one (PostHog deletes the old
    invite when it creates the new one); the task reports that as a change, and the person gets a
    new email.
  - Invites expire after three days. An expired invite is sent again only with O(resend_expired=true);
    otherwise it is reported in RV(expired).
  - Someone who is already a member is not invited (PostHog would refuse); the address is reported
    in RV(already_members) and the task does not fail. Change a member's level with
    M(posthog.admin.member).
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
      - V(present) makes sure each person has a pending invite.
      - V(absent) deletes every invite (pending or expired) of each address. Members are not
        touched; remove a member with M(posthog.admin.member).
    type: str
    choices: [present, absent]
    default: present
  email:
    description:
      - The email address of one person to invite. PostHog lower-cases the domain part.
      - Addresses are matched case-insensitively against existing invites and members.
      - Exactly one of O(email) and O(invites) is required.
      - O(email) is the spelling of M(posthog.admin.member), M(posthog.admin.roster) and
        M(posthog.admin.invite_info); O(target_email) (PostHog's field name) still works.
    type: str
    aliases: [target_email]
  first_name:
    description:
      - The person's first name, used in the invite email (at most 30 characters).
      - With O(invites), the default for items that do not set one.
      - Only used when an invite is sent; it is not compared with existing invites.
    type: str
  level:
    description:
      - The level the person gets when they accept.
      - With O(invites), the default for items that do not set one.
      - When not set, any pending invite is accepted as it is, and new invites are at V(member).
      - You cannot invite above your own level (PostHog refuses).
    type: str
    choices: [member, admin, owner]
  invite_message:
    description:
      - A personal message added to the invite email (PostHog's C(message) field).
      - With O(invites), the default for items that do not set one.
      - Only used when an invite is sent; it is not compared with existing invites.
    type: str
  invites:
    description:
      - Several people to invite (or, with O(state=absent), whose invites to delete).
      - Each address may appear only once.
    type: list
    elements: dict
    suboptions:
      email:
        description: The person's email address (O(invites[].target_email) still works).
        type: str
        required: true
        aliases: [target_email]
      first_name:
        description: The person's first name (at most 30 characters).
        type: str
      level:
        description: The level the person gets when they accept.
        type: str
        choices: [member, admin, owner]
      invite_message:
        description: A personal message added to the invite email.
        type: str
  resend_expired:
    description:
      - Whether to send a new invite to people whose invites have all expired.
    type: bool
    default: false
  send_email:
    description:
      - Whether PostHog emails new invites. With V(false) the invites exist but people must be
        told another way (the invite link is in PostHog's web app).
    type: bool
    default: true
notes:
  - Needs the scopes C(organization_member:read) and C(organization_member:write).
  - Any member may invite (unless the organization forbids members to invite, on plans with that
    setting); deleting invites needs the admin level.
  - PostHog answers the bulk endpoint with HTTP 201 and the list of invites; the spec documents
    200. Both are accepted.
  - "Requests: one list of invites and one list of members (filtered by email for a single person),
    then one request per new invite or per 20 new invites. A run that changes nothing makes two
    requests."
seealso:
  - module: posthog.admin.invite_info
  - module: posthog.admin.member
  - module: posthog.admin.roster
"""

EXAMPLES = r"""
- name: Invite Jane as an admin
  posthog.admin.invite:
    organization: Acme
    email: jane@example.com
    first_name: Jane
    level: admin
    invite_message: Welcome to the analytics team!

- name: Invite a team at once (20 per request)
  posthog.admin.invite:
    organization: Acme
    level: member
    invites:
      - email: ann@example.com
        first_name: Ann
      - email: bob@example.com
        level: admin
      - email: cy@example.com
    resend_expired: true
  register: team

- name: Show who was invited and who already belongs
  ansible.builtin.debug:
    msg: "invited {{ team.created }}, already members {{ team.already_members }}"

- name: Revoke an invite
  posthog.admin.invite:
    organization: Acme
    email: former-hire@example.com
    state: absent
"""

RETURN = r"""
invites:
  description:
    - The invites of the people the task is about, after the task (in check mode, as they would
      be), each as PostHog returns it plus C(level_name). Empty after O(state=absent).
    - People who are already members have none.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
      target_email: jane@example.com
      first_name: Jane
      level: 8
      level_name: admin
      is_expired: false
      emailing_attempt_made: true
      message: Welcome to the analytics team!
      created_at: "2026-11-22T10:00:00Z"
invite:
  description: With O(email), that person's invite (empty when none), like an item of RV(invites).
  returned: when O(email) is set
  type: dict
  sample:
    target_email: jane@example.com
    level: 8
    level_name: admin
    is_expired: false
created:
  description: Addresses invited by this task (new invites, invites replaced for a level change, expired ones re-sent).
  returned: always
  type: list
  elements: str
  sample: [ann@example.com]
unchanged:
  description: Addresses that already had a pending invite at the level.
  returned: always
  type: list
  elements: str
  sample: [bob@example.com]
expired:
  description: Addresses whose invites have all expired and were not re-sent (see O(resend_expired)).
  returned: always
  type: list
  elements: str
  sample: []
already_members:
  description: Addresses that already belong to the organization and were not invited.
  returned: always
  type: list
  elements: str
  sample: [cy@example.com]
removed:
  description: Addresses whose invites were deleted (O(state=absent)).
  returned: always
  type: list
  elements: str
  sample: []
diff:
  description: Each address's invite state before and after, in diff mode.
  returned: when diff mode is on
  type: dict
  sample:
    before:
      ann@example.com: null
      bob@example.com: invited as member
    after:
      ann@example.com: invited as member
      bob@example.com: invited as admin
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_module
from ansible_collections.posthog.admin.plugins.module_utils._people import INVITE_ARGUMENT_SPEC, Invites


def main():
    run_module(Invites, INVITE_ARGUMENT_SPEC, mutually_exclusive=[("email", "invites")],
               required_one_of=[("email", "invites")])


if __name__ == "__main__":
    main()
