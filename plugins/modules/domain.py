#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: domain
short_description: Add, verify or remove a PostHog organization domain, with its SSO and SAML settings
version_added: 0.1.0
description:
  - Makes sure a domain (for example V(example.com)) belongs to a PostHog organization, optionally
    verified, with the single sign-on settings you give; or that it does not.
  - PostHog proves ownership with a DNS TXT record. The module returns that record as
    RV(domain.verification) (C(name) V(_posthog-challenge.<domain>) and C(value) the domain's
    challenge), so a playbook can publish it with any DNS module and then run this module with
    O(state=verified).
  - The domain is found by O(id), or else by O(domain) among the organization's domains. Settings you
    leave out are not managed.
  - O(domains) manages many domains in one task, reading the organization's domains once for all of
    them instead of once per loop item.
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
      - V(present) adds the domain (unverified) or updates its settings.
      - V(verified) also verifies it. An unverified domain is verified by asking PostHog to look up its
        TXT record, again every O(verify_interval) seconds for up to O(verify_timeout) seconds; when
        the record is still not found the task fails and returns the record to publish. The SSO
        settings are applied after verification. A domain this task had to create is tried once
        only, since its new challenge cannot be in DNS yet.
      - In check mode V(verified) reports a change for an unverified domain without asking PostHog to
        verify it.
      - V(absent) removes the domain from the organization.
    type: str
    choices: [present, verified, absent]
    default: present
  domain:
    description:
      - The domain name, for example V(example.com) or V(login.example.co.uk). Required to add one.
      - Exactly one of O(domain), O(id) and O(domains) is required.
      - DNS names are not case-sensitive but PostHog accepts only lower case, so the module lowers it
        (and drops a trailing dot) before comparing or sending it. Anything else that is not a domain
        name (an e-mail address, a single label, a one-letter top-level domain) fails before any request.
      - A domain belongs to at most one organization in the whole PostHog instance.
      - It cannot be changed after creation. With O(id), a different O(domain) fails.
    type: str
  id:
    description:
      - The domain's id (a UUID). When it names no domain of the organization, the task fails rather
        than creating one.
    type: str
  jit_provisioning_enabled:
    description:
      - Whether people who log in with an e-mail address of this domain join the organization
        automatically (just-in-time provisioning).
      - Only on a verified domain; see O(sso_enforcement).
      - PostHog Cloud needs the paid C(automatic_provisioning) feature to turn this on.
    type: bool
  sso_enforcement:
    description:
      - The only login method allowed for e-mail addresses of this domain, or an empty string for none.
      - Meaningful values are V(google-oauth2), V(github), V(gitlab) and V(saml). PostHog stores any
        string of at most 28 characters; the module warns about other values.
      - Only on a verified domain. With O(state=present) on an unverified domain a value that differs
        from the current one fails before any change, telling you to publish the TXT record and use
        O(state=verified), which verifies first and then applies it.
      - Enforcement takes effect at login only on plans with the C(sso_enforcement) feature (and
        C(saml) for SAML).
    type: str
  saml_entity_id:
    description:
      - The entity id (issuer) of your SAML identity provider, at most 512 characters.
      - An empty string clears it. SAML login is offered once all three SAML options are set
        (C(has_saml) in RV(domain)); PostHog checks its C(saml) licence at login, not here.
      - Newer PostHog versions keep SAML off the domain, in an identity provider configuration
        (manage it with M(posthog.admin.identity_provider_config)), and ignore these fields. There a
        task that sets any SAML option fails, naming them and showing the
        M(posthog.admin.identity_provider_config) task that sets them, before it changes the domain.
        See the notes.
    type: str
  saml_acs_url:
    description:
      - The single sign-on URL of your SAML identity provider, at most 512 characters.
    type: str
  saml_x509_cert:
    description:
      - The identity provider's public X.509 signing certificate (PEM). It is public, so it is shown in
        results and diffs.
    type: str
  domains:
    description:
      - Several domains, each a dictionary of the options of one domain. An option an item leaves out
        takes the value of the task's option of the same name (so O(state) or O(sso_enforcement) set
        beside O(domains) applies to every item that does not set its own).
      - The items are converged in order, in one module run that lists the organization's domains once;
        an item with C(id) costs one GET. An idempotent run of any number of domains named by C(domain)
        costs one request.
      - Every item is checked before any request; two items naming the same domain fail the task before
        any change. When an item fails, the task fails naming it, and returns RV(domains) for the items
        converged before it.
      - O(verify_timeout) and O(verify_interval) apply to each item with O(state=verified).
    type: list
    elements: dict
    suboptions:
      state:
        description: Like O(state); defaults to the task's O(state).
        type: str
        choices: [present, verified, absent]
      domain:
        description: Like O(domain). One of C(domain) and C(id) is required.
        type: str
      id:
        description: Like O(id).
        type: str
      jit_provisioning_enabled:
        description: Like O(jit_provisioning_enabled).
        type: bool
      sso_enforcement:
        description: Like O(sso_enforcement).
        type: str
      saml_entity_id:
        description: Like O(saml_entity_id).
        type: str
      saml_acs_url:
        description: Like O(saml_acs_url).
        type: str
      saml_x509_cert:
        description: Like O(saml_x509_cert).
        type: str
  verify_timeout:
    description:
      - With O(state=verified), the most seconds to keep asking PostHog to verify the domain while the
        TXT record propagates. V(0) asks once.
    type: int
    default: 60
  verify_interval:
    description:
      - With O(state=verified), seconds between two verification attempts (at least 1).
    type: int
    default: 5
