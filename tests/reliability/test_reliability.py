# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Proof under load, faults and bad input: every module of cases.MODULES (and every inventory
config of cases.INVENTORIES) run for real with ansible-playbook against a live emulator.

    make collection BUILD=build && BUILD=build .venv/bin/python -m pytest -p no:cacheprovider -n 2 tests/reliability
"""

import json
import os
import re

import pytest

import harness
from cases import INVENTORIES, LIST_CASES, MODULES

# Four rules, one per transient status, each firing with probability p so that a request fails
# with probability 1 - (1 - p)^4 = 0.30. Seeded: the same requests meet the same faults each run.
TRANSIENT_RATE = 1 - 0.7 ** 0.25
TRANSIENT = [{"method": "*", "path": "/api/", "status": status, "rate": round(TRANSIENT_RATE, 4)}
             for status in (429, 500, 502, 503)]
SEED = int(os.environ.get("POSTHOG_RELIABILITY_SEED", "7"))


def by_id(cases):
    return pytest.mark.parametrize("case", cases, ids=[case.id for case in cases])


def module_steps(case, args_list=None, **overrides):
    return [step(case, dict(args, **overrides)) for args in (args_list or case.converge)]


def step(case, args, **more):
    """One task of ``case`` (with its task variables: where organization_state runs)."""
    found = dict(more, module=case.module, args=args)
    if case.task_vars:
        found["vars"] = case.task_vars
    return found


def failures(run):
    return {name: result.get("msg") for name, result in run.results.items() if result.get("failed")}


def assert_all_ok(run, count):
    assert run.returncode == 0, run.explain()
    assert len(run.results) == count, run.explain()
    assert not failures(run), failures(run)


WRITE_METHODS = ("POST", "PATCH", "DELETE", "PUT")


def methods_written(api):
    """The write methods of the request log's API requests, in WRITE_METHODS order."""
    sent = {entry["method"] for entry in api.requests() if entry["path"].startswith("/api/")}
    return tuple(method for method in WRITE_METHODS if method in sent)


def warnings_of(run):
    return [warning for result in run.results.values() for warning in result.get("warnings", [])]


def prepare(case, api):
    """Run the case's setup, then forget its requests: the test sees only what the module did."""
    if case.setup:
        case.setup(api)
        api.clear_requests()


def verify(case, api, results, runs):
    """Call the case's verify; an action module's also learns how many plays ran its tasks."""
    if case.action:
        case.verify(api, results, runs=runs)
    else:
        case.verify(api, results)


# ---------------------------------------------------------------------------------- faults
@by_id(MODULES)
def test_converges_under_30_percent_transient_faults(case, emulator, tmp_path):
    api = emulator.api
    prepare(case, api)
    api.set_faults(TRANSIENT, seed=SEED)
    first = harness.play(str(tmp_path / "first"), emulator, module_steps(case))
    assert_all_ok(first, len(case.converge))
    if case.writes is not None:  # the 5xx-after-commit test plays only these methods
        written = methods_written(api)
        assert written == tuple(m for m in WRITE_METHODS if m in case.writes), \
            "the converge wrote with %s; the case's writes says %s: update it" % (written, case.writes)
    second = harness.play(str(tmp_path / "second"), emulator, module_steps(case))
    assert_all_ok(second, len(case.converge))
    changed = [name for name, result in second.results.items() if result.get("changed")]
    if case.action:
        assert changed == list(second.results), "an action module did not act again: %s" % changed
    else:
        assert changed == [], "the second run changed something"
    hits = api.fault_hits()
    retried = [w for w in warnings_of(first) + warnings_of(second) if w.startswith("Retried:")]
    api.clear_faults()
    assert hits >= 2 and retried, "the faults never fired (%d hits); the test proves nothing" % hits
    verify(case, api, first.results, runs=2)
    verify(case, api, second.results, runs=2)


@by_id([case for case in MODULES if case.create_path])
def test_lost_answer_of_a_committed_post_makes_no_duplicate(case, emulator, tmp_path):
    api = emulator.api
    prepare(case, api)
    api.set_faults([{"method": "POST", "path": case.create_path, "mode": "drop_after_commit", "times": 1}])
    steps = module_steps(case)
    steps.insert(1, {"mark": "first-task-done"})  # later tasks may create other objects on the same path
    run = harness.play(str(tmp_path), emulator, steps)
    assert_all_ok(run, len(case.converge))
    assert run.results["r0"]["changed"] is True
    log = api.requests()
    first_task = log[:[index for index, entry in enumerate(log) if harness.is_mark(entry)][0]]
    creates = [e for e in first_task if e["method"] == "POST" and re.match(case.create_path, e["path"])]
    assert creates and creates[0]["status"] == 0 and creates[0]["fault"] == "dropped", creates
    assert creates[0]["committed_status"] in (200, 201), creates
    assert [e for e in creates[1:] if e["status"] in (200, 201)] == [], "the create was sent again: %s" % creates
    verify(case, api, run.results, runs=1)


