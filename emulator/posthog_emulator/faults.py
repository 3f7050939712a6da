"""Fault injection: make ``/api/`` requests fail on purpose, by method and path.

Rules are kept in process memory, set through the control API (``/_emulator/faults``, see
:func:`faults_view`) and forgotten on reset. The request hook :func:`hook` (installed by the
middleware) checks every ``/api/`` request against the rules, in the order they were added; the
first rule that matches *and fires* decides:

``mode: "respond"`` (default)
    Answer ``status`` without running the view (nothing is written). With no ``status`` the rule
    only adds ``delay`` (latency) and lets the request through.
``mode: "commit_then_status"``
    Run the view (its write is committed), then answer ``status`` (a 5xx) instead of the view's
    answer: a proxy that timed out while PostHog finished the write. The request log records the
    injected status with ``"fault": "commit_then_status"`` and the view's status as
    ``"committed_status"``.
``mode: "drop_after_commit"``
    Run the view (its write is committed: the emulator runs in autocommit mode), then close the
    connection without sending the answer. The client sees the connection closed or reset while
    reading the response. The request log records status ``0`` with ``"fault": "dropped"`` and
    the status the view produced as ``"committed_status"``.

A rule matches when its ``method`` is ``*`` or the request's method, and its ``path`` is a prefix
of the request path or a regular expression that matches at its start (``re.match``). It fires
with probability ``rate`` (from one random generator, seeded with ``seed`` for reproducible runs),
at most ``times`` times. Each rule counts ``matched`` (requests it matched) and ``hits`` (faults
it injected).

Bodies, as PostHog and the proxies in front of it send them:

* 429: PostHog's throttled body (docs/posthog_facts.md §0.4, §0.7) ``{"type": "throttled_error", "code":
  "throttled", "detail": "Request was throttled. Expected available in N seconds.", "attr":
  null}`` where N is ``body_wait`` ("1 second." when 1, as DRF words it); without ``body_wait``
  the detail is "Request was throttled." and carries no wait.
* 500: the hog-handler's body for a crash, ``server_error`` / ``error`` / "A server error occurred.".
* 503: ``server_error`` / ``service_unavailable`` / "Service temporarily unavailable, try again later.".
* 502, 504: an HTML page, as a load balancer answers (not JSON).

``retry_after`` adds a ``Retry-After: <seconds>`` header to any of them (PostHog itself sends none
on 429, docs/posthog_facts.md §0.4). ``delay`` sleeps that many seconds first (outside the database lock).
"""

from __future__ import annotations

import math
import random
import re
import threading
import time

from django.http import HttpResponse

from posthog_emulator.errors import error_response

#: Key in ``request.META`` (the WSGI environ) asking the server to drop the connection.
DROP_KEY = "posthog_emulator.drop_connection"
#: Key in the WSGI environ where the server puts the client socket (see :mod:`posthog_emulator.cli`).
SOCKET_KEY = "posthog_emulator.socket"
#: Key in ``request.META`` holding the rule that answers after the view committed.
COMMIT_THEN_KEY = "posthog_emulator.commit_then_status"
#: Attribute set on a response made by a fault rule (the middleware logs it).
FAULT_ATTR = "_posthog_emulator_fault"
#: Attribute with the status the view answered, on a ``commit_then_status`` response.
COMMITTED_ATTR = "_posthog_emulator_committed_status"

