"""Start the real server (``python -m posthog_emulator serve``) in a subprocess for a test."""

import json
import os
import re
import signal
import ssl
import subprocess
import sys
import urllib.error
import urllib.request
from contextlib import contextmanager

READY = re.compile(r"posthog-emulator listening on (https?://\S+) \(profile \w+\)")


class Live:
    def __init__(self, process, url, key):
        self.process, self.url, self.key = process, url, key

    def call(self, path, method="GET", body=None, key=None, context=None, timeout=10):
        """``(status, decoded body)``; raises on a connection failure."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, method=method, data=data)
        request.add_header("Content-Type", "application/json")
        if path.startswith("/api/"):
            request.add_header("Authorization", f"Bearer {key or self.key}")
        try:
            with urllib.request.urlopen(request, timeout=timeout, context=context) as response:
                raw = response.read()
                return response.status, json.loads(raw) if raw else None
        except urllib.error.HTTPError as error:
            raw = error.read()
            try:
                return error.code, json.loads(raw)
            except ValueError:
                return error.code, raw.decode(errors="replace")


@contextmanager
def live_server(db_path, key, *extra, stderr=subprocess.DEVNULL, host="127.0.0.1"):
    """Yield a :class:`Live` for a server on a free loopback port; SIGTERM (or SIGKILL) it after."""
    process = subprocess.Popen(
        [sys.executable, "-m", "posthog_emulator", "serve", "--host", host, "--port", "0",
         "--db", str(db_path), "--api-key", key, "--quiet", *extra],
        stdout=subprocess.PIPE, stderr=stderr, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    try:
        url = None
        for _ in range(3):  # the ready line, after an optional notice line
            line = process.stdout.readline()
            match = READY.search(line)
            if match:
                url = match.group(1)
                break
        assert url, f"the emulator did not start (exit status {process.poll()})"
        yield Live(process, url.replace("://0.0.0.0:", "://127.0.0.1:"), key)
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        process.stdout.close()


def trusting(ca_path) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=str(ca_path))
