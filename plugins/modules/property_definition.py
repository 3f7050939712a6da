#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: property_definition
short_description: Document or delete a property definition of a PostHog project
version_added: 0.1.0
description:
  - Sets the metadata of a property definition of a PostHog project (its description, tags, type,
    and whether it is verified or hidden), or deletes the definition.
  - PostHog defines a property when it first ingests an event (or a person, or a group) that has it,
    per type; its API cannot create one. A property not ingested yet makes O(state=present) fail
    with a message that says so (in organization_state, it is skipped with a warning).
  - The definition is found by O(id), or else by its exact O(name) among the definitions of its
    O(type). Options you leave out are not managed.
  - O(property_definitions) manages many properties of the project in one task, reading the
    definitions of each type once.
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
      - V(present) sets the metadata you give on an existing property definition.
      - V(absent) deletes it. It comes back when PostHog ingests the property again, without its metadata.
    type: str
    choices: [present, absent]
    default: present
  name:
    description: The property's name exactly as ingested, case included (for example V(plan) or V($browser)).
    type: str
  id:
    description: The definition's id (a UUID), as M(posthog.admin.property_definition_info) returns it.
    type: str
  type:
    description: Whose property it is. V(group) needs O(group_type_index).
    type: str
    choices: [event, person, group, session]
    default: event
  group_type_index:
    description: With O(type=group), the index of the group type (0 to 4).
    type: int
  description:
    description: What the property means. V('') removes the description.
    type: str
  tags:
    description:
      - The complete set of tags; V([]) removes them all. PostHog trims and lower-cases tags and drops
        duplicates, so the module compares them that way, in any order.
    type: list
    elements: str
  property_type:
    description:
      - The property's type, which PostHog sets from the first value it ingests. V(Numeric) makes it
        usable in sums and averages.
    type: str
    choices: [DateTime, String, Numeric, Boolean, Duration]
  verified:
    description:
      - Whether the property is marked as verified; verifying also un-hides it. Cannot be V(true)
        together with O(hidden=true).
    type: bool
  hidden:
    description:
      - Whether the property is hidden from lists in PostHog; hiding also unverifies it. Cannot be
        V(true) together with O(verified=true).
    type: bool
  property_definitions:
    description:
      - Several properties of the project O(project_id), each a dictionary of the options of one
        definition. An option an item leaves out takes the task's value.
      - Every item is checked before any request; two items naming the same property (of the same type)
        fail the task before any change.
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
      type:
        description: Like O(type).
        type: str
        choices: [event, person, group, session]
      group_type_index:
        description: Like O(group_type_index).
        type: int
      description:
        description: Like O(description).
        type: str
      tags:
        description: Like O(tags).
        type: list
        elements: str
      property_type:
        description: Like O(property_type).
        type: str
        choices: [DateTime, String, Numeric, Boolean, Duration]
      verified:
        description: Like O(verified).
        type: bool
      hidden:
        description: Like O(hidden).
        type: bool
notes:
  - Needs the scope C(property_definition:read), and C(property_definition:write) to change or delete
    anything.
  - Documenting properties (description, tags, verified, hidden) is a paid PostHog feature
    (C(ingestion_taxonomy)); without it PostHog lets only O(property_type) change and answers HTTP 402
    to the rest, and the module fails saying so. Tags also need the C(tagging) feature.
  - PostHog's property definitions have no owner (event definitions have one).
  - "Requests: one list of the definitions of the O(type) (or one GET by O(id)); a change adds one PATCH
    or DELETE."
seealso:
  - module: posthog.admin.property_definition_info
  - module: posthog.admin.event_definition
"""

EXAMPLES = r"""
- name: Find the Acme Web project
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: Document the plan property of Acme Web's events
  posthog.admin.property_definition:
    project_id: "{{ acme_web.projects[0].id }}"
    name: plan
    description: The plan the customer is on
    tags: [billing]
    verified: true

- name: The amounts are numbers, and a person's email is documented too
  posthog.admin.property_definition:
    project_id: "{{ acme_web.projects[0].id }}"
    property_definitions:
      - name: amount
        property_type: Numeric
        description: What the order cost, in its currency
      - name: email
        type: person
        description: The person's email address
"""

RETURN = r"""
property_definition:
  description:
    - The property definition as PostHog returns it after the task (in check mode, as it would be).
      Empty after O(state=absent).
  returned: unless O(property_definitions) is set
  type: dict
  sample:
    id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e80
    name: plan
    description: The plan the customer is on
    tags: [billing]
    property_type: String
    is_numerical: false
    verified: true
    verified_at: "2026-11-22T10:00:00Z"
    verified_by:
      id: 1
      email: admin@example.com
    hidden: false
property_definitions:
  description: With O(property_definitions), each item's definition after the task, in order.
  returned: when O(property_definitions) is set
  type: list
  elements: dict
diff:
  description: The managed fields before and after, in diff mode (one entry per changed item with O(property_definitions)).
  returned: when diff mode is on and something changed
  type: raw
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_module
from ansible_collections.posthog.admin.plugins.module_utils._property_definition import ARGUMENT_SPEC, PropertyDefinition


def main():
    run_module(PropertyDefinition, ARGUMENT_SPEC, required_one_of=[("id", "name")])


if __name__ == "__main__":
    main()
