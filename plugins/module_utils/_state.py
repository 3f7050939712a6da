# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""A whole organization as one document: plan it, apply exactly the plan (organization_state), and
export it (organization_state_info).

The document is the ``organization_as_code`` role's variable: the organization at its top
(``name``/``id``/``state``, ``project_id``, ``settings`` and fields set once the sections exist, as
``default_role``) and one key per section. Each kind declares its section in its own file
(:class:`~._section.Section`); :mod:`._catalog` lists them in the order a run takes them. A run checks
every item before any request, reads each collection once, plans every write as an action
(:mod:`._plan`), checks the plan as a whole, and (a real run) applies exactly its actions
(:mod:`._apply`). Nothing here names a kind.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import json

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.posthog.admin.plugins.module_utils import _catalog, _review
from ansible_collections.posthog.admin.plugins.module_utils._apply import Stopped, execute
from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._document import (
    MAX_DEFINITION_BYTES,
    read_definition,
    read_regular,
    to_yaml,
    write_private,
)
from ansible_collections.posthog.admin.plugins.module_utils._common import Task
from ansible_collections.posthog.admin.plugins.module_utils._standin import given_secrets, plainly_valid
from ansible_collections.posthog.admin.plugins.module_utils._plan import (
    Plan,
    Ref,
    fingerprint,
    plan_problems,
    progress_message,
)
from ansible_collections.posthog.admin.plugins.module_utils._resource import Failure, Listing, Result
from ansible_collections.posthog.admin.plugins.module_utils._section import label as item_label

DOCUMENT_KEYS = ("name", "id", "state", "project_id", "settings")
ROOT_LABEL = "organization"


def sections():
    """The document's sections in the order a run takes them: ``(key, many)``."""
    return [(key, many) for key, dummy, many, outputs in _catalog.CATALOG]


def root_validator(root):
    spec = dict(name=dict(type="str"), id=dict(type="str"), project_id=dict(type="str"),
                state=dict(type="str", default="present", choices=["present", "absent"]), settings=dict(type="dict"))
    spec.update(dict((key, dict(type="str")) for key in root.deferred))
    spec.update(dict((key, dict(type="list" if many else "dict")) for key, many in sections()))
    return ArgumentSpecValidator(spec)


class SectionReport:
    """What converging one section did, by action, in words a person reads in a drift report."""

    def __init__(self):
        self.changed = False
        self.done = {}
        self._seen = set()

    def add(self, action, label):
        if (action, label) not in self._seen:  # a set: a list's membership test made 10,000 items quadratic
            self._seen.add((action, label))
            self.done.setdefault(action, []).append(label)

    def as_dict(self):
        out = dict(changed=self.changed)
        out.update(self.done)
        return out


def validate_item(section, item, where):
    """``(params, problems, secrets)``: an item checked as the module checks its options."""
    if not isinstance(item, dict):
        return None, ["%s must be a dictionary, got %r" % (where, item)], set()
    secrets = set()
    params = plainly_valid(section.options, item, secrets, section.required_one_of)
    if params is not None:
        return params, [], secrets
    result = section.validator.validate(copy.deepcopy(item))
    problems = ["%s: %s" % (where, error) for error in result.errors.messages]
    return result.validated_parameters, problems, set(result._no_log_values)


