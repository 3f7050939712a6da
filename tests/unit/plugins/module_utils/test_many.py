# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Many objects in one task: the list engine, driven through the real client against a scripted server."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogClient
from ansible_collections.posthog.admin.plugins.module_utils._many import (
    Snapshot,
    item_spec,
    merged_params,
    run_items,
)
from ansible_collections.posthog.admin.plugins.module_utils._resource import Resource

NAMES = ("state", "name", "color", "id")


class Failed(Exception):
    def __init__(self, msg, extra):
        super(Failed, self).__init__(msg)
        self.msg = msg
        self.extra = extra


class Exited(Exception):
    def __init__(self, result):
        super(Exited, self).__init__("exit")
        self.result = result


class AnsibleModuleStub:
    def __init__(self):
        self.warnings = []

    def warn(self, text):
        self.warnings.append(text)

    def fail_json(self, msg=None, **extra):
        raise Failed(msg, extra)

    def exit_json(self, **result):
        raise Exited(result)


class TaskStub:
    """What run_items needs of PostHogModule: params, flags, a client, module, fail and exit."""

    def __init__(self, server, params, check_mode=False):
        self.client = PostHogClient(host=server.url, api_key="phx_k", sleep=lambda s: None)
        self.params = params
        self.check_mode = check_mode
        self.diff_mode = True
        self.module = AnsibleModuleStub()

    def fail(self, msg, **extra):
        raise Failed(msg, extra)

    def exit(self, **result):
        raise Exited(result)


def page(*items):
    return {"count": len(items), "next": None, "previous": None, "results": list(items)}


def check(ph):
    if ph.params.get("name") is None and ph.params.get("id") is None:
        return ["one of name or id is required"]
    if ph.params.get("color") == "plaid":
        return ["color plaid is not a colour"]
    return []


def build(ph):
    return Resource(ph, "thing", "thing", "/api/things/", ["name", "color"])


def label(params):
    return "thing %r" % params.get("name")


def keys(params):
    return [("name", params["name"])] if params.get("name") else []


def converge(server, things, check_mode=False, **top):
    params = dict(state="present", name=None, color=None, id=None, things=things)
    params.update(top)
    ph = TaskStub(server, params, check_mode=check_mode)
    with pytest.raises((Exited, Failed)) as info:
        run_items(ph, "things", NAMES, "thing", Snapshot("/api/things/"), check, build, label, keys=keys)
    return info.value


def test_item_spec_drops_defaults_and_required():
    spec = dict(state=dict(type="str", default="present", choices=["present", "absent"]),
                name=dict(type="str", required=True), other=dict(type="int"))
    assert item_spec(spec, ("state", "name")) == dict(state=dict(type="str", choices=["present", "absent"]),
                                                      name=dict(type="str"))
    assert spec["state"]["default"] == "present"  # the task's own spec is untouched


def test_items_take_the_task_options_as_defaults():
    params = dict(state="present", color="red", name=None, things=[{"name": "a"}])
    assert merged_params(params, {"name": "a", "color": None}, NAMES, "things") == dict(
        state="present", color="red", name="a", things=None)
    assert merged_params(params, {"name": "b", "color": "blue"}, NAMES, "things")["color"] == "blue"


def test_an_idempotent_run_reads_the_collection_once(server):
    server.script((200, page({"id": 1, "name": "a", "color": "red"}, {"id": 2, "name": "b", "color": "blue"},
                             {"id": 3, "name": "c", "color": None})))
    done = converge(server, [{"name": "a", "color": "red"}, {"name": "b", "color": "blue"}, {"name": "c"}])
    assert isinstance(done, Exited)
    assert done.result["changed"] is False
    assert [t["id"] for t in done.result["things"]] == [1, 2, 3]
    assert done.result["diff"] == []
    assert [r["method"] for r in server.requests] == ["GET"]


def test_writes_only_what_differs_after_one_read(server):
    server.script((200, page({"id": 1, "name": "a", "color": "red"}, {"id": 2, "name": "gone", "color": None})),
                  (201, {"id": 9, "name": "new", "color": "red"}),
                  (200, {"id": 1, "name": "a", "color": "green"}),
                  (204, None))
    done = converge(server, [{"name": "new"}, {"name": "a", "color": "green"}, {"name": "gone", "state": "absent"}],
                    color="red")
    assert done.result["changed"] is True
    assert [(r["method"], r["path"]) for r in server.requests] == [
        ("GET", "/api/things/?limit=500"), ("POST", "/api/things/"), ("PATCH", "/api/things/1/"), ("DELETE", "/api/things/2/")]
    assert json.loads(server.requests[1]["body"]) == {"name": "new", "color": "red"}
    assert json.loads(server.requests[2]["body"]) == {"color": "green"}
    assert [d["before_header"] for d in done.result["diff"]] == [
        "things[0] (thing 'new')", "things[1] (thing 'a')", "things[2] (thing 'gone')"]
    assert done.result["things"][2] == {}


