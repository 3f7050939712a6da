# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Integrations of a project: integration_info's read.

PostHog's ``/api/projects/<project_id>/integrations/`` (``posthog/api/integration.py``) lists a
project's connections to other services, oldest first, narrowed by ``?kind=``. Their secrets
(``sensitive_config``) are never returned. Batch export destinations name one by its id.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.module_utils._common import list_or_get

INFO_ARGUMENT_SPEC = dict(
    id=dict(type="str"),
    kind=dict(type="str"),
    name=dict(type="str"),
)


def integration_name(integration):
    """The name an integration was given (``config.name``), else its display name."""
    config = integration.get("config") if isinstance(integration.get("config"), dict) else {}
    return config.get("name") or integration.get("display_name")


def matches_name(integration, name):
    display = str(integration.get("display_name") or "")
    return name in (integration_name(integration), display) or display.startswith(name + " (")


def read_integrations(task, params):
    """integration_info: the project's integrations (or one by id), by kind and name, each with
    ``name`` added (what ``batch_export``'s ``destination.integration`` may name it by)."""
    path = "/api/projects/%s/integrations/" % task.project_id
    kind = params.get("kind")
    integrations = list_or_get(task, path, params.get("id"), params=dict(kind=kind) if kind else None,
                               what="integration", filters=dict(kind=kind))
    name = params.get("name")
    if name is not None:
        integrations = [i for i in integrations if matches_name(i, name)]
    for integration in integrations:
        integration["name"] = integration_name(integration)
    return dict(integrations=integrations)
