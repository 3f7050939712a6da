# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""The HTTP client's errors: :class:`PostHogError` (any failure talking to PostHog), :class:`AmbiguousWrite`
(a write that may or may not have happened: the caller decides what to look for), the advice a person
gets with them, and the words for what an answer was.

A leaf of the client (``_client.py``): it imports nothing of the collection.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

SCOPE = re.compile(r"missing required scope '([^']+)'")


class PostHogError(Exception):
    """Any failure talking to PostHog.

    Carries the request (method and path, never the host's key or any header), the HTTP status and
    PostHog's error fields ``type``, ``code``, ``detail`` and ``attr``.
    """

    def __init__(self, message, method=None, path=None, status=None, type=None, code=None,
                 detail=None, attr=None, body=None):
        super(PostHogError, self).__init__(message)
        self.message = message
        self.method = method
        self.path = path
        self.status = status
        self.type = type
        self.code = code
        self.detail = detail
        self.attr = attr
        self.body = body
        self.hint = ""
        # a write whose failure leaves it unknown whether PostHog did it (its answer lost, a 5xx or a timeout
        # after it was sent): a plan lists its action as uncertain, neither done nor not attempted
        self.uncertain = False

    def to_dict(self):
        """The fields a module returns as ``error``."""
        return dict(method=self.method, path=self.path, status=self.status, type=self.type,
                    code=self.code, detail=self.detail, attr=self.attr)

    @property
    def missing_scope(self):
        match = SCOPE.search(self.detail or "")
        return match.group(1) if match else None

    @property
    def refuses_api_keys(self):
        """Whether PostHog refused the call because personal API keys may not make it (an action
        without a scope mapping: "This action does not support Personal API Key access")."""
        return self.status == 403 and "personal api key access" in (self.detail or "").lower()

    def reword(self, message):
        """Replace the message (keeping the request and PostHog's fields); returns self."""
        self.message = message
        self.args = (message,)
        return self

    def prefix(self, context):
        """Put ``context`` ("inviting a@b.c") before the message, once; returns self."""
        if context and not self.message.startswith(context):
            self.reword("%s: %s" % (context, self.message))
        return self

    def replace_hint(self, advice):
        """Swap the client's generic advice for ``advice`` that knows better (a rule PostHog named)."""
        hint = getattr(self, "hint", "")
        if advice and hint and self.message.endswith(hint):
            self.reword(self.message[:-len(hint)].rstrip())
        return self.append(advice)

    def append(self, sentence):
        """Add a sentence after the message; returns self."""
        if sentence and sentence not in self.message:
            message = self.message.rstrip()
            self.reword("%s%s%s" % (message, "" if message.endswith(".") else ".", " " + sentence))
        return self

    def add_sentence(self, sentence):
        """Add ``sentence`` after the message as the client words its last sentence ("." or " "); returns self."""
        if sentence:
            self.reword(self.message + (" " if self.message.endswith(".") else ". ") + sentence)
        return self

    def __str__(self):
        return self.message


class AmbiguousWrite(PostHogError):
    """A write that may or may not have happened: its answer was lost, a 5xx came after it was sent, or it
    timed out. The client never repeats it by itself: the caller looks on the server for what it would have
    made and, finding nothing, may send it again with ``resume=`` this error (the same retry budget).

    ``cause`` is the failure as the client first saw it, ``failure`` a few words on it ("HTTP 502");
    ``resume_wait`` the seconds to wait before sending it again within ``retries`` and ``retry_max_delay``
    (None when they are spent: :meth:`spent` is the error then), ``attempt`` and ``waited`` what the
    request has spent of them.
    """

    def __init__(self, cause, failure="", attempt=0, waited=0.0, resume_wait=None, spent_note=""):
        super(AmbiguousWrite, self).__init__(
            cause.message, method=cause.method, path=cause.path, status=cause.status, type=cause.type,
            code=cause.code, detail=cause.detail, attr=cause.attr, body=cause.body)
        self.hint = cause.hint
        self.cause = cause
        self.failure = failure
        self.attempt = attempt
        self.waited = waited
        self.resume_wait = resume_wait
        self.spent_note = spent_note
        self.uncertain = True
        self.add_sentence("The %s was not retried because it may have been applied; re-run the task to converge."
                          % (cause.method or "request"))

    def spent(self):
        """The error to raise when the write was not found and cannot be repeated: the cause, saying why."""
        return self.cause.add_sentence(self.spent_note)