# The state modules (info modules never write), single and list mode, each with every write
# method: a proxy answers 504 although PostHog committed the write. A retried DELETE meets 404, a
# retried POST must find its own object, a retried PATCH must be idempotent. A case's ``writes``
# (checked by the fault test) leaves out the methods its module never sends: such a play would meet
# no fault, and its fault-free converge is proven by the -vvvv test. Without ``writes``, the play
# tells, and the test skips.
STATE_CASES = [case for case in MODULES + LIST_CASES if not case.module.endswith("_info")]
COMMIT_THEN_5XX = [pytest.param(case, method, id="%s-%s" % (case.id, method))
                   for case in STATE_CASES for method in ("POST", "PATCH", "DELETE")
                   if case.writes is None or method in case.writes]


@pytest.mark.parametrize("case, method", COMMIT_THEN_5XX)
def test_a_5xx_after_commit_converges_without_duplicate(case, method, emulator, tmp_path):
    api = emulator.api
    prepare(case, api)
    api.set_faults([{"method": method, "path": "/api/", "mode": "commit_then_status", "status": 504, "times": 1}])
    run = harness.play(str(tmp_path / "first"), emulator, module_steps(case))
    hits = api.fault_hits()
    api.clear_faults()
    if not hits:
        assert_all_ok(run, len(case.converge))
        pytest.skip("%s sends no %s" % (case.id, method))
    faulted = [e for e in api.requests() if e.get("fault") == "commit_then_status"]
    assert len(faulted) == 1 and faulted[0]["status"] == 504, faulted
    assert_all_ok(run, len(case.converge))  # no false failure
    verify(case, api, run.results, runs=1)  # no duplicate, the wanted end state
    if case.action:
        return
    again = harness.play(str(tmp_path / "again"), emulator, module_steps(case))
    assert_all_ok(again, len(case.converge))
    changed = [name for name, result in again.results.items() if result.get("changed")]
    assert changed == [], "the run after the 504 had left something to change: %s" % changed


# ----------------------------------------------------------------------------- rate limits
@by_id([case for case in MODULES if case.rate_limits])
def test_429_waits_are_honoured_and_bounded(case, emulator, tmp_path):
    api = emulator.api
    prepare(case, api)
    first = case.converge[0]
    once = {"method": "*", "path": "/api/", "status": 429, "times": 1}
    steps = [
        {"faults": [dict(once, retry_after=1)]},
        step(case, first),
        {"faults": [dict(once, body_wait=2)]},
        step(case, first),
        {"faults": [dict(once, body_wait=3)]},
        step(case, dict(first, retry_max_delay=1)),
        {"faults": [dict(once, retry_after=3)]},
        step(case, dict(first, retry_max_delay=1)),
        {"faults": [{"method": "*", "path": "/api/", "status": 429, "body_wait": 1}]},
        step(case, dict(first, retries=2)),
    ]
    run = harness.play(str(tmp_path), emulator, steps)
    results = run.results
    assert not results["r0"].get("failed"), results["r0"].get("msg")
    assert any("HTTP 429; retrying in 1.0 s" in w for w in results["r0"].get("warnings", [])), results["r0"]
    assert not results["r1"].get("failed"), results["r1"].get("msg")
    assert any("HTTP 429; retrying in 2.0 s" in w for w in results["r1"].get("warnings", [])), results["r1"]
    for name, wait in (("r2", 3), ("r3", 3)):
        message = results[name].get("msg", "")
        assert results[name].get("failed"), results[name]
        assert "HTTP 429" in message and "throttled" in message, message
        assert "the next wait (%d s) would exceed retry_max_delay (1 s" % wait in message, message
    message = results["r4"].get("msg", "")
    assert results["r4"].get("failed") and "Gave up after 2 retries" in message, message
    log = [e["status"] for e in api.requests()]
    assert log.count(429) == 1 + 1 + 1 + 1 + 3, log


