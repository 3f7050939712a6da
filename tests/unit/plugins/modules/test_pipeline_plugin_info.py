# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.pipeline_plugin_info through main(): the family's plugins, the name and URL
filters, the GET by id, and the unused, repository and activity actions."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import pipeline_plugin_info
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import NOT_FOUND, ORG, PLUGIN_URL, plugin, refusal

APPS = ORG + "pipeline_frontend_apps/"
PLUGINS = [plugin(capabilities={}), plugin(id=8, name="Other", url=None, capabilities={})]


@pytest.mark.parametrize("filters, ids", [
    (dict(), [7, 8]),
    (dict(name="Other"), [8]),
    (dict(url=PLUGIN_URL + "/?private_token=t"), [7]),
])
def test_filters_apply_to_one_listing_of_the_family(server, run_module, filters, ids):
    server.script((200, page(*PLUGINS)))
    result = run_module(pipeline_plugin_info, dict(filters, family="frontend_app"))
    assert result["changed"] is False and [p["id"] for p in result["plugins"]] == ids
    assert run_module.calls == ["GET %s?limit=500" % APPS]


def test_an_id_is_one_get_and_a_missing_one_is_an_empty_list(server, run_module):
    server.script((200, PLUGINS[0]), (404, NOT_FOUND))
    assert run_module(pipeline_plugin_info, dict(family="frontend_app", id=7))["plugins"] == [PLUGINS[0]]
    assert run_module(pipeline_plugin_info, dict(family="frontend_app", id=9))["plugins"] == []
    assert run_module.calls == ["GET %s7/" % APPS, "GET %s9/" % APPS]


def test_the_actions_asked_for_are_read_once_each(server, run_module):
    server.script((200, page(*PLUGINS)), (200, [3, {"id": 4}]), (200, [{"name": "Geo", "url": "u"}]),
                  (200, {"results": [{"activity": "installed"}]}))
    result = run_module(pipeline_plugin_info, dict(family="frontend_app", unused=True, repository=True, activity=True,
                                                   activity_limit=5))
    assert result["unused"] == [3, 4] and result["repository"] == [{"name": "Geo", "url": "u"}]
    assert result["activity"] == [{"activity": "installed"}]
    assert run_module.calls[1:] == ["GET %sunused/" % APPS, "GET %srepository/" % APPS,
                                    "GET %sactivity/?limit=5&page=1" % APPS]


def test_an_action_posthog_refuses_to_api_keys_says_so(server, run_module):
    server.script((200, page()), (403, refusal("This action does not support Personal API Key access")))
    result = run_module(pipeline_plugin_info, dict(family="destination", repository=True))
    assert result["failed"] and result["msg"].startswith("Cannot read the plugin repository: PostHog does not allow")


@pytest.mark.parametrize("args, words", [
    (dict(family="import_app", unused=True, activity=True), "unused, activity cannot be used with family=import_app"),
    (dict(family="destination", activity_limit=0), "activity_limit must be at least 1, got 0"),
    (dict(name="x"), "missing required arguments: family"),
])
def test_bad_options_fail_before_any_request(run_module, args, words):
    assert words in run_module.refuses(pipeline_plugin_info, args)
