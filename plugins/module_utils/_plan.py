# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""A plan: every write a run makes, decided before the first one, as a list of :class:`Action`.

Planning reads (GETs only) and decides; each write it decides is an :class:`Action`: the object it
is about (section, kind, label), the request (method, path, body), the state of the object it was
decided on (a fingerprint, or its absence) and the actions it waits for. A value a write has not
answered yet (the id of a role the plan creates, named as an organization's default role a few
actions later) is an *unknown*: a token that stands in the path or body of later actions and is
replaced by the answer when the plan is applied (:mod:`._apply`), as Terraform's "known after
apply". What cannot happen yet (a role for a person invited but not joined) is :class:`Pending`,
with its reason, and is reported instead of failing.

Check mode returns the plan; a real run applies exactly its actions, and nothing else.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import hashlib
import json
import os
import re

from ansible_collections.posthog.admin.plugins.module_utils._base import UNKNOWN, Failure, mask, mask_values

REMOVING = ("deleted", "removed", "revoked")
ADDING = ("created", "invited")

#: Fields PostHog changes by itself, not by a person: left out of the state an action was decided on,
#: so that a plan of a busy organization is not stale at every ingested event or export run.
VOLATILE = frozenset(("last_seen_at", "last_calculated_at", "volume_30_day", "query_usage_30_day", "latest_runs",
                      "last_login", "is_calculating", "ingested_event", "last_run_at"))

_TOKEN = re.compile(r"\(known after apply: (a\d+)\.([A-Za-z_][\w.]*) ~([0-9a-f]{12})\)")


