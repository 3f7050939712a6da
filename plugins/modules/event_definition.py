#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: event_definition
short_description: Document or delete an event definition of a PostHog project
version_added: 0.1.0
description:
  - Sets the metadata of an event definition of a PostHog project (its description, tags, owner,
    and whether it is verified or hidden), or deletes the definition.
  - PostHog creates an event definition when it first ingests an event with that name; the API
    cannot create one. A definition that does not exist (never ingested, or deleted) makes
    O(state=present) fail with a message that says so.
  - The definition is found by O(id), or else by its exact O(name) (one filtered list request).
    Options you leave out are not managed.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project
  - posthog.admin.posthog.attributes
options:
  state:
    description:
      - V(present) sets the metadata you give on an existing event definition.
      - V(absent) deletes the definition. It comes back when PostHog ingests the event again,
        without its metadata.
    type: str
    choices: [present, absent]
    default: present
  name:
    description:
      - The event's name exactly as ingested, case included (for example V(signed_up) or
        V($pageview)).
      - With O(id), it is only checked, because PostHog cannot rename an event definition.
    type: str
  id:
    description:
      - The event definition's id (a UUID), as returned by M(posthog.admin.event_definition_info).
    type: str
  description:
    description:
      - What the event means. V('') removes the description.
    type: str
  tags:
    description:
      - The complete set of tags; it replaces the tags the definition has. V([]) removes them all.
      - PostHog trims and lower-cases tags and drops duplicates, so the module compares them that
        way, in any order.
    type: list
    elements: str
  owner:
    description:
      - The email address of the definition's owner, who must be a member of the organization the
        project belongs to.
      - V('') removes the owner. Leaving O(owner) out (or V(null)) leaves the owner as it is.
      - Compared case-insensitively with the owner PostHog returns. Only when it differs does the
        module look the person up, which needs the scopes C(project:read) and
        C(organization_member:read).
    type: str
  verified:
    description:
      - Whether the event is marked as verified. Verifying records who verified it and when;
        verifying also un-hides it.
      - Cannot be V(true) together with O(hidden=true).
    type: bool
  hidden:
    description:
      - Whether the event is hidden from lists in PostHog. Hiding also unverifies it.
      - Cannot be V(true) together with O(verified=true).
    type: bool
notes:
  - Needs the scope C(event_definition:read), and C(event_definition:write) to change or delete
    anything. Setting O(owner) to someone new also needs C(project:read) and
    C(organization_member:read).
  - Editing metadata is a paid PostHog feature (C(ingestion_taxonomy)); without it PostHog answers
    HTTP 402 to every change, and the module fails saying so. Tags also need the C(tagging) feature;
    without it PostHog silently drops them, and the module warns.
  - PostHog's rules, which the module predicts in check and diff mode - hiding an event unverifies
    it, verifying an event un-hides it, and re-verifying a verified event keeps the first
    verifier and date.
seealso:
  - module: posthog.admin.event_definition_info
"""

EXAMPLES = r"""
- name: Document the signed_up event
  posthog.admin.event_definition:
    project_id: "12345"
    name: signed_up
    description: A person finished the sign-up form
    tags: [onboarding, growth]
    owner: ada@example.com
    verified: true

- name: Hide an internal test event (this also unverifies it)
  posthog.admin.event_definition:
    project_id: "12345"
    name: qa_ping
    hidden: true

- name: Remove the owner and the tags, keep the rest
  posthog.admin.event_definition:
    project_id: "12345"
    name: signed_up
    owner: ""
    tags: []

- name: Delete a definition by id
  posthog.admin.event_definition:
    project_id: "12345"
    id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
    state: absent
"""

RETURN = r"""
event_definition:
  description:
    - The event definition as PostHog returns it after the task (in check mode, as it would be).
    - Empty after O(state=absent).
  returned: always
  type: dict
  sample:
    id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
    name: signed_up
    description: A person finished the sign-up form
    tags: [growth, onboarding]
    owner:
      id: 2
      email: ada@example.com
      first_name: Ada
    verified: true
    verified_at: "2026-11-22T10:00:00Z"
    verified_by:
      id: 1
      email: admin@example.com
    hidden: false
    last_seen_at: "2026-11-22T09:59:00Z"
    created_at: "2026-11-01T08:00:00Z"
    updated_at: "2026-11-22T10:00:00Z"
    default_columns: []
diff:
  description:
    - The managed fields before and after, in diff mode. C(owner) is an email address (V('') for
      none) and C(tags) a sorted list.
  returned: when diff mode is on
  type: dict
  sample:
    before:
      name: signed_up
      description: ""
      verified: false
    after:
      name: signed_up
      description: A person finished the sign-up form
      verified: true
"""

from ansible_collections.posthog.admin.plugins.module_utils._event_definition import (
    EventDefinition,
    validate_params,
)
from ansible_collections.posthog.admin.plugins.module_utils._module import PostHogModule


def main():
    ph = PostHogModule(
        argument_spec=dict(
            state=dict(type="str", default="present", choices=["present", "absent"]),
            name=dict(type="str"),
            id=dict(type="str"),
            description=dict(type="str"),
            tags=dict(type="list", elements="str"),
            owner=dict(type="str"),
            verified=dict(type="bool"),
            hidden=dict(type="bool"),
        ),
        project=True,
        required_one_of=[("id", "name")],
        supports_check_mode=True,
    )
    problems = validate_params(ph.params)
    if problems:
        ph.fail("; ".join(problems))
    ph.run(lambda ph: EventDefinition(ph).run())


if __name__ == "__main__":
    main()
