# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Pipeline plugin rules: families, URLs, answer shapes and source-file changes. Look-ups, installs
and upgrades (with their lost answers) run through the modules: test_pipeline_plugin*.py."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._plugins import (
    DEFAULT_CAPABILITIES,
    apply_source_changes,
    families_of,
    family_of,
    is_file_map,
    normalize_url,
    plugin_json_of,
    source_file_changes,
    unwrap_plugin,
)


@pytest.mark.parametrize("capabilities, family", [
    ({"methods": ["onEvent"]}, "destination"),
    ({"methods": ["setupPlugin", "composeWebhook"]}, "destination"),
    ({}, "frontend_app"),
    (None, "frontend_app"),
    ({"jobs": ["x"]}, "frontend_app"),
    ({"scheduled_tasks": ["runEveryMinute"]}, "import_app"),
    ({"methods": ["setupPlugin"]}, "import_app"),
    ({"methods": []}, "import_app"),
    ({"methods": ["processEvent"]}, None),
    ({"scheduled_tasks": []}, None),
    ({"methods": ["processEvent"], "scheduled_tasks": ["runEveryHour"]}, "import_app"),
    ({"methods": ["onEvent"], "scheduled_tasks": ["runEveryHour"]}, "destination"),
])
def test_family_of(capabilities, family):
    assert family_of(capabilities) == family


def test_default_capabilities_fit_their_family():
    for family, capabilities in DEFAULT_CAPABILITIES.items():
        assert family in families_of(capabilities)


def test_normalize_url():
    assert normalize_url("https://github.com/a/b/?private_token=x") == "https://github.com/a/b"
    assert normalize_url("https://github.com/a/b") == "https://github.com/a/b"
    assert normalize_url(None) is None


def test_unwrap_plugin():
    record = {"id": 3, "plugin_type": "custom", "latest_tag": "v2"}
    assert unwrap_plugin({"plugin": record}) == record
    assert unwrap_plugin(record) == record


def test_is_file_map():
    assert is_file_map({"index.ts": "x", "plugin.json": "{}"})
    assert is_file_map({})
    assert is_file_map({"site.ts": None})
    assert not is_file_map({"id": 3, "plugin_type": "source", "name": "x"})
    assert not is_file_map({"index.ts": 5})
    assert not is_file_map([1, 2])


def test_source_file_changes_only_what_differs():
    current = {"plugin.json": "{}", "index.ts": "old", "site.ts": "s", "ghost.ts": None}
    assert source_file_changes({"index.ts": "old"}, current) == {}
    assert source_file_changes({"index.ts": "new", "frontend.tsx": "f"}, current) == {
        "index.ts": "new", "frontend.tsx": "f"}
    assert source_file_changes({"site.ts": None, "absent.ts": None, "ghost.ts": None}, current) == {"site.ts": None}


def test_source_file_changes_purge_keeps_plugin_json():
    current = {"plugin.json": "{}", "index.ts": "old", "site.ts": "s"}
    assert source_file_changes({"index.ts": "old"}, current, purge=True) == {"site.ts": None}
    assert source_file_changes({}, current, purge=True) == {"index.ts": None, "site.ts": None}


def test_apply_source_changes():
    current = {"plugin.json": "{}", "index.ts": "old", "gone": None}
    assert apply_source_changes(current, {"index.ts": None, "site.ts": "s"}) == {"plugin.json": "{}", "site.ts": "s"}


def test_plugin_json_of():
    assert plugin_json_of({"index.ts": "x"}) is None
    assert plugin_json_of({"plugin.json": '{"name": "a"}'}) == {"name": "a"}
    with pytest.raises(ValueError, match="not valid JSON"):
        plugin_json_of({"plugin.json": "{nope"})
    with pytest.raises(ValueError, match="JSON object"):
        plugin_json_of({"plugin.json": "[1]"})