def hint(status, detail, code):
    """A sentence telling a person what to do about an error, or ''."""
    detail = detail or ""
    if status == 401:
        return ("Check api_key (or POSTHOG_API_KEY): it must be a personal API key (phx_...) that "
                "exists and is not revoked, for the host you are calling.")
    if status == 403:
        return _forbidden_hint(detail, code)
    if status == 429:
        return "PostHog rate-limited the key; raise retry_max_delay, or run fewer tasks at once."
    return ""


def _forbidden_hint(detail, code):
    scope = SCOPE.search(detail)
    if scope:
        needed = scope.group(1)
        wider = needed.split(":")[0] + ":write"
        also = "" if needed == wider else " (or '%s', which includes it)" % wider
        return ("Give the personal API key the scope '%s'%s in PostHog under Settings > Personal "
                "API keys." % (needed, also))
    if "personal api key access" in detail.lower():
        return ("PostHog does not let personal API keys call this action; it can only be done "
                "in the PostHog web app by a logged-in user.")
    if "plugin access level" in detail:
        return ("The organization's plugins access level is too low (3 reads plugins, 6 installs and changes "
                "them, 9 makes them global); the API cannot raise it: PostHog Cloud sets it, and on "
                "self-hosted PostHog an instance admin can.")
    if "access level is insufficient" in detail or "admin" in detail:
        return "Ask an owner of the organization to raise your membership level."
    if "does not have access to the requested" in detail:
        return "The key is scoped to other organizations or projects; widen its scope or use another key."
    if code == "permission_denied":
        return ("The organization may not exist, or the key's user is not a member of it; "
                "check the organization option.")
    return ""


def describe(value):
    """A few words on what an answer was, for messages; never its content."""
    if isinstance(value, str):
        return "HTML" if value.lstrip()[:1] == "<" else "text, not a JSON object"
    if isinstance(value, list):
        return "a list of %d" % len(value) if value else "an empty list"
    if isinstance(value, dict):
        if not value:
            return "an empty object"
        return "an object without an id" if value.get("id") in (None, "") else "an object"
    if value is None:
        return "no body"
    return "a JSON %s" % kind_of(value)[2:] if isinstance(value, (bool, int, float)) else kind_of(value)


def kind_of(value):
    """The JSON type of a value, in words."""
    if value is None:
        return "null"
    for types, words in ((bool, "a boolean"), ((int, float), "a number"), (str, "a string"), (list, "a list"),
                         (dict, "an object")):
        if isinstance(value, types):
            return words
    return "a %s" % type(value).__name__


_WRITE_ADVICE = dict(POST="the object may have been created", PATCH="the change may have been applied",
                     PUT="the change may have been applied", DELETE="the object may have been deleted")


def require_object(answer, method, path, status=None):
    """``answer`` when it is a JSON object with an ``id``; otherwise fail, saying what it was and
    that the write may have happened (a 201 with HTML, ``{}``, a list or a 204 proves nothing)."""
    if isinstance(answer, dict) and answer.get("id") not in (None, ""):
        return answer
    method = (method or "").upper()
    what = describe(answer)
    if status is not None:
        what = "HTTP %s, %s" % (status, what)
    if method in _WRITE_ADVICE:
        advice = "%s: check %s before running again" % (_WRITE_ADVICE[method], path)
    else:
        advice = "check that host points at PostHog's API"
    raise PostHogError("unexpected answer to %s %s (%s); %s" % (method, path, what, advice),
                       method=method, path=path, status=status)


#: How deep a JSON value read from a server or a file may nest: far more than any PostHog answer, saved plan
#: or document does, far less than what Python's recursion (copying, comparing, masking) copes with.
MAX_DEPTH = 100


def deeper_than(value, limit=MAX_DEPTH):
    """Whether ``value`` nests dicts and lists more than ``limit`` levels deep (looked at without recursion,
    so that any depth is answered)."""
    if not isinstance(value, (dict, list)):
        return False
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        children = node.values() if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False
