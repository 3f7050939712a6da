# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make demo`: start the emulator, converge demo/site.yml, converge it again expecting changed=0,
switch the emulator to PostHog's newest API (its posthog profile) and do the same with
demo/newest.yml, export the organization as code and apply the export back (demo/adopt.yml), show
the inventory, stop the emulator. Exits non-zero if any step misbehaves."""
import json
import os
import re
import subprocess
import sys
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, ".venv", "bin")
# DEMO_COLLECTIONS_PATH runs the demo against another copy of the collection, e.g. one installed from
# the release tarball (`make demo-tarball`); the default is the checkout's copy under $BUILD.
COLLECTIONS = os.environ.get("DEMO_COLLECTIONS_PATH") or os.path.join(ROOT, os.environ.get("BUILD") or "build")
STATE = os.environ.get("DEMO_STATE") or os.path.join(ROOT, "demo", ".state")
RECAP = re.compile(r"^\S+\s*:\s*ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)", re.M)
FALSE = ("", "0", "false", "no", "off", "n", "f")


def use_colour(stream=None, environ=None):
    """Bold banners only on a terminal, and never when NO_COLOR (https://no-color.org: any non-empty
    value) or ANSIBLE_NOCOLOR (a true boolean, as Ansible reads it) asks for none."""
    stream = sys.stdout if stream is None else stream
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR"):
        return False
    if environ.get("ANSIBLE_NOCOLOR", "").strip().lower() not in FALSE:
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def banner(text):
    if use_colour():
        print("\n\033[1m== %s\033[0m" % text, flush=True)
    else:
        print("\n== %s" % text, flush=True)


def run(cmd, env):
    proc = subprocess.run(cmd, cwd=os.path.join(ROOT, "demo"), env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, check=False)
    print(proc.stdout, flush=True)
    if proc.returncode:
        sys.exit("demo: %s failed with exit code %d" % (" ".join(cmd), proc.returncode))
    return proc.stdout


def converge(env, label, playbook="site.yml"):
    banner(label)
    started = time.time()
    out = run([os.path.join(BIN, "ansible-playbook"), playbook], env)
    recap = RECAP.findall(out)
    if not recap:
        sys.exit("demo: no PLAY RECAP in the output")
    changed = sum(int(r[1]) for r in recap)
    failed = sum(int(r[3]) + int(r[2]) for r in recap)
    print("-> changed=%d failed=%d in %.1f s" % (changed, failed, time.time() - started))
    return changed, failed


def control(url, method, path, body):
    """A call to the emulator's control API (no key)."""
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(), method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:  # nosec: loopback emulator
        return json.load(answer)


def main():
    started = time.time()
    ctl = [os.path.join(BIN, "python"), os.path.join(ROOT, "tests", "utils", "emulator_ctl.py")]
    port = os.environ.get("DEMO_PORT")  # default: any free loopback port
    subprocess.check_call(ctl + ["start", "--state", STATE] + (["--port", port] if port else []))
    try:
        with open(os.path.join(STATE, "emulator.json")) as handle:
            info = json.load(handle)
        env = dict(os.environ, POSTHOG_HOST=info["url"], POSTHOG_API_KEY=info["api_key"],
                   ANSIBLE_CONFIG=os.path.join(ROOT, "demo", "ansible.cfg"),
                   ANSIBLE_COLLECTIONS_PATH=COLLECTIONS, ANSIBLE_COLLECTIONS_SCAN_SYS_PATH="false",
                   ANSIBLE_FORCE_COLOR="0", DEMO_EXPORT=os.path.join(os.path.abspath(STATE), "acme-analytics.yml"),
                   PATH=BIN + os.pathsep + os.environ.get("PATH", ""))
        changed, failed = converge(env, "First run: create everything")
        if failed or not changed:
            sys.exit("demo: the first run should change things and fail nothing")
        changed, failed = converge(env, "Second run: nothing to change")
        if failed or changed:
            sys.exit("demo: the second run changed %d things; it should change none" % changed)
        # PostHog's newest API: the emulator answers as PostHog's newest code (its posthog profile).
        control(info["url"], "PUT", "/_emulator/profile", {"profile": "posthog"})
        changed, failed = converge(env, "PostHog's newest API: an export on an integration, SSO on the domain",
                                   "newest.yml")
        if failed or not changed:
            sys.exit("demo: the first run of newest.yml should change things and fail nothing")
        changed, failed = converge(env, "PostHog's newest API again: nothing to change", "newest.yml")
        if failed or changed:
            sys.exit("demo: the second run of newest.yml changed %d things; it should change none" % changed)
        # Adopt: the organization exported as code in one task, and applied back with no change
        # (the export task writes the file: its one change).
        changed, failed = converge(env, "Adopt it: export the organization as code, apply the export back", "adopt.yml")
        if failed or changed > 1:
            sys.exit("demo: adopting the organization failed or changed %d things" % changed)
        banner("ansible-inventory --graph (posthog.admin.organizations)")
        run([os.path.join(BIN, "ansible-inventory"), "--graph"], env)
        banner("ansible-inventory --host acme-analytics")
        run([os.path.join(BIN, "ansible-inventory"), "--host", "acme-analytics"], env)
    finally:
        subprocess.call(ctl + ["stop", "--state", STATE])
    banner("Demo done in %.0f s: converged, re-converged with changed=0 (the spec's API and PostHog's newest), "
           "exported as code and applied back unchanged, inventory shown" % (time.time() - started))


if __name__ == "__main__":
    main()
