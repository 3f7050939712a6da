# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The HTTP client against a broken or hostile server, and against a bad API key: where the key may
go, what a message may show, and how long and how much the client reads."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import json
import time

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._client import (
    PostHogClient,
    PostHogError,
    require_object,
)
from ansible_collections.posthog.admin.tests.unit.plugins.module_utils.test_client import KEY
from ansible_collections.posthog.admin.tests.unit.plugins.module_utils.test_client import make_client as client_of

PEM = ("-----BEGIN PRIVATE KEY-----\n"
       "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7VJTUt9Us8cKj\n"
       "MzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dVMvDuictGeurT8jNbvJZHtCSuYEvu\n"
       "NMoSfm76oqFvAp8Gy0iz5sxjZmSnXyCdPEovGhLa0VzMaQ8s+CLOyS56YyCFGeJZ\n"
       "-----END PRIVATE KEY-----\n")


def make_client(server, **kwargs):
    """A client of ``server`` that does not retry (unless told), and the waits it would sleep."""
    kwargs.setdefault("retries", 0)
    return client_of(server, **kwargs)


def port_of(server):
    return int(server.url.rsplit(":", 1)[1])


@pytest.fixture
def other(other_server):
    """A second listener: where a hostile link would like the key to go."""
    return other_server


class Raw:
    """A raw body for the scripted server (conftest.Raw), given where the server is not yet known."""

    def __init__(self, data, content_type="application/json", length=True):
        self.args = (data, content_type, length)


class Trickle:
    """An answer trickled by the scripted server (conftest.Trickle)."""

    def __init__(self, **kwargs):
        self.kwargs = kwargs


def script(server, *answers):
    """server.script(), with this file's Raw and Trickle turned into the server's own."""
    converted = []
    for answer in answers:
        status, payload = answer[0], answer[1]
        if isinstance(payload, Raw):
            payload = server.Raw(*payload.args)
        elif isinstance(payload, Trickle):
            payload = server.Trickle(**payload.kwargs)
        converted.append((status, payload) + tuple(answer[2:]))
    server.script(*converted)


def failure_of(call):
    with pytest.raises(PostHogError) as info:
        call()
    return info.value


def text_of(error):
    return "%s %r %r" % (error, error.to_dict(), error.body)


# ------------------------------------------------------------------ 1. where the key may go
@pytest.mark.parametrize("link, problem", [
    # urlsplit reads the configured origin; urllib3 (and so requests) connects to OTHER
    ("http://127.0.0.1:{other}\\@127.0.0.1:{port}/api/orgs/?offset=1", "holds a backslash"),
    # the other way round: urlsplit reads OTHER
    ("http://127.0.0.1:{port}\\@127.0.0.1:{other}/api/orgs/?offset=1", "holds a backslash"),
    ("http://127.0.0.1:{port}@127.0.0.1:{other}/api/orgs/?offset=1", "userinfo"),
    ("http://user@127.0.0.1:{port}/api/orgs/?offset=1", "userinfo"),
    ("http://127.0.0.1:{port}\t/api/orgs/?offset=1", "control characters"),
    ("http://127.0.0.1:{port}/api/orgs/?offset=1\r\nX-Injected: 1", "control characters"),
    ("http://127.0.0.1:{port} /api/orgs/", "control characters, spaces"),
    ("http://127.0.0.1:{other}/api/orgs/?offset=1", "another origin"),
    ("//127.0.0.1:{other}/api/orgs/?offset=1", "not an http(s) URL"),
    ("ftp://127.0.0.1:{port}/api/orgs/", "not an http(s) URL"),
])
def test_hostile_next_link_is_refused_and_the_key_goes_nowhere_else(server, other, link, problem):
    link = link.format(port=port_of(server), other=port_of(other))
    server.script((200, {"count": 2, "next": link, "previous": None, "results": [{"id": 1}]}))
    other.script(*[(200, {"count": 2, "next": None, "results": [{"id": "stolen"}]})] * 3)
    client, dummy = make_client(server)
    items = []
    error = failure_of(lambda: items.extend(client.paginate("/api/orgs/")))
    assert items == [{"id": 1}]
    assert error.message.startswith("Refusing to follow a pagination link")
    assert problem in error.message
    assert error.message.endswith("the API key is only ever sent to %s" % server.url)
    assert len(server.requests) == 1
    assert other.requests == [], "the key went to another listener"
    assert KEY not in text_of(error)


