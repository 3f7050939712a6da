# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.organization_info through main(): the organizations the key sees, filtered, or one by id."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import organization_info
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import NOT_FOUND

ACME = {"id": "0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f", "name": "Acme", "slug": "acme"}
OTHERS = [dict(ACME, id="o2", slug="acme-eu"), dict(ACME, id="o3", name="Beta", slug="beta")]


@pytest.mark.parametrize("filters, ids", [
    (dict(), [ACME["id"], "o2", "o3"]),
    (dict(slug="acme"), [ACME["id"]]),
    (dict(name="Acme"), [ACME["id"], "o2"]),
    (dict(name="Acme", slug="beta"), []),
])
def test_filters_apply_to_one_listing(server, run_module, filters, ids):
    server.script((200, page(ACME, *OTHERS)))
    result = run_module(organization_info, filters)
    assert result["changed"] is False and [o["id"] for o in result["organizations"]] == ids
    assert run_module.calls == ["GET /api/organizations/?limit=500"]


def test_an_id_is_one_get_and_a_missing_one_is_an_empty_list(server, run_module):
    server.script((200, ACME), (404, NOT_FOUND))
    assert run_module(organization_info, dict(id=ACME["id"]))["organizations"] == [ACME]
    assert run_module(organization_info, dict(id="o9"))["organizations"] == []
    assert run_module.calls == ["GET /api/organizations/%s/" % ACME["id"], "GET /api/organizations/o9/"]