class OrganizationState:
    """Plans a document (reads only), refuses an unsafe plan, then applies exactly the plan: the
    organization, then each section it has, in the catalog's order, then the organization's fields
    that name what the sections made.

    Not a Resource: it hands each part to the resource that owns it, collects their actions into one
    plan, and their results into one.
    """

    def __init__(self, task, definition, prune=False, prune_owners=False, prune_projects=False, plan_file=None,
                 limits=None):
        self.task = task
        self.definition = definition
        self.options = dict(prune=prune, prune_owners=prune_owners, prune_projects=prune_projects)
        self.plan_file = plan_file  # check mode: save the plan there; a real run: apply only that plan
        self.limits = limits
        self.secrets = set()
        self.root = _catalog.root()
        self.listing = Listing(predict=True)  # every collection read once, following what the plan does
        # The task the document's parts plan in: its organization and project are known once the
        # organization is planned; a plan is strict (it assumes no earlier task of the play).
        self.inner = self._task(dict(task.params, organization=None, project_id=None))
        self.inner.provided = {}
        self.items = []    # (section, [(where, resource)])
        self.planned = []  # (section, where, resource) in the order planned
        self.organization = None
        self.deferred = None

    def _task(self, params):
        task = Task(self.task.client, params, check_mode=self.task.check_mode, diff_mode=self.task.diff_mode)
        task.planning = True
        task.warnings = self.task.warnings
        task.secrets = self.task.secrets
        task.listing = self.listing
        return task

    # ------------------------------------------------------------------ checking
    def validate(self):
        """Every problem in the document, found before any request (and its no_log values)."""
        document = self.definition
        if not isinstance(document, dict):
            return ["definition must be a dictionary (the organization_as_code role's variable)"]
        validator = root_validator(self.root)
        known = validator.argument_spec
        result = validator.validate(dict((k, v) for k, v in document.items() if k in known))
        problems = list(result.errors.messages)
        unknown = sorted(set(document) - set(known))
        if unknown:
            problems.append("definition has unknown key(s) %s; it takes %s" % (", ".join(unknown), ", ".join(sorted(known))))
        if not document.get("name") and not document.get("id"):
            problems.append("definition needs the organization's name or id")
        settings = document.get("settings")
        if isinstance(settings, dict):
            problems.extend("settings: %s" % e for e in ArgumentSpecValidator(self.root.settings).validate(
                copy.deepcopy(settings)).errors.messages)
        for key, many in sections():
            value = document.get(key)
            if value is None:
                continue
            if not isinstance(value, list if many else dict):
                continue  # the type check above said so
            section = _catalog.section(key)
            problems.extend(self._validate_section(section, value if many else [value]))
        return problems

    def _validate_section(self, section, items):
        problems, planned, identities = [], [], {}
        document = self.definition
        for index, item in enumerate(items):
            where = section.where(index, item)
            params, found, secrets = validate_item(section, item, where)
            self.secrets.update(secrets)
            if params is None or found:
                problems.extend(found)
                continue
            merged = dict(self.inner.params)
            merged.update(dict((k, v) for k, v in params.items() if v is not None or k not in merged))
            if self.options["prune"] and section.on_prune:
                merged = section.on_prune(merged, self.options)
            resource = section.resource(self.inner, merged, self.listing) if section.many else \
                section.resource(self.inner, merged)
            # the kind's own checks (a domain's name, a timestamp...), still without a request
            found = ["%s: %s" % (where, p) for p in resource.problems()]
            if not found and section.many:
                scope = params.get("project_id") or document.get("project_id"), params.get("family")
                for identity in resource.identities():
                    first = identities.setdefault((scope, identity), where)
                    if first != where:
                        found.append("%s and %s name the same %s (%s %r): list it once" % (
                            first, where, section.kind, identity[0], identity[1]))
            if section.provides:
                for what, keys in section.provides(merged).items():
                    self.inner.provided.setdefault(what, set()).update(keys)
            problems.extend(found)
            planned.append((where, resource))
        self.items.append((section, planned))
        return problems

    def refs(self):
        """What the document refers to (:class:`~._plan.Ref`), as the plan resolved it."""
        document = self.definition
        default_project = self.inner.params.get("project_id")
        refs = [Ref("the document's project_id", "projects", str(default_project),
                    "is the project the document's items live in by default")] if document.get("project_id") else []
        for key, target, keyed, what in self.root.refers:
            if document.get(key):
                refs.append(Ref(key, target, keyed(document[key]), what))
        for section, planned in self.items:
            for option, target in section.refers:
                setting = self.definition_sets(section, option)
                for where, resource in planned:
                    params = resource.params
                    if params.get("state") == "absent":
                        continue
                    values = params.get(option)
                    if option == "project_id" and where not in setting:
                        how = "lives in it (the document's default project)"
                    else:
                        how = "lives in it" if target == "projects" else "lists them in %s" % option
                    for value in values if isinstance(values, list) else [values]:
                        if value is not None:
                            refs.append(Ref(where, target, str(value).lower(), how))
        return refs

    def definition_sets(self, section, option):
        """The items of ``section`` (by where) that set ``option`` in the document themselves: one pass, not
        one per item (a document of 10,000 items made that 100,000,000 steps)."""
        items = self.definition.get(section.key)
        items = items if isinstance(items, list) else [items]
        return set(section.where(n, i) for n, i in enumerate(items) if isinstance(i, dict) and i.get(option) is not None)

    # ------------------------------------------------------------------ planning
    def organization_params(self):
        document = self.definition
        params = dict(self.task.params)
        params.update(dict((k, None) for k in self.root.resource.fields))
        params.update(dict((k, None) for k in self.root.deferred))
        params.update(state=document.get("state") or "present", id=document.get("id"), name=document.get("name"))
        params.update(dict((k, v) for k, v in (document.get("settings") or {}).items() if v is not None))
        return params

    def plan(self, plan):
        """Every action of the document, in order: the organization, each section (and what prune
        removes), then the organization's fields that name what the sections made."""
        org_task = self._task(dict(self.task.params))
        organization = self.organization = self.root.resource(org_task, self.organization_params(), self.listing)
        problems = organization.problems()
        if problems:
            raise Failure("; ".join(problems))
        plan.section, plan.label = ROOT_LABEL, ROOT_LABEL
        self._plan_one(plan, organization, ROOT_LABEL)
        self.planned.append((None, ROOT_LABEL, organization))
        if (self.definition.get("state") or "present") == "absent":
            return
        org = organization.result.raw or {}
        self.listing.follow(organization.found, organization.result, organization.listing_key())
        self._enter(plan, org)
        for section, items in self.items:
            plan.section, plan.guards = section.key, section.guards
            matched = {}
            for where, resource in items:
                plan.label = where
                if resource.params.get("project_id") is None:
                    resource.params["project_id"] = self.inner.params["project_id"]
                if self._plan_one(plan, resource, where, section.skip_missing, section) is None:
                    continue
                self.planned.append((section, where, resource))
                if not section.many:
                    continue
                path = resource.listing_key()
                for obj in (resource.found, resource.result.raw):
                    if isinstance(obj, dict) and obj.get("id") is not None:
                        matched.setdefault(path, set()).add(str(obj["id"]))
                self.listing.follow(resource.found, resource.result, path)
            if section.many and self._prunes(section):
                self._prune(plan, section, matched)
        plan.guards = ()
        self._plan_deferred(plan, org)

    def _enter(self, plan, org):
        """The organization as planned is the parent of everything else: its id (or, a new one, the
        token of its id) and its first project (the document's default project)."""
        inner = self.inner
        created = [a for a in self.organization.actions if a.creates]
        inner._organization_id = org.get("id") or self.definition.get("name")
        if created:  # nothing exists in it yet: nothing is read in it
            inner.warn("organization %r does not exist yet: the plan creates it, with everything the document "
                       "lists in it" % self.definition.get("name"))
            inner.missing_parent = self.organization.task.missing_parent = \
                "organization %r" % self.definition.get("name")
        if self.definition.get("project_id"):
            project = str(self.definition["project_id"])
        elif created:
            project = plan.unknown(created[0], self.root.default_project)
        else:
            ids = self.root.project_ids(org)
            project = str(ids[0]) if ids else "@current"
        inner.params["organization"] = inner._organization_id
        inner.params["project_id"] = project
        self.project_ids = self.root.project_ids(org)
        if created and self.root.comes_with:
            made = self.root.comes_with(plan.unknown(created[0], self.root.default_project), self.task.client)
            for part, objects in made.items():
                self.listing.seed(inner.org_path(part), objects)

    def _plan_one(self, plan, resource, where, skip_missing=False, section=None):
        """Plan one object (or one planner's set); None when skipped as missing. Its actions carry what
        other parts of the document call the object (the plan's checks refuse removing what is named)."""
        try:
            result = resource.plan(plan)
            if section is not None:
                for action in resource.actions:
                    action.keys = set(section.keys(getattr(resource, "found", None), action.label))
            return result
        except Failure as failure:
            if skip_missing and failure.missing:
                resource.task.warn("%s: %s" % (where, failure.msg))
                self.skipped.append(where)
                return None
            failure.msg = "%s: %s" % (where, failure.msg)
            failure.extra["failed_item"] = where
            raise

    def _prunes(self, section):
        if not self.options["prune"]:
            return False
        return section.prunable is True or bool(section.prunable and self.options.get(section.prunable))

    def _prune(self, plan, section, matched):
        """Remove what the section does not list from each collection it covers (nothing, with a warning,
        when the section's guard says so: asked only when there is something to remove)."""
        guarded = None
        base = dict(self.inner.params)
        for name, option in section.options.items():
            base[name] = option.get("default")
        base.update(section.prune_params, state="absent")
        projects = self.project_ids or [self.inner.params.get("project_id")]
        for scope in (section.resource.SCOPE.each(projects) if section.resource.SCOPE is not None else [{}]):
            bare = dict(base, **scope)
            probe = section.resource(self.inner, bare)
            path = probe.listing_key()
            for obj in self.listing.objects(probe):
                if str(obj.get("id")) in matched.get(path, set()) or obj.get("id") is None:
                    continue
                if guarded is None:
                    guarded = (section.prune_guard(self.inner) if section.prune_guard else None) or ""
                    if guarded:
                        self.inner.warn(guarded)
                if guarded:
                    return
                doomed = section.resource.doomed(self.inner, bare, obj)
                doomed.listing = None
                where = "%s (%s, not in the document)" % (section.key, item_label(section.kind, obj))
                plan.label = where
                self._plan_one(plan, doomed, where, section=section)
                self.planned.append((section, where, doomed))
                self.listing.follow(obj, doomed.result, path)

    def _plan_deferred(self, plan, org):
        """The organization's fields that name what the sections made (the default role), planned once
        they are: an update of the organization as planned (no new read)."""
        given = dict((key, self.definition.get(key)) for key in self.root.deferred
                     if self.definition.get(key) is not None)
        if not given:
            return
        params = self.organization_params()
        params.update(dict((k, None) for k in self.root.resource.fields))
        params.update(given, id=None, name=org.get("name"))
        known = Listing([org], key=self.organization.listing_key())
        task = self._task(dict(self.task.params))
        task.missing_parent = self.inner.missing_parent
        deferred = self.deferred = self.root.resource(task, params, known)
        where = "%s (%s)" % (ROOT_LABEL, ", ".join(k.replace("_", " ") for k in sorted(given)))
        plan.section, plan.label = ROOT_LABEL, where
        self._plan_one(plan, deferred, where)
        self.planned.append((None, where, deferred))

    # ------------------------------------------------------------------ the run
    def converge(self):
        """Plan (reads only), refuse an unsafe plan, then (a real run) apply exactly it. The Result:
        ``changed``, one diff per changed object, and in ``extra`` the organization, a report per
        section (``sections``), the plan (``plan``) and what is pending (``pending``)."""
        client = self.task.client
        reviewed = _review.load(self.plan_file) if self.plan_file and not self.task.check_mode else None
        # The tokens of unknowns are the document's own (check mode and the real run plan alike), and a
        # reviewed plan's when applying one.
        plan = Plan(nonce=(reviewed or {}).get("nonce") or fingerprint(
            [client.base_url, self.masked_document()])[:12])
        self.skipped = []
        client.remember_reads()
        try:
            try:
                self.plan(plan)
            except Failure as failure:
                # What made the plan fail may be what an unsafe part of it does (prune deleting the
                # default role): then say that, both sides named.
                self.refuse(plan, plan_problems(plan, self.refs()), "The plan is unsafe")
                failure.msg = "%s (found while planning: nothing was changed)" % failure.msg.rstrip(".")
                failure.extra["changed"] = False
                raise
        finally:
            client.remember_reads(False)
        self.refuse(plan, plan_problems(plan, self.refs()), "The plan is unsafe")
        self.refuse(plan, _review.over_limits(plan.as_list(self.task.secrets), self.limits), "The plan goes beyond limits")
        if self.plan_file and self.task.check_mode:
            result = self.result(plan)
            self.save(plan, result)
            return result
        if reviewed is not None:
            problems = _review.stale(reviewed, self.task, self.organization.result.raw or {},
                                     self.masked_document(), plan)
            if problems:
                raise Failure("The reviewed plan %s no longer holds, so nothing was changed: %s. Make and review a "
                              "new plan." % (self.plan_file, "; ".join(problems)), plan=plan.as_list(self.task.secrets))
        if not self.task.check_mode and plan.changed:
            try:
                execute(client, plan)
            except Stopped as stopped:
                raise self.stopped(plan, stopped)
        result = self.result(plan)
        if reviewed is not None:
            result.extra["plan_file"] = self.plan_file
        return result

    def refuse(self, plan, problems, what):
        if problems:
            raise Failure("%s, so nothing was changed: %s" % (what, "; ".join(problems)),
                          plan=plan.as_list(self.task.secrets))

    def stopped(self, plan, stopped):
        """The failure of an applied plan: what was done, what failed, what was not attempted."""
        where = stopped.action.label
        progress = progress_message(stopped.done, stopped.rest, stopped.uncertain)
        failure = Failure("%s: %s %s" % (where, stopped.msg.rstrip(), progress), **stopped.extra)
        failure.extra.update(done=[a.as_dict(self.task.secrets) for a in stopped.done],
                             not_attempted=[a.as_dict(self.task.secrets) for a in stopped.rest],
                             uncertain=[a.as_dict(self.task.secrets) for a in stopped.uncertain],
                             changed=bool(stopped.done or stopped.uncertain), failed_item=where)
        return failure

    def result(self, plan):
        """The Result of the run as it stands: each part's object (applied, or as planned), a report
        per section, the plan, the diffs, and what the sections return of their objects."""
        combined = Result(None)
        combined.diffs = []
        reports = {}
        converged = {}
        for section, where, resource in self.planned:
            result = resource.finish()
            key = section.key if section is not None else ROOT_LABEL
            report = reports.setdefault(key, SectionReport())
            if result.changed:
                combined.changed = report.changed = True
                for action in resource.actions:
                    if action.write:
                        for label in action.items or [action.label]:
                            report.add(action.verb, label)
                combined.diffs.append(dict(before=result.before, after=result.after, before_header=where,
                                           after_header=where))
            elif "pending" in result.actions:
                report.add("pending", where)
            else:
                report.add("unchanged", where)
            if section is not None and isinstance(result.raw, dict) and result.raw and \
                    not any(a.verb == "deleted" for a in resource.actions):
                converged.setdefault(section.key, []).append(plan.known(result.raw))
        for where in self.skipped:
            reports.setdefault(where.split("[")[0], SectionReport()).add("skipped", where)
        org = self.organization.result.obj or {}
        if self.deferred is not None and self.deferred.result.obj:
            org = self.deferred.result.obj
        combined.extra.update(organization=org, sections=dict((k, r.as_dict()) for k, r in reports.items()),
                              plan=plan.as_list(self.task.secrets),
                              project_id=plan.known(self.inner.params.get("project_id")) if org.get("id") else None)
        for key, dummy, many, defaults in _catalog.CATALOG:
            combined.extra.update(copy.deepcopy(defaults))
            if key in converged:
                for name, outputs in _catalog.section(key).outputs.items():
                    value = outputs(converged[key])
                    if value is not None:
                        combined.extra[name] = value
        if plan.pending:
            combined.extra["pending"] = [p.as_dict() for p in plan.pending]
        return combined

    # ------------------------------------------------------------------ reviewed plans
    def masked_document(self):
        from ansible_collections.posthog.admin.plugins.module_utils._base import mask_values
        return mask_values(self.definition, self.task.secrets | self.secrets)

    def save(self, plan, result):
        """Check mode with ``plan_file``: the plan, saved for review (mode 0600)."""
        org = self.organization.result.raw or {}
        data = _review.saved(self.task, org, self.masked_document(), result.as_dict(True), plan)
        write_private(self.plan_file, json.dumps(data, indent=1, sort_keys=True) + "\n", option="plan_file")
        result.extra["plan_file"] = self.plan_file


