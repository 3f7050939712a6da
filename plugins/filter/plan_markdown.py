# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

"""The plan_markdown filter: organization_state's plan (a saved plan file or the module's result) as
Markdown for a pull request comment or an AWX job's artifacts. Documented in plan_markdown.yml."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.errors import AnsibleFilterError

from ansible_collections.posthog.admin.plugins.module_utils._review import markdown


def plan_markdown(plan):
    if not isinstance(plan, dict) or "plan" not in plan:
        raise AnsibleFilterError("plan_markdown takes organization_state's result or a saved plan file (a dictionary "
                                 "with 'plan'), got %s" % type(plan).__name__)
    return markdown(plan)


class FilterModule(object):
    def filters(self):
        return {"plan_markdown": plan_markdown}
