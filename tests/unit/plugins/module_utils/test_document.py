# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""definition_file is read as data, with libyaml's loader where PyYAML has it (as Ansible's own)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._document import read_definition, to_yaml
from ansible_collections.posthog.admin.plugins.module_utils._resource import Failure


def test_an_exported_document_reads_back_as_the_same_data(tmp_path):
    document = {"name": "Acme {{ not_a_template }}", "settings": {"enforce_2fa": True},
                "roles": [{"name": "Ops", "members": ["a@acme.example"]}], "roster": {"people": []}}
    path = tmp_path / "acme.yml"
    path.write_text(to_yaml(document, [("roles", "Roles."), ("roster", "People.")], [], {}, {"name": "Acme"},
                            "https://eu.posthog.com"))
    assert "!unsafe" in path.read_text()
    assert read_definition(str(path)) == document


def test_bad_yaml_and_a_missing_file_fail_with_the_path(tmp_path):
    path = tmp_path / "bad.yml"
    path.write_text("name: [unclosed\n")
    with pytest.raises(Failure, match="bad.yml is not valid YAML"):
        read_definition(str(path))
    with pytest.raises(Failure, match="cannot be read"):
        read_definition(str(tmp_path / "absent.yml"))
