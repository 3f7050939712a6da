# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 33: a secret never reaches what a person or a file sees, on any path.

* A document's secrets when the arguments are refused (``prune: maybe``, a section given as a dict instead
  of a list, both ``definition`` and ``definition_file``): in ``invocation``, the message and the result,
  in a module process (the module file run as ansible-core runs it, printing its result) and in the
  controller's worker (``run_in_process``).
* A hog function's secret a server answers as ``{"value": ...}`` instead of the marker: never in the
  result, the diff, the plan file, its Markdown or the export, and never sent back (both ways).
* The plan file: nothing in it depends on a secret's value (no offline oracle).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import subprocess
import sys

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._review import markdown
from ansible_collections.posthog.admin.plugins.module_utils._state import (
    STATE_ARGUMENT_SPEC,
    STATE_MODULE_OPTIONS,
    converge_state,
)
from ansible_collections.posthog.admin.plugins.modules import hog_function, organization_state, organization_state_info
from ansible_collections.posthog.admin.plugins.plugin_utils._in_process import run_in_process
from ansible_collections.posthog.admin.tests.unit.conftest import LiveEmulator, ModuleRun
from ansible_collections.posthog.admin.tests.unit.proxy import RewritingProxy

HERE = os.path.dirname(os.path.abspath(__file__))
KEY = "phx_secrets_unit_key_0123456789abcdef"
PG_SECRET = "pg-password-in-the-document-0033"
HOG_SECRET = "customerio-token-stored-0033"


pytestmark = pytest.mark.usefixtures("module_side")


def collections_root():
    parts = HERE.split(os.sep)
    if "ansible_collections" not in parts:
        pytest.skip("run from a built collection copy (make units)")
    return os.sep.join(parts[:parts.index("ansible_collections")])


def module_process(module, args, tmp_path):
    """The module run as ansible-core runs it (its own process, its arguments in a file): what it prints."""
    path = tmp_path / "args.json"
    path.write_text(json.dumps({"ANSIBLE_MODULE_ARGS": args}))
    source = os.path.join(collections_root(), "ansible_collections", "posthog", "admin", "plugins", "modules",
                          module + ".py")
    env = dict(os.environ, PYTHONPATH=collections_root())
    done = subprocess.run([sys.executable, source, str(path)], env=env, capture_output=True, text=True, timeout=120,
                          check=False, cwd=str(tmp_path))
    return done.stdout + done.stderr, json.loads(done.stdout.strip().splitlines()[-1])


def in_worker(args, check=False, diff=True):
    """organization_state in the controller's worker: the result as the action plugin returns it."""
    return run_in_process("posthog.admin.organization_state", STATE_ARGUMENT_SPEC, converge_state, args, check, diff,
                          **STATE_MODULE_OPTIONS)


POSTGRES = dict(name="To Postgres", interval="hour", destination=dict(type="Postgres", config=dict(
    user="exporter", password=PG_SECRET, database="events", host="db.example", schema="public", table_name="t")))
REFUSALS = [
    (dict(prune="maybe", definition=dict(name="Acme", batch_exports=[POSTGRES])), "prune"),
    (dict(definition=dict(name="Acme", batch_exports=POSTGRES)), "batch_exports"),
    (dict(definition=dict(name="Acme", batch_exports=[POSTGRES]), definition_file="acme.yml"),
     "mutually exclusive: definition|definition_file"),
    (dict(definition=dict(name="Acme", batch_exports=[dict(POSTGRES, interval="fortnightly")])), "interval"),
    (dict(definition=dict(name="Acme", batch_exports=[dict(POSTGRES, colour="blue")])), "colour"),
]
REFUSAL_IDS = ["prune-maybe", "section-a-dict", "definition-and-file", "item-refused", "unknown-key"]


