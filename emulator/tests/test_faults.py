"""Fault injection: the /_emulator/faults control API and the request hook (DRF test client).

Dropping a real connection needs the real server: see test_server_reliability.py.
"""

import time

import pytest

from posthog_emulator import faults, requestlog
from posthog_emulator.models import Organization
from tests.conftest import error


@pytest.fixture(autouse=True)
def _no_rules():
    faults.clear()
    faults.set_seed(None)
    yield
    faults.clear()


def add(client, body, status=201):
    response = client.post("/_emulator/faults", body, format="json")
    assert response.status_code == status, response.content
    return response.json()


def log_statuses():
    return [(e["method"], e["path"], e["status"], e.get("fault")) for e in requestlog.entries()]


def test_no_rules_lets_everything_through(api, client):
    assert client.get("/_emulator/faults").json() == {"seed": None, "rules": []}
    assert api.get("/api/organizations/").status_code == 200
    assert requestlog.entries()[0] == {"method": "GET", "path": "/api/organizations/", "query": "", "status": 200}


def test_add_rule_defaults_and_counters(api, client):
    body = add(client, {"status": 503})
    assert body["rules"] == [
        {"id": body["rules"][0]["id"], "method": "*", "path": "/api/", "status": 503, "mode": "respond", "rate": 1.0,
         "times": None, "delay": 0.0, "retry_after": None, "body_wait": None, "matched": 0, "hits": 0}
    ]  # fmt: skip
    response = api.get("/api/organizations/")
    assert response.status_code == 503
    assert error(response) == {
        "type": "server_error", "code": "service_unavailable",
        "detail": "Service temporarily unavailable, try again later.", "attr": None,
    }  # fmt: skip
    assert not response.has_header("Retry-After")
    listed = client.get("/_emulator/faults").json()["rules"]
    assert (listed[0]["matched"], listed[0]["hits"]) == (1, 1)
    assert log_statuses() == [("GET", "/api/organizations/", 503, "respond")]


def test_respond_mode_does_not_run_the_view(api):
    faults.add_rules([faults.parse_rule({"method": "POST", "status": 500})])
    response = api.post("/api/organizations/", {"name": "Never"}, format="json")
    assert response.status_code == 500
    assert error(response) == {"type": "server_error", "code": "error", "detail": "A server error occurred.",
                               "attr": None}
    assert not Organization.objects.filter(name="Never").exists()
    assert api.get("/api/organizations/").status_code == 200  # GET does not match the POST rule


def test_throttled_bodies_and_retry_after(api, client):
    add(client, {"rules": [
        {"status": 429, "body_wait": 62, "times": 1},
        {"status": 429, "body_wait": 1, "times": 1},
        {"status": 429, "retry_after": 2, "times": 1},
        {"status": 429, "times": 1},
    ]})  # fmt: skip
    first = api.get("/api/organizations/")
    assert first.status_code == 429 and not first.has_header("Retry-After")
    assert error(first) == {"type": "throttled_error", "code": "throttled",
                            "detail": "Request was throttled. Expected available in 62 seconds.", "attr": None}
    assert api.get("/api/organizations/").json()["detail"] == "Request was throttled. Expected available in 1 second."
    header_only = api.get("/api/organizations/")
    assert header_only["Retry-After"] == "2" and header_only.json()["detail"] == "Request was throttled."
    assert api.get("/api/organizations/").json()["detail"] == "Request was throttled."
    assert api.get("/api/organizations/").status_code == 200  # every rule used its one time


def test_gateway_errors_are_html(api, client):
    add(client, {"rules": [{"status": 502, "times": 1}, {"status": 504, "times": 1, "retry_after": 5}]})
    bad_gateway = api.get("/api/organizations/")
    assert bad_gateway.status_code == 502 and bad_gateway["Content-Type"].startswith("text/html")
    assert b"502 Bad Gateway" in bad_gateway.content
    timeout = api.get("/api/organizations/")
    assert timeout.status_code == 504 and timeout["Retry-After"] == "5" and b"504" in timeout.content


