# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Which file may import what (issue 37): kinds take what they need of a task from _common.py, never the
AnsibleModule glue; what stands in for ansible-core is in _standin.py alone; the HTTP client's parts import
only the parts before them, and nothing of the engine or the kinds."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast
import os

import pytest

MODULE_UTILS = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "plugins", "module_utils")
PREFIX = "ansible_collections.posthog.admin.plugins.module_utils."
# The client's parts, in the order they may import each other (each only those before it).
CLIENT = ["_http_errors", "_http_secrets", "_http_origin", "_http_transport", "_http_retry", "_http_pages",
          "_http_cache", "_client"]
ENGINE = ["_resource", "_state", "_plan", "_review", "_document", "_common"]


def _names():
    return sorted(name[:-3] for name in os.listdir(MODULE_UTILS) if name.endswith(".py"))


def _imports(name):
    with open(os.path.join(MODULE_UTILS, name + ".py")) as handle:
        tree = ast.parse(handle.read())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith(PREFIX):
                found.add(node.module[len(PREFIX):])
            elif node.module == PREFIX[:-1]:
                found.update(alias.name for alias in node.names)
            else:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_every_file_is_sorted_into_a_part():
    kinds = [n for n in _names() if n not in CLIENT + ENGINE + ["_module", "_standin"]]
    assert len(kinds) >= 12 and all(n.startswith("_") for n in kinds)


@pytest.mark.parametrize("name", [n for n in _names() if n not in ("_module",)])
def test_no_file_but_the_glue_imports_the_glue(name):
    assert "_module" not in _imports(name)


@pytest.mark.parametrize("name", CLIENT)
def test_the_clients_parts_import_only_the_parts_before_them(name):
    ours = set(n for n in _imports(name) if n.startswith("_") and n != "__future__")
    assert ours <= set(CLIENT[:CLIENT.index(name)]), ours


def test_only_the_stand_in_and_the_glue_build_an_ansible_module():
    for name in _names():
        if name not in ("_standin", "_module"):
            assert "ansible.module_utils.basic" not in _imports(name), name
    allowed = set(["contextlib", "copy", "json", "os", "re", "__future__", "ansible.module_utils.ansible_release",
                   "ansible.module_utils.basic", "ansible.module_utils.common.arg_spec",
                   "ansible.module_utils.common.parameters", "ansible.module_utils.errors",
                   "ansible.module_utils.common.json"])
    assert _imports("_standin") <= allowed


def test_plainly_valid_is_still_where_the_engine_finds_it():
    from ansible_collections.posthog.admin.plugins.module_utils import _standin, _state

    assert _state.plainly_valid is _standin.plainly_valid
