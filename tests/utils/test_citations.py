# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make utils-test`: every fact the code cites is in the repository. The code cites
docs/posthog_facts.md by section ("docs/posthog_facts.md §10.5"); each cited section must be a
heading there, and nothing may cite a file outside the repository (the facts used to live in
a directory beside the repository, which a maintainer with a clone cannot follow)."""
import os
import re
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FACTS = os.path.join(ROOT, "docs", "posthog_facts.md")
SECTION = re.compile(r"§(\d+(?:\.\d+)?)")
CITATION = re.compile(r"posthog_facts\.md\s+((?:§\d+(?:\.\d+)?(?:, | and |-|\s)*)+)")
OUTSIDE = re.compile(r"\.\./shared|posthog-api-facts|\bfacts \d")


def tracked_files():
    """The repository's text files (git's list: what a clone has)."""
    try:
        names = subprocess.check_output(["git", "ls-files"], cwd=ROOT, universal_newlines=True).split("\n")
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    for name in names:
        path = os.path.join(ROOT, name)
        if not name or not os.path.isfile(path) or name.endswith((".png", ".svg", ".ico", ".gz", ".zip")):
            continue
        try:
            with open(path, encoding="utf-8") as handle:
                yield name, handle.read()
        except UnicodeDecodeError:
            continue


def headings():
    with open(FACTS, encoding="utf-8") as handle:
        return set(re.findall(r"^## (\d+(?:\.\d+)?) ", handle.read(), re.M))


def test_every_cited_section_is_a_heading_of_the_facts_document():
    known = headings()
    assert {"0.2", "3", "4", "10.5"} <= known
    missing = []
    for name, text in tracked_files():
        for match in CITATION.finditer(text):
            for section in SECTION.findall(match.group(1)):
                if section not in known:
                    missing.append("%s: §%s" % (name, section))
    assert missing == []


def test_nothing_cites_a_file_outside_the_repository():
    outside = []
    for name, text in tracked_files():
        if name == "tests/utils/test_citations.py":
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                outside.append("%s:%d: %s" % (name, number, line.strip()[:120]))
    assert outside == []
