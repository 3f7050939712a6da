#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: identity_provider_config
short_description: Create, update or delete an SSO identity provider configuration (SAML, OIDC, SCIM) of PostHog
version_added: 0.1.0
description:
  - Makes sure an identity provider configuration of an organization exists with the settings you
    give, or does not exist. PostHog's newest API keeps SAML, OIDC, SCIM and ID-JAG settings there,
    applied to the verified domains you list (O(domains)) or to all of them (O(domain_scope=all)).
  - The configuration is found by O(id), or else by O(name). Settings you leave out are not managed.
  - The OIDC client secret is write-only, see O(update_secrets). A SCIM bearer token is returned
    once, in the run that made it, see O(scim_enabled).
  - Older PostHog has no identity provider configurations and keeps SAML on the domain (the task
    then fails saying so); use the SAML options of M(posthog.admin.domain) there.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.attributes
options:
  state:
    description:
      - V(present) creates or updates the configuration; V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  id:
    description:
      - The configuration's id (a UUID). With O(id), O(name) is a setting, so it can be renamed.
      - When O(id) names no configuration of the organization, the task fails rather than creating one.
    type: str
  name:
    description:
      - Its display name (at most 255 characters), for example V(Okta production). Required to create one.
      - Without O(id), the configuration with exactly this name; the task fails when several share it.
    type: str
  config_scope:
    description:
      - What the configuration configures. Required to create one (PostHog cannot delete a
        configuration without it).
      - V(oidc) is the only scope that takes the O(oidc_issuer_url), O(oidc_client_id) and
        O(oidc_client_secret) settings.
    type: str
    choices: [saml, oidc, scim, xaa]
  domain_scope:
    description:
      - V(selected) (PostHog's behaviour when unset) applies the configuration to O(domains);
        V(all) to every verified domain of the organization.
    type: str
    choices: [selected, all]
  domains:
    description:
      - The domains of the organization the configuration applies to, by name (for example
        V(example.com)); the whole list, in any order. The domains must exist (add them with
        M(posthog.admin.domain)); one that is not verified yet is accepted with a warning, and the
        configuration applies to it once it is.
      - Two complete SAML (or OIDC) configurations may not cover the same verified domain; PostHog
        refuses the second and the task says so.
    type: list
    elements: str
  saml_entity_id:
    description: The SAML identity provider's entity id (issuer), at most 512 characters.
    type: str
  saml_acs_url:
    description: The identity provider's single sign-on URL, at most 512 characters.
    type: str
  saml_x509_cert:
    description: The identity provider's X.509 signing certificate (PEM).
    type: str
  oidc_issuer_url:
    description: The OIDC issuer, an HTTPS URL without credentials, query or fragment that matches the issuer of its discovery document.
    type: str
  oidc_client_id:
    description: The client id of the organization's OIDC application.
    type: str
  oidc_client_secret:
    description:
      - The client secret of the OIDC application. Write-only; PostHog says only whether one is saved.
      - An empty string removes the saved secret.
    type: str
  update_secrets:
    description:
      - When to send O(oidc_client_secret) to an existing configuration, which PostHog never returns.
      - V(on_create) sends it when the configuration is created, and later only when PostHog says it
        has none (or has one and the task gives an empty string). A changed secret is not noticed; run
        once with V(always) to rotate it.
      - V(always) sends it on every run, and the task then always reports changed.
    type: str
    choices: [on_create, always]
    default: on_create
  scim_enabled:
    description:
      - Whether SCIM provisioning is on. Turning it on makes PostHog generate a bearer token, which
        it answers once; the module returns it in that run as C(identity_provider_config.scim_bearer_token)
        and never again. Turning it off drops the token.
      - "The token is a secret: run such a task with C(no_log: true) and register its result to hand
        the token to your identity provider (or store it in a vault) in the same play."
    type: bool
  regenerate_scim_token:
    description:
      - Make a new SCIM bearer token (the old one stops working), returned like the first one. An
        action; every run with V(true) makes a new token and reports changed (except the run that
        turned SCIM on, whose token is new already).
      - PostHog's C(scim/token) action refuses personal API keys; the module then turns SCIM off
        and on again, which also makes a new token, and warns.
    type: bool
    default: false
  id_jag_issuer_url:
    description: The trusted issuer of ID-JAG (cross-app access) tokens; needed to enable ID-JAG.
    type: str
  id_jag_jwks_url:
    description: A JWKS URL for ID-JAG, instead of OIDC discovery on the issuer.
    type: str
  id_jag_allowed_clients:
    description: The client ids ID-JAG accepts (any order); an empty list accepts any.
    type: list
    elements: str
notes:
  - Needs the scope C(organization:read), and C(organization:write) to change anything; changing
    needs the admin level in the organization (members may read). PostHog's C(scim/token) action
    refuses personal API keys (O(regenerate_scim_token) works around it).
  - PostHog offers OIDC, SCIM and ID-JAG on plans with those features; without them it refuses the
    settings with C(feature_not_available).
  - An idempotent run costs one request (the organization's configurations), plus one for the
    organization's domains when O(domains) is set.
  - In check mode nothing is written; a configuration to create is predicted without an id, and a
    SCIM token that would be made is not known (null).
seealso:
  - module: posthog.admin.identity_provider_config_info
  - module: posthog.admin.domain
"""

EXAMPLES = r"""
- name: SAML for acme.example through Okta
  posthog.admin.identity_provider_config:
    organization: Acme
    name: Okta
    config_scope: saml
    domains: [acme.example]
    saml_entity_id: http://www.okta.com/exk1234567890
    saml_acs_url: https://acme.okta.com/app/posthog/exk1234567890/sso/saml
    saml_x509_cert: "{{ lookup('ansible.builtin.file', 'okta.pem') }}"

- name: Sign in with OIDC on every verified domain
  posthog.admin.identity_provider_config:
    organization: Acme
    name: Entra ID
    config_scope: oidc
    domain_scope: all
    oidc_issuer_url: https://login.microsoftonline.com/00000000-0000-0000-0000-000000000000/v2.0
    oidc_client_id: 11111111-2222-3333-4444-555555555555
    oidc_client_secret: "{{ vault_entra_client_secret }}"

- name: SCIM provisioning for acme.example (the token is shown once)
  posthog.admin.identity_provider_config:
    organization: Acme
    name: Okta SCIM
    config_scope: scim
    domains: [acme.example]
    scim_enabled: true
  register: scim
  no_log: true

- name: Keep the token where the identity provider's setup can read it
  ansible.builtin.copy:
    content: "{{ scim.identity_provider_config.scim_bearer_token }}"
    dest: "{{ playbook_dir }}/secrets/okta-scim-token"
    mode: "0600"
  when: scim.identity_provider_config.scim_bearer_token | default('', true) | length > 0
  no_log: true

- name: Remove a configuration
  posthog.admin.identity_provider_config:
    organization: Acme
    name: Old IdP
    state: absent
"""

RETURN = r"""
identity_provider_config:
  description:
    - The configuration as PostHog returns it after the task (in check mode, as it would be); the
      OIDC client secret never appears (C(has_oidc_client_secret) says whether one is saved).
    - C(scim_bearer_token) holds the plain SCIM token only in the run that made it, else null.
    - Empty after O(state=absent).
  returned: always
  type: dict
  sample:
    id: 01900000-0000-7000-8000-0000000000c1
    name: Okta
    config_scope: saml
    domain_scope: null
    organization_domain_ids: [01900000-0000-7000-8000-0000000000d1]
    has_saml: true
    has_oidc: false
    has_oidc_client_secret: false
    has_scim: false
    scim_enabled: false
    scim_bearer_token: null
    saml_entity_id: http://www.okta.com/exk1234567890
    saml_acs_url: https://acme.okta.com/app/posthog/exk1234567890/sso/saml
    saml_relay_state: 6f1c8a0e-5d1b-4b5e-9d3a-1f2e3d4c5b6a
diff:
  description: The managed settings before and after (domains by name, the OIDC secret masked), in diff mode.
  returned: when diff mode is on and something changed
  type: dict
  sample:
    before: {}
    after:
      name: Okta
      config_scope: saml
      domains: [example.com]
"""

from ansible_collections.posthog.admin.plugins.module_utils._identity_provider import (
    ARGUMENT_SPEC,
    IdentityProviderConfig,
)
from ansible_collections.posthog.admin.plugins.module_utils._module import run_module


def main():
    run_module(IdentityProviderConfig, ARGUMENT_SPEC, required_one_of=[("id", "name")])


if __name__ == "__main__":
    main()
