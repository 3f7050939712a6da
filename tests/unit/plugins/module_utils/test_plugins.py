# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Pipeline plugin rules: families, URLs, answer shapes and source-file changes."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogClient
from ansible_collections.posthog.admin.plugins.module_utils._plugins import (
    DEFAULT_CAPABILITIES,
    apply_source_changes,
    family_of,
    find_plugins,
    is_file_map,
    normalize_url,
    plugin_json_of,
    source_file_changes,
    unwrap_plugin,
    upgrade_recover,
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
        assert family_of(capabilities) == family


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


def test_find_plugins_by_url_and_name(server):
    page = {"count": 3, "next": None, "previous": None, "results": [
        {"id": 1, "name": "A", "url": "https://github.com/a/b"},
        {"id": 2, "name": "B", "url": None},
        {"id": 3, "name": "A", "url": "https://github.com/a/c"},
    ]}
    client = PostHogClient(host=server.url, api_key="phx_test", retries=0)
    path = "/api/organizations/@current/pipeline_destinations/"
    server.queue.append((200, page, {}))
    assert [p["id"] for p in find_plugins(client, path, url="https://github.com/a/b/?private_token=t")] == [1]
    server.queue.append((200, page, {}))
    assert [p["id"] for p in find_plugins(client, path, name="A")] == [1, 3]
    not_found = {"type": "invalid_request", "code": "not_found", "detail": "Not found.", "attr": None}
    server.queue.append((404, not_found, {}))
    assert find_plugins(client, path, plugin_id=9) == []
    assert server.requests[-1]["path"] == path + "9/"
    assert server.requests[0]["path"].endswith("limit=500")


PLUGIN = "/api/organizations/@current/pipeline_destinations/7/"


def test_upgrade_with_lost_answer_returns_the_upgraded_plugin(server):
    server.script((502, "bad gateway"), (200, {"id": 7, "tag": "v2"}))
    client = PostHogClient(host=server.url, api_key="phx_k", retries=3, sleep=lambda seconds: None)
    answer = client.post(PLUGIN + "upgrade/", {}, recover=upgrade_recover(client, PLUGIN, "v2"))
    assert answer == {"id": 7, "tag": "v2"}
    assert [r["method"] for r in server.requests] == ["POST", "GET"]


def test_upgrade_that_did_not_happen_is_asked_again(server):
    server.script((500, {"detail": "A server error occurred."}), (200, {"id": 7, "tag": "v1"}),
                  (200, {"id": 7, "tag": "v2"}))
    client = PostHogClient(host=server.url, api_key="phx_k", retries=3, sleep=lambda seconds: None)
    answer = client.post(PLUGIN + "upgrade/", {}, recover=upgrade_recover(client, PLUGIN, "v2"))
    assert answer == {"id": 7, "tag": "v2"}
    assert [r["method"] for r in server.requests] == ["POST", "GET", "POST"]
