# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The engine's hooks added for projects and proxy records: ``complete`` (a list gives a summary,
the match is read whole), ``gone`` (an object on its way out counts as missing) and
``Step.changes`` (a step that only watches does not make the task changed)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.module_utils._resource import Resource, Step


class Client:
    def __init__(self, listed=(), detail=None):
        self.listed, self.detail, self.calls = list(listed), detail, []

    def paginate(self, path, params=None, context=None):
        self.calls.append("list")
        return iter(self.listed)

    def get_or_none(self, path, context=None):
        self.calls.append("get " + path)
        return self.detail

    def get(self, path, context=None):
        self.calls.append("get " + path)
        return self.detail

    def delete(self, path, context=None):
        self.calls.append("delete " + path)


class Task:
    check_mode = False
    diff_mode = False
    missing_parent = None

    def __init__(self, client):
        self.client = client


class Thing(Resource):
    kind = "thing"
    return_key = "thing"
    steps = ()

    def collection_path(self):
        return "/things/"


class Whole(Thing):
    def complete(self, obj):
        return self.client.get(self.detail_path(obj["id"]))


class Leaving(Thing):
    def gone(self, obj):
        return obj.get("status") == "deleting"


def test_complete_reads_the_match_of_a_list_and_only_it():
    client = Client(listed=[{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], detail={"id": 2, "name": "b", "x": 1})
    found = Whole(Task(client), dict(name="b")).find()
    assert found == {"id": 2, "name": "b", "x": 1} and client.calls == ["list", "get /things/2/"]
    client = Client(detail={"id": 2, "name": "b"})
    assert Whole(Task(client), dict(id="2")).find() == {"id": 2, "name": "b"}
    assert client.calls == ["get /things/2/"]  # a GET by id is whole already
    client = Client(listed=[{"id": 1, "name": "a"}])
    assert Whole(Task(client), dict(name="b")).find() is None and client.calls == ["list"]


def test_gone_objects_count_as_missing_and_are_kept_aside():
    leaving = {"id": 1, "name": "a", "status": "deleting"}
    resource = Leaving(Task(Client(listed=[leaving])), dict(name="a", state="absent"))
    result = resource.converge()
    assert result.changed is False and resource.departing == leaving
    resource = Leaving(Task(Client(detail=leaving)), dict(id="1", state="absent"))
    assert resource.converge().changed is False and resource.departing == leaving
    fresh = Leaving(Task(Client(listed=[leaving, {"id": 2, "name": "a"}])), dict(name="a"))
    assert fresh.find() == {"id": 2, "name": "a"}  # not ambiguous: the leaving one does not count


class Watch(Step):
    action = "watched"
    changes = False

    def plan(self, resource, result):
        return True

    def predict(self, resource, result, plan):
        return dict(result.obj, seen=True)

    def requests(self, resource, result, plan):
        return [dict(method="GET", path=resource.path_of(result.obj))]

    def perform(self, resource, action, send):
        return dict(resource.applied, seen=True)

    def absorb(self, resource, action, answer):
        return answer


class Watched(Thing):
    steps = (Watch(),)


def test_a_watching_step_is_recorded_but_changes_nothing():
    client = Client(detail={"id": 1, "name": "a"})
    result = Watched(Task(client), dict(id="1")).converge()
    assert result.changed is False and result.written is False
    assert result.actions == ["watched"] and result.obj["seen"] is True
    assert client.calls == ["get /things/1/"]  # the look-up; the watch performs itself
