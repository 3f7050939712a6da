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

It assumes the server may be broken or hostile: the key is only ever sent to the configured
origin (``next`` links are rebuilt on it), each attempt has a total deadline and a size bound,
list pages and created objects are checked for shape, and every text that may reach a person is
scrubbed of the key and of the secrets given to :meth:`PostHogClient.add_secrets`, in every form
a server may echo them in.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import html
import json
import math
import os
import random
import re
import socket
import threading
import time
import traceback

try:
    from urllib.parse import quote, urlsplit, urlencode
except ImportError:  # pragma: no cover - Python 2 is not supported, this keeps the import sanity test calm
    from urlparse import urlsplit  # type: ignore
    from urllib import quote, urlencode  # type: ignore

try:
    import requests

    HAS_REQUESTS = True
    REQUESTS_IMPORT_ERROR = None
except ImportError:  # pragma: no cover - exercised only where requests is missing
    requests = None
    HAS_REQUESTS = False
    REQUESTS_IMPORT_ERROR = traceback.format_exc()

try:
    from urllib3.util import parse_url  # what requests prepares, and connects, a URL with
except ImportError:  # pragma: no cover - requests always brings urllib3
    parse_url = None

COLLECTION_VERSION = "0.1.0"
DEFAULT_HOST = "https://us.posthog.com"
DEFAULT_TIMEOUT = 30.0
DEFAULT_RETRIES = 5
DEFAULT_RETRY_MAX_DELAY = 120.0
DEFAULT_PAGE_SIZE = 500
# Bounds against a broken or hostile server: the largest answer read (no PostHog answer comes
# near it), and the most pages followed when the first page gives no count.
MAX_BODY_BYTES = 64 * 1024 * 1024
MAX_PAGES = 10000
# Empty pages in a row that still link to a next page before pagination is declared endless.
MAX_EMPTY_PAGES = 3
# Secrets shorter than this are masked only where a whole text equals them, never as substrings:
# masking "no" or "1" inside every message would make all of them unreadable.
MIN_SECRET_LENGTH = 4
# Each line of a multi-line secret (a PEM key) at least this long is masked on its own too, so
# that no line survives when a server re-wraps or re-escapes the text.
MIN_SECRET_LINE_LENGTH = 8
# How much of a server's text goes into a message, cut after masking.
MAX_DETAIL = 2000
MAX_TEXT_DETAIL = 300

# Statuses that say "try again later". 500 is retried only for requests that are safe to repeat.
RETRY_STATUSES = frozenset([429, 500, 502, 503, 504])
SAFE_TO_REPEAT = frozenset(["GET", "HEAD", "OPTIONS", "PATCH", "PUT", "DELETE"])
BACKOFF_BASE = 0.5
BACKOFF_CAP = 30.0

_BODY_WAIT = re.compile(r"Expected available in (\d+(?:\.\d+)?) seconds?", re.IGNORECASE)
_SCOPE = re.compile(r"missing required scope '([^']+)'")
_TLS_REASON = re.compile(r"\[SSL(?::[^\]]*)?\] ([^(]+?)\s*\(_ssl")
_MASK = "********"
# What a URL to send the key to must not hold: a backslash (urllib3 and urlsplit split such an
# authority differently), control characters, spaces or anything beyond ASCII.
_URL_BAD_CHAR = re.compile(r"[^\x21-\x7e]|\\")
# What an API key must not hold: a personal API key is one printable ASCII token (phx_...).
_KEY_SPACE = re.compile(r"[\s\x00-\x1f\x7f]")
_KEY_NON_ASCII = re.compile(r"[^\x21-\x7e]")


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
    if not isinstance(detail, str):
        return None
    match = _BODY_WAIT.search(detail)
    return float(match.group(1)) if match else None


def backoff_delay(attempt, rng=random.random):
    """Exponential backoff with 'equal jitter': half the step fixed, half random."""
    step = min(BACKOFF_CAP, BACKOFF_BASE * (2 ** attempt))
    return step / 2.0 + rng() * step / 2.0


def describe(value):
    """A few words on what an answer was, for messages; never its content."""
    if value is None:
        return "no body"
    if isinstance(value, bool):
        return "a JSON boolean"
    if isinstance(value, (int, float)):
        return "a JSON number"
    if isinstance(value, str):
        if value.lstrip()[:1] == "<":
            return "HTML"
        return "text, not a JSON object"
    if isinstance(value, list):
        return "a list of %d" % len(value) if value else "an empty list"
    if isinstance(value, dict):
        if not value:
            return "an empty object"
        if value.get("id") in (None, ""):
            return "an object without an id"
        return "an object"
    return "a %s" % type(value).__name__


