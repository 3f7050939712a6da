# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""What the engine's parts share and depend on nothing: the task's failure, masking, comparing."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

SECRET_MASK = "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER"
#: How a plan's unknowns start: values an action of the plan answers when it is applied (_plan.Plan.unknown).
UNKNOWN = "(known after apply: "


def unknown(value):
    """Whether ``value`` is a plan's unknown (the id of a project the plan creates...)."""
    return isinstance(value, str) and value.startswith(UNKNOWN)


class Failure(Exception):
    """The task fails with ``msg``; ``extra`` is returned beside it (``changed``, the object...).

    Raised by resources and the engine, turned into ``fail_json`` by the module glue only.
    """

    def __init__(self, msg, **extra):
        super(Failure, self).__init__(msg)
        self.msg = msg
        self.extra = extra
        self.missing = False  # set when the object does not exist and cannot be created

    @classmethod
    def of(cls, error, **extra):
        """A Failure for a PostHogError, returning its fields as ``error`` (left out when the
        failure came before any HTTP answer, where every field would be null)."""
        fields = error.to_dict()
        if fields.get("status") is not None:
            extra.setdefault("error", fields)
        return cls(error.message, **extra)


class Postponed(Failure):
    """What the task asks cannot happen yet, for a reason that time mends (a role for someone invited
    but not yet joined): planned as pending, reported, and done by a later run; not a failure."""

    def __init__(self, what, reason):
        super(Postponed, self).__init__("%s: %s" % (what, reason))
        self.what = what
        self.reason = reason


def _holds(value, parts):
    for part in parts:
        if not isinstance(value, dict) or value.get(part) is None:
            return False
        value = value[part]
    return True


def mask(value, secret_paths):
    """``value`` with the dotted ``secret_paths`` (``destination.config.password``) replaced by a
    mask where present: a deep copy when one is, else ``value`` itself."""
    if not any(_holds(value, path.split(".")) for path in secret_paths):
        return value  # nothing to mask (the engine's objects are its own copies already)
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


def mask_values(value, secrets):
    """``value`` with every string that is, or contains, one of ``secrets`` masked (a copy)."""
    if not secrets:
        return value
    if isinstance(value, dict):
        return dict((k, mask_values(v, secrets)) for k, v in value.items())
    if isinstance(value, list):
        return [mask_values(v, secrets) for v in value]
    if isinstance(value, str) and any(s and s in value for s in secrets):
        return SECRET_MASK
    return value


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


def fold(value):
    """A coarse, hashable key of a look-up value: strings trimmed and case-folded (every kind's
    equality on a look-up is at least this strict); None for what cannot be a key."""
    if isinstance(value, str):
        return value.strip().lower()
    if isinstance(value, (int, float, bool)) or value is None:
        return value
    return None
