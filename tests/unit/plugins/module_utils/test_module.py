# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""What every module shares: the options module_defaults can set, and argument errors that name
the option and the item at fault."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogClient
from ansible_collections.posthog.admin.plugins.modules import batch_export, domain, organization, organization_info, roster
from ansible_collections.posthog.admin.tests.unit.conftest import page

MODULES = os.path.join(os.path.dirname(organization.__file__))


def test_people_given_as_text_names_the_option(server, run_module):
    result = run_module(roster, dict(people="alice@example.com"))
    assert result["failed"] and server.requests == []
    assert result["msg"].startswith("people must be a list of dictionaries")
    assert "'alice@example.com', not a dictionary" in result["msg"]


def test_a_bad_level_names_the_person(server, run_module):
    result = run_module(roster, dict(people=[dict(email="a@example.com"), dict(email="b@example.com", level="boss")]))
    assert result["failed"] and server.requests == []
    assert result["msg"].startswith("people[1] (b@example.com): value of level must be one of: member, admin, owner")


def test_a_bad_choice_in_a_list_item_names_the_item(server, run_module):
    result = run_module(domain, dict(domains=[dict(domain="a.example.com", state="gone")]))
    assert result["failed"] and result["msg"].startswith("domains[0] (a.example.com): value of state must be one of")


@pytest.mark.parametrize("module", [organization, organization_info, batch_export])
def test_organization_and_project_are_accepted_by_every_module(server, run_module, module):
    # module_defaults for the group may set both; modules that do not use them ignore them
    server.script((200, page()), (200, page()))
    args = dict(organization="0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f", project_id="2")
    if module is organization:
        args.update(name="Acme", state="absent")
    if module is batch_export:
        args.update(name="Gone", state="absent")
    result = run_module(module, args)
    assert not result["failed"], result["msg"]


def test_host_ending_in_api_is_used_without_it(server, run_module):
    server.script((200, page()))
    result = run_module(organization_info, dict(host=server.url + "/api/"))
    assert not result["failed"], result["msg"]
    assert run_module.calls == ["GET /api/organizations/?limit=500"]
    client = PostHogClient(host=server.url + "/api", api_key="phx_unit_test_key")
    assert client.base_url == server.url
    assert client.notes == ["host %s/api ends in /api; the API paths already start with /api/, so %s was used "
                            "(set host without /api)" % (server.url, server.url)]
