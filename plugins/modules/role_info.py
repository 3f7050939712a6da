#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: role_info
short_description: List the roles of a PostHog organization and who holds them
version_added: 0.1.0
description:
  - Lists the roles of an organization, or the one you name, each with its holders.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.attributes_info
options:
  id:
    description: Only the role with this id (a UUID).
    type: str
  name:
    description: Only the role with this name, compared regardless of case.
    type: str
notes:
  - Needs the scope C(organization:read). Members of the organization may read its roles.
  - An O(id) or O(name) that matches nothing gives an empty list, not a failure.
  - One request for the list (one more per 500 roles), or one GET with O(id).
seealso:
  - module: posthog.admin.role
"""

EXAMPLES = r"""
- name: Who holds which role in Acme
  posthog.admin.role_info:
    organization: Acme
  register: acme_roles

- name: Show them
  ansible.builtin.debug:
    msg: "{{ acme_roles.roles | items2dict(key_name='name', value_name='member_emails') }}"

- name: Which role new members get
  ansible.builtin.debug:
    msg: "{{ acme_roles.roles | selectattr('is_default') | map(attribute='name') | first | default('none') }}"
"""

RETURN = r"""
roles:
  description: The roles found, each as PostHog returns it, with C(member_emails) (who holds it, sorted).
  returned: always
  type: list
  elements: dict
  sample:
    - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
      name: Engineering
      is_default: true
      members:
        - id: 0190a3f4-0000-7000-8000-0000000000a1
          user:
            email: ada@acme.example
      member_emails: [ada@acme.example]
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_info
from ansible_collections.posthog.admin.plugins.module_utils._role import INFO_ARGUMENT_SPEC, read_roles


def main():
    run_info(INFO_ARGUMENT_SPEC, read_roles)


if __name__ == "__main__":
    main()
