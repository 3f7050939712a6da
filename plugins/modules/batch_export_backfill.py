#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: batch_export_backfill
short_description: Trigger a backfill of a PostHog batch export
version_added: 0.1.0
description:
  - Asks PostHog to export the data of a past window again (or for the first time) through a batch
    export, found by O(id) or O(name) in the organization (or in the project O(project_id)).
  - This is an action, not a state. Every run requests a new backfill and reports changed; in check
    mode the export is looked up but no backfill is requested.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.attributes
attributes:
  check_mode:
    support: full
    details: Reports changed and requests nothing.
  diff_mode:
    support: none
options:
  id:
    description:
      - The export's id (a UUID).
    type: str
  name:
    description:
      - The export's name, when O(id) is not given. The task fails when several exports share it.
    type: str
  start_at:
    description:
      - Start of the window, an ISO-8601 date-time with a timezone, for example V(2026-01-01T00:00:00Z).
      - PostHog's newest API backfills daily and weekly exports by whole days and wants dates
        (V(2026-01-01); for weekly exports on the export's week day), which the module accepts too.
    type: str
    required: true
  end_at:
    description:
      - End of the window, same format, after O(start_at). PostHog refuses an end more than one
        interval of the export in the future (its newest API refuses any end in the future).
    type: str
    required: true
  project_id:
    description:
      - The numeric id of the project of the export (or V(@current)). The export is then looked up
        among that project's exports, through the project route, the only one PostHog's newest API
        has. Without it, in the whole organization.
    type: str
notes:
  - Needs the scope C(batch_export:write) (and C(batch_export:read) to find the export).
  - The backfill is requested through the export's project, C(POST /api/projects/<team_id>/batch_exports/<id>/backfill/),
    because PostHog's backfill needs the project from the URL, which the organization's route does
    not give. Where that deprecated action is gone (newest PostHog answers 404), the module uses
    C(POST .../backfills/) instead, which takes the same body; it goes there directly for an export
    in the newest shape (with C(timezone)).
  - Real PostHog answers with the backfill's workflow id, returned as C(backfill.backfill_id); the
    emulator's C(spec) profile answers with the export record, and C(backfill_id) is then null.
  - PostHog refuses a backfill when the project has no data at all for the export's model
    ("There is no data to backfill for this model.").
  - Before requesting, the module reads the export's newest backfills (one GET of C(.../backfills/)). When the
    answer to the request is lost (a 5xx or a dropped connection), it looks again and, if the backfill of that
    window is there now, reports it instead of requesting it twice (C(backfill.backfill_id) is then null);
    otherwise it asks again.
seealso:
  - module: posthog.admin.batch_export
"""

EXAMPLES = r"""
- name: Find the Acme Web project (its id is what the exports' API takes)
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: Re-export January
  posthog.admin.batch_export_backfill:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Events to S3
    start_at: "2026-01-01T00:00:00Z"
    end_at: "2026-02-01T00:00:00Z"
  register: backfill

- name: Show the backfill's id
  ansible.builtin.debug:
    msg: "{{ backfill.backfill.backfill_id }}"
"""

RETURN = r"""
backfill:
  description: The backfill requested (in check mode, the one that would be).
  returned: always
  type: dict
  contains:
    batch_export_id:
      description: The export's id.
      type: str
    start_at:
      description: Start of the window, as given.
      type: str
    end_at:
      description: End of the window, as given.
      type: str
    backfill_id:
      description: PostHog's id of the backfill workflow, when the server returns one (null otherwise and in check mode).
      type: str
  sample:
    batch_export_id: 01900000-0000-7000-8000-000000000001
    start_at: "2026-01-01T00:00:00Z"
    end_at: "2026-02-01T00:00:00Z"
    backfill_id: 01900000-0000-7000-8000-000000000001-Backfill-2026-01-01T00:00:00+00:00-2026-02-01T00:00:00+00:00
batch_export:
  description: The export, as PostHog returns it.
  returned: always
  type: dict
  sample:
    id: 01900000-0000-7000-8000-000000000001
    name: Events to S3
    team_id: 2
    interval: hour
    paused: false
"""

from ansible_collections.posthog.admin.plugins.module_utils._batch_export import (
    BACKFILL_ARGUMENT_SPEC,
    BatchExportBackfill,
)
from ansible_collections.posthog.admin.plugins.module_utils._module import run_module


def main():
    run_module(BatchExportBackfill, BACKFILL_ARGUMENT_SPEC, required_one_of=[("id", "name")])


if __name__ == "__main__":
    main()
