# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 33: a deletion's answer is checked before it is believed. A hog function is deleted with
``PATCH {"deleted": true}`` (PostHog refuses DELETE); a server answering that PATCH with another function
made every run report ``deleted`` while nothing was (Resource.absorb refuses it since issue 32: this pins
it for the soft delete, in hog_function and in organization_state both ways)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._state import (
    STATE_ARGUMENT_SPEC,
    STATE_MODULE_OPTIONS,
    converge_state,
)
from ansible_collections.posthog.admin.plugins.modules import hog_function, organization_state
from ansible_collections.posthog.admin.plugins.plugin_utils._in_process import run_in_process
from ansible_collections.posthog.admin.tests.unit.conftest import LiveEmulator, ModuleRun
from ansible_collections.posthog.admin.tests.unit.proxy import RewritingProxy

OTHER = "0190a3f4-0000-7000-8000-00000000dead"


pytestmark = pytest.mark.usefixtures("module_side")


@pytest.fixture
def lying(live):
    """A function to delete, behind a proxy that answers its soft delete with another function (and does
    not pass the PATCH on: nothing is deleted)."""
    made = live.api("POST", "/api/projects/1/hog_functions/", dict(
        name="Old webhook", type="destination", hog="return event", inputs_schema=[], inputs={}))
    proxy = RewritingProxy(live.url)
    original = proxy._forward

    def forward(method, path, data, headers):
        if method == "PATCH" and "/hog_functions/" in path:
            from ansible_collections.posthog.admin.tests.unit.proxy import Answer
            return Answer(200, dict(made, id=OTHER, name="Someone else", deleted=False))
        return original(method, path, data, headers)

    proxy._forward = forward
    proxy.made = made
    yield proxy
    proxy.stop()


def refused(result, lying):
    assert result.get("failed"), result
    assert ("PostHog answered PATCH /api/projects/1/hog_functions/%s/ with another object (id %s), so the deletion "
            "cannot be confirmed" % (lying.made["id"], OTHER)) in result["msg"], result["msg"]


def test_hog_function_refuses_a_soft_delete_answered_with_another_function(lying, live):
    run = ModuleRun(lying)
    run.defaults = dict(api_key=LiveEmulator.API_KEY, retries=0)
    for dummy in range(2):  # and every run says so, never "deleted"
        refused(run(hog_function, dict(project_id="1", name="Old webhook", state="absent")), lying)
    assert live.api("GET", "/api/projects/1/hog_functions/%s/" % lying.made["id"])["name"] == "Old webhook"


def test_organization_state_refuses_it_in_a_module_process_and_in_the_worker(lying):
    document = dict(name="Emulator Org", hog_functions=[dict(name="Old webhook", state="absent")])
    run = ModuleRun(lying)
    run.defaults = dict(api_key=LiveEmulator.API_KEY, retries=0)
    refused(run(organization_state, dict(definition=document)), lying)
    worker = run_in_process("posthog.admin.organization_state", STATE_ARGUMENT_SPEC, converge_state,
                            dict(definition=document, host=lying.url, api_key=LiveEmulator.API_KEY, retries=0),
                            False, False, **STATE_MODULE_OPTIONS)
    refused(worker, lying)