def _kind(value):
    """The JSON type of a value, in words."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return "a %s" % type(value).__name__


def require_object(answer, method, path, status=None):
    """``answer`` when it is a JSON object with an ``id``; otherwise fail, saying what it was and
    that the write may have happened (a 201 with HTML, ``{}``, a list or a 204 proves nothing)."""
    if isinstance(answer, dict) and answer.get("id") not in (None, ""):
        return answer
    method = (method or "").upper()
    what = describe(answer)
    if status is not None:
        what = "HTTP %s, %s" % (status, what)
    if method == "POST":
        advice = "the object may have been created: check %s before running again" % path
    elif method in ("PATCH", "PUT"):
        advice = "the change may have been applied: check %s before running again" % path
    elif method == "DELETE":
        advice = "the object may have been deleted: check %s before running again" % path
    else:
        advice = "check that host points at PostHog's API"
    raise PostHogError("unexpected answer to %s %s (%s); %s" % (method, path, what, advice),
                       method=method, path=path, status=status)


def _printed_forms(value):
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


_LINE_BREAK = re.compile(r"\r\n|\r|\n|\\r\\n|\\n")


def _check_key(api_key):
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


def _origin_tuple(scheme, host, port):
    scheme = (scheme or "").lower()
    host = (host or "").lower()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return (scheme, host, port or {"http": 80, "https": 443}.get(scheme))


def _origins(url):
    """(origin as urlsplit reads it, origin as urllib3 reads it, has userinfo); ValueError if either
    cannot parse it. requests prepares and connects with urllib3's reading."""
    parts = urlsplit(url)
    split_origin = _origin_tuple(parts.scheme, parts.hostname, parts.port)
    if parse_url is not None:
        parsed = parse_url(url)
        lib_origin = _origin_tuple(parsed.scheme, parsed.host, parsed.port)
        lib_auth = parsed.auth
    else:  # pragma: no cover - requests always brings urllib3
        lib_origin, lib_auth = split_origin, None
    userinfo = bool(parts.username or parts.password or "@" in parts.netloc or lib_auth)
    return split_origin, lib_origin, userinfo


_ATTEMPT = threading.local()


class _AttemptTimedOut(Exception):
    """One attempt passed its total deadline (treated like a read timeout)."""


class _Deadline:
    """The total deadline of one request attempt: connect, headers and body.

    requests' ``timeout`` bounds each socket read, so a server sending a byte every second never
    trips it. At the deadline a timer shuts down the attempt's socket (which the connection
    registers through ``_ATTEMPT`` as it connects and sends), so that a blocked read returns at
    once; the body is also read in chunks against the clock. One gap remains: a TLS handshake
    runs before its socket is registered, and is bounded by ``timeout`` per read only.
    """

    def __init__(self, seconds):
        self.expires = time.monotonic() + seconds
        self.expired = False
        self._conn = None
        self._lock = threading.Lock()
        self._timer = threading.Timer(seconds, self._expire)
        self._timer.daemon = True

    def __enter__(self):
        _ATTEMPT.deadline = self
        self._timer.start()
        return self

    def __exit__(self, *exc_info):
        self._timer.cancel()
        _ATTEMPT.deadline = None
        return False

    def passed(self):
        if not self.expired and time.monotonic() >= self.expires:
            self.expired = True
        return self.expired

    def watch(self, conn):
        with self._lock:
            self._conn = conn
            expired = self.expired
        if expired:
            _shut(conn)

    def _expire(self):
        with self._lock:
            self.expired = True
            conn = self._conn
        if conn is not None:
            _shut(conn)


def _shut(conn):
    sock = getattr(conn, "sock", None)
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except (OSError, ValueError):
            pass


def _watch(conn):
    deadline = getattr(_ATTEMPT, "deadline", None)
    if deadline is not None:
        deadline.watch(conn)


def _deadline_adapter_class():
    """A requests HTTPAdapter whose connections register with the attempt's deadline; None where
    requests or urllib3 lack what it builds on (the deadline then rests on the chunked body read)."""
    try:
        from requests.adapters import HTTPAdapter
        from urllib3 import ProxyManager
        from urllib3.connection import HTTPConnection, HTTPSConnection
        from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
    except ImportError:  # pragma: no cover
        return None

    class Watched:
        def connect(self):
            _watch(self)
            result = super().connect()
            _watch(self)  # the deadline may have passed while connecting: shut the new socket at once
            return result

        def putrequest(self, *args, **kwargs):
            _watch(self)
            return super().putrequest(*args, **kwargs)

    class WatchedHTTPConnection(Watched, HTTPConnection):
        pass

    class WatchedHTTPSConnection(Watched, HTTPSConnection):
        pass

    class WatchedHTTPConnectionPool(HTTPConnectionPool):
        ConnectionCls = WatchedHTTPConnection

    class WatchedHTTPSConnectionPool(HTTPSConnectionPool):
        ConnectionCls = WatchedHTTPSConnection

    pools = {"http": WatchedHTTPConnectionPool, "https": WatchedHTTPSConnectionPool}

    class DeadlineAdapter(HTTPAdapter):
        def init_poolmanager(self, *args, **kwargs):
            super(DeadlineAdapter, self).init_poolmanager(*args, **kwargs)
            self.poolmanager.pool_classes_by_scheme = dict(pools)

        def proxy_manager_for(self, proxy, **proxy_kwargs):
            manager = super(DeadlineAdapter, self).proxy_manager_for(proxy, **proxy_kwargs)
            if isinstance(manager, ProxyManager):  # not SOCKSProxyManager, whose pools are its own
                manager.pool_classes_by_scheme = dict(pools)
            return manager

    return DeadlineAdapter


