#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: proxy_record_info
short_description: List the managed reverse proxies of a PostHog organization
version_added: 0.1.0
description:
  - Lists the proxy records of an organization (newest first), or the one you name, each with its
    status and the CNAME record to publish.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.attributes_info
options:
  domain:
    description: Only the record of this domain (compared in lower case, without a trailing dot).
    type: str
  id:
    description: Only the record with this id (a UUID).
    type: str
notes:
  - Needs the scope C(organization:read). Members of the organization may read its records.
  - An O(id) or O(domain) that matches nothing gives an empty list, not a failure.
  - One request (PostHog lists an organization's records in one answer), or one GET with O(id).
  - PostHog moves a record's status on by itself; each run shows where it is now.
seealso:
  - module: posthog.admin.proxy_record
"""

EXAMPLES = r"""
- name: The proxy records of Acme
  posthog.admin.proxy_record_info:
    organization: Acme
  register: acme_proxies

- name: The CNAME records still to publish
  ansible.builtin.debug:
    msg: "{{ acme_proxies.proxy_records | selectattr('status', 'equalto', 'waiting') | map(attribute='dns_record') | list }}"
"""

RETURN = r"""
proxy_records:
  description: The records found, each as PostHog returns it, plus C(dns_record), the CNAME to publish.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
      domain: e.acme.example
      target_cname: 4f1c2a9e8b7d6c5a4b3c.proxy-us.posthog.com
      status: waiting
      message: null
      dns_record:
        record_type: CNAME
        name: e.acme.example
        value: 4f1c2a9e8b7d6c5a4b3c.proxy-us.posthog.com
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_info
from ansible_collections.posthog.admin.plugins.module_utils._proxy_record import INFO_ARGUMENT_SPEC, read_proxy_records


def main():
    run_info(INFO_ARGUMENT_SPEC, read_proxy_records)


if __name__ == "__main__":
    main()
