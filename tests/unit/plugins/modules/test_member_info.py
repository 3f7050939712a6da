# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.member_info through main(): PostHog's email, search and order filters, and the level filter."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import member_info
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import ORG, member

MEMBERS = [member("ann@x.com", 8), member("bob@x.com", 1), member("cy@x.com", 15)]


@pytest.mark.parametrize("filters, query, emails", [
    (dict(), "limit=500&order=-joined_at", ["ann@x.com", "bob@x.com", "cy@x.com"]),
    (dict(level="admin", order="joined_at"), "limit=500&order=joined_at", ["ann@x.com"]),
    (dict(email="bob@x.com"), "email=bob%40x.com&limit=500&order=-joined_at", ["ann@x.com", "bob@x.com", "cy@x.com"]),
    (dict(search="an", level="owner"), "limit=500&search=an", ["cy@x.com"]),  # PostHog does not order a search
])
def test_filters_go_to_posthog_and_the_level_is_filtered_here(server, run_module, filters, query, emails):
    server.script((200, page(*MEMBERS)))
    result = run_module(member_info, filters)
    assert result["changed"] is False and [m["user"]["email"] for m in result["members"]] == emails
    assert all(m["level_name"] for m in result["members"])
    assert run_module.calls == ["GET %smembers/?%s" % (ORG, query)]


def test_a_search_longer_than_posthog_takes_fails_before_any_request(run_module):
    assert "search must be at most 200 characters" in run_module.refuses(member_info, dict(search="x" * 201))
