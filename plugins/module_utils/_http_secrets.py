# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""The HTTP client's secrets: the API key checked before it goes into a header, and :class:`Masker`, which
removes the key and every secret a task sends from any text that may reach a person, in every form a
server or Python may print them in (raw, JSON-escaped, repr()-escaped, percent-encoded, HTML-escaped,
line by line).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import html
import json
import re

try:
    from urllib.parse import quote
except ImportError:  # pragma: no cover - Python 2 is not supported, this keeps the import sanity test calm
    from urllib import quote  # type: ignore

from ansible_collections.posthog.admin.plugins.module_utils._http_errors import PostHogError

# Secrets shorter than this are masked only where a whole text equals them, never as substrings:
# masking "no" or "1" inside every message would make all of them unreadable.
MIN_SECRET_LENGTH = 4
# Each line of a multi-line secret (a PEM key) at least this long is masked on its own too, so
# that no line survives when a server re-wraps or re-escapes the text.
MIN_SECRET_LINE_LENGTH = 8
MASK = "********"

# What an API key must not hold: a personal API key is one printable ASCII token (phx_...).
_KEY_SPACE = re.compile(r"[\s\x00-\x1f\x7f]")
_KEY_NON_ASCII = re.compile(r"[^\x21-\x7e]")
_LINE_BREAK = re.compile(r"\r\n|\r|\n|\\r\\n|\\n")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def printed_forms(value):
    """The ways ``value`` can appear in a text a server or Python prints: raw, JSON-escaped (also
    twice, and without ASCII escapes), repr()-escaped, percent-encoded and HTML-escaped."""
    json_form = json.dumps(value)[1:-1]
    return set([
        value,
        json_form,
        json.dumps(value, ensure_ascii=False)[1:-1],
        json.dumps(json_form)[1:-1],
        repr(value)[1:-1],
        quote(value, safe=""),
        html.escape(value),
    ])


def check_key(api_key):
    """The API key as text, or PostHogError saying what is wrong with it (never the key itself)."""
    if isinstance(api_key, bytes):
        api_key = api_key.decode("utf-8", "replace")
    elif not isinstance(api_key, str):
        api_key = str(api_key)
    if _KEY_SPACE.search(api_key):
        if api_key.endswith(("\n", "\r")):
            where = "it ends with a newline"
        elif api_key != api_key.strip():
            where = "it starts or ends with a space"
        else:
            where = "inside it"
        raise PostHogError(
            "api_key contains whitespace or control characters (%s); a personal API key is a single word "
            "(phx_ followed by letters and digits). Remove them where the key is set: a YAML block scalar "
            "('|' or '>') keeps its final newline unless written '|-' or '>-', and a vault value or a "
            "value read from a file may end with one; strip it, e.g. api_key: \"{{ vault_posthog_api_key "
            "| trim }}\"." % where)
    if _KEY_NON_ASCII.search(api_key):
        raise PostHogError(
            "api_key contains characters that are not printable ASCII; a personal API key is phx_ followed "
            "by letters and digits. Copy it again from PostHog (Settings > Personal API keys), without "
            "typographic quotes or invisible characters.")
    return api_key


def _as_text(value):
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value if isinstance(value, str) else str(value)


class Masker:
    """The secrets of one client (the API key always), and the scrubbing of texts and errors."""

    def __init__(self):
        self._secrets = set()
        self._masks = None

    def add(self, values):
        """Mask these values too (a string, bytes, or an iterable of them; None and '' are ignored)."""
        if values is None:
            return
        if isinstance(values, (str, bytes)):
            values = [values]
        for value in values:
            value = _as_text(value) if value is not None else ""
            if value:
                self._secrets.add(value)
        self._masks = None

    def _mask_forms(self):
        """(forms to replace, longest first; values masked only where a whole text equals them)."""
        if self._masks is None:
            forms = set()
            for secret in self._secrets:
                if len(secret) >= MIN_SECRET_LENGTH:  # shorter ones: see MIN_SECRET_LENGTH
                    forms.update(self._forms_of(secret))
            ordered = sorted((form for form in forms if len(form) >= MIN_SECRET_LENGTH),
                             key=lambda form: (-len(form), form))
            self._masks = (ordered, set(self._secrets))
        return self._masks

    @staticmethod
    def _forms_of(secret):
        pieces = [secret]
        lines = [line.strip() for line in _LINE_BREAK.split(secret)]
        if len(lines) > 1:
            pieces.extend(line for line in lines if len(line) >= MIN_SECRET_LINE_LENGTH)
        forms = set()
        for piece in pieces:
            forms.update(printed_forms(piece))
        return forms

    def scrub(self, text):
        """``text`` without the API key and every added secret, in any printed form."""
        if text is None:
            return text
        text = text if isinstance(text, str) else str(text)
        forms, whole = self._mask_forms()
        if text in whole or text.strip() in whole:
            return MASK
        for form in forms:
            if form in text:
                text = text.replace(form, MASK)
        return text

    def scrub_value(self, value):
        """A decoded JSON value with every string scrubbed (keys too)."""
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, dict):
            return dict((self.scrub_value(k), self.scrub_value(v)) for k, v in value.items())
        if isinstance(value, list):
            return [self.scrub_value(v) for v in value]
        return value

    def server_text(self, text, limit):
        """A server's text, fit for a message: secrets masked first, terminal control characters
        replaced, then cut to ``limit`` (so no part of a secret survives the cut)."""
        if text is None:
            return None
        text = _CONTROL.sub("?", self.scrub(text))
        if limit and len(text) > limit:
            text = text[:limit] + "... (%d characters cut)" % (len(text) - limit)
        return text

    def scrub_error(self, error):
        """``error`` with its message, request and PostHog's fields scrubbed; returns it."""
        error.reword(self.scrub(error.message))
        for name in ("path", "detail", "type", "code", "attr"):
            value = getattr(error, name, None)
            if isinstance(value, str):
                setattr(error, name, self.scrub(value))
        error.body = self.scrub_value(error.body)
        cause = getattr(error, "cause", None)
        if cause is not None and cause is not error:
            self.scrub_error(cause)
        return error

    def error(self, message, method=None, path=None, context=None, status=None):
        """A scrubbed PostHogError, ``context`` ("creating role 'x'") before the message."""
        if context:
            message = "%s: %s" % (context, message)
        return self.scrub_error(PostHogError(message, method=method, path=path, status=status))
