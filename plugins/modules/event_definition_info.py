#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: event_definition_info
short_description: List the event definitions of a PostHog project
version_added: 0.1.0
description:
  - Lists the event definitions of a PostHog project (the event names PostHog has ingested), with
    their metadata, filtered and ordered by PostHog; or the one you name.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization_unused
  - posthog.admin.posthog.project
  - posthog.admin.posthog.attributes_info
options:
  id:
    description:
      - Only the event definition with this id (a UUID). One request; an unknown id gives an empty
        list.
    type: str
  name:
    description:
      - Only the event definition with exactly this name (case included).
    type: str
  search:
    description:
      - Only definitions whose name contains every space-separated word of O(search), ignoring case.
    type: str
  event_type:
    description:
      - V(event_custom) keeps names that do not start with C($), V(event_posthog) only those that do
        (PostHog's own events, such as C($pageview)).
      - V(event) (PostHog's default) lists event definitions. On older PostHog versions V(all) and
        V(action_event) add or list actions; newer versions treat them as V(event).
    type: str
    choices: [event, all, action_event, event_posthog, event_custom]
    default: event
  exclude_hidden:
    description:
      - Leave out hidden definitions. PostHog honours this only where event metadata is available
        (the paid C(ingestion_taxonomy) feature).
    type: bool
    default: false
  ordering:
    description:
      - Sort keys in order of priority; a leading C(-) sorts descending. The name always breaks ties.
      - Without it PostHog sorts by the day the event was last seen, newest first (never seen last),
        then by name.
    type: list
    elements: str
    choices: [name, -name, last_seen_at, -last_seen_at, last_seen_at::date, -last_seen_at::date]
notes:
  - Needs the scope C(event_definition:read).
  - All pages are read, 500 definitions a request.
seealso:
  - module: posthog.admin.event_definition
"""

EXAMPLES = r"""
- name: Find the Acme Web project
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: List the custom events of a project, most recently seen first
  posthog.admin.event_definition_info:
    project_id: "{{ acme_web.projects[0].id }}"
    event_type: event_custom
  register: custom_events

- name: Show their names
  ansible.builtin.debug:
    msg: "{{ custom_events.event_definitions | map(attribute='name') | list }}"

- name: Find the checkout events that are not hidden, by name
  posthog.admin.event_definition_info:
    project_id: "{{ acme_web.projects[0].id }}"
    search: checkout
    exclude_hidden: true
    ordering: [name]

- name: Read one definition of the current project
  posthog.admin.event_definition_info:
    name: signed_up
  register: signed_up

- name: Which events are not verified yet
  ansible.builtin.debug:
    msg: "{{ custom_events.event_definitions | rejectattr('verified') | map(attribute='name') | list }}"
"""

RETURN = r"""
event_definitions:
  description: The event definitions found, each as PostHog returns it, in PostHog's order.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
      name: signed_up
      description: A person finished the sign-up form
      tags: [growth, onboarding]
      owner:
        id: 2
        email: ada@example.com
      verified: true
      hidden: false
      last_seen_at: "2026-11-22T09:59:00Z"
      created_at: "2026-11-01T08:00:00Z"
"""

from ansible_collections.posthog.admin.plugins.module_utils._event_definition import (
    INFO_ARGUMENT_SPEC,
    read_event_definitions,
)
from ansible_collections.posthog.admin.plugins.module_utils._module import run_info


def main():
    run_info(INFO_ARGUMENT_SPEC, read_event_definitions)


if __name__ == "__main__":
    main()
