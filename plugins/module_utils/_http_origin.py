# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Where the HTTP client may send the API key: :class:`Origin`, the configured host, and every URL judged
against it as both ``urlsplit`` and urllib3 (with which requests connects) read it, so that a link cannot
name one host to the check and another to the connection. A ``next`` link is never used as given: its path
and query are rebuilt on the configured origin.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

try:
    from urllib.parse import urlencode, urlsplit
except ImportError:  # pragma: no cover - Python 2 is not supported, this keeps the import sanity test calm
    from urlparse import urlsplit  # type: ignore
    from urllib import urlencode  # type: ignore

try:
    from urllib3.util import parse_url  # what requests prepares, and connects, a URL with
except ImportError:  # pragma: no cover - requests always brings urllib3
    parse_url = None

from ansible_collections.posthog.admin.plugins.module_utils._http_errors import PostHogError

# What a URL to send the key to must not hold: a backslash (urllib3 and urlsplit split such an
# authority differently), control characters, spaces or anything beyond ASCII.
_URL_BAD_CHAR = re.compile(r"[^\x21-\x7e]|\\")


def origin_tuple(scheme, host, port):
    scheme = (scheme or "").lower()
    host = (host or "").lower()
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    return (scheme, host, port or {"http": 80, "https": 443}.get(scheme))


def origins(url):
    """(origin as urlsplit reads it, origin as urllib3 reads it, has userinfo); ValueError if either
    cannot parse it. requests prepares and connects with urllib3's reading."""
    parts = urlsplit(url)
    split_origin = origin_tuple(parts.scheme, parts.hostname, parts.port)
    if parse_url is not None:
        parsed = parse_url(url)
        lib_origin = origin_tuple(parsed.scheme, parsed.host, parsed.port)
        lib_auth = parsed.auth
    else:  # pragma: no cover - requests always brings urllib3
        lib_origin, lib_auth = split_origin, None
    userinfo = bool(parts.username or parts.password or "@" in parts.netloc or lib_auth)
    return split_origin, lib_origin, userinfo


def path_of(url):
    """The path and query of ``url`` (what messages show of a request)."""
    parts = urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")


def origin_label(url):
    parts = urlsplit(url)
    return "%s://%s" % (parts.scheme, parts.netloc)


def _split_relative(url):
    path, query = url, ""
    if "?" in path:
        path, query = path.split("?", 1)
    return path.split("#", 1)[0], query.split("#", 1)[0]


class Origin:
    """The configured host: ``base_url`` (the host as given, without a trailing /api), ``root``
    (``scheme://netloc``) and the (scheme, host, port) every URL must lead to."""

    def __init__(self, base_url, masker):
        self.base_url = base_url
        self._masker = masker
        self.origin, self.root = self._configured(base_url)

    @staticmethod
    def _configured(host):
        """The (scheme, host, port) of ``host`` and its ``scheme://netloc``; PostHogError if it is
        not a plain http(s) URL that urlsplit and urllib3 read alike."""
        bad = PostHogError("host must be an http(s) URL such as https://us.posthog.com, without spaces, "
                           "control characters or backslashes, got %r" % host)
        if _URL_BAD_CHAR.search(host):
            raise bad
        try:
            parts = urlsplit(host)
            split_origin, lib_origin, userinfo = origins(host)
        except ValueError:
            raise bad
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise PostHogError("host must be an http(s) URL such as https://us.posthog.com, got %r" % host)
        if userinfo:
            raise PostHogError("host must not carry credentials; use api_key")
        if split_origin != lib_origin:
            raise bad
        return split_origin, "%s://%s" % (parts.scheme, parts.netloc)

    def link_problem(self, url):
        """Why ``url`` must not be sent the key, or None."""
        if "\\" in url:
            return "holds a backslash (HTTP libraries disagree on which host such a link names)"
        if _URL_BAD_CHAR.search(url):
            return "holds control characters, spaces or non-ASCII characters"
        if url.startswith("/") and not url.startswith("//"):
            return None  # a path on the configured origin
        try:
            parts = urlsplit(url)
            split_origin, lib_origin, userinfo = origins(url)
        except ValueError:
            return "is not a valid URL"
        if parts.scheme not in ("http", "https") or not parts.netloc:
            return "is not an http(s) URL"
        if userinfo:
            return "holds userinfo (a name and @ before the host)"
        if split_origin != self.origin or lib_origin != self.origin:
            return "leads to another origin (%s)" % origin_label(url)
        return None

    def rebuild(self, url, what, method="GET", context=None):
        """``url`` rebuilt on the configured origin from its path and query only."""
        problem = self.link_problem(url)
        if problem:
            if problem.startswith("leads to another origin"):
                message = "Refusing to follow %s to another origin (%s)" % (what, origin_label(url))
            else:
                message = "Refusing to follow %s that %s" % (what, problem)
            message += "; the API key is only ever sent to %s" % self.root
            raise self._masker.error(message, method=method, context=context)
        if url.startswith("/"):
            path, query = _split_relative(url)
        else:
            parts = urlsplit(url)
            path, query = parts.path, parts.query
        return self.root + (path or "/") + ("?" + query if query else "")

    def check_destination(self, url, method, shown_path):
        """The last check before a request leaves: its URL is on the configured origin, as both
        parsers read it."""
        try:
            split_origin, lib_origin, userinfo = origins(url)
        except ValueError:
            split_origin = lib_origin = userinfo = None
        if userinfo or split_origin != self.origin or lib_origin != self.origin:
            raise self._masker.error("Refusing to send %s %s: its URL does not lead to %s, where the API key is "
                                     "sent; check host" % (method, shown_path, self.root), method=method,
                                     path=shown_path)

    def url_for(self, path, params=None):
        """The URL of ``path`` (or of a full URL, rebuilt on the origin) with the query ``params``."""
        if path.startswith("http://") or path.startswith("https://"):
            url = self.rebuild(path, "a URL")
        else:
            url = self.base_url + "/" + path.lstrip("/")
        if params:
            query = urlencode([(k, v) for k, v in sorted(params.items()) if v is not None], doseq=True)
            if query:
                url += ("&" if "?" in url else "?") + query
        return url

    def is_loopback(self):
        """Whether ``host`` names this machine (where a refused connection will not heal by waiting)."""
        name = (urlsplit(self.root).hostname or "").lower()
        return name in ("localhost", "::1") or name.endswith(".localhost") or name.startswith("127.")
