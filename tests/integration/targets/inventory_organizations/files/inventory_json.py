# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Run `ansible-inventory --list` and print its JSON with the unsafe markers unwrapped.

ansible-core 2.19+ writes every untrusted plugin string as {"__ansible_unsafe": "..."}, older
cores write plain strings; this gives the tests one shape to assert on."""
import json
import subprocess
import sys


def unwrap(value):
    if isinstance(value, dict):
        if set(value) == {"__ansible_unsafe"}:
            return value["__ansible_unsafe"]
        return dict((k, unwrap(v)) for k, v in value.items())
    if isinstance(value, list):
        return [unwrap(v) for v in value]
    return value


proc = subprocess.run(["ansible-inventory", "-i", sys.argv[1], "--list"], stdout=subprocess.PIPE, check=True)
print(json.dumps(unwrap(json.loads(proc.stdout))))
