# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The user guides in docs/docsite/ keep up with the collection's plugins."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast
import os
import re

import pytest
import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCSITE = os.path.join(ROOT, "docs", "docsite")
GETTING_STARTED = os.path.join(DOCSITE, "rst", "guide_getting_started.rst")
SCOPE = re.compile(r"\b([a-z_]+:(?:read|write))\b")


def plugins(kind):
    folder = os.path.join(ROOT, "plugins", kind)
    return sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".py") and not f.startswith("_"))


def documentation(kind, name):
    with open(os.path.join(ROOT, "plugins", kind, name + ".py")) as handle:
        tree = ast.parse(handle.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "DOCUMENTATION":
            return yaml.safe_load(node.value.value)
    raise AssertionError("%s %s has no DOCUMENTATION" % (kind, name))


def scope_rows():
    """{(name, type): 'scopes cell'} from the list-table of the getting started guide."""
    with open(GETTING_STARTED) as handle:
        text = handle.read()
    rows = re.findall(r"\* - :ansplugin:`posthog\.admin\.(\w+)#(\w+)`\n\s+- ([^\n]+)", text)
    return dict(((name, kind), cell) for name, kind, cell in rows)


PLUGINS = [(name, "module") for name in plugins("modules")] + [(name, "inventory") for name in plugins("inventory")]


@pytest.mark.parametrize("name,kind", PLUGINS)
def test_scope_table_has_a_row_matching_the_notes(name, kind):
    rows = scope_rows()
    assert (name, kind) in rows, "add posthog.admin.%s (%s) to the scope table in %s" % (name, kind, GETTING_STARTED)
    scopes = SCOPE.findall(rows[(name, kind)])
    assert scopes, "the scope table row of %s names no scope" % name
    doc = documentation("modules" if kind == "module" else kind, name)
    notes = " ".join(doc.get("notes") or [])
    for scope in scopes:
        assert scope in notes, "%s: the guide says it needs %s, its notes do not" % (name, scope)
    for scope in set(SCOPE.findall(notes)):
        assert scope in scopes, "%s: its notes name %s, the scope table in the guide does not" % (name, scope)


def test_scope_table_lists_only_existing_plugins():
    assert sorted(scope_rows()) == sorted(PLUGINS)


def test_every_guide_is_in_the_table_of_contents():
    with open(os.path.join(DOCSITE, "extra-docs.yml")) as handle:
        extra = yaml.safe_load(handle)
    listed = [entry for section in extra["sections"] for entry in section["toctree"]]
    guides = sorted(f[:-4] for f in os.listdir(os.path.join(DOCSITE, "rst")) if f.endswith(".rst"))
    assert sorted(listed) == guides
    for guide in guides:
        with open(os.path.join(DOCSITE, "rst", guide + ".rst")) as handle:
            assert ".. _ansible_collections.posthog.admin.docsite.%s:" % guide in handle.read()


def test_plugins_to_hog_functions_guide_shows_the_tested_example():
    """The guide's worked example is the integration target's file, task for task (the target runs it
    against the emulator, twice), so the guide cannot drift from what was tested."""
    example = os.path.join(ROOT, "tests", "integration", "targets", "hog_function", "tasks", "from_plugin.yml")
    with open(example) as handle:
        tasks = [line for line in handle.read().splitlines() if not line.startswith("#") and line != "---"]
    with open(os.path.join(DOCSITE, "rst", "guide_plugins_to_hog_functions.rst")) as handle:
        guide = handle.read()
    shown = "\n".join(("    " + line) if line else "" for line in tasks)
    assert shown in guide, "copy tests/integration/targets/hog_function/tasks/from_plugin.yml into the guide's step 2"
