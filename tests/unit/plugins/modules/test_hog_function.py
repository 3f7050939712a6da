# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.hog_function and hog_function_info through main(), against a scripted server."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

from ansible_collections.posthog.admin.plugins.modules import hog_function, hog_function_info
from ansible_collections.posthog.admin.tests.unit.conftest import page

FID = "0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f"
SCHEMA = [
    {"key": "site_id", "type": "string", "secret": False, "required": True},
    {"key": "token", "type": "string", "secret": True, "required": True},
    {"key": "host", "type": "choice", "secret": False, "required": True, "default": "track.customer.io"},
]
TEMPLATE = {"id": "template-customerio", "name": "Customer.io", "type": "destination", "inputs_schema": SCHEMA}
CIO = {"id": FID, "type": "destination", "name": "CIO", "enabled": False, "template": {"id": "template-customerio"},
       "inputs_schema": SCHEMA, "updated_at": "2026-11-22T10:00:00.123456Z",
       "inputs": {"site_id": {"value": "site-1", "bytecode": ["_H"], "order": 0}, "token": {"secret": True},
                  "host": {"value": "track.customer.io", "order": 2}},
       "filters": {"source": "events", "events": [{"id": "$identify", "type": "events"}], "bytecode": ["_H", 1]},
       "version": 1}
TASK = dict(project_id="7", name="CIO", template_id="template-customerio", inputs={"site_id": "site-1"},
            secret_inputs={"token": "cio-secret-token"})


def body(server, index):
    return json.loads(server.requests[index]["body"])


def test_creates_from_a_template_sending_the_secret_once(server, run_module):
    created = dict(CIO)
    server.script((200, page()), (200, TEMPLATE), (201, created))
    result = run_module(hog_function, TASK)
    assert not result["failed"] and result["changed"]
    assert run_module.calls[0].startswith("GET /api/projects/7/hog_functions/")
    assert "full=true" in run_module.calls[0] and "type=destination%2C" in run_module.calls[0]
    assert run_module.calls[1] == "GET /api/projects/7/hog_function_templates/template-customerio/"
    sent = body(server, 2)
    assert sent["template_id"] == "template-customerio" and sent["name"] == "CIO"
    assert sent["inputs"] == {"site_id": {"value": "site-1"}, "token": {"value": "cio-secret-token"}}
    assert "cio-secret-token" not in json.dumps(result)
    assert result["diff"]["after"]["secret_inputs"] == {"token": "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"}


def test_unchanged_is_one_read_and_never_compares_the_secret(server, run_module):
    server.script((200, page(CIO)))
    result = run_module(hog_function, dict(TASK, filters={"events": [{"id": "$identify"}]}))
    assert not result["failed"] and result["changed"] is False
    assert len(server.requests) == 1


def test_filters_are_compared_and_sent_as_posthog_stores_them(server, run_module):
    # PostHog's filters serializer stores source "events" when a request leaves it out: a function
    # whose filters read another source changes when the task's filters leave it out, and the
    # filters sent say source "events"; stored as "events", the same task is unchanged.
    other = dict(CIO, filters=dict(CIO["filters"], source="person-updates"))
    server.script((200, page(other)), (200, CIO))
    result = run_module(hog_function, dict(TASK, filters={"events": [{"id": "$identify"}]}))
    assert result["changed"] and body(server, 1)["filters"] == {"source": "events", "events": [{"id": "$identify"}]}
    server.script((200, page(CIO)))
    again = run_module(hog_function, dict(TASK, filters={"events": [{"id": "$identify"}]}))
    assert again["changed"] is False


def test_update_sends_stored_inputs_with_the_change_and_base_updated_at(server, run_module):
    after = dict(CIO, inputs=dict(CIO["inputs"], site_id={"value": "site-2"}), enabled=True)
    server.script((200, page(CIO)), (200, after))
    result = run_module(hog_function, dict(TASK, inputs={"site_id": "site-2"}, enabled=True))
    assert result["changed"] and run_module.calls[1] == "PATCH /api/projects/7/hog_functions/%s/" % FID
    sent = body(server, 1)
    assert sent["inputs"] == {"site_id": {"value": "site-2"}, "host": {"value": "track.customer.io"}}  # no token
    assert sent["enabled"] is True and sent["base_updated_at"] == "2026-11-22T10:00:00.123456Z"
    assert "secret_inputs" not in sent and "template_id" not in sent


def test_check_mode_predicts_without_writing(server, run_module):
    server.script((200, page(CIO)))
    result = run_module(hog_function, dict(TASK, inputs={"site_id": "site-2"}), check=True)
    assert result["changed"] and len(server.requests) == 1
    assert result["hog_function"]["inputs"]["site_id"] == {"value": "site-2"}
    assert result["hog_function"]["inputs"]["token"] == {"secret": True}


def test_update_secrets_always_sends_them_every_run(server, run_module):
    server.script((200, page(CIO)), (200, CIO))
    result = run_module(hog_function, dict(TASK, update_secrets="always"))
    assert result["changed"] and body(server, 1)["inputs"]["token"] == {"value": "cio-secret-token"}
    assert "cio-secret-token" not in json.dumps(result)


def test_a_secret_not_stored_yet_is_sent(server, run_module):
    unset = dict(CIO, inputs={"site_id": {"value": "site-1"}})
    server.script((200, page(unset)), (200, CIO))
    result = run_module(hog_function, TASK)
    assert result["changed"] and body(server, 1)["inputs"]["token"] == {"value": "cio-secret-token"}


