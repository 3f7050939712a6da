# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.invite_info through main(): the invites, by address (any case) and without expired ones."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import invite_info
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import ORG, invite

INVITES = [invite("Ann@x.com", 8, invite_id="a"), invite("ann@x.com", expired=True, invite_id="old"),
           invite("bob@x.com", invite_id="b")]


@pytest.mark.parametrize("filters, ids", [
    (dict(), ["a", "old", "b"]),
    (dict(email=" ANN@X.com "), ["a", "old"]),
    (dict(email="ann@x.com", include_expired=False), ["a"]),
])
def test_filters_apply_to_one_listing(server, run_module, filters, ids):
    server.script((200, page(*INVITES)))
    result = run_module(invite_info, filters)
    assert result["changed"] is False and [i["id"] for i in result["invites"]] == ids
    assert result["invites"][0]["level_name"] == "admin"
    assert run_module.calls == ["GET %sinvites/?limit=500" % ORG]


def test_a_bad_address_fails_before_any_request(run_module):
    assert "'ann' is not an email address" in run_module.refuses(invite_info, dict(email="ann"))
