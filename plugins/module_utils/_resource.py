# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""The declarative idempotency engine behind every posthog.admin state module.

A module describes its resource (where it lives, how it is identified, which options map to
which fields) and the engine does the rest: find the object by id or natural key (failing on an
ambiguous name), compare only the options the user set, create or PATCH only what differs,
delete, make no write in check mode while reporting the same ``changed``, and build the
``before``/``after`` diff with secrets masked.

Subclass and override a hook (``find``, ``create``, ``update``, ``delete``, ``differs``,
``shape``) where one API does something special; keep the rule in one place.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

SECRET_MASK = "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"


def values_match(desired, current, unordered=False):
    """Whether the server's ``current`` already satisfies the user's ``desired`` value.

    Dicts match when every key the user gave matches (keys the user left out are not managed);
    lists match in order unless ``unordered``; everything else by equality.
    """
    if isinstance(desired, dict):
        if not isinstance(current, dict):
            return False
        return all(values_match(v, current.get(k), unordered) for k, v in desired.items())
    if isinstance(desired, (list, tuple)):
        if not isinstance(current, (list, tuple)) or len(desired) != len(current):
            return False
        if unordered:
            remaining = list(current)
            for item in desired:
                for index, candidate in enumerate(remaining):
                    if values_match(item, candidate, unordered):
                        del remaining[index]
                        break
                else:
                    return False
            return True
        return all(values_match(d, c, unordered) for d, c in zip(desired, current))
    return desired == current


def mask(value, secret_paths):
    """A deep copy of ``value`` with the dotted ``secret_paths`` (``destination.config.aws_secret_access_key``)
    replaced by a mask where present."""
    value = copy.deepcopy(value)
    for path in secret_paths:
        parts = path.split(".")
        node = value
        for part in parts[:-1]:
            node = node.get(part) if isinstance(node, dict) else None
            if node is None:
                break
        if isinstance(node, dict) and node.get(parts[-1]) is not None:
            node[parts[-1]] = SECRET_MASK
    return value


