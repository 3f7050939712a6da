# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make guides`: every guide in docs/docsite/rst/ and every section of README.md, run as a reader would.

    python tests/utils/guides.py --tarball build/dist/posthog-admin-X.tar.gz [--work DIR] [--jobs 2] [NAME ...]

A guide is covered by adding it to GUIDES (a test fails when a guide, or a README section with code, is
in none). Its code blocks are taken in order, in a new directory with an empty HOME (the collection
installed there, as the getting started guide says) and no ANSIBLE_* or POSTHOG_* variable:

* a block whose first line names a file (``# plan.yml: ...``, ``# inventory/posthog.yml``) is written
  there, relative to the directory the reader is in;
* a ``console`` block (``sh`` in Markdown) runs its commands in order, in bash, keeping the directory
  and the variables each leaves (``cd``, ``export``); ``posthog-emulator serve`` runs in the background
  until it prints its ready line (Ctrl-C at the end); the lines shown after a command are what it must
  print, and a trailing ``# changed=N`` says what its PLAY RECAP must say;
* a workflow file (``.github/workflows/*.yml``) is run at once by the stand-in for GitHub Actions
  (actions_standin.py) for a pull request opened, then merged, in a git repository of the reader's files;
* a ``text`` block is a layout: the paths it lists must exist when the guide is done;
* any other block needs a note saying why it does not run (``.. guide-test: not run - <why>``) or which
  file runs it (``.. guide-test: run by <path>``: each of its tasks is a task of that file, or of the
  files another guide makes, compared as data without ``name`` and ``register``).

A guide says in its own text what it needs (the emulator it starts, with which profile, what it puts
there): nothing here sets a scene. What a reader replaces with their own values is replaced with the
test's, for every guide alike (SUBSTITUTIONS): their PostHog's address and key (the emulator's), the
ports 8010 to 8019 (free ones), the collection from Galaxy (the release tarball).

Each guide whose tasks run organization_state (the one module that may run in the controller's worker)
runs twice, in parallel directories: as Ansible chooses (the worker, for ``connection: local`` with the
controller's Python), then as module processes (``-e posthog_admin_in_process=false`` on every
``ansible-playbook``). A guide that fails where KNOWN_FAILURES says is reported as that known failure;
one listed there that passes fails the test, so the list only shrinks.
"""
import argparse
import collections
import concurrent.futures
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
import traceback

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import actions_standin  # noqa: E402
import doc_blocks  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.join(ROOT, ".venv", "bin")
RST = "docs/docsite/rst/"

Guide = collections.namedtuple("Guide", "document section runner")
WORKER, MODULE = "worker", "module process"


def guide(document, section=None, runner="blocks"):
    return Guide(document, section, runner)


# Every guide and README section with code, and what runs it: "blocks" (this file), or the make target
# that replays it its own way.
GUIDES = [
    guide(RST + "guide_getting_started.rst"),
    guide(RST + "guide_testing_with_the_emulator.rst"),
    guide(RST + "guide_module_defaults.rst"),
    guide(RST + "guide_inventory.rst"),
    guide(RST + "guide_adopt.rst"),
    guide(RST + "guide_gitops.rst"),
    guide(RST + "guide_fleet.rst"),
    guide(RST + "guide_performance.rst"),
    guide(RST + "guide_plugins_to_hog_functions.rst"),
    guide(RST + "guide_tracking_plan.rst"),
    guide(RST + "guide_posthog_differences.rst"),
    # ansible-runner as AWX runs a job, from the release tarball, on both profiles (tests/utils/awx_job.py)
    guide(RST + "guide_awx.rst", runner="make awx-job"),
    guide("README.md", None),
    guide("README.md", "## Content"),
    # in an empty HOME, and the inventory past a broken python3.13 shim (tests/utils/readme_commands.py)
    guide("README.md", "## Testing your roles against the emulator", runner="make readme-check"),
    guide("README.md", "## The inventory: one host per organization", runner="make readme-check"),
    guide("README.md", "## Layout"),
]

# Guides that fail, and why: (document, section, the command that fails, way or None for both, why).
# Each is work left to do in the issue it cites; once it passes, this test fails until the entry is removed.
KNOWN_FAILURES = [
]

IN_PROCESS_MODULES = ("posthog.admin.organization_state:", "organization_as_code")


# ------------------------------------------------------------------ what a reader replaces
class Scene:
    """A guide's run: its directory, HOME, environment, emulator, and what it showed."""

    def __init__(self, guide_, way, work, tarball):
        self.guide = guide_
        self.way = way
        self.work = work
        self.tarball = tarball
        self.home = os.path.join(work, "home")
        self.project = os.path.join(work, "project")
        self.cwd = self.project
        # The ports a guide's emulators listen on (8010, 8011...: a free one each), the first its address.
        self.ports = {8010: free_port()}
        self.port = self.ports[8010]
        self.url = "http://127.0.0.1:%d" % self.port
        self.key = None
        self.background = []
        self.layouts = []
        self.lines = []
        self.ran = collections.OrderedDict()  # block label -> what was done with it
        os.makedirs(self.project)

    def free(self, port):
        if port not in self.ports:
            self.ports[port] = free_port()
        return self.ports[port]

    def log(self, text):
        self.lines.append(text)

    def substitute(self, text):
        text = re.sub(r"https://(?:eu|us)\.posthog\.com", self.url, text)
        text = re.sub(r"(127\.0\.0\.1:|--port )(801\d)\b", lambda m: m.group(1) + str(self.free(int(m.group(2)))), text)
        text = text.replace("/tmp/ph.sqlite3", os.path.join(self.work, "ph.sqlite3"))
        text = re.sub(r"ansible-galaxy collection install posthog\.admin\b",
                      "ansible-galaxy collection install --force %s" % self.tarball, text)
        if self.key:
            text = text.replace("phx_...", self.key).replace("{{ vault_posthog_api_key }}", self.key)
        return text


SUBSTITUTIONS = ("https://eu.posthog.com and https://us.posthog.com: the emulator's address; ports 8010-8019: free "
                 "ones; phx_... and {{ vault_posthog_api_key }}: the key the guide starts the emulator with; "
                 "ansible-galaxy collection install posthog.admin: the release tarball; /tmp/ph.sqlite3: the "
                 "guide's directory")


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def clean_env(home, path):
    """A new user's shell: no Ansible, PostHog, pyenv or virtualenv settings (readme_commands.py's)."""
    dropped = ("ANSIBLE_", "POSTHOG_", "MOLECULE_", "PYENV_", "XDG_", "VIRTUAL_ENV", "PYTHON", "BUILD", "MAKE",
               "MFLAGS", "DEMO_", "EXAMPLES_")
    env = dict((k, v) for k, v in os.environ.items() if not k.startswith(dropped))
    env.update(HOME=home, LC_ALL=env.get("LC_ALL", "C.UTF-8"), PATH=path)
    return env


class GuideFailed(Exception):
    def __init__(self, message, output=None, command=None, section=None):
        super(GuideFailed, self).__init__(message)
        self.output = output
        self.command = command
        self.section = section


# ------------------------------------------------------------------ running commands
RECAP = re.compile(r"^(\S+)\s*:\s*ok=(\d+)\s+changed=(\d+)\s+unreachable=(\d+)\s+failed=(\d+)", re.M)


def normal(text):
    return " ".join(text.split())


class Shell:
    """Commands in bash, each from the directory and with the variables the previous one left."""

    def __init__(self, scene, env):
        self.scene = scene
        self.env = env
        self.state = tempfile.mkdtemp(prefix="shell-", dir=scene.work)

    def run(self, command, timeout=600):
        scene = self.scene
        cwd_file, env_file = os.path.join(self.state, "cwd"), os.path.join(self.state, "env")
        script = 'cd "$1" || exit 99\n%s\n__rc=$?\npwd > "$2"\nenv -0 > "$3"\nexit $__rc\n' % command
        started = time.time()
        proc = subprocess.run(["bash", "-c", script, "guide", scene.cwd, cwd_file, env_file], env=self.env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                              timeout=timeout, check=False)
        if os.path.exists(cwd_file):
            with open(cwd_file) as handle:
                scene.cwd = handle.read().strip() or scene.cwd
            with open(env_file) as handle:
                pairs = [item.split("=", 1) for item in handle.read().split("\0") if "=" in item]
            self.env = dict((k, v) for k, v in pairs if k not in ("_", "SHLVL", "OLDPWD"))
            os.remove(cwd_file)
            os.remove(env_file)
        scene.log("  $ %s  -> exit %d in %.1f s" % (shown(command, scene), proc.returncode, time.time() - started))
        return proc

    def step(self, command, timeout=600, cwd=None, env=None):
        """A workflow's step: in ``cwd`` with ``env`` added, the shell's own state untouched."""
        started = time.time()
        proc = subprocess.run(["bash", "-e", "-c", command], cwd=cwd, env=dict(self.env, **(env or {})),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                              timeout=timeout, check=False)
        self.scene.log("      -> exit %d in %.1f s" % (proc.returncode, time.time() - started))
        if proc.returncode:
            raise GuideFailed("the workflow's step %r failed (exit %d)" % (command.strip(), proc.returncode),
                              proc.stdout, command)
        return proc.stdout


def shown(command, scene):
    return command.replace(scene.work + "/", "").replace(ROOT + "/", "")


def start_serve(scene, command, env):
    command = command.rstrip().rstrip("&").strip()
    log_path = os.path.join(scene.work, "emulator-%d.log" % (len(scene.background) + 1))
    log = open(log_path, "w")
    proc = subprocess.Popen(["bash", "-c", "exec " + command], cwd=scene.cwd, env=env, stdout=log,
                            stderr=subprocess.STDOUT, start_new_session=True)
    scene.background.append(proc)
    scene.log("  $ %s &  (pid %d)" % (shown(command, scene), proc.pid))
    deadline = time.time() + 60
    while time.time() < deadline:
        with open(log_path) as handle:
            text = handle.read()
        if "posthog-emulator listening on" in text:
            return text
        if proc.poll() is not None:
            raise GuideFailed("the emulator exited with %s" % proc.returncode, text, command)
        time.sleep(0.1)
    raise GuideFailed("the emulator printed no ready line within 60 s", open(log_path).read(), command)


def stop_background(scene):
    for proc in scene.background:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)  # Ctrl-C, as the guides say
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def check_claims(step, proc, scene, command):
    """What the guide says a command does: exit 0, the output it shows, its ``# changed=N``."""
    if proc.returncode:
        raise GuideFailed("%r failed (exit %d)" % (shown(command, scene), proc.returncode), proc.stdout, command)
    said = normal(proc.stdout)
    for line in step.output:
        if normal(scene.substitute(line)) not in said:
            raise GuideFailed("%r did not print %r, as the guide shows" % (shown(command, scene), line),
                              proc.stdout, command)
    claim = re.match(r"^changed=(\d+)\b", step.comment)
    if claim:
        recap = RECAP.findall(proc.stdout)
        if not recap:
            raise GuideFailed("%r: no PLAY RECAP to check the guide's %r" % (command, step.comment), proc.stdout)
        changed = sum(int(r[2]) for r in recap)
        if changed != int(claim.group(1)):
            raise GuideFailed("%r reported changed=%d, the guide says %s"
                              % (shown(command, scene), changed, step.comment), proc.stdout, command)


# ------------------------------------------------------------------ notes: "run by", "not run"
def tasks_of(data):
    """The tasks of parsed YAML: a list of plays (their pre_tasks, tasks) or of tasks (blocks opened)."""
    found = []
    for item in data or []:
        if not isinstance(item, dict):
            continue
        if "hosts" in item:
            for key in ("pre_tasks", "tasks", "post_tasks", "handlers"):
                found.extend(tasks_of(item.get(key)))
        elif "block" in item:
            found.extend(tasks_of(item["block"]))
        else:
            found.append(dict((k, v) for k, v in item.items() if k not in ("name", "register")))
    return found


def tasks_in(path):
    """The tasks a file runs: a playbook or task file; a module's EXAMPLES; the files a guide makes."""
    full = os.path.join(ROOT, path)
    if path.endswith(".py"):
        import ast
        tree = ast.parse(doc_blocks.read(full))
        for node in tree.body:
            if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "EXAMPLES":
                return tasks_of(yaml.safe_load(node.value.value))
        raise GuideFailed("%s has no EXAMPLES" % path)
    if path.endswith(".rst"):
        found = []
        for block in doc_blocks.rst_blocks(full):
            if doc_blocks.file_name(block) and block.lang.startswith("yaml"):
                found.extend(tasks_of(yaml.safe_load(block.body)))
        return found
    return tasks_of(yaml.safe_load(doc_blocks.read(full)))


def check_run_by(block, target):
    shown_tasks = tasks_of(yaml.safe_load(block.body))
    if not shown_tasks:
        raise GuideFailed("line %d: the block has no tasks to find in %s" % (block.line, target))
    tested = tasks_in(target)
    missing = [t for t in shown_tasks if t not in tested]
    if missing:
        raise GuideFailed("line %d: %d of the block's tasks are not in %s, which should run them: %s" % (
            block.line, len(missing), target, json.dumps(missing)[:600]))
    return len(shown_tasks)


# ------------------------------------------------------------------ a guide
def blocks_of(guide_):
    path = os.path.join(ROOT, guide_.document)
    if path.endswith(".rst"):
        return doc_blocks.rst_blocks(path)
    sections = doc_blocks.md_sections(path)
    if guide_.section not in sections:
        raise GuideFailed("%s has no section %r" % (guide_.document, guide_.section))
    text = sections[guide_.section]
    start = doc_blocks.read(path)[:doc_blocks.read(path).find(text)].count("\n") + 1 if guide_.section else 1
    return doc_blocks.md_blocks(text, start)


def serve_key(blocks):
    """The API key the guide starts its emulator with (what its phx_... stand for)."""
    for block in blocks:
        if block.lang in ("console", "sh", "bash") and not block.note:
            for step in doc_blocks.console_steps(block):
                if "emulator serve" in step.command or "posthog_emulator serve" in step.command:
                    match = re.search(r"--api-key[ =](\S+)", step.command)
                    if match:
                        return match.group(1)
    return None


def needs_both_ways(blocks):
    return any(marker in block.body for block in blocks for marker in IN_PROCESS_MODULES if not block.note)


def label(block):
    return "line %d (%s%s)" % (block.line, block.lang, ", %s" % block.section if block.section else "")


def known_failure(scene, failure):
    for document, section, command, way, why in KNOWN_FAILURES:
        if document == scene.guide.document and way in (None, scene.way) and section == failure.section and \
                normal(command) == normal(failure.command or ""):
            return why
    return None


def run_guide(guide_, way, work, tarball, template_home, path):
    scene = Scene(guide_, way, work, tarball)
    shutil.copytree(template_home, scene.home)
    env = clean_env(scene.home, path)
    shell = Shell(scene, env)
    blocks = blocks_of(guide_)
    scene.key = serve_key(blocks)
    expected = [k for k in KNOWN_FAILURES if k[0] == guide_.document and k[3] in (None, way)]
    try:
        for block in blocks:
            run_block(scene, shell, block)
        for layout_block, paths in scene.layouts:
            base = ROOT if guide_.document == "README.md" else scene.project
            missing = [p for p in paths if not os.path.exists(os.path.join(base, p))]
            if missing:
                raise GuideFailed("%s: the layout lists %s, which the guide did not make" % (
                    label(layout_block), ", ".join(missing)))
        if expected:
            raise GuideFailed("KNOWN_FAILURES says %r (%s) fails (%s), but it passed: remove it from KNOWN_FAILURES"
                              % (expected[0][2], expected[0][1], expected[0][4]))
        return scene, None
    except GuideFailed as failure:
        why = known_failure(scene, failure)
        if why:
            scene.log("  KNOWN FAILURE (%s): %s" % (why, failure))
            where = getattr(failure, "where", None)
            if where:
                scene.ran[where] = scene.ran[where].replace("; FAILED: ", "; KNOWN FAILURE (%s): " % why)
            return scene, None
        return scene, failure
    except Exception as exc:  # a bug of the harness, or a crash: reported with the guide
        return scene, GuideFailed("%s: %s" % (type(exc).__name__, exc), traceback.format_exc())
    finally:
        stop_background(scene)


def run_block(scene, shell, block):
    where = label(block)
    note = block.note or ""
    if note.startswith("not run"):
        reason = note[len("not run"):].strip(" -:")
        if not reason:
            raise GuideFailed("%s: a block not run must say why" % where)
        scene.ran[where] = "not run: " + reason
        return
    if note.startswith("run by"):
        target = note[len("run by"):].strip()
        count = check_run_by(block, target)
        scene.ran[where] = "%d task(s), each run by %s" % (count, target)
        return
    if note:
        raise GuideFailed("%s: unknown note %r (not run - why, or run by <path>)" % (where, note))
    name = doc_blocks.file_name(block)
    if name:
        path = os.path.join(scene.cwd, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as handle:
            handle.write(scene.substitute(block.body))
        scene.log("  wrote %s" % os.path.relpath(path, scene.project))
        scene.ran[where] = "wrote %s" % name
        if re.match(r"^\.github/workflows/[^/]+\.ya?ml$", os.path.relpath(path, scene.project)):
            scene.ran[where] += "; " + run_workflow(scene, shell, os.path.relpath(path, scene.project))
        return
    if block.lang in ("console", "sh", "bash"):
        commands = []
        try:
            run_commands(scene, shell, block, commands)
        except GuideFailed as failure:
            scene.ran[where] = "ran %s; FAILED: %s" % ("; ".join(commands + [failure.command or "?"]), failure)
            failure.where = where
            raise
        scene.ran[where] = "ran " + "; ".join(commands)
        return
    if block.lang == "text":
        paths = []
        for line in block.body.splitlines():
            token = re.sub(r"^[\s│├└─]+", "", line).split("  ")[0].split(" ")[0] if line.strip() else ""
            if ("/" in token or "." in token) and "<" not in token and not token.startswith("#"):
                paths.append(token.rstrip("/") or token)
        scene.layouts.append((block, paths))
        scene.ran[where] = "layout: %d paths, checked at the end" % len(paths)
        return
    raise GuideFailed("%s is neither a file (a first line '# <path>'), commands nor a layout; give it a note "
                      "(.. guide-test: not run - why, or run by <path>)" % where)


def run_commands(scene, shell, block, commands):
    """A console block's commands, in order; ``commands`` gets each that ran."""
    for step in doc_blocks.console_steps(block):
        command = scene.substitute(step.command)
        if "emulator serve" in command or "posthog_emulator serve" in command:
            text = start_serve(scene, command, shell.env)
            for line in step.output:
                if normal(scene.substitute(line)) not in normal(text):
                    raise GuideFailed("the emulator did not print %r, as the guide shows" % line, text, step.command,
                                      block.section)
        else:
            try:
                proc = shell.run(command)
            except subprocess.TimeoutExpired as exc:
                raise GuideFailed("%r timed out" % command, str(exc.output), step.command, block.section)
            try:
                check_claims(step, proc, scene, command)
            except GuideFailed as failure:
                failure.command, failure.section = step.command, block.section
                raise
        commands.append(step.command + ("  (%s)" % step.comment if step.comment else ""))


def run_workflow(scene, shell, workflow):
    """The guide's workflow, for a pull request with the reader's files, opened then merged."""
    repo = scene.project

    def git(*args):
        return subprocess.run(["git", "-C", repo] + list(args), check=True, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True,
                              env=dict(shell.env, GIT_AUTHOR_NAME="Reader", GIT_AUTHOR_EMAIL="reader@example.com",
                                       GIT_COMMITTER_NAME="Reader", GIT_COMMITTER_EMAIL="reader@example.com")).stdout

    if not os.path.isdir(os.path.join(repo, ".git")):
        git("init", "-q", "-b", "main")
        git("commit", "-q", "--allow-empty", "-m", "before the pull request")
    git("checkout", "-q", "-b", "pull-request")
    git("add", "-A")
    git("commit", "-q", "-m", "the pull request", "--allow-empty")
    head = git("rev-parse", "HEAD").strip()
    git("checkout", "-q", "main")
    git("merge", "-q", "--no-ff", "pull-request", "-m", "Merge pull request #1")
    merge = git("rev-parse", "HEAD").strip()
    committed = git("ls-tree", "-r", "--name-only", head).split()
    scene.log("  the pull request commits %s" % ", ".join(committed))
    hub = actions_standin.GitHub(repo, os.path.join(scene.work, "github"), lambda command, cwd, env: shell.step(
        scene.substitute(command), cwd=cwd, env=env), scene.log)
    secrets = {"POSTHOG_API_KEY": scene.key or ""}
    pull = {"number": 1, "head": {"sha": head}, "merged": False, "merge_commit_sha": None}
    opened = {"name": "pull_request", "payload": {"action": "opened", "number": 1, "pull_request": pull},
              "sha": head, "head_sha": head, "checkout": head, "secrets": secrets}
    merged_pull = dict(pull, merged=True, merge_commit_sha=merge)
    closed = {"name": "pull_request", "payload": {"action": "closed", "number": 1, "pull_request": merged_pull},
              "sha": merge, "head_sha": head, "checkout": merge, "secrets": secrets}
    pushed = {"name": "push", "payload": {"ref": "refs/heads/main", "after": merge}, "sha": merge, "head_sha": merge,
              "checkout": merge, "secrets": secrets}
    try:
        on_open = hub.run_workflow(workflow, opened) or []
        on_merge = (hub.run_workflow(workflow, closed) or []) + (hub.run_workflow(workflow, pushed) or [])
    except actions_standin.WorkflowError as exc:
        raise GuideFailed("%s: %s" % (workflow, exc))
    except GuideFailed as failure:
        failure.args = ("%s: %s" % (workflow, failure.args[0]),)
        raise
    if not on_open or not on_merge:
        raise GuideFailed("%s ran no job when the pull request was %s" % (workflow, "opened" if not on_open else "merged"))
    return "ran it on GitHub Actions' stand-in: jobs %s when the pull request opened, %s when it merged" % (
        ", ".join(on_open), ", ".join(on_merge))


# ------------------------------------------------------------------ the list is complete
def uncovered():
    """Guides and README sections with code that GUIDES leaves out."""
    listed = set((g.document, g.section) for g in GUIDES)
    missing = []
    for name in sorted(os.listdir(os.path.join(ROOT, RST))):
        if name.endswith(".rst") and (RST + name, None) not in listed:
            missing.append(RST + name)
    for heading, text in doc_blocks.md_sections(os.path.join(ROOT, "README.md")).items():
        if doc_blocks.md_blocks(text) and ("README.md", heading) not in listed:
            missing.append("README.md %s" % (heading or "(before the first section)"))
    return missing


def delegated(guide_):
    """A guide another make target replays: that target's script must name it."""
    script = {"make readme-check": "readme_commands.py", "make awx-job": "awx_job.py"}[guide_.runner]
    text = doc_blocks.read(os.path.join(ROOT, "tests", "utils", script))
    needle = guide_.section[3:] if guide_.section else os.path.basename(guide_.document)
    if needle not in text:
        raise GuideFailed("%s should replay %s %s, and does not name it" % (script, guide_.document, guide_.section or ""))
    return "replayed by %s (tests/utils/%s)" % (guide_.runner, script)


# ------------------------------------------------------------------ main
def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--tarball", required=True)
    parser.add_argument("--work", default=os.path.join(ROOT, os.environ.get("BUILD", "build"), "guides"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("only", nargs="*", help="guides to run (a part of their file name or README section)")
    args = parser.parse_args()
    started = time.time()
    missing = uncovered()
    if missing:
        sys.exit("guides: not in GUIDES (tests/utils/guides.py): %s" % ", ".join(missing))
    tarball = os.path.abspath(args.tarball)
    work = os.path.abspath(args.work)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    # The collection installed as the getting started guide says, once; each guide gets a copy of that HOME.
    template = os.path.join(work, "template-home")
    os.makedirs(template)
    system_path = os.environ.get("PATH", "")
    subprocess.run([os.path.join(BIN, "ansible-galaxy"), "collection", "install", tarball],
                   env=clean_env(template, BIN + os.pathsep + system_path), check=True, stdout=subprocess.DEVNULL)
    # The second way: every ansible-playbook with posthog_admin_in_process=false.
    shims = os.path.join(work, "module-process-shims")
    os.makedirs(shims)
    with open(os.path.join(shims, "ansible-playbook"), "w") as handle:
        handle.write('#!/bin/sh\nexec "%s" "$@" -e posthog_admin_in_process=false\n' % os.path.join(BIN, "ansible-playbook"))
    os.chmod(os.path.join(shims, "ansible-playbook"), 0o755)
    paths = {WORKER: BIN + os.pathsep + system_path, MODULE: shims + os.pathsep + BIN + os.pathsep + system_path}

    chosen = [g for g in GUIDES if not args.only or any(o in "%s %s" % (g.document, g.section or "") for o in args.only)]
    jobs, report, failures, ran = [], collections.OrderedDict(), [], {}
    for index, one in enumerate(chosen):
        key = "%s%s" % (one.document, " " + one.section if one.section else "")
        if one.runner != "blocks":
            try:
                report[key] = [delegated(one)]
            except GuideFailed as failure:
                failures.append((key, None, failure))
            continue
        blocks = blocks_of(one)
        ways = [WORKER, MODULE] if needs_both_ways(blocks) else [WORKER]
        report[key] = [] if blocks else ["no code blocks"]
        for way in ways if blocks else []:
            jobs.append((key, one, way, os.path.join(work, "%02d-%s" % (index, "worker" if way == WORKER else "module"))))
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [(key, way, pool.submit(run_guide, one, way, directory, tarball, template, paths[way]))
                   for key, one, way, directory in jobs]
        for key, way, future in futures:
            scene, failure = future.result()
            print("== %s (%s)" % (key, way))
            print("\n".join(scene.lines))
            if failure is not None:
                failures.append((key, way, failure))
            if way == WORKER:
                ran[key] = scene.ran
                report[key] = ["%s: %s" % (where, what) for where, what in scene.ran.items()]
            else:  # what the worker's run did not reach (it stopped at a failure)
                report[key][-1:-1] = ["%s: %s (as module processes only)" % (where, what)
                                      for where, what in scene.ran.items() if where not in ran.get(key, {})]
            if way == MODULE:
                report[key].append("ran again as module processes (posthog_admin_in_process: false)")
            elif len([j for j in jobs if j[0] == key]) == 1:
                report[key].append("one way: no organization_state task, so no task of it runs in the "
                                   "controller's worker")
            else:
                report[key].append("ran with organization_state in the controller's worker (Ansible's choice here)")
    print("\n== What each guide's test runs (substitutions: %s)" % SUBSTITUTIONS)
    for key, lines in report.items():
        print("* %s" % key)
        for line in lines:
            print("    - %s" % line)
    for key, way, failure in failures:
        print("\nFAILED: %s%s: %s" % (key, " (%s)" % way if way else "", failure))
        if failure.output:
            print(failure.output.rstrip()[-5000:])
    print("\nguides: %d guide(s) and section(s), %d run(s), %d failed, in %.0f s" % (
        len(report), len(jobs), len(failures), time.time() - started))
    if failures:
        sys.exit(1)


if __name__ == "__main__":
    main()
