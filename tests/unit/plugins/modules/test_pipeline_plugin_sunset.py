# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.pipeline_plugin(_info): the sunset of PostHog's plugin API and the transformation family."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible.module_utils.common import warnings

from ansible_collections.posthog.admin.plugins.modules import pipeline_plugin, pipeline_plugin_info
from ansible_collections.posthog.admin.tests.unit.conftest import page

TRANSFORM = {"id": 3, "name": "Geo", "plugin_type": "source", "capabilities": {"methods": ["processEvent"]},
             "url": None, "tag": None}


def deprecations():
    found = [d["msg"] for d in warnings.get_deprecation_messages()]
    warnings._global_deprecations.clear()
    return found


def test_every_run_says_the_plugin_api_is_going(server, run_module):
    deprecations()
    server.script((200, page()))
    result = run_module(pipeline_plugin_info, dict(family="destination"))
    assert not result["failed"]
    found = deprecations()
    assert any("removing its legacy plugin API" in d and "hog_functions" in d for d in found)
    assert any("posthog.admin.hog_function" in d and "guide_plugins_to_hog_functions.rst" in d for d in found)
    server.script((200, page()))
    run_module(pipeline_plugin, dict(family="destination", name="Not there", state="absent"))
    assert len(deprecations()) == 1


def test_transformations_are_a_fourth_family(server, run_module):
    server.script((200, page(TRANSFORM)))
    result = run_module(pipeline_plugin_info, dict(family="transformation"))
    assert run_module.calls[0].startswith("GET /api/organizations/@current/pipeline_transformations/")
    assert result["plugins"][0]["id"] == 3
    server.script((200, page(TRANSFORM)))
    result = run_module(pipeline_plugin, dict(family="transformation", name="Geo",
                                              capabilities={"methods": ["processEvent"]}))
    assert result["changed"] is False and not result["failed"], result


def test_capabilities_of_another_family_are_refused(server, run_module):
    result = run_module(pipeline_plugin, dict(family="transformation", name="Geo",
                                              capabilities={"methods": ["onEvent"]}))
    assert result["failed"] and "family=destination, not in family=transformation" in result["msg"]
