# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The contract of plugins/module_utils/_standin.py, against the ansible-core this runs on (2.19 in `make units`,
2.16 and 2.21 in `make units-2.16 units-2.21`): every behaviour the worker imitates, run both ways through
ansible-playbook and compared.

standin_contract/ holds a playbook with a probe module (library/standin_probe.py: posthog.admin's engine,
run_task, with an argument spec that has every feature the stand-in handles) and its action
(action_plugins/standin_probe.py: posthog.admin's InProcessAction). Each case runs the probe as a module
process (posthog_admin_in_process: false), then in the worker; the test compares what ansible-core made of
each: the registered result (what a playbook sees) and the action's raw result (callback_plugins/: with
`invocation`, which `register` drops). The playbook is run from another directory than its own, as a user
may, with a variable in the environment.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import shutil
import subprocess
import sys

import pytest

from ansible import constants as C
from ansible.module_utils.ansible_release import __version__ as ANSIBLE_CORE_VERSION

from ansible_collections.posthog.admin.plugins.module_utils import _standin

HERE = os.path.dirname(os.path.abspath(__file__))
CASES = ["plain", "check_and_diff", "converted", "unknown_option", "wrong_type", "choices", "required",
         "mutually_exclusive", "list_item", "list_as_text", "suboption_missing", "alias_both", "deprecated_alias",
         "no_log_in_text", "no_log_equal_to_a_boolean", "warnings", "deprecation", "failure", "relative_write",
         "vaulted_value"]
TOKEN = "s3cret-token-value"
VAULTED = "s3cret-vaulted-token"
BEFORE_2_19 = _standin.core_version() < (2, 19)
INVOCATION = _standin.inject_invocation(C.config, {})


def _playbook(tmp_path_factory, verbosity=0, only=None):
    """Run standin_contract/contract.yml from a directory of its own; (registered, raw, output, play dir)."""
    root = tmp_path_factory.mktemp("contract")
    play = str(root / "play")
    shutil.copytree(os.path.join(HERE, "standin_contract"), play)
    elsewhere = root / "elsewhere"
    elsewhere.mkdir()
    registered, raw = str(root / "registered.json"), str(root / "raw.json")
    command = [os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), os.path.join(play, "contract.yml"),
               "--vault-password-file", os.path.join(play, "vault-password"), "-e", "out=%s" % registered]
    if only:
        command += ["-e", json.dumps(dict(only=only))]
    if verbosity:
        command.append("-" + "v" * verbosity)
    env = dict(os.environ, POSTHOG_CONTRACT_ENV="from the controller", STANDIN_CONTRACT_RAW=raw,
               ANSIBLE_NOCOLOR="1", ANSIBLE_FORCE_COLOR="0")
    env.pop("PWD", None)
    done = subprocess.run(command, cwd=str(elsewhere), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, timeout=600, check=False)
    assert done.returncode == 0, done.stdout[-4000:]
    with open(raw) as handle:
        raw_results = json.load(handle)
    with open(registered) as handle:
        return json.load(handle), raw_results, done.stdout, play


@pytest.fixture(scope="module")
def contract(tmp_path_factory):
    registered, raw, output, play = _playbook(tmp_path_factory)
    assert len(raw) == 2 * len(CASES), output[-4000:]
    pairs = dict((case, (raw[2 * index], raw[2 * index + 1])) for index, case in enumerate(CASES))
    return registered, pairs, play


def test_every_case_ran_both_ways(contract):
    """Told apart by the probe's parent process: the playbook's own when the worker ran it (a case whose
    arguments are refused never reaches the probe: the -vvv test shows where those run)."""
    registered, pairs, dummy = contract
    assert sorted(registered) == sorted(CASES)
    ran = [case for case, (as_module, in_worker) in pairs.items() if in_worker["ran_in_worker"] is not None]
    assert len(ran) >= 10
    for case in ran:
        assert (pairs[case][0]["ran_in_worker"], pairs[case][1]["ran_in_worker"]) == (False, True), case


@pytest.mark.parametrize("case", CASES)
def test_the_worker_returns_what_the_module_process_returns(contract, case):
    """Whole results compared, as a playbook registers them and as the action returned them (invocation,
    warnings, deprecations, failed, msg, the types of the values): the same on this ansible-core."""
    registered, pairs, dummy = contract
    both = registered[case]
    assert _without_pid(both["worker"]) == _without_pid(both["module"])
    assert both["worker_types"] == both["module_types"]
    assert both["worker_template"] == both["module_template"]
    as_module, in_worker = pairs[case]
    as_module, in_worker = dict(as_module), dict(in_worker)
    as_module.pop("ran_in_worker", None)
    in_worker.pop("ran_in_worker", None)
    assert in_worker == as_module


def _without_pid(result):
    return dict((k, v) for k, v in result.items() if k != "parent_pid")


def _worker(contract, case):
    registered, pairs, play = contract
    return registered[case]["worker"], pairs[case][1], play


def test_argument_validation_fails_with_ansibles_messages_before_the_task_runs(contract):
    unknown, raw, dummy = _worker(contract, "unknown_option")
    assert unknown["failed"] and unknown["msg"].startswith("Unsupported parameters for (standin_probe) module: colour.")
    assert "cwd" not in unknown
    assert "count" in _worker(contract, "wrong_type")[0]["msg"]
    assert "owner" in _worker(contract, "choices")[0]["msg"]
    assert "missing required arguments: name" in _worker(contract, "required")[0]["msg"]
    assert "mutually exclusive: first|second" in _worker(contract, "mutually_exclusive")[0]["msg"]
    assert _worker(contract, "list_item")[0]["msg"] == \
        "people[1] (d@e.f): value of level must be one of: member, admin, got: boss"
    assert _worker(contract, "list_as_text")[0]["msg"].startswith("people must be a list of dictionaries")
    assert "email" in _worker(contract, "suboption_missing")[0]["msg"]


