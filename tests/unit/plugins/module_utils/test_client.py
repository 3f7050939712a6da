# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The HTTP client against a scripted server: retries, waits, pagination, errors, key hygiene."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import time

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._client import (
    AmbiguousWrite,
    PostHogClient,
    PostHogError,
    backoff_delay,
)
from ansible_collections.posthog.admin.plugins.module_utils._apply import post_or_refind

KEY = "phx_unit_test_key_0123456789abcdefghijklmnopqrstuv"


def make_client(server, **kwargs):
    waits = []
    kwargs.setdefault("retries", 3)
    client = PostHogClient(host=server.url, api_key=KEY, sleep=waits.append, **kwargs)
    return client, waits


def test_bearer_auth_user_agent_and_json(server):
    server.script((200, {"ok": True}))
    client, dummy = make_client(server)
    assert client.get("/api/organizations/", params={"limit": 5}) == {"ok": True}
    request = server.requests[0]
    assert request["headers"]["Authorization"] == "Bearer " + KEY
    assert request["headers"]["User-Agent"].startswith("posthog.admin/")
    assert request["path"] == "/api/organizations/?limit=5"


def test_user_agent_never_starts_with_posthog_slash(server):
    """PostHog treats a User-Agent starting with posthog/ as one of its own tools (Terraform provider,
    MCP server: posthog.event_usage.get_event_source), with other rules for hog functions and access
    control; the collection must never send one."""
    server.script((200, {"ok": True}))
    client, dummy = make_client(server)
    client.get("/api/organizations/")
    assert not server.requests[0]["headers"]["User-Agent"].lower().startswith("posthog/")
    with pytest.raises(PostHogError, match="reserves the posthog/ prefix"):
        PostHogClient(host=server.url, api_key=KEY, user_agent="posthog/terraform-provider 1.0")


def test_retries_503_then_succeeds_with_backoff(server):
    server.script((503, {"detail": "busy"}), (502, None), (200, {"id": 1}))
    client, waits = make_client(server)
    assert client.get("/api/x/") == {"id": 1}
    assert len(server.requests) == 3
    assert len(waits) == 2 and waits[1] >= waits[0] * 0.5 and all(w > 0 for w in waits)
    assert len(client.retry_log) == 2 and "HTTP 503" in client.retry_log[0]


def test_retry_after_header_is_honoured(server):
    server.script((429, {"type": "throttled_error", "code": "throttled", "detail": "slow down"}, {"Retry-After": "7"}),
                  (200, {}))
    client, waits = make_client(server)
    client.get("/api/x/")
    assert waits == [7.0]


def test_wait_read_from_posthog_429_body(server):
    body = {"type": "throttled_error", "code": "throttled",
            "detail": "Request was throttled. Expected available in 3 seconds.", "attr": None}
    server.script((429, body), (429, dict(body, detail="Request was throttled. Expected available in 1 second.")),
                  (200, {}))
    client, waits = make_client(server)
    client.get("/api/x/")
    assert waits == [3.0, 1.0]


def test_total_wait_is_bounded_and_failure_says_so(server):
    body = {"type": "throttled_error", "code": "throttled",
            "detail": "Request was throttled. Expected available in 62 seconds.", "attr": None}
    server.script((429, body))
    client, waits = make_client(server, retry_max_delay=30)
    with pytest.raises(PostHogError) as info:
        client.get("/api/x/")
    assert waits == []
    assert info.value.status == 429
    assert "retry_max_delay" in str(info.value)


def test_gives_up_after_retries(server):
    server.script(*[(502, None)] * 5)
    client, waits = make_client(server, retries=2)
    with pytest.raises(PostHogError) as info:
        client.get("/api/x/")
    assert len(server.requests) == 3
    assert "Gave up after 2 retries" in str(info.value)


def test_post_not_repeated_after_ambiguous_failure(server):
    server.script((502, None), (201, {"id": "dup"}))
    client, dummy = make_client(server)
    with pytest.raises(PostHogError) as info:
        client.post("/api/organizations/", {"name": "x"})
    assert len(server.requests) == 1
    assert "may have been applied" in str(info.value)


def test_post_repeated_after_429(server):
    server.script((429, {"detail": "Expected available in 1 second."}), (201, {"id": "a"}))
    client, waits = make_client(server)
    assert client.post("/api/organizations/", {"name": "x"}) == {"id": "a"}
    assert [r["method"] for r in server.requests] == ["POST", "POST"]


