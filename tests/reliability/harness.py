# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Machinery of the reliability suite: an emulator process, a small API client, and a runner
that plays tasks with the real ansible-playbook (or ansible-inventory) against the built
collection, capturing the output, the ANSIBLE_LOG_PATH log and every task's registered result.

The collection is taken from ``$BUILD`` (a directory holding ``ansible_collections/``; relative
to the repository root; default ``build``), as ``make collection BUILD=...`` leaves it.
"""

import atexit
import errno
import itertools
import json
import os
import re
import secrets
import signal
import string
import subprocess
import sys
import tempfile
import threading
import time

import requests

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
LOOKUPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lookup_plugins")  # reliability_control
BIN = os.path.dirname(sys.executable)
READY = re.compile(r"posthog-emulator listening on (https?://\S+) \(profile \w+\)")


#: Task variables that run organization_state (the modules with an action plugin) in the controller's worker:
#: the controller's Python as the interpreter (the local connection the plays have already).
WORKER = {"ansible_python_interpreter": sys.executable}
#: ... and as a module process, as any other module runs.
MODULE_PROCESS = {"ansible_python_interpreter": sys.executable, "posthog_admin_in_process": False}
#: What -vvv prints for each (plugin_utils/_in_process.py).
RAN_IN_WORKER = "runs in the controller's worker"
RAN_AS_MODULE_PROCESS = "runs as a module process: posthog_admin_in_process is false"


def build_dir():
    build = os.environ.get("BUILD") or "build"
    return build if os.path.isabs(build) else os.path.join(ROOT, build)


def new_key():
    return "phx_" + "".join(secrets.choice(string.ascii_letters + string.digits) for dummy in range(40))


class Emulator:
    """``python -m posthog_emulator serve`` on a free loopback port, with a fresh database."""

    def __init__(self, workdir, tls=None):
        self.key = new_key()
        self.tls = tls  # (cert, key, ca) or None
        self.ca = tls[2] if tls else None
        os.makedirs(workdir, exist_ok=True)
        args = [sys.executable, "-m", "posthog_emulator", "serve", "--host", "127.0.0.1", "--port", "0",
                "--db", os.path.join(workdir, "emulator.sqlite3"), "--api-key", self.key, "--quiet"]
        if tls:
            args += ["--tls-cert", tls[0], "--tls-key", tls[1]]
        self.log_path = os.path.join(workdir, "emulator.log")
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=log, text=True)
        self.url = None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            match = READY.search(line)
            if match:
                self.url = match.group(1)
                break
        if self.url is None:
            self.stop()
            raise RuntimeError("the emulator did not start; see %s" % self.log_path)
        self.api = Api(self.url, self.key, verify=self.ca or True)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()


class Api:
    """Just enough HTTP for the tests: the control API and reading ``/api/`` back (no retries)."""

    def __init__(self, url, key, verify=True):
        self.url, self.key = url, key
        self.session = requests.Session()
        self.session.trust_env = False
        self.verify = verify

    def call(self, method, path, body=None, expect=(200, 201, 204)):
        headers = {"Authorization": "Bearer %s" % self.key} if path.startswith("/api/") else {}
        response = self.session.request(method, self.url + path, json=body, headers=headers, timeout=30,
                                        verify=self.verify)
        if expect and response.status_code not in expect:
            raise AssertionError("%s %s answered %s: %s" % (method, path, response.status_code, response.text[:500]))
        return response.json() if response.content else None

    def get(self, path):
        return self.call("GET", path)

    def list_all(self, path):
        joiner = "&" if "?" in path else "?"
        return self.get(path + joiner + "limit=100000")["results"]

    def reset(self):
        self.call("POST", "/_emulator/reset", {"api_key": self.key})

    def set_faults(self, rules, seed=None):
        body = {"rules": rules}
        if seed is not None:
            body["seed"] = seed
        return self.call("PUT", "/_emulator/faults", body)["rules"]

    def clear_faults(self):
        self.call("DELETE", "/_emulator/faults")

    def fault_hits(self):
        return sum(rule["hits"] for rule in self.get("/_emulator/faults")["rules"])

    def requests(self):
        return self.get("/_emulator/requests")

    def clear_requests(self):
        self.call("DELETE", "/_emulator/requests")

    def writes(self):
        """Logged requests that could have changed something (anything but GET/HEAD/OPTIONS)."""
        return [e for e in self.requests() if e["method"] not in ("GET", "HEAD", "OPTIONS")]


class Run:
    """What one ansible-playbook / ansible-inventory run left behind."""

    def __init__(self, returncode, stdout, stderr, log, results, elapsed):
        self.returncode, self.stdout, self.stderr, self.log = returncode, stdout, stderr, log
        self.results, self.elapsed = results, elapsed

    @property
    def everything(self):
        """All the text the run produced: output, errors and the log file."""
        return "\n".join((self.stdout, self.stderr, self.log, json.dumps(self.results)))

    def explain(self):
        return "rc=%s\n--- stdout (tail)\n%s\n--- stderr (tail)\n%s" % (
            self.returncode, self.stdout[-4000:], self.stderr[-2000:])


def ansible_env(workdir, extra=None):
    env = dict(os.environ)
    env.update({
        "ANSIBLE_COLLECTIONS_PATH": build_dir(),
        "ANSIBLE_COLLECTIONS_SCAN_SYS_PATH": "false",
        "ANSIBLE_PYTHON_INTERPRETER": sys.executable,
        "ANSIBLE_LOCALHOST_WARNING": "false",
        "ANSIBLE_INVENTORY_UNPARSED_WARNING": "false",
        "ANSIBLE_NOCOLOR": "1",
        "ANSIBLE_FORCE_COLOR": "0",
        "ANSIBLE_RETRY_FILES_ENABLED": "false",
        "ANSIBLE_HOME": os.path.join(workdir, "ansible-home"),
        "ANSIBLE_LOCAL_TEMP": os.path.join(workdir, "ansible-tmp"),
        "ANSIBLE_LOG_PATH": os.path.join(workdir, "ansible.log"),
        "ANSIBLE_STDOUT_CALLBACK": "default",
        "ANSIBLE_DISPLAY_OK_HOSTS": "true",  # the runner reads the results from an ok task's output
        "ANSIBLE_CALLBACK_RESULT_FORMAT": "json",
        "ANSIBLE_DEPRECATION_WARNINGS": "false",
        "ANSIBLE_PIPELINING": "true",  # no temporary module files: faster, same module code
        "ANSIBLE_LOOKUP_PLUGINS": LOOKUPS,
    })
    for name in list(env):
        if name.startswith("POSTHOG_"):
            del env[name]
    env.update(extra or {})
    return env


def _read(path):
    try:
        with open(path) as handle:
            return handle.read()
    except OSError:
        return ""


def play(workdir, emulator, steps, verbosity=0, env=None, timeout=300):
    """Run ``steps`` as one play on localhost and return a :class:`Run`.

    A step is ``{"module": "posthog.admin.x", "args": {...}}`` (run with ``ignore_errors`` and
    registered as ``r0``, ``r1``, ... counting module steps only; ``"vars"``: the task's variables,
    :data:`WORKER` or :data:`MODULE_PROCESS` for where organization_state runs), ``{"faults": [rules], "seed": n}`` (replaces the emulator's fault
    rules through its control API), ``{"clear_log": True}``, or ``{"mark": "text"}`` (one logged GET whose query is
    ``reliability_mark=text``: it tells apart, in the request log, what the tasks before and after it sent). Every task gets the connection
    options from ``module_defaults`` (host and API key from variables, as a vault would give them).
    Task args may use Jinja, e.g. ``"{{ r0.organization.id }}"``.

    The play runs in this worker's long-lived ansible-playbook of the same verbosity and environment
    (:class:`Runner`: one process start for many plays, the slowest part of a short play), unless
    ``POSTHOG_RELIABILITY_RUNNER=0``, which starts one ansible-playbook per play as before.
    """
    os.makedirs(workdir, exist_ok=True)
    results_path = os.path.join(workdir, "results.json")
    if os.path.exists(results_path):
        os.remove(results_path)
    if os.environ.get("POSTHOG_RELIABILITY_RUNNER", "1") == "0":
        return _play_alone(workdir, emulator, steps, results_path, verbosity, env, timeout)
    prefix = "b%d_" % next(_BATCHES)
    connection = {"posthog_host": emulator.url, "posthog_api_key": emulator.key}
    marker = "reliability results %s: " % secrets.token_hex(8)
    tasks, registered = _tasks(steps, emulator, results_path, prefix, marker)
    # r0, r1, ... name this batch's results (registered as b<n>_r0, ...): a result of an earlier play
    # in the same process is never taken for one of this play's.
    aliases = {name: "{{ %s%s }}" % (prefix, name) for name in registered}
    batch = [{"name": "Reliability", "vars": dict(connection, **aliases), "block": tasks}]
    batch_path = os.path.join(workdir, "batch.json")
    with open(batch_path, "w") as handle:
        json.dump(batch, handle, indent=1)
    return _runner(verbosity, env).play(batch_path, results_path, timeout, marker)


def _tasks(steps, emulator, results_path, prefix="", marker=None):
    """The play's tasks and the names of its registered results (r0, r1, ...).

    The last task hands the results over: with ``marker``, an ``ansible.builtin.debug`` that prints
    them after the marker (:func:`printed_results` reads them back; an action plugin, no module
    process, a fifth of the suite's time before); without, an ``ansible.builtin.copy`` to ``results_path``
    (a module run). With ``marker`` too, the control steps are ``set_fact`` tasks whose lookup
    (lookup_plugins/reliability_control.py) makes the call in the playbook's process, instead of
    ``ansible.builtin.uri`` tasks (a module run each).
    """
    tasks, registered = [], []
    for step in steps:
        if "module" in step:
            name = "r%d" % len(registered)
            registered.append(name)
            tasks.append({"name": step.get("name", "%s (%s)" % (step["module"], name)), step["module"]: step["args"],
                          "register": prefix + name, "ignore_errors": True})
            if step.get("check_mode"):
                tasks[-1]["check_mode"] = True
            if step.get("vars"):  # where organization_state runs: WORKER or MODULE_PROCESS
                tasks[-1]["vars"] = dict(step["vars"])
        elif "faults" in step:
            body = {"rules": step["faults"]}
            if step.get("seed") is not None:
                body["seed"] = step["seed"]
            tasks.append(_control_task("Set fault rules", "PUT", "/_emulator/faults", body, emulator, bool(marker)))
        elif step.get("clear_log"):
            tasks.append(_control_task("Clear the request log", "DELETE", "/_emulator/requests", None, emulator,
                                       bool(marker)))
        elif "mark" in step:
            tasks.append(_mark_task(step["mark"], emulator, bool(marker)))
        else:
            raise ValueError("unknown step %r" % (step,))
    content = "{{ {%s} | to_json }}" % ", ".join("'%s': %s%s" % (name, prefix, name) for name in registered)
    if marker:
        tasks.append({"name": "Print the results", "ansible.builtin.debug": {"msg": marker + content}})
    else:
        save = {"content": content, "dest": results_path, "mode": "0600"}
        tasks.append({"name": "Save the results", "ansible.builtin.copy": save})
    return tasks, registered


def printed_results(stdout, marker):
    """The results the batch's debug task printed after ``marker`` ({} if it never ran).

    The callback prints its msg as a JSON string (``"msg": "<marker>{...}"``), whatever the
    indentation: decode that string from its opening quote, then the JSON after the marker. The
    marker holds a random word, so no answer of a server can forge the line; the last one counts.
    """
    at = stdout.rfind('"' + marker)
    if at < 0:
        return {}
    msg = json.JSONDecoder().raw_decode(stdout, at)[0]
    return json.loads(msg[len(marker):])


def _play_alone(workdir, emulator, steps, results_path, verbosity, env, timeout):
    """``steps`` as a playbook of its own, in an ansible-playbook of its own."""
    log_path = os.path.join(workdir, "ansible.log")
    if os.path.exists(log_path):
        os.remove(log_path)
    vars_path = os.path.join(workdir, "connection.json")
    with open(vars_path, "w") as handle:
        json.dump({"posthog_host": emulator.url, "posthog_api_key": emulator.key}, handle)
    tasks, dummy = _tasks(steps, emulator, results_path)
    connection = {"host": "{{ posthog_host }}", "api_key": "{{ posthog_api_key }}"}
    playbook = [{
        "name": "Reliability", "hosts": "localhost", "gather_facts": False, "connection": "local",
        "vars_files": [vars_path],
        "module_defaults": {"group/posthog.admin.posthog": connection},
        "tasks": tasks,
    }]
    playbook_path = os.path.join(workdir, "playbook.json")
    with open(playbook_path, "w") as handle:
        json.dump(playbook, handle, indent=1)
    command = [os.path.join(BIN, "ansible-playbook"), "-i", "localhost,", playbook_path]
    if verbosity:
        command.append("-" + "v" * verbosity)
    return _run(command, workdir, env, timeout, results_path, log_path)


_BATCHES = itertools.count()
_RUNNERS = {}


def _runner(verbosity, env):
    key = (verbosity, tuple(sorted((env or {}).items())))
    if key not in _RUNNERS:
        _RUNNERS[key] = Runner(verbosity, env)
    return _RUNNERS[key]


def stop_runners():
    while _RUNNERS:
        _RUNNERS.popitem()[1].stop()


atexit.register(stop_runners)


class Runner:
    """One ansible-playbook that plays batch after batch of tasks, for one worker.

    Its play loops over ``serve.json``: read a command from a FIFO (``cat`` blocks until the test
    writes one), then ``include_tasks`` the batch file it names. A batch is done when the next
    "Wait for the next batch" task starts; its stdout, stderr and log are the text between. A batch
    that fails outside ``ignore_errors`` (a control call) ends the play: the Run gets its return
    code and the next batch starts a new process, as does the last turn of the loop.
    """

    TURNS = 100
    WAITING = "TASK [Wait for the next batch]"

    def __init__(self, verbosity=0, env=None):
        self.verbosity, self.env = verbosity, env
        self.workdir = tempfile.mkdtemp(prefix="reliability-runner-")
        self.process = None

    def _start(self):
        self.fifo = os.path.join(self.workdir, "next")
        if not os.path.exists(self.fifo):
            os.mkfifo(self.fifo, 0o600)
        serve = [
            {"name": "Wait for the next batch", "ansible.builtin.set_fact": {
                "reliability_command": "{{ lookup('ansible.builtin.pipe', 'cat %s') | from_json }}" % self.fifo}},
            {"name": "Stop", "ansible.builtin.meta": "end_play", "when": "reliability_command.stop"},
            {"name": "Run the batch", "ansible.builtin.include_tasks": "{{ reliability_command.tasks }}"},
        ]
        serve_path = os.path.join(self.workdir, "serve.json")
        with open(serve_path, "w") as handle:
            json.dump(serve, handle, indent=1)
        connection = {"host": "{{ posthog_host }}", "api_key": "{{ posthog_api_key }}"}
        playbook = [{
            "name": "Reliability", "hosts": "localhost", "gather_facts": False, "connection": "local",
            "module_defaults": {"group/posthog.admin.posthog": connection},
            "tasks": [{"name": "Serve batches", "ansible.builtin.include_tasks": serve_path,
                       "loop": "{{ range(%d) | list }}" % self.TURNS,
                       "loop_control": {"loop_var": "reliability_turn"}}],
        }]
        playbook_path = os.path.join(self.workdir, "runner.json")
        with open(playbook_path, "w") as handle:
            json.dump(playbook, handle, indent=1)
        # python -u: the output reaches the pipe line by line (it tells when a batch has ended); the
        # modules' own interpreters are not affected
        command = [sys.executable, "-u", os.path.join(BIN, "ansible-playbook"), "-i", "localhost,", playbook_path]
        if self.verbosity:
            command.append("-" + "v" * self.verbosity)
        self.log_path = os.path.join(self.workdir, "ansible.log")
        if os.path.exists(self.log_path):
            os.remove(self.log_path)
        self.out, self.err = [], []
        self.changed = threading.Condition()
        self.process = subprocess.Popen(command, cwd=self.workdir, env=ansible_env(self.workdir, self.env),
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        text=True)
        self.readers = [threading.Thread(target=self._read, args=(stream, into), daemon=True)
                        for stream, into in ((self.process.stdout, self.out), (self.process.stderr, self.err))]
        for reader in self.readers:
            reader.start()
        self.turns = 0

    def _read(self, stream, into):
        for line in stream:
            with self.changed:
                into.append(line)
                self.changed.notify_all()
        with self.changed:
            self.changed.notify_all()

    def _send(self, command, deadline):
        """Write ``command`` to the FIFO once the play reads it; False if the play ended first."""
        data = json.dumps(command).encode()
        while True:
            try:
                descriptor = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError as error:
                if error.errno != errno.ENXIO:  # ENXIO: no reader yet
                    raise
                if self.process.poll() is not None:
                    return False
                if time.monotonic() > deadline:
                    raise subprocess.TimeoutExpired(self.process.args, 0)
                time.sleep(0.01)
                continue
            try:
                os.write(descriptor, data)
            finally:
                os.close(descriptor)
            return True

    def _header(self, start, deadline):
        """Index of the first "Wait for the next batch" header from line ``start`` on; None if the play ended."""
        with self.changed:
            while True:
                for index in range(start, len(self.out)):
                    if self.out[index].startswith(self.WAITING):
                        return index
                if self.process.poll() is not None and not any(reader.is_alive() for reader in self.readers):
                    return None
                if time.monotonic() > deadline:
                    args = self.process.args
                    self.stop(kill=True)
                    raise subprocess.TimeoutExpired(args, 0)
                self.changed.wait(0.5)

    def play(self, batch_path, results_path, timeout, marker):
        if self.process is not None and (self.process.poll() is not None or self.turns >= self.TURNS - 1):
            self.stop()
        if self.process is None:
            self._start()
            self.ready = 0
        started = time.monotonic()
        deadline = started + timeout
        ready = self._header(self.ready, deadline)  # the play waits for this batch at that line
        done = None
        if ready is not None:
            with self.changed:
                err_from = len(self.err)
            log_from = os.path.getsize(self.log_path) if os.path.exists(self.log_path) else 0
            self.turns += 1
            if self._send({"stop": False, "tasks": batch_path}, deadline):
                done = self._header(ready + 1, deadline)  # the next turn's: the batch has ended
        else:
            ready, err_from, log_from = 0, 0, 0
        if done is None:  # the play ended: a failed task, or it never started
            self.process.wait()
            for reader in self.readers:
                reader.join(10)
            returncode = self.process.returncode or 1
        else:
            returncode = 0
            self.ready = done
        with self.changed:
            stdout = "".join(self.out[ready:done])
            stderr = "".join(self.err[err_from:])
        log = _read(self.log_path)[log_from:]
        results = printed_results(stdout, marker)
        if results:  # beside the test's other files, as the copy task left it
            with open(os.open(results_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as handle:
                json.dump(results, handle)
        return Run(returncode, stdout, stderr, log, results, time.monotonic() - started)

    def stop(self, kill=False):
        process = self.process
        if process is None:
            return
        if process.poll() is None and not kill:
            try:
                self._send({"stop": True}, time.monotonic() + 10)
                process.wait(timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.process = None
        if process.poll() is None:
            process.kill()
        process.wait()
        for reader in self.readers:
            reader.join(10)


def _lookup_task(name, request, api_key=False):
    """A task that makes ``request`` through the reliability_control lookup (no module process)."""
    call = "lookup('reliability_control', reliability_request%s)" % (", api_key=posthog_api_key" if api_key else "")
    return {"name": name, "ansible.builtin.set_fact": {"reliability_control": "{{ %s }}" % call},
            "vars": {"reliability_request": request}}


def _control_task(name, method, path, body, emulator, in_process=False):
    if in_process:
        return _lookup_task(name, {"method": method, "url": emulator.url + path, "body": body, "ca": emulator.ca,
                                   "status": [200, 201, 204]})
    args = {"url": emulator.url + path, "method": method, "status_code": [200, 201, 204]}
    if body is not None:
        args.update(body_format="json", body=body)
    if emulator.ca:
        args["ca_path"] = emulator.ca
    return {"name": name, "ansible.builtin.uri": args}


def _mark_task(text, emulator, in_process=False):
    if in_process:
        url = "%s/api/users/@me/?reliability_mark=%s" % (emulator.url, text)
        task = _lookup_task("Mark the request log: %s" % text,
                            {"method": "GET", "url": url, "ca": emulator.ca, "status": [200]}, api_key=True)
        return dict(task, no_log=True)
    args = {"url": "%s/api/users/@me/?reliability_mark=%s" % (emulator.url, text), "method": "GET",
            "headers": {"Authorization": "Bearer {{ posthog_api_key }}"}, "status_code": [200]}
    if emulator.ca:
        args["ca_path"] = emulator.ca
    return {"name": "Mark the request log: %s" % text, "ansible.builtin.uri": args, "no_log": True}


def is_mark(entry):
    return "reliability_mark=" in (entry.get("query") or "")


def inventory(workdir, emulator, config, verbosity=0, env=None, timeout=300):
    """Run ``ansible-inventory --list`` on a ``*.posthog.yml`` made from ``config``; results = the inventory."""
    os.makedirs(workdir, exist_ok=True)
    log_path = os.path.join(workdir, "ansible.log")
    if os.path.exists(log_path):
        os.remove(log_path)
    source = os.path.join(workdir, "reliability.posthog.yml")
    with open(source, "w") as handle:
        json.dump(dict({"plugin": "posthog.admin.organizations", "host": emulator.url, "api_key": emulator.key},
                       **config), handle)
    output = os.path.join(workdir, "inventory.json")
    if os.path.exists(output):
        os.remove(output)
    command = [os.path.join(BIN, "ansible-inventory"), "-i", source, "--list", "--output", output]
    if verbosity:
        command.append("-" + "v" * verbosity)
    return _run(command, workdir, env, timeout, output, log_path)


def _run(command, workdir, env, timeout, results_path, log_path):
    started = time.monotonic()
    result = subprocess.run(command, cwd=workdir, env=ansible_env(workdir, env), capture_output=True, text=True,
                            timeout=timeout, check=False)
    elapsed = time.monotonic() - started
    raw = _read(results_path)
    results = json.loads(raw) if raw else {}
    return Run(result.returncode, result.stdout, result.stderr, _read(log_path), results, elapsed)
