# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""The HTTP client's transport: one attempt of one request, sent with requests to the configured origin
only, read whole within a total deadline and a size bound, and its failure told apart: an answer, a failure
that may heal (a timeout, a reset, a refused connection elsewhere: an :class:`Outcome` the retry policy
judges, saying whether the request provably never left), or one that will not (TLS, a name that does not
resolve, nothing listening on this machine, a URL or header requests refuses: PostHogError at once).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
import socket
import threading
import time
import traceback

try:
    from urllib.parse import urlsplit
except ImportError:  # pragma: no cover - Python 2 is not supported, this keeps the import sanity test calm
    from urlparse import urlsplit  # type: ignore

try:
    import requests

    HAS_REQUESTS = True
    REQUESTS_IMPORT_ERROR = None
except ImportError:  # pragma: no cover - exercised only where requests is missing
    requests = None
    HAS_REQUESTS = False
    REQUESTS_IMPORT_ERROR = traceback.format_exc()

from ansible_collections.posthog.admin.plugins.module_utils._http_errors import MAX_DEPTH, PostHogError, deeper_than

DEFAULT_TIMEOUT = 30.0
# The largest answer read (no PostHog answer comes near it): a bound against a broken or hostile server.
MAX_BODY_BYTES = 64 * 1024 * 1024

_TLS_REASON = re.compile(r"\[SSL(?::[^\]]*)?\] ([^(]+?)\s*\(_ssl")

#: Why a connection failed, as a person reads it (``connection_cause``'s values).
CONNECTION_CAUSES = dict(no_such_name="the name does not resolve", dns_unavailable="name resolution failed",
                         refused="connection refused", timeout="connecting timed out")
_CAUSE_MARKS = (
    ("no_such_name", ("Name or service not known", "nodename nor servname", "No address associated", "Errno -2]",
                      "Errno -5]", "getaddrinfo failed")),
    ("dns_unavailable", ("NameResolutionError", "Temporary failure in name resolution", "Errno -3]")),
    ("refused", ("Connection refused", "Errno 111", "Errno 61]", "WinError 10061")),
)
_REFUSED_MARKS = ("NewConnectionError", "Connection refused", "Errno 111", "Name or service not known",
                  "nodename nor servname")


def connection_cause(exc):
    """``no_such_name`` (the name does not exist), ``dns_unavailable`` (resolution failed, maybe for
    a while), ``refused``, ``timeout`` (connecting) or None (a reset, a lost answer...)."""
    if isinstance(exc, requests.exceptions.ConnectTimeout):
        return "timeout"
    text = repr(exc)
    for cause, marks in _CAUSE_MARKS:
        if any(mark in text for mark in marks):
            return cause
    return None


def is_refused(exc):
    text = repr(exc)
    return any(mark in text for mark in _REFUSED_MARKS)


def nothing_sent(exc):
    return isinstance(exc, requests.exceptions.ConnectTimeout) or (
        isinstance(exc, requests.exceptions.ConnectionError) and is_refused(exc))


class TooDeep(ValueError):
    """An answer's JSON nests deeper than any PostHog answer (:data:`~._http_errors.MAX_DEPTH` levels)."""


def json_of(response):
    """The answer's JSON; ValueError when it is not JSON, :class:`TooDeep` when it nests deeper than
    :data:`~._http_errors.MAX_DEPTH` levels (however deep: Python's decoder runs out of recursion first)."""
    try:
        value = response.json()
    except RecursionError:
        raise TooDeep()
    if deeper_than(value, MAX_DEPTH):
        raise TooDeep()
    return value


def decode(response):
    """The answer's JSON (None for 204 or no body; the text when it is not JSON); :class:`TooDeep`."""
    if response.status_code == 204 or not response.content:
        return None
    try:
        return json_of(response)
    except TooDeep:
        raise
    except ValueError:
        return response.text


def close(response):
    if response is not None:
        try:
            response.close()
        except Exception:  # pragma: no cover - closing a broken connection
            pass


# ---------------------------------------------------------------------------------- the deadline
_ATTEMPT = threading.local()


class AttemptTimedOut(Exception):
    """One attempt passed its total deadline (treated like a read timeout)."""


class Deadline:
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


def new_session():
    """A requests Session whose connections keep the attempt's deadline."""
    session = requests.Session()
    if _DEADLINE_ADAPTER is not None:
        for prefix in ("https://", "http://"):
            session.mount(prefix, _DEADLINE_ADAPTER())
    return session


# ---------------------------------------------------------------------------------- one attempt
class Outcome:
    """How one attempt ended: an answer (``response``), or a failure that may heal (``failure``, a few
    words; ``nothing_sent`` when it proves the request never reached the server; ``exc`` what raised)."""

    def __init__(self, response=None, failure=None, nothing_sent=False, exc=None):
        self.response = response
        self.failure = failure
        self.nothing_sent = nothing_sent
        self.exc = exc


