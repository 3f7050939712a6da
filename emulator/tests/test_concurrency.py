"""The real server under 8 concurrent clients: every request is logged once, in the order the
server committed the writes, and the answers are those of a serial run."""

import http.client
import json
import threading

from tests.live import live_server

KEY = "phx_" + "c" * 40
CLIENTS = 8
ROUNDS = 15


def test_request_log_is_complete_and_in_commit_order_under_8_clients(tmp_path):
    with live_server(tmp_path / "db.sqlite3", KEY) as live:
        host, port = live.url.rsplit("/", 1)[1].split(":")
        failures = []

        def client(number):
            connection = http.client.HTTPConnection(host, int(port), timeout=30)
            headers = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"}
            for index in range(ROUNDS):
                tag = f"c={number}-{index}"
                requests = [
                    ("POST", f"/api/organizations/?{tag}", {"name": f"org-{number}-{index}"}, 201),
                    ("GET", f"/api/organizations/@current/domains/?{tag}", None, 200),
                    ("PATCH", f"/api/organizations/@current/?{tag}", {"enforce_2fa": index % 2 == 0}, 200),
                    ("GET", f"/api/organizations/?{tag}&limit=3", None, 200),
                ]
                for method, path, body, expected in requests:
                    connection.request(method, path, body=json.dumps(body) if body else None, headers=headers)
                    response = connection.getresponse()
                    response.read()
                    if response.status != expected:
                        failures.append((method, path, response.status))

        threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert not failures, failures[:5]

        _, log = live.call("/_emulator/requests")
        status, organizations = live.call("/api/organizations/?limit=100000")
        assert status == 200

    # Every request once.
    sent = {(m, f"c={n}-{i}") for n in range(CLIENTS) for i in range(ROUNDS) for m in ("POST", "GET", "PATCH")}
    logged = [(entry["method"], entry["query"].split("&")[0]) for entry in log]
    assert len(log) == CLIENTS * ROUNDS * 4
    assert set(logged) == sent
    assert all(logged.count(item) == (2 if item[0] == "GET" else 1) for item in sent)
    # Each client's requests in its own order.
    for number in range(CLIENTS):
        mine = [entry["path"].split("/")[-2] + entry["method"] + entry["query"] for entry in log
                if entry["query"].startswith(f"c={number}-")]
        assert [item.split("c=")[1].split("&")[0] for item in mine] == [
            f"{number}-{i}" for i in range(ROUNDS) for _ in range(4)
        ]
    # The creates in the log's order are the creates in the database's commit order (each new
    # organization's project takes the next integer ID).
    created = sorted(
        (organization["projects"][0]["id"], organization["name"])
        for organization in organizations["results"]
        if organization["name"].startswith("org-")
    )
    in_commit_order = [name for _, name in created]
    in_log_order = ["org-" + entry["query"][2:] for entry in log if entry["method"] == "POST"]
    assert in_log_order == in_commit_order
