# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 33: two members whose e-mail addresses differ only in case (PostHog keeps its users unique by
exact address, and older accounts differ in case: docs/posthog_facts.md) are refused wherever a person is
looked up - a role's members, an access rule's member, the roster, organization_state's roster and roles -
before any write, naming both; never matched to whichever the list gave last.

The emulator never makes such twins (it matches addresses regardless of case), so a proxy in front of it
lists a second account for bob@twins.example as Bob@twins.example."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import json

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._state import (
    STATE_ARGUMENT_SPEC,
    STATE_MODULE_OPTIONS,
    converge_state,
)
from ansible_collections.posthog.admin.plugins.modules import access_control, organization_state, role, roster
from ansible_collections.posthog.admin.plugins.plugin_utils._in_process import run_in_process
from ansible_collections.posthog.admin.tests.unit.conftest import LiveEmulator, ModuleRun
from ansible_collections.posthog.admin.tests.unit.proxy import RewritingProxy

BOB = "bob@twins.example"
TWIN = "Bob@twins.example"
TWIN_ID = "0190a3f4-0000-7000-8000-0000000b0b0b"


pytestmark = pytest.mark.usefixtures("module_side")


@pytest.fixture
def twins(live):
    """bob@twins.example is a member; the proxy lists a second account, Bob@twins.example, after him."""
    live.api("POST", "/api/organizations/@current/invites/", dict(target_email=BOB, level=1, send_email=False))
    live.control("POST", "invites/accept", dict(email=BOB))
    live.api("POST", "/api/organizations/@current/roles/", dict(name="Analysts"))
    proxy = RewritingProxy(live.url)

    def add_twin(method, path, answer):
        body = answer.body
        if not isinstance(body, dict) or not isinstance(body.get("results"), list):
            return
        for member in list(body["results"]):
            if isinstance(member, dict) and (member.get("user") or {}).get("email") == BOB:
                twin = copy.deepcopy(member)
                twin["id"] = TWIN_ID
                twin["user"].update(email=TWIN, uuid="0190a3f4-0000-7000-9000-0000000b0b0b", id=99999,
                                    distinct_id="twin-bob")
                body["results"].append(twin)
                body["count"] = len(body["results"])

    proxy.rewrite("GET", r"/members/", add_twin)
    yield proxy
    proxy.stop()


def run(proxy):
    module = ModuleRun(proxy)
    module.defaults = dict(api_key=LiveEmulator.API_KEY, retries=0)
    return module


def refused(result, proxy):
    assert result.get("failed"), result
    message = result["msg"]
    assert BOB in message and TWIN in message and TWIN_ID in message, message
    assert "differ only in case" in message, message
    assert proxy.writes() == [], proxy.writes()
    return message


def test_a_roles_members_are_refused(twins):
    refused(run(twins)(role, dict(name="Analysts", members=[BOB])), twins)


def test_an_access_rule_for_a_member_is_refused(twins):
    refused(run(twins)(access_control, dict(project_id="1", resource="dashboard", member=BOB,
                                            access_level="viewer")), twins)


@pytest.mark.parametrize("level", ["admin", "owner"])
def test_the_roster_is_refused(twins, level):
    people = [dict(email="test@posthog.com", level="owner"), dict(email=BOB, level=level)]
    refused(run(twins)(roster, dict(people=people)), twins)
    refused(run(twins)(roster, dict(people=[dict(email="test@posthog.com", level="owner"),
                                            dict(email=BOB.upper(), roles=["Analysts"])])), twins)


DOCUMENTS = [
    dict(name="Emulator Org", roster=dict(people=[
        dict(email="test@posthog.com", level="owner"), dict(email=BOB, level="admin")])),
    dict(name="Emulator Org", roles=[dict(name="Analysts", members=[BOB])]),
    dict(name="Emulator Org", access_controls=[dict(resource="dashboard", member=BOB, access_level="viewer")]),
]


@pytest.mark.parametrize("document", DOCUMENTS, ids=["roster", "roles", "access-controls"])
def test_organization_state_refuses_in_a_module_process_and_in_the_worker(twins, document):
    message = refused(run(twins)(organization_state, dict(definition=document)), twins)
    assert "nothing was changed" in message
    worker = run_in_process("posthog.admin.organization_state", STATE_ARGUMENT_SPEC, converge_state,
                            dict(definition=document, host=twins.url, api_key=LiveEmulator.API_KEY, retries=0),
                            False, True, **STATE_MODULE_OPTIONS)
    assert refused(worker, twins) == message
    assert LiveEmulator.API_KEY not in json.dumps(worker)


def test_a_member_is_refused(twins):
    from ansible_collections.posthog.admin.plugins.modules import member

    message = run(twins)(member, dict(email=BOB, level="admin"))["msg"]
    assert twins.writes() == []
    assert "ambiguous" in message and TWIN_ID in message, message
