#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: access_control_info
short_description: List the access control rules of a PostHog project, and who reaches it
version_added: 0.1.0
description:
  - Lists the access control rules of a project (PostHog's role-based access control), the rules
    of the project itself (its default, and the levels of roles and members) and those of its
    resource types, each with the name of its role or the email of its member.
  - With O(users_with_access), also who reaches the project, at what level, and why.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.project
  - posthog.admin.posthog.attributes_info
options:
  resource:
    description: Only the rules of this resource (V(project), V(dashboard), V(feature_flag) ...).
    type: str
  users_with_access:
    description: Also return RV(users_with_access) (one more request).
    type: bool
    default: false
notes:
  - Needs the scope C(access_control:read); role names and member emails are looked up with
    C(organization:read) and C(organization_member:read).
  - PostHog's newest API only; an older PostHog answers 404 and the task says so.
  - Two requests for the rules; when a rule names a role or a member, one more to find the project's
    organization (where the roles and members are looked up, rather than the API key user's current one),
    one for the roles and one for the members.
seealso:
  - module: posthog.admin.access_control
"""

EXAMPLES = r"""
- name: Find the Acme Web project
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: The rules of Acme Web
  posthog.admin.access_control_info:
    project_id: "{{ acme_web.projects[0].id }}"
    users_with_access: true
  register: web_access

- name: Who is an admin of it
  ansible.builtin.debug:
    msg: "{{ web_access.users_with_access | selectattr('access_level', 'eq', 'admin') | map(attribute='email') }}"
"""

RETURN = r"""
access_controls:
  description: The rules, as PostHog returns them, each with its key as C(id) and C(role_name) or
    C(member_email) when it is for a role or a member.
  returned: always
  type: list
  elements: dict
  sample:
    - id: project/default
      resource: project
      resource_id: "12345"
      access_level: none
      role: null
      organization_member: null
users_with_access:
  description: With O(users_with_access), the members who reach the project, as PostHog lists them
    (C(user_id), C(access_level), C(access_source), C(organization_membership_id),
    C(organization_membership_level)), each with C(email).
  returned: with O(users_with_access)
  type: list
  elements: dict
"""

from ansible_collections.posthog.admin.plugins.module_utils._access_control import (
    INFO_ARGUMENT_SPEC,
    read_access_controls,
)
from ansible_collections.posthog.admin.plugins.module_utils._module import run_info


def main():
    run_info(INFO_ARGUMENT_SPEC, read_access_controls)


if __name__ == "__main__":
    main()
