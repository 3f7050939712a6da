# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make awx-job`: run docs/docsite/rst/guide_awx.rst the way AWX runs a job, and look for leaks.

    python tests/utils/awx_job.py --tarball T --release-bin .venv-release/bin --emulator-python .venv/bin/python --work DIR

Run by the release venv's Python (it has ansible-runner and Jinja2). AWX hands ansible-runner a
private data directory: the project, an inventory, and env/envvars holding what the job's
credentials inject. This script builds one:

- the collection installed from the release tarball (the execution environment's part);
- env/envvars from the guide's custom credential type: its injector configuration, rendered with
  Jinja2 from the inputs a user would enter (the emulator's address and its API key; AWX renders
  injectors with Jinja2 too), plus, for an older PostHog, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY
  as AWX's built-in Amazon Web Services credential injects them;
- project/site.yml and project/organizations/acme-analytics.yml from the guide, which converge an
  organization with the role posthog.admin.organization_as_code, including an S3 batch export;
- an inventory with localhost as AWX's Demo Inventory has it;

then `ansible-runner run` against a posthog-emulator on 127.0.0.1, at verbosity -vvv, for each of the
emulator's profiles with the guide's document for it: ``posthog`` (PostHog's newest API: the
integration acme-aws the document declares, made by the role with the keys the AWS credential injects,
and an AwsS3 export naming it) and ``spec`` (an older PostHog: the S3 export with those keys). As the guide's job
template says: a check job, a run, and a run again that changes nothing; and all of it twice, the
second time with posthog_admin_in_process: false in the job's extra variables (organization_state as a
module process instead of in the controller's worker).

It checks that the jobs succeeded, that PostHog has the organization and the export (with the
integration holding the keys the credential injected, or with those keys), and that neither the API key nor
the secret access key appears in the jobs' events (artifacts/<job>/job_events/*.json: what AWX shows
and stores) or their stdout, nor in any other artifact but `command`, where ansible-runner records the
job's environment by design.
"""
import argparse
import glob
import json
import os
import re
import secrets
import shutil
import string
import subprocess
import sys
import time
import urllib.request

import jinja2.sandbox
import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_blocks  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GUIDE = os.path.join(ROOT, "docs", "docsite", "rst", "guide_awx.rst")
JOB = "job1"
VERBOSITY = 3


def fail(message, output=None):
    if output:
        sys.stderr.write(output.rstrip()[-6000:] + "\n")
    sys.exit("awx-job: " + message)


def rst_blocks(path):
    """The guide's code blocks by their first line (a comment naming them), as {name: body}."""
    return dict((b.body.splitlines()[0].lstrip("# ").strip(), b.body) for b in doc_blocks.rst_blocks(path)
                if b.body.startswith("#"))


def block(blocks, name):
    if name not in blocks:
        fail("%s has no code block starting with '# %s'" % (GUIDE, name))
    return blocks[name]


def random_text(prefix, length=32):
    return prefix + "".join(secrets.choice(string.ascii_letters + string.digits) for dummy in range(length))


def credential_env(blocks, inputs):
    """What AWX injects for a credential of the guide's type: its injector's env, rendered."""
    type_inputs = yaml.safe_load(block(blocks, "Input configuration"))
    injectors = yaml.safe_load(block(blocks, "Injector configuration"))
    fields = dict((f["id"], f) for f in type_inputs["fields"])
    if set(inputs) - set(fields):
        fail("the credential type has no field for %s" % sorted(set(inputs) - set(fields)))
    if not fields["api_key"].get("secret"):
        fail("the credential type's api_key field is not secret: AWX would show it")
    for required in type_inputs.get("required", []):
        if required not in inputs and "default" not in fields[required]:
            fail("the credential type requires %r" % required)
    values = dict((k, f["default"]) for k, f in fields.items() if "default" in f)
    values.update(inputs)
    if set(injectors) != {"env"}:
        fail("the guide's injector should inject environment variables only, not %s" % sorted(injectors))
    env = jinja2.sandbox.ImmutableSandboxedEnvironment(undefined=jinja2.StrictUndefined)
    injected = dict((k, env.from_string(v).render(**values)) for k, v in injectors["env"].items())
    if injected.get("POSTHOG_API_KEY") != inputs["api_key"] or injected.get("POSTHOG_HOST") != inputs["host"]:
        fail("the injector does not set POSTHOG_HOST and POSTHOG_API_KEY from the credential: %s" % sorted(injected))
    return injected


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(text)


