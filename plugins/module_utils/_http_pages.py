# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""The HTTP client's pages: every record of a list endpoint, page after page, each page checked for shape,
``next`` followed on the configured origin only, and pagination that does not end refused (a page that
repeats, more pages than the first page's ``count`` allows or than :data:`MAX_PAGES`, empty pages that keep
linking on, a list that takes longer than :data:`LIST_TIMEOUTS` request timeouts).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import math
import time

from ansible_collections.posthog.admin.plugins.module_utils._http_errors import describe, kind_of
from ansible_collections.posthog.admin.plugins.module_utils._http_origin import path_of

DEFAULT_PAGE_SIZE = 500
# The most pages followed when the first page gives no count (a bound against a broken or hostile server):
# a million records at PostHog's 500 a page, more than any list the collection reads.
MAX_PAGES = 2000
# How long one list may take, in request timeouts: a server that keeps linking to new pages, each answered
# in time, is stopped after this many times ``timeout`` (300 s at the default 30 s).
LIST_TIMEOUTS = 10
# Empty pages in a row that still link to a next page before pagination is declared endless.
MAX_EMPTY_PAGES = 3


class Pages:
    """The records of one list, read with ``get(url)`` (the client's GET, retries and cache included);
    ``origin`` rebuilds ``next`` links, ``masker`` words the errors."""

    def __init__(self, get, origin, masker, max_pages=MAX_PAGES, max_seconds=None, clock=time.monotonic):
        self._get = get
        self._origin = origin
        self._masker = masker
        self.max_pages = max(1, int(max_pages))
        self.max_seconds = max_seconds  # None: no bound in time
        self.clock = clock

    def _error(self, message, shown, context):
        return self._masker.error(message, method="GET", path=shown, context=context)

    def records(self, path, params=None, page_size=DEFAULT_PAGE_SIZE, context=None):
        """Yield every record of the list at ``path``.

        A page must be a JSON object whose ``results`` is a list of objects and whose ``next`` is a
        URL or null (or, as older PostHog served some lists, a bare list of objects).
        """
        query = dict(params or {})
        if page_size:
            query.setdefault("limit", page_size)
        url = self._origin.url_for(path, query)
        walk = _Walk(self, url, query.get("limit"), context)
        while url is not None:
            shown = path_of(url)
            page = self._get(url, context)
            if isinstance(page, list) and walk.number == 1:  # older PostHog served some lists unpaginated
                self._check_results(page, shown, context, "answered a list that holds")
                yield from page
                return
            results, link, count = self._check_page(page, shown, context)
            yield from results
            url = walk.next_url(results, link, count, shown)

    def _check_page(self, page, shown, context):
        """(results, next link or None, count) of a list page, or PostHogError saying what is wrong."""
        if not isinstance(page, dict):
            raise self._error("GET %s answered %s where a list page was expected (a JSON object with a "
                              "'results' list); check that host points at PostHog's API" % (shown, describe(page)),
                              shown, context)
        if "results" not in page:
            raise self._error("GET %s answered an object without 'results' where a list page was expected; "
                              "check that host points at PostHog's API" % shown, shown, context)
        results = page.get("results")
        if not isinstance(results, list):
            raise self._error("GET %s answered a list page whose 'results' is %s, not a list of objects; check "
                              "that host points at PostHog's API" % (shown, kind_of(results)), shown, context)
        self._check_results(results, shown, context, "answered a list page whose 'results' holds")
        link = page.get("next")
        if link is not None and not isinstance(link, str):
            raise self._error("GET %s answered a list page whose 'next' is %s, not a URL or null; check that "
                              "host points at PostHog's API" % (shown, kind_of(link)), shown, context)
        return results, link or None, page.get("count")

    def _check_results(self, results, shown, context, lead):
        for index, item in enumerate(results):
            if not isinstance(item, dict):
                raise self._error("GET %s %s %s at index %d, not an object; check that host points at "
                                  "PostHog's API" % (shown, lead, kind_of(item), index), shown, context)

    def allowance(self, count, first_length, limit):
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


class _Walk:
    """Where one pagination is: the page number, the pages seen, the empty pages in a row and the
    most pages it may follow."""

    def __init__(self, pages, first_url, limit, context):
        self.pages = pages
        self.first = path_of(first_url)
        self.limit = limit
        self.context = context
        self.seen = {first_url: 1}
        self.number = 1
        self.empty = 0
        self.started = pages.clock()
        self.allowed, self.why = pages.max_pages, "the most this client follows without a count"

    def next_url(self, results, link, count, shown):
        """The next page's URL (None at the end), or PostHogError when pagination does not end."""
        pages, context = self.pages, self.context
        if self.number == 1:
            self.allowed, self.why = pages.allowance(count, len(results), self.limit)
        if link is None:
            return None
        self.empty = 0 if results else self.empty + 1
        if self.empty >= MAX_EMPTY_PAGES:
            raise pages._error("GET %s pagination did not end: pages %d to %d were empty and still linked to a next "
                               "page" % (self.first, self.number - self.empty + 1, self.number), shown, context)
        url = pages._origin.rebuild(link, "a pagination link", context=context)
        self.number += 1
        if url in self.seen:
            raise pages._error("GET %s pagination did not end: page %d repeats page %d (%s); the server's next links "
                               "go round in a loop" % (self.first, self.number, self.seen[url], path_of(url)),
                               shown, context)
        spent = pages.clock() - self.started
        if pages.max_seconds is not None and spent > pages.max_seconds:
            raise pages._error("GET %s pagination did not end within %g s (%d pages read, %d times timeout); the "
                               "server keeps linking to further pages"
                               % (self.first, pages.max_seconds, self.number - 1, LIST_TIMEOUTS),
                               shown, context)
        if self.number > self.allowed:
            raise pages._error("GET %s pagination did not end: page %d is more than the %d pages %s; the server "
                               "keeps linking to further pages" % (self.first, self.number, self.allowed, self.why),
                               shown, context)
        self.seen[url] = self.number
        return url
