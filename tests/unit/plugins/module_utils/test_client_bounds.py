# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 33: the client fails fast and clearly on answers no PostHog gives - JSON nested too deep, a list
that never ends (pages and time), a gateway's HTML - and says when a write may have happened all the same
(a DELETE answered 504 after PostHog did it)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._client import MAX_DEPTH, PostHogClient, PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._http_pages import LIST_TIMEOUTS, MAX_PAGES

KEY = "phx_unit_test_key_0123456789abcdefghijklmnopqrstuv"
GATEWAY = ("<html>\r\n<head><title>504 Gateway Time-out</title></head>\r\n<body>\r\n<center><h1>504 Gateway Time-out"
           "</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n")


def make_client(server, **kwargs):
    kwargs.setdefault("retries", 0)
    return PostHogClient(host=server.url, api_key=KEY, sleep=lambda seconds: None, **kwargs)


def failure_of(call):
    with pytest.raises(PostHogError) as info:
        call()
    return info.value


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5000, 100000])
def test_an_answer_nested_too_deep_fails_clearly(server, depth):
    server.script((200, ("[" * depth + "]" * depth).encode()))
    error = failure_of(lambda: make_client(server).get("/api/x/"))
    assert error.message == ("GET /api/x/ answered JSON nested deeper than %d levels, which no PostHog answer is; "
                             "check that host points at PostHog's API" % MAX_DEPTH)


def test_a_write_answered_too_deep_may_have_happened(server):
    server.script((200, ('{"id": 1, "x": ' + "[" * 3000 + "]" * 3000 + "}").encode()))
    error = failure_of(lambda: make_client(server).patch("/api/x/1/", {"name": "y"}))
    assert error.message.endswith("; the PATCH may have been applied")


def test_an_error_answer_nested_too_deep_is_named_not_decoded(server):
    server.script((400, ('{"detail": ' + "[" * 100000 + "]" * 100000 + "}").encode()))
    error = failure_of(lambda: make_client(server).get("/api/x/"))
    assert error.message == ("GET /api/x/ failed with HTTP 400: a JSON answer nested deeper than %d levels, which "
                             "no PostHog answer is" % MAX_DEPTH)


def test_an_answer_as_deep_as_posthog_gives_is_read(server):
    nested = {"a": 1}
    for dummy in range(MAX_DEPTH - 1):
        nested = {"n": nested}
    server.script((200, nested))
    assert make_client(server).get("/api/x/") == nested


def test_a_delete_answered_504_by_a_gateway_after_it_happened_is_uncertain_and_shows_no_html(server):
    server.script((504, server.Raw(GATEWAY, "text/html")))
    error = failure_of(lambda: make_client(server).delete("/api/organizations/o/roles/r/"))
    assert error.uncertain is True
    assert error.message == (
        "DELETE /api/organizations/o/roles/r/ failed with HTTP 504: an HTML page titled '504 Gateway Time-out', not "
        "PostHog's JSON: a proxy or gateway answered. The DELETE may have been applied all the same (HTTP 504 came "
        "after it was sent): check /api/organizations/o/roles/r/ before running again."), error.message
    assert "<" not in error.message and "nginx" not in error.message


def test_a_retried_delete_that_meets_its_own_work_is_done(server):
    server.script((504, server.Raw(GATEWAY, "text/html")), (404, {"detail": "Not found."}))
    assert make_client(server, retries=1).delete("/api/organizations/o/roles/r/") is None


def test_a_refused_write_is_certain(server):
    server.script((503, server.Raw(GATEWAY, "text/html")), (429, {"detail": "slow down"}))
    assert failure_of(lambda: make_client(server).get("/api/x/")).uncertain is False
    assert failure_of(lambda: make_client(server).delete("/api/x/1/")).uncertain is False


def endless(server, pages, count=None):
    answers = []
    for number in range(1, pages + 1):
        page = {"next": server.url + "/api/orgs/?limit=1&offset=%d" % number, "results": [{"id": number}]}
        if count is not None:
            page["count"] = count
        answers.append((200, page))
    server.script(*answers)


def test_never_repeating_next_links_stop_at_the_page_bound(server):
    assert MAX_PAGES <= 2000
    endless(server, 30)
    client = make_client(server, max_pages=25)
    error = failure_of(lambda: client.list_all("/api/orgs/", page_size=1))
    assert "page 26 is more than the 25 pages this client follows at most" in error.message
    assert len(server.requests) == 25


def test_never_repeating_next_links_stop_in_time(server):
    """However many pages the count allows, a list ends within LIST_TIMEOUTS request timeouts."""
    endless(server, 30, count=10 ** 9)
    client = make_client(server, timeout=2)
    now = [0.0]

    def clock():
        now[0] += 1.5  # every page takes 1.5 s, within the 2 s timeout
        return now[0]

    client.pages.clock = clock
    error = failure_of(lambda: client.list_all("/api/orgs/", page_size=1))
    assert error.message.startswith("GET /api/orgs/?limit=1 pagination did not end within %g s (" % (
        LIST_TIMEOUTS * 2.0)), error.message
    assert "the server keeps linking to further pages" in error.message
    assert len(server.requests) == 14  # 20 s of 1.5 s pages
