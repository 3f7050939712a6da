# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""HTTP client for PostHog's private API.

It knows nothing about AnsibleModule, so modules, info modules and the inventory plugin share it.
It adds Bearer authentication, retries with jittered backoff (honouring ``Retry-After`` and the
wait PostHog writes into 429 bodies), same-origin pagination, and one error type.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import random
import re
import time
import traceback

try:
    from urllib.parse import urlsplit, urlencode
except ImportError:  # pragma: no cover - Python 2 is not supported, this keeps the import sanity test calm
    from urlparse import urlsplit  # type: ignore
    from urllib import urlencode  # type: ignore

try:
    import requests

    HAS_REQUESTS = True
    REQUESTS_IMPORT_ERROR = None
except ImportError:  # pragma: no cover - exercised only where requests is missing
    requests = None
    HAS_REQUESTS = False
    REQUESTS_IMPORT_ERROR = traceback.format_exc()

COLLECTION_VERSION = "0.1.0"
DEFAULT_HOST = "https://us.posthog.com"
DEFAULT_TIMEOUT = 30.0
DEFAULT_RETRIES = 5
DEFAULT_RETRY_MAX_DELAY = 120.0
DEFAULT_PAGE_SIZE = 500

# Statuses that say "try again later". 500 is retried only for requests that are safe to repeat.
RETRY_STATUSES = frozenset([429, 500, 502, 503, 504])
SAFE_TO_REPEAT = frozenset(["GET", "HEAD", "OPTIONS", "PATCH", "PUT", "DELETE"])
BACKOFF_BASE = 0.5
BACKOFF_CAP = 30.0

_BODY_WAIT = re.compile(r"Expected available in (\d+(?:\.\d+)?) seconds?", re.IGNORECASE)
_SCOPE = re.compile(r"missing required scope '([^']+)'")
_TLS_REASON = re.compile(r"\[SSL(?::[^\]]*)?\] ([^(]+?)\s*\(_ssl")
_MASK = "********"


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

    def to_dict(self):
        """The fields a module returns as ``error``."""
        return dict(method=self.method, path=self.path, status=self.status, type=self.type,
                    code=self.code, detail=self.detail, attr=self.attr)

    @property
    def missing_scope(self):
        match = _SCOPE.search(self.detail or "")
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

    def __str__(self):
        return self.message


def _hint(status, detail, code):
    """A sentence telling a person what to do about an error, or ''."""
    detail = detail or ""
    if status == 401:
        return ("Check api_key (or POSTHOG_API_KEY): it must be a personal API key (phx_...) that "
                "exists and is not revoked, for the host you are calling.")
    if status == 403:
        scope = _SCOPE.search(detail)
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
    if status == 429:
        return "PostHog rate-limited the key; raise retry_max_delay, or run fewer tasks at once."
    return ""


def parse_wait(response):
    """Seconds the server asks us to wait, from ``Retry-After`` or PostHog's 429 detail, or None."""
    header = response.headers.get("Retry-After") if response is not None else None
    if header:
        try:
            return max(0.0, float(header))
        except ValueError:
            try:
                from email.utils import parsedate_to_datetime
                import datetime

                when = parsedate_to_datetime(header)
                now = datetime.datetime.now(when.tzinfo)
                return max(0.0, (when - now).total_seconds())
            except (TypeError, ValueError):
                pass
    try:
        detail = response.json().get("detail", "")
    except (ValueError, AttributeError):
        return None
    match = _BODY_WAIT.search(detail or "")
    return float(match.group(1)) if match else None


def backoff_delay(attempt, rng=random.random):
    """Exponential backoff with 'equal jitter': half the step fixed, half random."""
    step = min(BACKOFF_CAP, BACKOFF_BASE * (2 ** attempt))
    return step / 2.0 + rng() * step / 2.0


