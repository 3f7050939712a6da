# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""HTTP client for PostHog's private API: :class:`PostHogClient`, one session with one PostHog host.

It knows nothing about AnsibleModule, so modules, info modules and the inventory plugin share it; and
nothing about resources: calls go one way, from the engine to the client. A write that may or may not
have happened raises :class:`AmbiguousWrite` and the caller decides what to look for on the server.

It assumes the server may be broken or hostile: the key is only ever sent to the configured origin,
each attempt has a total deadline and a size bound, list pages and created objects are checked for
shape, and every text that may reach a person is scrubbed of the key and of the secrets given to
:meth:`PostHogClient.add_secrets`, in every form a server may echo them in.

The client is this file and the parts it puts together, each importing only those before it:

- ``_http_errors``: PostHogError, AmbiguousWrite, the advice for an error, the words for an answer;
- ``_http_secrets``: the API key's check and the masking of secrets;
- ``_http_origin``: where the key may go (the configured origin, links rebuilt on it);
- ``_http_transport``: one attempt (requests, the total deadline, the size bound, failures told apart);
- ``_http_retry``: the retry policy (what is retried, the waits, one request's budget);
- ``_http_pages``: list endpoints page after page, checked;
- ``_http_cache``: the read cache, scoped by a context manager.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import re
import time

from ansible_collections.posthog.admin.plugins.module_utils._http_cache import ReadCache
from ansible_collections.posthog.admin.plugins.module_utils._http_errors import (
    MAX_DEPTH,
    AmbiguousWrite,
    PostHogError,
    deeper_than,
    describe,
    hint,
    require_object,
)
from ansible_collections.posthog.admin.plugins.module_utils._http_origin import Origin, path_of
from ansible_collections.posthog.admin.plugins.module_utils._http_pages import (
    DEFAULT_PAGE_SIZE,
    LIST_TIMEOUTS,
    MAX_PAGES,
    Pages,
)
from ansible_collections.posthog.admin.plugins.module_utils._http_retry import (
    DEFAULT_RETRIES,
    DEFAULT_RETRY_MAX_DELAY,
    RETRY_STATUSES,
    RetryPolicy,
    backoff_delay,
    may_repeat,
    parse_wait,
)
from ansible_collections.posthog.admin.plugins.module_utils._http_secrets import Masker, check_key
from ansible_collections.posthog.admin.plugins.module_utils._http_transport import (
    DEFAULT_TIMEOUT,
    HAS_REQUESTS,
    MAX_BODY_BYTES,
    REQUESTS_IMPORT_ERROR,
    TooDeep,
    Transport,
    connection_cause,
    decode,
    json_of,
    new_session,
    requests,
)

# What the rest of the collection imports from here (the parts above are the client's own business).
__all__ = ["AmbiguousWrite", "COLLECTION_VERSION", "DEFAULT_HOST", "DEFAULT_PAGE_SIZE", "DEFAULT_RETRIES",
           "DEFAULT_RETRY_MAX_DELAY", "DEFAULT_TIMEOUT", "HAS_REQUESTS", "MAX_BODY_BYTES", "MAX_DEPTH", "MAX_PAGES",
           "REQUESTS_IMPORT_ERROR", "PostHogClient", "PostHogError", "backoff_delay", "describe", "parse_wait",
           "deeper_than", "require_object"]

_HTML_TITLE = re.compile(r"<title[^>]*>(.*?)</title", re.I | re.S)

COLLECTION_VERSION = "0.1.0"
DEFAULT_HOST = "https://us.posthog.com"
# How much of a server's text goes into a message, cut after masking.
MAX_DETAIL = 2000
MAX_TEXT_DETAIL = 300


def _host(host):
    """``(base URL, notes)``: the host as an http(s) URL without a trailing / or /api."""
    host = (host or DEFAULT_HOST).strip().rstrip("/")
    if "://" not in host:
        host = "https://" + host
    notes = []  # things a person should know about how the options were read
    if host.lower().endswith("/api"):
        # Every path starts with /api/: https://eu.posthog.com/api would ask for /api/api/...
        notes.append("host %s ends in /api; the API paths already start with /api/, so %s was used "
                     "(set host without /api)" % (host, host[:-4]))
        host = host[:-4].rstrip("/")
    return host, notes


def _verify(ca_path, validate_certs):
    """requests' ``verify``: the CA file or directory, or whether to validate at all."""
    if ca_path and validate_certs and not os.path.exists(ca_path):
        raise PostHogError("ca_path %s does not exist; give the PEM file (or directory) of the CA that "
                           "signed the server's certificate" % ca_path)
    return ca_path if (ca_path and validate_certs) else bool(validate_certs)


def _user_agent(user_agent):
    if user_agent and user_agent.lower().startswith("posthog/"):
        # PostHog treats callers whose User-Agent starts with posthog/ as its own tools (Terraform
        # provider, MCP server: posthog.event_usage.get_event_source), with other rules.
        raise PostHogError("User-Agent %r is refused: PostHog reserves the posthog/ prefix for its own tools"
                           % user_agent)
    return user_agent or "posthog.admin/%s (python-requests/%s)" % (
        COLLECTION_VERSION, getattr(requests, "__version__", "?"))


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
        api_key = check_key(api_key)
        self.base_url, self.notes = _host(host)
        self.masker = Masker()
        self.masker.add([api_key])
        self.origin = Origin(self.base_url, self.masker)
        self.retry = RetryPolicy(retries, retry_max_delay, sleep)
        self.retry_log = []
        self._on_retry = on_retry
        self.cache = ReadCache()
        verify = _verify(ca_path, validate_certs)
        session = session if session is not None else new_session()
        session.verify = verify
        session.headers.update({"Authorization": "Bearer %s" % api_key, "Accept": "application/json",
                                "User-Agent": _user_agent(user_agent)})
        self.transport = Transport(session, self.origin, self.masker, verify, timeout, max_body_bytes)
        self.pages = Pages(self._get_page, self.origin, self.masker, max_pages,
                           max_seconds=LIST_TIMEOUTS * self.transport.timeout)

    # ------------------------------------------------------------------ what the parts hold
    session = property(lambda self: self.transport.session)
    verify = property(lambda self: self.transport.verify)
    timeout = property(lambda self: self.transport.timeout)
    max_body_bytes = property(lambda self: self.transport.max_body_bytes)
    retries = property(lambda self: self.retry.retries)
    retry_max_delay = property(lambda self: self.retry.retry_max_delay)
    max_pages = property(lambda self: self.pages.max_pages)

    @property
    def memo(self):
        """``{url: answer as JSON text}`` of the reads remembered (None while the read cache is off)."""
        return self.cache.answers

    _path_of = staticmethod(path_of)
    require_object = staticmethod(require_object)

    def url_for(self, path, params=None):
        return self.origin.url_for(path, params)

    # ------------------------------------------------------------------ secrets
    def add_secrets(self, values):
        """Mask these values too wherever the client reports something (the API key always is).

        Give every secret a task sends (AnsibleModule's ``no_log_values``): a server may echo a
        request body back, re-escaped, where Ansible's own masking of the raw value cannot see it.
        """
        self.masker.add(values)

    def scrub(self, text):
        """Remove the API key and every added secret, in any printed form, from text that might reach
        a person."""
        return self.masker.scrub(text)

    # ------------------------------------------------------------------ the read cache
    def reads_remembered(self):
        """The read cache as a context manager: ``with client.reads_remembered():`` answers a GET already
        made from memory until a write touches it (see ``_http_cache``)."""
        return self.cache

    def remember_reads(self, on=True):
        """Turn the read cache on or off, for a caller that pairs the two in try/finally."""
        if on:
            self.cache.start()
        else:
            self.cache.stop()

    # ------------------------------------------------------------------ requests
    def request(self, method, path, params=None, json_body=None, context=None, expect=None, resume=None):
        """Send one request, with retries; return the decoded JSON body (None for 204).

        A POST whose failure leaves it unknown whether it was applied raises :class:`AmbiguousWrite`;
        ``resume`` (that error) sends it again within the same retry budget, after the wait it names.

        ``expect="object"``: the answer must be a JSON object with an ``id`` (see
        :func:`require_object`); a create answered with HTML, ``{}``, a list or no body fails.
        """
        method = method.upper()
        url = self.url_for(path, params)
        if method == "GET":
            known, answer = self.cache.recall(url)
            if known:
                return answer
        else:
            self.cache.forget(method, url)
        try:
            answer = self._send(method, url, json_body, context, expect, resume)
        except PostHogError as exc:
            self.masker.scrub_error(exc)
            raise
        if method == "GET":
            self.cache.keep(url, answer)
        else:
            self.cache.forget(method, url)  # what a read made meanwhile (while looking for an ambiguous write)
        return answer

    def _send(self, method, url, json_body, context, expect, resume):
        shown_path = path_of(url)
        data = json.dumps(json_body) if json_body is not None else None
        budget = self.retry.budget()
        if resume is not None:
            budget = self.retry.budget(resume.attempt, resume.waited)
            self._wait(budget, method, shown_path, resume.failure, resume.resume_wait)
        while True:
            outcome = self.transport.send(method, url, data, shown_path, budget.attempt)
            response = outcome.response
            if response is not None and response.status_code not in RETRY_STATUSES:
                return self._answer(method, shown_path, response, context, expect)
            failure = outcome.failure or "HTTP %s" % response.status_code
            wait = budget.wait_for(response)
            refusal = budget.refusal(wait)
            if not may_repeat(method, outcome.nothing_sent or (response is not None and response.status_code == 429)):
                raise AmbiguousWrite(self._failed(method, shown_path, outcome, context), failure, budget.attempt,
                                     budget.waited, wait if refusal is None else None, refusal or "")
            if refusal is not None:
                error = self._failed(method, shown_path, outcome, context).add_sentence(refusal)
                if method not in ("GET", "HEAD", "OPTIONS") and not outcome.nothing_sent and not (
                        response is not None and response.status_code == 429):
                    # a 5xx or a timeout after the request was sent: PostHog may have done it all the same
                    error.uncertain = True
                    error.add_sentence("The %s may have been applied all the same (%s came after it was sent): "
                                       "check %s before running again." % (method, failure, shown_path))
                raise error
            self._wait(budget, method, shown_path, failure, wait)

    def _wait(self, budget, method, shown_path, why, wait):
        entry = self.masker.scrub("%s %s: %s; retrying in %.1f s" % (method, shown_path, why, wait))
        self.retry_log.append(entry)
        if self._on_retry:
            self._on_retry(entry)
        budget.spend(wait)

    def _answer(self, method, shown_path, response, context, expect):
        """The decoded answer of a response that is not worth retrying, or its error."""
        status = response.status_code
        if status >= 400:
            raise self._error_from_response(method, shown_path, response, context)
        if status >= 300:
            location = self.masker.server_text(response.headers.get("Location"), 200)
            raise self.masker.error("%s %s answered a redirect (HTTP %s) to %s; set host to the final address"
                                    % (method, shown_path, status, location), method=method, path=shown_path,
                                    status=status)
        try:
            answer = decode(response)
        except TooDeep:
            message = ("%s %s answered JSON nested deeper than %d levels, which no PostHog answer is; check that host "
                       "points at PostHog's API" % (method, shown_path, MAX_DEPTH))
            if method not in ("GET", "HEAD", "OPTIONS"):
                message += "; the %s may have been applied" % method
            raise self.masker.error(message, method=method, path=shown_path, status=status)
        if expect == "object":
            require_object(answer, method, shown_path, status)
        return answer

    def _failed(self, method, shown_path, outcome, context):
        """The error of an attempt that failed in a way worth retrying, once no retry follows."""
        if outcome.response is not None:
            return self._error_from_response(method, shown_path, outcome.response, context)
        exc = outcome.exc
        if isinstance(exc, requests.exceptions.ConnectionError):
            reason = "; " + self.transport.cannot_connect(connection_cause(exc))
        else:
            reason = " (%s)" % self.masker.server_text(exc, 300) if exc is not None else ""
        return self.masker.error("%s %s failed: %s%s" % (method, shown_path, outcome.failure, reason),
                                 method=method, path=shown_path)

    def _error_from_response(self, method, path, response, context=None):
        body, too_deep = None, False
        try:
            body = json_of(response)
        except TooDeep:
            too_deep = True
        except ValueError:
            body = None
        etype, code, detail, attr = self._error_fields(body, response, too_deep)
        summary = "%s %s failed with HTTP %s" % (method, path, response.status_code)
        if etype or code:
            summary += " (%s)" % "/".join(x for x in (etype, code) if x)
        message = summary + (": %s" % detail if detail else "")
        if attr:
            message += " [field: %s]" % attr
        if context:
            message = "%s: %s" % (context, message)
        advice = hint(response.status_code, detail, code)
        if advice:
            message += (" " if message.endswith(".") else ". ") + advice
        error = self.masker.scrub_error(PostHogError(message, method=method, path=path, status=response.status_code,
                                                     type=etype, code=code, detail=detail, attr=attr, body=body))
        error.hint = advice
        return error

    def _error_fields(self, body, response, too_deep=False):
        """PostHog's ``type``, ``code``, ``detail`` and ``attr`` of an error answer, fit for a message."""
        etype = code = detail = attr = None
        if isinstance(body, dict):
            etype, code, attr = body.get("type"), body.get("code"), body.get("attr")
            detail = body.get("detail")
            if detail is None and body:
                # DRF without PostHog's handler: {"field": ["message"]}
                field, messages = next(iter(body.items()))
                detail = messages[0] if isinstance(messages, list) and messages else messages
                attr = attr or field
            detail = self.masker.server_text(detail, MAX_DETAIL)
        elif too_deep:
            detail = "a JSON answer nested deeper than %d levels, which no PostHog answer is" % MAX_DEPTH
        elif response.text:
            detail = self._text_detail(response.text.strip())
        etype, code, attr = (self.masker.server_text(x, 200) for x in (etype, code, attr))
        return etype, code, detail, attr

    def _text_detail(self, text):
        """What an error answer that is not JSON said, fit for a message: a page of HTML (a proxy's or a
        gateway's, not PostHog's API) as its title alone, never its markup; other text cut short."""
        if text[:1] == "<" or text[:15].lower().startswith("<!doctype"):
            title = _HTML_TITLE.search(text)
            title = re.sub(r"\s+", " ", title.group(1)).strip() if title else ""
            page = "an HTML page%s, not PostHog's JSON: a proxy or gateway answered" % (
                " titled %r" % self.masker.server_text(title, 100) if title else "")
            return page
        return self.masker.server_text(text, MAX_TEXT_DETAIL)

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

    def post(self, path, body=None, context=None, expect=None, resume=None):
        """POST; ``expect="object"`` fails unless the answer is an object with an ``id``. An ambiguous
        failure raises :class:`AmbiguousWrite`; ``resume`` (that error) sends the POST again."""
        return self.request("POST", path, json_body=body if body is not None else {}, context=context,
                            expect=expect, resume=resume)

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

    # ------------------------------------------------------------------ pagination
    def _get_page(self, url, context):
        return self.request("GET", url, context=context)

    def paginate(self, path, params=None, page_size=DEFAULT_PAGE_SIZE, context=None):
        """Yield every record of a list endpoint, following ``next`` on the configured origin only
        (see ``_http_pages``)."""
        return self.pages.records(path, params=params, page_size=page_size, context=context)

    def list_all(self, path, params=None, page_size=DEFAULT_PAGE_SIZE, context=None):
        return list(self.paginate(path, params=params, page_size=page_size, context=context))