def test_inputs_outside_the_schema_and_misplaced_secrets_are_refused_before_any_write(server, run_module):
    server.script((200, page(CIO)))
    result = run_module(hog_function, dict(TASK, inputs={"site_id": "x", "region": "eu", "token": "t"},
                                           secret_inputs={"host": "h"}))
    assert result["failed"] and len(server.requests) == 1
    assert "region are not in the function's inputs schema (its keys: host, site_id, token)" in result["msg"]
    assert "token are secret in the schema: give them in secret_inputs" in result["msg"]
    assert "secret_inputs host are not secret" in result["msg"]


def test_type_and_template_are_fixed_after_creation(server, run_module):
    server.script((200, page(CIO)))
    result = run_module(hog_function, dict(TASK, type="site_app", template_id="template-sendgrid"))
    assert result["failed"] and "template_id, type cannot be changed after creation" in result["msg"]
    assert len(server.requests) == 1


def test_absent_is_a_patch_deleted_true(server, run_module):
    server.script((200, page(CIO)), (200, dict(CIO)))
    result = run_module(hog_function, dict(project_id="7", name="CIO", state="absent"))
    assert result["changed"] and run_module.calls[1] == "PATCH /api/projects/7/hog_functions/%s/" % FID
    assert body(server, 1) == {"deleted": True}


STALE = {"type": "validation_error", "code": "stale_update", "detail": "stale", "attr": "base_updated_at"}


def test_a_409_is_explained(server, run_module):
    server.script((200, page(CIO)), (409, STALE), (200, dict(CIO, name="CIO")))
    result = run_module(hog_function, dict(TASK, enabled=True))
    assert result["failed"] and "was changed in PostHog after this task read it" in result["msg"]
    assert "Run the task again" in result["msg"]


def test_a_409_met_by_its_own_earlier_attempt_is_done(server, run_module):
    """A retried PATCH whose first answer was lost meets the function it already changed (409): the
    module re-reads it, finds it as wanted, and is done."""
    enabled = dict(CIO, enabled=True, updated_at="2026-11-22T10:00:01Z")
    server.script((200, page(CIO)), (409, STALE), (200, enabled))
    result = run_module(hog_function, dict(TASK, enabled=True))
    assert not result["failed"] and result["changed"] and result["hog_function"]["enabled"] is True
    assert run_module.calls[2] == "GET /api/projects/7/hog_functions/%s/" % FID


def test_older_posthog_without_the_api_is_named(server, run_module):
    server.script((404, {"type": "invalid_request", "code": "not_found", "detail": "Endpoint not found.",
                         "attr": None}))
    result = run_module(hog_function, TASK)
    assert result["failed"] and "serves no hog functions API" in result["msg"]


def test_options_checked_before_any_request(server, run_module):
    msg = run_module.refuses(hog_function, dict(TASK, id="nope", inputs={"token": "a"}, masking={"ttl": 5},
                                                mappings=[{}], type="transformation"))
    for part in ("id must be a hog function's UUID", "token are given in both inputs and secret_inputs",
                 "masking.ttl must be", "masking.hash is required", "mappings are only for destinations"):
        assert part in msg


def test_list_option_reads_once(server, run_module):
    geo = {"id": "0190a3f4-7b1e-7c3a-9d2f-000000000001", "type": "transformation", "name": "GeoIP",
           "template": {"id": "template-geoip"}, "execution_order": 1, "inputs_schema": [], "inputs": {},
           "enabled": True}
    server.script((200, page(CIO, geo)))
    result = run_module(hog_function, dict(project_id="7", hog_functions=[
        dict(name="GeoIP", execution_order=1, enabled=True), dict(name="CIO", enabled=False)]))
    assert not result["failed"] and result["changed"] is False and len(server.requests) == 1
    assert [f["name"] for f in result["hog_functions"]] == ["GeoIP", "CIO"]


def test_info_lists_functions_and_templates(server, run_module):
    server.script((200, page(CIO)), (200, page(TEMPLATE)), (200, TEMPLATE))
    listed = run_module(hog_function_info, dict(project_id="7", type=["destination"]))
    assert [f["name"] for f in listed["hog_functions"]] == ["CIO"] and "type=destination" in run_module.calls[0]
    templates = run_module(hog_function_info, dict(project_id="7", templates=True))
    assert templates["templates"][0]["id"] == "template-customerio"
    assert run_module.calls[1].startswith("GET /api/projects/7/hog_function_templates/")
    one = run_module(hog_function_info, dict(project_id="7", template_id="template-customerio"))
    assert one["templates"] == [TEMPLATE]
    assert run_module.calls[2] == "GET /api/projects/7/hog_function_templates/template-customerio/"


def test_inputs_without_any_schema_say_how_to_give_one(server, run_module):
    server.script((200, page()))
    result = run_module(hog_function, dict(project_id="7", name="Hook", hog="return event", inputs={"url": "x"}))
    assert result["failed"] and len(server.requests) == 1
    assert "(its keys: none)" in result["msg"] and "give inputs_schema, or template_id" in result["msg"]


def test_a_new_function_needs_hog_or_a_template(server, run_module):
    server.script((200, page()))
    result = run_module(hog_function, dict(project_id="7", name="Nothing"))
    assert result["failed"] and "to create it, give template_id or hog" in result["msg"]