@pytest.mark.parametrize("args, words", REFUSALS, ids=REFUSAL_IDS)
def test_refused_arguments_never_print_the_documents_secrets_in_a_module_process(args, words, tmp_path):
    printed, result = module_process("organization_state", dict(args, host="http://127.0.0.1:9", api_key=KEY),
                                     tmp_path)
    assert result["failed"] and words in result["msg"], result
    assert PG_SECRET not in printed and KEY not in printed
    assert result["invocation"]["module_args"]["definition"] is not None  # the arguments are printed, masked


@pytest.mark.parametrize("args, words", REFUSALS, ids=REFUSAL_IDS)
def test_refused_arguments_never_print_the_documents_secrets_in_the_worker(args, words):
    result = in_worker(dict(args, host="http://127.0.0.1:9", api_key=KEY))
    assert result["failed"] and words in result["msg"], result
    assert PG_SECRET not in json.dumps(result) and KEY not in json.dumps(result)
    assert result["invocation"]["module_args"]["definition"] is not None


def test_a_definition_file_whose_section_is_a_dict_never_prints_its_secrets(tmp_path):
    document = tmp_path / "acme.yml"
    document.write_text("name: Acme\nbatch_exports:\n  name: To Postgres\n  destination:\n    type: Postgres\n"
                        "    config: {password: %s, host: db}\n  interval: %s\n" % (PG_SECRET, PG_SECRET))
    args = dict(definition_file=str(document), host="http://127.0.0.1:9", api_key=KEY)
    printed, result = module_process("organization_state", args, tmp_path)
    assert result["failed"] and "batch_exports" in result["msg"], result
    assert PG_SECRET not in printed
    result = in_worker(args)
    assert result["failed"] and "batch_exports" in result["msg"], result
    assert PG_SECRET not in json.dumps(result)


def test_a_batch_export_list_given_as_a_dict_never_prints_its_secrets(tmp_path):
    """The same for a module's own list option: Ansible collects no_log values only as far as they validate."""
    args = dict(batch_exports=dict(name="x", destination=POSTGRES["destination"]), host="http://127.0.0.1:9",
                api_key=KEY)
    printed, result = module_process("batch_export", args, tmp_path)
    assert result["failed"], result
    assert PG_SECRET not in printed


# ---------------------------------------------------------------------------------- hog functions
@pytest.fixture
def echoing(live):
    """A proxy in front of the live emulator that answers every secret input of a hog function with its
    stored value, as ``{"value": ...}`` (not PostHog's ``{"secret": true}``); the function exists, made
    from PostHog's Customer.io template with its token set."""
    made = live.api("POST", "/api/projects/1/hog_functions/", dict(
        name="Customer.io", template_id="template-customerio", type="destination", enabled=True,
        inputs=dict(site_id=dict(value="site-1"), host=dict(value="track.customer.io"),
                    token=dict(value=HOG_SECRET))))
    proxy = RewritingProxy(live.url)

    def echo(item):
        if isinstance(item, dict) and isinstance(item.get("inputs"), dict) and \
                item["inputs"].get("token") == {"secret": True}:
            item["inputs"]["token"] = {"value": HOG_SECRET}

    def answer(method, path, answer):
        body = answer.body
        for item in (body.get("results") if isinstance(body, dict) and "results" in body else [body]):
            echo(item)

    proxy.rewrite("*", r"/hog_functions/", answer)
    proxy.function = made
    yield proxy
    proxy.stop()


def document_with_hog(**inputs):
    return dict(name="Emulator Org", hog_functions=[dict(name="Customer.io", inputs=dict(
        dict(site_id="site-2", host="track.customer.io"), **inputs))])


def state_both_ways(echoing, args, check=False):
    """organization_state through main() (a module process's code) and in the worker, against the proxy."""
    run = ModuleRun(echoing)
    run.defaults = dict(api_key=LiveEmulator.API_KEY, retries=0)
    module = run(organization_state, args, check=check)
    worker = in_worker(dict(args, host=echoing.url, api_key=LiveEmulator.API_KEY, retries=0), check=check)
    return module, worker


