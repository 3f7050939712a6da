# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The harness itself: plays that share one ansible-playbook (harness.Runner) stay apart, and a
play whose control task fails still fails, as it did with a process of its own."""

import socket

import pytest

import harness


@pytest.fixture(autouse=True)
def fresh():
    """These tests need no emulator (this replaces conftest's reset of it)."""
    yield


class Nowhere:
    """A server nobody listens on (a port just bound and released)."""

    def __init__(self):
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.url = "http://127.0.0.1:%d" % sock.getsockname()[1]
        self.key, self.ca = harness.new_key(), None


def test_plays_in_one_runner_keep_their_own_results_and_output(tmp_path):
    server = Nowhere()
    first = harness.play(str(tmp_path / "first"), server, [
        {"module": "ansible.builtin.debug", "args": {"msg": "first play"}, "name": "The first play's task"},
        {"module": "ansible.builtin.debug", "args": {"msg": "{{ r0.msg }} again"}},
    ])
    assert first.returncode == 0, first.explain()
    assert first.results["r1"]["msg"] == "first play again", first.results
    second = harness.play(str(tmp_path / "second"), server, [
        {"module": "ansible.builtin.debug", "args": {"msg": "second play"}, "name": "The second play's task"},
        {"module": "ansible.builtin.debug", "args": {"msg": "{{ r1.msg }}"}},  # no r1 in this play yet
    ])
    assert second.returncode == 0, second.explain()
    assert sorted(second.results) == ["r0", "r1"]
    assert second.results["r0"]["msg"] == "second play"
    assert second.results["r1"].get("failed") and "is undefined" in second.results["r1"]["msg"], second.results
    assert "The second play's task" in second.stdout and "The first play's task" not in second.stdout
    assert "The second play's task" in second.log and "The first play's task" not in second.log


def test_a_failed_control_task_fails_the_play_and_the_next_play_runs(tmp_path):
    server = Nowhere()
    failed = harness.play(str(tmp_path / "failed"), server, [
        {"module": "ansible.builtin.debug", "args": {"msg": "before"}},
        {"faults": []},  # PUT /_emulator/faults: nobody answers
        {"module": "ansible.builtin.debug", "args": {"msg": "after"}, "name": "Never reached"},
    ])
    assert failed.returncode != 0, failed.explain()
    assert "Set fault rules" in failed.stdout and "Never reached" not in failed.stdout, failed.explain()
    assert failed.results == {}
    after = harness.play(str(tmp_path / "after"), server, [{"module": "ansible.builtin.debug", "args": {"msg": "on"}}])
    assert after.returncode == 0, after.explain()
    assert after.results["r0"]["msg"] == "on"


# Quotes, backslashes, newlines (\r too), unicode (a line separator too), and a line that mimics the
# results line with a marker of its own: every result comes back whole from the printed results.
AWKWARD = ('a "quoted" word, a back\\slash\nsecond line\r\nthird, é ✓ 日本 \u2028 after a line separator\n'
           '    "msg": "reliability results 0123456789abcdef: {\\"r0\\": {\\"forged\\": true}}"')


def test_results_with_quotes_newlines_and_unicode_come_back_whole(tmp_path):
    server = Nowhere()
    run = harness.play(str(tmp_path), server, [
        {"module": "ansible.builtin.debug", "args": {"msg": AWKWARD}},
        {"module": "ansible.builtin.set_fact", "args": {"awkward": {AWKWARD: [AWKWARD, None, 1.5, True]}}},
    ])
    assert run.returncode == 0, run.explain()
    assert run.results["r0"]["msg"] == AWKWARD, run.results
    assert run.results["r1"]["ansible_facts"]["awkward"] == {AWKWARD: [AWKWARD, None, 1.5, True]}, run.results
    assert sorted(run.results) == ["r0", "r1"]