def test_backslash_link_message_is_exact(server, other):
    server.script((200, {"next": "http://127.0.0.1:%d\\@127.0.0.1:%d/api/orgs/?offset=1"
                                 % (port_of(other), port_of(server)), "results": []}))
    client, dummy = make_client(server)
    error = failure_of(lambda: client.list_all("/api/orgs/", context="listing organizations"))
    assert error.message == (
        "listing organizations: Refusing to follow a pagination link that holds a backslash (HTTP libraries "
        "disagree on which host such a link names); the API key is only ever sent to %s" % server.url)


def test_next_link_is_rebuilt_on_the_configured_origin(server):
    port = port_of(server)
    server.script(
        (200, {"next": "HTTP://127.0.0.1:%d/api/orgs/?limit=1&offset=1#fragment" % port, "results": [{"id": 1}]}),
        (200, {"next": "/api/orgs/?limit=1&offset=2", "results": [{"id": 2}]}),
        (200, {"next": None, "results": [{"id": 3}]}),
    )
    client, dummy = make_client(server)
    sent = []
    real = client.session.request

    def spy(method, url, **kwargs):
        sent.append(url)
        return real(method, url, **kwargs)

    client.session.request = spy
    assert [o["id"] for o in client.paginate("/api/orgs/", page_size=1)] == [1, 2, 3]
    assert [r["path"] for r in server.requests] == ["/api/orgs/?limit=1", "/api/orgs/?limit=1&offset=1",
                                                    "/api/orgs/?limit=1&offset=2"]
    assert sent == [server.url + r["path"] for r in server.requests]


def test_absolute_url_given_to_request_is_held_to_the_origin_too(server, other):
    client, dummy = make_client(server)
    url = "http://127.0.0.1:%d\\@127.0.0.1:%d/api/x/" % (port_of(other), port_of(server))
    error = failure_of(lambda: client.get(url))
    assert "Refusing to follow a URL that holds a backslash" in error.message
    assert other.requests == [] and server.requests == []


@pytest.mark.parametrize("host", ["http://127.0.0.1:1\\@127.0.0.1:2", "http://127.0.0.1\t:2", "http://a b.example",
                                  "http://127.0.0.1:99999999", "http://[::1"])
def test_host_that_parsers_would_read_differently_is_refused(host):
    error = failure_of(lambda: PostHogClient(host=host, api_key=KEY))
    assert error.message.startswith("host must be an http(s) URL")


# ------------------------------------------------------------------ 2. a bad API key
@pytest.mark.parametrize("key, where", [
    (KEY + "\n", "it ends with a newline"),
    (KEY + "\r\n", "it ends with a newline"),
    (" " + KEY, "it starts or ends with a space"),
    (KEY[:10] + "\t" + KEY[10:], "inside it"),
    (KEY[:10] + "\x00" + KEY[10:], "inside it"),
])
def test_api_key_with_whitespace_fails_up_front_and_is_never_shown(server, key, where):
    error = failure_of(lambda: PostHogClient(host=server.url, api_key=key))
    assert error.message.startswith("api_key contains whitespace or control characters (%s); " % where)
    assert "'|-' or '>-'" in error.message and "| trim" in error.message
    assert KEY not in error.message and KEY[4:20] not in error.message and "Bearer" not in error.message
    assert server.requests == []


def test_api_key_with_non_ascii_fails_up_front():
    error = failure_of(lambda: PostHogClient(host="http://127.0.0.1:1", api_key=KEY + "\u2019"))
    assert error.message.startswith("api_key contains characters that are not printable ASCII")
    assert KEY not in error.message


class RaisingSession:
    """Stands in for requests.Session: every request raises ``exc`` (whose text quotes the header)."""

    def __init__(self, exc):
        self.exc = exc
        self.headers = {}
        self.verify = None

    def request(self, method, url, **kwargs):
        raise self.exc


def header_text():
    return "Invalid leading whitespace, reserved character(s), or return character(s) in header value: " \
           "'Bearer %s\\n'" % KEY


