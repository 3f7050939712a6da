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
  - With O(project_id), the exports of that project, through PostHog's project route (the only one
    its newest API has). With O(runs) and O(backfills), each export also carries its newest runs and
    backfills, read from the project route.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
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
  project_id:
    description:
      - The numeric id of the project whose exports to list (or V(@current)), through
        C(/api/projects/<project_id>/batch_exports/). Without it, the organization's exports through
        the organization's route, which PostHog's newest API no longer has (the task then fails
        saying to set O(project_id)).
    type: str
  runs:
    description:
      - Add C(runs) to every export, its newest runs (up to 100, newest first), from
        C(/api/projects/<team_id>/batch_exports/<id>/runs/). One more request per export.
      - PostHog lists the runs of the last seven days by default.
    type: bool
    default: false
  backfills:
    description:
      - Add C(backfills) to every export, its newest backfills (up to 50, newest first), from
        C(.../backfills/). One more request per export.
    type: bool
    default: false
notes:
  - Needs the scope C(batch_export:read).
  - One request with O(id); otherwise one request per 500 exports; plus one per export for each of
    O(runs) and O(backfills).
seealso:
  - module: posthog.admin.batch_export
"""

EXAMPLES = r"""
- name: Find the Acme Web project (its id is what the exports' API takes)
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: All batch exports of Acme Web
  posthog.admin.batch_export_info:
    project_id: "{{ acme_web.projects[0].id }}"
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
    project_id: "{{ acme_web.projects[0].id }}"
    name: Events to S3
  register: one

- name: The exports with their runs and backfills
  posthog.admin.batch_export_info:
    project_id: "{{ acme_web.projects[0].id }}"
    runs: true
    backfills: true
  register: history

- name: Backfills still running
  ansible.builtin.debug:
    msg: "{{ history.batch_exports | map(attribute='backfills') | flatten | selectattr('status', 'in', ['Running', 'Starting']) }}"
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
      runs:
        - id: 01900000-0000-7000-8000-0000000000aa
          status: Completed
          data_interval_end: "2026-01-31T10:00:00Z"
      backfills:
        - id: 01900000-0000-7000-8000-0000000000bb
          status: Running
          start_at: "2026-01-01T00:00:00Z"
          end_at: "2026-01-02T00:00:00Z"
"""

from ansible_collections.posthog.admin.plugins.module_utils._batch_export import INFO_ARGUMENT_SPEC, read_batch_exports
from ansible_collections.posthog.admin.plugins.module_utils._module import run_info


def main():
    run_info(INFO_ARGUMENT_SPEC, read_batch_exports)


if __name__ == "__main__":
    main()
