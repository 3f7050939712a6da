# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Many objects in one task: the list option (``domains``, ``batch_exports``, ...) of a state module.

A loop over a module runs one module process per item, and each reads the collection again. A
list option converges every item in one process that reads the collection once (a *snapshot*)
and looks every item up in it. Each item runs through the module's own single-object code, so
the rules, the check mode and the diff are the same as for one object:

* the item's options, with the task's top-level options as defaults for the ones it leaves out;
* every item is checked (types by the argument spec, then the module's own checks, then that no
  two items name the same object) before any request, so bad input writes nothing;
* a finding by name is served from the snapshot; a finding by id, and every re-read after an
  ambiguous write failure (the ``recover`` of a lost POST answer), go to the server;
* the snapshot follows the task's own writes (created, updated and deleted objects), and is read
  again after an action it cannot follow;
* when an item fails, the task fails with the item named, what the items before it changed, and
  the objects as they stand (nothing is half-applied silently).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError


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


class ItemFailed(Exception):
    """One item failed: ``fail`` of the item's module was called."""

    def __init__(self, message, extra):
        super(ItemFailed, self).__init__(message)
        self.message = message
        self.extra = extra


class ItemDone(Exception):
    """One item finished: ``exit`` of the item's module was called with ``result``."""

    def __init__(self, result):
        super(ItemDone, self).__init__("item done")
        self.result = result


class _ItemAnsibleModule:
    """The AnsibleModule as one item sees it: its exits end the item, not the task."""

    def __init__(self, module, params):
        self._module = module
        self.params = params

    def __getattr__(self, name):
        return getattr(self._module, name)

    def fail_json(self, msg=None, **extra):
        raise ItemFailed(msg, extra)

    def exit_json(self, **result):
        raise ItemDone(result)


class ItemModule:
    """A PostHogModule as one item sees it: its own params, the task's client and organization."""

    def __init__(self, ph, params, client):
        self._ph = ph
        self.params = params
        self.client = client
        self.module = _ItemAnsibleModule(ph.module, params)

    def __getattr__(self, name):
        return getattr(self._ph, name)

    def fail(self, error, **extra):
        if isinstance(error, PostHogError):
            extra.setdefault("error", error.to_dict())
            raise ItemFailed(error.message, extra)
        raise ItemFailed(str(error), extra)

    def exit(self, **result):
        raise ItemDone(result)

    def run(self, main):
        try:
            main(self)
        except PostHogError as exc:
            self.fail(exc)


def _same_path(one, other):
    return one.rstrip("/") == other.rstrip("/")


class SnapshotClient:
    """The task's client for one item, answering that item's look-up of the collection from the
    snapshot; everything else (GET by id, writes, re-reads while a write is retried) goes to the
    server, and the snapshot follows the writes."""

    def __init__(self, client, snapshot):
        self._client = client
        self._snapshot = snapshot
        self._serve = True

    def __getattr__(self, name):
        return getattr(self._client, name)

    def paginate(self, path, params=None, page_size=None, context=None):
        if self._serve and self._snapshot.covers(path):
            self._serve = False  # a second look-up is a re-read: ask the server
            return iter(self._snapshot.objects(self._client))
        kwargs = dict(params=params, context=context)
        if page_size is not None:
            kwargs["page_size"] = page_size
        return self._client.paginate(path, **kwargs)

    def list_all(self, path, params=None, page_size=None, context=None):
        return list(self.paginate(path, params=params, page_size=page_size, context=context))

    def request(self, method, path, params=None, json_body=None, context=None, recover=None):
        if method.upper() == "GET":
            return self._client.request(method, path, params=params, json_body=json_body, context=context)
        self._serve = False
        answer = self._client.request(method, path, params=params, json_body=json_body, context=context,
                                      recover=recover)
        self._snapshot.follow(method.upper(), path, answer)
        return answer

    def post(self, path, body=None, context=None, recover=None):
        return self.request("POST", path, json_body=body if body is not None else {}, context=context,
                            recover=recover)

    def patch(self, path, body=None, context=None):
        return self.request("PATCH", path, json_body=body if body is not None else {}, context=context)

    def put(self, path, body=None, context=None):
        return self.request("PUT", path, json_body=body if body is not None else {}, context=context)

    def delete(self, path, context=None):
        return self.request("DELETE", path, context=context)