def api(url, key, path):
    request = urllib.request.Request(url + path, headers={"Authorization": "Bearer " + key})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def leaks(root, needles, skip=()):
    """(file, secret name) for every file under root that holds one of the secrets."""
    found = []
    for dirpath, dummy, files in os.walk(root):
        for name in files:
            path = os.path.join(dirpath, name)
            if os.path.relpath(path, root) in skip:
                continue
            with open(path, "rb") as handle:
                data = handle.read()
            for label, value in needles.items():
                if value.encode() in data or json.dumps(value)[1:-1].encode() in data:
                    found.append((os.path.relpath(path, root), label))
    return found


RECAP = re.compile(r"^(\S+)\s*:\s*ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)", re.M)
# The guide's organization document for each profile, by its first line; and whether the export holds the
# AWS keys the job's credential injects itself (an older PostHog), or writes with an integration holding them.
CASES = [
    ("posthog", "organizations/acme-analytics.yml", False),
    ("spec", "organizations/acme-analytics.yml, for an older PostHog (credentials with the export)", True),
]
WAYS = [("worker", {}), ("module process", {"posthog_admin_in_process": False})]
# What the job template does, in order: (job type, extra ansible-playbook arguments, changed expected).
JOBS = [("check", "--check --diff", True), ("run", "", True), ("run again", "", False)]


def call(url, method="GET", body=None, key=None):
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = "Bearer " + key
    request = urllib.request.Request(url, data=json.dumps(body).encode() if body is not None else None,
                                     headers=headers, method=method)
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read()
    return json.loads(text) if text else None


def run_job(release_bin, ee_env, pdd, ident, cmdline, started):
    if cmdline:
        write(os.path.join(pdd, "env", "cmdline"), cmdline)
    elif os.path.exists(os.path.join(pdd, "env", "cmdline")):
        os.remove(os.path.join(pdd, "env", "cmdline"))
    cmd = [os.path.join(release_bin, "ansible-runner"), "run", pdd, "-p", "site.yml", "--ident", ident] + \
        ["-v"] * VERBOSITY
    proc = subprocess.run(cmd, env=ee_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          check=False, timeout=900)
    artifacts = os.path.join(pdd, "artifacts", ident)
    print("awx-job:   %s: ansible-runner run (verbosity %d) -> exit %d, status %s, %d job events, at %.0f s" % (
        ident, VERBOSITY, proc.returncode, open(os.path.join(artifacts, "status")).read().strip(),
        len(glob.glob(os.path.join(artifacts, "job_events", "*.json"))), time.time() - started))
    if proc.returncode:
        fail("job %s failed" % ident, proc.stdout)
    return proc, artifacts


