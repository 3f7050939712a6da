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
runs the module's engine (``run_task_in``) in the worker instead, with :class:`ControllerModule`
standing in for AnsibleModule: the same argument validation (ansible-core's ``ArgumentSpecValidator``,
which AnsibleModule uses), the same result, secrets removed the same way (``remove_values`` with the
no_log values). Anything else (another connection, ``become``, an ``environment``, ``async``, another
interpreter, or ``posthog_admin_in_process: false``) runs the module as ansible-core's ``normal`` action
does.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import json
import os
import sys

from ansible import constants as C
from ansible.module_utils.common.arg_spec import ArgumentSpecValidator
from ansible.module_utils.common.parameters import remove_values
from ansible.module_utils.errors import UnsupportedError
from ansible.module_utils.parsing.convert_bool import boolean
from ansible.plugins.action.normal import ActionModule as NormalAction
from ansible.utils.display import Display

display = Display()

IN_PROCESS_VAR = "posthog_admin_in_process"


def module_args(args):
    """The task's arguments as a module process receives them: JSON from ansible-core's own encoder
    (vaulted values decrypted, ansible-core's tags and types gone)."""
    try:  # ansible-core 2.19 and later
        from ansible.module_utils.common.json import Direction, get_module_encoder
    except ImportError:
        from ansible.module_utils.common.json import AnsibleJSONEncoder

        return json.loads(json.dumps(args, cls=AnsibleJSONEncoder, vault_to_text=True))
    return json.loads(json.dumps(args, cls=get_module_encoder("legacy", Direction.CONTROLLER_TO_MODULE)))


class _Exit(Exception):
    """exit_json or fail_json: the result, raised instead of printed."""

    def __init__(self, result):
        super(_Exit, self).__init__("module exit")
        self.result = result


class ControllerModule:
    """What the engine uses of AnsibleModule, in the controller's worker.

    ``params`` are validated by ansible-core's ``ArgumentSpecValidator`` (which AnsibleModule runs),
    with the same messages; ``exit_json`` and ``fail_json`` raise :class:`_Exit` carrying the result
    as AnsibleModule would print it (``invocation`` when ansible-core injects it, ``warnings``,
    ``deprecations``, every no_log value removed).
    """

    def __init__(self, name, argument_spec, args, check_mode, diff, inject_invocation=True, **validation):
        self._name = name
        self.argument_spec = argument_spec
        self.check_mode = check_mode
        self._diff = diff
        self._inject_invocation = inject_invocation
        self._warnings = []
        self._deprecations = []
        given = copy.deepcopy(args)
        validated = ArgumentSpecValidator(argument_spec, **validation).validate(args)
        self.params = validated.validated_parameters
        self.no_log_values = set(validated._no_log_values)  # pylint: disable=protected-access
        for warning in validated._warnings:  # pylint: disable=protected-access
            self.warn("Both option %s and its alias %s are set." % (warning["option"], warning["alias"]))
        for deprecation in validated._deprecations:  # pylint: disable=protected-access
            self._deprecations.append(dict((k, v) for k, v in deprecation.items() if v is not None))
        errors = validated.error_messages
        if errors:
            # as AnsibleModule fails, even in check mode and before any request
            from ansible_collections.posthog.admin.plugins.module_utils._module import explain_argument_error

            msg = validated.errors.msg
            if isinstance(validated.errors.errors[0], UnsupportedError):
                msg = "Unsupported parameters for (%s) module: %s" % (name, msg)
            self.fail_json(msg=explain_argument_error(msg, argument_spec, given))

    def warn(self, warning):
        self._warnings.append(warning)

    def deprecate(self, msg, version=None, date=None, collection_name=None):
        given = (("msg", msg), ("version", version), ("date", date), ("collection_name", collection_name))
        self._deprecations.append(dict((k, v) for k, v in given if v is not None))

    def _result(self, kwargs):
        if self._inject_invocation:
            kwargs.setdefault("invocation", {"module_args": self.params})
        if self._warnings:
            kwargs["warnings"] = list(self._warnings)
        if self._deprecations:
            kwargs["deprecations"] = list(self._deprecations)
        # as the module process prints it and the controller reads it back: JSON, no_log values removed
        return json.loads(json.dumps(remove_values(kwargs, self.no_log_values)))

    def exit_json(self, **kwargs):
        kwargs.setdefault("changed", False)
        raise _Exit(self._result(kwargs))

    def fail_json(self, msg, **kwargs):
        kwargs.update(failed=True, msg=msg)
        raise _Exit(self._result(kwargs))


def run_in_process(name, argument_spec, work, args, check_mode, diff, inject_invocation=True, **options):
    """The result of the module ``name`` run by ``run_task_in`` here, as its process would return it.

    :param argument_spec: the module's own options (``module_spec`` adds the shared ones).
    :param work: the module's ``work(task, params)``.
    :param options: the validation groups (``required_one_of``...) the module passes AnsibleModule.
    """
    from ansible_collections.posthog.admin.plugins.module_utils._module import module_spec, run_task_in

    try:
        module = ControllerModule(name, module_spec(argument_spec), module_args(args), check_mode, diff,
                                  inject_invocation=inject_invocation, **options)
        run_task_in(module, work)
    except _Exit as done:
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
        inject = True
        if "INJECT_INVOCATION" in C.config.get_configuration_definitions():  # ansible-core 2.21 and later
            inject = C.config.get_config_value("INJECT_INVOCATION", variables=task_vars)
        return run_in_process(name, argument_spec, work, self._task.args, self._task.check_mode,
                              self._task.diff, inject_invocation=inject, **options)
