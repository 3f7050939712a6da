# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""AnsibleModule glue shared by every posthog.admin module.

The shared argument spec (with the environment variables PostHog's Terraform provider uses), the
:class:`Task` a resource runs in (client, check and diff mode, the ``organization`` resolved once
per task, the project), and :func:`run_module` / :func:`run_info`: the whole ``main()`` of a
module, and the only places that call ``exit_json`` and ``fail_json``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import re

from ansible.module_utils.basic import AnsibleModule, env_fallback, missing_required_lib

from ansible_collections.posthog.admin.plugins.module_utils._client import (
    DEFAULT_HOST,
    DEFAULT_RETRIES,
    DEFAULT_RETRY_MAX_DELAY,
    DEFAULT_TIMEOUT,
    HAS_REQUESTS,
    REQUESTS_IMPORT_ERROR,
    PostHogClient,
    PostHogError,
)
from ansible_collections.posthog.admin.plugins.module_utils._base import unknown
from ansible_collections.posthog.admin.plugins.module_utils._resource import Failure, Listing, converge_many

UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$")


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


def client_from_params(params, on_retry=None):
    """A PostHogClient built from the shared connection options (modules and plugins alike)."""
    return PostHogClient(
        host=params.get("host"),
        api_key=params.get("api_key"),
        validate_certs=params.get("validate_certs", True),
        ca_path=params.get("ca_path"),
        timeout=params.get("timeout"),
        retries=params.get("retries"),
        retry_max_delay=params.get("retry_max_delay"),
        on_retry=on_retry,
    )


def resolve_organization(client, value):
    """The id to put in ``/api/organizations/<id>/...`` for a UUID, slug, name or ``@current``.

    A UUID and ``@current`` cost no request: PostHog takes both in the path. A slug or name costs
    one list request (slugs are unique; a name shared by several organizations fails).
    """
    value = (value or "@current").strip()
    if value == "@current" or UUID_RE.match(value):
        return value
    organizations = client.list_all("/api/organizations/", context="looking up organization %r" % value)
    by_slug = [o for o in organizations if o.get("slug") == value]
    if by_slug:
        return by_slug[0]["id"]
    by_name = [o for o in organizations if o.get("name") == value]
    if len(by_name) == 1:
        return by_name[0]["id"]
    if len(by_name) > 1:
        raise Failure(
            "organization %r is ambiguous: %d organizations have that name (%s); give its id or slug instead"
            % (value, len(by_name), ", ".join("%s (slug %s)" % (o["id"], o.get("slug")) for o in by_name)))
    raise OrganizationNotFound(
        "organization %r not found: none of the %d organizations this API key can see has that slug or name"
        % (value, len(organizations)))


class OrganizationNotFound(Failure):
    """The ``organization`` option names no organization the key can see."""


class Task:
    """What a resource needs of the task running it: the client, check and diff mode, warnings,
    the organization (resolved once) and the project, and a cache the items of a list share."""

    def __init__(self, client, params, check_mode=False, diff_mode=False):
        self.client = client
        self.params = params
        self.check_mode = check_mode
        self.diff_mode = diff_mode
        self.warnings = []
        self.deprecations = []
        self.cache = {}
        self._organization_id = None
        self.missing_parent = None  # check mode: what does not exist yet (an earlier task would create it)
        self.secrets = set()
        self.listing = None  # organization_state: the Listing every section's items share (collections by path)
        self.planning = False  # organization_state's plan of a real run: check mode that assumes no earlier task

    @property
    def assumes_earlier_tasks(self):
        """Check mode, where an earlier task of the play may create what is missing (then warned, not
        failed); not while organization_state plans a real run, whose own earlier parts it has followed."""
        return self.check_mode and not self.planning

    def scoped(self, **params):
        """The same task (client, mode, organization, warnings, listing) with some params changed: an
        item of organization_state that lives in another project than the document's."""
        other = copy.copy(self)
        other.params = dict(self.params, **params)
        return other

    def known(self, path):
        """The objects of the collection at ``path`` as this run keeps them (read and converged by
        an earlier section), or None when the run has not read it."""
        return self.listing.collection(path) if self.listing is not None else None

    def add_secrets(self, values):
        """Secrets found inside an option (a document): masked by the client and in the module's output."""
        values = set(v for v in values if v)
        self.secrets.update(values)
        self.client.add_secrets(values)

    def warn(self, message):
        if message not in self.warnings:
            self.warnings.append(message)

    def deprecate(self, message, version):
        """A deprecation Ansible shows (and returns under ``deprecations``), once per task."""
        if (message, version) not in self.deprecations:
            self.deprecations.append((message, version))

    @property
    def organization_id(self):
        if self._organization_id is None:
            try:
                self._organization_id = resolve_organization(self.client, self.params.get("organization"))
            except OrganizationNotFound:
                if not self.check_mode:
                    raise
                # In check mode an earlier task of the play may be about to create it: predict as if
                # it existed, empty, and say so (a real run fails here if it still does not exist).
                self.missing_parent = "organization %r" % self.params.get("organization")
                self.warn("%s does not exist yet; check mode assumes an earlier task creates it, so everything "
                          "in it would be created (a real run fails if it still does not exist)"
                          % self.missing_parent)
                self._organization_id = self.params.get("organization")
        return self._organization_id

    def org_path(self, *parts):
        """``/api/organizations/<org>/<parts...>/``"""
        tail = "/".join(str(p).strip("/") for p in parts if p not in (None, ""))
        return "/api/organizations/%s/%s" % (self.organization_id, tail + "/" if tail else "")

    @property
    def project_id(self):
        return project_id_of(self.params)


def project_id_of(params):
    """The project of ``params``: a numeric id or ``@current``; a Failure for anything else."""
    value = str(params.get("project_id") or "@current").strip()
    if value != "@current" and not value.isdigit() and not unknown(value):
        raise Failure("project_id must be a project's numeric id or '@current', got %r" % value)
    return value


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
    params = {}
    for name, option in spec.items():
        value = item.get(name)
        if value is None:
            if option.get("required"):
                return None
            params[name] = copy.deepcopy(option.get("default"))
            continue
        kind = option.get("type", "str")
        if kind not in PLAIN_TYPES or not isinstance(value, PLAIN_TYPES[kind]) or \
                (kind in ("int", "float") and isinstance(value, bool)):
            return None
        if option.get("choices") is not None and (kind == "list" or value not in option["choices"]):
            return None
        if kind == "dict" and option.get("options") is not None:
            value = plainly_valid(option["options"], value, secrets)
            if value is None:
                return None
        elif kind == "list" and option.get("elements"):
            elements = option["elements"]
            if elements == "dict" and option.get("options") is not None:
                value = [plainly_valid(option["options"], v, secrets) if isinstance(v, dict) else None for v in value]
                if any(v is None for v in value):
                    return None
            elif elements not in PLAIN_TYPES or not all(isinstance(v, PLAIN_TYPES[elements]) and not (
                    elements in ("int", "float") and isinstance(v, bool)) for v in value):
                return None
            else:
                value = list(value)
        elif kind == "float":
            value = float(value)
        else:
            value = copy.deepcopy(value)
        if option.get("no_log"):
            if not isinstance(value, str):
                return None
            secrets.add(value)
        params[name] = value
    return params


def merged_params(params, item, names, list_option):
    """The params one item runs with: the task's, overridden by what the item sets."""
    merged = dict(params)
    merged[list_option] = None
    for name in names:
        if item.get(name) is not None:
            merged[name] = copy.deepcopy(item[name])
    return merged


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
        for option, spec in sorted(argument_spec.items()):
            value = params.get(option)
            if spec.get("type") == "list" and spec.get("elements") == "dict" and value is not None:
                items = value if isinstance(value, list) else [value]
                for index, item in enumerate(items):
                    if not isinstance(item, dict):
                        return ("%s must be a list of dictionaries, one per item (for example %s: [{...}]), but "
                                "item %d is %r, not a dictionary" % (option, option, index, item))
            if spec.get("type") == "dict" and value is not None and not isinstance(value, dict):
                return "%s must be a dictionary, got %r" % (option, value)
        return msg
    found = _FOUND_IN.match(msg)
    if found and isinstance(params.get(found.group("option")), list):
        option = found.group("option")
        wanted = re.search(r"got: (.*)$", found.group("msg"))
        culprit = re.search(r"(?:value of|argument|option) '?(\w+)'?", found.group("msg"))
        for index, item in enumerate(params[option]):
            if not isinstance(item, dict):
                continue
            if culprit and wanted and str(item.get(culprit.group(1))) != wanted.group(1).strip():
                continue
            return "%s%s: %s" % (_item_label(option, index, item), found.group("rest"), found.group("msg"))
    return msg


class _AnsibleModule(AnsibleModule):
    """AnsibleModule whose argument errors name the option and the list item at fault."""

    def _load_params(self):
        super(_AnsibleModule, self)._load_params()
        self._posthog_given = copy.deepcopy(self.params)  # validation replaces values it cannot convert

    def fail_json(self, msg=None, **kwargs):
        if not getattr(self, "_posthog_ready", False):
            msg = explain_argument_error(msg, getattr(self, "argument_spec", {}),
                                         getattr(self, "_posthog_given", None) or getattr(self, "params", {}))
        super(_AnsibleModule, self).fail_json(msg=msg, **kwargs)


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
    module = _AnsibleModule(argument_spec=module_spec(argument_spec), **kwargs)
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


def list_or_get(task, path, obj_id=None, params=None, what="objects", filters=None):
    """An info module's read: the object ``obj_id`` (one GET; empty when PostHog answers 404) or
    every object of the list at ``path`` (with the list ``params``), then only those whose fields
    equal ``filters`` (None values ignored)."""
    if task.missing_parent:
        return []  # check mode: the parent would be created by an earlier task
    if obj_id is not None and str(obj_id).strip() != "":
        found = task.client.get_or_none("%s%s/" % (path, str(obj_id).strip()), context="reading %s %s" % (what, obj_id))
        objects = [found] if found else []
    else:
        objects = task.client.list_all(path, params=params, context="listing %ss" % what)
    for key, value in (filters or {}).items():
        if value is not None:
            objects = [o for o in objects if o.get(key) == value]
    return objects
