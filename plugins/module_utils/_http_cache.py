# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""The HTTP client's read cache: while it is on, a GET already made is answered from memory until a write
touches it (organization_state plans from its reads, then applies the plan on the same reads: each is made
once). A write drops what it may have changed: the object, the collections and objects above it, and with a
DELETE everything below it.

It is scoped: ``with client.reads_remembered():`` turns it on and, on the way out, off (the answers
forgotten), whatever happens inside.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

try:
    from urllib.parse import urlsplit
except ImportError:  # pragma: no cover - Python 2 is not supported, this keeps the import sanity test calm
    from urlparse import urlsplit  # type: ignore


class ReadCache:
    """``{url: answer as JSON text}`` while on (``answers`` is None while off); a context manager."""

    def __init__(self):
        self.answers = None

    @property
    def on(self):
        return self.answers is not None

    def start(self):
        self.answers = {}

    def stop(self):
        self.answers = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc_info):
        self.stop()
        return False

    def recall(self, url):
        """``(True, a fresh copy of the answer)`` when ``url`` was read, else ``(False, None)``."""
        if self.answers is not None and url in self.answers:
            return True, json.loads(self.answers[url])
        return False, None

    def keep(self, url, answer):
        if self.answers is not None:
            self.answers[url] = json.dumps(answer)  # a copy no caller can change (and cheaper to make)

    def forget(self, method, url):
        """Drop what a ``method`` to ``url`` may have changed (nothing while off)."""
        if self.answers is None:
            return
        path = urlsplit(url).path
        for key in list(self.answers):
            known = urlsplit(key).path
            if known == path or path.startswith(known) or (method == "DELETE" and known.startswith(path)):
                del self.answers[key]
