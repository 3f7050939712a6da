# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

"""organization_state's action: the module's own engine, in the controller's worker when the task
would run there anyway (connection local, the controller's Python); otherwise the module."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.plugin_utils._in_process import InProcessAction


class ActionModule(InProcessAction):

    def task(self):
        from ansible_collections.posthog.admin.plugins.module_utils._state import (
            STATE_ARGUMENT_SPEC,
            STATE_MODULE_OPTIONS,
            converge_state,
        )

        return STATE_ARGUMENT_SPEC, converge_state, STATE_MODULE_OPTIONS