def test_method_and_path_matching(api, client, boot):
    add(client, {"rules": [
        {"method": "PATCH", "path": r"/api/organizations/[0-9a-f-]{36}/?$", "status": 502},
        {"method": "delete", "path": "/api/organizations/", "status": 503},
    ]})  # fmt: skip
    detail = f"/api/organizations/{boot.organization.id}/"
    assert api.get(detail).status_code == 200
    assert api.patch(detail, {"name": "x"}, format="json").status_code == 502
    assert api.patch("/api/organizations/@current/", {"name": "Renamed"}, format="json").status_code == 200
    assert api.delete(detail).status_code == 503
    assert api.get("/api/projects/").status_code == 200
    rules = client.get("/_emulator/faults").json()["rules"]
    assert [(r["matched"], r["hits"]) for r in rules] == [(1, 1), (1, 1)]


def test_times_limits_the_faults(api, client):
    add(client, {"method": "GET", "status": 500, "times": 2})
    statuses = [api.get("/api/organizations/").status_code for _ in range(4)]
    assert statuses == [500, 500, 200, 200]
    rule = client.get("/_emulator/faults").json()["rules"][0]
    assert (rule["matched"], rule["hits"]) == (4, 2)


def test_rate_with_seed_is_reproducible(api, client):
    def run():
        add(client, {"rules": [{"status": 503, "rate": 0.3}], "seed": 1234})
        pattern = [api.get("/api/projects/").status_code for _ in range(40)]
        client.delete("/_emulator/faults")
        return pattern

    first, second = run(), run()
    assert first == second
    failures = first.count(503)
    assert 4 <= failures <= 20, failures  # about 30 % of 40
    assert set(first) == {200, 503}


def test_seed_alone_reseeds_and_put_replaces(api, client):
    add(client, {"status": 500})
    body = add(client, {"seed": "abc"})
    assert body == {"seed": "abc", "rules": []}
    assert len(client.get("/_emulator/faults").json()["rules"]) == 1
    replaced = client.put("/_emulator/faults", {"rules": [{"status": 502}, {"status": 503}]}, format="json")
    assert replaced.status_code == 200
    assert [r["status"] for r in replaced.json()["rules"]] == [502, 503]
    assert api.get("/api/organizations/").status_code == 502  # the first matching rule wins


def test_delay_only_adds_latency(api, client):
    add(client, {"delay": 0.3, "times": 1})
    started = time.monotonic()
    assert api.get("/api/organizations/").status_code == 200
    assert time.monotonic() - started >= 0.3
    assert requestlog.entries()[0]["status"] == 200 and "fault" not in requestlog.entries()[0]


def test_drop_after_commit_runs_the_view_and_logs_status_zero(api, client):
    add(client, {"method": "POST", "path": "/api/organizations", "mode": "drop_after_commit", "times": 1})
    api.post("/api/organizations/", {"name": "Committed"}, format="json")  # the test client has no socket to drop
    assert Organization.objects.filter(name="Committed").count() == 1
    assert requestlog.entries() == [
        {"method": "POST", "path": "/api/organizations/", "query": "", "status": 0, "fault": "dropped",
         "committed_status": 201}
    ]  # fmt: skip
    assert api.post("/api/organizations/", {"name": "Second"}, format="json").status_code == 201


@pytest.mark.parametrize("status", [500, 502, 503, 504])
def test_commit_then_status_commits_and_answers_the_5xx(api, client, status):
    add(client, {"method": "POST", "path": "^/api/organizations/?$", "mode": "commit_then_status",
                 "status": status, "times": 1})
    response = api.post("/api/organizations/", {"name": "Committed"}, format="json")
    assert response.status_code == status
    if status in (500, 503):
        assert error(response)["type"] == "server_error"
    else:
        assert response["Content-Type"].startswith("text/html")
    assert Organization.objects.filter(name="Committed").count() == 1  # the write happened
    assert requestlog.entries() == [
        {"method": "POST", "path": "/api/organizations/", "query": "", "status": status,
         "fault": "commit_then_status", "committed_status": 201}
    ]  # fmt: skip
    assert api.post("/api/organizations/", {"name": "Second"}, format="json").status_code == 201  # times: 1
    rule = client.get("/_emulator/faults").json()["rules"][0]
    assert (rule["mode"], rule["matched"], rule["hits"]) == ("commit_then_status", 2, 1)


