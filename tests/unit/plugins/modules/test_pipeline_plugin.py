# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""pipeline_plugin installs: a lost answer to the install POST does not install the plugin twice."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogClient
from ansible_collections.posthog.admin.plugins.modules.pipeline_plugin import PipelinePlugin

URL = "https://github.com/acme/posthog-hello"
DESTINATIONS = "/api/organizations/@current/pipeline_destinations/"


class Failed(Exception):
    pass


class Exited(Exception):
    def __init__(self, result):
        super(Exited, self).__init__("exit")
        self.result = result


class TaskStub:
    def __init__(self, server, params):
        self.client = PostHogClient(host=server.url, api_key="phx_k", retries=3, sleep=lambda seconds: None)
        self.params = params
        self.check_mode = False
        self.diff_mode = False
        self.module = self

    def org_path(self, *parts):
        return "/api/organizations/@current/%s/" % "/".join(parts)

    def fail(self, msg, **extra):
        raise Failed(str(msg))

    fail_json = fail

    def exit(self, **result):
        raise Exited(result)


def params(**values):
    base = dict(family="destination", state="present", id=None, name=None, url=None, plugin_type=None,
                description=None, icon=None, config_schema=None, tag=None, is_global=None, capabilities=None,
                metrics=None, public_jobs=None, source_files=None, purge_source_files=False)
    base.update(values)
    return base


def page(*items):
    return {"count": len(items), "next": None, "previous": None, "results": list(items)}


HELLO = {"id": 7, "name": "Hello", "url": URL, "plugin_type": "custom", "tag": "v1",
         "capabilities": {"methods": ["onEvent"]}}


def run(server, **values):
    with pytest.raises(Exited) as info:
        PipelinePlugin(TaskStub(server, params(**values))).run()
    return info.value.result


def test_install_by_url_whose_answer_was_lost_is_found_not_installed_again(server):
    # The install is committed but its answer lost (502): the module finds the plugin by URL.
    server.script((200, page()), (502, "bad gateway"), (200, page(HELLO)))
    result = run(server, url=URL + "/")
    assert result["changed"] is True and result["plugin"]["id"] == 7
    assert [r["method"] for r in server.requests] == ["GET", "POST", "GET"]


def test_install_that_did_not_arrive_is_sent_again(server):
    server.script((200, page()), (503, {"detail": "Service temporarily unavailable."}), (200, page()), (201, HELLO))
    result = run(server, url=URL)
    assert result["changed"] is True and result["plugin"]["id"] == 7
    assert [r["method"] for r in server.requests] == ["GET", "POST", "GET", "POST"]


def test_source_plugin_whose_answer_was_lost_is_found_by_name(server):
    made = {"id": 9, "name": "Mine", "url": None, "plugin_type": "source", "capabilities": {"methods": ["onEvent"]}}
    server.script((200, page()), (500, {"detail": "A server error occurred."}), (200, page(made)))
    result = run(server, name="Mine")
    assert result["changed"] is True and result["plugin"]["id"] == 9
    assert [r["method"] for r in server.requests] == ["GET", "POST", "GET"]
