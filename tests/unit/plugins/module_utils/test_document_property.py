# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The export's comments are wrapped at spaces only, for any text (Hypothesis)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import string

import pytest

hypothesis = pytest.importorskip("hypothesis")  # in requirements-dev.txt (the main test run), not the compat runs
from hypothesis import given, strategies as st  # noqa: E402

from ansible_collections.posthog.admin.plugins.module_utils._document import _comment  # noqa: E402

WORDS = st.lists(st.text(alphabet=string.ascii_letters + "_.=:'", min_size=2, max_size=12), min_size=1,
                 max_size=4).map("-".join)


@given(st.lists(WORDS, min_size=8, max_size=24), st.sampled_from(["", "  "]))
def test_a_comment_never_splits_a_word(words, indent):
    """A comment is wrapped at spaces only: a DNS record's name or value (PostHog's challenge is
    secrets.token_urlsafe, with '-' and '_') stays on one line, whole, to be copied from there."""
    lines = _comment(" ".join(words), indent)
    assert all(line.startswith(indent + "# ") for line in lines)
    kept = [word for line in lines for word in line[len(indent) + 2:].split(" ")]
    assert kept == words
