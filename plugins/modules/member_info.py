#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: member_info
short_description: List the members of a PostHog organization
version_added: 0.1.0
description:
  - Lists the organization's members as PostHog returns them, each with its level as a name in
    C(level_name) next to PostHog's C(level) number.
  - PostHog leaves out deactivated users and its internal bot accounts.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.attributes_info
options:
  email:
    description:
      - Only the member with exactly this email address. PostHog filters on the server and compares
        the address exactly, so write it as the person signed up (PostHog lower-cases no part of it).
    type: str
  search:
    description:
      - Only members whose first name, last name or email matches this text (PostHog ranks by
        similarity, so near matches appear too). At most 200 characters.
    type: str
  level:
    description:
      - Only members at this level (filtered after reading).
    type: str
    choices: [member, admin, owner]
  order:
    description:
      - The order of the list, by the date people joined. PostHog's default is newest first.
      - Ignored with O(search), whose results come best match first.
    type: str
    choices: [joined_at, -joined_at]
    default: -joined_at
notes:
  - Needs the scope C(organization_member:read).
  - One request per 500 members; O(email) and O(search) are filtered by PostHog.
seealso:
  - module: posthog.admin.member
  - module: posthog.admin.invite_info
"""

EXAMPLES = r"""
- name: List the admins of Acme
  posthog.admin.member_info:
    organization: Acme
    level: admin
  register: admins

- name: Show their addresses
  ansible.builtin.debug:
    msg: "{{ admins.members | map(attribute='user.email') | list }}"

- name: Find one member
  posthog.admin.member_info:
    organization: Acme
    email: jane@example.com
  register: jane
"""

RETURN = r"""
members:
  description: The members found, each as PostHog returns it plus C(level_name).
  returned: always
  type: list
  elements: dict
  sample:
    - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
      level: 8
      level_name: admin
      joined_at: "2026-11-22T10:00:00Z"
      updated_at: "2026-11-22T10:00:00Z"
      is_2fa_enabled: false
      has_social_auth: false
      last_login: null
      user:
        uuid: 0190a3f4-0000-7000-8000-000000000001
        email: jane@example.com
        first_name: Jane
        last_name: Doe
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_info
from ansible_collections.posthog.admin.plugins.module_utils._people import MEMBER_INFO_ARGUMENT_SPEC, read_members


def main():
    run_info(MEMBER_INFO_ARGUMENT_SPEC, read_members)


if __name__ == "__main__":
    main()