def test_commit_then_status_after_a_refused_write_still_answers_the_5xx(api, client):
    """The view's own answer (here a 400) is replaced too: the client cannot tell what happened."""
    add(client, {"method": "POST", "mode": "commit_then_status", "status": 502, "times": 1})
    response = api.post("/api/organizations/", {"name": ""}, format="json")
    assert response.status_code == 502
    assert requestlog.entries()[0]["committed_status"] == 400
    assert not Organization.objects.filter(name="").exists()


def test_commit_then_status_with_retry_after(api, client):
    add(client, {"method": "DELETE", "mode": "commit_then_status", "status": 503, "retry_after": 2})
    domain = api.post("/api/organizations/@current/domains/", {"domain": "gone.example.com"}, format="json").json()
    response = api.delete(f"/api/organizations/@current/domains/{domain['id']}/")
    assert response.status_code == 503 and response["Retry-After"] == "2"
    assert api.get(f"/api/organizations/@current/domains/{domain['id']}/").status_code == 404


def test_delete_clears_and_reset_clears(api, client):
    add(client, {"status": 500})
    assert client.delete("/_emulator/faults").status_code == 204
    assert client.get("/_emulator/faults").json()["rules"] == []
    add(client, {"status": 500})
    assert client.post("/_emulator/reset", {}, format="json").status_code == 200
    assert client.get("/_emulator/faults").json()["rules"] == []
    assert faults.rules() == []


def test_control_api_is_never_faulted(client, boot):
    add(client, {"path": "/", "status": 500})
    assert client.get("/_emulator/info").status_code == 200


@pytest.mark.parametrize(
    "body, attr, detail",
    [
        ({"status": 418}, "status", "status must be one of 429, 500, 502, 503, 504."),
        ({"status": True}, "status", "status must be one of 429, 500, 502, 503, 504."),
        ({"status": 500, "method": "BREW"}, "method", None),
        ({"status": 500, "path": "("}, "path", None),
        ({"status": 500, "path": ""}, "path", None),
        ({"status": 500, "rate": 1.5}, "rate", "Must be between 0 and 1."),
        ({"status": 500, "rate": "often"}, "rate", "Expected a number."),
        ({"status": 500, "times": 0}, "times", "Must be at least 1."),
        ({"status": 500, "times": 1.5}, "times", "Expected an integer."),
        ({"status": 500, "delay": -1}, "delay", None),
        ({"status": 500, "body_wait": 3}, "body_wait", "body_wait only applies to status 429."),
        ({"status": 500, "mode": "explode"}, "mode", None),
        ({"status": 500, "mode": "drop_after_commit"}, "status", None),
        ({"mode": "commit_then_status"}, "status", "mode commit_then_status needs a status: one of 500, 502, 503, 504."),
        ({"mode": "commit_then_status", "status": 429}, "status", None),
        ({"method": "GET"}, "status", "A respond rule needs a status, or a delay to add latency."),
        ({"status": 500, "colour": "red"}, "colour", None),
        ({"rules": {"status": 500}}, "rules", "Expected a list of rules."),
        ({"rules": [{"status": 500}, {"status": 1}]}, "rules__1__status", None),
        ({"rules": ["x"]}, "rules__0", "Each rule must be a JSON object."),
        ({"rules": [], "other": 1}, "other", None),
        ({"seed": [1]}, "seed", "Expected an integer or a string."),
    ],
)
def test_invalid_rules_are_refused(client, boot, body, attr, detail):
    response = client.post("/_emulator/faults", body, format="json")
    assert response.status_code == 400, response.content
    body = error(response)
    assert body["type"] == "validation_error" and body["attr"] == attr
    if detail:
        assert body["detail"] == detail
    assert faults.rules() == []


def test_method_not_allowed(client, boot):
    response = client.patch("/_emulator/faults", {}, format="json")
    assert response.status_code == 405 and response["Allow"] == "GET, POST, PUT, DELETE"
