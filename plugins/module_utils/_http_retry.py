# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""The HTTP client's retry policy: which failures are worth another attempt, how long to wait (the server's
``Retry-After`` or the wait PostHog writes into a 429 body, else jittered exponential backoff), and the
budget of one request (``retries`` attempts more, ``retry_max_delay`` seconds of waiting in all).

A request that is not safe to repeat (a POST) is repeated only where the failure proves it never reached
the server (a 429, a refused connection); otherwise it is an ambiguous write, which the client reports
(``AmbiguousWrite``) rather than repeats.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import random
import re
import time

DEFAULT_RETRIES = 5
DEFAULT_RETRY_MAX_DELAY = 120.0
# Statuses that say "try again later". A 5xx after a POST was sent is an ambiguous write, never repeated here.
RETRY_STATUSES = frozenset([429, 500, 502, 503, 504])
SAFE_TO_REPEAT = frozenset(["GET", "HEAD", "OPTIONS", "PATCH", "PUT", "DELETE"])
BACKOFF_BASE = 0.5
BACKOFF_CAP = 30.0

_BODY_WAIT = re.compile(r"Expected available in (\d+(?:\.\d+)?) seconds?", re.IGNORECASE)


def _header_wait(header):
    try:
        return max(0.0, float(header))
    except ValueError:
        pass
    try:
        from email.utils import parsedate_to_datetime
        import datetime

        when = parsedate_to_datetime(header)
        now = datetime.datetime.now(when.tzinfo)
        return max(0.0, (when - now).total_seconds())
    except (TypeError, ValueError):
        return None


def parse_wait(response):
    """Seconds the server asks us to wait, from ``Retry-After`` or PostHog's 429 detail, or None."""
    header = response.headers.get("Retry-After") if response is not None else None
    if header:
        wait = _header_wait(header)
        if wait is not None:
            return wait
    try:
        detail = response.json().get("detail", "")
    except (ValueError, AttributeError, RecursionError):
        return None
    if not isinstance(detail, str):
        return None
    match = _BODY_WAIT.search(detail)
    return float(match.group(1)) if match else None


def backoff_delay(attempt, rng=random.random):
    """Exponential backoff with 'equal jitter': half the step fixed, half random."""
    step = min(BACKOFF_CAP, BACKOFF_BASE * (2 ** attempt))
    return step / 2.0 + rng() * step / 2.0


def may_repeat(method, nothing_sent):
    """Whether a failed ``method`` may simply be sent again: it is safe to repeat, or provably never arrived."""
    return method in SAFE_TO_REPEAT or nothing_sent


class RetryPolicy:
    """``retries`` bounds how many times one request is retried; ``retry_max_delay`` the total seconds
    spent waiting between those retries. A wait the server demands beyond that budget fails at once."""

    def __init__(self, retries=DEFAULT_RETRIES, retry_max_delay=DEFAULT_RETRY_MAX_DELAY, sleep=time.sleep):
        self.retries = max(0, int(retries if retries is not None else DEFAULT_RETRIES))
        self.retry_max_delay = max(0.0, float(retry_max_delay if retry_max_delay is not None
                                              else DEFAULT_RETRY_MAX_DELAY))
        self.sleep = sleep

    def budget(self, attempt=0, waited=0.0):
        """The budget of one request (or of one resumed after an ambiguous write: its attempts and waits so far)."""
        return Budget(self, attempt, waited)


class Budget:
    """What one request has spent: ``attempt`` (retries made) and ``waited`` (seconds)."""

    def __init__(self, policy, attempt=0, waited=0.0):
        self.policy = policy
        self.attempt = attempt
        self.waited = waited

    def wait_for(self, response):
        """The wait before the next attempt: the server's, else backoff."""
        server_wait = parse_wait(response) if response is not None else None
        return server_wait if server_wait is not None else backoff_delay(self.attempt)

    def refusal(self, wait):
        """None when another attempt after ``wait`` fits the budget; else the sentence saying why not
        ('' when no retry was allowed at all)."""
        if self.attempt >= self.policy.retries:
            return "Gave up after %d retries." % self.attempt if self.attempt else ""
        left = self.policy.retry_max_delay - self.waited
        if wait > left:
            return ("Gave up: the next wait (%.0f s) would exceed retry_max_delay (%.0f s, %.0f s already waited)."
                    % (wait, self.policy.retry_max_delay, self.waited))
        return None

    def spend(self, wait):
        """Wait ``wait`` seconds, counting it and the attempt to come."""
        self.policy.sleep(wait)
        self.waited += wait
        self.attempt += 1
