# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Pipeline plugins (destinations, frontend apps, import apps): families, lookups, source files.

PostHog serves one plugin record under three collections, each a view filtered by the plugin's
``capabilities``. The helpers here are pure (no requests) except :func:`find_plugins`, so the
rules are unit-tested: which family a plugin belongs to, how URLs compare, which source files
differ, and how to read the two answer shapes of the custom actions (our spec's plugin record,
real PostHog's own shapes).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

FAMILIES = {
    "destination": "pipeline_destinations",
    "frontend_app": "pipeline_frontend_apps",
    "import_app": "pipeline_import_apps",
}
FAMILY_KINDS = {
    "destination": "pipeline destination",
    "frontend_app": "pipeline frontend app",
    "import_app": "pipeline import app",
}
# Actions the spec lists per family besides CRUD (4.6): import apps have only check_for_updates.
FAMILY_ACTIONS = {
    "destination": frozenset(["check_for_updates", "source", "update_source", "upgrade", "activity",
                              "exports_unsubscribe_configs", "repository", "unused"]),
    "frontend_app": frozenset(["check_for_updates", "source", "update_source", "upgrade", "activity",
                               "exports_unsubscribe_configs", "repository", "unused"]),
    "import_app": frozenset(["check_for_updates"]),
}
# Capabilities given to a new source plugin when none are set, so that it lands in its family.
DEFAULT_CAPABILITIES = {
    "destination": {"methods": ["onEvent"]},
    "frontend_app": {},
    "import_app": {"scheduled_tasks": ["runEveryMinute"]},
}
# Plugin types PostHog installs from a URL (and can upgrade); the others have no upstream.
URL_TYPES = ("custom", "repository")
# Files a purge never deletes.
KEPT_FILES = ("plugin.json",)

NO_PAK_HINT = ("PostHog does not allow personal API keys to call this plugin action (it has no "
               "scope mapping); it can only be done in the PostHog web app by a logged-in user")


def family_of(capabilities):
    """The family PostHog lists a plugin with these ``capabilities`` under, or None.

    destination: ``methods`` contains onEvent or composeWebhook; frontend_app: neither a
    ``methods`` nor a ``scheduled_tasks`` key; import_app: non-empty ``scheduled_tasks``, or
    ``methods`` without onEvent, composeWebhook and processEvent. None: e.g. a transformation
    (``processEvent``), listed in none of the three.
    """
    capabilities = capabilities if isinstance(capabilities, dict) else {}
    has_methods = "methods" in capabilities
    methods = capabilities.get("methods") if isinstance(capabilities.get("methods"), list) else []
    if has_methods and ("onEvent" in methods or "composeWebhook" in methods):
        return "destination"
    if not has_methods and "scheduled_tasks" not in capabilities:
        return "frontend_app"
    if "scheduled_tasks" in capabilities and capabilities["scheduled_tasks"] != []:
        return "import_app"
    if has_methods and not set(["onEvent", "composeWebhook", "processEvent"]) & set(methods):
        return "import_app"
    return None


def normalize_url(url):
    """A plugin URL as PostHog shows it: without its query (``?private_token=...``) and trailing slash."""
    if not url:
        return url
    return str(url).split("?", 1)[0].rstrip("/")


def unwrap_plugin(answer):
    """The plugin record from ``check_for_updates``: PostHog wraps it in ``{"plugin": ...}``, the spec does not."""
    if isinstance(answer, dict) and isinstance(answer.get("plugin"), dict) and "id" not in answer:
        return answer["plugin"]
    return answer


def is_file_map(answer):
    """Whether a ``source``/``update_source`` answer is PostHog's file map (not the spec's plugin record).

    A file map has only string (or null) values; a plugin record has an integer ``id``.
    """
    if not isinstance(answer, dict):
        return False
    if isinstance(answer.get("id"), int) and "plugin_type" in answer:
        return False
    return all(value is None or isinstance(value, str) for value in answer.values())


def source_file_changes(desired, current, purge=False):
    """The ``update_source`` body that turns ``current`` (a file map) into ``desired``.

    ``desired`` maps file names to text, or to None to delete the file. Files not listed are left
    alone unless ``purge`` (then deleted, except plugin.json). Returns ``{}`` when nothing differs.
    """
    current = dict((k, v) for k, v in (current or {}).items() if v is not None)
    changes = {}
    for name, text in (desired or {}).items():
        if text is None:
            if name in current:
                changes[name] = None
        elif current.get(name) != text:
            changes[name] = text
    if purge:
        for name in current:
            if name not in (desired or {}) and name not in KEPT_FILES:
                changes[name] = None
    return changes


def apply_source_changes(current, changes):
    """The file map after ``changes`` (None deletes)."""
    result = dict((k, v) for k, v in (current or {}).items() if v is not None)
    for name, text in changes.items():
        if text is None:
            result.pop(name, None)
        else:
            result[name] = text
    return result


def plugin_json_of(source_files):
    """The parsed plugin.json from ``source_files``, None when absent; ValueError when not a JSON object."""
    text = (source_files or {}).get("plugin.json")
    if text is None:
        return None
    try:
        parsed = json.loads(text)
    except ValueError as exc:
        raise ValueError("source_files['plugin.json'] is not valid JSON: %s" % exc)
    if not isinstance(parsed, dict):
        raise ValueError("source_files['plugin.json'] must be a JSON object")
    return parsed


def upgrade_recover(client, detail_path, latest_tag, context=None):
    """A ``recover`` for an upgrade POST whose answer was lost (5xx, dropped connection).

    Returns the plugin when it is at ``latest_tag`` now, else None so that the client asks again:
    an upgrade re-installs the newest version, so repeating it is harmless.
    """
    def recover():
        plugin = unwrap_plugin(client.get_or_none(detail_path, context=context))
        if isinstance(plugin, dict) and latest_tag and plugin.get("tag") == latest_tag:
            return plugin
        return None
    return recover


def collection_path(ph, family):
    return ph.org_path(FAMILIES[family])


def find_plugins(client, path, plugin_id=None, name=None, url=None, context=None):
    """Plugins of one family matching the given id, name and/or URL (all given must match).

    An id costs one GET of the record (404 gives an empty list); otherwise one paged list.
    """
    if plugin_id is not None:
        found = client.get_or_none("%s%s/" % (path, plugin_id), context=context)
        plugins = [found] if found else []
    else:
        plugins = client.list_all(path, context=context)
    if url is not None:
        plugins = [p for p in plugins if normalize_url(p.get("url")) == normalize_url(url)]
    if name is not None:
        plugins = [p for p in plugins if p.get("name") == name]
    return plugins