def test_an_ambiguous_post_raises_a_typed_error_naming_the_request_and_its_cause(server):
    """The client never calls back into a resource: it reports the write it cannot tell happened."""
    server.script((504, {"detail": "gateway"}))
    client, waits = make_client(server)
    with pytest.raises(AmbiguousWrite) as info:
        client.post("/api/organizations/", {"name": "x"}, context="creating organization 'x'")
    error = info.value
    assert isinstance(error, PostHogError) and error.method == "POST" and error.path == "/api/organizations/"
    assert error.status == 504 and error.cause.status == 504 and error.failure == "HTTP 504"
    assert error.message.startswith("creating organization 'x': POST /api/organizations/ failed with HTTP 504")
    assert error.message.endswith("The POST was not retried because it may have been applied; re-run the task "
                                  "to converge.")
    assert error.resume_wait is not None and waits == [] and len(server.requests) == 1


def test_a_lost_answer_is_an_ambiguous_write_too(server):
    server.script((200, "DROP"))
    client, dummy = make_client(server)
    with pytest.raises(AmbiguousWrite) as info:
        client.post("/api/organizations/", {"name": "x"})
    assert info.value.status is None and "connection failed" in info.value.failure


def test_resume_sends_the_post_again_within_the_same_budget(server):
    server.script((504, None), (201, {"id": "b"}))
    client, waits = make_client(server)
    with pytest.raises(AmbiguousWrite) as info:
        client.post("/api/organizations/", {"name": "x"})
    assert client.post("/api/organizations/", {"name": "x"}, resume=info.value) == {"id": "b"}
    assert waits == [info.value.resume_wait] and "HTTP 504; retrying" in client.retry_log[0]


def test_past_the_budget_an_ambiguous_write_cannot_be_resumed(server):
    server.script((504, None), (504, None))
    client, waits = make_client(server, retries=1)
    with pytest.raises(AmbiguousWrite) as first:
        client.post("/api/organizations/", {"name": "x"})
    with pytest.raises(AmbiguousWrite) as second:
        client.post("/api/organizations/", {"name": "x"}, resume=first.value)
    assert second.value.resume_wait is None and second.value.attempt == 1
    assert str(second.value.spent()).endswith("Gave up after 1 retries.")


def test_post_or_refind_returns_what_the_look_up_finds(server):
    server.script((504, None))
    client, dummy = make_client(server)
    found = post_or_refind(client, "/api/organizations/", {"name": "x"}, lambda: {"id": "created-before-timeout"})
    assert found == {"id": "created-before-timeout"}
    assert len(server.requests) == 1


def test_post_or_refind_posts_again_when_the_look_up_finds_nothing(server):
    server.script((504, None), (201, {"id": "b"}))
    client, dummy = make_client(server)
    assert post_or_refind(client, "/api/organizations/", {"name": "x"}, lambda: None) == {"id": "b"}
    assert [r["method"] for r in server.requests] == ["POST", "POST"]


def test_post_or_refind_gives_up_with_the_budget(server):
    server.script(*[(502, None)] * 3)
    client, dummy = make_client(server, retries=2)
    looked = []
    with pytest.raises(PostHogError) as info:
        post_or_refind(client, "/api/organizations/", {"name": "x"}, lambda: looked.append(1))
    assert len(server.requests) == 3 and len(looked) == 3
    assert not isinstance(info.value, AmbiguousWrite) and str(info.value).endswith("Gave up after 2 retries.")


def test_post_or_refind_without_a_look_up_is_a_post(server):
    server.script((502, None), (201, {"id": "dup"}))
    client, dummy = make_client(server)
    with pytest.raises(AmbiguousWrite):
        post_or_refind(client, "/api/organizations/", {"name": "x"}, None)
    assert len(server.requests) == 1


def test_connection_refused_on_this_machine_fails_at_once_naming_host():
    """Nothing listens on a loopback port: waiting will not help (five retries took 13-15 s), and the
    message names host and POSTHOG_HOST, and the address tried, instead of urllib3's text."""
    waits = []
    client = PostHogClient(host="http://127.0.0.1:9", api_key=KEY, retries=2, sleep=waits.append, timeout=2)
    started = time.monotonic()
    with pytest.raises(PostHogError) as info:
        client.post("/api/organizations/", {"name": "x"})
    message = str(info.value)
    assert waits == [] and time.monotonic() - started < 2
    assert message.startswith("POST /api/organizations/ failed: could not connect to http://127.0.0.1:9: nothing "
                              "accepts connections on 127.0.0.1 port 9 (connection refused). Check host (the task's "
                              "option, or POSTHOG_HOST in the environment)")
    assert "NewConnectionError" not in message and "Max retries" not in message and KEY not in message


