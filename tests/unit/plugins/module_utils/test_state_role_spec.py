# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The organization_as_code role is a thin wrapper around organization_state: its argument_specs
describe exactly the document the module takes, part by part and option by option."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os

import yaml

from ansible_collections.posthog.admin.plugins.module_utils import _catalog, _state

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))


def role_spec():
    with open(os.path.join(ROOT, "roles", "organization_as_code", "meta", "argument_specs.yml")) as handle:
        spec = yaml.safe_load(handle)["argument_specs"]["main"]["options"]
    return spec


def test_the_role_takes_every_part_and_only_those():
    document = role_spec()["organization_as_code_organization"]["options"]
    assert sorted(document) == sorted(_state.root_validator(_catalog.root()).argument_spec)


def test_each_item_takes_the_options_of_its_module_with_the_same_types_and_choices():
    document = role_spec()["organization_as_code_organization"]["options"]
    problems = []
    for key, dummy in _state.sections():
        section = _catalog.section(key)
        role = document[section.key].get("options") or {}
        if sorted(role) != sorted(section.options):
            problems.append("%s: role has %s, module %s" % (
                section.key, sorted(set(role) - set(section.options)), sorted(set(section.options) - set(role))))
            continue
        for name, option in section.options.items():
            theirs = role[name]
            for key in ("type", "elements"):
                if option.get(key, "str" if key == "type" else None) != theirs.get(key, "str" if key == "type" else None):
                    problems.append("%s.%s: %s %r in the role, %r in the module"
                                    % (section.key, name, key, theirs.get(key), option.get(key)))
            if sorted(option.get("choices") or []) != sorted(theirs.get("choices") or []):
                problems.append("%s.%s: choices differ" % (section.key, name))
            if theirs.get("default") is not None and theirs.get("default") != option.get("default"):
                problems.append("%s.%s: default %r in the role, %r in the module"
                                % (section.key, name, theirs.get("default"), option.get("default")))
            if option.get("no_log") and not theirs.get("no_log") and section.key != "batch_exports":
                problems.append("%s.%s: a secret, not no_log in the role" % (section.key, name))
    assert problems == []


def test_the_prune_switches_are_the_modules():
    spec = role_spec()
    for name in ("prune", "prune_owners", "prune_projects"):
        assert spec["organization_as_code_" + name]["type"] == "bool"
        assert spec["organization_as_code_" + name]["default"] is _state.STATE_ARGUMENT_SPEC[name]["default"]


def test_the_role_takes_every_setting_of_the_module():
    settings = role_spec()["organization_as_code_organization"]["options"]["settings"]["options"]
    assert sorted(settings) == sorted(_catalog.root().settings)
