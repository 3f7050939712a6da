# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""organization_state imports a kind's code only when a run needs its section (issue 25): its module
process compiles every module_utils it imports from the AnsiballZ payload's sources, once per
organization, so a fleet's documents, which leave most sections out, must not pay for them. The
lazily imported kinds must still reach the payload: ansible-core's module_utils finder sees imports
inside functions too."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import subprocess
import sys

PACKAGE = "ansible_collections.posthog.admin.plugins.module_utils."
LAZY = ("_access_control", "_batch_export", "_domain", "_event_definition", "_hog_function", "_identity_provider",
        "_plugins", "_proxy_record")


def imported_after(code):
    """The collection's module_utils a fresh interpreter has imported after ``code``."""
    script = "import sys\n%s\nimport json\nprint(json.dumps(sorted(m for m in sys.modules if m.startswith(%r))))" % (
        code, PACKAGE)
    out = subprocess.check_output([sys.executable, "-c", script], env=dict(os.environ, PYTHONPATH=os.pathsep.join(
        sys.path)), universal_newlines=True)
    return [m[len(PACKAGE):] for m in json.loads(out.splitlines()[-1])]


def test_the_engine_alone_imports_no_kind_a_document_may_leave_out():
    loaded = imported_after("from ansible_collections.posthog.admin.plugins.module_utils import _state")
    assert not set(LAZY) & set(loaded), loaded


def test_a_section_imports_its_kind_when_a_document_uses_it():
    loaded = imported_after(
        "from ansible_collections.posthog.admin.plugins.module_utils import _catalog\n"
        "section = _catalog.section('batch_exports')\n"
        "assert section.resource.__name__ == 'BatchExport' and 'destination' in section.options\n"
        "assert section.validator is section.validator and section.prune_guard is None")
    assert "_batch_export" in loaded
    assert not (set(LAZY) - {"_batch_export"}) & set(loaded), loaded


def test_ansible_ships_every_lazily_imported_kind_in_the_payload():
    from ansible.executor.module_common import ModuleDepFinder
    import ast

    from ansible_collections.posthog.admin.plugins.module_utils import _catalog, _state

    with open(_state.__file__) as handle:
        finder = ModuleDepFinder(PACKAGE + "_state", ast.parse(handle.read()))
    assert PACKAGE + "_catalog" in set(".".join(m) for m in finder.submodules)
    with open(_catalog.__file__) as handle:  # the finder follows _state's imports into the catalog
        finder = ModuleDepFinder(PACKAGE + "_catalog", ast.parse(handle.read()))
    found = set(".".join(m) for m in finder.submodules)
    assert set(PACKAGE + name for name in LAZY) <= found, sorted(found)


def test_every_catalog_entry_is_a_section_of_its_key():
    from ansible_collections.posthog.admin.plugins.module_utils import _catalog

    for key, load, many, outputs in _catalog.CATALOG:
        section = _catalog.section(key)
        assert section.key == key and section.many is many
        assert set(outputs) <= set(section.outputs)