class ConnectFailingSession:
    """A requests session whose every request fails to connect with ``text`` (urllib3's wording)."""

    def __init__(self, text):
        self.text = text
        self.headers = {}
        self.verify = None
        self.calls = 0

    def request(self, method, url, **kwargs):
        import requests

        self.calls += 1
        raise requests.exceptions.ConnectionError(self.text)


RESOLVE = ("HTTPSConnectionPool(host='posthog.exmaple.com', port=443): Max retries exceeded with url: /api/x/ "
           "(Caused by NameResolutionError(\"<urllib3.connection.HTTPSConnection object>: Failed to resolve "
           "'posthog.exmaple.com' ([Errno %s] %s)\"))")
REFUSED = ("HTTPSConnectionPool(host='posthog.exmaple.com', port=443): Max retries exceeded with url: /api/x/ "
           "(Caused by NewConnectionError('<urllib3.connection.HTTPSConnection object>: Failed to establish a new "
           "connection: [Errno 111] Connection refused'))")


@pytest.mark.parametrize("text, calls, words", [
    (RESOLVE % (-2, "Name or service not known"), 1, "the name posthog.exmaple.com does not resolve"),
    (RESOLVE % (-3, "Temporary failure in name resolution"), 2,
     "the name posthog.exmaple.com could not be resolved (no answer from DNS)"),
    (REFUSED, 4, "nothing accepts connections on posthog.exmaple.com port 443 (connection refused)"),
])
def test_a_connection_failure_names_host_and_what_was_tried(text, calls, words):
    """A name that does not exist fails at once; DNS that does not answer is retried once; a remote
    refusal (a server restarting) keeps its retries. Each ends naming host and the address tried."""
    session, waits = ConnectFailingSession(text), []
    client = PostHogClient(host="https://posthog.exmaple.com", api_key=KEY, retries=3, session=session,
                           sleep=waits.append)
    with pytest.raises(PostHogError) as info:
        client.get("/api/x/")
    message = str(info.value)
    assert session.calls == calls and len(waits) == calls - 1
    assert "could not connect to https://posthog.exmaple.com: %s. Check host" % words in message
    assert "POSTHOG_HOST" in message and "Max retries" not in message and "Errno" not in message


def test_pagination_follows_next_on_same_origin(server):
    server.script(
        (200, {"count": 3, "next": server.url + "/api/orgs/?limit=2&offset=2", "previous": None,
               "results": [{"id": 1}, {"id": 2}]}),
        (200, {"count": 3, "next": None, "previous": server.url + "/api/orgs/?limit=2", "results": [{"id": 3}]}),
    )
    client, dummy = make_client(server)
    assert [o["id"] for o in client.paginate("/api/orgs/", page_size=2)] == [1, 2, 3]
    assert server.requests[0]["path"] == "/api/orgs/?limit=2"
    assert server.requests[1]["path"] == "/api/orgs/?limit=2&offset=2"


def test_pagination_refuses_foreign_next(server):
    server.script((200, {"count": 4, "next": "http://evil.example:%s/steal?offset=2" % server.url.rsplit(":", 1)[1],
                         "previous": None, "results": [{"id": 1}]}))
    client, dummy = make_client(server)
    items = []
    with pytest.raises(PostHogError) as info:
        for item in client.paginate("/api/orgs/"):
            items.append(item)
    assert items == [{"id": 1}]
    assert "another origin" in str(info.value)
    assert len(server.requests) == 1


@pytest.mark.parametrize("next_url", ["https://127.0.0.1:{port}/api/o/?offset=1", "http://127.0.0.1:1/api/o/?offset=1"])
def test_pagination_refuses_other_scheme_or_port(server, next_url):
    port = server.url.rsplit(":", 1)[1]
    server.script((200, {"next": next_url.format(port=port), "results": []}))
    client, dummy = make_client(server)
    with pytest.raises(PostHogError):
        list(client.paginate("/api/o/"))


