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


def scopes_of(name):
    doc = documentation("modules", name)
    return set(SCOPE.findall(" ".join(doc.get("notes") or [])))


def section_modules():
    """The module behind each section of organization_state's document, as its comment names it."""
    from ansible_collections.posthog.admin.plugins.module_utils import _catalog
    text = " ".join(_catalog.section(key).comment for key, dummy, many, outputs in _catalog.CATALOG)
    return sorted(set(re.findall(r"\(posthog\.admin\.(\w+)\)", text)) | {"organization"})


def covered(scope, scopes):
    obj, access = scope.split(":")
    return scope in scopes or (access == "read" and obj + ":write" in scopes)


@pytest.mark.parametrize("name", section_modules())
def test_organization_state_names_the_scopes_of_every_part(name):
    """organization_state (and the role, which is that task) needs what each part's module needs to
    change it; organization_state_info what it needs to read it."""
    assert len(section_modules()) > 10
    needed = scopes_of(name)
    state = scopes_of("organization_state")
    missing = sorted(s for s in needed if s != "user:read" and not covered(s, state))
    assert missing == [], "organization_state's notes (and the scope tables) lack %s, which %s needs" % (missing, name)
    info = scopes_of("organization_state_info")
    reads = sorted(set(s.split(":")[0] + ":read" for s in needed) - {"user:read"})
    assert [s for s in reads if s not in info] == [], "organization_state_info's notes lack what reading %s needs" % name
    with open(os.path.join(ROOT, "roles", "organization_as_code", "meta", "argument_specs.yml")) as handle:
        role_spec = handle.read()
    with open(os.path.join(ROOT, "roles", "organization_as_code", "README.md")) as handle:
        role_readme = handle.read()
    for scope in state:
        assert "C(%s)" % scope in role_spec and "`%s`" % scope in role_readme, (
            "the role's documentation lacks %s, which organization_state needs" % scope)


def test_the_readme_scope_table_has_every_module():
    with open(os.path.join(ROOT, "README.md")) as handle:
        text = handle.read()
    table = text[text.index("\n## Scopes\n"):text.index("\n### ", text.index("\n## Scopes\n"))]
    first_cells = [line.split("|")[1] for line in table.splitlines() if line.startswith("| `")]
    named = set(re.findall(r"`(\w+)`", "\n".join(first_cells)))
    assert [name for name in plugins("modules") if name not in named] == []
    rows = dict((re.findall(r"`(\w+)`", line.split("|")[1])[0], line.split("|")[2]) for line in table.splitlines()
                if line.startswith("| `"))
    for name in ("organization_state", "organization_state_info"):
        cell = rows.get(name, "")
        assert [s for s in scopes_of(name) if s not in cell] == [], "README's scope row of %s: %s" % (name, cell)
