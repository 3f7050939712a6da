# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 33: files are opened only when they are regular files of bounded size, their content bounded
too, and every refusal is a clear message (never Python's, never a task blocked forever): a
``definition_file`` that is a FIFO, a directory, an alias bomb, an alias inside itself, nested too deep
or too large; a ``plan_file`` that is a directory or in a missing directory (saving), a FIFO, nested
200,000 deep or of the wrong types (applying); a ``dest`` that is a directory or a FIFO. organization_state
both in a module process and in the controller's worker."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import subprocess
import sys
import threading

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._state import (
    STATE_ARGUMENT_SPEC,
    STATE_MODULE_OPTIONS,
    converge_state,
)
from ansible_collections.posthog.admin.plugins.plugin_utils._in_process import run_in_process
from ansible_collections.posthog.admin.tests.unit.conftest import LiveEmulator

HERE = os.path.dirname(os.path.abspath(__file__))
BOMB = "".join("%s: &%s [%s]\n" % (name, name, ",".join([previous] * 9)) for name, previous in zip(
    "bcdefghi", ["*a"] + ["*%s" % c for c in "bcdefgh"]))
BOMB = 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n' + BOMB  # 342 bytes, 9^9 values


def collections_root():
    parts = HERE.split(os.sep)
    if "ansible_collections" not in parts:
        pytest.skip("run from a built collection copy (make units)")
    return os.sep.join(parts[:parts.index("ansible_collections")])


def module_process(module, args, tmp_path, timeout=60):
    path = tmp_path / "args.json"
    path.write_text(json.dumps({"ANSIBLE_MODULE_ARGS": args}))
    source = os.path.join(collections_root(), "ansible_collections", "posthog", "admin", "plugins", "modules",
                          module + ".py")
    done = subprocess.run([sys.executable, source, str(path)], env=dict(os.environ, PYTHONPATH=collections_root()),
                          capture_output=True, text=True, timeout=timeout, check=False, cwd=str(tmp_path))
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def in_worker(args, check=False, timeout=60):
    """organization_state in the worker, given ``timeout`` seconds (a read of a FIFO would never end)."""
    found = {}

    def work():
        found["result"] = run_in_process("posthog.admin.organization_state", STATE_ARGUMENT_SPEC, converge_state,
                                         args, check, False, **STATE_MODULE_OPTIONS)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(timeout)
    assert "result" in found, "the task did not end within %d s" % timeout
    return found["result"]


def both_ways(live, tmp_path, args, check=False):
    args = dict(args, host=live.url, api_key=LiveEmulator.API_KEY, retries=0)
    return [module_process("organization_state", dict(args, _ansible_check_mode=check), tmp_path),
            in_worker(args, check=check)]


def refuses(live, tmp_path, args, message, check=False):
    live.forget()
    for result in both_ways(live, tmp_path, args, check=check):
        assert result.get("failed"), result
        assert message in result["msg"], result["msg"]
        assert "Traceback" not in result["msg"] and "recursion" not in result["msg"]
        assert len(result["msg"]) < 2000, len(result["msg"])
    assert live.requests == []


def definition(tmp_path, text, name="acme.yml"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


# ---------------------------------------------------------------------------------- definition_file
def test_a_fifo_as_definition_file_is_refused_not_read(live, tmp_path):
    fifo = str(tmp_path / "acme.yml")
    os.mkfifo(fifo)
    refuses(live, tmp_path, dict(definition_file=fifo), "definition_file %s is a FIFO (named pipe), not a file" % fifo)


def test_a_directory_as_definition_file_is_refused(live, tmp_path):
    refuses(live, tmp_path, dict(definition_file=str(tmp_path)), "definition_file %s is a directory, not a file"
            % tmp_path)


def test_an_alias_bomb_is_refused_at_once(live, tmp_path):
    path = definition(tmp_path, BOMB)
    refuses(live, tmp_path, dict(definition_file=path), "definition_file %s holds more than 2000000 values once its "
            "aliases are expanded (an alias bomb?)" % path)


def test_an_alias_inside_itself_is_refused(live, tmp_path):
    path = definition(tmp_path, "name: Acme\nroles: &roles [{name: x, members: *roles}]\n")
    refuses(live, tmp_path, dict(definition_file=path), "holds an alias inside the value it names")


@pytest.mark.parametrize("depth", [150, 100000])
def test_a_document_nested_too_deep_is_refused(live, tmp_path, depth):
    path = definition(tmp_path, "name: Acme\nsettings: " + "[" * depth + "]" * depth + "\n")
    refuses(live, tmp_path, dict(definition_file=path), "definition_file %s " % path)


def test_a_document_too_large_is_refused_unread(live, tmp_path):
    path = tmp_path / "acme.yml"
    with open(str(path), "wb") as handle:
        handle.truncate(33 * 1024 * 1024)
    refuses(live, tmp_path, dict(definition_file=str(path)), "definition_file %s is 34603008 bytes, more than the "
            "33554432 bytes posthog.admin reads" % path)


def test_anchors_and_merge_keys_still_work(live, tmp_path):
    path = definition(tmp_path, "name: Emulator Org\nsettings: &s {enforce_2fa: false}\n")
    for result in both_ways(live, tmp_path, dict(definition_file=path), check=True):
        assert not result.get("failed"), result.get("msg")


# ---------------------------------------------------------------------------------- plan_file
def test_a_plan_file_that_is_a_directory_is_refused_when_saving(live, tmp_path):
    target = tmp_path / "plans"
    target.mkdir()
    for result in both_ways(live, tmp_path, dict(definition=dict(name="Emulator Org"), plan_file=str(target)),
                            check=True):
        assert result.get("failed") and result["msg"] == (
            "plan_file %s is a directory, not a file; give the path of a file to write" % target), result


def test_a_plan_file_in_a_missing_directory_is_named_as_plan_file(live, tmp_path):
    target = tmp_path / "missing" / "acme.json"
    for result in both_ways(live, tmp_path, dict(definition=dict(name="Emulator Org"), plan_file=str(target)),
                            check=True):
        assert result.get("failed") and result["msg"].startswith(
            "plan_file %s: cannot write it, the directory %s does not exist" % (target, target.parent)), result


def test_a_fifo_as_plan_file_is_refused_when_applying(live, tmp_path):
    fifo = str(tmp_path / "acme.json")
    os.mkfifo(fifo)
    refuses(live, tmp_path, dict(definition=dict(name="Emulator Org"), plan_file=fifo),
            "plan_file %s is a FIFO (named pipe), not a file" % fifo)


def test_a_directory_as_plan_file_is_refused_when_applying(live, tmp_path):
    refuses(live, tmp_path, dict(definition=dict(name="Emulator Org"), plan_file=str(tmp_path)),
            "plan_file %s is a directory, not a file" % tmp_path)


PLAN = dict(format="posthog.admin.organization_state/plan-2", host="h", organization=dict(id="o", name="n"),
            document_sha256="0" * 64, nonce="0123456789ab", states={}, plan=[], pending=[], sections={}, diff=[])
BROKEN_PLANS = [
    ('{"format": "posthog.admin.organization_state/plan-2", "plan": ' + "[" * 200000 + "]" * 200000 + "}",
     "is not a saved plan (JSON nested deeper than posthog.admin reads)"),
    ('{"format": "posthog.admin.organization_state/plan-2", "x": ' + "[" * 150 + "]" * 150 + "}",
     "is not a saved plan (JSON nested deeper than 100 levels)"),
    (json.dumps(dict(PLAN, states=[])), "states is missing or not an object"),
    (json.dumps(dict(PLAN, plan=[1, 2])), "plan[0] is not an action"),
    (json.dumps(dict(PLAN, organization="acme")), "organization is not an object"),
    (json.dumps(dict(PLAN, organization=dict(id=["x"]))), "organization.id is not text"),
    (json.dumps(dict(PLAN, states={"k": 1})), "states must map text to text"),
    (json.dumps(dict(PLAN, nonce="../../x")), "nonce is not 12 hexadecimal digits"),
    (json.dumps(dict(PLAN, host=7)), "host is not text"),
    (json.dumps(dict(PLAN, diff=["x"])), "diff must hold objects"),
    (json.dumps([PLAN]), "is not a plan saved by posthog.admin.organization_state (format None"),
]


@pytest.mark.parametrize("text, message", BROKEN_PLANS, ids=[
    "nested-200000", "nested-150", "states-a-list", "plan-of-numbers", "organization-text", "organization-id-list",
    "states-of-numbers", "nonce", "host-number", "diff-of-text", "a-list"])
def test_a_plan_file_of_the_wrong_shape_is_refused_clearly(live, tmp_path, text, message):
    path = tmp_path / "acme.json"
    path.write_text(text)
    refuses(live, tmp_path, dict(definition=dict(name="Emulator Org"), plan_file=str(path)),
            "plan_file %s %s" % (path, message) if message.startswith("is") else message)


# ---------------------------------------------------------------------------------- dest
def test_dest_that_is_a_directory_or_a_fifo_is_refused(live, tmp_path):
    fifo = str(tmp_path / "acme.yml")
    os.mkfifo(fifo)
    for dest, what in ((str(tmp_path), "a directory"), (fifo, "a FIFO (named pipe)")):
        result = module_process("organization_state_info", dict(dest=dest, host=live.url,
                                                                api_key=LiveEmulator.API_KEY), tmp_path)
        assert result.get("failed") and "dest %s is %s, not a file" % (dest, what) in result["msg"], result
        assert os.path.isdir(str(tmp_path)) and not os.path.isfile(fifo)
