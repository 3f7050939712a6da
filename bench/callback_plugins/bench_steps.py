# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Benchmark helper (not part of the collection): times each play of a playbook as one step.

Every play is a step named after the play. When a play starts, the previous step is closed: its
wall time is taken, then the emulator's request log is read and cleared (control calls are not
logged and happen outside the timed span). Results go to the JSON file named by
``BENCH_STEP_FILE``; the emulator is ``BENCH_EMULATOR_URL``. Enabled by the bench driver with
``ANSIBLE_CALLBACK_PLUGINS`` and ``ANSIBLE_CALLBACKS_ENABLED=bench_steps``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
name: bench_steps
type: aggregate
short_description: Times each play and reads the emulator's request log between plays
description:
  - Benchmark helper of posthog.admin; see bench/README.md.
"""

import json
import os
import time
import urllib.request

from ansible.plugins.callback import CallbackBase


def _control(method, url):
    request = urllib.request.Request(url, method=method)
    with urllib.request.urlopen(request, timeout=30) as response:
        body = response.read()
    return json.loads(body) if body else None


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "bench_steps"
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self):
        super(CallbackModule, self).__init__()
        self.emulator = os.environ.get("BENCH_EMULATOR_URL", "").rstrip("/")
        self.out = os.environ.get("BENCH_STEP_FILE")
        self.steps = []
        self.current = None

    def _close(self):
        if self.current is None:
            return
        step = self.current
        step["seconds"] = time.perf_counter() - step.pop("_started")
        if self.emulator:
            step["requests"] = _control("GET", self.emulator + "/_emulator/requests")
            _control("DELETE", self.emulator + "/_emulator/requests")
        self.steps.append(step)
        self.current = None

    def v2_playbook_on_play_start(self, play):
        self._close()
        if self.emulator:
            _control("DELETE", self.emulator + "/_emulator/requests")
        # A play named "Batch exports" is the step batch_exports (the keys of bench/report.py)
        name = play.get_name().strip().lower().replace(" ", "_")
        self.current = {"name": name, "changed": 0, "failed": 0,
                        "_started": time.perf_counter()}

    def v2_runner_on_ok(self, result):
        if self.current is None:
            return
        res = result._result
        if isinstance(res.get("results"), list):
            self.current["changed"] += sum(1 for item in res["results"] if item.get("changed"))
        elif res.get("changed"):
            self.current["changed"] += 1

    def v2_runner_on_failed(self, result, ignore_errors=False):
        if self.current is not None and not ignore_errors:
            self.current["failed"] += 1

    def v2_runner_item_on_failed(self, result):
        if self.current is not None:
            self.current["failed"] += 1

    def v2_playbook_on_stats(self, stats):
        self._close()
        if self.out:
            with open(self.out, "w") as handle:
                json.dump({"steps": self.steps}, handle)
