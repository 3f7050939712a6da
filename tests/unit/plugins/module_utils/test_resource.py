# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The engine: its pure helpers, its shape (no resource overrides the flow), and the list engine
(one read of the collection, every write through the real client) driven through modules' main()."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import importlib
import inspect
import os

import pytest

from ansible_collections.posthog.admin.plugins.module_utils import _resource
from ansible_collections.posthog.admin.plugins.module_utils._resource import (
    FLOW_METHODS,
    SECRET_MASK,
    Listing,
    Planner,
    Resource,
    Result,
    mask,
    values_match,
)
from ansible_collections.posthog.admin.plugins.modules import batch_export, domain
from ansible_collections.posthog.admin.tests.unit.conftest import page

UTILS = os.path.join(os.path.dirname(_resource.__file__))


def all_subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from all_subclasses(sub)


def test_no_resource_or_planner_overrides_the_flow():
    for name in sorted(os.listdir(UTILS)):
        if name.startswith("_") and name.endswith(".py") and name != "__init__.py":
            importlib.import_module("ansible_collections.posthog.admin.plugins.module_utils.%s" % name[:-3])
    subclasses = list(all_subclasses(Resource)) + list(all_subclasses(Planner))
    assert len(subclasses) >= 8
    offenders = ["%s.%s" % (cls.__name__, method) for cls in subclasses for method in FLOW_METHODS
                 if method in vars(cls)]
    assert offenders == []


def test_flow_methods_exist_on_the_engine():
    for method in FLOW_METHODS:
        assert hasattr(Resource, method) or hasattr(Planner, method), method
        owner = Resource if hasattr(Resource, method) else Planner
        assert inspect.isfunction(getattr(owner, method))


def test_values_match_rules():
    assert values_match({"a": 1}, {"a": 1, "b": 2})
    assert not values_match({"a": 1}, {"a": 2})
    assert not values_match({"a": 1}, None)
    assert values_match([1, 2], [1, 2]) and not values_match([1, 2], [2, 1])
    assert values_match([1, 2], [2, 1], unordered=True)
    assert not values_match([1, 2], [1], unordered=True)
    assert values_match([{"k": 1}], [{"k": 1, "x": 0}])


def test_mask_leaves_the_input_alone():
    value = {"config": {"password": "p", "user": "u"}}
    masked = mask(value, ["config.password", "config.missing", "nowhere.deep"])
    assert masked == {"config": {"password": SECRET_MASK, "user": "u"}}
    assert value["config"]["password"] == "p"


def test_result_returns_a_list_diff_in_list_mode():
    result = Result("thing", obj={"id": 1})
    result.before, result.after = {"a": 1}, {"a": 2}
    assert result.as_dict(diff_mode=True)["diff"] == {"before": {"a": 1}, "after": {"a": 2}}
    assert "diff" not in result.as_dict(diff_mode=False)
    result.diffs = []
    assert result.as_dict(diff_mode=True)["diff"] == []


def written(obj, actions):
    """The Result of an item that wrote ``obj`` through ``actions``."""
    result = Result("thing", obj)
    result.actions = actions
    result.written = True
    return result


def test_listing_follows_what_items_returned():
    listing = Listing()
    listing._store("/things/", [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}])
    listing.follow(None, written({"id": 3, "name": "c"}, ["created"]), "/things/")
    listing.follow({"id": 1}, written({"id": 1, "name": "A"}, ["updated"]), "/things/")
    listing.follow({"id": 2}, written({}, ["deleted"]), "/things/")
    assert listing.collection("/things/") == [{"id": 1, "name": "A"}, {"id": 3, "name": "c"}]
    listing.follow({"id": 1}, written({"paused": True}, ["paused"]), "/things/")  # no object: read again
    assert listing.collection("/things/") is None


class _Listed(Resource):
    def __init__(self, path, objects, reads):
        self.path, self.objs, self.reads = path, objects, reads
        self.task = None

    def collection_path(self):
        return self.path

    def candidates(self, option, value):
        self.reads.append(self.path)
        return list(self.objs)


def test_listing_reads_each_collection_once():
    reads = []
    listing = Listing()
    first, second = _Listed("/a/", [{"id": 1}], reads), _Listed("/b/", [{"id": 2}], reads)
    assert listing.objects(first) == [{"id": 1}] and listing.objects(second) == [{"id": 2}]
    assert listing.objects(_Listed("/a/", [], reads)) == [{"id": 1}]  # kept, not read again
    assert reads == ["/a/", "/b/"] and listing.reads == 2


# ----------------------------------------------------------------- the list engine, through main()
EXPORT = {"id": "0190a3f4-0000-7000-8000-0000000000e1", "name": "Nightly", "model": "events", "interval": "day",
          "paused": False, "destination": {"type": "NoOp", "config": {}}}
EXPORTS = "/api/organizations/@current/batch_exports/"


