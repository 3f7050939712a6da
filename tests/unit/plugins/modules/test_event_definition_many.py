# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""event_definition's list option: the item checks, labels and identities (pure, no requests)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules.event_definition import (
    ITEM_OPTIONS,
    check_params,
    identities,
    item_builder,
    label,
)

UUID = "0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f"


class PhStub:
    def __init__(self, **params):
        self.params = dict((name, None) for name in ITEM_OPTIONS)
        self.params.update(state="present", project_id="1")
        self.params.update(params)
        self.client = None
        self.project_id = "1"


def test_item_options_exclude_the_task_level_project():
    assert "project_id" not in ITEM_OPTIONS
    assert set(ITEM_OPTIONS) == {"state", "name", "id", "description", "tags", "owner", "verified", "hidden"}


def test_check_params_needs_a_name_or_an_id_first():
    assert check_params(PhStub(description="x")) == ["one of name or id is required"]
    assert check_params(PhStub(name="signed_up")) == []
    assert check_params(PhStub(id=UUID)) == []


def test_check_params_reports_every_problem_of_an_item():
    problems = check_params(PhStub(name=" ", hidden=True, verified=True, owner="ada", tags=["ok", " "]))
    assert len(problems) == 4
    assert problems[0].startswith("hidden and verified cannot both be true")
    assert any("name must not be blank" in p for p in problems)
    assert any("email address" in p for p in problems)
    assert any("blank entries" in p for p in problems)


def test_label_prefers_the_name():
    assert label({"name": "signed_up", "id": UUID}) == "event definition 'signed_up'"
    assert label({"name": None, "id": UUID}) == "event definition with id %s" % UUID
    assert label({"name": None, "id": None}) == "no name or id given"


def test_identities_compare_ids_without_case_or_spaces():
    assert identities({"name": None, "id": " %s " % UUID.upper()}) == [("id", UUID)]
    assert identities({"name": "signed_up", "id": UUID}) == [("name", "signed_up"), ("id", UUID)]
    assert identities({"name": None, "id": None}) == []


def test_items_share_the_owners_they_resolved():
    build = item_builder()
    first = build(PhStub(name="a"))
    second = build(PhStub(name="b"))
    first._members["ada@example.com"] = {"id": 2, "email": "ada@example.com"}
    assert second._members["ada@example.com"]["id"] == 2
    assert item_builder()(PhStub(name="c"))._members == {}
