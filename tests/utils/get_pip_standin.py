# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Offline stand-in for the get-pip.py that ansible-test downloads to bootstrap its virtualenvs.

ansible-test runs this file with pip's install arguments. We install the interpreter's bundled pip
with ensurepip, then run ``pip install`` with those arguments against the machine's usual index.
ensurepip sets PIP_CONFIG_FILE=/dev/null in its own process, so we run it in a child and
give pip a clean environment afterwards.
"""
import os
import subprocess
import sys


def main():
    env = dict(os.environ)
    subprocess.check_call([sys.executable, "-m", "ensurepip", "--upgrade", "--default-pip"], env=env)
    if env.get("PIP_CONFIG_FILE") == os.devnull:
        del env["PIP_CONFIG_FILE"]
    args = [a for a in sys.argv[1:] if a not in ("--no-setuptools", "--no-wheel")]
    subprocess.check_call([sys.executable, "-m", "pip", "install"] + args, env=env)


if __name__ == "__main__":
    main()
