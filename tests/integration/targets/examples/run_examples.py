# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Every module's EXAMPLES, and the role's example playbook, run as written against the emulator.

One generated playbook holds one play per module (in an order where what an example needs was made
by an earlier play) and the role's play; it runs three times: in check mode, for real, and for real
again. organization_state (and the role, which is that task) may run in the controller's worker or as a
module process: the real run takes the worker (``connection: local``, the controller's Python as
``ansible_playbook_python``), the check run and the second real run take module processes
(``posthog_admin_in_process: false``), so every example runs both ways, and check mode's verdicts and
the second run's "no change" hold across them. The connection comes from module_defaults (the role's from extra vars), and whatever an
example assumes (vault variables, files, people already members, a DNS record published by a
module of another collection) is supplied by this test from setup.yml, never edited into the
example. Checked:

* no example task fails in any run;
* check mode's verdict (changed or not) is the real run's, task by task (the other way's);
* the second real run changes nothing (except the tasks setup.yml lists as actions, which always
  act: a backfill).

Usage: python run_examples.py <integration_config.yml>   (runme.sh)
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import ast
import json
import os
import subprocess
import sys

from urllib.request import Request, urlopen

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))


def collection_root():
    """Where ansible finds posthog.admin (ansible-test runs this target from a copy of the target
    alone), else the checkout this file is in."""
    try:
        answer = subprocess.check_output(["ansible-galaxy", "collection", "list", "posthog.admin", "--format", "json"],
                                         universal_newlines=True, stderr=subprocess.DEVNULL)
        for base, found in json.loads(answer).items():
            if "posthog.admin" in found:
                return os.path.join(base, "posthog", "admin")
    except (OSError, ValueError, subprocess.CalledProcessError):
        pass
    return os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))


COLLECTION = collection_root()
SETUP_PREFIX = "SETUP: "


