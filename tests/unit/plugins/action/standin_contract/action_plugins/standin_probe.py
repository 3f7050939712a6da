# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The probe's action (tests only): posthog.admin's InProcessAction with the probe module's engine."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import importlib.util
import os

from ansible_collections.posthog.admin.plugins.plugin_utils._in_process import InProcessAction


def _probe():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "library", "standin_probe.py")
    spec = importlib.util.spec_from_file_location("standin_probe_engine", path)
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)
    return probe


class ActionModule(InProcessAction):

    def task(self):
        probe = _probe()
        return probe.SPEC, probe.work, probe.OPTIONS