def test_check_mode_only_reads(server):
    server.script((200, page({"id": 1, "name": "a", "color": "red"})))
    done = converge(server, [{"name": "a", "color": "green"}, {"name": "b"}], check_mode=True)
    assert done.result["changed"] is True
    assert [r["method"] for r in server.requests] == ["GET"]
    assert done.result["things"][0]["color"] == "green"


def test_a_lost_create_answer_is_recovered_from_the_server_not_the_snapshot(server):
    created = {"id": 9, "name": "new", "color": None}
    server.script((200, page()), (502, {"detail": "bad gateway"}), (200, page(created)))
    done = converge(server, [{"name": "new"}])
    assert done.result["changed"] is True
    assert [r["method"] for r in server.requests] == ["GET", "POST", "GET"]
    assert done.result["things"][0]["id"] == 9


def test_bad_items_fail_before_any_request(server):
    failed = converge(server, [{"name": "a"}, {"name": "a"}, {"color": "red"}, {"name": "b", "color": "plaid"}])
    assert isinstance(failed, Failed)
    assert "things[0] and things[1] name the same object" in failed.msg
    assert "things[2] (thing None): one of name or id is required" in failed.msg
    assert "things[3] (thing 'b'): color plaid is not a colour" in failed.msg
    assert server.requests == []


def test_a_failing_item_names_itself_and_returns_what_went_before(server):
    server.script((200, page()), (201, {"id": 9, "name": "a", "color": None}),
                  (400, {"type": "validation_error", "code": "invalid", "detail": "no such colour", "attr": "color"}))
    failed = converge(server, [{"name": "a"}, {"name": "b", "color": "mauve"}, {"name": "c"}])
    assert isinstance(failed, Failed)
    assert failed.msg.startswith("things[1] (thing 'b'): ")
    assert "no such colour" in failed.msg
    assert "before it, 1 item(s) were converged (changed)" in failed.msg.lower()
    assert failed.extra["changed"] is True
    assert [t["id"] for t in failed.extra["things"]] == [9]
    assert failed.extra["error"]["status"] == 400
    assert [r["method"] for r in server.requests] == ["GET", "POST", "POST"]


def test_the_snapshot_follows_writes_and_rereads_after_unknown_actions():
    snapshot = Snapshot("/api/things/")

    class Client:
        calls = 0

        def list_all(self, path, params=None, context=None):
            Client.calls += 1
            return [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]

    client = Client()
    assert [o["id"] for o in snapshot.objects(client)] == [1, 2]
    snapshot.follow("POST", "/api/things/", {"id": 3, "name": "c"})
    snapshot.follow("PATCH", "/api/things/1/", {"id": 1, "name": "A"})
    snapshot.follow("DELETE", "/api/things/2/", None)
    snapshot.follow("POST", "/api/other/", {"id": 4})
    assert snapshot.objects(client) == [{"id": 1, "name": "A"}, {"id": 3, "name": "c"}]
    snapshot.follow("POST", "/api/things/1/verify/", {"id": 1, "name": "A", "verified": True})
    assert snapshot.objects(client)[0]["verified"] is True
    assert Client.calls == 1
    snapshot.follow("POST", "/api/things/1/pause/", {"paused": True})
    assert [o["id"] for o in snapshot.objects(client)] == [1, 2]
    assert Client.calls == 2


def test_an_item_that_failed_after_writing_makes_the_task_changed(server):
    """An item's module may fail saying it changed something (created, then refused the rest)."""
    class Partial(object):
        def __init__(self, ph):
            self.ph = ph

        def run(self):
            self.ph.fail("created it, then stopped", changed=True)

    ph = TaskStub(server, dict(state="present", name=None, color=None, id=None, things=[dict(name="a")]))
    with pytest.raises(Failed) as info:
        run_items(ph, "things", NAMES, "thing", Snapshot("/api/things/"), check, Partial, label, keys=keys)
    assert info.value.extra["changed"] is True
    assert info.value.args[0] == "things[0] (thing 'a'): created it, then stopped"
    assert server.requests == []
