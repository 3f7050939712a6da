# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Event definition rules as pure functions; the resource runs through the module in
tests/unit/plugins/modules/test_event_definition.py."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.module_utils._event_definition import (
    current_value,
    normalise_tags,
    predict,
    validate_params,
)
from ansible_collections.posthog.admin.tests.unit.objects import definition


def params(**values):
    base = dict(state="present", id=None, name=None, description=None, tags=None, owner=None, verified=None,
                hidden=None, project_id="7")
    base.update(values)
    return base


# ------------------------------------------------------------------------------ pure rules


def test_normalise_tags_trims_lowercases_dedupes_and_drops_blanks():
    assert normalise_tags([" Revenue ", "revenue", "Checkout", "", "  "]) == ["revenue", "checkout"]
    assert normalise_tags(None) == []


def test_current_value_reads_the_compared_form():
    obj = definition(description=None, tags=["b", "A"], owner={"id": 3, "email": "Ada@Example.com"}, hidden=None)
    assert current_value(obj, "description") == ""
    assert current_value(obj, "tags") == ["a", "b"]
    assert current_value(obj, "owner") == "ada@example.com"
    assert current_value(obj, "hidden") is False
    assert current_value(definition(), "owner") == ""


def test_validate_params():
    assert validate_params(params(name="x")) == []
    assert "both be true" in validate_params(params(name="x", hidden=True, verified=True))[0]
    assert validate_params(params(name="x", hidden=True, verified=False)) == []
    assert "UUID" in validate_params(params(id="42"))[0]
    assert "blank" in validate_params(params(name="  "))[0]
    assert "400" in validate_params(params(name="x" * 401))[0]
    assert "blank" in validate_params(params(name="x", tags=["ok", " "]))[0]
    assert "email" in validate_params(params(name="x", owner="ada"))[0]
    assert validate_params(params(name="x", owner="")) == []


def test_predict_follows_posthog_rules():
    verified = definition(verified=True, verified_by={"id": 1}, verified_at="t0")
    after = predict(verified, {"hidden": True})
    assert after["hidden"] is True and after["verified"] is False
    assert after["verified_by"] is None and after["verified_at"] is None
    after = predict(definition(hidden=True), {"verified": True}, requester={"id": 2}, now="t1")
    assert after["verified"] is True and after["hidden"] is False
    assert after["verified_by"] == {"id": 2} and after["verified_at"] == "t1"
    after = predict(verified, {"verified": True, "description": "d"})
    assert after["verified_by"] == {"id": 1} and after["verified_at"] == "t0"  # re-verify ignored
    after = predict(verified, {"verified": False})
    assert after["verified_by"] is None and after["verified_at"] is None
    assert predict(definition(), {"tags": ["B", "b"]})["tags"] == ["b"]
