#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: project_info
short_description: List the projects of a PostHog organization
version_added: 0.1.0
description:
  - Lists the projects of an organization as PostHog lists them (id, name, timezone, token ...), or
    the one you name with all its settings.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.attributes_info
options:
  id:
    description: Only the project with this numeric id, with all its settings.
    type: str
  name:
    description: Only the project with this name (compared regardless of case), with all its settings.
    type: str
notes:
  - Needs the scope C(project:read). Members of the organization may read its projects.
  - An O(id) or O(name) that matches nothing gives an empty list, not a failure.
  - One request for the list; with O(id) one GET; with O(name) the list and one GET of the match.
seealso:
  - module: posthog.admin.project
"""

EXAMPLES = r"""
- name: List the projects of Acme
  posthog.admin.project_info:
    organization: Acme
  register: acme_projects

- name: Show their ids and names
  ansible.builtin.debug:
    msg: "{{ acme_projects.projects | items2dict(key_name='name', value_name='id') }}"

- name: Read one project's settings
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web
"""

RETURN = r"""
projects:
  description:
    - The projects found. Listed, each has PostHog's short shape (C(id), C(uuid), C(organization),
      C(api_token), C(name), C(timezone), C(is_demo), C(access_control) ...); with O(id) or O(name)
      each has all its settings, as M(posthog.admin.project) returns them.
    - The secrets among them (C(slack_incoming_webhook), C(secret_api_token),
      C(secret_api_token_backup)) are masked, as M(posthog.admin.project) masks them.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 2
      uuid: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
      organization: 0190a3f4-0000-7000-8000-000000000001
      name: Acme Web
      api_token: phc_AbCdEf0123456789
      timezone: Europe/Paris
      is_demo: false
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_info
from ansible_collections.posthog.admin.plugins.module_utils._project import INFO_ARGUMENT_SPEC, read_projects


def main():
    run_info(INFO_ARGUMENT_SPEC, read_projects)


if __name__ == "__main__":
    main()
