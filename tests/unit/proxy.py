# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A hostile proxy in front of the live emulator: every request is passed on as it came, and each answer
may be rewritten by the rules a test sets (``proxy.rewrite(method, path_regex, change)``), so that what a
hostile or broken server would answer is played on the emulator's real state (issue 33's cases were found
this way)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import re
import threading
import urllib.error
import urllib.request
from http.server import ThreadingHTTPServer

from ansible_collections.posthog.admin.tests.unit.conftest import QuietHandler


class Answer:
    """An answer as the proxy hands it on: ``status``, ``body`` (decoded JSON, or None), or ``raw`` bytes
    with ``content_type``."""

    def __init__(self, status, body=None, raw=None, content_type="application/json"):
        self.status = status
        self.body = body
        self.raw = raw
        self.content_type = content_type


class RewritingProxy:
    """Passes requests to ``target`` (the live emulator's URL); ``rewrite`` changes chosen answers."""

    def __init__(self, target):
        self.target = target.rstrip("/")
        self.rules = []
        self.requests = []
        proxy = self

        class Handler(QuietHandler):
            def _serve(self):
                data = self.sent() or None
                proxy.requests.append(dict(method=self.command, path=self.path,
                                           body=data.decode("utf-8", "replace") if data else None))
                answer = proxy._forward(self.command, self.path, data, self.headers)
                for method, pattern, change in list(proxy.rules):
                    if method in ("*", self.command) and re.search(pattern, self.path):
                        answer = change(self.command, self.path, answer) or answer
                raw = answer.raw if answer.raw is not None else (
                    b"" if answer.body is None else json.dumps(answer.body).encode())
                self.send_response(answer.status)
                self.send_header("Content-Type", answer.content_type)
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            do_GET = do_POST = do_PATCH = do_DELETE = do_PUT = _serve

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = "http://127.0.0.1:%d" % self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs=dict(poll_interval=0.02), daemon=True)
        self.thread.start()

    def _forward(self, method, path, data, headers):
        request = urllib.request.Request(self.target + path, data=data, method=method)
        for name in ("Authorization", "Content-Type", "Accept"):
            if headers.get(name):
                request.add_header(name, headers[name])
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as exc:
            status, raw = exc.code, exc.read()
        try:
            return Answer(status, json.loads(raw) if raw else None)
        except ValueError:
            return Answer(status, raw=raw, content_type="text/plain")

    def rewrite(self, method, pattern, change):
        """Answers to ``method`` (or ``*``) on paths matching ``pattern`` go through
        ``change(method, path, answer)``, which returns the answer to give (or changes it in place)."""
        self.rules.append((method, pattern, change))

    def writes(self):
        return [r for r in self.requests if r["method"] not in ("GET", "HEAD", "OPTIONS")]

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