# ------------------------------------------------------------------------------------- TLS
def test_tls_validation_ca_path_and_opt_out(emulator, tls_emulator, tmp_path):
    tls_emulator.api.reset()
    for case in MODULES:  # the cases' setups do not collide: each uses its own names
        prepare(case, tls_emulator.api)
    steps = []
    for case in MODULES:
        args = case.converge[0]
        steps += [
            step(case, args, name="%s, default validate_certs" % case.id),
            step(case, dict(args, ca_path=tls_emulator.ca), name="%s, ca_path" % case.id),
            step(case, dict(args, validate_certs=False), name="%s, no validation" % case.id),
        ]
    run = harness.play(str(tmp_path / "play"), tls_emulator, steps, timeout=900)  # every module once: ~250 s on a quiet machine
    assert run.returncode == 0, run.explain()
    for index, case in enumerate(MODULES):
        untrusted, with_ca, unchecked = (run.results["r%d" % (3 * index + n)] for n in range(3))
        message = untrusted.get("msg", "")
        assert untrusted.get("failed"), untrusted
        assert "the TLS certificate of %s could not be verified (certificate verify failed" % tls_emulator.url \
            in message, message
        assert "set ca_path" in message and "validate_certs to false" in message, message
        assert "Retried" not in " ".join(untrusted.get("warnings", [])), "a certificate failure was retried"
        assert not with_ca.get("failed"), with_ca.get("msg")
        assert not unchecked.get("failed"), unchecked.get("msg")
    for inventory_case in INVENTORIES:
        refused = harness.inventory(str(tmp_path / ("inv-" + inventory_case.id)), tls_emulator, inventory_case.config)
        assert refused.returncode != 0 or not refused.results.get("posthog_organizations")
        assert "could not be verified" in refused.stdout + refused.stderr, refused.explain()
        trusted = harness.inventory(str(tmp_path / ("inv-ca-" + inventory_case.id)), tls_emulator,
                                    dict(inventory_case.config, ca_path=tls_emulator.ca))
        assert trusted.returncode == 0, trusted.explain()
        assert trusted.results.get("posthog_organizations"), trusted.explain()
        inventory_case.verify(tls_emulator.api, trusted.results)


# --------------------------------------------------------------------------------- secrets
def assert_no_secret(run, emulator, secrets, label):
    text = run.everything
    assert run.log.strip(), "%s: ANSIBLE_LOG_PATH stayed empty" % label
    for secret in (emulator.key, emulator.key[4:24]) + tuple(secrets):
        assert secret not in text, "%s: a secret (%s...) appears in the output or the log" % (label, secret[:6])


@by_id(MODULES)
def test_secrets_never_appear_at_vvvv(case, emulator, tmp_path):
    api = emulator.api
    prepare(case, api)
    steps = module_steps(case)
    steps.append({"faults": [{"method": "*", "path": "/api/", "status": 503}]})
    steps += module_steps(case, case.converge[:1], retries=0)  # fails at the server
    # fails before any request: the first bad input, and every one that carries a secret (a refusal prints
    # the arguments as invocation)
    refused = [bad for index, bad in enumerate(case.bad_input)
               if index == 0 or any(secret in json.dumps(bad.args) for secret in case.secrets)]
    steps += [step(case, bad.args) for bad in refused]
    # Ansible's defaults (no pipelining: the module and its args go through a temporary file)
    run = harness.play(str(tmp_path), emulator, steps, verbosity=4, env={"ANSIBLE_PIPELINING": "false"})
    assert run.returncode == 0, run.explain()
    converged = len(case.converge)
    for index, bad in enumerate(refused):
        assert run.results["r%d" % (converged + 1 + index)].get("failed"), bad.id
    if case.task_vars:  # where it ran, as -vvv says
        assert (harness.RAN_AS_MODULE_PROCESS if case.task_vars.get("posthog_admin_in_process") is False
                else harness.RAN_IN_WORKER) in run.stdout, "%s did not run where its case says" % case.id
    assert not any(run.results["r%d" % n].get("failed") for n in range(converged)), failures(run)
    assert run.results["r%d" % converged].get("failed"), "the faulted task did not fail"
    assert "HTTP 503" in run.results["r%d" % converged]["msg"]
    verbose = harness.RAN_IN_WORKER if case.task_vars is harness.WORKER else "<localhost> ESTABLISH LOCAL CONNECTION"
    assert verbose in run.stdout, "not verbose enough to prove anything"
    assert_no_secret(run, emulator, case.secrets, case.id)


