# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Start and stop a posthog-emulator in the background for the demo and the integration tests.

    python tests/utils/emulator_ctl.py start --state DIR [--port N] [--api-key KEY] [--profile spec]
    python tests/utils/emulator_ctl.py stop --state DIR

``start`` picks a free loopback port when none is given, waits until the server answers, and
writes DIR/emulator.json ({url, api_key, pid, port}) that the callers read.
"""
import argparse
import json
import os
import secrets
import signal
import socket
import string
import subprocess
import sys
import time
import urllib.request


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(args):
    os.makedirs(args.state, exist_ok=True)
    state_file = os.path.join(args.state, "emulator.json")
    if os.path.exists(state_file):
        stop(args)
    port = args.port or free_port()
    key = args.api_key or "phx_" + "".join(secrets.choice(string.ascii_letters + string.digits) for dummy in range(40))
    db = os.path.join(args.state, "emulator.sqlite3")
    if os.path.exists(db):
        os.remove(db)
    log = open(os.path.join(args.state, "emulator.log"), "w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "posthog_emulator", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--db", db, "--api-key", key, "--profile", args.profile, "--quiet"],
        stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = "http://127.0.0.1:%d" % port
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit("the emulator exited with %s; see %s" % (proc.returncode, log.name))
        try:
            with urllib.request.urlopen(url + "/_emulator/info", timeout=1) as response:
                info = json.load(response)
            break
        except OSError:
            time.sleep(0.1)
    else:
        proc.kill()
        sys.exit("the emulator did not answer within 30 s; see %s" % log.name)
    with open(state_file, "w") as handle:
        json.dump(dict(url=url, api_key=key, pid=proc.pid, port=port, profile=args.profile,
                       organization=info.get("organization"), project=info.get("project")), handle)
    print("emulator up at %s (profile %s, pid %d)" % (url, args.profile, proc.pid))


def stop(args):
    state_file = os.path.join(args.state, "emulator.json")
    try:
        with open(state_file) as handle:
            pid = json.load(handle)["pid"]
    except (OSError, ValueError, KeyError):
        return
    try:
        os.kill(pid, signal.SIGTERM)
        for dummy in range(50):
            os.kill(pid, 0)
            time.sleep(0.1)
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
    os.remove(state_file)
    print("emulator stopped")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("action", choices=["start", "stop"])
    parser.add_argument("--state", required=True)
    parser.add_argument("--port", type=int)
    parser.add_argument("--api-key")
    parser.add_argument("--profile", default="spec", choices=["spec", "posthog"])
    args = parser.parse_args()
    (start if args.action == "start" else stop)(args)


if __name__ == "__main__":
    main()
