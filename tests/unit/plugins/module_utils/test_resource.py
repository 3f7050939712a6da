# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The idempotency engine, driven through the real client against a scripted server."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogClient
from ansible_collections.posthog.admin.plugins.module_utils._resource import (
    SECRET_MASK,
    Resource,
    mask,
    values_match,
)


class Failed(Exception):
    pass


class Exited(Exception):
    def __init__(self, result):
        super(Exited, self).__init__("exit")
        self.result = result


class TaskStub:
    """What Resource needs of PostHogModule: params, check/diff flags, a client, fail and exit."""

    def __init__(self, server, params, check_mode=False, diff_mode=True):
        self.client = PostHogClient(host=server.url, api_key="phx_k", sleep=lambda s: None)
        self.params = params
        self.check_mode = check_mode
        self.diff_mode = diff_mode

    def fail(self, msg, **kwargs):
        raise Failed(msg)

    def exit(self, **result):
        raise Exited(result)


def page(*items):
    return {"count": len(items), "next": None, "previous": None, "results": list(items)}


def make(server, check_mode=False, **params):
    params.setdefault("state", "present")
    params.setdefault("id", None)
    ph = TaskStub(server, params, check_mode=check_mode)
    return Resource(ph, "thing", "thing", "/api/things/", ["name", "color", "tags", "config"],
                    unordered=["tags"], secret_paths=["config.password"], create_only=["color"])


def run(resource):
    with pytest.raises(Exited) as info:
        resource.run()
    return info.value.result


def test_creates_with_only_the_options_set(server):
    server.script((200, page()), (201, {"id": 7, "name": "a", "color": None, "tags": [], "config": {}}))
    result = run(make(server, name="a", color=None, tags=None, config=None))
    assert result["changed"] is True
    assert [r["method"] for r in server.requests] == ["GET", "POST"]
    assert json.loads(server.requests[1]["body"]) == {"name": "a"}
    assert result["diff"] == {"before": {}, "after": {"name": "a"}}


def test_idempotent_run_reads_once(server):
    server.script((200, page({"id": 7, "name": "a", "color": "red", "tags": ["x", "y"], "config": {"k": 1}})))
    result = run(make(server, name="a", color="red", tags=["y", "x"], config={"k": 1}))
    assert result["changed"] is False
    assert len(server.requests) == 1


def test_patches_only_what_differs(server):
    current = {"id": 7, "name": "a", "color": "red", "tags": ["x"], "config": {"k": 1, "other": 2}}
    server.script((200, page(current)), (200, dict(current, tags=["x", "z"])))
    result = run(make(server, name="a", color="red", tags=["x", "z"], config={"k": 1}))
    assert result["changed"] is True
    assert server.requests[1]["method"] == "PATCH"
    assert server.requests[1]["path"] == "/api/things/7/"
    assert json.loads(server.requests[1]["body"]) == {"tags": ["x", "z"]}
    assert result["diff"]["before"]["tags"] == ["x"] and result["diff"]["after"]["tags"] == ["x", "z"]


def test_check_mode_reads_only_and_predicts_the_same_changed(server):
    current = {"id": 7, "name": "a", "color": "red", "tags": [], "config": {}}
    server.script((200, page(current)))
    result = run(make(server, check_mode=True, name="a", tags=["new"]))
    assert result["changed"] is True
    assert result["thing"]["tags"] == ["new"]
    assert [r["method"] for r in server.requests] == ["GET"]


def test_check_mode_create_and_delete_write_nothing(server):
    server.script((200, page()))
    assert run(make(server, check_mode=True, name="new"))["changed"] is True
    server.script((200, page({"id": 1, "name": "old"})))
    assert run(make(server, check_mode=True, name="old", state="absent"))["changed"] is True
    assert {r["method"] for r in server.requests} == {"GET"}


def test_ambiguous_name_fails_naming_the_ids(server):
    server.script((200, page({"id": 1, "name": "a"}, {"id": 2, "name": "a"}, {"id": 3, "name": "b"})))
    with pytest.raises(Failed) as info:
        make(server, name="a").run()
    assert "ambiguous" in str(info.value) and "1, 2" in str(info.value)


def test_unknown_id_fails_instead_of_creating(server):
    server.script((404, {"type": "invalid_request", "code": "not_found", "detail": "Not found.", "attr": None}))
    with pytest.raises(Failed) as info:
        make(server, id=99, name="a").run()
    assert "not found" in str(info.value)
    assert [r["method"] for r in server.requests] == ["GET"]


def test_absent_deletes_once(server):
    server.script((200, page({"id": 4, "name": "a"})), (204, None))
    result = run(make(server, name="a", state="absent"))
    assert result["changed"] is True and result["diff"]["after"] == {}
    assert [r["method"] for r in server.requests] == ["GET", "DELETE"]
    server.script((200, page()))
    assert run(make(server, name="a", state="absent"))["changed"] is False


def test_create_only_field_cannot_change(server):
    server.script((200, page({"id": 4, "name": "a", "color": "red"})))
    with pytest.raises(Failed) as info:
        make(server, name="a", color="blue").run()
    assert "cannot be changed after creation" in str(info.value)
    assert len(server.requests) == 1


def test_secrets_are_masked_in_diff_and_result(server):
    server.script((200, page()), (201, {"id": 1, "name": "a", "config": {"user": "u", "password": "hunter2"}}))
    result = run(make(server, name="a", config={"user": "u", "password": "hunter2"}))
    assert "hunter2" not in json.dumps(result)
    assert result["diff"]["after"]["config"]["password"] == SECRET_MASK


def test_ambiguous_post_failure_recovers_the_created_object(server):
    created = {"id": 9, "name": "a"}
    server.script((200, page()), (502, None), (200, page(created)))
    result = run(make(server, name="a"))
    assert result["thing"] == created
    assert [r["method"] for r in server.requests] == ["GET", "POST", "GET"]


def test_values_match_rules():
    assert values_match({"a": 1}, {"a": 1, "b": 2})
    assert not values_match({"a": 1, "c": 3}, {"a": 1})
    assert values_match(["a", "b"], ["b", "a"], unordered=True)
    assert not values_match(["a", "b"], ["b", "a"])
    assert not values_match(["a"], ["a", "b"], unordered=True)
    assert values_match([{"k": 1}], [{"k": 1, "x": 0}])
    assert not values_match(1, None)


def test_mask_leaves_the_input_alone():
    value = {"config": {"password": "p", "user": "u"}}
    masked = mask(value, ["config.password", "missing.path"])
    assert masked["config"]["password"] == SECRET_MASK
    assert value["config"]["password"] == "p"
