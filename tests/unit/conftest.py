# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Shared fixtures: a scripted HTTP server on 127.0.0.1 that answers from a queue and records requests.

Besides JSON (or bytes) payloads and "DROP", a queued payload may be a ``Raw`` body (any content
type, with or without a Content-Length) or a ``Trickle`` (an answer sent a byte at a time), to play
a broken or hostile server."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


class QuietHandler(BaseHTTPRequestHandler):
    """A test server's request handler: HTTP/1.1, no log lines; ``sent()`` reads the request's body
    (b"" when none)."""

    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def sent(self):
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""


class Raw:
    """A body sent as given: ``content_type``, and without a Content-Length (ended by closing the
    connection) when ``length`` is false."""

    def __init__(self, data, content_type="application/json", length=True):
        self.data = data if isinstance(data, bytes) else data.encode()
        self.content_type = content_type
        self.length = length


class Trickle:
    """An answer sent one byte every ``interval`` seconds: the body only (after whole headers that
    announce ``size`` bytes), or the whole answer from its status line when ``headers`` is true.
    Stops when the client hangs up (its time is recorded in ``ScriptedServer.hangups``)."""

    def __init__(self, interval=0.3, size=1000, headers=False):
        self.interval = interval
        self.size = size
        self.headers = headers


class ScriptedServer:
    """Answers each request with the next queued (status, body, headers); records what it got."""

    Raw = Raw
    Trickle = Trickle

    def __init__(self):
        self.queue = []
        self.requests = []
        self.hangups = []
        self.stopping = False
        self.lock = threading.Lock()
        server = self

        class Handler(QuietHandler):
            def _serve(self):
                body = self.sent()
                with server.lock:
                    server.requests.append(dict(method=self.command, path=self.path, at=time.monotonic(),
                                                headers=dict(self.headers), body=body.decode() or None))
                    if server.queue:
                        status, payload, headers = server.queue.pop(0)
                    else:
                        status, payload, headers = 500, {"detail": "nothing scripted"}, {}
                if isinstance(payload, str) and payload == "DROP":
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                if isinstance(payload, Trickle):
                    self._trickle(status, payload)
                    return
                content_type, length = "application/json", True
                if isinstance(payload, Raw):
                    data, content_type, length = payload.data, payload.content_type, payload.length
                else:
                    data = b"" if payload is None else (payload if isinstance(payload, bytes) else json.dumps(payload).encode())
                self.send_response(status)
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.send_header("Content-Type", content_type)
                if length:
                    self.send_header("Content-Length", str(len(data)))
                else:
                    self.send_header("Connection", "close")
                    self.close_connection = True
                self.end_headers()
                self.wfile.write(data)

            def _trickle(self, status, trickle):
                body = b" " * trickle.size
                head = ("HTTP/1.1 %d OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                        % (status, len(body))).encode()
                if trickle.headers:
                    data = head + body
                else:
                    self.wfile.write(head)
                    self.wfile.flush()
                    data = body
                self.close_connection = True
                try:
                    for index in range(len(data)):
                        if server.stopping:
                            return
                        self.wfile.write(data[index:index + 1])
                        self.wfile.flush()
                        time.sleep(trickle.interval)
                except OSError:  # the client hung up
                    with server.lock:
                        server.hangups.append(time.monotonic())

            do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = _serve

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs=dict(poll_interval=0.02), daemon=True)
        self.thread.start()

    def script(self, *responses):
        for response in responses:
            if len(response) == 2:
                response = (response[0], response[1], {})
            self.queue.append(response)

    def stop(self):
        self.stopping = True
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    srv = ScriptedServer()
    yield srv
    srv.stop()


# ------------------------------------------------------------------ modules through main()
# In the style of community.hrobot: a module runs its real main() with the given arguments against
# the scripted server; the test lists the answers, then checks the result and the requests made.
class ModuleExit(Exception):
    def __init__(self, result, failed):
        super(ModuleExit, self).__init__("module exited")
        self.result = result
        self.failed = failed


