# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make utils-test`: commands the documentation gives run as written. The emulator is installed
from the repository (there is no posthog-emulator on PyPI: `pip install posthog-emulator` found
nothing), and every curl that sends a JSON body to the emulator says so (DRF answers 415 without
the content type: the DNS example did)."""
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = ["README.md", "emulator/README.md", "roles/organization_as_code/README.md",
        "extensions/molecule/default/create.yml"]


def read(name):
    with open(os.path.join(ROOT, name), encoding="utf-8") as handle:
        return handle.read()


def test_no_document_installs_the_emulator_from_pypi():
    assert [name for name in DOCS if re.search(r"pip install posthog-emulator", read(name))] == []


def test_every_curl_with_a_json_body_sends_the_content_type():
    text = read("emulator/README.md")
    commands = re.findall(r"^curl .*?(?:(?<!\\)\n)", text.replace("\\\n", " "), re.M)
    with_body = [c for c in commands if " -d " in c]
    assert with_body, "the emulator README's curl examples were not found"
    assert [c for c in with_body if "Content-Type: application/json" not in c] == []
