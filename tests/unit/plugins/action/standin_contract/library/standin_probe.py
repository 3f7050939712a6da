# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A module for the stand-in's contract test only (tests/unit/plugins/action/test_standin_contract.py): every
behaviour _standin.py imitates, run through posthog.admin's engine (run_task) as a module process, and by
action_plugins/standin_probe.py in the controller's worker."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: standin_probe
short_description: The stand-in's contract probe (tests only)
description: Reports what the task saw. Not part of the collection.
author: posthog.admin contributors
options: {}
"""

import os
import tempfile

from ansible_collections.posthog.admin.plugins.module_utils._module import run_task
from ansible_collections.posthog.admin.plugins.module_utils._resource import Failure

PEOPLE = dict(email=dict(type="str", required=True), level=dict(type="str", choices=["member", "admin"]))
SPEC = dict(
    name=dict(type="str", required=True),
    count=dict(type="int", default=1),
    ratio=dict(type="float"),
    label=dict(type="str", aliases=["title"]),
    old=dict(type="str", deprecated_aliases=[dict(name="older", version="9.0.0", collection_name="posthog.admin")]),
    level=dict(type="str", choices=["member", "admin"]),
    token=dict(type="str", no_log=True),
    people=dict(type="list", elements="dict", options=PEOPLE),
    settings=dict(type="dict", options=dict(enforce=dict(type="bool"))),
    first=dict(type="str"),
    second=dict(type="str"),
    file=dict(type="path"),
    write=dict(type="path"),
    env_names=dict(type="list", elements="str", default=[]),
    warn=dict(type="list", elements="str", default=[]),
    deprecate=dict(type="str"),
    fail=dict(type="str"),
)
OPTIONS = dict(mutually_exclusive=[("first", "second")])
SHOWN = ("name", "count", "ratio", "label", "old", "level", "people", "settings", "first", "second", "file")


def work(task, params):
    for warning in params["warn"]:
        task.warn(warning)
    if params["deprecate"]:
        task.deprecate(params["deprecate"], "9.0.0")
    if params["fail"]:
        raise Failure("it failed: %s" % params["fail"], token_was=params["token"])
    result = dict(
        params=dict((name, params[name]) for name in SHOWN),
        token_echo="the token is %s" % params["token"] if params["token"] else None,
        token_given=params["token"] is not None,
        check_mode=task.check_mode,
        diff_mode=task.diff_mode,
        cwd=os.getcwd(),
        environment=dict((name, os.environ.get(name)) for name in params["env_names"]),
        temporary_directory=tempfile.gettempdir(),
        umask=_umask(),
        parent_pid=os.getppid(),  # the playbook's process when the worker runs it (the test tells the ways apart)
        values=dict(text="text", number=1, real=1.5, yes=True, nothing=None, items=[1, "x", None], mapping=dict(k="v"),
                    unicode=u"\u00e9t\u00e9 \u2713", template="{{ 'not' ~ ' templated' }}", unsafe="{% raw %}x"),
    )
    if params["file"]:
        with open(params["file"]) as handle:
            result.update(file_text=handle.read(), file_path=os.path.abspath(params["file"]))
    if params["write"]:
        with open(params["write"], "w") as handle:
            handle.write("written by %s\n" % params["name"])
        result.update(changed=True, written=os.path.abspath(params["write"]))
    return result


def _umask():
    mask = os.umask(0o22)
    os.umask(mask)
    return oct(mask)


def main():
    run_task(SPEC, work, **OPTIONS)


if __name__ == "__main__":
    main()