STATUSES = (429, 500, 502, 503, 504)
MODES = ("respond", "drop_after_commit", "commit_then_status")
#: The statuses ``commit_then_status`` may answer: after a committed write only a server error
#: makes sense (a 429 promises that nothing happened).
COMMIT_THEN_STATUSES = (500, 502, 503, 504)
METHODS = ("*", "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
MAX_DELAY = 300.0

_lock = threading.Lock()
_rules: list[dict] = []
_next_id = 1
_random = random.Random()
_seed = None


class RuleError(ValueError):
    """A rule that cannot be used; ``attr`` names the field."""

    def __init__(self, detail: str, attr: str | None = None):
        super().__init__(detail)
        self.detail, self.attr = detail, attr


def _number(data: dict, name: str, minimum: float = 0.0, maximum: float | None = None, integer: bool = False):
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (integer and not isinstance(value, int)):
        raise RuleError("Expected %s." % ("an integer" if integer else "a number"), name)
    if value < minimum or (maximum is not None and value > maximum):
        bounds = f"between {minimum:g} and {maximum:g}" if maximum is not None else f"at least {minimum:g}"
        raise RuleError(f"Must be {bounds}.", name)
    return value


def parse_rule(data) -> dict:
    """Validate one rule from the control API; returns the normalised rule (without id/counters)."""
    if not isinstance(data, dict):
        raise RuleError("Each rule must be a JSON object.", "rules")
    known = {"method", "path", "status", "rate", "times", "delay", "retry_after", "body_wait", "mode"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise RuleError(f"Unknown field {unknown[0]!r}; rules take: {', '.join(sorted(known))}.", unknown[0])
    method = data.get("method", "*")
    if not isinstance(method, str) or method.upper() not in METHODS:
        raise RuleError(f"method must be one of {', '.join(METHODS)}.", "method")
    path = data.get("path", "/api/")
    if not isinstance(path, str) or not path:
        raise RuleError("path must be a non-empty string (a prefix or a regular expression).", "path")
    try:
        pattern = re.compile(path)
    except re.error as error:
        raise RuleError(f"path is not a valid regular expression: {error}.", "path")
    mode = data.get("mode", "respond")
    if mode not in MODES:
        raise RuleError(f"mode must be one of {', '.join(MODES)}.", "mode")
    status = data.get("status")
    if status is not None and (isinstance(status, bool) or status not in STATUSES):
        raise RuleError(f"status must be one of {', '.join(map(str, STATUSES))}.", "status")
    if mode == "drop_after_commit" and status is not None:
        raise RuleError("status has no meaning with mode drop_after_commit (no answer is sent).", "status")
    rate = _number(data, "rate", 0.0, 1.0)
    times = _number(data, "times", 1, integer=True)
    delay = _number(data, "delay", 0.0, MAX_DELAY)
    retry_after = _number(data, "retry_after", 0, integer=True)
    body_wait = _number(data, "body_wait", 0.0, MAX_DELAY)
    if body_wait is not None and status != 429:
        raise RuleError("body_wait only applies to status 429.", "body_wait")
    if mode == "commit_then_status" and status not in COMMIT_THEN_STATUSES:
        raise RuleError(f"mode commit_then_status needs a status: one of {', '.join(map(str, COMMIT_THEN_STATUSES))}.",
                        "status")
    if mode == "respond" and status is None and not delay:
        raise RuleError("A respond rule needs a status, or a delay to add latency.", "status")
    return {
        "method": method.upper(),
        "path": path,
        "status": status,
        "mode": mode,
        "rate": 1.0 if rate is None else float(rate),
        "times": times,
        "delay": float(delay or 0.0),
        "retry_after": retry_after,
        "body_wait": body_wait,
        "_pattern": pattern,
    }


def add_rules(rules: list[dict], seed=None, replace: bool = False) -> list[dict]:
    """Add normalised rules (from :func:`parse_rule`); returns them as :func:`rules` shows them."""
    global _next_id
    with _lock:
        if replace:
            _rules.clear()
        if seed is not None:
            _reseed(seed)
        added = []
        for rule in rules:
            rule = dict(rule, id=_next_id, matched=0, hits=0)
            _next_id += 1
            _rules.append(rule)
            added.append(rule)
        return [_public(rule) for rule in added]


def _reseed(seed) -> None:
    global _seed
    _seed = seed
    _random.seed(seed)


def set_seed(seed) -> None:
    with _lock:
        _reseed(seed)


def rules() -> list[dict]:
    with _lock:
        return [_public(rule) for rule in _rules]


def current_seed():
    return _seed


def clear() -> None:
    """Forget every rule (the random generator keeps its state unless re-seeded)."""
    with _lock:
        _rules.clear()


def _public(rule: dict) -> dict:
    return {key: value for key, value in rule.items() if not key.startswith("_")}


def _matches(rule: dict, method: str, path: str) -> bool:
    if rule["method"] != "*" and rule["method"] != method:
        return False
    return path.startswith(rule["path"]) or rule["_pattern"].match(path) is not None


def pick(method: str, path: str) -> dict | None:
    """The rule that fires for this request, with its counters updated; None when none does."""
    if not _rules:  # fast path, no lock: the common case is no rule at all
        return None
    with _lock:
        for rule in _rules:
            if not _matches(rule, method, path):
                continue
            rule["matched"] += 1
            if rule["times"] is not None and rule["hits"] >= rule["times"]:
                continue
            if rule["rate"] < 1.0 and _random.random() >= rule["rate"]:
                continue
            rule["hits"] += 1
            return dict(rule)
    return None


def throttled_detail(wait) -> str:
    """DRF's ``Throttled`` message (PostHog's 429 detail), with the wait rounded up as DRF does."""
    if wait is None:
        return "Request was throttled."
    seconds = math.ceil(wait)
    return f"Request was throttled. Expected available in {seconds} second{'' if seconds == 1 else 's'}."


_HTML = (
    "<html>\r\n<head><title>{status} {reason}</title></head>\r\n<body>\r\n"
    "<center><h1>{status} {reason}</h1></center>\r\n</body>\r\n</html>\r\n"
)
_REASONS = {502: "Bad Gateway", 504: "Gateway Time-out"}


def fault_response(rule: dict) -> HttpResponse:
    status = rule["status"]
    if status == 429:
        response = error_response(429, "throttled_error", "throttled", throttled_detail(rule["body_wait"]))
    elif status == 500:
        response = error_response(500, "server_error", "error", "A server error occurred.")
    elif status == 503:
        response = error_response(
            503, "server_error", "service_unavailable", "Service temporarily unavailable, try again later."
        )
    else:
        response = HttpResponse(_HTML.format(status=status, reason=_REASONS[status]), status=status,
                                content_type="text/html")
    if rule["retry_after"] is not None:
        response["Retry-After"] = str(rule["retry_after"])
    setattr(response, FAULT_ATTR, "respond")
    response._has_been_logged = True  # an injected 5xx is no server error: keep django.request quiet
    return response


def hook(request) -> HttpResponse | None:
    """The request hook (see :func:`posthog_emulator.middleware.add_request_hook`)."""
    rule = pick(request.method, request.path)
    if rule is None:
        return None
    if rule["delay"]:
        time.sleep(rule["delay"])
    if rule["mode"] == "drop_after_commit":
        request.META[DROP_KEY] = rule["id"]
        return None
    if rule["mode"] == "commit_then_status":
        request.META[COMMIT_THEN_KEY] = rule
        return None
    if rule["status"] is None:  # latency only
        return None
    return fault_response(rule)


def after_view(request, response: HttpResponse) -> HttpResponse:
    """The answer to send once the view ran: ``response``, or the injected status of a
    ``commit_then_status`` rule (the view's status kept as :data:`COMMITTED_ATTR`)."""
    rule = request.META.get(COMMIT_THEN_KEY)
    if rule is None:
        return response
    injected = fault_response(rule)
    setattr(injected, FAULT_ATTR, "commit_then_status")
    setattr(injected, COMMITTED_ATTR, response.status_code)
    return injected