@pytest.mark.parametrize("inventory_case", INVENTORIES, ids=[c.id for c in INVENTORIES])
def test_inventory_secrets_never_appear_at_vvvv(inventory_case, emulator, tmp_path):
    api = emulator.api
    if inventory_case.setup:
        inventory_case.setup(api)
    success = harness.inventory(str(tmp_path / "ok"), emulator, inventory_case.config, verbosity=4)
    assert success.returncode == 0, success.explain()
    inventory_case.verify(api, success.results)
    assert_no_secret(success, emulator, inventory_case.secrets, inventory_case.id + " success")
    api.set_faults([{"method": "*", "path": "/api/", "status": 503}])
    failure = harness.inventory(str(tmp_path / "failed"), emulator, dict(inventory_case.config, retries=0),
                                verbosity=4)
    assert "HTTP 503" in failure.stdout + failure.stderr, failure.explain()
    assert_no_secret(failure, emulator, inventory_case.secrets, inventory_case.id + " failure")


@pytest.mark.parametrize("inventory_case", INVENTORIES, ids=[c.id for c in INVENTORIES])
def test_inventory_under_30_percent_transient_faults(inventory_case, emulator, tmp_path):
    api = emulator.api
    if inventory_case.setup:
        inventory_case.setup(api)
    api.set_faults(TRANSIENT, seed=SEED)
    run = harness.inventory(str(tmp_path), emulator, inventory_case.config)
    hits = api.fault_hits()
    api.clear_faults()
    assert run.returncode == 0, run.explain()
    assert hits >= 1, "the faults never fired"
    inventory_case.verify(api, run.results)


# ------------------------------------------------------------------------------- bad input
@by_id([case for case in MODULES if case.bad_input])
def test_bad_input_fails_clearly_and_writes_nothing(case, emulator, tmp_path):
    api = emulator.api
    prepare(case, api)
    steps = [{"clear_log": True}]
    steps += [step(case, bad.args, name="bad input: %s" % (bad.id or bad.args)) for bad in case.bad_input]
    run = harness.play(str(tmp_path), emulator, steps)
    assert run.returncode == 0, run.explain()
    problems = []
    for index, bad in enumerate(case.bad_input):
        result = run.results["r%d" % index]
        message = result.get("msg", "")
        if not result.get("failed"):
            problems.append("%s: did not fail" % (bad.id or bad.args))
        elif not re.search(bad.message, message):
            problems.append("%s: message %r does not match %r" % (bad.id or bad.args, message, bad.message))
        elif "Traceback" in message or "MODULE FAILURE" in message:
            problems.append("%s: crashed: %s" % (bad.id or bad.args, message[:300]))
    assert not problems, "\n".join(problems)
    writes = api.writes()
    assert writes == [], "bad input made writes: %s" % writes


# ------------------------------------------------------------------ a write that may have happened
@pytest.mark.parametrize("where", [harness.WORKER, harness.MODULE_PROCESS], ids=["in-worker", "module-process"])
def test_a_delete_answered_504_after_it_happened_is_reported_uncertain(emulator, tmp_path, where):
    """A gateway answers 504 (its HTML page) to a DELETE PostHog has done, with no retry left: the task
    says the delete may have happened, lists it as uncertain (neither done nor not attempted), shows no
    HTML; the next run finds it done. organization_state in the worker and as a module process."""
    api = emulator.api
    api.call("POST", "/api/organizations/@current/roles/", {"name": "Doomed"})
    api.clear_requests()
    args = {"definition": {"name": "Emulator Org", "roles": [{"name": "Doomed", "state": "absent"}]}, "retries": 0}
    task = {"module": "posthog.admin.organization_state", "args": args, "vars": where}
    run = harness.play(str(tmp_path), emulator, [
        {"faults": [{"method": "DELETE", "path": "/api/", "mode": "commit_then_status", "status": 504, "times": 1}]},
        task, dict(task)])
    assert run.returncode == 0, run.explain()
    first, second = run.results["r0"], run.results["r1"]
    message = first.get("msg", "")
    assert first.get("failed"), first
    assert "failed with HTTP 504: an HTML page titled '504 Gateway Time-out', not PostHog's JSON" in message, message
    assert "The DELETE may have been applied all the same (HTTP 504 came after it was sent)" in message, message
    assert "Uncertain (PostHog may have done it; the next run reads what it did): deleted roles[0]" in message
    assert "<" not in message and "Traceback" not in message
    assert [a["action"] for a in first["uncertain"]] == ["deleted"] and first["done"] == [], first
    assert first["not_attempted"] == []
    assert not second.get("failed") and second["changed"] is False, second
    assert [r["name"] for r in api.list_all("/api/organizations/@current/roles/")].count("Doomed") == 0
