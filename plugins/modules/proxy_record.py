#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: proxy_record
short_description: Create or delete a managed reverse proxy of a PostHog organization
version_added: 0.1.0
description:
  - Makes sure PostHog serves a managed reverse proxy on a domain of yours (a proxy record), or does
    not. A reverse proxy lets your sites send events to PostHog through your own domain, past ad
    blockers.
  - PostHog returns the CNAME record to publish (RV(proxy_record.dns_record)), your domain pointing at
    the record's C(target_cname). Publish it with any DNS module; PostHog then issues a certificate
    and the record becomes C(valid), by itself, within minutes.
  - With O(wait=true) the task reads the record until it is C(valid) (within O(wait_timeout)), and
    fails with PostHog's status and message when it is C(erroring) or C(timed_out), or still waiting.
    Waiting never makes the task changed.
  - A record cannot be changed. To move the proxy to another domain, create the new one and delete
    the old.
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
      - V(present) creates the record (and with O(wait), waits until it is live).
      - V(absent) deletes it. A record still waiting for its CNAME (or failed) goes at once; a live one
        is marked C(deleting) until PostHog has taken it down, and counts as absent meanwhile.
    type: str
    choices: [present, absent]
    default: present
  domain:
    description:
      - The host name to serve the proxy on, for example V(e.acme.example), at most 64 characters. It is
        compared in lower case, without a trailing dot.
      - A domain belongs to at most one record in the whole PostHog instance.
    type: str
  id:
    description:
      - The record's id (a UUID). When it names no record of the organization, the task fails rather
        than creating one.
    type: str
  wait:
    description:
      - Whether to wait until PostHog has made the record C(valid) (live). A record that PostHog
        reports live with a C(warning) counts as done, with the warning shown.
    type: bool
    default: false
  wait_timeout:
    description: With O(wait), the most seconds to wait. V(0) reads the record once.
    type: int
    default: 300
  wait_interval:
    description: With O(wait), seconds between two reads of the record (at least 1).
    type: int
    default: 10
notes:
  - Needs the scope C(organization:read), and C(organization:write) to change anything. Creating and
    deleting records needs the admin level in the organization.
  - An organization may hold 2 records, or as many as its plan's C(managed_reverse_proxy) feature
    allows; past that PostHog refuses the create, and the task fails saying so.
  - PostHog waits up to 7 days for the CNAME; then the record is C(timed_out). Retrying a failed
    record is only possible in PostHog's web app (the API's retry action does not accept personal API
    keys); delete it and create it again instead.
  - "Requests: one list of the organization's records (or one GET with O(id)); one POST to create or
    one DELETE to delete; with O(wait), one GET per read. A run that changes nothing makes one request."
seealso:
  - module: posthog.admin.proxy_record_info
  - name: PostHog managed reverse proxy
    description: How PostHog's managed reverse proxy works.
    link: https://posthog.com/docs/advanced/proxy/managed-reverse-proxy
"""

EXAMPLES = r"""
- name: A reverse proxy on e.acme.example
  posthog.admin.proxy_record:
    organization: Acme
    domain: e.acme.example
  register: acme_proxy

- name: Publish its CNAME (any DNS module does; here Route 53)
  amazon.aws.route53:
    zone: acme.example
    record: "{{ acme_proxy.proxy_record.dns_record.name }}"
    type: CNAME
    value: "{{ acme_proxy.proxy_record.dns_record.value }}"
    state: present

- name: Wait until PostHog serves it
  posthog.admin.proxy_record:
    organization: Acme
    domain: e.acme.example
    wait: true
    wait_timeout: 900
    wait_interval: 10

- name: Take another one down
  posthog.admin.proxy_record:
    organization: Acme
    domain: old.acme.example
    state: absent
"""

RETURN = r"""
proxy_record:
  description:
    - The record as PostHog returns it after the task (in check mode, as it would be; a record not
      created yet has no C(id) or C(target_cname)), plus C(dns_record). Empty after O(state=absent).
    - Also returned when waiting fails.
  returned: always
  type: dict
  contains:
    status:
      description: Where PostHog's provisioning is.
      type: str
      returned: always
      sample: valid
    dns_record:
      description: The CNAME record to publish.
      type: dict
      returned: always
      contains:
        record_type:
          description: Always V(CNAME).
          type: str
        name:
          description: The record's name, the proxy's domain.
          type: str
        value:
          description: The record's value, C(target_cname).
          type: str
  sample:
    id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
    domain: e.acme.example
    target_cname: 4f1c2a9e8b7d6c5a4b3c.proxy-us.posthog.com
    status: valid
    message: ""
    created_at: "2026-11-22T10:00:00Z"
    updated_at: "2026-11-22T10:05:00Z"
    created_by: 1
    dns_record:
      record_type: CNAME
      name: e.acme.example
      value: 4f1c2a9e8b7d6c5a4b3c.proxy-us.posthog.com
dns_record:
  description: The CNAME record still to publish (or to correct), when waiting fails.
  returned: when O(wait) fails
  type: dict
  sample:
    record_type: CNAME
    name: e.acme.example
    value: 4f1c2a9e8b7d6c5a4b3c.proxy-us.posthog.com
diff:
  description: The record's domain and status before and after, in diff mode.
  returned: when diff mode is on and something changed
  type: dict
  sample:
    before: {}
    after:
      domain: e.acme.example
      status: waiting
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_module
from ansible_collections.posthog.admin.plugins.module_utils._proxy_record import ARGUMENT_SPEC, ProxyRecord


def main():
    run_module(ProxyRecord, ARGUMENT_SPEC, required_one_of=[("id", "domain")])


if __name__ == "__main__":
    main()
