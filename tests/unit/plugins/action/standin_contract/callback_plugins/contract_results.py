# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The stand-in's contract test only: what each probe task's action returned, before ansible-core cleans it for
`register` (which drops `invocation`), written to $STANDIN_CONTRACT_RAW as a JSON list, in the order the
tasks ran (each case as a module process, then in the worker)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
name: contract_results
type: aggregate
short_description: Records the probe's raw results (tests only)
description: Records the probe's raw results (tests only).
author: posthog.admin contributors
"""

import json
import os

from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "contract_results"
    CALLBACK_NEEDS_ENABLED = False

    def __init__(self, *args, **kwargs):
        super(CallbackModule, self).__init__(*args, **kwargs)
        self.results = []

    def _record(self, result, *args, **kwargs):
        if result._task.action == "standin_probe":
            raw = json.loads(json.dumps(result._result, default=str))
            parent = raw.pop("parent_pid", None)  # None: the task failed before the probe ran
            raw["ran_in_worker"] = None if parent is None else parent == os.getpid()
            self.results.append(raw)

    v2_runner_on_ok = v2_runner_on_failed = _record

    def v2_playbook_on_stats(self, stats):
        with open(os.environ["STANDIN_CONTRACT_RAW"], "w") as out:
            json.dump(self.results, out, indent=1, sort_keys=True)
