# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Everything in posthog.admin that stands in for ansible-core, in one place.

organization_state may run in the controller's worker instead of a module process
(``plugins/plugin_utils/_in_process.py``): there :class:`ControllerModule` does what AnsibleModule
and the module process would have done. Each behaviour imitated here has a contract test that runs
the same task both ways on every ansible-core the collection supports (2.16, 2.19 and 2.21 in
``make test``: ``tests/unit/plugins/action/test_standin_contract.py``):

- argument validation and its messages (ansible-core's own ``ArgumentSpecValidator``, the message
  AnsibleModule words for unknown options, :func:`explain_argument_error`'s rewording of both ways'
  messages, failing before any request, even in check mode);
- :func:`plainly_valid`, a fast path beside Ansible's validator for an item that is plainly valid
  (both ways, and in the module process too: organization_state checks its items with it);
- no_log values removed from the result (``remove_values``; top-level booleans and None kept);
- warnings (the alias warnings too) and deprecations;
- ``invocation`` (injected unless ansible-core 2.21's ``INJECT_INVOCATION`` says not to);
- the result's types (JSON's, as the module's printed answer decodes);
- the task's arguments as the module receives them (:func:`module_args`: vaulted values decrypted,
  ansible-core's tags and types gone);
- the working directory and environment of the task (:func:`module_directory`: a module process on
  the local connection runs in the directory of the playbook, ``PWD`` set to it).

:func:`unmatched` says why the worker cannot imitate the running ansible-core (then the action runs
a module process, and says so at -vvv): a version outside those the contract tests run against, a
validator without what ControllerModule reads of it, or ansible-core before 2.19 at -vvv (where
AnsibleModule puts a failure's traceback in the result).

Only ``ansible.module_utils`` is imported here, so that a module process can import this file too.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import contextlib
import copy
import json
import os
import re

from ansible.module_utils.ansible_release import __version__ as ANSIBLE_CORE_VERSION
from ansible.module_utils.basic import AnsibleModule
from ansible.module_utils.common.arg_spec import ArgumentSpecValidator
from ansible.module_utils.common.parameters import remove_values
from ansible.module_utils.errors import UnsupportedError

#: The ansible-core versions (major, minor) the contract tests run against, oldest and newest: the worker
#: imitates these and those between; on any other a task runs as a module process.
CONTRACT_VERSIONS = ((2, 16), (2, 21))


def core_version(version=ANSIBLE_CORE_VERSION):
    """(major, minor) of an ansible-core version string ("2.19.14" -> (2, 19))."""
    parts = re.match(r"^(\d+)\.(\d+)", version or "")
    return (int(parts.group(1)), int(parts.group(2))) if parts else (0, 0)


def unmatched(version=ANSIBLE_CORE_VERSION, verbosity=0, debug=False):
    """Why the worker cannot stand in for this ansible-core at this verbosity (a sentence), or None."""
    running = core_version(version)
    oldest, newest = CONTRACT_VERSIONS
    if not oldest <= running <= newest:
        return ("ansible-core %s is not one the worker's stand-in for a module process is tested against "
                "(%d.%d to %d.%d)" % (version, oldest[0], oldest[1], newest[0], newest[1]))
    missing = [name for name in ("_no_log_values", "_warnings", "_deprecations")
               if not hasattr(_validation_result_class(), name)]
    if missing:
        return "ansible-core %s's argument validation lacks %s" % (version, ", ".join(missing))
    if running < (2, 19) and (verbosity >= 3 or debug):
        # AnsibleModule.fail_json before 2.19 adds the traceback of the exception being handled as
        # ``exception`` at -vvv (or with ANSIBLE_DEBUG); its frames are the module's own, which the worker
        # cannot give (the contract test found this difference, and only this one, on 2.16).
        return ("at -vvv ansible-core %s puts a failed module's traceback in its result, which the worker "
                "does not imitate" % version)
    return None


def _validation_result_class():
    from ansible.module_utils.common.arg_spec import ValidationResult

    return ValidationResult({})


# ------------------------------------------------------------------------------ argument validation
PLAIN_TYPES = dict(str=(str,), bool=(bool,), int=(int,), float=(int, float), list=(list,), dict=(dict,), raw=(object,))

_PLAIN_SPECS = {}
_NOT_PLAIN = ("aliases", "apply_defaults", "fallback", "required_if", "required_one_of", "required_together",
              "required_by", "mutually_exclusive", "deprecated_aliases")


def _plain_spec(spec):
    """Whether no option of ``spec`` asks for more than types, choices, defaults and required."""
    known = _PLAIN_SPECS.get(id(spec))
    if known is None:
        known = _PLAIN_SPECS[id(spec)] = (spec, not any(option.get(k) for option in spec.values() for k in _NOT_PLAIN))
    return known[1]


def _of_type(value, kind):
    """Whether ``value`` already is of the Ansible type ``kind`` (a bool is not an int or a float)."""
    return kind in PLAIN_TYPES and isinstance(value, PLAIN_TYPES[kind]) and not (
        kind in ("int", "float") and isinstance(value, bool))


class _NotPlain(Exception):
    """An item is not plainly valid: Ansible's own validator decides (and words the problem)."""


def plainly_valid(spec, item, secrets, required_one_of=()):
    """The validated params of ``item`` when it is plainly valid for ``spec`` - every key an option,
    every value already of its option's type, choices and required options met - else None, and the
    caller runs Ansible's own validator (which also converts, and words every problem). Checking a
    document of 10,000 items with Ansible's validator costs about 1 ms an item; this, a few us."""
    if any(name not in spec for name in item):
        return None
    if any(all(item.get(name) is None for name in group) for group in required_one_of):
        return None
    if not _plain_spec(spec):
        return None
    try:
        return dict((name, _plain_value(option, item.get(name), secrets)) for name, option in spec.items())
    except _NotPlain:
        return None


def _plain_value(option, value, secrets):
    """The validated value of one option (its default when not given), or _NotPlain."""
    if value is None:
        if option.get("required"):
            raise _NotPlain()
        return copy.deepcopy(option.get("default"))
    kind = option.get("type", "str")
    if not _of_type(value, kind):
        raise _NotPlain()
    if option.get("choices") is not None and (kind == "list" or value not in option["choices"]):
        raise _NotPlain()
    value = _plain_contents(option, kind, value, secrets)
    if option.get("no_log"):
        if not isinstance(value, str):
            raise _NotPlain()
        secrets.add(value)
    return value


def _plain_contents(option, kind, value, secrets):
    """A copy of a value of the right type, its suboptions or elements validated."""
    if kind == "dict" and option.get("options") is not None:
        value = plainly_valid(option["options"], value, secrets)
        if value is None:
            raise _NotPlain()
        return value
    if kind == "list" and option.get("elements"):
        return _plain_elements(option, option["elements"], value, secrets)
    if kind == "float":
        return float(value)
    return copy.deepcopy(value)


def _plain_elements(option, elements, value, secrets):
    if elements == "dict" and option.get("options") is not None:
        value = [plainly_valid(option["options"], v, secrets) if isinstance(v, dict) else None for v in value]
        if any(v is None for v in value):
            raise _NotPlain()
        return value
    if not all(_of_type(v, elements) for v in value):
        raise _NotPlain()
    return list(value)


_FOUND_IN = re.compile(r"^(?P<msg>.*?),? found in (?P<option>[A-Za-z_][\w]*)(?P<rest>\S*)\.?$", re.S)
_NAMING_KEYS = ("email", "target_email", "name", "domain", "url", "id")


def _item_label(option, index, item):
    named = [item[key] for key in _NAMING_KEYS if isinstance(item, dict) and item.get(key) is not None]
    return "%s[%d]%s" % (option, index, " (%s)" % named[0] if named else "")


def explain_argument_error(msg, argument_spec, params):
    """Ansible's message for bad arguments, with the option and the list item named.

    AnsibleModule says "dictionary requested, could not parse JSON or key=value" for a list of
    dictionaries given as text, and "value of level must be one of ... found in people" without
    saying which person; both are rewritten to name the option and the item.
    """
    msg = str(msg or "")
    params = params or {}
    if "dictionary requested" in msg:
        return _not_a_dictionary(argument_spec, params) or msg
    found = _FOUND_IN.match(msg)
    if found and isinstance(params.get(found.group("option")), list):
        return _in_which_item(found, params[found.group("option")]) or msg
    return msg


def _not_a_dictionary(argument_spec, params):
    for option, spec in sorted(argument_spec.items()):
        value = params.get(option)
        if value is None:
            continue
        if spec.get("type") == "list" and spec.get("elements") == "dict":
            items = value if isinstance(value, list) else [value]
            for index, item in enumerate(items):
                if not isinstance(item, dict):
                    return ("%s must be a list of dictionaries, one per item (for example %s: [{...}]), but "
                            "item %d is %r, not a dictionary" % (option, option, index, item))
        if spec.get("type") == "dict" and not isinstance(value, dict):
            return "%s must be a dictionary, got %r" % (option, value)
    return None


def _in_which_item(found, items):
    wanted = re.search(r"got: (.*)$", found.group("msg"))
    culprit = re.search(r"(?:value of|argument|option) '?(\w+)'?", found.group("msg"))
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        if culprit and wanted and str(item.get(culprit.group(1))) != wanted.group(1).strip():
            continue
        return "%s%s: %s" % (_item_label(found.group("option"), index, item), found.group("rest"), found.group("msg"))
    return None


# ------------------------------------------------------------------------------ secrets given
def given_secrets(argument_spec, params):
    """Every value given to a ``no_log`` option of ``argument_spec`` in ``params``, at any depth of its
    suboptions, whatever shape it was given in: a list given as a dict (or a dict as a list), an option
    of the wrong type, arguments Ansible refuses. Collected before validation, so that a refusal (which
    prints the arguments as ``invocation``) masks them too; Ansible's own validator collects only what
    validates far enough."""
    found = set()
    pending = [(argument_spec, params)]
    while pending:
        spec, value = pending.pop()
        for item in value if isinstance(value, list) else [value]:
            if not isinstance(item, dict) or not isinstance(spec, dict):
                continue
            for name, option in spec.items():
                if not isinstance(option, dict):
                    continue
                for key in [name] + list(option.get("aliases") or []):
                    if key not in item:
                        continue
                    if option.get("no_log"):
                        found.update(secret_leaves(item[key]))
                    if option.get("options"):
                        pending.append((option["options"], item[key]))
    return found


def secret_leaves(value):
    """The texts a no_log value masks: itself, or every string and number inside it (booleans and None
    are never secrets, as Ansible has it)."""
    leaves, pending = set(), [value]
    while pending:
        value = pending.pop()
        if isinstance(value, dict):
            pending.extend(value.values())
        elif isinstance(value, (list, tuple, set)):
            pending.extend(value)
        elif isinstance(value, bool) or value is None:
            continue
        elif isinstance(value, (str, bytes, int, float)):
            text = value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)
            if text:
                leaves.add(text)
    return leaves


def secrets_given(argument_spec, params, secrets_of=None):
    """:func:`given_secrets`, and what the module's own ``secrets_of(params)`` finds (organization_state: the
    secrets of its document, whose sections' options are not suboptions of ``definition``)."""
    found = given_secrets(argument_spec, params)
    if secrets_of is not None:
        found.update(secrets_of(params))
    return found


class ExplainingAnsibleModule(AnsibleModule):
    """AnsibleModule whose argument errors name the option and the list item at fault
    (:func:`explain_argument_error`); the module process's side of the contract."""

    def __init__(self, *args, **kwargs):
        self._posthog_secrets_of = kwargs.pop("secrets_of", None)
        super(ExplainingAnsibleModule, self).__init__(*args, **kwargs)

    def _load_params(self):
        super(ExplainingAnsibleModule, self)._load_params()
        self._posthog_given = copy.deepcopy(self.params)  # validation replaces values it cannot convert
        # before validation: arguments it refuses are printed as ``invocation``, secrets masked
        self.no_log_values.update(secrets_given(getattr(self, "argument_spec", {}), self.params,
                                                getattr(self, "_posthog_secrets_of", None)))

    def fail_json(self, msg=None, **kwargs):
        if not getattr(self, "_posthog_ready", False):
            msg = explain_argument_error(msg, getattr(self, "argument_spec", {}),
                                         getattr(self, "_posthog_given", None) or getattr(self, "params", {}))
        super(ExplainingAnsibleModule, self).fail_json(msg=msg, **kwargs)


# ------------------------------------------------------------------------------ the task's arguments
def module_args(args):
    """The task's arguments as a module process receives them: JSON from ansible-core's own encoder
    (vaulted values decrypted, ansible-core's tags and types gone)."""
    try:  # ansible-core 2.19 and later
        from ansible.module_utils.common.json import Direction, get_module_encoder
    except ImportError:
        from ansible.module_utils.common.json import AnsibleJSONEncoder

        return json.loads(json.dumps(args, cls=AnsibleJSONEncoder, vault_to_text=True))
    return json.loads(json.dumps(args, cls=get_module_encoder("legacy", Direction.CONTROLLER_TO_MODULE)))


def inject_invocation(config, variables):
    """Whether a module's result carries ``invocation``: always before ansible-core 2.21, then as its
    ``INJECT_INVOCATION`` setting says (``config``: ``ansible.constants.config``)."""
    if "INJECT_INVOCATION" not in config.get_configuration_definitions():
        return True
    return bool(config.get_config_value("INJECT_INVOCATION", variables=variables))


# ------------------------------------------------------------------------------ where the task runs
@contextlib.contextmanager
def module_directory(directory):
    """Run as a module process on the local connection runs: in ``directory`` (the playbook's, which
    ansible-core makes the command's working directory: ``ActionBase._low_level_execute_command``), with
    ``PWD`` naming it (the shell that starts the module sets it). Both are put back afterwards."""
    if not directory:
        yield
        return
    before, pwd = os.getcwd(), os.environ.get("PWD")
    os.chdir(directory)
    os.environ["PWD"] = os.getcwd()
    try:
        yield
    finally:
        os.chdir(before)
        if pwd is None:
            os.environ.pop("PWD", None)
        else:
            os.environ["PWD"] = pwd


# ------------------------------------------------------------------------------ AnsibleModule's part
class ModuleExit(Exception):
    """exit_json or fail_json: the result, raised instead of printed."""

    def __init__(self, result):
        super(ModuleExit, self).__init__("module exit")
        self.result = result


class ControllerModule:
    """What the engine uses of AnsibleModule, in the controller's worker.

    ``params`` are validated by ansible-core's ``ArgumentSpecValidator`` (which AnsibleModule runs),
    with the same messages; ``exit_json`` and ``fail_json`` raise :class:`ModuleExit` carrying the result
    as AnsibleModule would print it (``invocation`` when ansible-core injects it, ``warnings``,
    ``deprecations``, every no_log value removed).
    """

    def __init__(self, name, argument_spec, args, check_mode, diff, inject_invocation=True, secrets_of=None,
                 **validation):
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
        # what AnsibleModule (ExplainingAnsibleModule) masks before validation: the secrets of arguments it refuses
        self.no_log_values.update(secrets_given(argument_spec, given, secrets_of))
        for warning in validated._warnings:  # pylint: disable=protected-access
            self.warn("Both option %s and its alias %s are set." % (warning["option"], warning["alias"]))
        for deprecation in validated._deprecations:  # pylint: disable=protected-access
            self._deprecations.append(dict((k, v) for k, v in deprecation.items() if v is not None))
        if validated.error_messages:
            # as AnsibleModule fails, even in check mode and before any request
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
        # as AnsibleModule prints it and the controller reads it back: JSON, no_log values removed, the
        # top level's booleans and None kept as they are
        preserved = dict((k, v) for k, v in kwargs.items() if v is None or isinstance(v, bool))
        result = remove_values(kwargs, self.no_log_values)
        result.update(preserved)
        return json.loads(json.dumps(result))

    def exit_json(self, **kwargs):
        kwargs.setdefault("changed", False)
        raise ModuleExit(self._result(kwargs))

    def fail_json(self, msg, **kwargs):
        kwargs.update(failed=True, msg=msg)
        raise ModuleExit(self._result(kwargs))
