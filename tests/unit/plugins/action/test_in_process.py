# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""organization_state's action plugin (issue 25): when it runs the module's engine in the controller's
worker, and what it returns when it does. The integration target organization_state_in_process runs
both ways through ansible-playbook and compares their results and requests."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import sys
from unittest import mock

import pytest

from ansible_collections.posthog.admin.plugins.action.organization_state import ActionModule
from ansible_collections.posthog.admin.plugins.module_utils._state import (
    STATE_ARGUMENT_SPEC,
    STATE_MODULE_OPTIONS,
    converge_state,
)
from ansible_collections.posthog.admin.plugins.plugin_utils._in_process import IN_PROCESS_VAR, run_in_process
from ansible_collections.posthog.admin.tests.unit.conftest import page

KEY = "phx_in_process_unit_key_0123456789"
ORG_ID = "0190a3f4-7b1e-7c3a-9d2f-00000000000a"
ORG = dict(id=ORG_ID, name="Acme", slug="acme", enforce_2fa=True, projects=[dict(id=7, name="Default project")])


def action(transport="local", become=False, async_val=0, environment=None, delegate_to=None):
    task = mock.MagicMock(async_val=async_val, environment=environment, delegate_to=delegate_to)
    connection = mock.MagicMock(transport=transport)
    connection._shell.env_prefix.side_effect = lambda **env: " ".join("%s=%s" % kv for kv in env.items())
    templar = mock.MagicMock()
    templar.template.side_effect = lambda value: value
    return ActionModule(task, connection, mock.MagicMock(become=become), loader=None, templar=templar,
                        shared_loader_obj=None)


HERE = dict(ansible_python_interpreter=sys.executable)


def test_the_worker_runs_it_with_a_local_connection_and_the_controllers_python():
    assert action().module_process_reason(dict(HERE)) is None
    assert action().module_process_reason(dict(HERE, **{IN_PROCESS_VAR: "yes"})) is None


@pytest.mark.parametrize("kwargs, task_vars, reason", [
    (dict(), dict(HERE, **{IN_PROCESS_VAR: False}), "posthog_admin_in_process is false"),
    (dict(), dict(HERE, **{IN_PROCESS_VAR: "no"}), "posthog_admin_in_process is false"),
    (dict(async_val=60), HERE, "async"),
    (dict(transport="ssh"), HERE, "connection is not local"),
    (dict(become=True), HERE, "becomes another user"),
    (dict(environment=[dict(HTTPS_PROXY="http://proxy.example:3128")]), HERE, "sets an environment"),
    (dict(), dict(), "ansible_python_interpreter is not the controller's Python"),
    (dict(), dict(ansible_python_interpreter="/usr/bin/python3-elsewhere"), "not the controller's Python"),
    (dict(delegate_to="bastion"), dict(HERE, ansible_delegated_vars=dict(bastion={})), "not the controller's Python"),
], ids=["var-false", "var-no", "async", "ssh", "become", "environment", "no-interpreter", "other-interpreter",
        "delegated-elsewhere"])
def test_anything_else_runs_a_module_process(kwargs, task_vars, reason):
    assert reason in action(**kwargs).module_process_reason(dict(task_vars))


def test_a_task_delegated_to_the_controllers_python_runs_in_the_worker():
    task_vars = dict(ansible_delegated_vars=dict(localhost=dict(HERE)))
    assert action(delegate_to="localhost").module_process_reason(task_vars) is None


def test_without_requests_the_module_reports_it(monkeypatch):
    from ansible_collections.posthog.admin.plugins.module_utils import _client

    monkeypatch.setattr(_client, "HAS_REQUESTS", False)
    assert "no requests" in action().module_process_reason(dict(HERE))


def state(server, check=False, diff=True, **args):
    params = dict(host=server.url, api_key=KEY, retries=0)
    params.update(args)
    return run_in_process("posthog.admin.organization_state", STATE_ARGUMENT_SPEC, converge_state, params, check,
                          diff, **STATE_MODULE_OPTIONS)


