# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.batch_export_info through main(): the list, its name and paused filters, the GET by id."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import batch_export_info
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import EXPORT_ID, NOT_FOUND, ORG, batch_export

EXPORTS = ORG + "batch_exports/"
ALL = [batch_export(), batch_export(id="e2", name="Hourly", paused=True), batch_export(id="e3", name="Weekly")]


@pytest.mark.parametrize("filters, ids", [
    (dict(), [EXPORT_ID, "e2", "e3"]),
    (dict(name="Hourly"), ["e2"]),
    (dict(paused=False), [EXPORT_ID, "e3"]),
    (dict(paused=True, name="Weekly"), []),
])
def test_filters_apply_to_one_listing(server, run_module, filters, ids):
    server.script((200, page(*ALL)))
    result = run_module(batch_export_info, filters)
    assert result["changed"] is False and [e["id"] for e in result["batch_exports"]] == ids
    assert run_module.calls == ["GET %s?limit=500" % EXPORTS]


def test_an_id_is_one_get_and_a_missing_one_is_an_empty_list(server, run_module):
    server.script((200, batch_export()), (404, NOT_FOUND))
    assert run_module(batch_export_info, dict(id=EXPORT_ID))["batch_exports"] == [batch_export()]
    assert run_module(batch_export_info, dict(id=EXPORT_ID, organization="@current"))["batch_exports"] == []
    assert run_module.calls == ["GET %s%s/" % (EXPORTS, EXPORT_ID)] * 2
