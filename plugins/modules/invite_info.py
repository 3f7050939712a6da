#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: invite_info
short_description: List the invites of a PostHog organization
version_added: 0.1.0
description:
  - Lists the organization's invites, newest first, as PostHog returns them, each with its level
    as a name in C(level_name).
  - PostHog keeps expired invites in the list (with C(is_expired) true) until they are deleted or
    replaced; so does this module unless O(include_expired=false).
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
      - Only the invites of this email address (compared case-insensitively).
      - PostHog has no server-side filter for invites, so the whole list is read either way.
    type: str
  include_expired:
    description:
      - Whether to include expired invites, as PostHog's list does.
    type: bool
    default: true
notes:
  - Needs the scope C(organization_member:read).
  - One request per 500 invites.
seealso:
  - module: posthog.admin.invite
  - module: posthog.admin.member_info
"""

EXAMPLES = r"""
- name: List the pending invites of Acme
  posthog.admin.invite_info:
    organization: Acme
    include_expired: false
  register: pending

- name: Show who has not joined yet
  ansible.builtin.debug:
    msg: "{{ pending.invites | map(attribute='target_email') | list }}"

- name: Look for one person's invite
  posthog.admin.invite_info:
    organization: Acme
    email: jane@example.com
  register: jane
"""

RETURN = r"""
invites:
  description: The invites found, newest first, each as PostHog returns it plus C(level_name).
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
      message: null
      private_project_access: []
      created_by:
        email: admin@example.com
      created_at: "2026-11-22T10:00:00Z"
      updated_at: "2026-11-22T10:00:00Z"
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_info
from ansible_collections.posthog.admin.plugins.module_utils._people import INVITE_INFO_ARGUMENT_SPEC, read_invites


def main():
    run_info(INVITE_INFO_ARGUMENT_SPEC, read_invites)


if __name__ == "__main__":
    main()
