# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The real modules and inventory plugin against a hostile or broken server (hostile.py) and a bad
API key: where the key goes, what the output shows at -vvvv, and that every task ends in time.

    make collection && BUILD=build .venv/bin/python -m pytest -p no:cacheprovider -q tests/reliability -k hostile
"""

import json
import time

import pytest

import harness
import hostile

PEM = ("-----BEGIN PRIVATE KEY-----\n"
       "MIIEvgIBADANBgkqhkiG9w0BAQEFAASCBKgwggSkAgEAAoIBAQDReliabilityAAA\n"
       "Hostile0ServerEchoesThisKeyBackJsonEscaped0000000000000000000000\n"
       "NoLineOfItMayAppearInTheOutputOrTheLogAtVVVV00000000000000000000\n"
       "-----END PRIVATE KEY-----\n")
BIGQUERY = {"type": "BigQuery", "config": {
    "project_id": "reliability-project", "dataset_id": "events", "private_key": PEM,
    "private_key_id": "reliability-private-key-id-0004", "token_uri": "https://oauth2.googleapis.com/token",
    "client_email": "exporter@reliability-project.iam.gserviceaccount.com"}}
ORGS = "/api/organizations/?limit=500"


@pytest.fixture(autouse=True)
def fresh():
    """These tests need no emulator (this replaces conftest's reset of it)."""
    yield


@pytest.fixture
def server():
    srv = hostile.HostileServer()
    yield srv
    srv.stop()


@pytest.fixture
def other():
    """Where a hostile link would like the key to go: records whether it ever got an Authorization header."""
    srv = hostile.HostileServer()
    srv.answer = hostile.empty_page
    yield srv
    srv.stop()


STATE = "posthog.admin.organization_state"


def both_ways(args, **more):
    """organization_state's task twice: in the controller's worker, then as a module process (its action
    plugin decides: harness.WORKER and harness.MODULE_PROCESS)."""
    return [dict(more, module=STATE, args=args, vars=harness.WORKER),
            dict(more, module=STATE, args=args, vars=harness.MODULE_PROCESS)]


def results_of(run, count):
    assert run.returncode == 0, run.explain()
    assert len(run.results) == count, run.explain()
    return [run.results["r%d" % n] for n in range(count)]


def failed_with(result):
    assert result.get("failed"), result
    message = result.get("msg", "")
    assert "Traceback" not in message and "MODULE FAILURE" not in message, message
    return message


def inventory_output(run):
    return run.stdout + run.stderr


# ---------------------------------------------------------------- 1. a next link with a backslash
def backslash_page(server, other):
    link = "http://127.0.0.1:%d\\@127.0.0.1:%d/api/organizations/?limit=500&offset=1" % (other.port, server.port)
    return lambda request: (200, {"count": 2, "next": link, "previous": None,
                                  "results": [{"id": "o1", "name": "First", "slug": "first"}]})


def test_hostile_backslash_next_never_sends_the_key_elsewhere(server, other, tmp_path):
    server.answer = backslash_page(server, other)
    run = harness.play(str(tmp_path / "module"), server, [
        {"module": "posthog.admin.organization_info", "args": {}},
        {"module": "posthog.admin.member_info", "args": {"organization": "first"}},  # resolves the slug by listing
    ] + both_ways({"definition": {"name": "First"}}), timeout=120)
    for result in results_of(run, 4):
        message = failed_with(result)
        assert ("Refusing to follow a pagination link that holds a backslash (HTTP libraries disagree on which "
                "host such a link names); the API key is only ever sent to %s" % server.url) in message, message
    inventory = harness.inventory(str(tmp_path / "inventory"), server, {}, timeout=120)
    assert "Refusing to follow a pagination link that holds a backslash" in inventory_output(inventory), \
        inventory.explain()
    assert not inventory.results.get("posthog_organizations")
    assert other.requests == [] and other.authorized() == [], "the key went to the other listener"
    assert len(server.requests) == 5


# ---------------------------------------------------------------- 2. an api_key ending in a newline
def test_hostile_api_key_with_trailing_newline_is_named_not_printed(server, tmp_path):
    shim = hostile.Shim(server, server.key + "\n")  # as a block scalar or a vault value leaves it
    run = harness.play(str(tmp_path / "module"), shim, [
        {"module": "posthog.admin.organization_info", "args": {}},
        {"module": "posthog.admin.organization", "args": {"name": "Never created"}},
    ] + both_ways({"definition": {"name": "Never created"}}), verbosity=4, env={"ANSIBLE_PIPELINING": "false"},
        timeout=120)
    assert harness.RAN_IN_WORKER in run.stdout and harness.RAN_AS_MODULE_PROCESS in run.stdout
    for result in results_of(run, 4):
        message = failed_with(result)
        assert message.startswith("api_key contains whitespace or control characters (it ends with a newline); "
                                  "a personal API key is a single word"), message
        assert "'|-' or '>-'" in message and "| trim" in message, message
    inventory = harness.inventory(str(tmp_path / "inventory"), shim, {}, verbosity=4, timeout=120)
    assert ("posthog.admin.organizations: api_key contains whitespace or control characters (it ends with a "
            "newline)") in inventory_output(inventory), inventory.explain()
    for text in (run.everything, inventory.everything):
        assert server.key not in text and server.key[4:24] not in text, "the key was printed"
        assert "Invalid leading whitespace" not in text and "InvalidHeader" not in text
    assert server.requests == [], "a request was sent with a broken key"


# ---------------------------------------------------------------- 3. a 400 echoing the request body
def echo_400(request):
    if request["method"] == "GET":
        return hostile.empty_page(request)
    # PostHog-style validation error quoting the body it got: the key comes back JSON-escaped
    return 400, {"type": "validation_error", "code": "invalid_input",
                 "detail": "Invalid destination configuration: %s" % request["body"], "attr": "destination"}


def test_hostile_echoed_multiline_secret_never_appears_at_vvvv(server, tmp_path):
    server.answer = echo_400
    run = harness.play(str(tmp_path), server, [
        {"module": "posthog.admin.batch_export",
         "args": {"name": "To BigQuery", "interval": "hour", "retries": 0, "destination": BIGQUERY}},
    ], verbosity=4, env={"ANSIBLE_PIPELINING": "false"}, timeout=120)
    (result,) = results_of(run, 1)
    message = failed_with(result)
    assert "failed with HTTP 400 (validation_error/invalid_input): Invalid destination configuration: " in message
    assert '"private_key": "********"' in message, message
    posts = [r for r in server.requests if r["method"] == "POST"]
    assert len(posts) == 1 and json.dumps(PEM)[1:-1] in posts[0]["body"], "the server was not sent the key"
    assert "<localhost> ESTABLISH LOCAL CONNECTION" in run.stdout, "not verbose enough to prove anything"
    text = run.everything
    assert run.log.strip(), "ANSIBLE_LOG_PATH stayed empty"
    for form in (PEM, json.dumps(PEM)[1:-1], repr(PEM)[1:-1]):
        assert form not in text
    for line in PEM.splitlines():
        assert line not in text, "a line of the private key appears: %s..." % line[:12]
    for secret in ("reliability-private-key-id-0004", "exporter@reliability-project.iam.gserviceaccount.com",
                   server.key):
        assert secret not in text


# ---------------------------------------------------------------- 5. a next link that repeats forever
def test_hostile_repeating_next_ends_at_once(server, tmp_path):
    server.answer = lambda request: (200, {"count": 1000, "next": server.url + ORGS, "previous": None,
                                           "results": [{"id": "o1", "name": "Loop", "slug": "loop"}]})
    run = harness.play(str(tmp_path / "module"), server, [{"module": "posthog.admin.organization_info", "args": {}}]
                       + both_ways({"definition": {"name": "Loop"}}), timeout=120)
    result, worker, module_process = results_of(run, 3)
    assert failed_with(result) == ("listing organizations: GET %s pagination did not end: page 2 repeats page 1 "
                                   "(%s); the server's next links go round in a loop" % (ORGS, ORGS))
    for state in (worker, module_process):
        assert ("GET %s pagination did not end: page 2 repeats page 1 (%s); the server's next links go round in a "
                "loop" % (ORGS, ORGS)) in failed_with(state)
    inventory = harness.inventory(str(tmp_path / "inventory"), server, {}, timeout=120)
    assert "pagination did not end: page 2 repeats page 1" in inventory_output(inventory), inventory.explain()
    assert len(server.requests) == 4, "pages were read again and again"  # one a task, one the inventory
    assert run.elapsed < 60 and inventory.elapsed < 60


def test_hostile_endless_next_links_stop_at_the_count(server, tmp_path):
    def answer(request):
        offset = int(request["path"].rsplit("offset=", 1)[1]) if "offset=" in request["path"] else 0
        return 200, {"count": 3, "next": "%s/api/organizations/?limit=1&offset=%d" % (server.url, offset + 1),
                     "previous": None, "results": [{"id": "o%d" % offset, "name": "O", "slug": "o%d" % offset}]}

    server.answer = answer
    run = harness.play(str(tmp_path), server, [{"module": "posthog.admin.organization_info", "args": {}}],
                       timeout=120)
    # organization_info asks for 500 a page, gets 1: 3 pages needed, 5 allowed with slack
    (result,) = results_of(run, 1)
    assert "pagination did not end: page 6 is more than the 5 pages that the first page's count (3 at 1 per " \
           "page) allows" in failed_with(result)
    assert len(server.requests) == 5


# ---------------------------------------------------------------- 6. a server trickling its answer
def test_hostile_trickling_answer_ends_at_the_timeout(server, tmp_path):
    server.answer = lambda request: (200, hostile.Trickle(interval=0.9))
    run = harness.play(str(tmp_path / "module"), server, [
        {"module": "posthog.admin.organization_info", "args": {"timeout": 2, "retries": 0}},
        {"module": "posthog.admin.organization_info", "args": {"timeout": 2, "retries": 1}},
    ] + both_ways({"definition": {"name": "Slow"}, "timeout": 2, "retries": 0}), timeout=120)
    first, second, worker, module_process = results_of(run, 4)
    assert failed_with(first) == "GET %s failed: no complete answer within timeout (2 s)" % ORGS
    assert failed_with(second) == ("GET %s failed: no complete answer within timeout (2 s). Gave up after 1 "
                                   "retries." % ORGS)
    for state in (worker, module_process):
        assert "GET %s failed: no complete answer within timeout (2 s)" % ORGS in failed_with(state)
    inventory = harness.inventory(str(tmp_path / "inventory"), server, {"timeout": 2, "retries": 0}, timeout=120)
    assert "no complete answer within timeout (2 s)" in inventory_output(inventory), inventory.explain()
    assert len(server.requests) == 6
    # the client hung up on every trickle at its deadline (before: 120 s for one task)
    for request, hangup in zip(server.requests, sorted(server.hangups)):
        assert hangup - request["at"] < 3.0, "an attempt outlived its timeout: %.1f s" % (hangup - request["at"])
    assert len(server.hangups) == 6
    assert run.elapsed < 60 and inventory.elapsed < 30


# ---------------------------------------------------------------- 7. list pages of the wrong shape
BAD_PAGES = [
    ((200, {"count": 4, "next": None, "previous": None, "results": "oops"}),
     "GET %s answered a list page whose 'results' is a string, not a list of objects" % ORGS),
    ((200, {"count": 4, "next": None, "previous": None, "results": ["o", "o", "p", "s"]}),
     "GET %s answered a list page whose 'results' holds a string at index 0, not an object" % ORGS),
    ((200, {"count": 1, "next": {"url": "x"}, "previous": None, "results": [{"id": "o1"}]}),
     "GET %s answered a list page whose 'next' is an object, not a URL or null" % ORGS),
    ((200, hostile.Raw("<!DOCTYPE html><html><body>Sign in</body></html>", "text/html")),
     "GET %s answered HTML where a list page was expected (a JSON object with a 'results' list)" % ORGS),
    ((200, {"detail": "ok"}),
     "GET %s answered an object without 'results' where a list page was expected" % ORGS),
]


def test_hostile_list_pages_of_the_wrong_shape_fail_clearly(server, tmp_path):
    server.answer = hostile.queue(*[answer for answer, dummy in BAD_PAGES])
    run = harness.play(str(tmp_path / "module"), server,
                       [{"module": "posthog.admin.organization_info", "args": {"retries": 0}} for dummy in BAD_PAGES],
                       timeout=120)
    for result, (dummy, expected) in zip(results_of(run, len(BAD_PAGES)), BAD_PAGES):
        message = failed_with(result)
        assert message == "listing organizations: %s; check that host points at PostHog's API" % expected, message
        assert "organizations" not in result or not result["organizations"]
    server.answer = hostile.queue(BAD_PAGES[1][0])
    inventory = harness.inventory(str(tmp_path / "inventory"), server, {"retries": 0}, timeout=120)
    assert BAD_PAGES[1][1] in inventory_output(inventory), inventory.explain()
    assert not inventory.results.get("posthog_organizations")


# ---------------------------------------------------------------- 8. garbage answers to a create
GARBAGE = [
    (201, hostile.Raw("<html><body>Created!</body></html>", "text/html"), "HTML"),
    (201, {}, "an empty object"),
    (201, [{"id": "x"}], "a list of 1"),
    (204, None, "no body"),
]


def test_hostile_garbage_create_answer_is_not_taken_for_the_object(server, tmp_path):
    creates = [(status, body) for status, body, dummy in GARBAGE]
    posts = hostile.queue(*creates)
    server.answer = lambda request: hostile.empty_page(request) if request["method"] == "GET" else posts(request)
    run = harness.play(str(tmp_path), server, [{"module": "posthog.admin.organization",
                                                "args": {"name": "Garbage %d" % n, "retries": 0}}
                                               for n in range(len(GARBAGE))], timeout=120)
    for result, (status, dummy, what) in zip(results_of(run, len(GARBAGE)), GARBAGE):
        message = failed_with(result)
        assert ("unexpected answer to POST /api/organizations/ (HTTP %d, %s); the object may have been created: "
                "check /api/organizations/ before running again" % (status, what)) in message, message


# ---------------------------------------------------------------- 9. next links that never repeat (issue 33)
def test_hostile_never_repeating_next_links_end_in_time(server, tmp_path):
    """A server that links to a new page forever, each answered in time, with a count that allows them
    all: every list ends after LIST_TIMEOUTS request timeouts (before: 9,073 requests in 400 s)."""
    def answer(request):
        time.sleep(0.05)
        offset = int(request["path"].rsplit("offset=", 1)[1]) if "offset=" in request["path"] else 0
        return 200, {"count": 10 ** 9, "next": "%s/api/organizations/?limit=500&offset=%d" % (server.url, offset + 500),
                     "previous": None, "results": [{"id": "o%d" % offset, "name": "O", "slug": "o%d" % offset}]}

    server.answer = answer
    run = harness.play(str(tmp_path / "module"), server, [
        {"module": "posthog.admin.organization_info", "args": {"timeout": 0.5, "retries": 0}},
    ] + both_ways({"definition": {"name": "Endless"}, "timeout": 0.5, "retries": 0}), timeout=120)
    for result in results_of(run, 3):
        assert "pagination did not end within 5 s (" in failed_with(result), result
    inventory = harness.inventory(str(tmp_path / "inventory"), server, {"timeout": 0.5, "retries": 0}, timeout=120)
    assert "pagination did not end within 5 s (" in inventory_output(inventory), inventory.explain()
    assert run.elapsed < 60 and inventory.elapsed < 30
    assert len(server.requests) < 4 * 120


# ---------------------------------------------------------------- 10. JSON nested too deep (issue 33)
def test_hostile_json_nested_too_deep_fails_clearly(server, tmp_path):
    deep = hostile.Raw("[" * 100000 + "]" * 100000)
    server.answer = lambda request: (200, deep)
    run = harness.play(str(tmp_path / "module"), server, [
        {"module": "posthog.admin.organization_info", "args": {"retries": 0}},
    ] + both_ways({"definition": {"name": "Deep"}, "retries": 0}), timeout=120)
    for result in results_of(run, 3):
        message = failed_with(result)
        assert "answered JSON nested deeper than 100 levels, which no PostHog answer is" in message, message
        assert "recursion" not in message
    inventory = harness.inventory(str(tmp_path / "inventory"), server, {"retries": 0}, timeout=120)
    assert "nested deeper than 100 levels" in inventory_output(inventory), inventory.explain()
    assert "recursion" not in inventory_output(inventory)