class Resource:
    """One kind of PostHog object, managed by a ``state: present|absent`` module.

    :param ph: the PostHogModule running the task.
    :param kind: a human name for messages (``organization``, ``batch export``).
    :param return_key: the key the object is returned under.
    :param collection_path: the list/create path, ending in ``/``.
    :param fields: module options that map one-to-one to writable API fields.
    :param natural_key: the option that names an object when no ``id`` is given (or None).
    :param id_option: the option that holds the object's id.
    :param search_param: a list query parameter PostHog filters by natural key with.
    :param unordered: fields whose list values compare as sets.
    :param secret_paths: dotted paths masked in diffs and results.
    :param create_only: fields PostHog ignores on update; a change there fails with a message.
    """

    def __init__(self, ph, kind, return_key, collection_path, fields, natural_key="name",
                 id_option="id", search_param=None, unordered=(), secret_paths=(), create_only=()):
        self.ph = ph
        self.client = ph.client
        self.params = ph.params
        self.kind = kind
        self.return_key = return_key
        self.collection_path = collection_path
        self.fields = list(fields)
        self.natural_key = natural_key
        self.id_option = id_option
        self.search_param = search_param
        self.unordered = set(unordered)
        self.secret_paths = list(secret_paths)
        self.create_only = set(create_only)

    # ------------------------------------------------------------ describing
    def detail_path(self, obj_id):
        return "%s%s/" % (self.collection_path, obj_id)

    def identity(self):
        """A phrase naming the object the task is about, for messages."""
        obj_id = self.params.get(self.id_option) if self.id_option else None
        if obj_id is not None:
            return "%s with id %s" % (self.kind, obj_id)
        return "%s %r" % (self.kind, self.params.get(self.natural_key))

    def desired(self):
        """The API fields the user set: options left unset are not managed."""
        return dict((f, self.params[f]) for f in self.fields if self.params.get(f) is not None)

    def shape(self, obj):
        """The object as returned to the user (override to add or drop fields)."""
        return mask(obj, self.secret_paths) if obj else obj

    # --------------------------------------------------------------- finding
    def list_candidates(self):
        """The objects a look-up by natural key reads (narrowed by ``search_param`` where PostHog has one)."""
        key = self.params.get(self.natural_key)
        query = {self.search_param: key} if self.search_param else None
        return self.client.paginate(self.collection_path, params=query, context="looking up %s" % self.identity())

    def list_matches(self):
        """Objects whose natural key equals the one the user gave."""
        key = self.params.get(self.natural_key)
        return [obj for obj in self.list_candidates() if obj.get(self.natural_key) == key]

    def find(self):
        """The current object or None; fails when the name matches more than one."""
        obj_id = self.params.get(self.id_option) if self.id_option else None
        if obj_id is not None:
            return self.client.get_or_none(self.detail_path(obj_id), context="reading %s" % self.identity())
        if not self.natural_key or self.params.get(self.natural_key) is None:
            self.ph.fail("one of %s or %s is required to identify the %s" % (
                self.id_option, self.natural_key, self.kind))
        matches = self.list_matches()
        if len(matches) > 1:
            self.ph.fail("%s is ambiguous: %d objects match (ids %s); set %s to pick one" % (
                self.identity(), len(matches), ", ".join(str(m.get("id")) for m in matches), self.id_option))
        return matches[0] if matches else None

    # ------------------------------------------------------------- comparing
    def differs(self, field, wanted, current_value):
        return not values_match(wanted, current_value, unordered=field in self.unordered)

    def changes(self, current, desired):
        """The subset of ``desired`` that the server does not have yet."""
        return dict((f, v) for f, v in desired.items() if self.differs(f, v, current.get(f)))

    def managed_view(self, obj, desired):
        """The fields the user manages, as they stand in ``obj`` (for diffs)."""
        keys = list(desired)
        if self.natural_key and self.natural_key not in keys:
            keys.insert(0, self.natural_key)
        return mask(dict((k, obj.get(k)) for k in keys if obj is not None), self.secret_paths)

    # --------------------------------------------------------------- writing
    def create_payload(self, desired):
        return dict(desired)

    def create(self, payload):
        return self.client.post(self.collection_path, payload, context="creating %s" % self.identity(),
                                recover=self.recover_created)

    def recover_created(self):
        """After an ambiguous POST failure: the object if the POST went through, else None."""
        if not self.natural_key or self.params.get(self.natural_key) is None:
            return None
        matches = self.list_matches()
        return matches[0] if len(matches) == 1 else None

    def update(self, current, changes):
        return self.client.patch(self.detail_path(current["id"]), changes,
                                 context="updating %s" % self.identity())

    def delete(self, current):
        self.client.delete(self.detail_path(current["id"]), context="deleting %s" % self.identity())

    # ---------------------------------------------------------------- states
    def ensure_present(self, current=None, found=False):
        if not found:
            current = self.find()
        desired = self.desired()
        if current is None:
            obj_id = self.params.get(self.id_option) if self.id_option else None
            if obj_id is not None:
                self.ph.fail("%s not found; omit %s to create a new one" % (self.identity(), self.id_option))
            return self._create(desired)
        return self._update(current, desired)

    def _create(self, desired):
        payload = self.create_payload(desired)
        result = dict(changed=True)
        if self.ph.check_mode:
            obj = dict(payload)
        else:
            obj = self.create(payload)
        result[self.return_key] = self.shape(obj)
        if self.ph.diff_mode:
            result["diff"] = dict(before={}, after=self.managed_view(payload, desired))
        return result

    def _update(self, current, desired):
        changes = self.changes(current, desired)
        frozen = sorted(set(changes) & self.create_only)
        if frozen:
            self.ph.fail("%s: %s cannot be changed after creation (PostHog keeps the first value); "
                         "delete and recreate the object to change it" % (self.identity(), ", ".join(frozen)))
        result = dict(changed=bool(changes))
        obj = current
        if changes:
            if self.ph.check_mode:
                obj = copy.deepcopy(current)
                obj.update(changes)
            else:
                obj = self.update(current, changes)
        after = copy.deepcopy(current)
        after.update(changes)
        result[self.return_key] = self.shape(obj)
        if self.ph.diff_mode:
            result["diff"] = dict(before=self.managed_view(current, desired),
                                  after=self.managed_view(after, desired))
        return result

    def ensure_absent(self, current=None, found=False):
        if not found:
            current = self.find()
        result = dict(changed=current is not None)
        result[self.return_key] = {}
        if current is not None:
            if not self.ph.check_mode:
                self.delete(current)
            if self.ph.diff_mode:
                result["diff"] = dict(before=self.managed_view(current, self.desired()), after={})
        return result

    def run(self):
        """Converge to ``state`` and exit the module."""
        state = self.params.get("state", "present")
        if state == "absent":
            result = self.ensure_absent()
        else:
            result = self.ensure_present()
        self.ph.exit(**result)