def _module_args(args):
    try:  # ansible-core 2.19 and newer
        from ansible.module_utils.testing import patch_module_args
        return patch_module_args(args)
    except ImportError:  # 2.16 to 2.18
        from unittest import mock
        from ansible.module_utils import basic
        from ansible.module_utils.common.text.converters import to_bytes
        return mock.patch.object(basic, "_ANSIBLE_ARGS", to_bytes(json.dumps({"ANSIBLE_MODULE_ARGS": args})))


class ModuleRun:
    """``run(module, args, check=False, diff=True)`` -> the module's result dict (``failed`` set on failure)."""

    def __init__(self, server):
        self.server = server

    def __call__(self, module, args, check=False, diff=True):
        from unittest import mock
        from ansible.module_utils import basic

        recorded = []

        def warn(self, warning, **kwargs):
            # module.warn() straight into the result: once the inventory tests have imported the
            # controller, ansible's warnings module sends warnings to Display instead of its list
            recorded.append(warning)

        full = dict(host=self.server.url, api_key="phx_unit_test_key", retries=2)
        full.update(getattr(self, "defaults", {}))
        full.update(args)
        full["_ansible_check_mode"] = check
        full["_ansible_diff"] = diff
        full["_ansible_remote_tmp"] = "/tmp"
        full["_ansible_keep_remote_files"] = False

        def warned(result):
            # AnsibleModule's exit_json would add the warnings collected by module.warn()
            from ansible.module_utils.common import warnings
            result.setdefault("warnings", list(warnings.get_warning_messages()))
            warnings._global_warnings.clear()
            return result

        def exit_json(self, **result):
            raise ModuleExit(warned(result), False)

        def fail_json(self, msg, **result):
            result["msg"] = msg
            raise ModuleExit(warned(result), True)

        from ansible_collections.posthog.admin.plugins.module_utils import _http_retry

        try:  # ansible-core 2.19+: once controller code was imported (the inventory tests), module
            # warnings would go to the controller's display instead of the result
            from ansible.module_utils import _internal
            as_a_module = mock.patch.object(_internal, "is_controller", False)
        except (ImportError, AttributeError):
            as_a_module = mock.patch.dict({})

        # retries happen at once: the backoff is the client's own business (test_client.py)
        with _module_args(full), mock.patch.object(basic.AnsibleModule, "exit_json", exit_json), \
                mock.patch.object(basic.AnsibleModule, "fail_json", fail_json), \
                mock.patch.object(basic.AnsibleModule, "warn", warn), \
                mock.patch.object(_http_retry, "backoff_delay", lambda attempt: 0.0), as_a_module:
            with pytest.raises(ModuleExit) as info:
                module.main()
        result = dict(info.value.result)
        result["failed"] = info.value.failed
        result["warnings"] = recorded + result["warnings"]
        return result

    def refuses(self, module, args):
        """Run a task that must fail before any request; its message."""
        result = self(module, args)
        assert result["failed"] and self.server.requests == [], (result, self.calls)
        return result["msg"]

    @property
    def methods(self):
        """``["GET", "POST", ...]`` of the requests made so far."""
        return [r["method"] for r in self.server.requests]

    @property
    def calls(self):
        """``["GET /api/...", "POST /api/..."]`` of the requests made so far."""
        return ["%s %s" % (r["method"], r["path"]) for r in self.server.requests]

    def bodies(self, method=None):
        return [json.loads(r["body"]) if r["body"] else None for r in self.server.requests
                if method is None or r["method"] == method]


@pytest.fixture
def run_module(server):
    """Runs a module's main() against the scripted ``server``; see :class:`ModuleRun`."""
    return ModuleRun(server)


def page(*items):
    """A PostHog list envelope of ``items``."""
    return {"count": len(items), "next": None, "previous": None, "results": list(items)}