def run_case(args, blocks, profile, document, aws, way, extravars, work, started):
    release_bin = os.path.abspath(args.release_bin)
    pdd = os.path.join(work, "private_data_dir")
    home = os.path.join(work, "home")
    collections = os.path.join(work, "ee", "collections")
    os.makedirs(home)
    print("awx-job: the %s profile, %s" % (profile, way))

    # The execution environment: ansible-core, requests, and the collection from its tarball.
    base_env = dict((k, v) for k, v in os.environ.items()
                    if not k.startswith(("ANSIBLE_", "POSTHOG_", "AWS_", "VIRTUAL_ENV", "PYTHON", "MOLECULE_")))
    base_env.update(HOME=home, PATH=release_bin + os.pathsep + os.environ.get("PATH", ""))
    subprocess.run([os.path.join(release_bin, "ansible-galaxy"), "collection", "install", "--force", "-p", collections,
                    os.path.abspath(args.tarball)], env=dict(base_env, ANSIBLE_COLLECTIONS_PATH=collections), check=True,
                   stdout=subprocess.DEVNULL)
    ee_env = dict(base_env, ANSIBLE_COLLECTIONS_PATH=collections)

    state = os.path.join(work, "emulator")
    ctl = [os.path.abspath(args.emulator_python), os.path.join(ROOT, "tests", "utils", "emulator_ctl.py")]
    subprocess.check_call(ctl + ["start", "--state", state, "--profile", profile])
    try:
        with open(os.path.join(state, "emulator.json")) as handle:
            emulator = json.load(handle)
        key = emulator["api_key"]
        organization = block(blocks, document)
        declared = yaml.safe_load(organization)["acme_analytics"]
        # What the job's credentials inject: the guide's PostHog type, and AWX's Amazon Web Services.
        envvars = credential_env(blocks, dict(host=emulator["url"], api_key=key))
        needles = {"the API key": key}
        aws_key_id = random_text("AKIA", 16).upper()
        aws_secret = random_text("awx-job-secret-")
        envvars.update(AWS_ACCESS_KEY_ID=aws_key_id, AWS_SECRET_ACCESS_KEY=aws_secret)
        needles["the S3 secret access key"] = aws_secret
        write(os.path.join(pdd, "env", "envvars"), yaml.safe_dump(envvars))
        write(os.path.join(pdd, "env", "settings"), yaml.safe_dump({"job_timeout": 600}))
        if extravars:
            write(os.path.join(pdd, "env", "extravars"), yaml.safe_dump(extravars))
        write(os.path.join(pdd, "inventory", "hosts.yml"), yaml.safe_dump({"all": {"hosts": {"localhost": {
            "ansible_connection": "local", "ansible_python_interpreter": "{{ ansible_playbook_python }}"}}}}))
        write(os.path.join(pdd, "project", "site.yml"), block(blocks, "site.yml"))
        write(os.path.join(pdd, "project", "organizations", "acme-analytics.yml"), organization)

        events, stdout = [], ""
        for number, (job_type, cmdline, expect_change) in enumerate(JOBS, 1):
            ident = "job%d" % number
            proc, artifacts = run_job(release_bin, ee_env, pdd, ident, cmdline, started)
            stdout += proc.stdout
            changed = sum(int(r[2]) for r in RECAP.findall(re.sub(r"\x1b\[[0-9;]*m", "", proc.stdout)))
            if bool(changed) != expect_change:
                fail("the %s job reported changed=%d; the guide's job template expects %s" % (
                    job_type, changed, "a change" if expect_change else "changed=0"), proc.stdout)
            job_events = [json.load(open(p)) for p in glob.glob(os.path.join(artifacts, "job_events", "*.json"))]
            events.extend(job_events)
            actions = set((e.get("event_data") or {}).get("resolved_action") or
                          (e.get("event_data") or {}).get("task_action")
                          for e in job_events if e.get("event") in ("runner_on_ok", "runner_item_on_ok"))
            # The role is one organization_state task, whose result carries the batch export's secret
            # as its definition held it: its event is where a leak would show.
            if "posthog.admin.organization_state" not in actions:
                fail("no job event of the role's organization_state task (actions run: %s): did the role run?"
                     % sorted(filter(None, actions)))
            # Nothing the job shows or stores may hold the secrets.
            shown = leaks(os.path.join(artifacts, "job_events"), needles)
            shown += [("stdout (ansible-runner's)", label) for label, value in needles.items() if value in proc.stdout]
            shown += [("artifacts/%s/%s" % (ident, path), label)
                      for path, label in leaks(artifacts, needles, skip=("command",))
                      if not path.startswith("job_events")]
            if shown:
                fail("secrets in what the job shows: %s" % ", ".join("%s in %s" % (label, path) for path, label in shown))

        # The jobs did their work: the organization and the export, with its integration or its keys.
        orgs = [o for o in call(emulator["url"] + "/api/organizations/", key=key)["results"]
                if o["name"] == declared["name"]]
        if len(orgs) != 1:
            fail("PostHog has %d organizations named %r" % (len(orgs), declared["name"]))
        org = call("%s/api/organizations/%s/" % (emulator["url"], orgs[0]["id"]), key=key)
        for setting, value in declared["settings"].items():
            if org.get(setting) != value:
                fail("the organization's %s is %r, not %r" % (setting, org.get(setting), value))
        project = (org.get("teams") or org.get("projects"))[0]["id"]
        route = "/api/projects/%s/batch_exports/" % project if not aws else \
            "/api/organizations/%s/batch_exports/" % org["id"]
        wanted = declared["batch_exports"][0]
        export = [e for e in call(emulator["url"] + route, key=key)["results"] if e["name"] == wanted["name"]]
        if len(export) != 1:
            fail("PostHog has %d batch exports named %r" % (len(export), wanted["name"]))
        stored = call("%s/_emulator/batch_exports/%s" % (emulator["url"], export[0]["id"]))["destination"]
        if aws:
            if stored["config"].get("aws_secret_access_key") != aws_secret or \
                    stored["config"].get("aws_access_key_id") != aws_key_id:
                fail("PostHog did not receive the credentials the AWS credential injected")
            what = "the S3 export %r, holding the injected access key" % export[0]["name"]
        else:
            integrations = call("%s/api/projects/%s/integrations/" % (emulator["url"], project), key=key)["results"]
            named = [i["id"] for i in integrations if (i.get("config") or {}).get("name") == wanted["destination"][
                "integration"]]
            if stored.get("type") != "AwsS3" or str(stored.get("integration")) not in [str(i) for i in named]:
                fail("the export does not write with the integration %r: %s" % (
                    wanted["destination"]["integration"], json.dumps(stored)))
            keys = call("%s/_emulator/integrations/%s" % (emulator["url"], named[0]))["sensitive_config"]
            if keys != {"aws_access_key_id": aws_key_id, "aws_secret_access_key": aws_secret}:
                fail("the integration %r does not hold the keys the AWS credential injected" % named[0])
            what = "the AwsS3 export %r, writing with the integration %r the job created with the injected keys" % (
                export[0]["name"], wanted["destination"]["integration"])
        print("awx-job:   PostHog has %r with its settings and %s; check, run, run again (changed=0)" % (org["name"], what))
        recorded = sorted(set(label for ident in ("job1", "job2", "job3")
                              for dummy, label in leaks(os.path.join(pdd, "artifacts", ident), needles)
                              if dummy == "command"))
        print("awx-job:   %s: in none of the %d job events, the stdout or any other artifact (artifacts/<job>/command "
              "records the job's environment, as ansible-runner always does: %s)" % (
                  ", ".join(sorted(needles)), len(events), ", ".join(recorded) or "nothing"))
    finally:
        subprocess.call(ctl + ["stop", "--state", state])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tarball", required=True)
    parser.add_argument("--release-bin", required=True, help="the venv bin with ansible-runner and ansible-core")
    parser.add_argument("--emulator-python", required=True, help="a Python with posthog-emulator installed")
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    started = time.time()
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    blocks = rst_blocks(GUIDE)
    for profile, document, aws in CASES:
        for way, extravars in WAYS:
            run_case(args, blocks, profile, document, aws, way, extravars,
                     os.path.join(work, "%s-%s" % (profile, way.replace(" ", "-"))), started)
    print("awx-job: passed in %.0f s" % (time.time() - started))


if __name__ == "__main__":
    main()
