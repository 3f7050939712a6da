# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Records each task result of the examples playbook (play, task, changed, failed, skipped) as
JSON lines in the file named by EXAMPLES_RECORD, for run_examples.py to compare runs."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
name: examples_record
type: aggregate
short_description: record task results of the examples test
description: Writes one JSON line per task result to the file named by EXAMPLES_RECORD.
options: {}
"""

import json
import os

from ansible.plugins.callback import CallbackBase


class CallbackModule(CallbackBase):
    CALLBACK_VERSION = 2.0
    CALLBACK_TYPE = "aggregate"
    CALLBACK_NAME = "examples_record"
    CALLBACK_NEEDS_ENABLED = True

    def __init__(self, *args, **kwargs):
        super(CallbackModule, self).__init__(*args, **kwargs)
        self.play = None

    def v2_playbook_on_play_start(self, play):
        self.play = play.get_name()

    def _write(self, result, outcome):
        path = os.environ.get("EXAMPLES_RECORD")
        if not path:
            return
        answer = result._result
        entry = dict(play=self.play, task=result._task.get_name(), outcome=outcome,
                     changed=bool(answer.get("changed")), msg=str(answer.get("msg", ""))[:600],
                     warnings=[str(w)[:300] for w in answer.get("warnings") or []])
        if "item" in answer or "_ansible_item_label" in answer:
            entry["item"] = str(answer.get("_ansible_item_label", answer.get("item")))[:200]
        with open(path, "a") as handle:
            handle.write(json.dumps(entry) + "\n")

    def v2_runner_on_ok(self, result):
        self._write(result, "ok")

    def v2_runner_on_failed(self, result, ignore_errors=False):
        self._write(result, "ignored" if ignore_errors else "failed")

    def v2_runner_on_skipped(self, result):
        self._write(result, "skipped")

    def v2_runner_item_on_ok(self, result):
        self._write(result, "ok")

    def v2_runner_item_on_failed(self, result):
        self._write(result, "failed")
