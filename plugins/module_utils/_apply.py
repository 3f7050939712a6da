# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Applying a plan: its actions, in order, and nothing else.

Each action's tokens are replaced by what earlier actions answered, its request is sent (or its step
performs it: a wait, a verify retried within its timeout), and its answer is handed to the resource
that planned it, which checks it (an answer of the wrong shape is a failure, never a success) and keeps
the object as it now is. The first failure stops the run: :class:`Stopped` says what was done, what
failed and what was not attempted.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.module_utils._base import Failure
from ansible_collections.posthog.admin.plugins.module_utils._client import AmbiguousWrite, PostHogError


class Stopped(Failure):
    """A plan stopped at ``action``: ``done`` were applied before it, ``rest`` were not attempted, and
    ``uncertain`` (the failed action, or nothing) may or may not have happened: its failure came after
    its request was sent (a lost answer, a 5xx, a timeout)."""

    def __init__(self, failure, action, done, rest, uncertain=()):
        super(Stopped, self).__init__(failure.msg, **failure.extra)
        self.missing = failure.missing
        self.action = action
        self.done = done
        self.rest = rest
        self.uncertain = list(uncertain)


def post_or_refind(client, path, body, refind, context=None, expect=None):
    """POST ``body`` to ``path``. When the client cannot tell whether the POST happened (AmbiguousWrite:
    its answer was lost, a 5xx came after it was sent, it timed out), what ``refind()`` finds on the server
    (the object the POST made); when that finds nothing (None), the POST again, within the client's retry
    budget; past it, the error. Without ``refind``, the AmbiguousWrite. The client never calls back into
    a resource: the engine decides what to re-find (the owner's :meth:`recovery`)."""
    resume = None
    while True:
        try:
            return client.post(path, body, context=context, expect=expect, resume=resume)
        except AmbiguousWrite as exc:
            if refind is None:
                raise
            found = refind()
            if found is not None:
                return found
            if exc.resume_wait is None:
                raise exc.spent()
            resume = exc


def send(client, plan, action):
    """Send ``action``'s request once (tokens resolved); the server's answer."""
    path = plan.resolve(action.path)
    body = plan.resolve(action.body)
    context = action.owner.context_of(action) if action.owner is not None else action.describe()
    if action.method == "DELETE":
        return client.delete(path, context=context)
    if action.method == "POST":
        refind = action.owner.recovery(action, path, body) if action.owner is not None else None
        return post_or_refind(client, path, body, refind, context=context, expect=action.answers)
    return client.request(action.method, path, json_body=body if action.method != "GET" else None,
                          context=context, expect=action.answers)


def execute(client, plan):
    """Apply every action of ``plan`` in order; raises :class:`Stopped` at the first failure."""
    actions = plan.actions
    for index, action in enumerate(actions):
        owner = action.owner
        try:
            if action.step is not None and hasattr(action.step, "perform"):
                answer = action.step.perform(owner, action, lambda: send(client, plan, action))
            else:
                answer = send(client, plan, action)
            action.done = action.write  # it was answered: whatever the answer says, the write happened
            action.answer = owner.absorb(action, answer) if owner is not None else answer
        except PostHogError as exc:
            uncertain = [action] if action.write and getattr(exc, "uncertain", False) else []
            if owner is not None:
                exc = owner.explain(exc)
            raise Stopped(Failure.of(exc), action, [a for a in actions[:index + 1] if a.done],
                          [a for a in actions[index + 1:] if a.write], uncertain)
        except Failure as failure:
            raise Stopped(failure, action, [a for a in actions[:index + 1] if a.done],
                          [a for a in actions[index + 1:] if a.write])
    return plan
