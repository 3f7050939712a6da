"""Hardening: cross-site control requests, DNS rebinding, and binding beyond loopback."""

import subprocess
import sys

import pytest

from posthog_emulator.models import Organization, PersonalAPIKey, hash_key_value
from tests.conftest import error
from tests.live import live_server

ATTACKER_KEY = "phx_" + "e" * 40


def test_cross_site_simple_request_cannot_reset(client, boot):
    """A page on another site posts text/plain to /_emulator/reset: refused, nothing wiped."""
    response = client.post(
        "/_emulator/reset", data=f'{{"api_key": "{ATTACKER_KEY}"}}', content_type="text/plain",
        HTTP_ORIGIN="https://evil.example",
    )  # fmt: skip
    assert response.status_code == 403
    assert error(response) == {
        "type": "authentication_error", "code": "cross_site_request", "attr": None,
        "detail": "Control requests from origin 'https://evil.example' are refused: the control API only answers "
                  "local clients (use a loopback address, or serve --allowed-host).",
    }  # fmt: skip
    assert not PersonalAPIKey.objects.filter(secure_value=hash_key_value(ATTACKER_KEY)).exists()
    assert Organization.objects.filter(id=boot.organization.id).exists()


def test_text_plain_body_without_origin_is_415(client, boot):
    response = client.post("/_emulator/reset", data=f'{{"api_key": "{ATTACKER_KEY}"}}', content_type="text/plain")
    assert response.status_code == 415
    assert error(response)["code"] == "unsupported_media_type"
    assert Organization.objects.filter(id=boot.organization.id).exists()


@pytest.mark.parametrize("content_type", ["application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])
def test_form_bodies_are_415(client, boot, content_type):
    response = client.generic("PUT", "/_emulator/profile", b"profile=posthog", content_type=content_type)
    assert response.status_code == 415
    assert client.get("/_emulator/profile").json() == {"profile": "spec"}


@pytest.mark.parametrize("origin", ["null", "http://127.0.0.1.evil.example", "file://", "https://localhost.evil.example:8010"])
def test_foreign_or_opaque_origins_are_refused(client, boot, origin):
    response = client.post("/_emulator/keys", {"email": "x@example.com"}, format="json", HTTP_ORIGIN=origin)
    assert response.status_code == 403


@pytest.mark.parametrize("origin", ["http://localhost:3000", "http://127.0.0.1:8010", "https://[::1]:9000"])
def test_loopback_origins_are_answered(client, boot, origin):
    response = client.post("/_emulator/keys", {"email": "dev@example.com"}, format="json", HTTP_ORIGIN=origin)
    assert response.status_code == 201


def test_json_with_charset_and_bodyless_writes_are_answered(client, boot):
    response = client.put("/_emulator/profile", b'{"profile": "posthog"}', content_type="application/json; charset=utf-8")
    assert response.status_code == 200
    assert client.delete("/_emulator/requests").status_code == 204  # no body, no content type
    assert client.post("/_emulator/reset").status_code == 200


@pytest.mark.parametrize("path", ["/_emulator/info", "/api/organizations/"])
def test_a_foreign_host_is_refused(client, api, path):
    """DNS rebinding: evil.example now resolves to 127.0.0.1, but the Host header still says so."""
    for caller in (client, api):
        response = caller.get(path, HTTP_HOST="evil.example:8010")
        assert response.status_code == 400
        body = error(response)
        assert body["code"] == "disallowed_host"
        assert body["detail"].startswith("Invalid HTTP_HOST header: 'evil.example:8010'.")


def test_an_allowed_host_is_answered(client, boot, settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "emulator.local"]
    assert client.get("/_emulator/info", HTTP_HOST="emulator.local:8010").status_code == 200
    assert client.post("/_emulator/keys", {"email": "y@example.com"}, format="json",
                       HTTP_ORIGIN="http://emulator.local:3000").status_code == 201


def test_the_real_server_answers_loopback_names_only(tmp_path):
    import http.client

    with live_server(tmp_path / "db.sqlite3", "phx_" + "g" * 40, "--allowed-host", "emulator.local") as live:
        port = int(live.url.rsplit(":", 1)[1])
        for host, expected in (("127.0.0.1", 200), ("localhost", 200), ("emulator.local", 200), ("evil.example", 400)):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", "/_emulator/info", headers={"Host": f"{host}:{port}"})
            assert connection.getresponse().status == expected, host
            connection.close()


def test_serving_beyond_loopback_needs_allow_remote(tmp_path):
    refused = subprocess.run(
        [sys.executable, "-m", "posthog_emulator", "serve", "--host", "0.0.0.0", "--port", "0"],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert refused.returncode == 2
    assert "--host 0.0.0.0 is not a loopback address" in refused.stderr and "--allow-remote" in refused.stderr
    with live_server(tmp_path / "db.sqlite3", "phx_" + "h" * 40, "--allow-remote", stderr=subprocess.PIPE,
                     host="0.0.0.0") as live:
        assert live.call("/_emulator/info")[0] == 200
        live.process.terminate()
        live.process.wait(10)
        assert "WARNING: listening on 0.0.0.0, beyond loopback" in live.process.stderr.read()
