# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.event_definition_info through main(): the list query, the exact name filter and the GET by id."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules import event_definition_info
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import DEFINITION_ID, NOT_FOUND, definition

DEFINITIONS = "/api/projects/7/event_definitions/"


def test_the_query_carries_every_filter_and_name_is_exact(server, run_module):
    server.script((200, page(definition(name="signed_up_v2", id="x"), definition())))
    result = run_module(event_definition_info, dict(project_id="7", name="signed_up", search="sign", exclude_hidden=True,
                                                    event_type="all", ordering=["-last_seen_at", "name"]))
    assert result["changed"] is False and [d["id"] for d in result["event_definitions"]] == [DEFINITION_ID]
    assert run_module.calls == ["GET %s?event_type=all&exclude_hidden=true&limit=500&ordering=-last_seen_at"
                                "&ordering=name&search=sign+signed_up" % DEFINITIONS]


def test_the_default_lists_events_of_the_current_project(server, run_module):
    server.script((200, page(definition())))
    assert len(run_module(event_definition_info, dict())["event_definitions"]) == 1
    assert run_module.calls == ["GET /api/projects/@current/event_definitions/?event_type=event&limit=500"]


def test_an_id_is_one_get_and_a_missing_one_is_an_empty_list(server, run_module):
    server.script((200, definition()), (404, NOT_FOUND))
    assert run_module(event_definition_info, dict(project_id="7", id=DEFINITION_ID))["event_definitions"] == [definition()]
    assert run_module(event_definition_info, dict(project_id="7", id=DEFINITION_ID))["event_definitions"] == []
    assert run_module.calls == ["GET %s%s/" % (DEFINITIONS, DEFINITION_ID)] * 2


def test_a_bad_id_fails_before_any_request(run_module):
    assert "id must be an event definition's UUID" in run_module.refuses(event_definition_info, dict(id="42"))
