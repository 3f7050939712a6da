"""Managed reverse proxies (docs/posthog_facts.md §10.6; ``posthog/api/proxy_record.py`` and the
``create-proxy`` workflow), their pretend provisioning through ``/_emulator/dns`` CNAME records,
and ``/_emulator/proxy_records/<id>``."""

import hashlib

import pytest

from posthog_emulator.models import ProxyRecord
from tests.conftest import authed, error
from tests.reference_schema import assert_matches

LIST = "/api/organizations/{organization_id}/proxy_records/"
DETAIL = "/api/organizations/{organization_id}/proxy_records/{id}/"


def url(suffix=""):
    return f"/api/organizations/@current/proxy_records/{suffix}"


def create(api, domain="e.example.com"):
    response = api.post(url(), {"domain": domain}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def cname(client, name, value):
    response = client.post("/_emulator/dns", {"name": name, "type": "CNAME", "value": value}, format="json")
    assert response.status_code in (200, 201), response.content
    return response


def test_create_shape_and_target(api, boot):
    record = assert_matches(create(api), LIST, "post", "201")
    digest = hashlib.sha256(f"{boot.organization.id}e.example.com".encode()).hexdigest()[:20]
    assert record["target_cname"] == f"{digest}.proxy.posthog-emulator.test"
    assert record["status"] == "waiting" and record["message"] is None
    assert record["created_by"] == boot.user.id and record["domain"] == "e.example.com"


def test_list_is_not_paginated(api, boot):
    first, second = create(api, "a.example.com"), create(api, "b.example.com")
    body = assert_matches(api.get(url()).json(), LIST)
    assert set(body) == {"results", "max_proxy_records"} and body["max_proxy_records"] == 2
    assert [r["id"] for r in body["results"]] == [second["id"], first["id"]]  # newest first


def test_provisioning_follows_the_cname(api, boot, client):
    record = create(api)
    assert api.get(url(f"{record['id']}/")).json()["status"] == "waiting"  # no CNAME yet
    cname(client, "e.example.com", "elsewhere.example.net")
    assert api.get(url(f"{record['id']}/")).json()["status"] == "waiting"  # the wrong target: PostHog retries
    cname(client, "E.Example.com.", record["target_cname"] + ".")  # replaces the CNAME
    assert [r["type"] for r in client.get("/_emulator/dns", {"name": "e.example.com"}).json()] == ["CNAME"]
    assert api.get(url()).json()["results"][0]["status"] == "issuing"
    valid = assert_matches(api.get(url(f"{record['id']}/")).json(), DETAIL)
    assert (valid["status"], valid["message"]) == ("valid", "")
    assert api.get(url(f"{record['id']}/")).json()["status"] == "valid"


def test_waiting_times_out_after_seven_days(api, boot, client):
    record = create(api)
    client.post("/_emulator/clock", {"advance_days": 8}, format="json")
    assert api.get(url(f"{record['id']}/")).json()["status"] == "timed_out"
    retried = api.post(url(f"{record['id']}/retry/"), format="json")
    assert retried.status_code == 200 and retried.json()["status"] == "waiting"
    refused = api.post(url(f"{record['id']}/retry/"), format="json")
    assert refused.status_code == 400 and refused.json() == {"detail": "Cannot retry proxy in waiting state."}


def test_delete_at_once_or_through_deleting(api, boot, client):
    waiting = create(api, "w.example.com")
    response = api.delete(url(f"{waiting['id']}/"))
    assert (response.status_code, response.json()) == (200, {"success": True})
    assert not ProxyRecord.objects.filter(id=waiting["id"]).exists()
    valid = create(api, "v.example.com")
    cname(client, "v.example.com", valid["target_cname"])
    api.get(url(f"{valid['id']}/"))
    api.get(url(f"{valid['id']}/"))
    assert api.delete(url(f"{valid['id']}/")).json() == {"success": True}
    assert [r["status"] for r in api.get(url()).json()["results"]] == ["deleting"]
    assert api.get(url()).json()["results"] == []  # the delete workflow finished
    assert api.get(url(f"{valid['id']}/")).status_code == 404


def test_limits_and_validation(api, boot, client):
    create(api, "a.example.com")
    duplicate = api.post(url(), {"domain": "a.example.com"}, format="json")
    assert (error(duplicate)["code"], error(duplicate)["detail"]) == ("unique", "proxy record with this domain already exists.")
    create(api, "b.example.com")
    full = api.post(url(), {"domain": "c.example.com"}, format="json")
    assert (full.status_code, full.json()) == (400, {"detail": "Maximum of 2 proxy records per organization."})
    client.put("/_emulator/organizations/emulator-org/features",
               {"features": [{"key": "managed_reverse_proxy", "limit": 3}]}, format="json")
    create(api, "c.example.com")
    assert api.get(url()).json()["max_proxy_records"] == 3
    assert error(api.post(url(), {"domain": "x" * 65}, format="json"))["attr"] == "domain"
    assert error(api.post(url(), {}, format="json"))["detail"] == "This field is required."


def test_no_update_unknown_ids_and_levels(api, boot, make_key):
    record = create(api)
    assert api.patch(url(f"{record['id']}/"), {"domain": "f.example.com"}, format="json").status_code == 405
    assert api.get(url("not-a-uuid/")).status_code == 404
    assert api.delete(url("0190a3f4-0000-7000-8000-000000000001/")).status_code == 404
    key, _ = make_key("member@example.com", level="member")
    member = authed(key)
    assert member.get(url()).status_code == 200
    refused = member.post(url(), {"domain": "m.example.com"}, format="json")
    assert error(refused)["detail"] == "Your organization access level is insufficient."
    assert member.delete(url(f"{record['id']}/")).status_code == 403


@pytest.mark.parametrize("status", ["erroring", "warning"])
def test_control_endpoint_sets_a_state(api, boot, client, status):
    record = create(api)
    response = client.patch(f"/_emulator/proxy_records/{record['id']}",
                            {"status": status, "message": "create_managed_proxy: invalid argument"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == status
    shown = api.get(url(f"{record['id']}/")).json()
    assert (shown["status"], shown["message"]) == (status, "create_managed_proxy: invalid argument")
    assert client.patch(f"/_emulator/proxy_records/{record['id']}", {"status": "bogus"},
                        format="json").status_code == 400
    assert client.get("/_emulator/proxy_records/nope").status_code == 404
