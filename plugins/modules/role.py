#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: role
short_description: Create, rename or delete a role of a PostHog organization, and say who holds it
version_added: 0.1.0
description:
  - Makes sure a role of an organization (PostHog's role-based access control) exists, and that
    the people you list hold it; or that the role does not exist.
  - The role is found by O(id), or else by O(name) (PostHog keeps role names unique within an
    organization, regardless of case). With O(id), O(name) renames it.
  - O(members) lists people by email address. Members of the organization who do not hold the role
    get it; with O(purge=true), holders who are not listed lose it. People who are invited but have
    not joined yet cannot hold a role in PostHog; the task warns and leaves them for a later run.
    Anyone else fails the task before any change.
  - Giving people access to projects and resources through the role is done in PostHog's web app.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.attributes
options:
  state:
    description:
      - V(present) creates the role, renames it and sets who holds it.
      - V(absent) deletes it; its holders lose it, and if it was the organization's default role the
        organization has none afterwards.
    type: str
    choices: [present, absent]
    default: present
  id:
    description:
      - The role's id (a UUID). With O(id), O(name) renames the role.
      - When O(id) names no role of the organization, the task fails rather than creating one.
    type: str
  name:
    description:
      - The role's name, 1 to 200 characters. Required to create one.
      - Without O(id), the role with this name, compared regardless of case.
    type: str
  members:
    description:
      - The email addresses (compared regardless of case) of the people who hold the role. Omit to
        leave its holders alone.
    type: list
    elements: str
  purge:
    description:
      - With O(members), whether holders of the role who are not listed lose it. Without it, listed
        people are only added.
    type: bool
    default: false
  roles:
    description:
      - Several roles, each a dictionary of the options of one role. An option an item leaves out
        takes the value of the task's option of the same name (so O(purge) set beside O(roles)
        applies to every item that does not set its own).
      - The items are converged in order, in one module run that lists the organization's roles
        once, and its members once if anyone is to be added. An unchanged run of any number of roles
        named by C(name) costs one request.
      - Every item is checked before any request; two items naming the same role fail the task
        before any change. When an item fails, the task fails naming it, and returns RV(roles) for
        the items converged before it.
    type: list
    elements: dict
    suboptions:
      state:
        description: Like O(state).
        type: str
        choices: [present, absent]
      name:
        description: Like O(name). One of C(name) and C(id) is required.
        type: str
      id:
        description: Like O(id).
        type: str
      members:
        description: Like O(members).
        type: list
        elements: str
      purge:
        description: Like O(purge).
        type: bool
notes:
  - Needs the scope C(organization:read), and C(organization:write) to change anything; the task
    also reads the organization's members (C(organization_member:read)) when it adds someone.
  - Members of the organization may read roles; creating, renaming and deleting roles and changing
    their holders needs the admin level.
  - "Requests: one list of the organization's roles (or one GET with O(id)); when someone is to be
    added, one list of members (and of invites, when a listed person is not a member); one POST per
    person given the role and one DELETE per person losing it. A run that changes nothing makes one
    request."
  - To give everyone who joins a role, set O(posthog.admin.organization#module:default_role). To give
    each person their roles in the same task as their level, use O(posthog.admin.roster#module:people[].roles).
seealso:
  - module: posthog.admin.role_info
  - module: posthog.admin.organization
  - module: posthog.admin.roster
"""

EXAMPLES = r"""
- name: The engineers, and nobody else
  posthog.admin.role:
    organization: Acme
    name: Engineering
    members:
      - ada@acme.example
      - linus@acme.example
    purge: true

- name: Several roles in one task (one list of roles when nothing changes)
  posthog.admin.role:
    organization: Acme
    purge: true
    roles:
      - name: Engineering
        members: [ada@acme.example, linus@acme.example]
      - name: Support
        members: [grace@acme.example]
      - name: Interns
        state: absent

- name: Find the role still called Platform
  posthog.admin.role_info:
    organization: Acme
    name: Platform
  register: platform

- name: Rename it to Platform engineering, keeping its id (nothing left to do once it is renamed)
  posthog.admin.role:
    organization: Acme
    id: "{{ platform.roles[0].id }}"
    name: Platform engineering
  when: platform.roles | length == 1
"""

RETURN = r"""
role:
  description:
    - The role as PostHog returns it after the task (in check mode, as it would be), with
      C(member_emails) added. Empty after O(state=absent).
  returned: unless O(roles) is set
  type: dict
  contains:
    member_emails:
      description: The email addresses of the people holding the role, sorted.
      type: list
      elements: str
      returned: always
  sample:
    id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
    name: Engineering
    is_default: false
    created_at: "2026-11-22T10:00:00Z"
    created_by:
      email: admin@acme.example
    members:
      - id: 0190a3f4-0000-7000-8000-0000000000a1
        role_id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
        user:
          email: ada@acme.example
          uuid: 0190a3f4-0000-7000-8000-0000000000b1
        joined_at: "2026-11-22T10:00:00Z"
    member_emails: [ada@acme.example]
roles:
  description:
    - With O(roles), each item's role after the task, in the order of the items, like RV(role) (empty
      for an item with C(state=absent)).
  returned: when O(roles) is set
  type: list
  elements: dict
  sample:
    - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
      name: Engineering
      member_emails: [ada@acme.example, linus@acme.example]
diff:
  description:
    - The role's name and (with O(members)) its holders before and after, in diff mode. With
      O(roles), a list with one such entry per item that changed.
  returned: when diff mode is on and something changed
  type: raw
  sample:
    before:
      name: Engineering
      members: [ada@acme.example]
    after:
      name: Engineering
      members: [ada@acme.example, linus@acme.example]
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_module
from ansible_collections.posthog.admin.plugins.module_utils._role import ARGUMENT_SPEC, Role


def main():
    run_module(Role, ARGUMENT_SPEC, required_one_of=[("id", "name")])


if __name__ == "__main__":
    main()
