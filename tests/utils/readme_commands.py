# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make readme-check`: do what README.md tells a new user, on a machine as clean as theirs.

1. "Testing your roles against the emulator": every command of its ``sh`` blocks is replayed from
   the checkout's root, in order, with HOME an empty directory and no ANSIBLE_* or POSTHOG_*
   variable beyond what the commands set themselves (a collection in ~/.ansible/collections once
   hid that the README never installed one). The ``serve`` command runs in the background until
   it prints its ready line and is stopped at the end with SIGINT, as Ctrl-C would; the playbook
   is the section's ``your-playbook.yml``. Only the port (a free one instead of 8010), the database
   path and the playbook's path are substituted. First, the same playbook must fail to resolve
   posthog.admin.organization_info in an empty HOME: proof that nothing outside the README's steps
   provides the collection.
2. "The inventory: one host per organization", and the same example in the docs guide
   (docs/docsite/rst/guide_inventory.rst): the inventory file and the play over the organization
   hosts run against an emulator with a broken ``python3.13`` (a pyenv-like shim) first on PATH,
   as documented (they must pass), the guide's play also with its group_vars file instead of the
   play's ``connection`` and ``vars``, and the README's play without its ``ansible_python_interpreter``
   line (it must fail: the test does reproduce what the line prevents).
"""
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import doc_blocks  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, ".venv", "bin")
README = os.path.join(ROOT, "README.md")
GUIDE = os.path.join(ROOT, "docs", "docsite", "rst", "guide_inventory.rst")
TESTING = "## Testing your roles against the emulator"
INVENTORY = "## The inventory: one host per organization"
INTERPRETER = 'ansible_python_interpreter: "{{ ansible_playbook_python }}"'
RECAP = re.compile(r"^(\S+)\s*:\s*ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)", re.M)
# The interpreters Ansible's discovery tries first (INTERPRETER_PYTHON_FALLBACK): a shim for each.
SHIMMED = ["python3.13", "python3.12", "python3.11", "python3.10", "python3.9", "python3.8", "python3"]
SHIM = '#!/bin/sh\necho "pyenv: $(basename "$0"): command not found" >&2\nexit 127\n'


def fail(message, output=None):
    if output:
        sys.stderr.write(output.rstrip() + "\n")
    sys.exit("readme-check: " + message)


def section(path, heading):
    sections = doc_blocks.md_sections(path)
    if heading not in sections:
        fail("%s has no section %r" % (path, heading))
    return sections[heading]


def fenced(text):
    """The fenced code blocks of a Markdown text, as (language, body)."""
    return [(b.lang, b.body) for b in doc_blocks.md_blocks(text)]


def rst_blocks(path):
    """The code-block directives of an rst file, as (language, body)."""
    return [(b.lang, b.body) for b in doc_blocks.rst_blocks(path)]


def named(blocks, name, where):
    """The YAML block whose first line is a comment naming the file `name`."""
    for lang, body in blocks:
        first = body.splitlines()[0] if body.strip() else ""
        if lang.startswith("yaml") and re.match(r"#\s*%s\b" % re.escape(name), first):
            return body
    return fail("%s: no yaml block starting with '# %s'" % (where, name))


def commands(text):
    """The command lines of the sh blocks, backslash continuations joined, without comments."""
    return [step.command for block in doc_blocks.md_blocks(text) if block.lang in ("sh", "console", "bash")
            for step in doc_blocks.console_steps(block)]


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def clean_env(home, extra=None):
    """The environment of a new user's shell: no Ansible, PostHog, pyenv or virtualenv settings."""
    dropped = ("ANSIBLE_", "POSTHOG_", "MOLECULE_", "PYENV_", "XDG_", "VIRTUAL_ENV", "PYTHON", "BUILD", "MAKE",
               "MFLAGS", "DEMO_")
    env = dict((k, v) for k, v in os.environ.items() if not k.startswith(dropped))
    env.update(HOME=home, LC_ALL=env.get("LC_ALL", "C.UTF-8"))
    env.update(extra or {})
    return env