@pytest.mark.parametrize("make_exc, expected", [
    (lambda r: r.exceptions.InvalidHeader(header_text()),
     "GET /api/x/ failed: requests refused a request header (InvalidHeader); check api_key for spaces, "
     "newlines or control characters"),
    (lambda r: r.exceptions.InvalidURL(header_text()),
     "GET /api/x/ failed: requests refused the URL (InvalidURL); check host and the ids and names the task "
     "puts in paths"),
    (lambda r: r.exceptions.RequestException(header_text()),
     "GET /api/x/ failed (RequestException); check host, the network and any proxy settings (HTTPS_PROXY, "
     "NO_PROXY)"),
    (lambda r: ValueError(header_text()),
     "GET /api/x/ failed (ValueError); check host, the network and any proxy settings (HTTPS_PROXY, NO_PROXY)"),
])
def test_exception_texts_that_may_quote_a_header_are_never_shown(make_exc, expected):
    import requests

    session = RaisingSession(make_exc(requests))
    client = PostHogClient(host="http://127.0.0.1:1", api_key=KEY, session=session, retries=0)
    error = failure_of(lambda: client.get("/api/x/"))
    assert error.message == expected
    assert KEY not in text_of(error) and "Bearer" not in text_of(error)


# ------------------------------------------------------------------ 3. secrets a server echoes back
def echoing_400(body, escape=json.dumps):
    return (400, {"type": "validation_error", "code": "invalid_input",
                  "detail": "Invalid destination: %s" % escape(body), "attr": "destination"})


def assert_no_part_of(secret, text):
    assert secret not in text
    assert json.dumps(secret)[1:-1] not in text
    for line in secret.splitlines():
        if len(line.strip()) >= 8:
            assert line.strip() not in text, "a line of the secret survived: %r" % line


@pytest.mark.parametrize("escape", [json.dumps, repr, lambda body: json.dumps(json.dumps(body))],
                         ids=["json", "repr", "json-twice"])
def test_echoed_multiline_secret_is_masked_in_every_form(server, escape):
    body = {"destination": {"type": "BigQuery", "config": {"private_key": PEM, "project_id": "p"}}}
    server.script(echoing_400(body, escape))
    client, dummy = make_client(server)
    client.add_secrets([PEM, "p"])
    error = failure_of(lambda: client.post("/api/organizations/@current/batch_exports/", body))
    text = text_of(error)
    assert_no_part_of(PEM, text)
    assert "********" in error.message
    assert error.message.startswith("POST /api/organizations/@current/batch_exports/ failed with HTTP 400 "
                                    "(validation_error/invalid_input): Invalid destination: ")
    assert error.detail.startswith("Invalid destination: ")
    # a short secret ("p") is not masked inside other words
    assert "project_id" in error.message


def test_secret_is_masked_before_a_long_detail_is_cut(server):
    detail = "x" * 1990 + json.dumps(PEM)[1:-1]
    server.script((400, {"detail": detail}))
    client, dummy = make_client(server)
    client.add_secrets([PEM])
    error = failure_of(lambda: client.get("/api/x/"))
    assert "characters cut" not in error.message  # 1990 + mask fits
    assert_no_part_of(PEM, text_of(error))
    for prefix_length in (6, 8, 12, 20):
        assert json.dumps(PEM)[1:-1][:prefix_length] not in error.message.replace("x" * 1990, "")


def test_long_text_is_cut_after_masking(server):
    for padding in (250, 280, 295):  # the cut falls after, inside and before the mask
        script(server, (400, Raw("text " + "y" * (padding + 1) + KEY + "z" * 100, "text/plain")))
        client, dummy = make_client(server)
        error = failure_of(lambda: client.get("/api/x/"))
        assert "characters cut)" in error.message
        for length in (4, 6, 10):
            assert KEY[:length] not in error.message, padding


def test_secrets_are_masked_in_types_codes_fields_and_bodies(server):
    server.script((400, {"type": KEY, "code": "c", "detail": {"nested": [PEM]}, "attr": PEM}))
    client, dummy = make_client(server)
    client.add_secrets([PEM])
    error = failure_of(lambda: client.get("/api/x/"))
    assert_no_part_of(PEM, text_of(error))
    assert KEY not in text_of(error)


def test_short_secrets_are_masked_only_as_whole_texts():
    client = PostHogClient(host="http://127.0.0.1:1", api_key=KEY)
    client.add_secrets(["no", "abc", None, "", "abcd"])
    assert client.scrub("not found: no such thing") == "not found: no such thing"
    assert client.scrub("no") == "********"
    assert client.scrub("abc") == "********"
    assert client.scrub("x abcd y") == "x ******** y"
    assert client.scrub("Bearer %s" % KEY) == "Bearer ********"


