"""The OpenAPI document (drf-spectacular) and a schemathesis run against the live server: no 5xx.

The schemathesis run covers every operation of every registered resource (the document is made
from the router). It is bounded: ``POSTHOG_EMULATOR_FUZZ_EXAMPLES`` examples per operation
(default 5), phases ``examples`` and ``fuzzing``, one worker, a fixed seed
(``POSTHOG_EMULATOR_FUZZ_SEED``). Path parameters ``organization_id`` and ``project_id`` are
``@current``, so generated requests reach the views instead of stopping at a 404 for the parent.
"""

import os
import re
import shutil
import subprocess
import sys

import pytest

from posthog_emulator import api
from tests.live import live_server

KEY = "phx_" + "o" * 40
EXAMPLES = int(os.environ.get("POSTHOG_EMULATOR_FUZZ_EXAMPLES", "5"))
SEED = int(os.environ.get("POSTHOG_EMULATOR_FUZZ_SEED", "20261122"))
TIME_LIMIT = 600  # seconds; the run takes about a minute on two shared cores


def schema_path(prefix: str) -> str:
    return "/api/" + re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", prefix) + "/"


def test_openapi_document_lists_every_registered_resource(client, db):
    response = client.get("/_emulator/openapi.json")
    assert response.status_code == 200 and response["Content-Type"].startswith("application/vnd.oai.openapi+json")
    document = response.json()
    assert document["openapi"].startswith("3.")
    paths = document["paths"]
    assert paths and all(path.startswith("/api/") for path in paths)
    for prefix, _, _ in api.build_router().registry:
        assert any(path.startswith(schema_path(prefix)) for path in paths), prefix  # list or detail routes
    assert document["components"]["securitySchemes"]["PersonalAPIKeyAuth"] == {
        "type": "http", "scheme": "bearer", "description": "A personal API key (phx_...).",
    }  # fmt: skip
    assert "post" in paths["/api/organizations/"] and "delete" in paths["/api/organizations/{id}/"]


def test_openapi_document_needs_no_key_and_is_not_logged(client, db):
    assert client.get("/_emulator/openapi.json").status_code == 200
    assert client.get("/api/organizations/").status_code == 401
    from posthog_emulator import requestlog

    assert [e["path"] for e in requestlog.entries()] == ["/api/organizations/"]


def schemathesis_command():
    candidate = os.path.join(os.path.dirname(sys.executable), "schemathesis")
    return candidate if os.path.exists(candidate) else shutil.which("schemathesis")


@pytest.mark.skipif(schemathesis_command() is None, reason="schemathesis is not installed (requirements-test.txt)")
def test_schemathesis_finds_no_server_error(tmp_path):
    config = tmp_path / "schemathesis.toml"
    config.write_text('[parameters]\n"path.organization_id" = "@current"\n"path.project_id" = "@current"\n')
    server_log = tmp_path / "emulator.log"
    with open(server_log, "w") as log, live_server(tmp_path / "db.sqlite3", KEY, stderr=log) as live:
        result = subprocess.run(
            [schemathesis_command(), "--config-file", str(config), "run", f"{live.url}/_emulator/openapi.json",
             "--header", f"Authorization: Bearer {KEY}", "--checks", "not_a_server_error",
             "--max-examples", str(EXAMPLES), "--seed", str(SEED), "--phases", "examples,fuzzing",
             "--workers", "1", "--no-shrink", "--request-timeout", "20", "--output-truncate", "true"],
            capture_output=True, text=True, timeout=TIME_LIMIT, cwd=tmp_path, check=False,
            env={**os.environ, "NO_COLOR": "1", "SCHEMATHESIS_HOOKS": ""},
        )  # fmt: skip
    output = result.stdout + result.stderr
    summary = output[output.find("FAILURES") :] if "FAILURES" in output else output[-6000:]
    assert result.returncode == 0, summary
    assert re.search(r"\d+ generated, \d+ passed", output), output[-3000:]
    crashes = [line for line in server_log.read_text().splitlines() if "Unhandled exception" in line]
    assert not crashes, crashes
