#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: identity_provider_config_info
short_description: List the SSO identity provider configurations of a PostHog organization
version_added: 0.1.0
description:
  - Lists the identity provider configurations (SAML, OIDC, SCIM, ID-JAG) of an organization, oldest
    first, or those you name. Secrets never appear (C(has_oidc_client_secret) says whether an OIDC
    secret is saved; a SCIM token is never shown again).
  - Older PostHog has no such configurations (the task then fails saying so).
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.attributes_info
options:
  id:
    description: Only the configuration with this id (a UUID). An unknown id gives an empty list.
    type: str
  name:
    description: Only the configurations with exactly this name.
    type: str
  config_scope:
    description: Only configurations of this scope.
    type: str
    choices: [saml, oidc, scim, xaa]
  domain:
    description: Only the configurations that apply to this domain of the organization (listed in
      C(organization_domain_ids), or with C(domain_scope) V(all)). One more request.
    type: str
notes:
  - Needs the scope C(organization:read); members of the organization may read.
  - One request per 100 configurations, or one GET with O(id).
seealso:
  - module: posthog.admin.identity_provider_config
"""

EXAMPLES = r"""
- name: The SAML configurations of Acme
  posthog.admin.identity_provider_config_info:
    organization: Acme
    config_scope: saml
  register: saml

- name: What applies to acme.example
  posthog.admin.identity_provider_config_info:
    organization: Acme
    domain: acme.example
"""

RETURN = r"""
identity_provider_configs:
  description: The configurations found, each as PostHog returns it.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 01900000-0000-7000-8000-0000000000c1
      name: Okta
      config_scope: saml
      organization_domain_ids: [01900000-0000-7000-8000-0000000000d1]
      has_saml: true
      has_scim: false
"""

from ansible_collections.posthog.admin.plugins.module_utils._identity_provider import (
    INFO_ARGUMENT_SPEC,
    read_identity_provider_configs,
)
from ansible_collections.posthog.admin.plugins.module_utils._module import run_info


def main():
    run_info(INFO_ARGUMENT_SPEC, read_identity_provider_configs)


if __name__ == "__main__":
    main()