def test_unpaginated_list_is_accepted(server):
    server.script((200, [{"id": 1}, {"id": 2}]))
    client, dummy = make_client(server)
    assert len(client.list_all("/api/members/")) == 2


def test_error_carries_posthog_fields_and_hint(server):
    server.script((403, {"type": "authentication_error", "code": "permission_denied",
                         "detail": "API key missing required scope 'batch_export:write'", "attr": None}))
    client, dummy = make_client(server)
    with pytest.raises(PostHogError) as info:
        client.post("/api/organizations/@current/batch_exports/", {"name": "x"})
    err = info.value
    assert (err.method, err.path, err.status, err.type, err.code, err.attr) == (
        "POST", "/api/organizations/@current/batch_exports/", 403, "authentication_error", "permission_denied", None)
    assert err.missing_scope == "batch_export:write"
    assert "batch_export:write" in str(err) and "Personal API keys" in str(err)


def test_validation_error_names_the_field(server):
    server.script((400, {"type": "validation_error", "code": "required", "detail": "This field is required.",
                         "attr": "name"}))
    client, dummy = make_client(server)
    with pytest.raises(PostHogError) as info:
        client.post("/api/organizations/", {})
    assert "[field: name]" in str(info.value)
    assert info.value.to_dict()["attr"] == "name"


def test_401_hint_and_key_never_in_message(server):
    # A hostile or buggy server echoing the key back must not make us print it.
    server.script((401, {"type": "authentication_error", "code": "authentication_failed",
                         "detail": "Personal API key %s is invalid." % KEY, "attr": None}))
    client, dummy = make_client(server)
    with pytest.raises(PostHogError) as info:
        client.get("/api/organizations/")
    text = str(info.value) + repr(info.value.to_dict())
    assert KEY not in text
    assert "POSTHOG_API_KEY" in text


def test_redirect_is_not_followed(server):
    server.script((301, None, {"Location": "http://elsewhere.example/api/"}))
    client, dummy = make_client(server)
    with pytest.raises(PostHogError) as info:
        client.get("/api/organizations")
    assert len(server.requests) == 1
    assert "redirect" in str(info.value)


def test_delete_404_is_done(server):
    server.script((404, {"type": "invalid_request", "code": "not_found", "detail": "Not found.", "attr": None}))
    client, dummy = make_client(server)
    assert client.delete("/api/x/1/") is None


def test_missing_key_and_bad_host_fail_early():
    with pytest.raises(PostHogError) as info:
        PostHogClient(host="http://127.0.0.1:1", api_key="")
    assert "POSTHOG_API_KEY" in str(info.value)
    with pytest.raises(PostHogError):
        PostHogClient(host="ftp://example.com", api_key=KEY)


def test_backoff_grows_and_is_capped():
    assert backoff_delay(0, rng=lambda: 0.0) == 0.25
    assert backoff_delay(3, rng=lambda: 1.0) == 4.0
    assert backoff_delay(20, rng=lambda: 1.0) == 30.0


class TLSFailingSession:
    """Stands in for requests.Session: every request fails the TLS handshake with ``reason``."""

    def __init__(self, reason):
        self.reason = reason
        self.headers = {}
        self.verify = None
        self.calls = []

    def request(self, method, url, **kwargs):
        import requests

        self.calls.append(dict(kwargs, method=method, url=url))
        raise requests.exceptions.SSLError(
            "HTTPSConnectionPool(host='127.0.0.1', port=8443): Max retries exceeded with url: /api/x/ "
            "(Caused by SSLError(SSLCertVerificationError(1, '[SSL: %s] %s (_ssl.c:1006)')))" % self.reason)


UNTRUSTED = ("CERTIFICATE_VERIFY_FAILED", "certificate verify failed: unable to get local issuer certificate")


def test_untrusted_certificate_fails_at_once_and_says_what_to_do():
    session = TLSFailingSession(UNTRUSTED)
    waits = []
    client = PostHogClient(host="https://127.0.0.1:8443", api_key=KEY, session=session, sleep=waits.append)
    with pytest.raises(PostHogError) as info:
        client.post("/api/x/", {"name": "n"})
    message = str(info.value)
    assert len(session.calls) == 1 and waits == []  # a certificate problem is not retried
    assert message.startswith("POST /api/x/ failed: the TLS certificate of https://127.0.0.1:8443 could not be "
                              "verified (certificate verify failed: unable to get local issuer certificate)")
    assert "set ca_path (or POSTHOG_CA_PATH)" in message and "validate_certs to false only for testing" in message
    assert KEY not in message