@pytest.fixture
def other_server():
    """A second scripted server, e.g. where a hostile link would like the API key to go."""
    srv = ScriptedServer()
    yield srv
    srv.stop()


class Clock:
    """A fake monotonic clock that sleeping moves forward: ``clock()`` is the time, ``clock.sleep(s)``
    records ``s`` in ``clock.sleeps``."""

    def __init__(self, now=100.0):
        self.now = now
        self.sleeps = []

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


# ------------------------------------------------------------------ a live emulator
# For what only a real PostHog-like server shows (a whole organization planned and applied, a round
# trip): one posthog-emulator per test session on a free loopback port, reset before each test.
class LiveEmulator:
    """A posthog-emulator process; ``url``, ``api_key``, ``control()``, ``api()`` and ``requests``
    (the writes it served since the last ``reset()``/``forget()``, from its request log)."""

    API_KEY = "phx_live_emulator_unit_test_key_0000000000"

    def __init__(self, tmp):
        import socket
        import subprocess
        import sys
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = sock.getsockname()[1]
        self.url = "http://127.0.0.1:%d" % port
        self.log = open(str(tmp / "emulator.log"), "w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "posthog_emulator", "serve", "--host", "127.0.0.1", "--port", str(port),
             "--db", str(tmp / "emulator.sqlite3"), "--api-key", self.API_KEY, "--profile", "posthog", "--quiet"],
            stdout=self.log, stderr=self.log)
        deadline = time.time() + 60
        while True:
            try:
                self.control("GET", "info")
                break
            except OSError:
                if self.proc.poll() is not None or time.time() > deadline:
                    raise RuntimeError("the emulator did not start; see %s" % self.log.name)
                time.sleep(0.1)

    def _call(self, method, path, body=None, key=None, headers=None):
        import urllib.error
        import urllib.request
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if key:
            request.add_header("Authorization", "Bearer %s" % key)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                text = response.read()
        except urllib.error.HTTPError as exc:
            raise AssertionError("%s %s answered %s: %s" % (method, path, exc.code, exc.read()[:500]))
        return json.loads(text) if text else None

    def control(self, method, path, body=None):
        return self._call(method, "/_emulator/" + path, body)

    def api(self, method, path, body=None, headers=None):
        return self._call(method, path, body, key=self.API_KEY, headers=headers)

    def reset(self):
        self.info = self.control("POST", "reset", {"api_key": self.API_KEY})
        return self.info

    def forget(self):
        self.control("DELETE", "requests")

    @property
    def all_requests(self):
        return self.control("GET", "requests")

    @property
    def requests(self):
        """The writes served since the last reset or forget(): ``["POST /api/...", ...]``."""
        return ["%s %s" % (r["method"], r["path"]) for r in self.all_requests if r["method"] != "GET"]

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except Exception:
            self.proc.kill()
        self.log.close()


@pytest.fixture(scope="session")
def live_emulator(tmp_path_factory):
    emulator = LiveEmulator(tmp_path_factory.mktemp("emulator"))
    yield emulator
    emulator.stop()


@pytest.fixture
def live(live_emulator):
    """The session's emulator, reset (the bootstrap organization and project 1 only)."""
    live_emulator.reset()
    return live_emulator


@pytest.fixture
def run_live(live):
    """Runs a module's main() against the live emulator (``api_key`` given): see :class:`ModuleRun`."""
    run = ModuleRun(live)
    run.defaults = dict(api_key=live.API_KEY)
    return run


@pytest.fixture
def module_side(monkeypatch):
    """Warnings reach the result as in a module process, even after a test loaded controller code
    (ansible-core 2.19 and newer send them to the controller's display then; 2.18 and older have no switch)."""
    try:
        from ansible.module_utils import _internal
    except ImportError:  # ansible-core 2.18 and older
        return
    monkeypatch.setattr(_internal, "is_controller", False, raising=False)
