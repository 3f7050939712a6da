# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Run a posthog.admin module's task in the controller's own worker process, when that is where the
module process would run anyway.

With ``connection: local`` and the controller's own Python as the interpreter (what the
``posthog.admin.organizations`` inventory plugin's examples set for its hosts), a module process is the same
machine, the same Python and the same environment as the worker that starts it: it only adds a
process, and the compiling of ansible-core's and the collection's code from the payload's zip on every
task (issue 25 measured that at two thirds of an unchanged organization's CPU). :class:`InProcessAction`
runs the module's engine (``run_task_in``) in the worker instead, with ``_standin.ControllerModule``
standing in for AnsibleModule; everything that imitates ansible-core is in ``module_utils/_standin.py``,
each behaviour with its contract test. Anything else (another connection, ``become``, an ``environment``,
``async``, another interpreter, an ansible-core the stand-in is not tested against, or
``posthog_admin_in_process: false``) runs the module as ansible-core's ``normal`` action does, and -vvv
says why.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import sys

from ansible import constants as C
from ansible.module_utils.parsing.convert_bool import boolean
from ansible.plugins.action.normal import ActionModule as NormalAction
from ansible.utils.display import Display

from ansible_collections.posthog.admin.plugins.module_utils import _standin

display = Display()

IN_PROCESS_VAR = "posthog_admin_in_process"


def run_in_process(name, argument_spec, work, args, check_mode, diff, inject_invocation=True, directory=None,
                   **options):
    """The result of the module ``name`` run by ``run_task_in`` here, as its process would return it.

    :param argument_spec: the module's own options (``module_spec`` adds the shared ones).
    :param work: the module's ``work(task, params)``.
    :param directory: the working directory a module process would have (the playbook's); None: stay.
    :param options: the validation groups (``required_one_of``...) the module passes AnsibleModule.
    """
    from ansible_collections.posthog.admin.plugins.module_utils._module import module_spec, run_task_in

    with _standin.module_directory(directory):
        try:
            module = _standin.ControllerModule(name, module_spec(argument_spec), _standin.module_args(args),
                                               check_mode, diff, inject_invocation=inject_invocation, **options)
            run_task_in(module, work)
        except _standin.ModuleExit as done:
            return done.result
    raise RuntimeError("%s did not exit" % name)  # run_task_in always exits; a bug if not


class InProcessAction(NormalAction):
    """The action plugin of a module that may run in the worker: :meth:`task` names its engine."""

    def task(self):
        """``(argument_spec, work, options)`` of the module, as its ``main()`` passes them."""
        raise NotImplementedError

    def _interpreter(self, task_vars):
        names = task_vars
        if self._task.delegate_to:
            names = (task_vars.get("ansible_delegated_vars") or {}).get(self._task.delegate_to) or {}
        return self._templar.template(names.get("ansible_python_interpreter"))

    def module_process_reason(self, task_vars):
        """Why this task runs as a module process (None: the worker may run it)."""
        wanted = self._templar.template(task_vars.get(IN_PROCESS_VAR, True))
        if not boolean(wanted, strict=False):
            return "%s is false" % IN_PROCESS_VAR
        unmatched = _standin.unmatched(verbosity=display.verbosity, debug=C.DEFAULT_DEBUG)
        if unmatched:
            return unmatched
        if self._task.async_val:
            return "the task is async"
        if getattr(self._connection, "transport", None) != "local":
            return "the connection is not local"
        if self._play_context.become:
            return "the task becomes another user"
        environment = {}
        self._compute_environment_string(environment)
        if environment:
            return "the task sets an environment"
        interpreter = self._interpreter(task_vars)
        if not isinstance(interpreter, str) or os.path.abspath(interpreter) != os.path.abspath(sys.executable):
            return "ansible_python_interpreter is not the controller's Python (%s)" % sys.executable
        from ansible_collections.posthog.admin.plugins.module_utils._client import HAS_REQUESTS

        if not HAS_REQUESTS:
            return "the controller's Python has no requests"
        return None

    def run(self, tmp=None, task_vars=None):
        task_vars = task_vars or {}
        reason = self.module_process_reason(task_vars)
        name = self._task.resolved_action or self._task.action
        if reason:
            display.vvv("%s runs as a module process: %s" % (name, reason), host=self._play_context.remote_addr)
            return super(InProcessAction, self).run(tmp, task_vars)
        display.vvv("%s runs in the controller's worker (local connection, the controller's Python)" % name,
                    host=self._play_context.remote_addr)
        argument_spec, work, options = self.task()
        return run_in_process(name, argument_spec, work, self._task.args, self._task.check_mode, self._task.diff,
                              inject_invocation=_standin.inject_invocation(C.config, task_vars),
                              directory=self._loader.get_basedir(), **options)