def test_the_worker_returns_what_the_module_returns_with_no_log_values_removed(server):
    secret = "token-in-the-document-1"
    server.script((200, page(ORG)), (200, page()))
    export = dict(name="Out", interval="day", destination=dict(type="HTTP", config=dict(
        url="https://eu.i.posthog.com/batch/", token=secret)))
    result = state(server, check=True, definition=dict(name="Acme", batch_exports=[export]))
    assert not result.get("failed"), result
    assert result["changed"] is True
    assert [dict((k, a[k]) for k in ("section", "action", "item", "method", "path")) for a in result["plan"]] == [
        dict(section="batch_exports", action="created", item="batch_exports[0] (batch export 'Out')", method="POST",
             path="/api/projects/7/batch_exports/")]
    assert result["plan"][0]["body"]["destination"]["config"]["token"] == "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"
    assert result["invocation"]["module_args"]["api_key"] == "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"
    assert KEY not in str(result) and secret not in str(result)
    assert [r["method"] for r in server.requests] == ["GET", "GET"]


def test_bad_arguments_fail_as_ansible_module_fails_them_before_any_request(server):
    result = state(server, definition=dict(name="Acme"), colour="blue")
    assert result["failed"] and server.requests == []
    assert result["msg"].startswith("Unsupported parameters for (posthog.admin.organization_state) module: colour.")
    result = state(server, definition=dict(name="Acme"), definition_file="acme.yml")
    assert result["failed"] and "mutually exclusive: definition|definition_file" in result["msg"]
    result = state(server, limits=dict(max_deletes="many"), definition=dict(name="Acme"))
    assert result["failed"] and "max_deletes" in result["msg"] and server.requests == []
    assert KEY not in str(result)


def test_invocation_follows_ansible_cores_setting(server):
    result = state(server, definition=dict(name="Acme"), colour="blue")
    assert "invocation" in result
    params = dict(host=server.url, api_key=KEY, definition=dict(name="Acme"), colour="blue")
    result = run_in_process("posthog.admin.organization_state", STATE_ARGUMENT_SPEC, converge_state, params, False,
                            False, inject_invocation=False, **STATE_MODULE_OPTIONS)
    assert "invocation" not in result


def test_an_ansible_core_the_stand_in_cannot_match_runs_a_module_process(monkeypatch):
    from ansible_collections.posthog.admin.plugins.module_utils import _standin

    monkeypatch.setattr(_standin, "ANSIBLE_CORE_VERSION", "2.22.0")
    monkeypatch.setattr(_standin.unmatched, "__defaults__", ("2.22.0", 0, False))
    assert "ansible-core 2.22.0 is not one the worker's stand-in" in action().module_process_reason(dict(HERE))
    assert action().module_process_reason(dict(HERE, **{IN_PROCESS_VAR: False})) == "posthog_admin_in_process is false"


def test_the_worker_runs_the_task_in_the_playbooks_directory_and_puts_it_back(server, tmp_path, monkeypatch):
    """As ansible-core runs a module process on the local connection: in the playbook's directory (the
    loader's basedir), PWD naming it; a relative definition_file is read there."""
    from ansible_collections.posthog.admin.plugins.module_utils._standin import module_directory

    play = tmp_path / "play"
    (play / "organizations").mkdir(parents=True)
    (play / "organizations" / "acme.yml").write_text("name: Acme\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PWD", str(tmp_path))
    server.script((200, page(ORG)), (200, page()), (200, page()), (200, page()), (200, page()), (200, page()),
                  (200, page()), (200, page()), (200, page()), (200, page()), (200, page()), (200, page()))
    params = dict(host=server.url, api_key=KEY, retries=0, definition_file="organizations/acme.yml")
    result = run_in_process("posthog.admin.organization_state", STATE_ARGUMENT_SPEC, converge_state, params, True,
                            False, directory=str(play), **STATE_MODULE_OPTIONS)
    assert "cannot be read" not in result.get("msg", ""), result
    assert result["organization"]["name"] == "Acme"
    assert os.getcwd() == str(tmp_path) and os.environ["PWD"] == str(tmp_path)
    with module_directory(str(play)):
        assert os.getcwd() == str(play) and os.environ["PWD"] == str(play)
    assert os.getcwd() == str(tmp_path)