def module_examples(name):
    """The EXAMPLES of plugins/modules/<name>.py, parsed (read from the source, not imported)."""
    with open(os.path.join(COLLECTION, "plugins", "modules", name + ".py")) as handle:
        tree = ast.parse(handle.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "EXAMPLES":
            return yaml.safe_load(node.value.value if hasattr(node.value, "value") else node.value.s)
    raise AssertionError("%s has no EXAMPLES" % name)


def role_example():
    """The example playbook of the role's README (its first yaml block)."""
    with open(os.path.join(COLLECTION, "roles", "organization_as_code", "README.md")) as handle:
        text = handle.read()
    start = text.index("```yaml\n", text.index("## Example playbook")) + len("```yaml\n")
    return yaml.safe_load(text[start:text.index("```", start)])


def all_modules():
    names = sorted(n[:-3] for n in os.listdir(os.path.join(COLLECTION, "plugins", "modules"))
                   if n.endswith(".py") and not n.startswith("_"))
    return names


def swap_standins(tasks, standins):
    """Tasks of modules outside posthog.admin and ansible.builtin replaced by setup.yml's stand-ins."""
    result = []
    for task in tasks:
        task = dict(task)
        if "block" in task:
            task["block"] = swap_standins(task["block"], standins)
            result.append(task)
            continue
        module = next((k for k in task if "." in k and not k.startswith("ansible.builtin.")), None)
        if module is not None and not module.startswith("posthog.admin."):
            if module not in standins:
                raise AssertionError("example task %r uses %s: give setup.yml a stand-in" % (task.get("name"), module))
            standin = dict(standins[module])
            standin["name"] = "%sstand-in for %s: %s" % (SETUP_PREFIX, module, task.get("name"))
            standin["vars"] = dict(standin.get("vars", {}), standin_args=task[module])
            result.append(standin)
            continue
        result.append(task)
    return result


def setup_task(task):
    """A task of setup.yml: never in check mode, and not in the check run unless it says so (what it
    sets up names objects that only the real run's examples create)."""
    task = dict(task)
    task["name"] = SETUP_PREFIX + task.get("name", "")
    task.setdefault("check_mode", False)
    if not task.pop("in_check_run", False):
        condition = task.get("when")
        if not isinstance(condition, list):
            condition = [condition] if condition else []
        task["when"] = ["examples_run != 'check'"] + condition
    return task


def playbook(config, setup):
    connection = {"host": config["posthog_host"], "api_key": config["posthog_api_key"]}
    modules = all_modules()
    order = setup["order"]
    missing = sorted(set(modules) - set(order))
    if missing:
        raise AssertionError("modules whose examples setup.yml does not place in its order: %s" % missing)
    plays = []
    only = [n for n in os.environ.get("EXAMPLES_ONLY", "").split(",") if n]  # while writing examples
    pending = setup.get("pending") or {}
    for name in order:
        if (only and name not in only) or name in pending:
            continue
        module_setup = setup.get("modules", {}).get(name) or {}
        tasks = [setup_task(t) for t in module_setup.get("before", [])]
        tasks += swap_standins(module_examples(name), setup.get("standins", {}))
        tasks += [setup_task(t) for t in module_setup.get("after", [])]
        variables = dict(setup.get("vars", {}), vault_posthog_api_key=config["posthog_api_key"],
                         emulator_url=config["emulator_url"])
        variables.update(module_setup.get("vars", {}))
        plays.append({
            "name": "examples of posthog.admin.%s" % name,
            "hosts": "localhost",
            "gather_facts": False,
            "module_defaults": {"group/posthog.admin.posthog": connection},
            "ignore_errors": True,  # recorded as "ignored": a failure, but the next examples still run
            "vars": variables,
            "tasks": tasks,
        })
    for play in [] if (only and "organization_as_code" not in only) or "organization_as_code" in pending \
            else role_example():
        play = dict(play)
        play["name"] = "examples of the role: " + play.get("name", "")
        play["hosts"] = "localhost"
        play["ignore_errors"] = True
        before = [setup_task(t) for t in setup.get("role", {}).get("before", [])]
        play["pre_tasks"] = before + list(play.get("pre_tasks", []))
        plays.append(play)
    return plays


def call(method, url, body):
    """A request to the emulator's control API."""
    request = Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    request.get_method = lambda: method
    return json.loads(urlopen(request, timeout=30).read().decode() or "null")


def run(label, extra_args, env, config):
    record = os.path.join(HERE, "record-%s.jsonl" % label)
    if os.path.exists(record):
        os.remove(record)
    command = ["ansible-playbook", "-i", "localhost,", "-c", "local", "examples.yml",
               "-e", "@" + os.path.join(HERE, "role_vars.json"), "-e", "examples_run=" + label] + extra_args
    env = dict(env, EXAMPLES_RECORD=record)
    proc = subprocess.run(command, cwd=HERE, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, check=False)
    entries = []
    if os.path.exists(record):
        with open(record) as handle:
            entries = [json.loads(line) for line in handle if line.strip()]
    return proc, entries


def examples_of(entries):
    """The example tasks' results (not setup's, not loop items': their task's result counts)."""
    return [e for e in entries if not e["task"].startswith(SETUP_PREFIX) and "item" not in e]


def main():
    with open(sys.argv[1]) as handle:
        config = yaml.safe_load(handle)
    with open(os.path.join(HERE, "setup.yml")) as handle:
        setup = yaml.safe_load(handle)
    call("POST", config["emulator_url"] + "/_emulator/reset", {})
    call("PUT", config["emulator_url"] + "/_emulator/profile", {"profile": setup.get("profile", "posthog")})
    with open(os.path.join(HERE, "examples.yml"), "w") as handle:
        yaml.safe_dump(playbook(config, setup), handle, sort_keys=False, width=120)
    with open(os.path.join(HERE, "role_vars.json"), "w") as handle:
        json.dump(dict(setup.get("vars", {}), ansible_python_interpreter="{{ ansible_playbook_python }}",
                       emulator_url=config["emulator_url"], organization_as_code_host=config["posthog_host"],
                       organization_as_code_api_key=config["posthog_api_key"]), handle)
    env = dict(os.environ, ANSIBLE_CALLBACK_PLUGINS=os.path.join(HERE, "callback_plugins"), ANSIBLE_PIPELINING="1",
               ANSIBLE_CALLBACKS_ENABLED="examples_record")
    actions = set(setup.get("actions", []))
    problems = []
    runs = {}
    module_process = ["-e", "posthog_admin_in_process=false"]
    for label, args in (("check", ["--check"] + module_process), ("real", []), ("again", module_process)):
        proc, entries = run(label, args, env, config)
        runs[label] = examples_of(entries)
        if label == "check":  # tasks whose premise only the real run's setup makes (setup.yml says why)
            runs[label] = [e for e in runs[label] if e["task"] not in (setup.get("check_run_cannot_know") or {})]
        for entry in entries:
            if entry["task"].startswith(SETUP_PREFIX) and entry["outcome"] in ("failed", "ignored"):
                problems.append("%s run, %s / %s failed: %s" % (label, entry["play"], entry["task"], entry["msg"]))
        failed = [e for e in runs[label] if e["outcome"] in ("failed", "ignored")]
        for entry in failed:
            problems.append("%s run, %s / %s failed: %s" % (label, entry["play"], entry["task"], entry["msg"]))
        if proc.returncode and not failed:
            problems.append("%s run: ansible-playbook exited %d:\n%s" % (label, proc.returncode, proc.stdout[-3000:]))
        print("%s run: %d example task results, %d changed, %d failed (exit %d)" % (
            label, len(runs[label]), len([e for e in runs[label] if e["changed"]]), len(failed), proc.returncode))
    # Check mode cannot see what an earlier task of the same run would have made, so its verdict is
    # compared with the real run's up to the first task of each play that changed for real.
    real = dict(((e["play"], e["task"]), e) for e in runs["real"])
    changed_before = set()
    for entry in runs["check"]:
        other = real.get((entry["play"], entry["task"]))
        if other is None or "failed" in (entry["outcome"], other["outcome"]) or "ignored" in (
                entry["outcome"], other["outcome"]) or "skipped" in (entry["outcome"], other["outcome"]):
            continue
        if entry["play"] not in changed_before and entry["changed"] != other["changed"]:
            problems.append("check mode said changed=%s, the real run changed=%s: %s / %s" % (
                entry["changed"], other["changed"], entry["play"], entry["task"]))
        if other["changed"]:
            changed_before.add(entry["play"])
    for entry in runs["again"]:
        if entry["changed"] and entry["task"] not in actions:
            problems.append("the second real run changed: %s / %s" % (entry["play"], entry["task"]))
    for name, why in sorted((setup.get("pending") or {}).items()):
        print("NOT RUN YET: the examples of %s: %s" % (name, why))
    if problems:
        print("\n".join(problems))
        sys.exit(1)
    print("every example ran as written: check mode, for real, and again with no change")


if __name__ == "__main__":
    main()