_DEADLINE_ADAPTER = None
if HAS_REQUESTS:
    try:
        _DEADLINE_ADAPTER = _deadline_adapter_class()
    except Exception:  # pragma: no cover - an urllib3 too different to extend; keep the chunked read
        _DEADLINE_ADAPTER = None


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class PostHogClient:
    """A session with one PostHog host.

    ``retries`` bounds how many times one request is retried; ``retry_max_delay`` bounds the total
    seconds spent waiting between those retries. A wait the server demands beyond that budget fails
    at once, saying so. ``timeout`` bounds each attempt as a whole (connect, headers and body), and
    ``max_body_bytes`` the size of an answer.
    """

    def __init__(self, host=DEFAULT_HOST, api_key=None, validate_certs=True, ca_path=None,
                 timeout=DEFAULT_TIMEOUT, retries=DEFAULT_RETRIES, retry_max_delay=DEFAULT_RETRY_MAX_DELAY,
                 user_agent=None, session=None, sleep=time.sleep, on_retry=None, max_body_bytes=MAX_BODY_BYTES,
                 max_pages=MAX_PAGES):
        if not HAS_REQUESTS:
            raise PostHogError("The Python library 'requests' is required by posthog.admin.")
        if not api_key:
            raise PostHogError("No API key: set api_key or the environment variable POSTHOG_API_KEY "
                               "to a PostHog personal API key.")
        api_key = _check_key(api_key)
        host = (host or DEFAULT_HOST).strip().rstrip("/")
        if "://" not in host:
            host = "https://" + host
        self.notes = []  # things a person should know about how the options were read
        if host.lower().endswith("/api"):
            # Every path starts with /api/: https://eu.posthog.com/api would ask for /api/api/...
            self.notes.append("host %s ends in /api; the API paths already start with /api/, so %s was used "
                              "(set host without /api)" % (host, host[:-4]))
            host = host[:-4].rstrip("/")
        self._origin, self._root = self._configured_origin(host)
        self.base_url = host
        self._key = api_key
        self._secrets = set()
        self._masks = None
        self.add_secrets([api_key])
        self.timeout = float(timeout or DEFAULT_TIMEOUT)
        self.retries = max(0, int(retries if retries is not None else DEFAULT_RETRIES))
        self.retry_max_delay = max(0.0, float(retry_max_delay if retry_max_delay is not None
                                              else DEFAULT_RETRY_MAX_DELAY))
        self.max_body_bytes = int(max_body_bytes)
        self.max_pages = max(1, int(max_pages))
        self._sleep = sleep
        self._on_retry = on_retry
        self.retry_log = []
        self.memo = None  # {url: answer} while reads are remembered (see remember_reads)
        if session is None:
            session = requests.Session()
            if _DEADLINE_ADAPTER is not None:
                for prefix in ("https://", "http://"):
                    session.mount(prefix, _DEADLINE_ADAPTER())
        self.session = session
        if ca_path and validate_certs and not os.path.exists(ca_path):
            raise PostHogError("ca_path %s does not exist; give the PEM file (or directory) of the CA that "
                               "signed the server's certificate" % ca_path)
        self.verify = ca_path if (ca_path and validate_certs) else bool(validate_certs)
        self.session.verify = self.verify
        if user_agent and user_agent.lower().startswith("posthog/"):
            # PostHog treats callers whose User-Agent starts with posthog/ as its own tools (Terraform
            # provider, MCP server: posthog.event_usage.get_event_source), with other rules.
            raise PostHogError("User-Agent %r is refused: PostHog reserves the posthog/ prefix for its own tools"
                               % user_agent)
        self.session.headers.update({
            "Authorization": "Bearer %s" % api_key,
            "Accept": "application/json",
            "User-Agent": user_agent or "posthog.admin/%s (python-requests/%s)" % (
                COLLECTION_VERSION, getattr(requests, "__version__", "?")),
        })

    # ------------------------------------------------------------------ helpers
    @staticmethod
    def _configured_origin(host):
        """The (scheme, host, port) of ``host`` and its ``scheme://netloc``; PostHogError if it is
        not a plain http(s) URL that urlsplit and urllib3 read alike."""
        bad = PostHogError("host must be an http(s) URL such as https://us.posthog.com, without spaces, "
                           "control characters or backslashes, got %r" % host)
        if _URL_BAD_CHAR.search(host):
            raise bad
        try:
            parts = urlsplit(host)
            split_origin, lib_origin, userinfo = _origins(host)
        except ValueError:
            raise bad
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise PostHogError("host must be an http(s) URL such as https://us.posthog.com, got %r" % host)
        if userinfo:
            raise PostHogError("host must not carry credentials; use api_key")
        if split_origin != lib_origin:
            raise bad
        return split_origin, "%s://%s" % (parts.scheme, parts.netloc)

    @staticmethod
    def _origin_of(url):
        parts = urlsplit(url)
        return _origin_tuple(parts.scheme, parts.hostname, parts.port)

    def add_secrets(self, values):
        """Mask these values too wherever the client reports something (the API key always is).

        Give every secret a task sends (AnsibleModule's ``no_log_values``): a server may echo a
        request body back, re-escaped, where Ansible's own masking of the raw value cannot see it.
        """
        if values is None:
            return
        if isinstance(values, (str, bytes)):
            values = [values]
        for value in values:
            if value is None:
                continue
            if isinstance(value, bytes):
                value = value.decode("utf-8", "replace")
            elif not isinstance(value, str):
                value = str(value)
            if value:
                self._secrets.add(value)
        self._masks = None

    def _mask_forms(self):
        """(forms to replace, longest first; values masked only where a whole text equals them)."""
        if self._masks is None:
            forms = set()
            whole = set()
            for secret in self._secrets:
                whole.add(secret)
                if len(secret) < MIN_SECRET_LENGTH:
                    continue  # too short to mask inside other text: see MIN_SECRET_LENGTH
                pieces = [secret]
                lines = [line.strip() for line in _LINE_BREAK.split(secret)]
                if len(lines) > 1:
                    pieces.extend(line for line in lines if len(line) >= MIN_SECRET_LINE_LENGTH)
                for piece in pieces:
                    forms.update(_printed_forms(piece))
            ordered = sorted((form for form in forms if len(form) >= MIN_SECRET_LENGTH),
                             key=lambda form: (-len(form), form))
            self._masks = (ordered, whole)
        return self._masks

    def scrub(self, text):
        """Remove the API key and every added secret, in any printed form, from text that might reach
        a person."""
        if text is None:
            return text
        if not isinstance(text, str):
            text = str(text)
        forms, whole = self._mask_forms()
        if text in whole or text.strip() in whole:
            return _MASK
        for form in forms:
            if form in text:
                text = text.replace(form, _MASK)
        return text

    def _scrub_value(self, value):
        if isinstance(value, str):
            return self.scrub(value)
        if isinstance(value, dict):
            return dict((self._scrub_value(k), self._scrub_value(v)) for k, v in value.items())
        if isinstance(value, list):
            return [self._scrub_value(v) for v in value]
        return value

    def _server_text(self, text, limit):
        """A server's text, fit for a message: secrets masked first, terminal control characters
        replaced, then cut to ``limit`` (so no part of a secret survives the cut)."""
        if text is None:
            return None
        text = self.scrub(text if isinstance(text, str) else str(text))
        text = _CONTROL.sub("?", text)
        if limit and len(text) > limit:
            text = text[:limit] + "... (%d characters cut)" % (len(text) - limit)
        return text

    def _scrub_error(self, error):
        error.message = self.scrub(error.message)
        error.args = (error.message,)
        for name in ("path", "detail", "type", "code", "attr"):
            value = getattr(error, name, None)
            if isinstance(value, str):
                setattr(error, name, self.scrub(value))
        error.body = self._scrub_value(error.body)
        return error

    def _error(self, message, method=None, path=None, context=None, status=None):
        if context:
            message = "%s: %s" % (context, message)
        return self._scrub_error(PostHogError(message, method=method, path=path, status=status))

    def _link_problem(self, url):
        """Why ``url`` must not be sent the key, or None. Judged as both urlsplit and urllib3 (with
        which requests connects) read it, so that a link cannot name one host to the check and
        another to the connection."""
        if "\\" in url:
            return "holds a backslash (HTTP libraries disagree on which host such a link names)"
        if _URL_BAD_CHAR.search(url):
            return "holds control characters, spaces or non-ASCII characters"
        if url.startswith("/") and not url.startswith("//"):
            return None  # a path on the configured origin
        try:
            parts = urlsplit(url)
            split_origin, lib_origin, userinfo = _origins(url)
        except ValueError:
            return "is not a valid URL"
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return "is not an http(s) URL"
        if userinfo:
            return "holds userinfo (a name and @ before the host)"
        if split_origin != self._origin or lib_origin != self._origin:
            return "leads to another origin (%s)" % self._origin_label(url)
        return None

    def _on_origin(self, url, what, method="GET", context=None):
        """``url`` rebuilt on the configured origin from its path and query only."""
        problem = self._link_problem(url)
        if problem:
            if problem.startswith("leads to another origin"):
                message = "Refusing to follow %s to another origin (%s)" % (what, self._origin_label(url))
            else:
                message = "Refusing to follow %s that %s" % (what, problem)
            message += "; the API key is only ever sent to %s" % self._root
            raise self._error(message, method=method, context=context)
        if url.startswith("/"):
            path, query = url, ""
            if "?" in path:
                path, query = path.split("?", 1)
            path = path.split("#", 1)[0]
            query = query.split("#", 1)[0]
        else:
            parts = urlsplit(url)
            path, query = parts.path, parts.query
        return self._root + (path or "/") + ("?" + query if query else "")

    def _check_destination(self, url, method, shown_path):
        """The last check before a request leaves: its URL is on the configured origin, as both
        parsers read it."""
        try:
            split_origin, lib_origin, userinfo = _origins(url)
        except ValueError:
            split_origin = lib_origin = userinfo = None
        if userinfo or split_origin != self._origin or lib_origin != self._origin:
            raise self._error("Refusing to send %s %s: its URL does not lead to %s, where the API key is "
                              "sent; check host" % (method, shown_path, self._root), method=method,
                              path=shown_path)

    def url_for(self, path, params=None):
        if path.startswith("http://") or path.startswith("https://"):
            url = self._on_origin(path, "a URL")
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
                detail = messages[0] if isinstance(messages, list) and messages else messages
                attr = attr or field
            detail = self._server_text(detail, MAX_DETAIL)
        elif response.text:
            detail = self._server_text(response.text.strip(), MAX_TEXT_DETAIL)
        etype, code, attr = (self._server_text(x, 200) for x in (etype, code, attr))
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
        error = self._scrub_error(PostHogError(message, method=method, path=path, status=response.status_code,
                                               type=etype, code=code, detail=detail, attr=attr, body=body))
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

    def _loopback(self):
        """Whether ``host`` names this machine (where a refused connection will not heal by waiting)."""
        name = (urlsplit(self._root).hostname or "").lower()
        return name in ("localhost", "::1") or name.endswith(".localhost") or name.startswith("127.")

    def _cannot_connect(self, cause):
        """What failed, naming ``host`` (and its variable), the address tried and what to check."""
        parts = urlsplit(self._root)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        what = {
            "no_such_name": "the name %s does not resolve" % parts.hostname,
            "dns_unavailable": "the name %s could not be resolved (no answer from DNS)" % parts.hostname,
            "refused": "nothing accepts connections on %s port %d (connection refused)" % (parts.hostname, port),
            "timeout": "connecting to %s port %d timed out" % (parts.hostname, port),
        }.get(cause, "the connection to %s port %d failed" % (parts.hostname, port))
        return ("could not connect to %s: %s. Check host (the task's option, or POSTHOG_HOST in the environment): "
                "it should be your PostHog's address, such as https://us.posthog.com, https://eu.posthog.com or "
                "http://127.0.0.1:<port> for a local emulator" % (self._root, what))

    def _note_retry(self, method, path, why, wait):
        entry = self.scrub("%s %s: %s; retrying in %.1f s" % (method, path, why, wait))
        self.retry_log.append(entry)
        if self._on_retry:
            self._on_retry(entry)

    # ------------------------------------------------------------------ one attempt
    def _attempt(self, method, url, data, headers, shown_path):
        """Send once and read the whole answer within ``timeout`` and ``max_body_bytes``."""
        self._check_destination(url, method, shown_path)
        response = None
        with _Deadline(self.timeout) as deadline:
            try:
                # verify is passed on every request: requests lets REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE
                # override the session's verify (psf/requests#3829), which would ignore ca_path and
                # validate_certs=false wherever those variables are set.
                response = self.session.request(method, url, data=data, headers=headers, verify=self.verify,
                                                timeout=self.timeout, allow_redirects=False, stream=True)
                self._read_body(response, deadline, method, shown_path)
            except PostHogError:
                _close(response)
                raise
            except Exception as exc:
                _close(response)
                # A connection that never opened stays what it is: nothing was sent, so even a POST
                # may be repeated. Anything else cut by the deadline is a timeout.
                if deadline.passed() and not _nothing_sent(exc):
                    raise _AttemptTimedOut()
                raise
            if deadline.expired:  # the shut socket may have ended a body without a length early
                _close(response)
                raise _AttemptTimedOut()
        _close(response)
        return response

    def _read_body(self, response, deadline, method, shown_path):
        limit = self.max_body_bytes
        declared = (response.headers.get("Content-Length") or "").strip()
        if declared.isdigit() and int(declared) > limit:
            raise self._too_large(method, shown_path)
        chunks = []
        size = 0
        for chunk in response.iter_content(64 * 1024):
            size += len(chunk)
            if size > limit:
                raise self._too_large(method, shown_path)
            chunks.append(chunk)
            if deadline.passed():
                raise _AttemptTimedOut()
        response._content = b"".join(chunks)
        response._content_consumed = True

    def _too_large(self, method, shown_path):
        size = "%d MiB" % (self.max_body_bytes // (1024 * 1024)) if self.max_body_bytes >= 1024 * 1024 \
            else "%d bytes" % self.max_body_bytes
        message = ("%s %s failed: the answer is larger than %s, far more than any PostHog answer; check that "
                   "host points at PostHog's API" % (method, shown_path, size))
        if method not in ("GET", "HEAD", "OPTIONS"):
            message += "; the %s may have been applied" % method
        return self._error(message, method=method, path=shown_path)

    # ------------------------------------------------------------------ core
    def request(self, method, path, params=None, json_body=None, context=None, recover=None, expect=None):
        """Send one request, with retries; return the decoded JSON body (None for 204).

        ``recover`` (POST only): a callable that re-reads the server after an ambiguous failure
        and returns the object the POST created, or None. Without it, a POST is retried only
        where the failure proves nothing was written (429, connection refused).

        ``expect="object"``: the answer must be a JSON object with an ``id`` (see
        :func:`require_object`); a create answered with HTML, ``{}``, a list or no body fails.
        """
        memo_key = None
        if self.memo is not None:
            if method.upper() == "GET":
                memo_key = self.url_for(path, params)
                if memo_key in self.memo:
                    return json.loads(self.memo[memo_key])
            else:
                self._forget(method.upper(), self.url_for(path, params))
        try:
            answer = self._request(method, path, params, json_body, context, recover, expect)
        except PostHogError as exc:
            self._scrub_error(exc)
            raise
        if memo_key is not None:
            self.memo[memo_key] = json.dumps(answer)  # a copy no caller can change (and cheaper to make)
        elif self.memo is not None:
            self._forget(method.upper(), self.url_for(path, params))  # what a recovery read meanwhile
        return answer

    def remember_reads(self, on=True):
        """Answer a GET already made from memory until a write touches it (organization_state plans
        from its reads, then applies the plan on the same reads: each is made once). A write drops
        what it may have changed: the object, the collections and objects above it, and with a
        DELETE everything below it."""
        self.memo = {} if on else None

    def _forget(self, method, url):
        path = urlsplit(url).path
        for key in list(self.memo):
            known = urlsplit(key).path
            if known == path or path.startswith(known) or (method == "DELETE" and known.startswith(path)):
                del self.memo[key]

    def _request(self, method, path, params, json_body, context, recover, expect):
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
                response = self._attempt(method, url, data, headers, shown_path)
            except _AttemptTimedOut:
                failure = "no complete answer within timeout (%g s)" % self.timeout
            except requests.exceptions.SSLError as exc:
                # Not transient (and nothing was sent): fail at once, saying what to do.
                raise self._error(self._tls_message(method, shown_path, exc), method=method, path=shown_path)
            except requests.exceptions.ConnectionError as exc:
                cause = _connection_cause(exc)
                if (cause == "no_such_name" or (cause == "refused" and self._loopback())
                        or (cause == "dns_unavailable" and attempt >= 1)):
                    # Not transient: a name that does not exist, nothing listening on this machine, or
                    # DNS still failing after one retry (retrying five times took 13-15 s for nothing).
                    raise self._error("%s %s failed: %s" % (method, shown_path, self._cannot_connect(cause)),
                                      method=method, path=shown_path)
                failure = "connection failed (%s)" % (CONNECTION_CAUSES.get(cause) or exc.__class__.__name__)
                # A refused or unreachable connection sent nothing; a reset or read timeout may have.
                nothing_written = isinstance(exc, requests.exceptions.ConnectTimeout) or _is_refused(exc)
                last_exc = exc
            except requests.exceptions.Timeout as exc:
                failure = "timed out after %g s" % self.timeout
                last_exc = exc
            except requests.exceptions.InvalidHeader as exc:
                # Its text quotes the header, which may be the Authorization header: name the class only.
                raise self._error("%s %s failed: requests refused a request header (%s); check api_key for "
                                  "spaces, newlines or control characters" % (method, shown_path,
                                                                              exc.__class__.__name__),
                                  method=method, path=shown_path)
            except (requests.exceptions.InvalidURL, requests.exceptions.MissingSchema,
                    requests.exceptions.InvalidSchema) as exc:
                raise self._error("%s %s failed: requests refused the URL (%s); check host and the ids and "
                                  "names the task puts in paths" % (method, shown_path, exc.__class__.__name__),
                                  method=method, path=shown_path)
            except (requests.exceptions.RequestException, ValueError, UnicodeError) as exc:
                # Such texts may quote a request's headers or URL: name the class only.
                raise self._error("%s %s failed (%s); check host, the network and any proxy settings "
                                  "(HTTPS_PROXY, NO_PROXY)" % (method, shown_path, exc.__class__.__name__),
                                  method=method, path=shown_path)

            if response is not None:
                status = response.status_code
                if status < 400:
                    if 300 <= status < 400:
                        location = self._server_text(response.headers.get("Location"), 200)
                        raise self._error(
                            "%s %s answered a redirect (HTTP %s) to %s; set host to the final address"
                            % (method, shown_path, status, location), method=method, path=shown_path,
                            status=status)
                    answer = _decode(response)
                    if expect == "object":
                        require_object(answer, method, shown_path, status)
                    return answer
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
                    if isinstance(last_exc, requests.exceptions.ConnectionError):
                        reason = "; " + self._cannot_connect(_connection_cause(last_exc))
                    else:
                        reason = " (%s)" % self._server_text(last_exc, 300) if last_exc is not None else ""
                    err = self._error("%s %s failed: %s%s" % (method, shown_path, failure, reason),
                                      method=method, path=shown_path)
                sep = " " if err.message.endswith(".") else ". "
                if can_repeat and attempt >= self.retries:
                    if attempt:
                        err.message += sep + "Gave up after %d retries." % attempt
                elif can_repeat and wait > budget_left:
                    err.message += sep + ("Gave up: the next wait (%.0f s) would exceed retry_max_delay "
                                          "(%.0f s, %.0f s already waited)." % (wait, self.retry_max_delay, waited))
                elif not can_repeat and method == "POST":
                    err.message += sep + ("The POST was not retried because it may have been applied; "
                                          "re-run the task to converge.")
                err.args = (err.message,)
                raise err
            self._note_retry(method, shown_path, failure, wait)
            self._sleep(wait)
            waited += wait
            attempt += 1

    def get(self, path, params=None, context=None, expect=None):
        return self.request("GET", path, params=params, context=context, expect=expect)

    def get_or_none(self, path, params=None, context=None):
        """GET an object; None when the server answers 404."""
        try:
            return self.request("GET", path, params=params, context=context)
        except PostHogError as exc:
            if exc.status == 404:
                return None
            raise

    def post(self, path, body=None, context=None, recover=None, expect=None):
        """POST; ``expect="object"`` fails unless the answer is an object with an ``id``."""
        return self.request("POST", path, json_body=body if body is not None else {}, context=context,
                            recover=recover, expect=expect)

    def patch(self, path, body, context=None, expect=None):
        """PATCH; ``expect="object"`` fails unless the answer is an object with an ``id``."""
        return self.request("PATCH", path, json_body=body, context=context, expect=expect)

    def put(self, path, body, context=None, expect=None):
        """PUT (an upsert: PostHog's access control rules are written this way, and retried like PATCH)."""
        return self.request("PUT", path, json_body=body, context=context, expect=expect)

    def delete(self, path, context=None, missing_ok=True):
        """DELETE; a 404 counts as done when ``missing_ok`` (a retried DELETE may meet its own work)."""
        try:
            return self.request("DELETE", path, context=context)
        except PostHogError as exc:
            if missing_ok and exc.status == 404:
                return None
            raise

    require_object = staticmethod(require_object)

    # ------------------------------------------------------------------ pagination
    def paginate(self, path, params=None, page_size=DEFAULT_PAGE_SIZE, context=None):
        """Yield every record of a list endpoint, following ``next`` on the configured origin only.

        A page must be a JSON object whose ``results`` is a list of objects and whose ``next`` is a
        URL or null (or, as older PostHog served some lists, a bare list of objects). A ``next``
        link is never used as given: its path and query are rebuilt on the configured origin, once
        both urlsplit and urllib3 read that origin in it. Pagination that does not end fails: a page
        that repeats, more pages than the first page's ``count`` allows (with slack), more than
        ``max_pages`` without a count, or empty pages that keep linking on.
        """
        query = dict(params or {})
        if page_size:
            query.setdefault("limit", page_size)
        url = self.url_for(path, query)
        first = self._path_of(url)
        seen = {url: 1}
        number = 1
        allowed, why = self.max_pages, "the most this client follows without a count"
        empty = 0
        while True:
            shown = self._path_of(url)
            page = self.request("GET", url, context=context)
            if isinstance(page, list) and number == 1:  # older PostHog served some lists unpaginated
                self._check_results(page, shown, context, "answered a list that holds")
                yield from page
                return
            results, link, count = self._check_page(page, shown, context)
            if number == 1:
                allowed, why = self._page_allowance(count, len(results), query.get("limit"))
            yield from results
            if link is None:
                return
            empty = 0 if results else empty + 1
            if empty >= MAX_EMPTY_PAGES:
                raise self._error("GET %s pagination did not end: pages %d to %d were empty and still linked to "
                                  "a next page" % (first, number - empty + 1, number),
                                  method="GET", path=shown, context=context)
            url = self._on_origin(link, "a pagination link", context=context)
            number += 1
            if url in seen:
                raise self._error("GET %s pagination did not end: page %d repeats page %d (%s); the server's "
                                  "next links go round in a loop" % (first, number, seen[url], self._path_of(url)),
                                  method="GET", path=shown, context=context)
            if number > allowed:
                raise self._error("GET %s pagination did not end: page %d is more than the %d pages %s; the "
                                  "server keeps linking to further pages" % (first, number, allowed, why),
                                  method="GET", path=shown, context=context)
            seen[url] = number

    def _page_allowance(self, count, first_length, limit):
        """How many pages to follow at most, and why, from the first page."""
        try:
            per_page = first_length or int(limit or 0)
        except (TypeError, ValueError):
            per_page = first_length
        if isinstance(count, int) and not isinstance(count, bool) and count >= 0 and per_page > 0:
            needed = max(1, int(math.ceil(count / float(per_page))))
            allowed = needed + max(2, needed // 10)
            if allowed < self.max_pages:
                return allowed, ("that the first page's count (%d at %d per page) allows, with slack"
                                 % (count, per_page))
        return self.max_pages, "this client follows at most"

    def _check_page(self, page, shown, context):
        """(results, next link or None, count) of a list page, or PostHogError saying what is wrong."""
        if not isinstance(page, dict):
            raise self._error("GET %s answered %s where a list page was expected (a JSON object with a "
                              "'results' list); check that host points at PostHog's API"
                              % (shown, describe(page)), method="GET", path=shown, context=context)
        if "results" not in page:
            raise self._error("GET %s answered an object without 'results' where a list page was expected; "
                              "check that host points at PostHog's API" % shown,
                              method="GET", path=shown, context=context)
        results = page.get("results")
        if not isinstance(results, list):
            raise self._error("GET %s answered a list page whose 'results' is %s, not a list of objects; check "
                              "that host points at PostHog's API" % (shown, _kind(results)),
                              method="GET", path=shown, context=context)
        self._check_results(results, shown, context, "answered a list page whose 'results' holds")
        link = page.get("next")
        if link is not None and not isinstance(link, str):
            raise self._error("GET %s answered a list page whose 'next' is %s, not a URL or null; check that "
                              "host points at PostHog's API" % (shown, _kind(link)),
                              method="GET", path=shown, context=context)
        return results, link or None, page.get("count")

    def _check_results(self, results, shown, context, lead):
        for index, item in enumerate(results):
            if not isinstance(item, dict):
                raise self._error("GET %s %s %s at index %d, not an object; check that host points at "
                                  "PostHog's API" % (shown, lead, _kind(item), index),
                                  method="GET", path=shown, context=context)

    def list_all(self, path, params=None, page_size=DEFAULT_PAGE_SIZE, context=None):
        return list(self.paginate(path, params=params, page_size=page_size, context=context))

    @staticmethod
    def _origin_label(url):
        parts = urlsplit(url)
        return "%s://%s" % (parts.scheme, parts.netloc)


def _close(response):
    if response is not None:
        try:
            response.close()
        except Exception:  # pragma: no cover - closing a broken connection
            pass


def _nothing_sent(exc):
    return isinstance(exc, requests.exceptions.ConnectTimeout) or (
        isinstance(exc, requests.exceptions.ConnectionError) and _is_refused(exc))


#: Why a connection failed, as a person reads it (``_connection_cause``'s values).
CONNECTION_CAUSES = dict(no_such_name="the name does not resolve", dns_unavailable="name resolution failed",
                         refused="connection refused", timeout="connecting timed out")


def _connection_cause(exc):
    """``no_such_name`` (the name does not exist), ``dns_unavailable`` (resolution failed, maybe for
    a while), ``refused``, ``timeout`` (connecting) or None (a reset, a lost answer...)."""
    if isinstance(exc, requests.exceptions.ConnectTimeout):
        return "timeout"
    text = repr(exc)
    if ("Name or service not known" in text or "nodename nor servname" in text or "No address associated" in text
            or "Errno -2]" in text or "Errno -5]" in text or "getaddrinfo failed" in text):
        return "no_such_name"
    if "NameResolutionError" in text or "Temporary failure in name resolution" in text or "Errno -3]" in text:
        return "dns_unavailable"
    if "Connection refused" in text or "Errno 111" in text or "Errno 61]" in text or "WinError 10061" in text:
        return "refused"
    return None


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