notes:
  - Needs the scope C(organization:read), and C(organization:write) to change anything. Adding,
    changing, verifying and removing domains needs the admin level in the organization; members
    may only read.
  - Real PostHog gives the verify action no API key scope, so it refuses it to personal API keys
    (HTTP 403 "This action does not support Personal API Key access"). There, O(state=verified) on an
    unverified domain fails, saying to publish the record and have an admin press Verify in the web
    app; once the domain is verified, O(state=verified) and the SSO settings work with an API key.
    The emulator's C(spec) profile lets a key with C(organization:write) verify.
  - PostHog Cloud allows domains only to organizations with the C(automatic_provisioning) feature
    (otherwise 403); self-hosted PostHog has no such gate.
  - "PostHog's domain API exists in two shapes. The one this module was written against, and that
    self-hosted PostHog of 2024-25 serves, keeps the SAML settings on the domain. The newest moves them
    to an identity provider configuration linked to the domain (C(identity_provider_config) in
    RV(domain), with C(has_id_jag)), managed with M(posthog.admin.identity_provider_config), and has no C(saml_*) or C(scim_*) fields
    beyond C(has_saml), C(has_scim) and C(scim_base_url). The module tells them apart from the domains
    PostHog sends. There, everything but the SAML options works as described, and a task that sets
    O(saml_entity_id), O(saml_acs_url) or O(saml_x509_cert) fails before changing anything. Only when the
    organization has no domain yet does the module learn this from the new domain's answer, so that task
    creates the domain, then fails saying it did."
  - The task is idempotent; with O(domain) an unchanged run costs one request (a list of the
    organization's domains), with O(id) one GET, and with O(domains) one list for all the items.
seealso:
  - module: posthog.admin.domain_info
  - module: posthog.admin.identity_provider_config
"""

EXAMPLES = r"""
- name: Add the domain and learn the TXT record that proves we own it
  posthog.admin.domain:
    organization: Acme
    domain: acme.example
  register: acme_domain

- name: Publish the record (any DNS module does; here Route 53)
  amazon.aws.route53:
    zone: acme.example
    record: "{{ acme_domain.domain.verification.name }}"
    type: TXT
    value: '"{{ acme_domain.domain.verification.value }}"'
    state: present

- name: Verify the domain, then enforce Google login and just-in-time provisioning
  posthog.admin.domain:
    organization: Acme
    domain: acme.example
    state: verified
    verify_timeout: 300
    sso_enforcement: google-oauth2  # "" stops enforcing a login method
    jit_provisioning_enabled: true

- name: Configure SAML (allowed before verification)
  posthog.admin.domain:
    organization: Acme
    domain: acme.example
    saml_entity_id: https://idp.acme.example/entity
    saml_acs_url: https://idp.acme.example/sso
    saml_x509_cert: "{{ lookup('ansible.builtin.file', 'idp.pem') }}"

- name: Remove a domain
  posthog.admin.domain:
    organization: Acme
    domain: old-acme.example
    state: absent

- name: Several domains in one task (one list of the organization's domains, whatever their number)
  posthog.admin.domain:
    organization: Acme
    domains:
      - domain: acme.example
      - domain: acme-analytics.example
        saml_entity_id: https://idp.acme.example/entity
      - domain: old-acme.example
        state: absent
  register: acme_domains

- name: Show the TXT records to publish
  ansible.builtin.debug:
    msg: "{{ acme_domains.domains | map(attribute='verification', default={}) | selectattr('value', 'defined') | list }}"
"""

RETURN = r"""
domain:
  description:
    - The domain as PostHog returns it after the task (in check mode, as it would be; a domain not
      created yet has no C(id) and no challenge), plus C(verification). Empty after O(state=absent).
    - Also returned when the task fails because the domain is not verified yet, or because this
      PostHog has no SAML fields on its domains.
    - Its fields are PostHog's. The newest PostHog has no C(saml_entity_id), C(saml_acs_url),
      C(saml_x509_cert), C(scim_enabled) or C(scim_bearer_token) here, and has C(has_id_jag) and
      C(identity_provider_config) (see the notes).
  returned: unless O(domains) is set
  type: dict
  contains:
    verification:
      description: The DNS record that proves ownership. Publish it, then use O(state=verified).
      type: dict
      returned: always
      contains:
        record_type:
          description: Always V(TXT).
          type: str
        name:
          description: The record's name, V(_posthog-challenge.<domain>).
          type: str
        value:
          description: The record's value, the domain's C(verification_challenge).
          type: str
  sample:
    id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
    domain: acme.example
    is_verified: true
    verified_at: "2026-11-22T10:00:00Z"
    verification_challenge: 3Yy0mWQ9h6VrTqk2sZl1cJbXn8uEo4dPaGf7iHwKx5M
    jit_provisioning_enabled: true
    sso_enforcement: google-oauth2
    has_saml: false
    saml_entity_id: null
    saml_acs_url: null
    saml_x509_cert: null
    verification:
      record_type: TXT
      name: _posthog-challenge.acme.example
      value: 3Yy0mWQ9h6VrTqk2sZl1cJbXn8uEo4dPaGf7iHwKx5M
domains:
  description:
    - With O(domains), each item's domain after the task, in the order of the items, like RV(domain)
      (empty for an item with C(state=absent)).
    - On failure, the domains of the items converged before the failing one.
  returned: when O(domains) is set
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
verification:
  description: The TXT record still to publish, when the task fails because the domain is not verified.
  returned: on failure with O(state=verified)
  type: dict
  sample:
    record_type: TXT
    name: _posthog-challenge.acme.example
    value: 3Yy0mWQ9h6VrTqk2sZl1cJbXn8uEo4dPaGf7iHwKx5M
diff:
  description:
    - The managed settings before and after (with O(state=verified), also C(is_verified)), in diff mode.
    - With O(domains), a list with one such entry per item that changed, each with headers naming the item.
  returned: when diff mode is on
  type: raw
  sample:
    before:
      domain: acme.example
      is_verified: false
      sso_enforcement: ""
    after:
      domain: acme.example
      is_verified: true
      sso_enforcement: google-oauth2
"""

from ansible_collections.posthog.admin.plugins.module_utils._domain import ARGUMENT_SPEC, Domain
from ansible_collections.posthog.admin.plugins.module_utils._module import run_module


def main():
    run_module(Domain, ARGUMENT_SPEC, required_one_of=[("id", "domain")])


if __name__ == "__main__":
    main()