class Snapshot:
    """The objects of one collection, read once (``params``: the list filter the module's own
    look-up uses, without the per-object ones) and kept in step with the task's writes."""

    def __init__(self, path, params=None, context=None):
        self.path = path
        self.params = params
        self.context = context
        self._objects = None
        self.reads = 0

    def covers(self, path):
        return _same_path(path.split("?", 1)[0], self.path)

    def objects(self, client):
        if self._objects is None:
            self._objects = client.list_all(self.path, params=self.params, context=self.context)
            self.reads += 1
        return [copy.deepcopy(obj) for obj in self._objects]

    def _index(self, obj_id):
        for index, obj in enumerate(self._objects or []):
            if str(obj.get("id")) == str(obj_id):
                return index
        return None

    def follow(self, method, path, answer):
        """Keep the snapshot true after ``method path`` answered ``answer``."""
        if self._objects is None:
            return
        path = path.split("?", 1)[0]
        base = self.path.rstrip("/") + "/"
        if not path.startswith(base):
            return
        rest = [part for part in path[len(base):].split("/") if part]
        if method == "POST" and not rest and isinstance(answer, dict) and answer.get("id") is not None:
            self._objects.append(copy.deepcopy(answer))
            return
        if len(rest) == 1 and method == "DELETE":
            index = self._index(rest[0])
            if index is not None:
                del self._objects[index]
            return
        if rest and method != "DELETE" and isinstance(answer, dict) and str(answer.get("id")) == rest[0]:
            index = self._index(rest[0])  # an update, or an action answering the whole object (verify)
            if index is not None:
                self._objects[index] = copy.deepcopy(answer)
                return
        self._objects = None  # an action it cannot follow (or an answer without the object): read again


def merged_params(params, item, names, list_option):
    """The params one item runs with: the task's, overridden by what the item sets."""
    merged = dict(params)
    merged[list_option] = None
    for name in names:
        if item.get(name) is not None:
            merged[name] = copy.deepcopy(item[name])
    return merged


def run_items(ph, list_option, names, return_key, snapshot, check, build, label, keys=None):
    """Converge every item of ``ph.params[list_option]`` and exit the task.

    :param names: the per-object options an item may set.
    :param return_key: the key one object is returned under (``domain``); the task returns the
        list as ``list_option``.
    :param snapshot: the :class:`Snapshot` of the collection the items live in.
    :param check: ``check(item_ph)`` normalises ``item_ph.params`` in place and returns a list of
        problems (no request may be made).
    :param build: ``build(item_ph)`` returns the object whose ``run()`` converges one item.
    :param label: ``label(params)`` names an item in messages (``domain 'example.com'``).
    :param keys: ``keys(params)`` returns the hashable identities of an item; two items with a
        common identity are refused.
    """
    items = ph.params.get(list_option) or []
    prepared = []
    problems = []
    seen = {}
    for index, item in enumerate(items):
        params = merged_params(ph.params, item, names, list_option)
        item_ph = ItemModule(ph, params, ph.client)
        where = "%s[%d]" % (list_option, index)
        try:
            item_problems = check(item_ph) or []
        except ItemFailed as exc:
            item_problems = [exc.message]
        problems.extend("%s (%s): %s" % (where, label(params), problem) for problem in item_problems)
        for key in (keys(params) if keys else ()):
            if key in seen:
                problems.append("%s and %s name the same object (%s); list each object once"
                                % (seen[key], where, label(params)))
            else:
                seen[key] = where
        prepared.append((where, params))
    if problems:
        ph.fail("; ".join(problems))

    results = []
    diffs = []
    changed = False
    for where, params in prepared:
        item_ph = ItemModule(ph, params, SnapshotClient(ph.client, snapshot))
        result = None
        try:
            try:
                item_ph.run(lambda one: build(one).run())
            except ItemDone as done:
                result = done.result
            if result is None:
                raise ItemFailed("the module ended without a result", {})
        except ItemFailed as failure:
            extra = dict(failure.extra)
            extra.pop(return_key, None)
            message = failure.message or "failed"
            detail = ""
            if results:
                detail = "%s %d item(s) were converged (%s)" % (
                    " Before it," if message.endswith(".") else "; before it,", len(results),
                    "changed" if changed else "nothing changed")
            failed = dict(extra)
            failed[list_option] = results
            # the item's own changed: it failed after a write (created, then refused the rest)
            failed["changed"] = changed or bool(extra.get("changed"))
            if diffs:
                failed["diff"] = diffs
            for line in ph.client.retry_log:
                ph.module.warn("Retried: %s" % line)
            ph.module.fail_json(msg="%s (%s): %s%s" % (where, label(params), message, detail), **failed)
        changed = changed or bool(result.get("changed"))
        results.append(result.get(return_key))
        if result.get("diff") and result.get("changed"):
            diff = dict(result["diff"])
            diff.setdefault("before_header", "%s (%s)" % (where, label(params)))
            diff.setdefault("after_header", "%s (%s)" % (where, label(params)))
            diffs.append(diff)
    final = dict(changed=changed)
    final[list_option] = results
    if ph.diff_mode:
        final["diff"] = diffs
    ph.exit(**final)
