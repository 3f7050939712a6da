#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: access_control
short_description: Set who reaches a PostHog project, and at what level, with access control rules
version_added: 0.1.0
description:
  - Sets one access control rule of a project (PostHog's role-based access control), or several with
    O(rules), or removes it. A rule gives a level of a resource of the project to a role, to a member
    of the organization, or to everyone (the project's default).
  - With O(resource=project) (the default) the rule says who reaches the project itself, at V(none),
    V(member) or V(admin). With a resource type (V(dashboard), V(feature_flag), V(insight),
    V(session_recording) ...) it sets the level for every object of that type in the project, at
    V(none), V(viewer), V(editor) or V(manager); V(action) takes no level below V(viewer), and
    V(activity_log) and V(toolbar) none above V(viewer).
  - PostHog has one request that creates or updates a rule, and removes it when the level is null;
    this module reads the project's rules first, so an unchanged run makes no write.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.project
  - posthog.admin.posthog.attributes
options:
  state:
    description:
      - V(present) sets the rule to O(access_level).
      - V(absent) removes the rule (PostHog's default level applies again).
    type: str
    choices: [present, absent]
    default: present
  resource:
    description:
      - V(project), or the resource type the rule is for, as PostHog names it (V(dashboard),
        V(feature_flag), V(insight), V(notebook), V(session_recording), V(experiment), V(survey) ...).
    type: str
    default: project
  access_level:
    description:
      - The level. V(none), V(member) or V(admin) for O(resource=project); V(none), V(viewer),
        V(editor) or V(manager) otherwise. Required unless O(state=absent).
    type: str
    choices: [admin, editor, manager, member, none, viewer]
  role:
    description:
      - The rule is for the holders of this role (its name, compared regardless of case). Rules for
        roles need PostHog's role-based access, a paid feature; without it PostHog refuses them.
      - Leave out both O(role) and O(member) for the default rule of everyone in the project.
    type: str
  member:
    description:
      - The rule is for this member of the organization (their email address). PostHog names
        members by the id of their membership; the module looks it up.
    type: str
  purge:
    description:
      - With O(rules), remove every rule of the project (of the project itself and of every
        resource type) that the list does not name.
    type: bool
    default: false
  rules:
    description:
      - Several rules of the project, each a dictionary of the options of one rule. An option an item
        leaves out takes the task's value of the same name.
      - The project's rules are read once, in two requests (the project's own rules, and those of its
        resource types); an unchanged list makes no other request than the look-ups of the roles and
        members it names.
      - Every item is checked before any request; two items naming the same rule fail the task before
        any change. When an item fails, the task fails naming it, and returns RV(rules) for the items
        converged before it.
    type: list
    elements: dict
    suboptions:
      state:
        description: Like O(state).
        type: str
        choices: [present, absent]
      resource:
        description: Like O(resource).
        type: str
      access_level:
        description: Like O(access_level).
        type: str
        choices: [admin, editor, manager, member, none, viewer]
      role:
        description: Like O(role).
        type: str
      member:
        description: Like O(member).
        type: str
notes:
  - Needs the scope C(access_control:write) (C(access_control:read) in check mode), and an API key
    of an organization admin or owner. Role and member names are looked up with the scopes
    C(organization:read) and C(organization_member:read).
  - Roles and members are looked up in the organization the project belongs to (found in one list of the API
    key's organizations), not in the API key user's current organization; a task that sets O(organization)
    looks there instead.
  - PostHog's newest API only; an older PostHog answers 404 and the task says so.
  - A rule PostHog's Terraform provider manages cannot be changed by anyone else while the project's
    Terraform lock is on; the task fails saying the rule is owned by Terraform. This module never
    presents itself as Terraform.
  - PostHog's rules have no id; the module returns a rule's key as its C(id) (in RV(access_control) and RV(rules)).
seealso:
  - module: posthog.admin.access_control_info
  - module: posthog.admin.role
"""

EXAMPLES = r"""
- name: Find the Acme Web project
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: Only admins and the data team reach Acme Web
  posthog.admin.access_control:
    project_id: "{{ acme_web.projects[0].id }}"
    purge: true
    rules:
      - access_level: none            # the default for everyone
      - role: Data
        access_level: member
      - member: ada@acme.example
        access_level: admin
      - resource: session_recording
        role: Data
        access_level: viewer
      - resource: dashboard           # everyone may only view dashboards
        access_level: viewer

- name: One rule alone, leaving the others as they are (everyone may only view dashboards)
  posthog.admin.access_control:
    project_id: "{{ acme_web.projects[0].id }}"
    resource: dashboard
    access_level: viewer

- name: Linus no longer has a rule of his own on Acme Web
  posthog.admin.access_control:
    project_id: "{{ acme_web.projects[0].id }}"
    member: linus@acme.example
    state: absent
"""

RETURN = r"""
access_control:
  description: The rule as PostHog returns it (empty after O(state=absent)), with its key as C(id), and
    C(role_name) or C(member_email) when it is for a role or a member.
  returned: without O(rules)
  type: dict
  sample:
    id: dashboard/role:0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
    resource: dashboard
    resource_id: null
    access_level: viewer
    role: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
    role_name: Data
    organization_member: null
    created_by: 1
    created_at: "2026-11-26T10:00:00Z"
    updated_at: "2026-11-26T10:00:00Z"
rules:
  description: With O(rules), the rules in the order of the list, then the ones O(purge) removed (each
    empty), as RV(access_control) describes them.
  returned: with O(rules)
  type: list
  elements: dict
"""

from ansible_collections.posthog.admin.plugins.module_utils._access_control import ARGUMENT_SPEC, AccessControl
from ansible_collections.posthog.admin.plugins.module_utils._module import run_module


def main():
    run_module(AccessControl, ARGUMENT_SPEC, mutually_exclusive=[("role", "member")])


if __name__ == "__main__":
    main()