def run(cmd, env, cwd, expect_ok=True, shell=False):
    started = time.time()
    proc = subprocess.run(cmd if not shell else ["bash", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, check=False, timeout=300)
    shown = cmd if shell else " ".join(cmd)
    print("  $ %s  -> exit %d in %.1f s" % (shown.replace(ROOT + "/", ""), proc.returncode, time.time() - started))
    if expect_ok and proc.returncode:
        fail("%r failed (exit %d)" % (shown, proc.returncode), proc.stdout)
    return proc


def check_recap(output, what, hosts=None):
    recap = RECAP.findall(output)
    if not recap:
        fail("%s: no PLAY RECAP" % what, output)
    bad = [r for r in recap if int(r[3]) or int(r[4])]
    if bad:
        fail("%s: failed or unreachable hosts %s" % (what, [r[0] for r in bad]), output)
    if hosts is not None and sorted(r[0] for r in recap) != sorted(hosts):
        fail("%s: ran on %s, expected %s" % (what, sorted(r[0] for r in recap), sorted(hosts)), output)


def start_serve(line, env, log_path):
    log = open(log_path, "w")
    proc = subprocess.Popen(["bash", "-c", "exec " + line], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    print("  $ %s &  (pid %d)" % (line.replace(ROOT + "/", ""), proc.pid))
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            fail("the emulator exited with %s" % proc.returncode, open(log_path).read())
        with open(log_path) as handle:
            if "posthog-emulator listening on" in handle.read():
                return proc
        time.sleep(0.1)
    proc.kill()
    return fail("the emulator printed no ready line within 30 s", open(log_path).read())


def stop_serve(proc):
    """Ctrl-C, as the README says; the process must be gone within 10 s."""
    if proc.poll() is not None:
        fail("the emulator exited before the end (exit %s)" % proc.returncode)
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        fail("the emulator did not stop on SIGINT (Ctrl-C) within 10 s")
    print("  emulator stopped by SIGINT (Ctrl-C), exit %d" % proc.returncode)


def check_testing_section(work):
    """Part 1: the README's "Testing your roles against the emulator", replayed in an empty HOME."""
    print("== README: %s" % TESTING[3:])
    text = section(README, TESTING)
    playbook = os.path.join(work, "your-playbook.yml")
    with open(playbook, "w") as handle:
        handle.write(named(fenced(text), "your-playbook.yml", "README.md " + TESTING))
    lines = commands(text)
    for needle in ("posthog_emulator serve", "ansible-playbook your-playbook.yml"):
        if not any(needle in line for line in lines):
            fail("README.md %s: no command with %r" % (TESTING, needle))

    # Nothing but the README's commands may provide the collection.
    bare = os.path.join(work, "home-bare")
    os.makedirs(bare)
    proc = run([os.path.join(BIN, "ansible-playbook"), "--syntax-check", playbook], clean_env(bare), ROOT,
               expect_ok=False)
    if proc.returncode == 0 or "posthog.admin.organization_info" not in proc.stdout:
        fail("in an empty HOME, the playbook should not find posthog.admin.organization_info before the README's "
             "install step; something else provides the collection", proc.stdout)
    print("  (as expected: without the README's install step, posthog.admin.organization_info is not found)")

    home = os.path.join(work, "home")
    os.makedirs(home)
    port = str(free_port())
    subst = [("8010", port), ("/tmp/ph.sqlite3", os.path.join(work, "ph.sqlite3")),
             ("your-playbook.yml", playbook)]
    server = None
    played = None
    try:
        for line in lines:
            for old, new in subst:
                line = line.replace(old, new)
            if "posthog_emulator serve" in line or "posthog-emulator serve" in line:
                server = start_serve(line, clean_env(home), os.path.join(work, "emulator.log"))
                continue
            proc = run(line, clean_env(home), ROOT, shell=True)
            if "ansible-playbook" in line:
                played = proc.stdout
        if played is None:
            fail("no ansible-playbook command ran")
        check_recap(played, "your-playbook.yml", hosts=["localhost"])
        if "Emulator Org" not in played:
            fail("your-playbook.yml did not list the emulator's organization 'Emulator Org'", played)
        print("  your-playbook.yml listed 'Emulator Org'")
    finally:
        if server is not None:
            stop_serve(server)
    return home


def check_inventory_example(work, home, source, inventory_yml, play_yml, url, key, shims, expect_ok=True,
                            files=None):
    tag = source if expect_ok else source + ", without ansible_python_interpreter"
    case = os.path.join(work, re.sub(r"\W+", "-", tag).strip("-"))
    os.makedirs(os.path.join(case, "inventory"))
    with open(os.path.join(case, "inventory", "posthog.yml"), "w") as handle:
        handle.write(inventory_yml)
    for name, text in (files or {}).items():
        os.makedirs(os.path.dirname(os.path.join(case, name)), exist_ok=True)
        with open(os.path.join(case, name), "w") as handle:
            handle.write(text)
    with open(os.path.join(case, "organizations.yml"), "w") as handle:
        handle.write(play_yml)
    env = clean_env(home, dict(POSTHOG_HOST=url, POSTHOG_API_KEY=key,
                               PATH=shims + os.pathsep + os.environ.get("PATH", "")))
    proc = run([os.path.join(BIN, "ansible-playbook"), "-i", "inventory/posthog.yml", "organizations.yml"], env, case,
               expect_ok=False)
    if expect_ok:
        if proc.returncode:
            fail("%s: the inventory example failed (exit %d)" % (tag, proc.returncode), proc.stdout)
        check_recap(proc.stdout, tag, hosts=["emulator-org"])
        print("  %s: ran on emulator-org in Ansible's own Python, past the broken python3.13 shim" % tag)
    else:
        if proc.returncode == 0 or "command not found" not in proc.stdout:
            fail("%s: expected the broken python3.13 shim to fail the play; the check no longer reproduces "
                 "the problem" % tag, proc.stdout)
        print("  %s: fails through the broken shim, as expected" % tag)


def check_inventory_sections(work, home):
    """Part 2: the inventory example of the README and of the docs guide, past a broken interpreter shim."""
    print("== README: %s, and docs/docsite/rst/guide_inventory.rst" % INVENTORY[3:])
    readme = fenced(section(README, INVENTORY))
    guide = rst_blocks(GUIDE)
    examples = [
        ("README.md", named(readme, "inventory/posthog.yml", "README.md"), named(readme, "organizations.yml", "README.md")),
        ("guide_inventory.rst", named(guide, "inventory/posthog.yml", GUIDE), named(guide, "organizations.yml", GUIDE)),
    ]
    for source, dummy, play in examples:
        if INTERPRETER not in play:
            fail("%s: the play over the organizations lacks %s" % (source, INTERPRETER))
    group_vars_name = "inventory/group_vars/posthog_organizations.yml"
    group_vars = named(guide, group_vars_name, GUIDE)
    if INTERPRETER not in group_vars:
        fail("%s: %s lacks %s" % (GUIDE, group_vars_name, INTERPRETER))
    shims = os.path.join(work, "shims")
    os.makedirs(shims)
    for name in SHIMMED:
        with open(os.path.join(shims, name), "w") as handle:
            handle.write(SHIM)
        os.chmod(os.path.join(shims, name), 0o755)
    state = os.path.join(work, "emulator-inventory")
    ctl = [os.path.join(BIN, "python"), os.path.join(ROOT, "tests", "utils", "emulator_ctl.py")]
    subprocess.check_call(ctl + ["start", "--state", state])
    try:
        with open(os.path.join(state, "emulator.json")) as handle:
            info = json.load(handle)
        for source, inventory_yml, play in examples:
            check_inventory_example(work, home, source, inventory_yml, play, info["url"], info["api_key"], shims)
        # The guide's alternative: the play without connection and interpreter, the group_vars file instead.
        source, inventory_yml, play = examples[1]
        bare_play = "\n".join(line for line in play.splitlines() if INTERPRETER not in line and line.strip() not in (
            "connection: local", "vars:")) + "\n"
        check_inventory_example(work, home, source + " with " + group_vars_name, inventory_yml, bare_play, info["url"],
                                info["api_key"], shims, files={group_vars_name: group_vars})
        source, inventory_yml, play = examples[0]
        without = "\n".join(line for line in play.splitlines() if INTERPRETER not in line) + "\n"
        check_inventory_example(work, home, source, inventory_yml, without, info["url"], info["api_key"], shims,
                                expect_ok=False)
    finally:
        subprocess.call(ctl + ["stop", "--state", state])


def main():
    started = time.time()
    for tool in ("ansible-playbook", "ansible-galaxy", "python"):
        if not os.access(os.path.join(BIN, tool), os.X_OK):
            fail("%s is missing: run make venv first" % os.path.join(BIN, tool))
    work = tempfile.mkdtemp(prefix="readme-check-")
    try:
        home = check_testing_section(work)
        check_inventory_sections(work, home)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("readme-check: README's commands work from an empty HOME, and the inventory examples run in "
          "Ansible's own Python (%.0f s)" % (time.time() - started))


if __name__ == "__main__":
    main()
