# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""A plan of a whole organization: every action, in the order the real run takes them, checked as a
whole before the first write.

``organization_state`` first converges the whole document in check mode (reads only: each
collection once); what that pass would do is the :class:`Plan`. :func:`plan_problems` refuses a plan
that destroys what the document still refers to (:class:`Ref`: an item's project, the default role, a
role's holders) or contradicts itself; check mode returns the plan; a real run carries it out on
the same reads, and a failure says what was done, what failed and what was not attempted.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

REMOVING = ("deleted", "removed", "revoked")


class Action:
    """One thing the plan does: ``verb`` (created, updated, deleted, removed, paused...) to the
    object ``label`` names in ``section``; ``keys`` are what other parts of the document refer to
    it by (a project's id, a role's folded name, a person's address)."""

    def __init__(self, section, label, verb, keys=(), owner=False):
        self.section = section
        self.label = label
        self.verb = verb
        self.keys = set(keys)
        self.owner = owner  # the action touches an owner (a level to or from owner, an owner removed)

    def as_dict(self):
        out = dict(section=self.section, action=self.verb, item=self.label)
        if self.owner:
            out["owner"] = True
        return out

    def __eq__(self, other):
        return isinstance(other, Action) and self.as_dict() == other.as_dict()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((self.section, self.label, self.verb))

    def __repr__(self):
        return "%s %s (%s)" % (self.verb, self.label, self.section)


class Ref:
    """What one part of the document refers to: ``where`` (a label) names, through ``key``, an object
    of section ``target`` (``projects``, ``roles``, ``roster``)."""

    def __init__(self, where, target, key, what):
        self.where = where
        self.target = target
        self.key = key
        self.what = what  # "lives in project 2", "names it as default_role"...


class Plan:
    """The actions of one pass, in order."""

    def __init__(self):
        self.actions = []

    def add(self, section, label, verbs, keys=(), owner=False):
        for verb in verbs:
            self.actions.append(Action(section, label, verb, keys, owner))

    @property
    def changed(self):
        return bool(self.actions)

    def as_list(self):
        return [a.as_dict() for a in self.actions]

    def by_section(self):
        """``{section: {verb: [labels]}}``: the plan as check mode prints it, section by section."""
        out = {}
        for action in self.actions:
            out.setdefault(action.section, {}).setdefault(action.verb, []).append(action.label)
        return out


def plan_problems(plan, refs):
    """Why ``plan`` must not run (sentences naming both sides), given what the document refers to."""
    problems = []
    for action in plan.actions:
        if action.verb not in REMOVING:
            continue
        for ref in refs:
            if ref.target == action.section and ref.key in action.keys:
                problems.append("%s would be %s, but %s %s" % (action.label, action.verb, ref.where, ref.what))
    return problems


def progress_message(done, not_attempted):
    """What a failed real run did, for the failure's message."""
    parts = []
    parts.append("Done before it: %s." % (", ".join("%s %s" % (a.verb, a.label) for a in done) if done else "nothing"))
    if not_attempted:
        parts.append("Not attempted: %s." % ", ".join("%s %s" % (a.verb, a.label) for a in not_attempted))
    parts.append("Run the task again to converge the rest.")
    return " ".join(parts)
