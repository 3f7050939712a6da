#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: event_definition
short_description: Declare, document or delete an event definition of a PostHog project
version_added: 0.1.0
description:
  - Makes sure an event definition of a PostHog project exists with the metadata you give (its
    description, tags, owner, whether it is verified or hidden) and the property groups it carries,
    or deletes the definition.
  - PostHog creates an event definition when it first ingests an event with that name, and its
    newest API creates one before the event is ever sent, so a tracking plan can declare its events
    first. A definition named by O(name) that does not exist is created (C(created_at) and
    C(last_seen_at) stay empty until the event arrives). Older PostHog versions cannot create one
    (they answer 405); the task then fails saying so, and the definition appears once PostHog
    ingests the event.
  - The definition is found by O(id), or else by its exact O(name) (one filtered list request).
    Options you leave out are not managed.
  - O(event_definitions) manages many definitions of the project in one task, reading the project's
    event definitions once for all of them instead of once per loop item.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization_unused
  - posthog.admin.posthog.project
  - posthog.admin.posthog.attributes
options:
  state:
    description:
      - V(present) creates the definition (PostHog's newest API) or sets the metadata you give.
      - V(absent) deletes the definition. It comes back when PostHog ingests the event again,
        without its metadata.
    type: str
    choices: [present, absent]
    default: present
  name:
    description:
      - The event's name exactly as ingested, case included (for example V(signed_up) or
        V($pageview)).
      - One of O(name), O(id) and O(event_definitions) is required (O(name) and O(id) may be given
        together, O(event_definitions) with neither).
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
  property_groups:
    description:
      - The complete set of property groups the event carries, by name (see
        M(posthog.admin.property_group)), the groups of properties every such event must (or may) have.
        Groups it carries that are not listed are taken from it; V([]) takes them all.
      - The groups must exist in the project (in organization_state, the document's C(property_groups)
        section creates them first).
      - Each group added or taken is one request (an event schema in PostHog's API).
    type: list
    elements: str
  event_definitions:
    description:
      - Several event definitions of the project O(project_id), each a dictionary of the options of one
        definition. An option an item leaves out takes the value of the task's option of the same name
        (so O(state) or O(tags) set beside O(event_definitions) applies to every item that does not set
        its own).
      - The items are converged in order, in one module run that lists the project's event definitions
        once; an item with C(id) costs one GET instead. An idempotent run of any number of definitions
        named by C(name) costs one request (a list of the project's event definitions, in pages of 100).
      - Every item is checked before any request; two items naming the same definition fail the task
        before any change. When an item fails, the task fails naming it, and returns
        RV(event_definitions) for the items converged before it.
      - Owners are looked up once per task, however many items name them.
    type: list
    elements: dict
    suboptions:
      state:
        description: Like O(state); defaults to the task's O(state).
        type: str
        choices: [present, absent]
      name:
        description: Like O(name). One of C(name) and C(id) is required.
        type: str
      id:
        description: Like O(id).
        type: str
      description:
        description: Like O(description).
        type: str
      tags:
        description: Like O(tags).
        type: list
        elements: str
      owner:
        description: Like O(owner).
        type: str
      verified:
        description: Like O(verified).
        type: bool
      hidden:
        description: Like O(hidden).
        type: bool
      property_groups:
        description: Like O(property_groups).
        type: list
        elements: str
notes:
  - Needs the scope C(event_definition:read), and C(event_definition:write) to create, change or
    delete anything (the property groups an event carries included). Setting O(owner) to someone new also needs C(project:read) and
    C(organization_member:read).
  - Editing metadata is a paid PostHog feature (C(ingestion_taxonomy)); without it PostHog answers
    HTTP 402 to every change, and the module fails saying so. Tags also need the C(tagging) feature;
    without it PostHog silently drops them, and the module warns.
  - PostHog's rules, which the module predicts in check and diff mode - hiding an event unverifies
    it, verifying an event un-hides it, and re-verifying a verified event keeps the first
    verifier and date.
  - The task is idempotent; with O(name) an unchanged run costs one request (a list filtered by the
    name), with O(id) one GET, and with O(event_definitions) one list for all the items named by C(name)
    plus one GET per item given by C(id).
seealso:
  - module: posthog.admin.event_definition_info
"""

EXAMPLES = r"""
- name: Find the Acme Web project
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: Document the signed_up event
  posthog.admin.event_definition:
    project_id: "{{ acme_web.projects[0].id }}"
    name: signed_up
    description: A person finished the sign-up form
    tags: [onboarding, growth]
    owner: ada@example.com
    verified: true

- name: Declare checkout_started before the app sends it, with the Checkout property group
  posthog.admin.event_definition:
    project_id: "{{ acme_web.projects[0].id }}"
    name: checkout_started
    description: A person opened the checkout
    tags: [checkout]
    property_groups: [Checkout]

- name: Hide an internal test event (this also unverifies it)
  posthog.admin.event_definition:
    project_id: "{{ acme_web.projects[0].id }}"
    name: qa_ping
    hidden: true

- name: Remove the owner and the tags of newsletter_opened, keep the rest
  posthog.admin.event_definition:
    project_id: "{{ acme_web.projects[0].id }}"
    name: newsletter_opened
    owner: ""
    tags: []

- name: Delete a definition by id
  posthog.admin.event_definition:
    project_id: "{{ acme_web.projects[0].id }}"
    id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
    state: absent

- name: Document several events in one task (one list of the project's definitions, whatever their number)
  posthog.admin.event_definition:
    project_id: "{{ acme_web.projects[0].id }}"
    tags: [checkout]
    event_definitions:
      - name: cart_viewed
        description: A person opened the cart
      - name: order_completed
        description: A person paid for an order
        verified: true
      - name: checkout_test_ping
        state: absent
  register: checkout_events

- name: Show the ids of the documented definitions
  ansible.builtin.debug:
    msg: "{{ checkout_events.event_definitions | map(attribute='id', default='(deleted)') | list }}"
"""

RETURN = r"""
event_definition:
  description:
    - The event definition as PostHog returns it after the task (in check mode, as it would be; a new
      one has no C(id) yet).
    - With O(property_groups), also C(property_groups), the names of the groups it carries.
    - Empty after O(state=absent).
  returned: unless O(event_definitions) is set
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
event_definitions:
  description:
    - With O(event_definitions), each item's definition after the task, in the order of the items, like
      RV(event_definition) (empty for an item with C(state=absent)).
    - On failure, the definitions of the items converged before the failing one.
  returned: when O(event_definitions) is set
  type: list
  elements: dict
  sample:
    - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
      name: cart_viewed
      description: A person opened the cart
      tags: [checkout]
      owner: null
      verified: false
      verified_at: null
      verified_by: null
      hidden: false
      last_seen_at: "2026-11-22T09:59:00Z"
      created_at: "2026-11-01T08:00:00Z"
      updated_at: "2026-11-22T10:00:00Z"
      default_columns: []
    - {}
diff:
  description:
    - The managed fields before and after, in diff mode. C(owner) is an email address (V('') for
      none) and C(tags) a sorted list.
    - With O(event_definitions), a list with one such entry per item that changed, each with headers
      naming the item.
  returned: when diff mode is on
  type: raw
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

from ansible_collections.posthog.admin.plugins.module_utils._event_definition import ARGUMENT_SPEC, EventDefinition
from ansible_collections.posthog.admin.plugins.module_utils._module import run_module


def main():
    run_module(EventDefinition, ARGUMENT_SPEC, required_one_of=[("id", "name")])


if __name__ == "__main__":
    main()
