# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""pipeline_plugin's list option: the item checks, labels and identities (pure, no requests)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules.pipeline_plugin import (
    ITEM_OPTIONS,
    PipelinePlugin,
    check_params,
    identities,
    label,
)

URL = "https://github.com/acme/posthog-hello"


class Failed(Exception):
    pass


class PhStub:
    def __init__(self, **params):
        self.params = dict((name, None) for name in ITEM_OPTIONS)
        self.params.update(family="destination", state="present", purge_source_files=False)
        self.params.update(params)
        self.client = None
        self.check_mode = False
        self.diff_mode = False

    def fail(self, msg, **extra):
        raise Failed(msg)


def test_item_options_exclude_the_task_level_family():
    assert "family" not in ITEM_OPTIONS
    assert "purge_source_files" in ITEM_OPTIONS


def test_check_params_needs_an_id_url_or_name_first():
    assert check_params(PhStub(description="x")) == ["one of id, url or name is required"]
    assert check_params(PhStub(url=URL)) == []
    assert check_params(PhStub(id=3)) == []


def test_check_params_reports_every_problem_of_an_item():
    problems = check_params(PhStub(url=URL, tag="v9", source_files={"index.ts": "x"}, capabilities={}))
    assert len(problems) == 3
    assert "not in family=destination" in problems[0]
    assert problems[1].startswith("tag cannot be set for a custom plugin")
    assert problems[2].startswith("source_files can only be managed for source plugins")


def test_check_params_knows_the_family_of_the_task():
    problems = check_params(PhStub(family="import_app", name="Nightly", state="latest", source_files={}))
    assert [p.split(" ", 1)[0] for p in problems] == ["source_files", "state=latest"]


def test_validate_of_one_plugin_fails_with_all_problems():
    with pytest.raises(Failed) as info:
        PipelinePlugin(PhStub(name="Broken", purge_source_files=True, capabilities={})).validate()
    assert "purge_source_files needs source_files" in str(info.value)
    assert "not in family=destination" in str(info.value)


def test_a_bad_plugin_json_is_one_problem():
    problems = check_params(PhStub(name="Broken", source_files={"plugin.json": "{"}))
    assert len(problems) == 1 and "not valid JSON" in problems[0]


def test_identities_follow_the_look_up():
    assert identities({"id": 4, "url": URL, "name": "Hello"}) == [("id", 4)]
    assert identities({"id": None, "url": URL + "/?private_token=x", "name": "Hello"}) == [("url", URL)]
    assert identities({"id": None, "url": None, "name": "Hello"}) == [("name", "Hello")]
    assert identities({"id": None, "url": None, "name": None}) == []


def test_label_names_the_look_up():
    assert label({"id": 4, "url": URL, "name": None}) == "plugin with id 4"
    assert label({"id": None, "url": URL + "/", "name": None}) == "plugin from %s" % URL
    assert label({"id": None, "url": None, "name": "Hello"}) == "plugin 'Hello'"
