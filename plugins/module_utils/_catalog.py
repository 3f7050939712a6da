# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""The kinds organization_state's document has a place for, in the order a run converges them.

Each entry is the document key, what loads the kind's own :class:`~._section.Section` (imported the
first time a run needs it: a module process compiles every module_utils it imports from the AnsiballZ
payload's source, so a document that leaves a section out does not pay for its kind), and the result
keys organization_state always returns for it. A new kind is one entry here; the engine names none.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type


def root():
    from ansible_collections.posthog.admin.plugins.module_utils import _organization
    return _organization.ROOT


def _projects():
    from ansible_collections.posthog.admin.plugins.module_utils import _project
    return _project.SECTION


def _roles():
    from ansible_collections.posthog.admin.plugins.module_utils import _role
    return _role.SECTION


def _domains():
    from ansible_collections.posthog.admin.plugins.module_utils import _domain
    return _domain.SECTION


def _identity_provider_configs():
    from ansible_collections.posthog.admin.plugins.module_utils import _identity_provider
    return _identity_provider.SECTION


def _roster():
    from ansible_collections.posthog.admin.plugins.module_utils import _people
    return _people.SECTION


def _access_controls():
    from ansible_collections.posthog.admin.plugins.module_utils import _access_control
    return _access_control.SECTION


def _proxy_records():
    from ansible_collections.posthog.admin.plugins.module_utils import _proxy_record
    return _proxy_record.SECTION


def _integrations():
    from ansible_collections.posthog.admin.plugins.module_utils import _integration
    return _integration.SECTION


def _batch_exports():
    from ansible_collections.posthog.admin.plugins.module_utils import _batch_export
    return _batch_export.SECTION


def _hog_functions():
    from ansible_collections.posthog.admin.plugins.module_utils import _hog_function
    return _hog_function.SECTION


def _plugins():
    from ansible_collections.posthog.admin.plugins.module_utils import _plugins as kind
    return kind.SECTION


def _property_groups():
    from ansible_collections.posthog.admin.plugins.module_utils import _property_group
    return _property_group.SECTION


def _event_definitions():
    from ansible_collections.posthog.admin.plugins.module_utils import _event_definition
    return _event_definition.SECTION


def _property_definitions():
    from ansible_collections.posthog.admin.plugins.module_utils import _property_definition
    return _property_definition.SECTION


#: (document key, loader, whether it is a list of items, result keys always returned with their empty value)
CATALOG = (
    # Projects first (the rest may live in them).
    ("projects", _projects, True, {}),
    ("roles", _roles, True, {}),
    ("domains", _domains, True, dict(dns_records=[])),
    # After the domains they apply to (PostHog's newest API; older PostHog keeps SAML on the domain).
    ("identity_provider_configs", _identity_provider_configs, True, {}),
    ("roster", _roster, False, {}),
    # After the roles and people they name.
    ("access_controls", _access_controls, True, {}),
    ("proxy_records", _proxy_records, True, dict(cname_records=[])),
    # Before the batch exports that name them (one the document creates is created first).
    ("integrations", _integrations, True, {}),
    ("batch_exports", _batch_exports, True, {}),
    ("hog_functions", _hog_functions, True, {}),
    ("plugins", _plugins, True, {}),
    # The tracking plan: the groups before the events that carry them.
    ("property_groups", _property_groups, True, {}),
    ("event_definitions", _event_definitions, True, {}),
    ("property_definitions", _property_definitions, True, {}),
)

_LOADED = {}


def section(key):
    """The Section of the document key ``key`` (its kind imported now, once)."""
    if key not in _LOADED:
        _LOADED[key] = dict((k, load) for k, load, many, outputs in CATALOG)[key]()
    return _LOADED[key]
