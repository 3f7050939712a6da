#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: organization_state_info
short_description: Export a PostHog organization as one document, to keep as code
version_added: 0.1.0
description:
  - Reads one organization and returns it as O(ignore:definition), the document that
    M(posthog.admin.organization_state) and the role P(posthog.admin.organization_as_code#role) converge -
    settings, projects with their settings, roles with who holds them and the default role, domains
    with their single sign-on (and the TXT record of each domain not verified yet, in C(notes) and the
    file's comments), identity provider configurations (PostHog's newest API), the people (members and pending invites, with their levels), managed
    reverse proxies, the credential integrations and batch exports of every project, pipeline plugins of
    every family, and each project's tracking plan - its property groups, its documented or declared
    event definitions with the groups they carry, and its documented property definitions.
  - Applying the document back changes nothing; applying it to a new organization recreates it,
    secrets aside.
  - Secrets cannot be read back (PostHog never returns destination or integration credentials or an
    OIDC client secret), so the document leaves them out, and C(notes) says which object needs which
    one to be created again. No
    placeholder is ever written in their place.
  - With O(dest), also writes the document as commented YAML on the host that runs the task (the
    controller, for a play on V(localhost)); that file is the only thing this module changes.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.project_unused
attributes:
  check_mode:
    description: Can run in check mode and return changed status prediction without modifying target.
    support: full
    details: In check mode O(dest) is not written; C(changed) says whether it would be.
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check_mode), when in diff mode.
    support: none
  action_group:
    description: Use C(group/posthog.admin.posthog) in C(module_defaults) to set defaults for this module.
    support: full
    membership:
      - posthog.admin.posthog
options:
  dest:
    description:
      - A file to write the document to, as YAML with comments, ordered as the role takes it. Written
        only when its content differs, with mode 0600 (the document names people).
    type: path
notes:
  - Needs the scopes C(organization:read), C(organization_member:read), C(project:read),
    C(access_control:read), C(batch_export:read), C(integration:read), C(hog_function:read), C(plugin:read),
    C(event_definition:read) and C(property_definition:read). A part PostHog refuses or no longer has (the plugin
    API on today's PostHog Cloud) is left out and named in C(notes).
  - Event definitions nobody documented (no description, tags, owner, and neither verified nor
    hidden) are left out; PostHog makes them from the events it ingests.
seealso:
  - module: posthog.admin.organization_state
"""

EXAMPLES = r"""
- name: Export Acme to a file to keep in git
  posthog.admin.organization_state_info:
    organization: Acme
    dest: organizations/acme.yml
  register: acme

- name: Apply it back (no change on an unchanged organization)
  posthog.admin.organization_state:
    definition: "{{ acme.definition }}"
"""

RETURN = r"""
definition:
  description: The organization as one document (see M(posthog.admin.organization_state)).
  returned: always
  type: dict
  sample:
    name: Acme
    settings:
      enforce_2fa: true
    domains:
      - domain: acme.example
        state: verified
        jit_provisioning_enabled: true
    roster:
      people:
        - email: ops@acme.example
          level: owner
    batch_exports:
      - name: Events to S3
        state: present
        model: events
        interval: hour
        destination:
          type: S3
          config:
            bucket_name: acme-posthog
            prefix: events/
            region: eu-west-1
    plugins: []
    property_groups: []
    event_definitions: []
notes:
  description:
    - What a person should know about the document - secrets to add before creating an object again,
      DNS records still to publish, parts left out (for example identity provider configurations on a
      PostHog that has none).
  returned: always
  type: list
  elements: str
dest:
  description: The file written, when O(dest) is set.
  returned: when O(dest) is set
  type: str
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_info
from ansible_collections.posthog.admin.plugins.module_utils._state import STATE_INFO_ARGUMENT_SPEC, read_state


def main():
    run_info(STATE_INFO_ARGUMENT_SPEC, read_state)


if __name__ == "__main__":
    main()
