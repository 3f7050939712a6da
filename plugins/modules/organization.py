#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: organization
short_description: Create, update or delete a PostHog organization
version_added: 0.1.0
description:
  - Makes sure a PostHog organization exists with the settings you give, or does not exist.
  - The organization is found by O(id), or else by O(name) among the organizations the API key's
    user belongs to. Settings you leave out are not managed.
  - Creating an organization makes the API key's user its owner, gives it a default project, and
    makes it that user's current organization, so later tasks that use V(@current) act on it.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.organization_unused
  - posthog.admin.posthog.attributes
options:
  state:
    description:
      - V(present) creates the organization or updates its settings.
      - V(absent) deletes it, with all its projects and data. Only an owner may delete.
    type: str
    choices: [present, absent]
    default: present
  id:
    description:
      - The organization's id (a UUID). With O(id), O(name) is a setting, so the organization can
        be renamed.
      - When O(id) names no organization the key can see, the task fails rather than creating one.
    type: str
  name:
    description:
      - The organization's name, at most 64 characters. Required to create one.
      - Without O(id), the organization with this exact name; the task fails when several share it.
    type: str
  is_member_join_email_enabled:
    description: Whether members get an email when someone joins the organization.
    type: bool
  enforce_2fa:
    description: Whether members must use two-factor authentication.
    type: bool
  members_can_invite:
    description: Whether members who are not admins may invite people (honoured on plans with invite settings).
    type: bool
  members_can_use_personal_api_keys:
    description: Whether members who are not admins may use personal API keys in this organization.
    type: bool
  allow_publicly_shared_resources:
    description: Whether dashboards, insights and recordings may be shared publicly.
    type: bool
  is_ai_data_processing_approved:
    description: Whether PostHog AI features may process the organization's data.
    type: bool
  default_experiment_stats_method:
    description: The statistics method new experiments use.
    type: str
    choices: [bayesian, frequentist]
  default_role:
    description:
      - The name of the role (compared regardless of case) that PostHog gives everyone who joins the
        organization from now on; an empty string for none. It costs one request, a list of the
        organization's roles.
      - The role must exist; create it first with M(posthog.admin.role). A new organization has no
        roles yet, so this cannot be set in the task that creates it. In check mode a role that does
        not exist yet is assumed to be created by an earlier task, with a warning.
      - PostHog stores the role's id, C(default_role_id) in RV(organization).
    type: str
  enforce_verified_domains:
    description:
      - Whether logins, signups and invites are restricted to e-mail addresses on the organization's
        verified domains (PostHog's newest API; a paid feature).
      - PostHog turns it on only when a verified domain admits the API key user's own address (so
        that the user is not locked out); verify that domain first with M(posthog.admin.domain).
        While it is on, PostHog refuses to delete that domain.
    type: bool
  logo_media_id:
    description:
      - The id (a UUID) of uploaded media to show as the organization's logo; an empty string removes it.
      - PostHog's organization settings page uploads the image; PostHog refuses an id that names no upload.
    type: str
  members_can_create_projects:
    description:
      - Whether members who are not admins may create projects (admins and owners always may).
        PostHog's newest API; it honours the setting on plans with invite settings.
    type: bool
  members_can_see_org_members:
    description:
      - Whether members who are not admins see the whole member list. When V(false), PostHog shows
        them only themselves and the people who share a project with them, in the member list and
        in roles' members. PostHog's newest API.
      - With V(false), a module run with a member's (not an admin's) API key sees fewer people; use
        an admin's key to manage people.
    type: bool
  is_ai_training_opted_in:
    description:
      - Whether the organization allows its data to be used to train PostHog's AI models. PostHog's
        newest API. PostHog staff can lock this setting for an organization; it then keeps its value.
    type: bool
  default_anonymize_ips:
    description:
      - The default of "Discard client IP data" for projects created in the organization from now on
        (existing projects keep theirs; see O(posthog.admin.project#module:anonymize_ips)). PostHog's
        newest API.
    type: bool
notes:
  - Needs the scope C(organization:read), and C(organization:write) to change anything.
  - Updating needs the admin level in the organization; deleting needs the owner level.
  - PostHog computes the slug from the name when the organization is created; it does not change
    on rename.
  - Creating an organization makes it the API key user's current organization, and its first project
    the current project, as the PostHog web app does; the task warns, since later tasks with
    O(organization=@current) (the default) or O(project_id=@current) then act on them.
seealso:
  - module: posthog.admin.organization_info
  - module: posthog.admin.role
"""

EXAMPLES = r"""
- name: Make sure the Acme organization exists with 2FA enforced
  posthog.admin.organization:
    name: Acme
    enforce_2fa: true
    is_member_join_email_enabled: false
  register: acme

- name: Find the organization still called Acme Ltd
  posthog.admin.organization_info:
    name: Acme Ltd
  register: acme_ltd

- name: Rename it to Acme Corp, keeping its id (nothing left to do once it is renamed)
  posthog.admin.organization:
    id: "{{ acme_ltd.organizations[0].id }}"
    name: Acme Corp
  when: acme_ltd.organizations | length == 1

- name: The Viewers role exists
  posthog.admin.role:
    organization: Acme
    name: Viewers

- name: Give everyone who joins the Viewers role
  posthog.admin.organization:
    name: Acme
    default_role: Viewers

- name: Settings for who may invite, use API keys and share publicly
  posthog.admin.organization:
    name: Acme
    members_can_invite: false
    members_can_use_personal_api_keys: true
    allow_publicly_shared_resources: false
    is_ai_data_processing_approved: true
    default_experiment_stats_method: frequentist

- name: Only people with an address on a verified domain may join (verify a domain first)
  posthog.admin.organization:
    name: Acme
    enforce_verified_domains: true
  when: enforce_verified_domains | default(false)

- name: Members see only their project peers, create no projects, and new projects discard IPs
  posthog.admin.organization:
    name: Acme
    members_can_see_org_members: false
    members_can_create_projects: false
    default_anonymize_ips: true
    is_ai_training_opted_in: false

- name: Delete an organization (owner only)
  posthog.admin.organization:
    name: Old sandbox
    state: absent

- name: One task with another key (from the vault), whatever module_defaults say
  posthog.admin.organization:
    api_key: "{{ vault_posthog_api_key }}"
    name: Acme
"""

RETURN = r"""
organization:
  description:
    - The organization as PostHog returns it after the task (in check mode, as it would be).
    - Empty after O(state=absent).
  returned: always
  type: dict
  sample:
    id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
    name: Acme
    slug: acme
    membership_level: 15
    member_count: 3
    enforce_2fa: true
    is_member_join_email_enabled: false
    plugins_access_level: 3
    projects:
      - id: 2
        name: Default project
    created_at: "2026-11-22T10:00:00Z"
diff:
  description: The managed settings before and after, in diff mode.
  returned: when diff mode is on and something changed
  type: dict
  sample:
    before:
      name: Acme
      enforce_2fa: false
    after:
      name: Acme
      enforce_2fa: true
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_module
from ansible_collections.posthog.admin.plugins.module_utils._organization import ARGUMENT_SPEC, Organization


def main():
    run_module(Organization, ARGUMENT_SPEC, required_one_of=[("id", "name")])


if __name__ == "__main__":
    main()