# ---------------------------------------------------------------------------------- exporting
class ExportContext:
    """What a kind's ``export_items(ctx)`` reads through: the client (its reads remembered, so two kinds
    reading one collection cost one request), the organization, and where it writes notes (for the whole
    document), comments (above one item) and document-level keys (``default_role``)."""

    def __init__(self, task, org, project_ids):
        self.client = task.client
        self.org = org
        self.task = Task(task.client, dict(task.params, organization=org["id"]), check_mode=True)
        self.project_ids = project_ids
        self.notes = []
        self.comments = {}
        self.document = {}

    def org_path(self, *parts):
        return self.task.org_path(*parts)

    def note(self, text):
        self.notes.append(text)

    def comment(self, section, name, text):
        self.comments.setdefault(section, {})[name] = text

    def quietly(self, what, read):
        """``read()``, or None with a note when PostHog has no such API (any more) or refuses the key."""
        try:
            return read()
        except PostHogError as exc:
            if exc.status in (403, 404, 405, 410):
                self.note("%s left out: %s" % (what, exc.message))
                return None
            raise

    def listed(self, what, part):
        """The objects of one of the organization's collections; None (and a note) where refused."""
        return self.quietly(what, lambda: self.client.list_all(self.org_path(part), context="listing %s" % what))