def test_terminal_control_characters_from_the_server_are_replaced(server):
    server.script((400, {"detail": "bad \x1b[31mred\x1b[0m thing"}))
    client, dummy = make_client(server)
    error = failure_of(lambda: client.get("/api/x/"))
    assert "\x1b" not in error.message and "bad ?[31mred?[0m thing" in error.message


try:
    from ansible.module_utils.testing import patch_module_args
except ImportError:  # ansible-core < 2.19
    @contextlib.contextmanager
    def patch_module_args(args):
        from unittest import mock

        from ansible.module_utils import basic

        with mock.patch.object(basic, "_ANSIBLE_ARGS", json.dumps({"ANSIBLE_MODULE_ARGS": args}).encode()):
            yield


def test_modules_give_the_client_every_no_log_value(server):
    from ansible_collections.posthog.admin.plugins.module_utils._module import _ansible_module, _task

    spec = dict(items=dict(type="list", elements="dict", options=dict(
        destination=dict(type="dict", options=dict(private_key=dict(type="str", no_log=True))))))
    with patch_module_args({"host": server.url, "api_key": KEY, "items": [{"destination": {"private_key": PEM}}]}):
        task = _task(_ansible_module(spec, {}))
    shown = task.client.scrub("echo: %s / %s" % (json.dumps(PEM), KEY))
    assert_no_part_of(PEM, shown)
    assert KEY not in shown


# ------------------------------------------------------------------ 5. pagination that never ends
def test_next_repeating_its_own_page_fails_at_once(server):
    looping = {"count": 1000, "next": server.url + "/api/orgs/?limit=500", "results": [{"id": 1}]}
    server.script(*[(200, looping)] * 5)
    client, dummy = make_client(server)
    error = failure_of(lambda: client.list_all("/api/orgs/"))
    assert error.message == ("GET /api/orgs/?limit=500 pagination did not end: page 2 repeats page 1 "
                             "(/api/orgs/?limit=500); the server's next links go round in a loop")
    assert len(server.requests) == 1


def test_next_links_going_round_between_two_pages_fail(server):
    first = {"next": server.url + "/api/orgs/?limit=1&offset=1", "results": [{"id": 1}]}
    second = {"next": server.url + "/api/orgs/?limit=1", "results": [{"id": 2}]}
    server.script((200, first), (200, second), (200, first))
    client, dummy = make_client(server)
    error = failure_of(lambda: client.list_all("/api/orgs/", page_size=1))
    assert "page 3 repeats page 1 (/api/orgs/?limit=1)" in error.message
    assert len(server.requests) == 2


def endless(server, count=None, results=({"id": 1},), pages=40):
    answers = []
    for number in range(1, pages + 1):
        page = {"next": server.url + "/api/orgs/?limit=1&offset=%d" % number, "results": list(results)}
        if count is not None:
            page["count"] = count
        answers.append((200, page))
    server.script(*answers)


def test_pages_beyond_what_count_allows_fail(server):
    endless(server, count=3)
    client, dummy = make_client(server)
    error = failure_of(lambda: client.list_all("/api/orgs/", page_size=1))
    assert error.message == ("GET /api/orgs/?limit=1 pagination did not end: page 6 is more than the 5 pages "
                             "that the first page's count (3 at 1 per page) allows, with slack; the server keeps "
                             "linking to further pages")
    assert len(server.requests) == 5


def test_pages_without_count_are_capped(server):
    endless(server)
    client, dummy = make_client(server, max_pages=7)
    error = failure_of(lambda: client.list_all("/api/orgs/", page_size=1))
    assert "page 8 is more than the 7 pages this client follows at most" in error.message
    assert len(server.requests) == 7


def test_empty_pages_that_keep_linking_fail(server):
    endless(server, results=())
    client, dummy = make_client(server)
    error = failure_of(lambda: client.list_all("/api/orgs/", page_size=1))
    assert "pagination did not end: pages 1 to 3 were empty and still linked to a next page" in error.message
    assert len(server.requests) == 3


