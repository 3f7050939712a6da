# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make utils-test`: the demo's banners are bold on a terminal only, and never with NO_COLOR or
ANSIBLE_NOCOLOR (`make demo | tee demo.log` used to fill the log with raw escape codes)."""
import os
import pty
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ESC = "\033["
BANNER = "import sys; sys.path.insert(0, %r); import demo; demo.banner('Second run')" % HERE


def banner_output(env_update, tty):
    """What demo.banner() prints, with stdout a pipe or a pseudo-terminal."""
    env = dict((k, v) for k, v in os.environ.items() if k not in ("NO_COLOR", "ANSIBLE_NOCOLOR"))
    env.update(env_update)
    if not tty:
        return subprocess.run([sys.executable, "-c", BANNER], env=env, stdout=subprocess.PIPE,
                              check=True, text=True).stdout
    leader, follower = pty.openpty()
    try:
        subprocess.run([sys.executable, "-c", BANNER], env=env, stdout=follower, check=True)
        os.close(follower)
        follower = None
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 4096)
            except OSError:  # EIO: the terminal's other end is closed and drained
                break
            if not chunk:
                break
            chunks.append(chunk)
        return b"".join(chunks).decode()
    finally:
        if follower is not None:
            os.close(follower)
        os.close(leader)


def test_pipe_gets_plain_text():
    out = banner_output({}, tty=False)
    assert out == "\n== Second run\n"


def test_terminal_gets_bold():
    out = banner_output({}, tty=True)
    assert ESC + "1m== Second run" + ESC + "0m" in out


@pytest.mark.parametrize("env", [{"NO_COLOR": "1"}, {"ANSIBLE_NOCOLOR": "1"}, {"ANSIBLE_NOCOLOR": "true"},
                                 {"ANSIBLE_NOCOLOR": "yes"}])
def test_no_colour_asked_on_a_terminal(env):
    out = banner_output(env, tty=True)
    assert ESC not in out
    assert "== Second run" in out


@pytest.mark.parametrize("env", [{"NO_COLOR": ""}, {"ANSIBLE_NOCOLOR": "0"}, {"ANSIBLE_NOCOLOR": "false"}])
def test_empty_or_false_keeps_colour(env):
    assert ESC in banner_output(env, tty=True)
