#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: property_group
short_description: Create, update or delete a property group of a PostHog project's tracking plan
version_added: 0.1.0
description:
  - Makes sure a property group of a project exists with the properties you give, or does not exist.
    A property group is a named set of typed properties (for example C(cart_value), a required
    Numeric, and C(currency), a String); events carry groups (O(property_groups) of
    M(posthog.admin.event_definition)), so that PostHog knows which properties each event must have and
    can generate typed code for them.
  - The group is found by O(id), or else by its exact O(name) (names are unique in a project).
  - O(properties) is the complete set; properties it does not list are deleted from the group. They
    are matched by name, so a property that stays keeps its id.
  - O(property_groups) manages several groups of the project in one task, reading the project's
    groups once for all of them.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project
  - posthog.admin.posthog.organization_unused
  - posthog.admin.posthog.attributes
options:
  state:
    description:
      - V(present) creates the group or updates it; V(absent) deletes it, and with it the group's place
        on every event that carries it.
    type: str
    choices: [present, absent]
    default: present
  name:
    description:
      - The group's name, 1 to 400 characters (surrounding spaces are dropped). With O(id), a new name
        renames the group.
    type: str
  id:
    description: The group's id (a UUID), as M(posthog.admin.property_group_info) returns it.
    type: str
  description:
    description: What the group is about. V('') removes the description.
    type: str
  properties:
    description:
      - The group's properties, the complete set (compared by name, in any order); V([]) removes them
        all. A key a property leaves out takes PostHog's default (not required, no description, no
        validation rules).
    type: list
    elements: dict
    suboptions:
      name:
        description: The property's name, 1 to 200 characters (surrounding spaces are dropped), once per group.
        type: str
        required: true
      property_type:
        description: Its type.
        type: str
        required: true
        choices: [DateTime, String, Numeric, Boolean, Object]
      is_required:
        description: Whether every event carrying the group must have the property.
        type: bool
      is_optional_in_types:
        description: Whether the code PostHog generates for the event makes the property optional, although it is required.
        type: bool
      description:
        description: What the property means.
        type: str
      validation_rules:
        description:
          - The values the property may take. A String takes C(enum) (a list of 1 to 1000 strings) or
            C(not) with an C(enum); a Numeric takes C(minimum) or C(exclusiveMinimum), and C(maximum) or
            C(exclusiveMaximum). Other types take none.
        type: dict
  property_groups:
    description:
      - Several groups of the project O(project_id), each a dictionary of the options of one group. An
        option an item leaves out takes the task's value.
      - The items are converged in order, in one run that lists the project's groups once. Every item
        is checked before any request; two items naming the same group fail the task before any change.
    type: list
    elements: dict
    suboptions:
      state:
        description: Like O(state).
        type: str
        choices: [present, absent]
      name:
        description: Like O(name).
        type: str
      id:
        description: Like O(id).
        type: str
      description:
        description: Like O(description).
        type: str
      properties:
        description: Like O(properties) (each property with the same keys).
        type: list
        elements: dict
        suboptions:
          name:
            description: Like O(properties[].name).
            type: str
            required: true
          property_type:
            description: Like O(properties[].property_type).
            type: str
            required: true
            choices: [DateTime, String, Numeric, Boolean, Object]
          is_required:
            description: Like O(properties[].is_required).
            type: bool
          is_optional_in_types:
            description: Like O(properties[].is_optional_in_types).
            type: bool
          description:
            description: Like O(properties[].description).
            type: str
          validation_rules:
            description: Like O(properties[].validation_rules).
            type: dict
notes:
  - Needs the scope C(event_definition:read), and C(event_definition:write) to change anything
    (PostHog serves property groups under the event definitions' scope).
  - PostHog's checks are made before any request (property names, types, validation rules, a
    property listed twice).
  - "Requests: one list of the project's groups (or one GET by O(id)); a change adds one POST, PATCH or
    DELETE."
seealso:
  - module: posthog.admin.property_group_info
  - module: posthog.admin.event_definition
"""

EXAMPLES = r"""
- name: Find the Acme Web project
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: The properties every checkout event has
  posthog.admin.property_group:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Checkout
    description: Properties shared by the checkout events
    properties:
      - name: cart_value
        property_type: Numeric
        is_required: true
        validation_rules:
          minimum: 0
      - name: currency
        property_type: String
        is_required: true
        validation_rules:
          enum: [EUR, USD, GBP]
      - name: coupon
        property_type: String

- name: Two groups in one task
  posthog.admin.property_group:
    project_id: "{{ acme_web.projects[0].id }}"
    property_groups:
      - name: Page
        properties:
          - name: path
            property_type: String
            is_required: true
      - name: Experiment
        properties:
          - name: variant
            property_type: String

- name: Retire a group (events that carry it no longer do)
  posthog.admin.property_group:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Legacy
    state: absent
"""

RETURN = r"""
property_group:
  description:
    - The group as PostHog returns it after the task (in check mode, as it would be; a new one has no
      C(id) yet), with its C(properties) (by name) and the C(events) that carry it. Empty after
      O(state=absent).
  returned: unless O(property_groups) is set
  type: dict
  sample:
    id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e70
    name: Checkout
    description: Properties shared by the checkout events
    properties:
      - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e71
        name: cart_value
        property_type: Numeric
        is_required: true
        is_optional_in_types: false
        validation_rules: {minimum: 0}
        description: ""
    events:
      - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
        name: checkout_started
    created_at: "2026-11-22T10:00:00Z"
property_groups:
  description: With O(property_groups), each item's group after the task, in order (empty for C(state=absent)).
  returned: when O(property_groups) is set
  type: list
  elements: dict
diff:
  description: The managed fields before and after, in diff mode (one entry per changed item with O(property_groups)).
  returned: when diff mode is on and something changed
  type: raw
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_module
from ansible_collections.posthog.admin.plugins.module_utils._property_group import ARGUMENT_SPEC, PropertyGroup


def main():
    run_module(PropertyGroup, ARGUMENT_SPEC, required_one_of=[("id", "name")])


if __name__ == "__main__":
    main()