def test_a_real_count_with_growing_data_still_pages_through(server):
    # count said 4, two objects were added meanwhile: slack lets the last pages through
    answers = []
    for number in range(6):
        link = server.url + "/api/orgs/?limit=1&offset=%d" % (number + 1) if number < 5 else None
        answers.append((200, {"count": 4 + (number // 3), "next": link, "results": [{"id": number}]}))
    server.script(*answers)
    client, dummy = make_client(server)
    assert [o["id"] for o in client.list_all("/api/orgs/", page_size=1)] == list(range(6))


# ------------------------------------------------------------------ 6. slow and huge answers
def test_trickling_body_is_cut_at_the_total_deadline(server):
    script(server, (200, Trickle(interval=0.2, size=100)))
    client, dummy = make_client(server, timeout=1)
    started = time.monotonic()
    error = failure_of(lambda: client.get("/api/x/"))
    elapsed = time.monotonic() - started
    assert error.message == "GET /api/x/ failed: no complete answer within timeout (1 s)"
    assert elapsed < 2.0, elapsed
    deadline = time.monotonic() + 2
    while not server.hangups and time.monotonic() < deadline:
        time.sleep(0.05)
    assert server.hangups and server.hangups[0] - server.requests[0]["at"] < 1.8


def test_trickling_headers_are_cut_at_the_total_deadline(server):
    script(server, (200, Trickle(interval=0.2, size=10, headers=True)))
    client, dummy = make_client(server, timeout=1)
    started = time.monotonic()
    error = failure_of(lambda: client.get("/api/x/"))
    assert time.monotonic() - started < 2.0
    assert "no complete answer within timeout (1 s)" in error.message


def test_deadline_is_retried_like_a_read_timeout(server):
    script(server, (200, Trickle(interval=0.2, size=100)), (200, {"id": 1}))
    client, waits = make_client(server, timeout=0.6, retries=2)
    assert client.get("/api/x/") == {"id": 1}
    assert len(waits) == 1
    assert client.retry_log[0].startswith("GET /api/x/: no complete answer within timeout (0.6 s); retrying in")


def test_post_past_its_deadline_is_not_repeated(server):
    script(server, (201, Trickle(interval=0.2, size=100)), (201, {"id": "dup"}))
    client, waits = make_client(server, timeout=0.6, retries=2)
    error = failure_of(lambda: client.post("/api/organizations/", {"name": "x"}))
    assert len(server.requests) == 1
    assert "no complete answer within timeout (0.6 s)" in error.message
    assert "may have been applied" in error.message


class SlowConnectSession:
    """Stands in for requests.Session: the first connect times out after the attempt's deadline."""

    def __init__(self, server):
        import requests

        self.real = requests.Session()
        self.headers = self.real.headers
        self.verify = None
        self.calls = 0

    def request(self, method, url, **kwargs):
        import requests

        self.calls += 1
        if self.calls == 1:
            time.sleep(0.4)
            raise requests.exceptions.ConnectTimeout("connect timed out")
        return self.real.request(method, url, **kwargs)


def test_connect_timeout_past_the_deadline_still_lets_a_post_be_repeated(server):
    server.script((201, {"id": "a"}))
    session = SlowConnectSession(server)
    waits = []
    client = PostHogClient(host=server.url, api_key=KEY, session=session, timeout=0.2, retries=1,
                           sleep=waits.append)
    assert client.post("/api/organizations/", {"name": "x"}) == {"id": "a"}
    assert session.calls == 2 and len(waits) == 1
    assert client.retry_log[0].startswith("POST /api/organizations/: connection failed (connecting timed out)")


@pytest.mark.parametrize("length", [True, False], ids=["content-length", "until-close"])
def test_answer_larger_than_the_bound_fails(server, length):
    script(server, (200, Raw(b"[" + b"1," * 1000 + b"1]", length=length)))
    client, dummy = make_client(server, max_body_bytes=1000)
    error = failure_of(lambda: client.get("/api/x/"))
    assert error.message == ("GET /api/x/ failed: the answer is larger than 1000 bytes, far more than any PostHog "
                             "answer; check that host points at PostHog's API")


def test_default_body_bound_is_64_mib():
    client = PostHogClient(host="http://127.0.0.1:1", api_key=KEY)
    assert client.max_body_bytes == 64 * 1024 * 1024


def test_keep_alive_connection_is_reused_after_bounded_reads(server):
    server.script((200, {"id": 1}), (200, {"id": 2}))
    client, dummy = make_client(server)
    assert client.get("/api/a/") == {"id": 1} and client.get("/api/b/") == {"id": 2}


# ------------------------------------------------------------------ 7. list pages of the wrong shape
@pytest.mark.parametrize("answer, expected", [
    ({"count": 4, "next": None, "results": "oops"},
     "GET /api/orgs/?limit=500 answered a list page whose 'results' is a string, not a list of objects; check "
     "that host points at PostHog's API"),
    ({"count": 4, "next": None, "results": ["o", "o", "p", "s"]},
     "GET /api/orgs/?limit=500 answered a list page whose 'results' holds a string at index 0, not an object; "
     "check that host points at PostHog's API"),
    ({"count": 2, "next": None, "results": [{"id": 1}, None]},
     "GET /api/orgs/?limit=500 answered a list page whose 'results' holds null at index 1, not an object; "
     "check that host points at PostHog's API"),
    ({"count": 1, "next": 7, "results": [{"id": 1}]},
     "GET /api/orgs/?limit=500 answered a list page whose 'next' is a number, not a URL or null; check that "
     "host points at PostHog's API"),
    ({"count": 1},
     "GET /api/orgs/?limit=500 answered an object without 'results' where a list page was expected; check "
     "that host points at PostHog's API"),
    (Raw("<!DOCTYPE html><html>login</html>", "text/html"),
     "GET /api/orgs/?limit=500 answered HTML where a list page was expected (a JSON object with a 'results' "
     "list); check that host points at PostHog's API"),
    ("organizations",
     "GET /api/orgs/?limit=500 answered text, not a JSON object where a list page was expected (a JSON object "
     "with a 'results' list); check that host points at PostHog's API"),
    ([{"id": 1}, "x"],
     "GET /api/orgs/?limit=500 answered a list that holds a string at index 1, not an object; check that host "
     "points at PostHog's API"),
])
def test_list_page_of_the_wrong_shape_fails_clearly(server, answer, expected):
    script(server, (200, answer))
    client, dummy = make_client(server)
    error = failure_of(lambda: client.list_all("/api/orgs/"))
    assert error.message == expected
    assert error.method == "GET" and error.path == "/api/orgs/?limit=500"


# ------------------------------------------------------------------ 8. garbage answers to a write
@pytest.mark.parametrize("status, answer, what", [
    (201, Raw("<html><body>Created</body></html>", "text/html"), "HTML"),
    (201, {}, "an empty object"),
    (201, [{"id": "x"}], "a list of 1"),
    (201, [], "an empty list"),
    (204, None, "no body"),
    (201, {"name": "x"}, "an object without an id"),
    (200, "created", "text, not a JSON object"),
])
def test_create_answered_without_an_object_fails(server, status, answer, what):
    script(server, (status, answer))
    client, dummy = make_client(server)
    error = failure_of(lambda: client.post("/api/organizations/", {"name": "x"}, expect="object"))
    assert error.message == (
        "unexpected answer to POST /api/organizations/ (HTTP %d, %s); the object may have been created: "
        "check /api/organizations/ before running again" % (status, what))
    assert error.status == status and error.method == "POST" and error.path == "/api/organizations/"
    assert len(server.requests) == 1


def test_update_answered_without_an_object_fails(server):
    server.script((200, {}))
    client, dummy = make_client(server)
    error = failure_of(lambda: client.patch("/api/organizations/1/", {"name": "x"}, expect="object"))
    assert error.message == ("unexpected answer to PATCH /api/organizations/1/ (HTTP 200, an empty object); the "
                             "change may have been applied: check /api/organizations/1/ before running again")


def test_expected_object_is_returned(server):
    server.script((201, {"id": "o1", "name": "x"}))
    client, dummy = make_client(server)
    assert client.post("/api/organizations/", {"name": "x"}, expect="object") == {"id": "o1", "name": "x"}


def test_without_expect_the_answer_is_returned_as_before(server):
    server.script((204, None))
    client, dummy = make_client(server)
    assert client.post("/api/organizations/1/actions/", {}) is None


def test_require_object_helper():
    assert require_object({"id": 3}, "post", "/api/x/") == {"id": 3}
    error = failure_of(lambda: require_object(None, "POST", "/api/x/", 204))
    assert error.message == ("unexpected answer to POST /api/x/ (HTTP 204, no body); the object may have been "
                             "created: check /api/x/ before running again")
    error = failure_of(lambda: PostHogClient.require_object("<html>", "GET", "/api/x/"))
    assert error.message == "unexpected answer to GET /api/x/ (HTML); check that host points at PostHog's API"
