#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: organization_info
short_description: List PostHog organizations
version_added: 0.1.0
description:
  - Lists the organizations the API key's user belongs to (narrowed to the key's scoped
    organizations, if it has any), or the one you name.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.organization_unused
  - posthog.admin.posthog.attributes_info
options:
  id:
    description:
      - Only the organization with this id (a UUID), or V(@current) for the user's current one.
    type: str
  name:
    description: Only organizations with exactly this name.
    type: str
  slug:
    description: Only the organization with this slug.
    type: str
notes:
  - Needs the scope C(organization:read).
  - An O(id) the key cannot see gives an empty list, not a failure.
seealso:
  - module: posthog.admin.organization
  - plugin: posthog.admin.organizations
    plugin_type: inventory
"""

EXAMPLES = r"""
- name: List every organization the key can see
  posthog.admin.organization_info:
  register: orgs

- name: Show their slugs
  ansible.builtin.debug:
    msg: "{{ orgs.organizations | map(attribute='slug') | list }}"

- name: Find the projects of one organization
  posthog.admin.organization_info:
    slug: acme
  register: acme

- name: Use the first project's id
  ansible.builtin.set_fact:
    acme_project_id: "{{ acme.organizations[0].projects[0].id }}"
  when: acme.organizations | length == 1
"""

RETURN = r"""
organizations:
  description: The organizations found, each as PostHog returns it.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
      name: Acme
      slug: acme
      membership_level: 15
      member_count: 3
      projects:
        - id: 2
          name: Default project
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_info
from ansible_collections.posthog.admin.plugins.module_utils._organization import INFO_ARGUMENT_SPEC, read_organizations


def main():
    run_info(INFO_ARGUMENT_SPEC, read_organizations)


if __name__ == "__main__":
    main()