def test_untrusted_certificate_with_ca_path_names_the_file(tmp_path):
    bundle = tmp_path / "ca.pem"
    bundle.write_text("not used by the fake session")
    session = TLSFailingSession(UNTRUSTED)
    client = PostHogClient(host="https://127.0.0.1:8443", api_key=KEY, session=session, ca_path=str(bundle))
    with pytest.raises(PostHogError) as info:
        client.get("/api/x/")
    assert "ca_path (%s) does not hold the CA that signed it" % bundle in str(info.value)


def test_other_tls_failure_points_at_scheme_and_port():
    session = TLSFailingSession(("WRONG_VERSION_NUMBER", "wrong version number"))
    client = PostHogClient(host="https://127.0.0.1:8443", api_key=KEY, session=session, sleep=lambda s: None)
    with pytest.raises(PostHogError) as info:
        client.get("/api/x/")
    assert "TLS handshake with https://127.0.0.1:8443 failed (wrong version number)" in str(info.value)
    assert "(https:// or http://) and port" in str(info.value)
    assert len(session.calls) == 1


def test_missing_ca_path_fails_early(tmp_path):
    with pytest.raises(PostHogError) as info:
        PostHogClient(host="https://127.0.0.1:8443", api_key=KEY, ca_path=str(tmp_path / "missing.pem"))
    assert "ca_path %s does not exist" % (tmp_path / "missing.pem") in str(info.value)
    # validate_certs=false makes ca_path irrelevant
    PostHogClient(host="https://127.0.0.1:8443", api_key=KEY, ca_path=str(tmp_path / "missing.pem"),
                  validate_certs=False)


@pytest.mark.parametrize("validate_certs, use_ca_path", [(False, False), (True, True)])
def test_verify_is_sent_with_every_request_so_env_bundles_cannot_override_it(
        server, tmp_path, monkeypatch, validate_certs, use_ca_path):
    import requests

    bundle = tmp_path / "ca.pem"
    bundle.write_text("x")
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", "/etc/ssl/certs/somewhere-else.pem")
    monkeypatch.setenv("CURL_CA_BUNDLE", "/etc/ssl/certs/somewhere-else.pem")
    expected = str(bundle) if use_ca_path else False
    client = PostHogClient(host=server.url, api_key=KEY, validate_certs=validate_certs,
                           ca_path=str(bundle) if use_ca_path else None)
    sent = []
    real_request = client.session.request

    def spy(method, url, **kwargs):
        sent.append(kwargs.get("verify"))
        return real_request(method, url, **kwargs)

    client.session.request = spy
    server.script((200, {"ok": True}))
    client.get("/api/x/")
    assert sent == [expected]
    # what requests does with it: the request-level value wins over the environment's bundle
    merged = requests.Session().merge_environment_settings(server.url, {}, None, sent[0], None)
    assert merged["verify"] == expected


def test_the_read_cache_is_scoped_by_a_context_manager(server):
    """Inside ``with client.reads_remembered():`` a GET made once is answered from memory, as a copy, until
    a write touches its path; on the way out (an error too) the cache is off and forgotten."""
    server.script((200, {"id": 1, "name": "a"}), (200, {"results": [], "next": None}), (200, {"id": 1}),
                  (200, {"id": 1, "name": "b"}), (200, {"id": 1, "name": "c"}))
    client, dummy = make_client(server)
    with client.reads_remembered():
        first = client.get("/api/x/1/")
        first["name"] = "changed by the caller"
        assert client.get("/api/x/1/") == {"id": 1, "name": "a"}
        client.list_all("/api/x/")
        assert client.memo is not None and len(client.memo) == 2
        client.patch("/api/x/1/", {"name": "b"})  # drops the object and the collection above it
        assert client.memo == {}
        assert client.get("/api/x/1/") == {"id": 1, "name": "b"}
    assert client.memo is None
    with pytest.raises(RuntimeError):
        with client.reads_remembered():
            raise RuntimeError("inside")
    assert client.memo is None
    assert client.get("/api/x/1/") == {"id": 1, "name": "c"}
    assert [r["method"] for r in server.requests] == ["GET", "GET", "PATCH", "GET", "GET"]
