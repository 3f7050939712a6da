"""The real server under faults: dropped answers, HTTPS with a test CA, and SIGKILL mid-burst."""

import http.client
import json
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

from tests.live import live_server, trusting

KEY = "phx_" + "r" * 40


@pytest.fixture(scope="module")
def test_ca(tmp_path_factory):
    directory = tmp_path_factory.mktemp("ca")
    result = subprocess.run(
        [sys.executable, "-m", "posthog_emulator", "make-test-ca", str(directory)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    for name in ("ca.pem", "ca.key", "server.pem", "server.key"):
        assert f"{name}: {directory / name}" in result.stdout
    return directory


def test_drop_after_commit_closes_the_connection_after_the_write(tmp_path):
    with live_server(tmp_path / "db.sqlite3", KEY) as live:
        status, _ = live.call("/_emulator/faults", "POST", {"method": "POST", "path": "/api/organizations",
                                                            "mode": "drop_after_commit", "times": 1})
        assert status == 201
        with pytest.raises((http.client.RemoteDisconnected, ConnectionError, urllib.error.URLError)):
            live.call("/api/organizations/", "POST", {"name": "Lost answer"})
        status, body = live.call("/api/organizations/?limit=100")
        assert status == 200 and [o["name"] for o in body["results"]].count("Lost answer") == 1
        _, log = live.call("/_emulator/requests")
        assert log[0] == {"method": "POST", "path": "/api/organizations/", "query": "", "status": 0,
                          "fault": "dropped", "committed_status": 201}
        assert live.call("/api/organizations/", "POST", {"name": "Answered"})[0] == 201  # times: 1
        _, rules = live.call("/_emulator/faults")
        assert (rules["rules"][0]["matched"], rules["rules"][0]["hits"]) == (2, 1)


def test_drop_on_a_keep_alive_connection_leaves_the_server_serving(tmp_path):
    with live_server(tmp_path / "db.sqlite3", KEY) as live:
        live.call("/_emulator/faults", "POST", {"method": "PATCH", "mode": "drop_after_commit", "times": 1})
        host, port = live.url.rsplit("/", 1)[1].split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=5)
        headers = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"}
        connection.request("GET", "/api/organizations/@current/", headers=headers)
        assert connection.getresponse().read() and True
        connection.request("PATCH", "/api/organizations/@current/", body=json.dumps({"name": "Patched"}),
                           headers=headers)
        with pytest.raises((http.client.RemoteDisconnected, ConnectionError)):
            connection.getresponse()
        connection.close()
        status, body = live.call("/api/organizations/@current/")
        assert status == 200 and body["name"] == "Patched"


def test_https_with_the_test_ca(tmp_path, test_ca):
    with live_server(tmp_path / "db.sqlite3", KEY, "--tls-cert", str(test_ca / "server.pem"),
                     "--tls-key", str(test_ca / "server.key")) as live:
        assert live.url.startswith("https://127.0.0.1:")
        status, body = live.call("/api/organizations/", context=trusting(test_ca / "ca.pem"))
        assert status == 200 and body["count"] == 1
        # absolute links the API builds keep the scheme the client used (PostHog behind TLS does)
        status, _ = live.call("/api/organizations/", method="POST", body={"name": "Second"},
                              context=trusting(test_ca / "ca.pem"))
        assert status == 201
        status, body = live.call("/api/organizations/?limit=1", context=trusting(test_ca / "ca.pem"))
        assert body["count"] == 2 and body["next"].startswith(live.url + "/api/organizations/?"), body
        localhost = live.url.replace("127.0.0.1", "localhost")
        request = urllib.request.Request(localhost + "/_emulator/info")
        with urllib.request.urlopen(request, context=trusting(test_ca / "ca.pem"), timeout=10) as response:
            assert response.status == 200
        with pytest.raises(urllib.error.URLError) as untrusted:
            live.call("/api/organizations/", context=ssl.create_default_context())
        assert "CERTIFICATE_VERIFY_FAILED" in str(untrusted.value)
        # a rejected handshake does not stop the server
        assert live.call("/_emulator/info", context=trusting(test_ca / "ca.pem"))[0] == 200
        # plain HTTP to the HTTPS port gets no answer, and the server stays up
        with socket.create_connection(("127.0.0.1", int(live.url.rsplit(":", 1)[1])), timeout=5) as raw:
            raw.sendall(b"GET /_emulator/info HTTP/1.1\r\nHost: x\r\n\r\n")
            try:
                assert b"200 OK" not in raw.recv(1024)
            except ConnectionResetError:
                pass
        assert live.call("/_emulator/info", context=trusting(test_ca / "ca.pem"))[0] == 200


def test_https_drop_after_commit(tmp_path, test_ca):
    with live_server(tmp_path / "db.sqlite3", KEY, "--tls-cert", str(test_ca / "server.pem"),
                     "--tls-key", str(test_ca / "server.key")) as live:
        context = trusting(test_ca / "ca.pem")
        live.call("/_emulator/faults", "POST", {"method": "POST", "mode": "drop_after_commit", "times": 1},
                  context=context)
        with pytest.raises((http.client.RemoteDisconnected, ConnectionError, urllib.error.URLError, ssl.SSLError)):
            live.call("/api/organizations/", "POST", {"name": "TLS lost"}, context=context)
        _, body = live.call("/api/organizations/", context=context)
        assert [o["name"] for o in body["results"]].count("TLS lost") == 1


def test_tls_options_are_checked(tmp_path, test_ca):
    lone = subprocess.run(
        [sys.executable, "-m", "posthog_emulator", "serve", "--port", "0", "--tls-cert", str(test_ca / "server.pem")],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert lone.returncode == 2 and "--tls-cert and --tls-key go together" in lone.stderr
    wrong = subprocess.run(
        [sys.executable, "-m", "posthog_emulator", "serve", "--port", "0", "--db", str(tmp_path / "x.sqlite3"),
         "--tls-cert", str(test_ca / "server.pem"), "--tls-key", str(tmp_path / "missing.key")],
        capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert wrong.returncode == 1 and "cannot load the TLS certificate" in wrong.stderr


def test_acknowledged_writes_survive_sigkill(tmp_path):
    """A burst of creates from 6 threads; SIGKILL mid-burst; every 201 must be there after a restart.

    The emulator commits before it answers (autocommit; SQLite WAL with synchronous=NORMAL writes
    the WAL frame to the OS before COMMIT returns), so a killed process loses no acknowledged write.
    """
    db_path = tmp_path / "burst.sqlite3"
    acknowledged: dict[str, str] = {}
    failures: list[str] = []
    lock = threading.Lock()
    stop = threading.Event()

    with live_server(db_path, KEY) as live:
        host, port = live.url.rsplit("/", 1)[1].split(":")

        def writer(number):
            connection = http.client.HTTPConnection(host, int(port), timeout=10)
            headers = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"}
            index = 0
            while not stop.is_set():
                name = f"burst-{number}-{index}"
                index += 1
                try:
                    connection.request("POST", "/api/organizations/", body=json.dumps({"name": name}), headers=headers)
                    response = connection.getresponse()
                    body = response.read()
                except (OSError, http.client.HTTPException) as error:
                    with lock:
                        failures.append(f"{name}: {error!r}")
                    return
                if response.status == 201:
                    with lock:
                        acknowledged[json.loads(body)["id"]] = name

        threads = [threading.Thread(target=writer, args=(n,), daemon=True) for n in range(6)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 20
        while len(acknowledged) < 60 and time.monotonic() < deadline:
            time.sleep(0.01)
        live.process.send_signal(signal.SIGKILL)  # mid-burst: the writers are still posting
        live.process.wait(timeout=10)
        stop.set()
        for thread in threads:
            thread.join(timeout=15)
        assert live.process.returncode == -signal.SIGKILL
    assert len(acknowledged) >= 60, f"only {len(acknowledged)} creates acknowledged before the deadline"
    assert failures, "the kill did not interrupt the burst"

    with live_server(db_path, KEY) as again:
        status, body = again.call("/api/organizations/?limit=100000")
        assert status == 200
        present = {o["id"]: o["name"] for o in body["results"]}
    lost = {i: n for i, n in acknowledged.items() if present.get(i) != n}
    assert not lost, f"{len(lost)} acknowledged creates lost: {sorted(lost.values())[:10]}"