def test_an_echoed_hog_function_secret_is_never_shown_saved_or_rendered(echoing, tmp_path):
    for way, plan_file in (("module", tmp_path / "module.json"), ("worker", tmp_path / "worker.json")):
        args = dict(definition=document_with_hog(), plan_file=str(plan_file))
        module, worker = state_both_ways(echoing, args, check=True)
        result = module if way == "module" else worker
        assert not result.get("failed"), result.get("msg")
        assert [a["action"] for a in result["plan"]] == ["updated"], result["plan"]
        text = plan_file.read_text()
        assert HOG_SECRET not in text, "the plan file holds the secret"
        assert HOG_SECRET not in markdown(json.loads(text))
        assert HOG_SECRET not in json.dumps(module) and HOG_SECRET not in json.dumps(worker)


def test_an_echoed_hog_function_secret_is_never_sent_back(echoing):
    module, worker = state_both_ways(echoing, dict(definition=document_with_hog()))
    assert not module.get("failed"), module.get("msg")
    assert not worker.get("failed"), worker.get("msg")
    patches = [r for r in echoing.writes() if "/hog_functions/" in r["path"]]
    assert patches and all(HOG_SECRET not in (r["body"] or "") for r in patches), patches
    assert all("token" not in json.loads(r["body"]).get("inputs", {}) for r in patches), patches
    assert HOG_SECRET not in json.dumps(module) + json.dumps(worker)


def test_the_hog_function_modules_diff_and_result_never_show_an_echoed_secret(echoing):
    run = ModuleRun(echoing)
    run.defaults = dict(api_key=LiveEmulator.API_KEY, retries=0)
    result = run(hog_function, dict(project_id="1", name="Customer.io", inputs=dict(site_id="site-3")), diff=True)
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] is True
    assert HOG_SECRET not in json.dumps(result)
    assert all(HOG_SECRET not in (r["body"] or "") for r in echoing.writes())


def test_the_export_never_writes_an_echoed_secret(echoing, tmp_path):
    run = ModuleRun(echoing)
    run.defaults = dict(api_key=LiveEmulator.API_KEY, retries=0)
    dest = tmp_path / "acme.yml"
    result = run(organization_state_info, dict(dest=str(dest)))
    assert not result.get("failed"), result.get("msg")
    assert "Customer.io" in dest.read_text()
    assert HOG_SECRET not in dest.read_text() and HOG_SECRET not in json.dumps(result)


# ---------------------------------------------------------------------------------- the plan file
def test_a_plan_file_lets_nobody_test_guesses_of_a_secret(echoing, tmp_path):
    """Two plans of the same document that differ only in a secret's value (the document's Postgres
    password, the hog function's token the server echoes) are the same file, but for when each was made:
    nothing in it can confirm a guess."""
    files = []
    for guess in ("hunter2", "correct horse battery staple"):
        echoing.rules = []
        stored = guess

        def answer(method, path, answer, stored=stored):
            body = answer.body
            for item in (body.get("results") if isinstance(body, dict) and "results" in body else [body]):
                if isinstance(item, dict) and isinstance(item.get("inputs"), dict) and "token" in item["inputs"]:
                    item["inputs"]["token"] = {"value": stored}

        echoing.rewrite("*", r"/hog_functions/", answer)
        document = document_with_hog()
        document["batch_exports"] = [dict(POSTGRES, destination=dict(POSTGRES["destination"], config=dict(
            POSTGRES["destination"]["config"], password=guess)))]
        path = tmp_path / ("plan-%d.json" % len(files))
        result = in_worker(dict(definition=document, plan_file=str(path), host=echoing.url,
                                api_key=LiveEmulator.API_KEY, retries=0),
                           check=True)
        assert not result.get("failed"), result.get("msg")
        saved = json.loads(path.read_text())
        saved.pop("created_at")
        assert guess not in json.dumps(saved)
        files.append(saved)
    assert files[0] == files[1]