class PostHogClient:
    """A session with one PostHog host.

    ``retries`` bounds how many times one request is retried; ``retry_max_delay`` bounds the total
    seconds spent waiting between those retries. A wait the server demands beyond that budget fails
    at once, saying so.
    """

    def __init__(self, host=DEFAULT_HOST, api_key=None, validate_certs=True, ca_path=None,
                 timeout=DEFAULT_TIMEOUT, retries=DEFAULT_RETRIES, retry_max_delay=DEFAULT_RETRY_MAX_DELAY,
                 user_agent=None, session=None, sleep=time.sleep, on_retry=None):
        if not HAS_REQUESTS:
            raise PostHogError("The Python library 'requests' is required by posthog.admin.")
        if not api_key:
            raise PostHogError("No API key: set api_key or the environment variable POSTHOG_API_KEY "
                               "to a PostHog personal API key.")
        host = (host or DEFAULT_HOST).strip().rstrip("/")
        if "://" not in host:
            host = "https://" + host
        parts = urlsplit(host)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise PostHogError("host must be an http(s) URL such as https://us.posthog.com, got %r" % host)
        if parts.username or parts.password:
            raise PostHogError("host must not carry credentials; use api_key")
        self.base_url = host
        self._origin = self._origin_of(host)
        self._key = api_key
        self.timeout = float(timeout or DEFAULT_TIMEOUT)
        self.retries = max(0, int(retries if retries is not None else DEFAULT_RETRIES))
        self.retry_max_delay = max(0.0, float(retry_max_delay if retry_max_delay is not None
                                              else DEFAULT_RETRY_MAX_DELAY))
        self._sleep = sleep
        self._on_retry = on_retry
        self.retry_log = []
        self.session = session or requests.Session()
        if ca_path and validate_certs and not os.path.exists(ca_path):
            raise PostHogError("ca_path %s does not exist; give the PEM file (or directory) of the CA that "
                               "signed the server's certificate" % ca_path)
        self.verify = ca_path if (ca_path and validate_certs) else bool(validate_certs)
        self.session.verify = self.verify
        self.session.headers.update({
            "Authorization": "Bearer %s" % api_key,
            "Accept": "application/json",
            "User-Agent": user_agent or "posthog.admin/%s (python-requests/%s)" % (
                COLLECTION_VERSION, getattr(requests, "__version__", "?")),
        })

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _origin_of(url):
        parts = urlsplit(url)
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
        return (parts.scheme, (parts.hostname or "").lower(), port)

    def scrub(self, text):
        """Remove the API key from any text that might reach a person."""
        if text is None:
            return text
        text = str(text)
        if self._key and self._key in text:
            text = text.replace(self._key, _MASK)
        return text

    def url_for(self, path, params=None):
        if path.startswith("http://") or path.startswith("https://"):
            url = path
        else:
            url = self.base_url + "/" + path.lstrip("/")
        if params:
            query = urlencode([(k, v) for k, v in sorted(params.items()) if v is not None], doseq=True)
            if query:
                url += ("&" if "?" in url else "?") + query
        return url

    @staticmethod
    def _path_of(url):
        parts = urlsplit(url)
        return parts.path + ("?" + parts.query if parts.query else "")

    def _error_from_response(self, method, path, response, context=None):
        body = None
        etype = code = detail = attr = None
        try:
            body = response.json()
        except ValueError:
            body = None
        if isinstance(body, dict):
            etype, code, attr = body.get("type"), body.get("code"), body.get("attr")
            detail = body.get("detail")
            if detail is None and body:
                # DRF without PostHog's handler: {"field": ["message"]}
                field, messages = next(iter(body.items()))
                detail = messages[0] if isinstance(messages, list) and messages else str(messages)
                attr = attr or field
        elif response.text:
            detail = response.text.strip()[:300]
        detail = self.scrub(detail)
        summary = "%s %s failed with HTTP %s" % (method, path, response.status_code)
        if etype or code:
            summary += " (%s)" % "/".join(x for x in (etype, code) if x)
        message = summary + (": %s" % detail if detail else "")
        if attr:
            message += " [field: %s]" % attr
        if context:
            message = "%s: %s" % (context, message)
        hint = _hint(response.status_code, detail, code)
        if hint:
            message += (" " if message.endswith(".") else ". ") + hint
        error = PostHogError(message, method=method, path=path, status=response.status_code,
                             type=etype, code=code, detail=detail, attr=attr, body=body)
        error.hint = hint
        return error

    def _tls_message(self, method, path, exc):
        """A TLS failure, explained: which host, why, and which option fixes it."""
        match = _TLS_REASON.search(str(exc))
        reason = match.group(1).strip() if match else exc.__class__.__name__
        origin = self._origin_label(self.base_url)
        if "certificate verify failed" in reason:
            if self.verify not in (True, False):
                fix = ("ca_path (%s) does not hold the CA that signed it; point ca_path at that CA's PEM file"
                       % self.verify)
            else:
                fix = ("if the server uses a private or self-signed CA, set ca_path (or POSTHOG_CA_PATH) to that "
                       "CA's PEM file; set validate_certs to false only for testing")
            return ("%s %s failed: the TLS certificate of %s could not be verified (%s); %s."
                    % (method, path, origin, reason, fix))
        return ("%s %s failed: the TLS handshake with %s failed (%s); check that host has the right scheme "
                "(https:// or http://) and port." % (method, path, origin, reason))

    def _note_retry(self, method, path, why, wait):
        entry = "%s %s: %s; retrying in %.1f s" % (method, path, why, wait)
        self.retry_log.append(entry)
        if self._on_retry:
            self._on_retry(entry)

    # ------------------------------------------------------------------ core
    def request(self, method, path, params=None, json_body=None, context=None, recover=None):
        """Send one request, with retries; return the decoded JSON body (None for 204).

        ``recover`` (POST only): a callable that re-reads the server after an ambiguous failure
        and returns the object the POST created, or None. Without it, a POST is retried only
        where the failure proves nothing was written (429, connection refused).
        """
        method = method.upper()
        url = self.url_for(path, params)
        shown_path = self._path_of(url)
        data = json.dumps(json_body) if json_body is not None else None
        headers = {"Content-Type": "application/json"} if data is not None else None
        waited = 0.0
        attempt = 0
        while True:
            response = None
            failure = None
            last_exc = None
            nothing_written = False
            try:
                # verify is passed on every request: requests lets REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE
                # override the session's verify (psf/requests#3829), which would ignore ca_path and
                # validate_certs=false wherever those variables are set.
                response = self.session.request(method, url, data=data, headers=headers, verify=self.verify,
                                                timeout=self.timeout, allow_redirects=False)
            except requests.exceptions.SSLError as exc:
                # Not transient (and nothing was sent): fail at once, saying what to do.
                raise PostHogError(self.scrub(self._tls_message(method, shown_path, exc)),
                                   method=method, path=shown_path)
            except requests.exceptions.ConnectionError as exc:
                failure = "connection failed (%s)" % exc.__class__.__name__
                # A refused or unreachable connection sent nothing; a reset or read timeout may have.
                nothing_written = isinstance(exc, requests.exceptions.ConnectTimeout) or _is_refused(exc)
                last_exc = exc
            except requests.exceptions.Timeout as exc:
                failure = "timed out after %.0f s" % self.timeout
                last_exc = exc
            except requests.exceptions.RequestException as exc:
                raise PostHogError(self.scrub("%s %s failed: %s" % (method, shown_path, exc)),
                                   method=method, path=shown_path)

            if response is not None:
                status = response.status_code
                if status < 400:
                    if 300 <= status < 400:
                        raise PostHogError(
                            "%s %s answered a redirect (HTTP %s) to %s; set host to the final address"
                            % (method, shown_path, status, self.scrub(response.headers.get("Location"))),
                            method=method, path=shown_path, status=status)
                    return _decode(response)
                if status not in RETRY_STATUSES:
                    raise self._error_from_response(method, shown_path, response, context)
                failure = "HTTP %s" % status
                nothing_written = status == 429

            can_repeat = method in SAFE_TO_REPEAT or nothing_written
            if method == "POST" and not nothing_written and recover is not None:
                existing = recover()
                if existing is not None:
                    return existing
                can_repeat = True
            if response is not None and response.status_code == 500 and method not in SAFE_TO_REPEAT \
                    and recover is None:
                can_repeat = False

            server_wait = parse_wait(response) if response is not None else None
            wait = server_wait if server_wait is not None else backoff_delay(attempt)
            budget_left = self.retry_max_delay - waited
            if not can_repeat or attempt >= self.retries or wait > budget_left:
                if response is not None:
                    err = self._error_from_response(method, shown_path, response, context)
                else:
                    err = PostHogError(self.scrub("%s %s failed: %s (%s)" % (
                        method, shown_path, failure, last_exc)), method=method, path=shown_path)
                if can_repeat and attempt >= self.retries:
                    err.message += " Gave up after %d retries." % attempt
                elif can_repeat and wait > budget_left:
                    err.message += (" Gave up: the next wait (%.0f s) would exceed retry_max_delay "
                                    "(%.0f s, %.0f s already waited)." % (wait, self.retry_max_delay, waited))
                elif not can_repeat and method == "POST":
                    err.message += (" The POST was not retried because it may have been applied; "
                                    "re-run the task to converge.")
                err.args = (err.message,)
                raise err
            self._note_retry(method, shown_path, failure, wait)
            self._sleep(wait)
            waited += wait
            attempt += 1

    def get(self, path, params=None, context=None):
        return self.request("GET", path, params=params, context=context)

    def get_or_none(self, path, params=None, context=None):
        """GET an object; None when the server answers 404."""
        try:
            return self.request("GET", path, params=params, context=context)
        except PostHogError as exc:
            if exc.status == 404:
                return None
            raise

    def post(self, path, body=None, context=None, recover=None):
        return self.request("POST", path, json_body=body if body is not None else {}, context=context,
                            recover=recover)

    def patch(self, path, body, context=None):
        return self.request("PATCH", path, json_body=body, context=context)

    def delete(self, path, context=None, missing_ok=True):
        """DELETE; a 404 counts as done when ``missing_ok`` (a retried DELETE may meet its own work)."""
        try:
            return self.request("DELETE", path, context=context)
        except PostHogError as exc:
            if missing_ok and exc.status == 404:
                return None
            raise

    def paginate(self, path, params=None, page_size=DEFAULT_PAGE_SIZE, context=None):
        """Yield every record of a list endpoint, following ``next`` on the same origin only."""
        query = dict(params or {})
        if page_size:
            query.setdefault("limit", page_size)
        url = self.url_for(path, query)
        while url:
            page = self.request("GET", url, context=context)
            if isinstance(page, list):  # older PostHog served some lists unpaginated
                yield from page
                return
            if not isinstance(page, dict):
                raise PostHogError("GET %s answered something that is not a list" % self._path_of(url),
                                   method="GET", path=self._path_of(url))
            yield from page.get("results") or []
            url = page.get("next")
            if url:
                if self._origin_of(url) != self._origin:
                    foreign = self.scrub(self._origin_label(url))
                    raise PostHogError(
                        "Refusing to follow a pagination link to another origin (%s); the API key is "
                        "only ever sent to %s" % (foreign, self._origin_label(self.base_url)),
                        method="GET", path=self._path_of(url))

    def list_all(self, path, params=None, page_size=DEFAULT_PAGE_SIZE, context=None):
        return list(self.paginate(path, params=params, page_size=page_size, context=context))

    @staticmethod
    def _origin_label(url):
        parts = urlsplit(url)
        return "%s://%s" % (parts.scheme, parts.netloc)


def _is_refused(exc):
    text = repr(exc)
    return ("NewConnectionError" in text or "Connection refused" in text or "Errno 111" in text
            or "Name or service not known" in text or "nodename nor servname" in text)


def _decode(response):
    if response.status_code == 204 or not response.content:
        return None
    try:
        return response.json()
    except ValueError:
        return response.text
