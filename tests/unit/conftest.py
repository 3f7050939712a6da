# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Shared fixtures: a scripted HTTP server on 127.0.0.1 that answers from a queue and records requests."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest


class ScriptedServer:
    """Answers each request with the next queued (status, body, headers); records what it got."""

    def __init__(self):
        self.queue = []
        self.requests = []
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _serve(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                with server.lock:
                    server.requests.append(dict(method=self.command, path=self.path,
                                                headers=dict(self.headers), body=body.decode() or None))
                    if server.queue:
                        status, payload, headers = server.queue.pop(0)
                    else:
                        status, payload, headers = 500, {"detail": "nothing scripted"}, {}
                if payload == "DROP":
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                data = b"" if payload is None else (payload if isinstance(payload, bytes) else json.dumps(payload).encode())
                self.send_response(status)
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

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
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server():
    srv = ScriptedServer()
    yield srv
    srv.stop()
