#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: property_group_info
short_description: List the property groups of a PostHog project's tracking plan
version_added: 0.1.0
description:
  - Lists the property groups of a project (by name), each with its properties and the events that
    carry it; or the one you name.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project
  - posthog.admin.posthog.organization_unused
  - posthog.admin.posthog.attributes_info
options:
  id:
    description: Only the group with this id (a UUID). One request; an unknown id gives an empty list.
    type: str
  name:
    description: Only the group with exactly this name.
    type: str
notes:
  - Needs the scope C(event_definition:read).
  - All pages are read, 500 groups a request.
seealso:
  - module: posthog.admin.property_group
"""

EXAMPLES = r"""
- name: Find the Acme Web project
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: The Checkout group
  posthog.admin.property_group_info:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Checkout
  register: checkout

- name: Which events carry it
  ansible.builtin.debug:
    msg: "{{ checkout.property_groups | map(attribute='events') | flatten | map(attribute='name') | list }}"
"""

RETURN = r"""
property_groups:
  description: The groups found, each as PostHog returns it.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: The group's id.
      type: str
    name:
      description: Its name.
      type: str
    properties:
      description: Its properties (C(name), C(property_type), C(is_required), C(is_optional_in_types), C(validation_rules), C(description)), by name.
      type: list
      elements: dict
    events:
      description: The event definitions that carry it (C(id), C(name)).
      type: list
      elements: dict
  sample:
    - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e70
      name: Checkout
      description: Properties shared by the checkout events
      properties:
        - name: cart_value
          property_type: Numeric
          is_required: true
      events:
        - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
          name: checkout_started
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_info
from ansible_collections.posthog.admin.plugins.module_utils._property_group import INFO_ARGUMENT_SPEC, read_property_groups


def main():
    run_info(INFO_ARGUMENT_SPEC, read_property_groups)


if __name__ == "__main__":
    main()
