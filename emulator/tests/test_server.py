"""The real server: ``python -m posthog_emulator serve`` in a subprocess, spoken to over HTTP."""

import json
import os
import re
import signal
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

API_KEY = "phx_" + "s" * 40


@pytest.fixture
def server(tmp_path):
    db_path = tmp_path / "emulator.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "posthog_emulator", "serve", "--host", "127.0.0.1", "--port", "0",
         "--db", str(db_path), "--api-key", API_KEY, "--quiet"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        line = process.stdout.readline()
        match = re.fullmatch(r"posthog-emulator listening on (http://127\.0\.0\.1:\d+) \(profile spec\)\n", line)
        assert match, (line, process.stderr.read() if process.poll() is not None else "")
        yield match.group(1), process, db_path
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=10)
        process.stdout.close()
        process.stderr.close()


def call(url, method="GET", key=API_KEY, body=None):
    request = urllib.request.Request(url, method=method, data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_serve_starts_answers_and_stops_on_sigterm(server):
    # How fast it starts is measured by `make bench` (bench/run.py), not limited here: a timing
    # limit fails on a busy shared machine without anything being wrong.
    base, process, db_path = server

    status, body = call(f"{base}/api/organizations/")
    assert status == 200 and body["count"] == 1 and body["results"][0]["name"] == "Emulator Org"
    status, body = call(f"{base}/api/organizations", key=None)
    assert status == 401 and body["code"] == "not_authenticated"
    status, body = call(f"{base}/api/organizations/", method="POST", body={"name": "Over HTTP"})
    assert status == 201 and body["slug"] == "over-http"
    status, body = call(f"{base}/_emulator/info", key=None)
    assert status == 200 and body["profile"] == "spec"
    status, body = call(f"{base}/_emulator/requests", key=None)
    assert [(e["method"], e["status"]) for e in body] == [("GET", 200), ("GET", 401), ("POST", 201)]
    status, body = call(f"{base}/api/organizations/?limit=1")
    assert body["next"] == f"{base}/api/organizations/?limit=1&offset=1"

    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=10) == 0
    assert db_path.exists()  # --db is kept


def test_database_survives_restart(server, tmp_path):
    base, process, db_path = server
    call(f"{base}/api/organizations/", method="POST", body={"name": "Persistent"})
    process.send_signal(signal.SIGTERM)
    process.wait(timeout=10)
    again = subprocess.Popen(
        [sys.executable, "-m", "posthog_emulator", "serve", "--port", "0", "--db", str(db_path), "--quiet"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        lines = [again.stdout.readline(), again.stdout.readline()]
        assert "existing database" in lines[0]
        new_base = re.search(r"(http://\S+)", lines[1]).group(1)
        status, body = call(f"{new_base}/api/organizations/")  # the old key still works
        assert status == 200 and {o["name"] for o in body["results"]} == {"Emulator Org", "Persistent"}
    finally:
        again.send_signal(signal.SIGTERM)
        again.wait(timeout=10)
        again.stdout.close()


def test_help():
    result = subprocess.run([sys.executable, "-m", "posthog_emulator", "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and "serve" in result.stdout
    result = subprocess.run(
        [sys.executable, "-m", "posthog_emulator", "serve", "--help"], capture_output=True, text=True
    )
    assert result.returncode == 0 and "--api-key" in result.stdout and "--profile" in result.stdout
