# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""How a kind declares its place in organization_state's document: a :class:`Section` (a list of
items, or one dict converged by a Planner) in the kind's own file, and the :class:`Root` (the
organization itself: its settings and the fields set once the sections are converged)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator


def options_from(spec, names, **changes):
    """The named options of a module's argument spec, with ``changes`` ({name: {key: value}})."""
    options = dict((name, copy.deepcopy(spec[name])) for name in names if name in spec)
    for name, change in changes.items():
        options.setdefault(name, {}).update(change)
    return options


def label(kind, item):
    for key in ("domain", "name", "url", "email", "id"):
        if isinstance(item, dict) and item.get(key) not in (None, ""):
            return "%s %r" % (kind, item[key])
    return kind


class Section:
    """One part of the document, converged by one resource (or planner), declared by its kind.

    :param key: the document key (``batch_exports``).
    :param resource: the Resource (a list of items) or Planner (one dict) converging it.
    :param options: the argument spec of one item (the module's options an item takes).
    :param kind: what an item is called in messages.
    :param required_one_of: like AnsibleModule's, for one item.
    :param many: a list of items (else one dict).
    :param prunable: whether ``prune`` removes objects the section does not list (True, False, or
        the module option that must also be set: ``prune_projects``).
    :param skip_missing: a missing object is skipped with a warning, not a failure.
    :param prune_params: what a removal by prune adds to its params (``confirm_delete``).
    :param on_prune: ``on_prune(params, options)``: what ``prune`` changes in an item's params (a
        role's ``purge``), given the module's options.
    :param keys: ``keys(obj, label)``: what other parts of the document call an object of this
        section that the plan removes (a project's id, a role's folded name, a person's address).
    :param refers: ``(option, section)`` pairs: an item's ``option`` names objects of ``section``.
    :param comment: what the export file says above the section.
    :param document_keys: ``(key, comment)`` of document keys the section's export also writes.
    :param export: ``export(ctx)``: the section's items as organization_state_info exports them
        (None where PostHog refuses them).
    :param prune_guard: ``prune_guard(task)``: why prune must keep what the section does not list
        (a sentence, warned), or None.
    :param outputs: ``{result key: outputs(objects)}``: what organization_state returns from the
        section's objects as converged (the DNS records still to publish...).
    :param provides: ``provides(params)``: ``{what: [keys]}`` the section brings about, announced
        before anything is planned (the people the roster invites: others may name them as pending).
    :param guards: the ``limits`` its actions fall under: ``remove_people`` (its removals remove
        people), ``change_sso`` (any change of it changes single sign-on).
    """

    def __init__(self, key, resource, options, kind, required_one_of=None, many=True, prunable=True,
                 skip_missing=False, prune_params=None, on_prune=None, keys=None, refers=(), comment="",
                 document_keys=(), export=None, prune_guard=None, outputs=None, provides=None, guards=()):
        self.key = key
        self.resource = resource
        self.options = options
        self.kind = kind
        self.required_one_of = required_one_of or []
        self.many = many
        self.prunable = prunable
        self.skip_missing = skip_missing
        self.prune_params = prune_params or {}
        self.on_prune = on_prune
        self.keys = keys or (lambda obj, label: ())
        self.refers = refers
        self.comment = comment
        self.document_keys = document_keys
        self.export = export
        self.prune_guard = prune_guard
        self.outputs = outputs or {}
        self.provides = provides
        self.guards = guards
        self._validator = None

    @property
    def validator(self):
        if self._validator is None:
            self._validator = ArgumentSpecValidator(self.options, required_one_of=self.required_one_of)
        return self._validator

    def where(self, index, item):
        return "%s[%d] (%s)" % (self.key, index, label(self.kind, item)) if self.many else self.key


class Root:
    """The organization itself, at the document's top: ``name``/``id``/``state``, ``settings`` and the
    fields set once every section is converged (``deferred``: they name what the sections create).

    :param resource: the Resource of the organization.
    :param settings: the argument spec of ``settings``.
    :param deferred: ``{document key: option}`` converged after the sections (``default_role``).
    :param refers: ``(document key, section, key(value), what)``: what the document's top names.
    :param project_ids: ``project_ids(obj)``: the organization's projects, its first first.
    :param default_project: the field of the organization as applied that holds its first project.
    :param export: ``export(ctx, org)``: the top of the document as exported.
    :param comes_with: ``comes_with(default_project, client)``: ``{collection part: [objects]}`` PostHog
        makes with a new organization (its first project, its owner), known to the plan.
    """

    def __init__(self, resource, settings, deferred=None, refers=(), project_ids=None, default_project=None,
                 export=None, comments=(), comes_with=None):
        self.resource = resource
        self.settings = settings
        self.deferred = deferred or {}
        self.refers = refers
        self.project_ids = project_ids
        self.default_project = default_project
        self.export = export
        self.comments = comments
        self.comes_with = comes_with
