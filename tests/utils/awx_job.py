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
  injectors with Jinja2 too), plus AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY as AWX's built-in
  Amazon Web Services credential injects them;
- project/site.yml and project/organizations/acme-analytics.yml from the guide, which converge an
  organization with the role posthog.admin.organization_as_code, including an S3 batch export whose
  aws_secret_access_key comes from the environment;
- an inventory with localhost as AWX's Demo Inventory has it;

then `ansible-runner run` against a posthog-emulator on 127.0.0.1, at verbosity -vvv. It checks that
the job succeeded, that PostHog has the organization and the export with the secret access key the
credential injected, and that neither the API key nor the secret access key appears in the job's
events (artifacts/<job>/job_events/*.json: what AWX shows and stores) or its stdout, nor in any
other artifact but `command`, where ansible-runner records the job's environment by design.
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

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GUIDE = os.path.join(ROOT, "docs", "docsite", "rst", "guide_awx.rst")
JOB = "job1"
VERBOSITY = 3


def fail(message, output=None):
    if output:
        sys.stderr.write(output.rstrip()[-6000:] + "\n")
    sys.exit("awx-job: " + message)


def rst_blocks(path):
    """The code-block directives of an rst file, as {first comment line: body}."""
    with open(path) as handle:
        lines = handle.read().splitlines()
    blocks = {}
    for index, line in enumerate(lines):
        if not re.match(r"^\.\. code-block::", line):
            continue
        body = []
        for following in lines[index + 1:]:
            if following.strip() and not following.startswith(" "):
                break
            body.append(following)
        while body and not body[-1].strip():
            body.pop()
        while body and not body[0].strip():
            body.pop(0)
        indent = min(len(b) - len(b.lstrip()) for b in body if b.strip())
        text = "\n".join(b[indent:] for b in body) + "\n"
        first = text.splitlines()[0]
        if first.startswith("#"):
            blocks[first.lstrip("# ").strip()] = text
    return blocks


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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tarball", required=True)
    parser.add_argument("--release-bin", required=True, help="the venv bin with ansible-runner and ansible-core")
    parser.add_argument("--emulator-python", required=True, help="a Python with posthog-emulator installed")
    parser.add_argument("--work", required=True)
    args = parser.parse_args()
    started = time.time()
    release_bin = os.path.abspath(args.release_bin)
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    pdd = os.path.join(work, "private_data_dir")
    home = os.path.join(work, "home")
    collections = os.path.join(work, "ee", "collections")
    os.makedirs(home)
    blocks = rst_blocks(GUIDE)

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
    subprocess.check_call(ctl + ["start", "--state", state])
    try:
        with open(os.path.join(state, "emulator.json")) as handle:
            emulator = json.load(handle)
        aws_key_id = random_text("AKIA", 16).upper()
        aws_secret = random_text("awx-job-secret-")

        # What the job's two credentials inject: the guide's PostHog type, and AWX's Amazon Web Services.
        envvars = credential_env(blocks, dict(host=emulator["url"], api_key=emulator["api_key"]))
        envvars.update(AWS_ACCESS_KEY_ID=aws_key_id, AWS_SECRET_ACCESS_KEY=aws_secret)
        write(os.path.join(pdd, "env", "envvars"), yaml.safe_dump(envvars))
        write(os.path.join(pdd, "env", "settings"), yaml.safe_dump({"job_timeout": 600}))
        write(os.path.join(pdd, "inventory", "hosts.yml"), yaml.safe_dump({"all": {"hosts": {"localhost": {
            "ansible_connection": "local", "ansible_python_interpreter": "{{ ansible_playbook_python }}"}}}}))
        write(os.path.join(pdd, "project", "site.yml"), block(blocks, "site.yml"))
        organization = block(blocks, "organizations/acme-analytics.yml")
        write(os.path.join(pdd, "project", "organizations", "acme-analytics.yml"), organization)
        declared = yaml.safe_load(organization)["acme_analytics"]

        cmd = [os.path.join(release_bin, "ansible-runner"), "run", pdd, "-p", "site.yml", "--ident", JOB] + \
            ["-v"] * VERBOSITY
        proc = subprocess.run(cmd, env=ee_env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              check=False, timeout=900)
        artifacts = os.path.join(pdd, "artifacts", JOB)
        print("awx-job: ansible-runner run (verbosity %d) -> exit %d, status %s, %d job events, in %.0f s" % (
            VERBOSITY, proc.returncode, open(os.path.join(artifacts, "status")).read().strip(),
            len(glob.glob(os.path.join(artifacts, "job_events", "*.json"))), time.time() - started))
        if proc.returncode:
            fail("the job failed", proc.stdout)
        events = [json.load(open(p)) for p in glob.glob(os.path.join(artifacts, "job_events", "*.json"))]
        actions = set((e.get("event_data") or {}).get("resolved_action") or (e.get("event_data") or {}).get("task_action")
                      for e in events if e.get("event") in ("runner_on_ok", "runner_item_on_ok"))
        # The role is one organization_state task, whose result carries the batch export's secret
        # as its definition held it: its event is where a leak would show.
        if "posthog.admin.organization_state" not in actions:
            fail("no job event of the role's organization_state task (actions run: %s): did the role run?"
                 % sorted(filter(None, actions)))

        # The job did its work: the organization and the export, with the secret that was injected.
        key = emulator["api_key"]
        orgs = [o for o in api(emulator["url"], key, "/api/organizations/")["results"] if o["name"] == declared["name"]]
        if len(orgs) != 1:
            fail("PostHog has %d organizations named %r" % (len(orgs), declared["name"]))
        org = api(emulator["url"], key, "/api/organizations/%s/" % orgs[0]["id"])
        for setting, value in declared["settings"].items():
            if org.get(setting) != value:
                fail("the organization's %s is %r, not %r" % (setting, org.get(setting), value))
        exports = api(emulator["url"], key, "/api/organizations/%s/batch_exports/" % org["id"])["results"]
        wanted = declared["batch_exports"][0]
        export = [e for e in exports if e["name"] == wanted["name"]]
        if len(export) != 1:
            fail("PostHog has %d batch exports named %r" % (len(export), wanted["name"]))
        stored = json.load(urllib.request.urlopen("%s/_emulator/batch_exports/%s" % (emulator["url"], export[0]["id"]),
                                                  timeout=10))["destination"]["config"]
        if stored.get("aws_secret_access_key") != aws_secret or stored.get("aws_access_key_id") != aws_key_id:
            fail("PostHog did not receive the credentials the AWS credential injected")
        print("awx-job: PostHog has %r with its settings and the S3 export %r, holding the injected access key"
              % (org["name"], export[0]["name"]))

        # Nothing the job shows or stores may hold the secrets.
        needles = {"the API key": key, "the S3 secret access key": aws_secret}
        shown = leaks(os.path.join(artifacts, "job_events"), needles)
        shown += [("stdout (ansible-runner's)", label) for label, value in needles.items() if value in proc.stdout]
        shown += [("artifacts/%s/%s" % (JOB, path), label) for path, label in leaks(artifacts, needles, skip=("command",))
                  if not path.startswith("job_events")]
        if shown:
            fail("secrets in what the job shows: %s" % ", ".join("%s in %s" % (label, path) for path, label in shown))
        recorded = sorted(set(label for dummy, label in leaks(artifacts, needles) if dummy == "command"))
        print("awx-job: neither the API key nor the S3 secret access key is in the %d job events, the stdout "
              "or any other artifact (artifacts/%s/command records the job's environment, as ansible-runner "
              "always does: %s)" % (len(events), JOB, ", ".join(recorded) or "nothing"))
    finally:
        subprocess.call(ctl + ["stop", "--state", state])
    print("awx-job: passed in %.0f s" % (time.time() - started))


if __name__ == "__main__":
    main()