def test_arguments_arrive_converted_as_a_module_receives_them(contract):
    converted = _worker(contract, "converted")[0]["params"]
    assert converted["count"] == 5 and converted["ratio"] == 2.0 and converted["name"] == "42"
    assert converted["settings"] == dict(enforce=True)
    vaulted, raw, dummy = _worker(contract, "vaulted_value")
    assert vaulted["params"]["label"] == VAULTED  # decrypted, a plain string
    assert raw.get("invocation", {}).get("module_args", {}).get("label", VAULTED) == VAULTED


def test_no_log_values_are_removed_and_the_top_levels_booleans_kept(contract):
    result, raw, dummy = _worker(contract, "no_log_in_text")
    assert result["token_echo"] == "the token is ********"
    assert TOKEN not in json.dumps(raw) and "phx_contract_key" not in json.dumps(raw)
    if INVOCATION:
        assert raw["invocation"]["module_args"]["token"] == "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"
    result, raw, dummy = _worker(contract, "no_log_equal_to_a_boolean")
    assert result["token_given"] is True and result["check_mode"] is False
    failed, raw, dummy = _worker(contract, "failure")
    assert failed["failed"] and failed["msg"] == "it failed: on purpose" and failed["token_was"] == "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"


def test_warnings_and_deprecations(contract):
    assert _worker(contract, "warnings")[0]["warnings"][-2:] == ["first warning", "second warning"]
    assert "Both option label and its alias title are set." in _worker(contract, "alias_both")[0]["warnings"]
    deprecations = _worker(contract, "deprecation")[0]["deprecations"]
    assert [(d["msg"], d["version"], d["collection_name"]) for d in deprecations] == \
        [("the old way", "9.0.0", "posthog.admin")]
    assert "older" in json.dumps(_worker(contract, "deprecated_alias")[0].get("deprecations"))


def test_invocation_as_ansible_core_injects_it(contract):
    """Always before ansible-core 2.21; then as INJECT_INVOCATION says (its default leaves it out)."""
    raw = _worker(contract, "plain")[1]
    assert ("invocation" in raw) is INVOCATION
    if INVOCATION:
        assert raw["invocation"]["module_args"]["name"] == "probe"


def test_check_and_diff_mode(contract):
    result = _worker(contract, "check_and_diff")[0]
    assert result["check_mode"] is True and result["diff_mode"] is True


def test_the_result_has_jsons_types_and_nothing_from_the_server_is_templated(contract):
    registered, dummy, dummy = contract
    text = "AnsibleUnsafeText" if BEFORE_2_19 else "str"  # 2.16 marks every result unsafe, both ways
    assert registered["plain"]["worker_types"] == [text, "int", "float", "bool", "NoneType", "list", "dict", text,
                                                   text, text]
    assert registered["plain"]["worker_template"] == "{{ 'not' ~ ' templated' }}"


def test_the_working_directory_and_environment_of_a_module_process(contract):
    """The playbook's directory (ansible-core runs a module process there on the local connection), PWD naming
    it, the controller's environment, temporary directory and umask; a relative path read and written there."""
    result, dummy, play = _worker(contract, "plain")
    assert os.path.realpath(result["cwd"]) == os.path.realpath(play)
    assert result["environment"]["PWD"] == result["cwd"]
    assert result["environment"]["POSTHOG_CONTRACT_ENV"] == "from the controller"
    assert result["file_text"] == "read from the playbook directory\n"
    written = _worker(contract, "relative_write")[0]
    assert written["written"] == os.path.join(result["cwd"], "rel", "written.txt")
    with open(os.path.join(play, "rel", "written.txt")) as handle:
        assert handle.read() == "written by probe\n"


def test_at_vvv_the_action_says_where_the_task_runs(tmp_path_factory):
    """Before ansible-core 2.19, AnsibleModule puts a failure's traceback in the result at -vvv, which the
    worker does not imitate: there the task runs as a module process, and says so."""
    dummy, raw, output, dummy = _playbook(tmp_path_factory, verbosity=3, only=["plain", "failure"])
    assert output.count("standin_probe runs as a module process: posthog_admin_in_process is false") == 2
    (plain_module, plain_worker), (failed_module, failed_worker) = raw[:2], raw[2:]
    if BEFORE_2_19:
        assert output.count("standin_probe runs as a module process: at -vvv ansible-core %s puts a failed module's "
                            "traceback" % ANSIBLE_CORE_VERSION) == 2
        assert plain_worker["ran_in_worker"] is False
        assert "exception" in failed_worker and "exception" in failed_module
    else:
        assert output.count("standin_probe runs in the controller's worker") == 2
        assert plain_worker["ran_in_worker"] is True
        assert dict(failed_worker) == dict(failed_module)


@pytest.mark.parametrize("version, verbosity, reason", [
    ("2.15.13", 0, "is not one the worker's stand-in"),
    ("2.22.0", 0, "is not one the worker's stand-in"),
    ("2.16.19", 3, "puts a failed module's traceback"),
    ("2.18.1", 4, "puts a failed module's traceback"),
    ("2.16.19", 2, None),
    ("2.19.14", 3, None),
    ("2.21.5", 5, None),
])
def test_where_the_stand_in_cannot_match_the_task_runs_as_a_module_process(version, verbosity, reason):
    found = _standin.unmatched(version, verbosity)
    assert (found is None) if reason is None else (reason in found)
