# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""AnsibleModule glue shared by every posthog.admin module.

The shared argument spec (with the environment variables PostHog's Terraform provider uses), and
:func:`run_module` / :func:`run_info` / :func:`run_task`: the whole ``main()`` of a module, which
builds the :class:`~._common.Task` a resource runs in, and the only places that call ``exit_json``
and ``fail_json``. No kind file imports this: what kinds need of a task is in ``_common.py``, and what
stands in for AnsibleModule in the controller's worker is in ``_standin.py``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

from ansible.module_utils.basic import env_fallback, missing_required_lib

from ansible_collections.posthog.admin.plugins.module_utils._client import (
    DEFAULT_HOST,
    DEFAULT_RETRIES,
    DEFAULT_RETRY_MAX_DELAY,
    DEFAULT_TIMEOUT,
    HAS_REQUESTS,
    REQUESTS_IMPORT_ERROR,
    PostHogError,
)
from ansible_collections.posthog.admin.plugins.module_utils._common import Task, client_from_params
from ansible_collections.posthog.admin.plugins.module_utils._resource import Failure, Listing, converge_many
from ansible_collections.posthog.admin.plugins.module_utils._standin import ExplainingAnsibleModule


def connection_argument_spec():
    return dict(
        host=dict(type="str", default=DEFAULT_HOST, fallback=(env_fallback, ["POSTHOG_HOST"])),
        api_key=dict(type="str", required=True, no_log=True, fallback=(env_fallback, ["POSTHOG_API_KEY"])),
        validate_certs=dict(type="bool", default=True, fallback=(env_fallback, ["POSTHOG_VALIDATE_CERTS"])),
        ca_path=dict(type="path", fallback=(env_fallback, ["POSTHOG_CA_PATH"])),
        timeout=dict(type="float", default=DEFAULT_TIMEOUT, fallback=(env_fallback, ["POSTHOG_TIMEOUT"])),
        retries=dict(type="int", default=DEFAULT_RETRIES, fallback=(env_fallback, ["POSTHOG_RETRIES"])),
        retry_max_delay=dict(type="float", default=DEFAULT_RETRY_MAX_DELAY,
                             fallback=(env_fallback, ["POSTHOG_RETRY_MAX_DELAY"])),
    )


SCOPE_OPTIONS = dict(
    organization=dict(type="str", default="@current", fallback=(env_fallback, ["POSTHOG_ORGANIZATION_ID"])),
    project_id=dict(type="str", default="@current", fallback=(env_fallback, ["POSTHOG_PROJECT_ID"])),
)


# ------------------------------------------------------------------------------ running modules
def item_spec(argument_spec, names):
    """The suboptions of a list option: the named options of ``argument_spec`` without their
    defaults (an item falls back to the task's value, which carries the default) or ``required``."""
    spec = {}
    for name in names:
        option = copy.deepcopy(argument_spec[name])
        option.pop("default", None)
        option.pop("required", None)
        spec[name] = option
    return spec


def merged_params(params, item, names, list_option):
    """The params one item runs with: the task's, overridden by what the item sets."""
    merged = dict(params)
    merged[list_option] = None
    for name in names:
        if item.get(name) is not None:
            merged[name] = copy.deepcopy(item[name])
    return merged


def module_spec(argument_spec):
    """A module's whole argument spec. Every module takes the connection options, ``organization``
    and ``project_id`` (those it does not use are ignored), so that ``module_defaults`` for the group
    can set them all at once."""
    spec = connection_argument_spec()
    spec.update(copy.deepcopy(SCOPE_OPTIONS))
    spec.update(argument_spec)
    return spec


def _ansible_module(argument_spec, kwargs):
    kwargs = dict(kwargs)
    kwargs.setdefault("supports_check_mode", True)
    module = ExplainingAnsibleModule(argument_spec=module_spec(argument_spec), **kwargs)
    module._posthog_ready = True
    if not HAS_REQUESTS:
        module.fail_json(msg=missing_required_lib("requests"), exception=REQUESTS_IMPORT_ERROR)
    return module


def _task(module):
    try:
        client = client_from_params(module.params)
        client.add_secrets(module.no_log_values)  # masked in every form a server may echo them in
    except PostHogError as exc:
        module.fail_json(msg=exc.message)
    return Task(client, module.params, check_mode=module.check_mode, diff_mode=module._diff)


def _finish(module, task, result=None, failure=None):
    module.no_log_values.update(task.secrets)
    for line in task.client.notes:
        module.warn(line)
    for line in task.client.retry_log:
        module.warn("Retried: %s" % line)
    for line in task.warnings:
        module.warn(line)
    for message, version in task.deprecations:
        module.deprecate(message, version=version, collection_name="posthog.admin")
    if failure is not None:
        module.fail_json(msg=failure.msg, **failure.extra)
    module.exit_json(**result)


def _guarded(module, task, work):
    """Run ``work()`` (returning the result dict); any Failure or PostHogError fails the task."""
    try:
        result = work()
    except PostHogError as exc:
        _finish(module, task, failure=Failure.of(exc))
    except Failure as failure:
        _finish(module, task, failure=failure)
    _finish(module, task, result=result)


def run_module(resource, argument_spec, **kwargs):
    """The whole ``main()`` of a state module: build the argument spec (with the list option when
    ``resource.list_option`` is set), check every item before any request, converge one object or
    the list, and exit.

    :param resource: a :class:`Resource` (or :class:`Planner`) subclass.
    :param argument_spec: the module's own options.
    :param kwargs: more AnsibleModule arguments (``required_one_of``, ``mutually_exclusive``...).
    """
    spec = dict(argument_spec)
    list_option = getattr(resource, "list_option", None)
    if list_option:
        spec[list_option] = dict(type="list", elements="dict", options=item_spec(spec, resource.item_options))
        kwargs["required_one_of"] = [tuple(group) + (list_option,) for group in kwargs.get("required_one_of", [])]
        kwargs["mutually_exclusive"] = list(kwargs.get("mutually_exclusive", [])) + [
            (list_option, option) for option in resource.lookups if option in spec]
    module = _ansible_module(spec, kwargs)
    task = _task(module)

    def work():
        problems = resource.validate_task(module.params)
        if problems:
            raise Failure("; ".join(problems))
        items = module.params.get(list_option) if list_option else None
        if items is None:
            single = resource(task, module.params)
            problems = single.problems()
            if problems:
                raise Failure("; ".join(problems))
            return single.converge().as_dict(task.diff_mode)
        listing = Listing(predict=True)  # the plan follows what each item would do
        resources, labels, problems, seen = [], [], [], {}
        for index, item in enumerate(items):
            one = resource(task, merged_params(module.params, item, resource.item_options, list_option), listing)
            label = "%s[%d] (%s)" % (list_option, index, one.label())
            problems.extend("%s: %s" % (label, problem) for problem in one.problems())
            for key in one.identities():
                if key in seen:
                    problems.append("%s and %s name the same object (%s); list each object once"
                                    % (seen[key], "%s[%d]" % (list_option, index), one.label()))
                else:
                    seen[key] = "%s[%d]" % (list_option, index)
            resources.append(one)
            labels.append(label)
        if problems:
            raise Failure("; ".join(problems))
        for one, label in resource.purged(task, module.params, resources, listing):
            resources.append(one)
            labels.append(label)
        return converge_many(list_option, resources, labels).as_dict(task.diff_mode)

    _guarded(module, task, work)


def run_info(argument_spec, read, **kwargs):
    """The whole ``main()`` of an info module: ``read(task, params)`` returns the result dict."""
    run_task(argument_spec, read, **kwargs)


def run_task(argument_spec, work, **kwargs):
    """The whole ``main()`` of a module whose work is not one resource (an info module, a whole
    document): ``work(task, params)`` returns the result dict (``changed`` defaults to false)."""
    run_task_in(_ansible_module(argument_spec, kwargs), work)


def run_task_in(module, work):
    """:func:`run_task` in a module already built: an AnsibleModule, or the controller's stand-in
    for one when an action plugin runs the task in its own process (``plugins/plugin_utils``)."""
    task = _task(module)

    def run():
        result = dict(changed=False)
        result.update(work(task, module.params))
        return result

    _guarded(module, task, run)
