# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The collection's metadata agrees with its code."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

import yaml

from ansible_collections.posthog.admin.plugins.module_utils._client import COLLECTION_VERSION

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load(path):
    with open(os.path.join(ROOT, path)) as handle:
        return yaml.safe_load(handle)


def test_action_group_lists_every_module():
    modules = sorted(f[:-3] for f in os.listdir(os.path.join(ROOT, "plugins", "modules"))
                     if f.endswith(".py") and not f.startswith("_"))
    assert sorted(load("meta/runtime.yml")["action_groups"]["posthog"]) == modules


def test_user_agent_version_matches_galaxy():
    assert load("galaxy.yml")["version"] == COLLECTION_VERSION


def test_galaxy_ignores_what_is_not_the_collection():
    ignored = load("galaxy.yml")["build_ignore"]
    for path in (".venv", "emulator", "bench", "tests/output", "demo"):
        assert path in ignored


def test_module_defaults_target_runs_every_module_of_the_group():
    tasks = load("tests/integration/targets/module_defaults/tasks/main.yml")
    block = [task for task in tasks if "block" in task][0]
    ran = set(key.split(".")[-1] for task in block["block"] for key in task if key.startswith("posthog.admin."))
    assert ran == set(load("meta/runtime.yml")["action_groups"]["posthog"])
    assert set(block["module_defaults"]["group/posthog.admin.posthog"]) >= set(
        ["host", "api_key", "validate_certs", "timeout", "retries", "retry_max_delay", "organization", "project_id"])
