# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""definition_file is read as data, with libyaml's loader where PyYAML has it (as Ansible's own); the
export's comments keep a DNS record whole (test_document_property.py: every word, for any text)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import re

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._document import read_definition, to_yaml
from ansible_collections.posthog.admin.plugins.module_utils._resource import Failure
from ansible_collections.posthog.admin.plugins.modules import organization_state, organization_state_info


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


# ------------------------------------------------------------------ comments a person copies from
def test_the_export_gives_the_txt_record_of_an_unverified_domain_whole(run_live, live, tmp_path):
    """organization_state_info's comment above a domain still to verify names the record and its value,
    each whole on a line: a value was once split at a hyphen, and a person copied its first line.
    PostHog's challenge is secrets.token_urlsafe(32); Python's textwrap breaks a word after a hyphen
    between letters, so the domains here are short enough that the comment's line ends inside the value,
    and made until one value has such a hyphen where the line would end."""
    org = "/api/organizations/%s/" % live.info["organization"]["id"]
    made = []
    for index in range(40):
        domain = "d%d.io" % index
        challenge = live.api("POST", org + "domains/", {"domain": domain})["verification_challenge"]
        made.append((domain, challenge))
        if re.search(r"[A-Za-z]{2}-[A-Za-z]", challenge[:30]):
            break
    assert re.search(r"[A-Za-z]{2}-[A-Za-z]", made[-1][1][:30]), made
    dest = tmp_path / "acme.yml"
    result = run_live(organization_state_info, dict(organization=live.info["organization"]["id"], dest=str(dest)))
    assert not result["failed"], result["msg"]
    comments = [line for line in dest.read_text().splitlines() if line.lstrip().startswith("#")]
    for domain, challenge in made:
        name = "_posthog-challenge.%s" % domain
        assert [line for line in comments if name in line] and [line for line in comments if challenge in line], (
            name, challenge, comments)


@pytest.mark.parametrize("option", ["plan_file", "dest"])
def test_a_file_in_a_missing_directory_fails_naming_the_path_not_another_option(run_live, live, tmp_path, option):
    """organization_state's plan_file and organization_state_info's dest are written the same way; a
    missing directory fails naming the path given, never the other module's option (plan_file's
    failure once said 'dest')."""
    path = str(tmp_path / "plans" / "acme.json")
    if option == "plan_file":
        result = run_live(organization_state, dict(definition=dict(name="Emulator Org"), plan_file=path), check=True)
    else:
        result = run_live(organization_state_info, dict(organization="Emulator Org", dest=path))
    assert result["failed"] and path in result["msg"] and "does not exist" in result["msg"], result
    other = "dest" if option == "plan_file" else "plan_file"
    assert other not in result["msg"], result["msg"]
    assert not os.path.exists(os.path.dirname(path))
