"""A real PostHog client, nobody here wrote, against a live emulator (profile ``posthog``).

The client is PyPI's ``arcade-posthog-api`` (pinned in ``requirements-test.txt``), generated from
PostHog's own OpenAPI schema. :mod:`tests.real_client` calls every organization-administration
operation it has, in the order of ``data/real_client_expectations.yaml``, which says per call what
PostHog's newest code answers (status and shape) and the PostHog file it was read from. Any
difference fails the test, and so does an operation of the covered paths that no step calls (a new
route the client learns gets a row).
"""

import pytest

from tests import real_client
from tests.live import live_server


def test_every_covered_operation_of_the_client_has_a_row():
    called = {step["call"] for step in real_client.load_steps() if "call" in step}
    missing = sorted(set(real_client.org_admin_tools()) - called)
    assert not missing, f"operations of the client with no row in real_client_expectations.yaml: {missing}"
    unknown = sorted(called - set(real_client.tool_definitions()))
    assert not unknown, f"rows naming no operation of the client: {unknown}"


def test_every_row_cites_a_source_file_of_posthog():
    for step in real_client.load_steps():
        if "call" in step:
            source = step["expect"].get("source", "")
            assert source.endswith(".py") and "/" in source, step


@pytest.mark.parametrize("shape, body, ok", [
    ("none", None, True),
    ("none", {"a": 1}, False),
    ({"object": ["id"]}, {"id": 1, "x": 2}, True),
    ({"object": ["id"]}, {"x": 2}, False),
    ({"page": ["id"]}, {"count": 1, "next": None, "previous": None, "results": [{"id": 1}]}, True),
    ({"page": ["id"]}, {"next": None, "previous": None, "results": []}, False),
    ({"cursor": ["id"]}, {"next": None, "previous": None, "results": [{"id": 1}]}, True),
    ({"cursor": ["id"]}, {"count": 0, "next": None, "previous": None, "results": []}, False),
    ({"list": ["id"]}, [{"id": 1}], True),
    ({"error": "not_found"}, {"type": "invalid_request", "code": "not_found", "detail": "x", "attr": None}, True),
    ({"error": "not_found", "detail": "y"}, {"type": "invalid_request", "code": "not_found", "detail": "x", "attr": None},
     False),
    ({"error": "not_found"}, {"detail": "x"}, False),
])  # fmt: skip
def test_shapes_are_checked(shape, body, ok):
    assert (real_client.shape_problem(body, shape) is None) is ok


def test_the_client_gets_what_posthog_answers(tmp_path):
    with live_server(tmp_path / "db.sqlite3", real_client.KEY, "--profile", "posthog") as live:
        outcomes = real_client.run(live)
    differing = [outcome.line() for outcome in outcomes if outcome.problem is not None]
    assert len(outcomes) >= len(real_client.org_admin_tools())
    assert not differing, f"{len(differing)} of {len(outcomes)} calls differ from PostHog:\n" + "\n".join(differing)
