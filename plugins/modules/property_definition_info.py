#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: property_definition_info
short_description: List the property definitions of a PostHog project
version_added: 0.1.0
description:
  - Lists the property definitions of a project of one type (the property names PostHog has
    ingested), with their metadata, by name; or the one you name.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project
  - posthog.admin.posthog.organization_unused
  - posthog.admin.posthog.attributes_info
options:
  id:
    description: Only the definition with this id (a UUID). One request; an unknown id gives an empty list.
    type: str
  name:
    description: Only the definition with exactly this name (case included).
    type: str
  type:
    description: Whose properties. V(group) needs O(group_type_index).
    type: str
    choices: [event, person, group, session]
    default: event
  group_type_index:
    description: With O(type=group), the index of the group type (0 to 4).
    type: int
  search:
    description: Only definitions whose name contains every space-separated word of O(search), ignoring case.
    type: str
  exclude_hidden:
    description: Leave out hidden definitions (PostHog honours it with its paid C(ingestion_taxonomy) feature).
    type: bool
    default: false
notes:
  - Needs the scope C(property_definition:read).
  - All pages are read, 500 definitions a request. PostHog leaves out the event properties its
    ingestion uses for itself (C(distinct_id), C($set) ...).
seealso:
  - module: posthog.admin.property_definition
"""

EXAMPLES = r"""
- name: Find the Acme Web project
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: The person properties of Acme Web
  posthog.admin.property_definition_info:
    project_id: "{{ acme_web.projects[0].id }}"
    type: person
  register: person_properties

- name: The event properties of Acme Web
  posthog.admin.property_definition_info:
    project_id: "{{ acme_web.projects[0].id }}"
  register: event_properties

- name: The ones nobody documented yet
  ansible.builtin.debug:
    msg: "{{ event_properties.property_definitions | rejectattr('description') | map(attribute='name') | list }}"
"""

RETURN = r"""
property_definitions:
  description: The definitions found, each as PostHog returns it.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e80
      name: plan
      description: The plan the customer is on
      tags: [billing]
      property_type: String
      is_numerical: false
      verified: true
      hidden: false
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_info
from ansible_collections.posthog.admin.plugins.module_utils._property_definition import (
    INFO_ARGUMENT_SPEC,
    read_property_definitions,
)


def main():
    run_info(INFO_ARGUMENT_SPEC, read_property_definitions)


if __name__ == "__main__":
    main()
