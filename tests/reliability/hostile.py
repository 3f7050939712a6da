# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A small hostile HTTP server for the reliability suite: threads on a free 127.0.0.1 port, answering
every request from a function the test sets (``server.answer = ...``), and recording what it got.

It quacks like ``harness.Emulator`` where ``harness.play`` and ``harness.inventory`` need it (``url``,
``key``, ``ca``), so the real modules and the inventory plugin can be pointed at it. Answers:

* ``(status, json_value)``: a JSON body;
* ``(status, Raw(data, content_type, length=True))``: any body, without Content-Length if asked;
* ``(status, Trickle(interval, size))``: whole headers, then a body a byte every ``interval`` s,
  until the client hangs up (the time is recorded in ``hangups``).
"""

import json
import select
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import harness


class Raw:
    def __init__(self, data, content_type="application/json", length=True):
        self.data = data if isinstance(data, bytes) else data.encode()
        self.content_type = content_type
        self.length = length


class Trickle:
    def __init__(self, interval=0.9, size=10000):
        self.interval = interval
        self.size = size


def not_scripted(request):
    return 500, {"type": "server_error", "code": "error", "detail": "the hostile server has no answer for this"}


class HostileServer:
    def __init__(self, key=None):
        self.key = key or harness.new_key()
        self.ca = None
        self.answer = not_scripted
        self.requests = []
        self.hangups = []
        self.stopping = False
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _serve(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length).decode("utf-8", "replace") if length else None
                request = dict(method=self.command, path=self.path, headers=dict(self.headers), body=body,
                               at=time.monotonic())
                with server.lock:
                    server.requests.append(request)
                status, payload = server.answer(request)
                if isinstance(payload, Trickle):
                    self._trickle(status, payload)
                    return
                content_type, with_length = "application/json", True
                if isinstance(payload, Raw):
                    data, content_type, with_length = payload.data, payload.content_type, payload.length
                else:
                    data = b"" if payload is None else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                if with_length:
                    self.send_header("Content-Length", str(len(data)))
                else:
                    self.send_header("Connection", "close")
                    self.close_connection = True
                self.end_headers()
                self.wfile.write(data)

            def _trickle(self, status, trickle):
                self.close_connection = True
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(trickle.size))
                self.end_headers()
                try:
                    self.wfile.flush()
                    for dummy in range(trickle.size):
                        if server.stopping:
                            return
                        # wait out the interval, noticing at once when the client hangs up
                        readable = select.select([self.connection], [], [], trickle.interval)[0]
                        if readable and not self.connection.recv(1, socket.MSG_PEEK):
                            raise ConnectionResetError("the client closed the connection")
                        self.wfile.write(b" ")
                        self.wfile.flush()
                except OSError:  # the client hung up
                    with server.lock:
                        server.hangups.append(time.monotonic())

            do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = _serve

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        self.url = "http://127.0.0.1:%d" % self.port
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs=dict(poll_interval=0.05), daemon=True)
        self.thread.start()

    def stop(self):
        self.stopping = True
        self.httpd.shutdown()
        self.httpd.server_close()

    def authorized(self):
        """Requests that carried an Authorization header."""
        return [r for r in self.requests if any(k.lower() == "authorization" for k in r["headers"])]


class Shim:
    """``server`` as play() and inventory() see it, with another API key (e.g. one ending in a newline)."""

    def __init__(self, server, key):
        self.url, self.key, self.ca = server.url, key, server.ca


def queue(*answers, then=None):
    """An answer function: each request gets the next of ``answers``, then ``then`` (or a 500)."""
    pending = list(answers)
    lock = threading.Lock()

    def answer(request):
        with lock:
            if pending:
                return pending.pop(0)
        return then(request) if then else not_scripted(request)

    return answer


def empty_page(request):
    return 200, {"count": 0, "next": None, "previous": None, "results": []}