def fingerprint(value):
    """SHA-256 of ``value`` as canonical JSON, without the fields PostHog changes by itself."""
    text = json.dumps(steady(value), sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def steady(value):
    if isinstance(value, dict):
        return dict((k, steady(v)) for k, v in value.items() if k not in VOLATILE)
    if isinstance(value, list):
        return [steady(v) for v in value]
    return value


class Action:
    """One write of a plan (or one watch: ``write`` false, a wait that only reads).

    :param verb: what it does, in words (``created``, ``updated``, ``deleted``, ``paused``, ``invited``...).
    :param method: the HTTP method; ``path`` and ``body`` the request (with unknowns as tokens).
    :param label: the object it is about, as messages name it (``roles[0] (role 'Analysts')``).
    :param section: the organization document's section (``roles``), or None in a single module.
    :param state: the fingerprint of the object the action was decided on (None: it was absent).
    :param key: which object that state is of (its path, or its look-up when absent).
    :param owner: the resource that planned it (absorbs the answer, recovers a lost one); not saved.
    :param step: the step that planned it (may perform it: a wait, a retried verify); not saved.
    :param secret_paths: dotted paths of ``body`` that are secret (masked when shown).
    :param sets: what the action sets on the object, when its answer is not the object.
    :param creates: the action creates the object (its answer is the new object).
    :param keys: what other parts of a document call the object (for the plan's checks).
    :param person: an owner's level is touched (``limits.change_owners``).
    :param fallback: the requests (``method``, ``path``, ``body``) the step makes instead when PostHog
        refuses this one for a reason known in advance (a route it moved; an action it refuses to
        personal API keys): shown with the action, never a surprise.
    """

    def __init__(self, verb, method, path, body=None, label=None, section=None, state=None, key=None, owner=None,
                 step=None, secret_paths=(), sets=None, creates=False, write=True, keys=(), person=False, note=None,
                 fallback=None, items=None, answers=None):
        self.id = None
        self.verb = verb
        self.method = method
        self.path = path
        self.body = body
        self.label = label
        self.items = items      # the objects one action is about, when it is about several (a bulk invite)
        self.section = section
        self.state = state
        self.key = key
        self.owner = owner
        self.step = step
        self.secret_paths = tuple(secret_paths)
        self.sets = sets
        self.creates = creates
        self.write = write
        self.keys = set(keys)
        self.person = person
        self.note = note
        self.fallback = fallback  # the writes made instead when PostHog refuses this one for a known reason
        self.answers = answers  # "object": the answer must be the object (with its id)
        self.limits = ()        # the limits (``limits`` option) the action falls under, from its section
        self.decision = None    # what the step that planned it decided (not saved)
        self.waits_for = []
        self.answer = None
        self.done = False

    def shown_body(self, secrets=()):
        return mask_values(mask(self.body, self.secret_paths), secrets)

    def as_dict(self, secrets=()):
        """The action as a plan lists it (and a plan file saves it): the body masked."""
        out = dict(id=self.id, section=self.section, action=self.verb, item=self.label, method=self.method,
                   path=self.path)
        if self.body is not None:
            out["body"] = self.shown_body(secrets)
        if self.fallback:
            out["otherwise"] = [dict(f, body=mask_values(mask(f.get("body"), self.secret_paths), secrets))
                                if f.get("body") is not None else dict(f) for f in self.fallback]
        out["decided_on"] = self.state if self.state is not None else "absent"
        if self.waits_for:
            out["waits_for"] = list(self.waits_for)
        if not self.write:
            out["write"] = False
        if self.person:
            out["owner"] = True
        if self.limits:
            out["limits"] = list(self.limits)
        return out

    def describe(self):
        return "%s %s" % (self.verb, self.label)

    def __repr__(self):
        return "<%s %s %s %s>" % (self.id, self.method, self.path, self.verb)


class Pending:
    """What the plan cannot do yet, and why (a role for someone invited but not yet joined)."""

    def __init__(self, section, label, what, reason):
        self.section = section
        self.label = label
        self.what = what
        self.reason = reason

    def as_dict(self):
        return dict(section=self.section, item=self.label, pending=self.what, reason=self.reason)


class Ref:
    """What one part of the document refers to: ``where`` (a label) names, through ``key``, an object
    of section ``target`` (``projects``, ``roles``, ``roster``)."""

    def __init__(self, where, target, key, what):
        self.where = where
        self.target = target
        self.key = key
        self.what = what  # "lives in project 2", "names it as default_role"...


class Plan:
    """The actions of a run, in the order they are applied; the states they were decided on; what is
    pending. ``nonce`` makes the unknowns' tokens this plan's own (a server's text cannot forge one)."""

    def __init__(self, nonce=None):
        self.actions = []
        self.states = {}
        self.pending = []
        self.nonce = nonce or os.urandom(6).hex()
        self.section = None     # the document section being planned (set by organization_state)
        self.label = None       # the item being planned
        self.guards = ()        # the limits that section's actions fall under (``remove_people``...)

    # ------------------------------------------------------------------ building
    def add(self, action):
        """Append ``action``: numbered, placed in the current section, its waits found from its tokens."""
        action.id = "a%d" % (len(self.actions) + 1)
        if action.section is None:
            action.section = self.section
        if action.label is None:
            action.label = self.label
        # the limits the action falls under: its section's, and change_owners where it touches an owner
        action.limits = tuple(self.guards) + (("change_owners",) if action.person else ())
        found = set(m.group(1) for m in _TOKEN.finditer(json.dumps([action.path, action.body], default=str))
                    if m.group(3) == self.nonce)
        action.waits_for = sorted(found, key=lambda a: int(a[1:]))
        self.actions.append(action)
        return action

    def unknown(self, action, field="id"):
        """The token standing for ``field`` of what ``action`` will answer (``known after apply``)."""
        return "%s%s.%s ~%s)" % (UNKNOWN, action.id, field, self.nonce)

    def is_unknown(self, value):
        # the nonce first: most values hold no token, and a substring test is far cheaper than the pattern
        return (isinstance(value, str) and self.nonce in value
                and any(m.group(3) == self.nonce for m in _TOKEN.finditer(value)))

    def depend(self, key, obj):
        """Record that the plan was decided on ``obj`` (None: absent) as the object ``key``."""
        if key is not None:
            self.states[key] = fingerprint(obj) if obj is not None else "absent"
        return self.states.get(key)

    def wait(self, section, label, what, reason):
        self.pending.append(Pending(section or self.section, label or self.label, what, reason))

    # ------------------------------------------------------------------ reading
    @property
    def writes(self):
        return [a for a in self.actions if a.write]

    @property
    def changed(self):
        return bool(self.writes)

    def as_list(self, secrets=()):
        return [a.as_dict(secrets) for a in self.writes]

    def by_section(self):
        """``{section: {verb: [labels]}}``."""
        out = {}
        for action in self.writes:
            labels = out.setdefault(action.section, {}).setdefault(action.verb, [])
            labels.extend(label for label in action.items or [action.label] if label not in labels)
        return out

    # ------------------------------------------------------------------ applying
    def resolve(self, value):
        """``value`` (a path or body) with this plan's tokens replaced by what the actions answered."""
        if isinstance(value, dict):
            return dict((k, self.resolve(v)) for k, v in value.items())
        if isinstance(value, list):
            return [self.resolve(v) for v in value]
        if not isinstance(value, str) or "(known after apply" not in value:
            return value
        whole = _TOKEN.fullmatch(value)
        if whole and whole.group(3) == self.nonce:
            return self._answered(whole.group(1), whole.group(2))
        return _TOKEN.sub(lambda m: str(self._answered(m.group(1), m.group(2))) if m.group(3) == self.nonce
                          else m.group(0), value)

    def known_path(self, path):
        """``path`` with the tokens of actions already applied replaced (what a read made while the plan
        is applied uses: a recovery's look-up, a wait); the others stay as they are."""
        if not isinstance(path, str) or UNKNOWN not in path:
            return path

        def known(match):
            if match.group(3) != self.nonce:
                return match.group(0)
            action = self.actions[int(match.group(1)[1:]) - 1]
            return str(self._answered(match.group(1), match.group(2))) if action.answer is not None else match.group(0)
        return _TOKEN.sub(known, path)

    def _answered(self, action_id, field):
        action = self.actions[int(action_id[1:]) - 1]
        value = action.answer
        for part in field.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        if value is None or isinstance(value, (dict, list)):
            raise Failure("%s: PostHog's answer to %s %s has no %s, which later actions need"
                          % (action.label, action.method, action.path, field))
        return value

    def known(self, value):
        """``value`` with the tokens of actions not applied (check mode) as None (results show no tokens)."""
        if isinstance(value, dict):
            return dict((k, self.known(v)) for k, v in value.items())
        if isinstance(value, list):
            return [self.known(v) for v in value]
        if self.is_unknown(value):
            try:
                return self.resolve(value)
            except Exception:
                return None
        return value


def plan_problems(plan, refs):
    """Why ``plan`` must not run (sentences naming both sides), given what the document refers to."""
    problems = []
    for action in plan.writes:
        if action.verb not in REMOVING:
            continue
        for ref in refs:
            if ref.target == action.section and ref.key in action.keys:
                problems.append("%s would be %s, but %s %s" % (action.label, action.verb, ref.where, ref.what))
    return problems


def progress_message(done, not_attempted, uncertain=()):
    """What a failed real run did, for the failure's message."""
    parts = []
    parts.append("Done before it: %s." % (", ".join(a.describe() for a in done) if done else "nothing"))
    if uncertain:
        parts.append("Uncertain (PostHog may have done it; the next run reads what it did): %s."
                     % ", ".join(a.describe() for a in uncertain))
    if not_attempted:
        parts.append("Not attempted: %s." % ", ".join(a.describe() for a in not_attempted))
    parts.append("Run the task again to converge the rest.")
    return " ".join(parts)
