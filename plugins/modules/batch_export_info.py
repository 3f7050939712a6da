#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: batch_export_info
short_description: List the batch exports of a PostHog organization, with their latest runs
version_added: 0.1.0
description:
  - Returns the batch exports of an organization (newest first), or the one with O(id) or O(name),
    each with its C(latest_runs) (at most 10, newest first).
  - Destination credentials never appear; PostHog strips them from every response.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.attributes_info
options:
  id:
    description:
      - Only the export with this id (a UUID). An unknown id returns an empty list.
    type: str
  name:
    description:
      - Only the exports with exactly this name.
    type: str
  paused:
    description:
      - Only paused (V(true)) or only running (V(false)) exports.
    type: bool
notes:
  - Needs the scope C(batch_export:read).
  - One request with O(id); otherwise one request per 500 exports.
seealso:
  - module: posthog.admin.batch_export
"""

EXAMPLES = r"""
- name: All batch exports of Acme
  posthog.admin.batch_export_info:
    organization: Acme
  register: exports

- name: Show the status of each export's latest run
  ansible.builtin.debug:
    msg: "{{ item.name }}: {{ (item.latest_runs | first | default({})).status | default('never ran') }}"
  loop: "{{ exports.batch_exports }}"
  loop_control:
    label: "{{ item.name }}"

- name: Fail when an export's latest run failed
  ansible.builtin.assert:
    that: >-
      exports.batch_exports | selectattr('latest_runs') | map(attribute='latest_runs') | map('first')
      | selectattr('status', 'in', ['Failed', 'FailedRetryable']) | list | length == 0

- name: One export by name
  posthog.admin.batch_export_info:
    organization: Acme
    name: Events to S3
  register: one
"""

RETURN = r"""
batch_exports:
  description: The exports found, each as PostHog returns it (newest first).
  returned: always
  type: list
  elements: dict
  sample:
    - id: 01900000-0000-7000-8000-000000000001
      team_id: 2
      name: Events to S3
      model: events
      interval: hour
      paused: false
      destination:
        type: S3
        config:
          bucket_name: acme-posthog-exports
          region: eu-west-1
          prefix: events/
      latest_runs:
        - status: Completed
          records_completed: 1200
          data_interval_end: "2026-01-31T10:00:00Z"
"""

from ansible_collections.posthog.admin.plugins.module_utils._batch_export import INFO_ARGUMENT_SPEC, read_batch_exports
from ansible_collections.posthog.admin.plugins.module_utils._module import run_info


def main():
    run_info(INFO_ARGUMENT_SPEC, read_batch_exports)


if __name__ == "__main__":
    main()