def export_document(task, organization):
    """``(document, context, org)``: the organization as the organization_as_code role's variable, each
    section exported by its kind, and the notes and comments a person should read beside it (secrets
    PostHog never returns, what was left out)."""
    client = task.client
    root = _catalog.root()
    client.remember_reads()
    try:
        org = client.get("/api/organizations/%s/" % organization, context="reading organization %s" % organization)
        ctx = ExportContext(task, org, root.project_ids(org))
        document = root.export(ctx, org)
        for key, many in sections():
            items = _catalog.section(key).export(ctx)
            if items is not None:
                document[key] = items
            document.update(ctx.document)
            ctx.document = {}
    finally:
        client.remember_reads(False)
    return document, ctx, org


# ---------------------------------------------------------------------------------- the modules
STATE_ARGUMENT_SPEC = dict(
    definition=dict(type="dict"),
    definition_file=dict(type="path"),
    plan_file=dict(type="path"),
    limits=dict(type="dict", options=_review.LIMIT_OPTIONS),
    prune=dict(type="bool", default=False),
    prune_owners=dict(type="bool", default=False),
    prune_projects=dict(type="bool", default=False),
)


def definition_secrets(definition):
    """Every value the document gives a ``no_log`` option of a section's items, whatever shape the document
    has (a section given as a dict instead of a list, items that are refused, unknown keys beside them):
    masked from the first moment, so that no refusal prints them."""
    found = set()
    if not isinstance(definition, dict):
        return found
    for key, many in sections():
        value = definition.get(key)
        if value is not None:
            found.update(given_secrets(_catalog.section(key).options, value))
    return found


