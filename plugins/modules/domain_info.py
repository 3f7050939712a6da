#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: domain_info
short_description: List the domains of a PostHog organization, with their verification records
version_added: 0.1.0
description:
  - Lists the domains of an organization (ordered by name), or the one you name, each with its SSO
    and SAML settings and the DNS TXT record that verifies it.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.attributes_info
options:
  domain:
    description:
      - Only this domain. It is compared in lower case, without a trailing dot, as
        M(posthog.admin.domain) does.
    type: str
  id:
    description: Only the domain with this id (a UUID).
    type: str
notes:
  - Needs the scope C(organization:read). Members of the organization may read its domains.
  - A O(domain) or O(id) that matches nothing gives an empty list, not a failure.
  - One request for the whole list (one more per 500 domains), or one GET with O(id).
seealso:
  - module: posthog.admin.domain
"""

EXAMPLES = r"""
- name: List the domains of the current organization
  posthog.admin.domain_info:
  register: domains

- name: Show which are verified
  ansible.builtin.debug:
    msg: "{{ domains.domains | map(attribute='domain') | zip(domains.domains | map(attribute='is_verified')) | list }}"

- name: Read the TXT record of one domain
  posthog.admin.domain_info:
    organization: Acme
    domain: acme.example
  register: acme

- name: Show the record to publish
  ansible.builtin.debug:
    msg: "{{ acme.domains[0].verification.name }} TXT {{ acme.domains[0].verification.value }}"
  when: acme.domains | length > 0 and not acme.domains[0].is_verified
"""

RETURN = r"""
domains:
  description: The domains found, each as PostHog returns it plus C(verification), the TXT record to publish.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
      domain: acme.example
      is_verified: false
      verified_at: null
      verification_challenge: 3Yy0mWQ9h6VrTqk2sZl1cJbXn8uEo4dPaGf7iHwKx5M
      jit_provisioning_enabled: false
      sso_enforcement: ""
      has_saml: false
      saml_entity_id: null
      saml_acs_url: null
      saml_x509_cert: null
      verification:
        record_type: TXT
        name: _posthog-challenge.acme.example
        value: 3Yy0mWQ9h6VrTqk2sZl1cJbXn8uEo4dPaGf7iHwKx5M
"""

from ansible_collections.posthog.admin.plugins.module_utils._domain import INFO_ARGUMENT_SPEC, read_domains
from ansible_collections.posthog.admin.plugins.module_utils._module import run_info


def main():
    run_info(INFO_ARGUMENT_SPEC, read_domains)


if __name__ == "__main__":
    main()
