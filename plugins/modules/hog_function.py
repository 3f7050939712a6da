#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: hog_function
short_description: Create, update or delete a hog function (destination, transformation, site app) of a PostHog project
version_added: 0.1.0
description:
  - Manages a hog function of a PostHog project - a destination, a transformation, a site app or a
    webhook source. Hog functions replace PostHog's pipeline plugins (see the guide
    C(docs/docsite/rst/guide_plugins_to_hog_functions.rst) and M(posthog.admin.pipeline_plugin)).
  - The function is found by O(id), or else by its exact O(name) among the project's functions (one
    list request that reads every function in full). Options you leave out are not managed.
  - A function made from a template (O(template_id)) gets the template's code, inputs schema, name,
    description and icon where you leave them out.
  - O(hog_functions) manages many functions of the project in one task, reading the project's
    functions once for all of them.
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
      - V(present) creates the function or brings it in line with the options you give.
      - V(absent) deletes it. PostHog refuses a DELETE request for hog functions; the module deletes
        with PATCH C({"deleted":true}), as PostHog asks, so the function disappears from every list.
    type: str
    choices: [present, absent]
    default: present
  id:
    description:
      - The function's id (a UUID), as returned by M(posthog.admin.hog_function_info).
      - One of O(name), O(id) and O(hog_functions) is required. With O(id), O(name) renames it.
    type: str
  name:
    description:
      - The function's name (at most 400 characters); PostHog does not make names unique, so a name
        that matches several functions fails the task (give O(id) then).
    type: str
  type:
    description:
      - What the function is. Kept from creation; a different value fails the task before any
        request is written (delete and recreate the function to change it).
      - PostHog creates a V(destination) when it is left out.
      - V(transformation_log) needs a PostHog feature flag on the project.
    type: str
    choices: [destination, site_destination, internal_destination, source_webhook, site_app, transformation,
              transformation_log]
  template_id:
    description:
      - The template the function is made from, for example V(template-customerio) or
        V(template-sendgrid); M(posthog.admin.hog_function_info) with O(posthog.admin.hog_function_info#module:templates=true)
        lists them.
      - Kept from creation, like O(type); PostHog reads it back as C(template.id).
    type: str
  description:
    description:
      - What the function does.
    type: str
  icon_url:
    description:
      - The URL of the function's icon.
    type: str
  enabled:
    description:
      - Whether the function runs. PostHog creates functions disabled.
      - PostHog allows at most 20 enabled transformations (5 log transformations) per project.
    type: bool
  hog:
    description:
      - The function's source code - Hog, or TypeScript for V(site_destination) and V(site_app).
        Required to create a function without O(template_id). At most 100 KB.
    type: str
  inputs_schema:
    description:
      - The inputs the function takes, each a dictionary with at least C(key) and C(type) (and
        C(label), C(required), C(default), C(secret) ...), as PostHog's API documents them.
      - Left out, a function made from a template takes the template's.
    type: list
    elements: dict
  inputs:
    description:
      - Values of the function's non-secret inputs, by key (C(site_id), C(host) ...). Each value is
        sent as C({"value":...}); the inputs you leave out keep their value.
      - PostHog keeps only the inputs its schema (O(inputs_schema), the function's, or its
        template's) has and silently drops the others, so a key outside the schema fails the task
        before any change, naming the schema's keys. A key the schema marks secret belongs in
        O(secret_inputs).
    type: dict
  secret_inputs:
    description:
      - Values of the function's secret inputs (API keys, tokens), by key.
      - PostHog never returns them (it answers C({"secret":true}) in their place), so they are never
        compared or shown; see O(update_secrets).
    type: dict
  update_secrets:
    description:
      - When to send O(secret_inputs) to an existing function.
      - V(on_create) sends them when the function is created, and later only when one of them has no
        value stored in PostHog yet. A changed secret is not noticed; to rotate one, run once with
        V(always).
      - V(always) sends every secret you give on every run, and the task then always reports changed.
    type: str
    choices: [on_create, always]
    default: on_create
  filters:
    description:
      - Which events the function runs on, as PostHog's API takes them (C(events), C(actions),
        C(properties), C(filter_test_accounts), C(source) ...). Keys you leave out are not compared;
        the C(bytecode) PostHog compiles from them is never compared.
    type: dict
  masking:
    description:
      - PII masking, a dictionary with C(ttl) (60 to 86400 seconds), C(hash) (a Hog expression) and
        optionally C(threshold).
    type: dict
  mappings:
    description:
      - Event-to-destination mappings, for V(destination) and V(site_destination) functions only.
        PostHog drops C(filters.events) and C(filters.actions) when mappings are set.
    type: list
    elements: dict
  execution_order:
    description:
      - The position of a transformation among the project's transformations (lower runs first).
        PostHog puts a new, re-enabled or restored transformation last unless you give it.
    type: int
  hog_functions:
    description:
      - Several hog functions of the project O(project_id), each a dictionary of the options of one
        function. An option an item leaves out takes the value of the task's option of the same name.
      - The items are converged in order, in one module run that lists the project's functions once.
        Every item is checked before any request; two items naming the same function fail the task
        before any change. When an item fails, the task fails naming it, and returns
        RV(hog_functions) for the items converged before it.
    type: list
    elements: dict
    suboptions:
      state:
        description: Like O(state).
        type: str
        choices: [present, absent]
      id:
        description: Like O(id).
        type: str
      name:
        description: Like O(name). One of C(name) and C(id) is required.
        type: str
      type:
        description: Like O(type).
        type: str
        choices: [destination, site_destination, internal_destination, source_webhook, site_app, transformation,
                  transformation_log]
      template_id:
        description: Like O(template_id).
        type: str
      description:
        description: Like O(description).
        type: str
      icon_url:
        description: Like O(icon_url).
        type: str
      enabled:
        description: Like O(enabled).
        type: bool
      hog:
        description: Like O(hog).
        type: str
      inputs_schema:
        description: Like O(inputs_schema).
        type: list
        elements: dict
      inputs:
        description: Like O(inputs).
        type: dict
      secret_inputs:
        description: Like O(secret_inputs).
        type: dict
      update_secrets:
        description: Like O(update_secrets).
        type: str
        choices: [on_create, always]
      filters:
        description: Like O(filters).
        type: dict
      masking:
        description: Like O(masking).
        type: dict
      mappings:
        description: Like O(mappings).
        type: list
        elements: dict
      execution_order:
        description: Like O(execution_order).
        type: int
notes:
  - Needs the scope C(hog_function:read), and C(hog_function:write) to change anything.
  - Hog functions are in PostHog since 2024; on an older PostHog the module fails saying the API is
    missing.
  - Every update carries C(base_updated_at), the C(updated_at) the task read. When someone changed the
    function in between, PostHog's newest versions refuse the update (HTTP 409); the module re-reads the
    function and is done when it already is as wanted (its own earlier attempt, retried after a lost
    answer), else fails saying so, having written nothing; run the task again.
  - The module sends its own User-Agent (C(posthog.admin/<version>)), never one starting with
    C(posthog/), which PostHog reserves for its own tools (Terraform provider, MCP server) and treats
    differently.
seealso:
  - module: posthog.admin.hog_function_info
  - module: posthog.admin.pipeline_plugin
"""

EXAMPLES = r"""
- name: Find the Acme Web project
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: Send identified people to Customer.io (a destination from PostHog's template)
  posthog.admin.hog_function:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Customer.io
    template_id: template-customerio
    enabled: true
    inputs:
      site_id: a1b2c3
      host: track-eu.customer.io
    secret_inputs:
      token: "{{ vault_customerio_api_key }}"
    filters:
      events:
        - {id: $identify, name: $identify, type: events}

- name: Rotate the Customer.io API key (secrets are never read back, so ask for it)
  posthog.admin.hog_function:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Customer.io
    secret_inputs:
      token: "{{ vault_customerio_new_api_key }}"
    update_secrets: always

- name: Two transformations, in this order
  posthog.admin.hog_function:
    project_id: "{{ acme_web.projects[0].id }}"
    type: transformation
    enabled: true
    hog_functions:
      - name: GeoIP
        template_id: template-geoip
        execution_order: 1
      - name: Drop internal events
        hog: "if (event.event == 'internal') { return null }\nreturn event"
        execution_order: 2

- name: Delete a function (PostHog keeps it, marked deleted)
  posthog.admin.hog_function:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Old webhook
    state: absent
"""

RETURN = r"""
hog_function:
  description:
    - The function as PostHog returns it after the task (in check mode, as it would be). Secret
      inputs appear as C({"secret":true}), never with their value.
    - Empty after O(state=absent).
  returned: unless O(hog_functions) is set
  type: dict
  sample:
    id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
    type: destination
    name: Customer.io
    enabled: true
    template:
      id: template-customerio
    inputs:
      site_id: {value: a1b2c3}
      token: {secret: true}
    filters:
      events: [{id: $identify, name: $identify, type: events}]
    execution_order: null
    version: 2
    updated_at: "2026-11-22T10:00:00Z"
hog_functions:
  description:
    - With O(hog_functions), each item's function after the task, in the order of the items, like
      RV(hog_function) (empty for an item with C(state=absent)).
  returned: when O(hog_functions) is set
  type: list
  elements: dict
  sample:
    - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
      type: transformation
      name: GeoIP
      execution_order: 1
diff:
  description:
    - The managed fields before and after, in diff mode. Secret inputs show as a mask, and only when
      they are stored or sent; compiled C(bytecode) is left out.
  returned: when diff mode is on
  type: raw
  sample:
    before:
      name: Customer.io
      enabled: false
    after:
      name: Customer.io
      enabled: true
"""

from ansible_collections.posthog.admin.plugins.module_utils._hog_function import ARGUMENT_SPEC, HogFunction
from ansible_collections.posthog.admin.plugins.module_utils._module import run_module


def main():
    run_module(HogFunction, ARGUMENT_SPEC, required_one_of=[("id", "name")])


if __name__ == "__main__":
    main()
