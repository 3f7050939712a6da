"""Hardening: odd requests answer a client error in PostHog's shape, never a 5xx."""

import json

import pytest

from posthog_emulator import requestlog
from posthog_emulator.limits import MAX_PAGE
from posthog_emulator.models import Organization
from tests.conftest import error
from tests.live import live_server

DEEP = "[" * 100_000 + "]" * 100_000
BIG = json.dumps({"name": "x" * (25 * 1024 * 1024)})


@pytest.mark.parametrize("body", [DEEP, '{"name": ' + DEEP + "}"])
def test_deeply_nested_json_on_the_api_is_400(api, body):
    response = api.generic("POST", "/api/organizations/", body, content_type="application/json")
    assert response.status_code == 400
    assert error(response) == {"type": "invalid_request", "code": "parse_error",
                               "detail": "JSON parse error - nesting too deep", "attr": None}


def test_deeply_nested_json_on_the_control_api_is_400(client, boot):
    response = client.generic("POST", "/_emulator/keys", DEEP, content_type="application/json")
    assert response.status_code == 400
    assert error(response)["code"] == "parse_error"


@pytest.mark.parametrize("method, path", [("POST", "/api/organizations/"), ("PATCH", "/api/organizations/@current/"),
                                          ("POST", "/_emulator/keys")])
def test_a_body_over_20_mb_is_413(api, method, path):
    response = api.generic(method, path, BIG, content_type="application/json")
    assert response.status_code == 413
    assert error(response) == {"type": "invalid_request", "code": "payload_too_large",
                               "detail": "Request body exceeded the maximum size of 20 MB.", "attr": None}
    assert not Organization.objects.filter(name__startswith="xxx").exists()
    if path.startswith("/api/"):
        assert requestlog.entries() == [{"method": method, "path": path, "query": "", "status": 413}]


@pytest.mark.parametrize("query", ["limit=99999999999999999999999", "offset=99999999999999999999999",
                                   "limit=99999999999999999999999&offset=99999999999999999999999"])
def test_huge_limit_and_offset_are_clamped(api, query):
    response = api.get(f"/api/organizations/?{query}")
    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 1 and body["next"] is None
    if "offset" not in query:
        assert len(body["results"]) == 1
    else:
        assert body["results"] == [] and body["previous"].startswith("http://testserver/api/organizations/?limit=")
    if query.startswith("offset"):
        assert body["previous"].endswith(f"offset={MAX_PAGE - 100}")


def test_huge_limit_on_event_definitions(api, boot, client):
    client.post(f"/_emulator/projects/{boot.project.id}/events", {"events": ["a", "b"]}, format="json")
    response = api.get("/api/projects/@current/event_definitions/?limit=99999999999999999999999")
    assert response.status_code == 200 and response.json()["count"] == 2


@pytest.mark.parametrize("query", ["limit=99999999999999999999999", "page=99999999999999999999999"])
def test_huge_activity_pages(api, boot, query):
    boot.organization.plugins_access_level = 6
    boot.organization.save()
    response = api.get(f"/api/organizations/@current/pipeline_destinations/activity/?{query}")
    assert response.status_code == 200 and response.json()["results"] == []


@pytest.mark.parametrize(
    "path, body, attr",
    [
        ("/_emulator/keys", {"email": "a\u0000@example.com"}, "email"),
        ("/_emulator/keys", {"email": "a@example.com", "organization": "x\u0000y"}, "organization"),
        ("/_emulator/dns", {"name": "_posthog-challenge.a\u0000.com", "value": "v"}, "name"),
        ("/_emulator/projects/1/events", {"events": ["ok", "bad\u0000"]}, "events__1"),
        ("/_emulator/keys", {"email": "a@example.com", "sc\u0000opes": []}, "non_field_errors"),
    ],
)
def test_nul_bytes_in_control_input_are_400(client, boot, path, body, attr):
    response = client.post(path, body, format="json")
    assert response.status_code == 400
    assert error(response) == {"type": "validation_error", "code": "null_characters_not_allowed",
                               "detail": "Null characters are not allowed.", "attr": attr}


def test_nul_bytes_in_control_paths_and_queries_are_400(client, boot):
    assert client.get("/_emulator/dns?name=a%00b").status_code == 400
    assert client.get("/_emulator/organizations/a%00b/taxonomy").status_code == 400


def test_the_real_server_answers_413_and_keeps_serving(tmp_path):
    import http.client

    key = "phx_" + "l" * 40
    with live_server(tmp_path / "db.sqlite3", key) as live:
        host, port = live.url.rsplit("/", 1)[1].split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=60)
        headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
        connection.request("POST", "/api/organizations/", body=BIG.encode(), headers=headers)
        response = connection.getresponse()
        assert response.status == 413 and json.loads(response.read())["code"] == "payload_too_large"
        connection.request("GET", "/api/organizations/", headers=headers)  # same connection
        assert connection.getresponse().status == 200
        status, body = live.call("/api/organizations/", "POST", None)
        assert status == 400