def test_a_delete_answered_502_after_the_backend_committed_then_404_is_done(server, run_module):
    # A proxy answers 502 although PostHog deleted the export; the retry meets 404: that is success.
    server.script((200, page(EXPORT)), (502, {"detail": "bad gateway"}), (404, {"detail": "Not found."}))
    result = run_module(batch_export, dict(batch_exports=[dict(name="Nightly", state="absent")]))
    assert not result["failed"], result["msg"]
    assert result["changed"] is True and result["batch_exports"] == [{}]
    assert run_module.calls == ["GET %s?limit=500" % EXPORTS, "DELETE %s%s/" % (EXPORTS, EXPORT["id"]),
                                "DELETE %s%s/" % (EXPORTS, EXPORT["id"])]


def test_an_unchanged_list_is_one_request(server, run_module):
    other = dict(EXPORT, id="0190a3f4-0000-7000-8000-0000000000e2", name="Hourly", interval="hour")
    server.script((200, page(EXPORT, other)))
    result = run_module(batch_export, dict(batch_exports=[dict(name="Nightly", interval="day"),
                                                          dict(name="Hourly", interval="hour")]))
    assert result["changed"] is False and len(server.requests) == 1
    assert [e["name"] for e in result["batch_exports"]] == ["Nightly", "Hourly"]
    assert result["diff"] == []


def test_a_lost_create_answer_is_recovered_from_the_server_not_the_listing(server, run_module):
    created = dict(EXPORT, name="New")
    server.script((200, page(EXPORT)), (502, {"detail": "bad gateway"}), (200, page(EXPORT, created)))
    item = dict(name="New", interval="day", destination=dict(type="NoOp"))
    result = run_module(batch_export, dict(batch_exports=[item]))
    assert not result["failed"], result["msg"]
    assert result["changed"] is True and result["batch_exports"][0]["name"] == "New"
    assert run_module.calls == ["GET %s?limit=500" % EXPORTS, "POST %s" % EXPORTS, "GET %s?limit=500" % EXPORTS]


def test_bad_items_fail_before_any_request_naming_each(server, run_module):
    result = run_module(domain, dict(domains=[dict(domain="Good.Example.com"), dict(domain="a@b.c"), dict(id=None),
                                              dict(domain="good.example.com")]))
    assert result["failed"] and server.requests == []
    assert "domains[1] (domain 'a@b.c'): domain 'a@b.c' looks like an e-mail address" in result["msg"]
    assert "domains[2] (no domain or id given): one of domain or id is required" in result["msg"]
    assert "domains[0] and domains[3] name the same object" in result["msg"]


def test_a_failing_item_names_itself_and_returns_what_went_before(server, run_module):
    server.script((200, page()), (201, dict(EXPORT, name="A")),
                  (400, {"type": "validation_error", "code": "invalid_input", "detail": "No.", "attr": "model"}))
    items = [dict(name="A", interval="day", destination=dict(type="NoOp")),
             dict(name="B", interval="day", destination=dict(type="NoOp")),
             dict(name="C", interval="day", destination=dict(type="NoOp"))]
    result = run_module(batch_export, dict(batch_exports=items))
    assert result["failed"] and result["changed"] is True
    assert result["msg"].startswith("batch_exports[1] (batch export 'B'): creating batch export 'B'")
    assert "before it, 1 item(s) were converged (changed)" in result["msg"]
    assert [e["name"] for e in result["batch_exports"]] == ["A"]
    assert len(server.requests) == 3  # C was not tried


def test_check_mode_of_a_list_only_reads(server, run_module):
    server.script((200, page(EXPORT)))
    items = [dict(name="Nightly", interval="hour"), dict(name="New", interval="day", destination=dict(type="NoOp"))]
    result = run_module(batch_export, dict(batch_exports=items), check=True)
    assert result["changed"] is True and len(server.requests) == 1
    assert [d["before_header"] for d in result["diff"]] == [
        "batch_exports[0] (batch export 'Nightly')", "batch_exports[1] (batch export 'New')"]
    assert result["diff"][0]["before"]["interval"] == "day" and result["diff"][0]["after"]["interval"] == "hour"


def test_items_fall_back_to_the_task_options(server, run_module):
    server.script((200, page(EXPORT, dict(EXPORT, id="x2", name="Other"))), (200, dict(EXPORT, paused=True)))
    items = [dict(name="Nightly"), dict(name="Other", state="present")]
    result = run_module(batch_export, dict(state="paused", batch_exports=items))
    assert not result["failed"], result["msg"]
    assert [r["method"] for r in server.requests] == ["GET", "POST"]  # the spec answers the pause with the export
    assert server.requests[1]["path"].endswith("/pause/")
    assert [e["paused"] for e in result["batch_exports"]] == [True, False]


@pytest.mark.parametrize("module", [batch_export, domain])
def test_list_and_single_options_exclude_each_other(server, run_module, module):
    key = "batch_exports" if module is batch_export else "domains"
    single = dict(name="x") if module is batch_export else dict(domain="x.example.com")
    result = run_module(module, dict({key: []}, **single))
    assert result["failed"] and "mutually exclusive" in result["msg"]
