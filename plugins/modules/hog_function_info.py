#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: hog_function_info
short_description: List the hog functions of a PostHog project, or the templates they are made from
version_added: 0.1.0
description:
  - Lists the hog functions (destinations, transformations, site apps ...) of a PostHog project in
    full, or the one you name.
  - With O(templates=true) (or O(template_id)), lists PostHog's hog function templates instead,
    with their input schemas; secret inputs are those whose schema item has C(secret=true).
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
      - Only the function with this id (a UUID). One request; an unknown id gives an empty list.
    type: str
  name:
    description:
      - Only the functions (or, with O(templates), templates) with exactly this name.
    type: str
  type:
    description:
      - Only functions (or templates) of these types. Every type when left out.
    type: list
    elements: str
    choices: [destination, site_destination, internal_destination, source_webhook, site_app, transformation,
              transformation_log]
  templates:
    description:
      - List PostHog's templates (RV(templates)) instead of the project's functions. PostHog leaves
        deprecated templates out of the list.
    type: bool
    default: false
  template_id:
    description:
      - Only the template with this id (for example V(template-customerio)); implies
        O(templates=true). A deprecated template can still be read this way.
    type: str
notes:
  - Needs the scope C(hog_function:read).
  - Secret inputs of a function are returned as C({"secret":true}); PostHog never returns their value.
  - PostHog's newest API only (hog functions are in PostHog since 2024); an older PostHog answers 404 and the
    task says so.
seealso:
  - module: posthog.admin.hog_function
"""

EXAMPLES = r"""
- name: Find the Acme Web project
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: List the project's destinations
  posthog.admin.hog_function_info:
    project_id: "{{ acme_web.projects[0].id }}"
    type: [destination]
  register: destinations

- name: Show their names and whether they run
  ansible.builtin.debug:
    msg: "{{ destinations.hog_functions | items2dict(key_name='name', value_name='enabled') }}"

- name: PostHog's destination templates
  posthog.admin.hog_function_info:
    project_id: "{{ acme_web.projects[0].id }}"
    templates: true
    type: [destination]
  register: templates

- name: Read the Customer.io template, to see its inputs and which are secret
  posthog.admin.hog_function_info:
    project_id: "{{ acme_web.projects[0].id }}"
    template_id: template-customerio
  register: customerio

- name: Show the template's secret inputs
  ansible.builtin.debug:
    msg: "{{ customerio.templates[0].inputs_schema | selectattr('secret', 'defined') | selectattr('secret')
             | map(attribute='key') | list }}"
"""

RETURN = r"""
hog_functions:
  description: The functions found, each as PostHog returns it in full, in PostHog's order.
  returned: unless O(templates) or O(template_id) is set
  type: list
  elements: dict
  sample:
    - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
      type: destination
      name: Customer.io
      enabled: true
      template: {id: template-customerio}
      inputs:
        site_id: {value: a1b2c3}
        token: {secret: true}
templates:
  description: The templates found, each as PostHog returns it.
  returned: when O(templates) or O(template_id) is set
  type: list
  elements: dict
  sample:
    - id: template-customerio
      name: Customer.io
      type: destination
      status: stable
      inputs_schema:
        - {key: site_id, type: string, required: true, secret: false}
        - {key: token, type: string, required: true, secret: true}
"""

from ansible_collections.posthog.admin.plugins.module_utils._hog_function import (
    INFO_ARGUMENT_SPEC,
    read_hog_functions,
)
from ansible_collections.posthog.admin.plugins.module_utils._module import run_info


def main():
    run_info(INFO_ARGUMENT_SPEC, read_hog_functions)


if __name__ == "__main__":
    main()