def document_secrets(params):
    """organization_state's ``secrets_of``: the secrets of the document given as ``definition``."""
    return definition_secrets(params.get("definition")) if isinstance(params, dict) else set()


STATE_MODULE_OPTIONS = dict(required_one_of=[("definition", "definition_file")],
                            mutually_exclusive=[("definition", "definition_file")],
                            secrets_of=document_secrets)

STATE_INFO_ARGUMENT_SPEC = dict(
    dest=dict(type="path"),
)


def converge_state(task, params):
    """organization_state: converge the document; the Result as the module returns it."""
    definition = params["definition"]
    if params.get("definition_file"):
        definition = read_definition(params["definition_file"])
        task.add_secrets(definition_secrets(definition))  # before anything can fail and print it
    state = OrganizationState(task, definition, prune=params["prune"], prune_owners=params["prune_owners"],
                              prune_projects=params["prune_projects"], plan_file=params.get("plan_file"),
                              limits=params.get("limits"))
    problems = state.validate()
    task.add_secrets(state.secrets)
    if problems:
        raise Failure("The definition has %d problem(s); nothing was changed: %s" % (len(problems), "; ".join(problems)))
    result = state.converge()
    return result.as_dict(task.diff_mode)


def read_state(task, params):
    """organization_state_info: the organization as a document, written to ``dest`` when given."""
    document, ctx, org = export_document(task, task.organization_id)
    notes = list(ctx.notes)
    parts = []
    for key, many in sections():
        section = _catalog.section(key)
        notes.extend("%s %r: %s" % (section.kind, name, text) for name, text in ctx.comments.get(key, {}).items())
        parts.append((key, section.comment))
        parts.extend(section.document_keys)  # the default role, right after the roles it names
    result = dict(definition=document, notes=notes)
    if params.get("dest"):
        import os
        text = to_yaml(document, parts, ctx.notes, ctx.comments, org, task.client.base_url)
        path = params["dest"]
        current = None
        if os.path.exists(path):  # a regular file of bounded size only: never a directory, a FIFO or a device
            current = read_regular(path, "dest", MAX_DEFINITION_BYTES)
        result["changed"] = current != text
        if result["changed"] and not task.check_mode:
            write_private(path, text)
        result["dest"] = path
    return result