class Transport:
    """Sends one attempt of a request over ``session`` to ``origin``, within ``timeout`` (connect,
    headers and body together) and ``max_body_bytes``."""

    def __init__(self, session, origin, masker, verify, timeout=DEFAULT_TIMEOUT, max_body_bytes=MAX_BODY_BYTES):
        self.session = session
        self.origin = origin
        self.masker = masker
        self.verify = verify
        self.timeout = float(timeout or DEFAULT_TIMEOUT)
        self.max_body_bytes = int(max_body_bytes)

    def send(self, method, url, data, shown_path, attempt):
        """One attempt: an :class:`Outcome`, or PostHogError for a failure waiting will not heal."""
        headers = {"Content-Type": "application/json"} if data is not None else None
        try:
            return Outcome(response=self._exchange(method, url, data, headers, shown_path))
        except AttemptTimedOut:
            return Outcome(failure="no complete answer within timeout (%g s)" % self.timeout)
        except requests.exceptions.SSLError as exc:
            # Not transient (and nothing was sent): fail at once, saying what to do.
            raise self.masker.error(self._tls_message(method, shown_path, exc), method=method, path=shown_path)
        except requests.exceptions.ConnectionError as exc:
            return self._connection_failed(method, shown_path, exc, attempt)
        except requests.exceptions.Timeout as exc:
            return Outcome(failure="timed out after %g s" % self.timeout, exc=exc)
        except requests.exceptions.RequestException as exc:
            raise self._refused(method, shown_path, exc)
        except (ValueError, UnicodeError) as exc:
            raise self._refused(method, shown_path, exc)

    def _connection_failed(self, method, shown_path, exc, attempt):
        cause = connection_cause(exc)
        if (cause == "no_such_name" or (cause == "refused" and self.origin.is_loopback())
                or (cause == "dns_unavailable" and attempt >= 1)):
            # Not transient: a name that does not exist, nothing listening on this machine, or
            # DNS still failing after one retry (retrying five times took 13-15 s for nothing).
            raise self.masker.error("%s %s failed: %s" % (method, shown_path, self.cannot_connect(cause)),
                                    method=method, path=shown_path)
        # A refused or unreachable connection sent nothing; a reset or read timeout may have.
        return Outcome(failure="connection failed (%s)" % (CONNECTION_CAUSES.get(cause) or exc.__class__.__name__),
                       nothing_sent=isinstance(exc, requests.exceptions.ConnectTimeout) or is_refused(exc), exc=exc)

    def _refused(self, method, shown_path, exc):
        """requests refused the request itself. Such texts may quote a request's headers (the
        Authorization header) or URL: name the class only."""
        name = exc.__class__.__name__
        if isinstance(exc, requests.exceptions.InvalidHeader):
            message = ("%s %s failed: requests refused a request header (%s); check api_key for spaces, newlines "
                       "or control characters" % (method, shown_path, name))
        elif isinstance(exc, (requests.exceptions.InvalidURL, requests.exceptions.MissingSchema,
                              requests.exceptions.InvalidSchema)):
            message = ("%s %s failed: requests refused the URL (%s); check host and the ids and names the task "
                       "puts in paths" % (method, shown_path, name))
        else:
            message = ("%s %s failed (%s); check host, the network and any proxy settings (HTTPS_PROXY, "
                       "NO_PROXY)" % (method, shown_path, name))
        return self.masker.error(message, method=method, path=shown_path)

    def _exchange(self, method, url, data, headers, shown_path):
        """Send once and read the whole answer within ``timeout`` and ``max_body_bytes``."""
        self.origin.check_destination(url, method, shown_path)
        response = None
        with Deadline(self.timeout) as deadline:
            try:
                # verify is passed on every request: requests lets REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE
                # override the session's verify (psf/requests#3829), which would ignore ca_path and
                # validate_certs=false wherever those variables are set.
                response = self.session.request(method, url, data=data, headers=headers, verify=self.verify,
                                                timeout=self.timeout, allow_redirects=False, stream=True)
                self._read_body(response, deadline, method, shown_path)
            except PostHogError:
                close(response)
                raise
            except Exception as exc:
                close(response)
                # A connection that never opened stays what it is: nothing was sent, so even a POST
                # may be repeated. Anything else cut by the deadline is a timeout.
                if deadline.passed() and not nothing_sent(exc):
                    raise AttemptTimedOut()
                raise
            if deadline.expired:  # the shut socket may have ended a body without a length early
                close(response)
                raise AttemptTimedOut()
        close(response)
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
                raise AttemptTimedOut()
        response._content = b"".join(chunks)
        response._content_consumed = True

    def _too_large(self, method, shown_path):
        size = "%d MiB" % (self.max_body_bytes // (1024 * 1024)) if self.max_body_bytes >= 1024 * 1024 \
            else "%d bytes" % self.max_body_bytes
        message = ("%s %s failed: the answer is larger than %s, far more than any PostHog answer; check that "
                   "host points at PostHog's API" % (method, shown_path, size))
        if method not in ("GET", "HEAD", "OPTIONS"):
            message += "; the %s may have been applied" % method
        return self.masker.error(message, method=method, path=shown_path)

    def _tls_message(self, method, path, exc):
        """A TLS failure, explained: which host, why, and which option fixes it."""
        match = _TLS_REASON.search(str(exc))
        reason = match.group(1).strip() if match else exc.__class__.__name__
        origin = self.origin.root
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

    def cannot_connect(self, cause):
        """What failed, naming ``host`` (and its variable), the address tried and what to check."""
        parts = urlsplit(self.origin.root)
        port = parts.port or (443 if parts.scheme == "https" else 80)
        what = {
            "no_such_name": "the name %s does not resolve" % parts.hostname,
            "dns_unavailable": "the name %s could not be resolved (no answer from DNS)" % parts.hostname,
            "refused": "nothing accepts connections on %s port %d (connection refused)" % (parts.hostname, port),
            "timeout": "connecting to %s port %d timed out" % (parts.hostname, port),
        }.get(cause, "the connection to %s port %d failed" % (parts.hostname, port))
        return ("could not connect to %s: %s. Check host (the task's option, or POSTHOG_HOST in the environment): "
                "it should be your PostHog's address, such as https://us.posthog.com, https://eu.posthog.com or "
                "http://127.0.0.1:<port> for a local emulator" % (self.origin.root, what))
