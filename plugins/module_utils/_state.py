# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""A whole organization as one document: converge it (organization_state) and export it
(organization_state_info).

The document is the ``organization_as_code`` role's variable: ``name``/``id``/``state``,
``project_id``, ``settings`` and one key per section (``projects``, ``roles``, ``domains``,
``identity_provider_configs``, ``roster``, ``proxy_records``, ``batch_exports``, ``plugins``,
``event_definitions``). Each section is described once, in :data:`SECTIONS`: which
resource converges its items, which module's options an item takes, how PostHog's objects are
exported back into items, and whether ``prune`` may remove what the document does not list.
Converging goes through each resource's own engine in one process: every item is checked before any
request, each collection is read once (one :class:`~._resource.Listing` per collection), and only
what differs is written.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import json

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.posthog.admin.plugins.module_utils import _organization, _project
from ansible_collections.posthog.admin.plugins.module_utils._role_membership import role_key
from ansible_collections.posthog.admin.plugins.module_utils._document import read_definition, to_yaml, write_private
from ansible_collections.posthog.admin.plugins.module_utils import _review
from ansible_collections.posthog.admin.plugins.module_utils._plan import Plan, Ref, plan_problems, progress_message
from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._common import Task
from ansible_collections.posthog.admin.plugins.module_utils._resource import Failure, Listing, Planner, Result
from ansible_collections.posthog.admin.plugins.module_utils._standin import plainly_valid

DOCUMENT_KEYS = ("name", "id", "state", "project_id", "settings")


def _options(spec, names, **changes):
    """The named options of a module's argument spec, with ``changes`` ({name: {key: value}})."""
    options = dict((name, copy.deepcopy(spec[name])) for name in names if name in spec)
    for name, change in changes.items():
        options.setdefault(name, {}).update(change)
    return options


def _label(kind, item):
    for key in ("domain", "name", "url", "email", "id"):
        if isinstance(item, dict) and item.get(key) not in (None, ""):
            return "%s %r" % (kind, item[key])
    return kind


class Section:
    """One part of the document converged by one resource (or planner).

    :param key: the document key (``batch_exports``).
    :param load: ``load()``: the kind's code, as a dict: ``resource``, the Resource (a list of items)
        or Planner (one dict) converging it; ``options``, the argument spec of one item (the module's
        options an item takes); ``export``, ``export(ctx)``: the section's items as
        organization_state_info exports them (the kind's own ``export_items``; absent when PostHog
        refuses them); ``prune_guard``, ``prune_guard(task)``: why prune must keep what the section does
        not list (a sentence, warned), or absent.
    :param kind: what an item is called in messages.
    :param prunable: whether ``prune`` removes objects the section does not list (True, False, or
        the module option that must also be set: ``prune_projects``).
    :param required_one_of: like AnsibleModule's, for one item.
    :param many: a list of items (else one dict, converged by a Planner).
    :param skip_missing: a missing object is skipped with a warning, not a failure.
    :param prune_params: what a removal by prune adds to its params (``confirm_delete``).
    :param purge_on_prune: ``prune`` also sets the items' ``purge`` (a role's holders, the roster).
    :param keys: ``keys(obj, label)``: what other parts of the document call an object of this
        section that the plan removes (a project's id, a role's folded name, a person's address).
    :param refers: ``(option, section)`` pairs: an item's ``option`` names objects of ``section``
        (``project_id`` a project; a role's ``members`` people of the roster).
    :param comment: what the export file says above the section.
    :param document_keys: ``(key, comment)`` of document keys the section's export also writes.
    """

    def __init__(self, key, load, kind, prunable=True, required_one_of=None, many=True,
                 skip_missing=False, prune_params=None, purge_on_prune=False, keys=None, refers=(),
                 comment="", document_keys=()):
        self.key = key
        self._load = load
        self.kind = kind
        self.prunable = prunable
        self.many = many
        self.skip_missing = skip_missing
        self.prune_params = prune_params or {}
        self.purge_on_prune = purge_on_prune
        self.keys = keys or (lambda obj, label: ())
        self.refers = refers
        self.comment = comment
        self.document_keys = document_keys
        self.required_one_of = required_one_of or []

    def __getattr__(self, name):
        """``resource``, ``options``, ``export``, ``prune_guard`` and ``validator``: the kind's own code,
        imported the first time a run needs the section. A module process compiles every module_utils
        it imports from the AnsiballZ payload's source, so a document that leaves a section out (a
        fleet's organizations, mostly) does not pay for its kind."""
        if name not in ("resource", "options", "export", "prune_guard", "validator"):
            raise AttributeError(name)
        loaded = dict(export=None, prune_guard=None)
        loaded.update(self._load())
        loaded["validator"] = ArgumentSpecValidator(loaded["options"], required_one_of=self.required_one_of)
        self.__dict__.update(loaded)
        return loaded[name]

    def items(self, document):
        value = document.get(self.key)
        if value is None:
            return None
        return value if self.many else [value]

    def validate(self, item, where):
        """``(params, problems, secrets)``: the item checked as the module checks its options."""
        if not isinstance(item, dict):
            return None, ["%s must be a dictionary, got %r" % (where, item)], set()
        secrets = set()
        params = plainly_valid(self.options, item, secrets, self.required_one_of)
        if params is not None:
            return params, [], secrets
        result = self.validator.validate(copy.deepcopy(item))
        problems = ["%s: %s" % (where, error) for error in result.errors.messages]
        return result.validated_parameters, problems, set(result._no_log_values)

    def where(self, index, item):
        return "%s[%d] (%s)" % (self.key, index, _label(self.kind, item)) if self.many else self.key


def _project_keys(obj, label):
    return [str(obj.get("id"))] if obj and obj.get("id") is not None else []


def _role_keys(obj, label):
    return [role_key(obj.get("name"))] if obj and obj.get("name") else []


def _person_keys(obj, label):
    return [label.lower()]


# What each section loads when a run first needs it (Section.__getattr__): the kind's module, imported
# here rather than at the top, and what the section takes from it.
def _projects():
    return dict(resource=_project.Project, options=_options(_project.ARGUMENT_SPEC, tuple(_project.ARGUMENT_SPEC)),
                export=_project.export_items)


def _roles():
    from ansible_collections.posthog.admin.plugins.module_utils import _role
    return dict(resource=_role.Role, options=_options(_role.ARGUMENT_SPEC, _role.ITEM_OPTIONS),
                prune_guard=_role.scim_keeps_roles, export=_role.export_items)


def _domains():
    from ansible_collections.posthog.admin.plugins.module_utils import _domain
    return dict(resource=_domain.Domain, export=_domain.export_items, options=_options(
        _domain.ARGUMENT_SPEC, _domain.ITEM_OPTIONS + ("verify_timeout", "verify_interval")))


def _identity_provider_configs():
    from ansible_collections.posthog.admin.plugins.module_utils import _identity_provider as kind
    return dict(resource=kind.IdentityProviderConfig, export=kind.export_items,
                options=_options(kind.ARGUMENT_SPEC, tuple(kind.ARGUMENT_SPEC)))


def _roster():
    from ansible_collections.posthog.admin.plugins.module_utils import _people
    return dict(resource=_people.Roster, export=_people.export_items, options=_options(
        _people.ROSTER_ARGUMENT_SPEC, ("people", "purge", "purge_owners", "resend_expired", "send_email",
                                       "invite_message")))


def _access_controls():
    from ansible_collections.posthog.admin.plugins.module_utils import _access_control as kind
    return dict(resource=kind.AccessControl, export=kind.export_items,
                options=_options(kind.ARGUMENT_SPEC, kind.ITEM_OPTIONS, project_id=dict(type="str")))


def _proxy_records():
    from ansible_collections.posthog.admin.plugins.module_utils import _proxy_record
    return dict(resource=_proxy_record.ProxyRecord, export=_proxy_record.export_items,
                options=_options(_proxy_record.ARGUMENT_SPEC, tuple(_proxy_record.ARGUMENT_SPEC)))


def _batch_exports():
    from ansible_collections.posthog.admin.plugins.module_utils import _batch_export
    return dict(resource=_batch_export.BatchExport, export=_batch_export.export_items,
                options=_options(_batch_export.ARGUMENT_SPEC, _batch_export.ITEM_OPTIONS))


def _hog_functions():
    from ansible_collections.posthog.admin.plugins.module_utils import _hog_function
    return dict(resource=_hog_function.HogFunction, export=_hog_function.export_items, options=_options(
        _hog_function.ARGUMENT_SPEC, _hog_function.ITEM_OPTIONS + ("project_id",), project_id=dict(type="str")))


def _plugin_sections():
    from ansible_collections.posthog.admin.plugins.module_utils import _plugins
    return dict(resource=_plugins.PipelinePlugin, export=_plugins.export_items,
                options=_options(_plugins.ARGUMENT_SPEC, ("family",) + _plugins.ITEM_OPTIONS))


def _event_definitions():
    from ansible_collections.posthog.admin.plugins.module_utils import _event_definition as kind
    return dict(resource=kind.EventDefinition, export=kind.export_items, options=_options(
        kind.ARGUMENT_SPEC, kind.ITEM_OPTIONS + ("project_id",), project_id=dict(type="str")))


SECTIONS = (
    # Projects first (the rest may live in them); deleting one deletes its data, so prune removes
    # projects only with prune_projects as well.
    Section("projects", _projects, "project", prunable="prune_projects", required_one_of=[("name", "id")],
            prune_params=dict(confirm_delete=True), keys=_project_keys,
            comment="Projects and their settings (posthog.admin.project). prune removes unlisted ones only with "
                    "prune_projects: deleting a project deletes its data."),
    Section("roles", _roles, "role", required_one_of=[("name", "id")], purge_on_prune=True, keys=_role_keys,
            refers=(("members", "roster"),),
            comment="Roles and who holds them (posthog.admin.role). purge: true makes the members listed the role's "
                    "only holders: a role given by hand is drift, and applying the document takes it away.",
            document_keys=(("default_role", "The role new members get when they join (set once the roles exist)."),)),
    Section("domains", _domains, "domain", required_one_of=[("domain", "id")],
            comment="Domains and single sign-on (posthog.admin.domain). A domain to verify needs its DNS TXT record."),
    # After the domains they apply to (PostHog's newest API; older PostHog keeps SAML on the domain).
    Section("identity_provider_configs", _identity_provider_configs, "identity provider configuration",
            required_one_of=[("name", "id")],
            comment="SAML, OIDC and SCIM configurations and the domains they apply to "
                    "(posthog.admin.identity_provider_config)."),
    Section("roster", _roster, "roster", many=False, purge_on_prune=True, keys=_person_keys,
            comment="Members and pending invites, by level (posthog.admin.roster). purge: true removes who is not "
                    "listed."),
    # After the roles and people they name.
    Section("access_controls", _access_controls, "access control rule",
            refers=(("project_id", "projects"), ("role", "roles"), ("member", "roster")),
            comment="Access control of each project and its resources (posthog.admin.access_control): the default "
                    "level, a role's (role) or a member's (member), per resource."),
    Section("proxy_records", _proxy_records, "proxy record", required_one_of=[("domain", "id")],
            comment="Managed reverse proxies (posthog.admin.proxy_record); each needs its CNAME record published."),
    Section("batch_exports", _batch_exports, "batch export", required_one_of=[("name", "id")],
            refers=(("project_id", "projects"),),
            comment="Batch exports (posthog.admin.batch_export). Destination secrets are never returned: see the "
                    "notes."),
    Section("hog_functions", _hog_functions, "hog function", required_one_of=[("name", "id")],
            refers=(("project_id", "projects"),),
            comment="Hog functions - destinations, transformations, site apps - of every project "
                    "(posthog.admin.hog_function). Secret inputs are never returned: see the notes."),
    Section("plugins", _plugin_sections, "plugin", required_one_of=[("id", "url", "name")],
            comment="Pipeline plugins of every family (posthog.admin.pipeline_plugin)."),
    # Event definitions exist once PostHog ingests the event: the document documents them, a
    # definition not ingested yet is skipped (with a warning), and prune never deletes one.
    Section("event_definitions", _event_definitions, "event definition", prunable=False,
            required_one_of=[("name", "id")], skip_missing=True, refers=(("project_id", "projects"),),
            comment="Documented event definitions, per project (posthog.admin.event_definition). PostHog creates a "
                    "definition when it ingests the event; undocumented ones are left out."),
)

SETTINGS_VALIDATOR = ArgumentSpecValidator(_options(_organization.ARGUMENT_SPEC, _organization.SETTINGS))
ORGANIZATION_VALIDATOR = ArgumentSpecValidator(dict(
    name=dict(type="str"), id=dict(type="str"), project_id=dict(type="str"), default_role=dict(type="str"),
    state=dict(type="str", default="present", choices=["present", "absent"]),
    settings=dict(type="dict"),
    **dict((section.key, dict(type="dict" if not section.many else "list")) for section in SECTIONS)))


def records(domains, proxies):
    """The DNS records still to publish: TXT records of domains not verified yet, CNAME records of
    proxy records not live yet (PostHog cannot publish them; the user's DNS provider module can)."""
    dns, cname = [], []
    if domains:
        from ansible_collections.posthog.admin.plugins.module_utils._domain import verification_record
        dns = [verification_record(d) for d in domains if not d.get("is_verified") and d.get("verification_challenge")]
    if proxies:
        from ansible_collections.posthog.admin.plugins.module_utils._proxy_record import DONE, dns_record
        cname = [dns_record(p) for p in proxies if p.get("status") not in DONE and p.get("target_cname")]
    return dict(dns_records=dns, cname_records=cname)


def project_ids(org):
    """The organization's project ids, lowest (its first project) first."""
    projects = org.get("projects") or org.get("teams") or []
    return sorted(p.get("id") for p in projects if isinstance(p, dict) and p.get("id") is not None)


class SectionReport:
    """What converging one section did, by action, in words a person reads in a drift report."""

    def __init__(self):
        self.changed = False
        self.done = {}

    def add(self, action, label):
        self.done.setdefault(action, []).append(label)

    def as_dict(self):
        out = dict(changed=self.changed)
        out.update(self.done)
        return out


def planner_actions(result):
    """``[(verb, person, owner)]`` of a Planner's (the roster's) Result; ``owner`` when the action
    makes someone an owner, or lowers or removes one."""
    actions = []
    owners = set(result.extra.get("removed_owners") or [])
    for verb in ("invited", "updated", "removed", "revoked"):
        for person in result.extra.get(verb) or []:
            if isinstance(person, dict):
                owner = "owner" in (person.get("before"), person.get("after"), person.get("level"))
                actions.append((verb, person["email"], owner))
            else:
                actions.append((verb, person, person in owners))
    for change in result.extra.get("roles_changed") or []:
        actions.append(("roles changed", change["email"], False))
    return actions


class Pass:
    """One converge of the whole document: in check mode (the plan), or for real (carrying it out).
    Each pass has its own Task and Listing; reads are the client's, made once for both passes."""

    def __init__(self, state, check_mode):
        self.state = state
        self.check_mode = check_mode
        self.plan = Plan()
        self.warnings = []
        self.converged = {}  # section key -> the objects its items left (not deleted)
        self.project_ids = []
        self.listing = Listing(predict=check_mode)
        self.task = Task(state.task.client, state.task.params, check_mode=check_mode, diff_mode=state.task.diff_mode)
        self.task.warnings = self.warnings
        self.task.secrets = state.task.secrets
        self.task.planning = check_mode and not state.task.check_mode  # a real run's plan fails where it will


class OrganizationState:
    """Converges a document: plans the whole of it (check mode, reads only), refuses an unsafe plan,
    then carries it out: the organization, then each section it has, in :data:`SECTIONS` order.

    Not a Resource: it hands each part to the resource that owns it and collects their Results.
    """

    def __init__(self, task, definition, prune=False, prune_owners=False, prune_projects=False, plan_file=None,
                 limits=None):
        self.task = task
        self.definition = definition
        self.prune = prune
        self.prune_owners = prune_owners
        self.prune_projects = prune_projects
        self.plan_file = plan_file  # check mode: save the plan there; a real run: apply only that plan
        self.limits = limits
        self.secrets = set()
        self.items = []  # (section, [(label, params)])

    # ------------------------------------------------------------------ checking
    def validate(self):
        """Every problem in the document, found before any request (and its no_log values)."""
        document = self.definition
        if not isinstance(document, dict):
            return ["definition must be a dictionary (the organization_as_code role's variable)"]
        known = ORGANIZATION_VALIDATOR.argument_spec
        result = ORGANIZATION_VALIDATOR.validate(dict((k, v) for k, v in document.items() if k in known))
        problems = list(result.errors.messages)
        unknown = sorted(set(document) - set(known))
        if unknown:
            problems.append("definition has unknown key(s) %s; it takes %s" % (", ".join(unknown), ", ".join(sorted(known))))
        if not document.get("name") and not document.get("id"):
            problems.append("definition needs the organization's name or id")
        settings = document.get("settings")
        if isinstance(settings, dict):
            problems.extend("settings: %s" % e for e in SETTINGS_VALIDATOR.validate(copy.deepcopy(settings)).errors.messages)
        for section in SECTIONS:
            items = section.items(document)
            if items is None or not isinstance(items, list):
                continue
            planned = []
            identities = {}
            for index, item in enumerate(items):
                where = section.where(index, item)
                params, found, secrets = section.validate(item, where)
                self.secrets.update(secrets)
                if params is not None and not found:
                    # the resource's own checks (a domain's name, a timestamp...), still without a request
                    resource = section.resource(self.task, dict(self.task.params, **params))
                    found = ["%s: %s" % (where, p) for p in resource.problems()]
                    planned.append((where, params))
                    if not found and section.many:
                        scope = params.get("project_id") or document.get("project_id"), params.get("family")
                        for identity in resource.identities():
                            first = identities.setdefault((scope, identity), where)
                            if first != where:
                                found.append("%s and %s name the same %s (%s %r): list it once" % (
                                    first, where, section.kind, identity[0], identity[1]))
                problems.extend(found)
            self.items.append((section, planned))
        return problems

    def refs(self, run):
        """What the document refers to (:class:`~._plan.Ref`), as the plan pass resolved it."""
        document = self.definition
        default_project = self.default_project(run)
        refs = [Ref("the document's project_id", "projects", str(default_project),
                    "is the project the document's items live in by default")] if document.get("project_id") else []
        if document.get("default_role"):
            refs.append(Ref("default_role", "roles", role_key(document["default_role"]), "names it"))
        for section, planned in self.items:
            for option, target in section.refers:
                for where, params in planned:
                    if params.get("state") == "absent":
                        continue
                    values = params.get(option)
                    if option == "project_id" and values is None:
                        values, how = default_project, "lives in it (the document's default project)"
                    else:
                        how = "lives in it" if target == "projects" else "lists them in %s" % option
                    for value in values if isinstance(values, list) else [values]:
                        if value is not None:
                            refs.append(Ref(where, target, str(value).lower(), how))
        return refs

    # ------------------------------------------------------------------ converging
    def organization_params(self, settings=True):
        document = self.definition
        params = dict(self.task.params)
        params.update(dict((k, None) for k in _organization.ARGUMENT_SPEC))
        params.update(state=document.get("state") or "present", id=document.get("id"), name=document.get("name"))
        if settings:
            params.update(dict((k, v) for k, v in (document.get("settings") or {}).items() if v is not None))
        return params

    def converge(self):
        """Plan (check mode: reads only), refuse an unsafe plan, then (a real run) carry it out on the
        same reads. The Result: ``changed``, one diff per changed object, and in ``extra`` the
        organization, a report per section (``sections``) and the plan (``plan``)."""
        client = self.task.client
        client.remember_reads()
        try:
            planned = Pass(self, check_mode=True)
            try:
                result = self._converge_pass(planned)
            except Failure as failure:
                # What made the plan fail may be what an unsafe part of it does (prune deleting the
                # default role): then say that, both sides named.
                problems = plan_problems(planned.plan, self.refs(planned))
                if problems:
                    raise Failure("The plan is unsafe, so nothing was changed: %s" % "; ".join(problems),
                                  plan=planned.plan.as_list())
                if planned.task.planning:
                    failure.msg = "%s (found while planning: nothing was changed)" % failure.msg.rstrip(".")
                    failure.extra["changed"] = False
                raise
            problems = plan_problems(planned.plan, self.refs(planned))
            if problems:
                raise Failure("The plan is unsafe, so nothing was changed: %s" % "; ".join(problems),
                              plan=planned.plan.as_list())
            problems = _review.over_limits(planned.plan.as_list(), self.limits)
            if problems:
                raise Failure("The plan goes beyond limits, so nothing was changed: %s" % "; ".join(problems),
                              plan=planned.plan.as_list())
            if self.plan_file:
                self.review(result)
            if self.task.check_mode or not planned.plan.changed:
                self.task.warnings.extend(w for w in planned.warnings if w not in self.task.warnings)
                return result
            real = Pass(self, check_mode=False)
            try:
                result = self._converge_pass(real)
            except Failure as failure:
                done = real.plan.actions
                failed = failure.extra.get("failed_item")
                started = set(a.label for a in done) | set([failed])
                rest = [a for a in planned.plan.actions if a.label not in started]
                failure.msg = "%s %s" % (failure.msg.rstrip(), progress_message(done, rest))
                failure.extra.update(done=[a.as_dict() for a in done], not_attempted=[a.as_dict() for a in rest],
                                     changed=bool(failure.extra.get("changed") or done))
                raise
            finally:
                self.task.warnings.extend(w for w in real.warnings if w not in self.task.warnings)
            return result
        finally:
            client.remember_reads(False)

    def review(self, result):
        """``plan_file``: in check mode, save the plan just made for review; in a real run, refuse
        (before any write) unless the plan just made is the one saved, from the same reads."""
        org = result.extra.get("organization") or {}
        reads = _review.reads_of(self.task.client)
        if self.task.check_mode:
            data = _review.saved(self.task, org, self.definition, result.as_dict(True), reads)
            write_private(self.plan_file, json.dumps(data, indent=1, sort_keys=True) + "\n")
            result.extra["plan_file"] = self.plan_file
            return
        reviewed = _review.load(self.plan_file)
        problems = _review.stale(reviewed, self.task, org, self.definition, result.extra.get("plan") or [], reads)
        if problems:
            raise Failure("The reviewed plan %s is stale, so nothing was changed: %s. Make and review a new plan."
                          % (self.plan_file, "; ".join(problems)), plan=result.extra.get("plan") or [])
        result.extra["plan_file"] = self.plan_file

    def _converge_pass(self, run):
        combined = Result(None)
        combined.diffs = []
        sections = {}
        organization = _organization.Organization(run.task, self.organization_params())
        problems = organization.problems()
        if problems:
            raise Failure("; ".join(problems))
        organization_report = SectionReport()
        org = self._converge(run, organization, "organization", "organization", organization_report, combined).obj or {}
        run.project_ids = project_ids(org)
        sections["organization"] = organization_report.as_dict()
        combined.extra.update(organization=org, sections=sections, project_id=None, dns_records=[], cname_records=[])
        if (self.definition.get("state") or "present") == "absent":
            combined.extra["plan"] = run.plan.as_list()
            return combined
        inner = Task(run.task.client, dict(run.task.params, organization=org.get("id") or self.definition.get("name"),
                                           project_id=self.default_project(run, org)),
                     check_mode=run.check_mode, diff_mode=run.task.diff_mode)
        inner.planning = run.task.planning
        inner.warnings = run.warnings
        inner.secrets = run.task.secrets
        inner.listing = run.listing
        if not org.get("id"):  # check mode, a new organization: nothing in it exists yet
            inner.missing_parent = "organization %r" % self.definition.get("name")
            inner._organization_id = self.definition.get("name")
            inner.warn("%s does not exist yet: check mode predicts everything in it as created"
                       % inner.missing_parent)
        run.task.listing = run.listing  # the default role is resolved among the roles as converged
        projects_path = _project.Project(inner, {}).listing_key()
        for section, planned in self.items:
            report = SectionReport()
            if section.many:
                self._converge_items(run, inner, section, planned, report, combined)
            else:
                for where, params in planned:
                    self._converge(run, section.resource(inner, dict(inner.params, **self.pruning(section, params))),
                                   section.key, where, report, combined, keys=section.keys)
            known = run.listing.collection(projects_path)  # the projects as they now are (prune may delete)
            if known is not None:
                run.project_ids = project_ids(dict(projects=known))
            sections[section.key] = report.as_dict()
        if self.definition.get("default_role") is not None and org.get("id"):
            # An organization setting, set once the roles exist (a new organization in check mode: the
            # prediction of its creation stands for it).
            known = Listing([org], key="/api/organizations/")  # the organization as just converged: no new read
            self._converge(run, _organization.Organization(run.task, dict(
                self.organization_params(settings=False), id=None, name=org.get("name"),
                default_role=self.definition["default_role"]), known), "organization", "organization (default role)",
                organization_report, combined)
            sections["organization"] = organization_report.as_dict()
        combined.extra.update(project_id=inner.params["project_id"] if org.get("id") else None,
                              plan=run.plan.as_list(),
                              **records(run.converged.get("domains"), run.converged.get("proxy_records")))
        return combined

    def pruning(self, section, params):
        """An item's params under ``prune``: its ``purge`` set where the section says so."""
        if not (self.prune and section.purge_on_prune):
            return params
        params = dict(params, purge=True)
        if "purge_owners" in section.options:
            params["purge_owners"] = bool(params.get("purge_owners") or self.prune_owners)
        return params

    def default_project(self, run, org=None):
        """The document's project_id, else the organization's first project (as the role does)."""
        if self.definition.get("project_id"):
            return str(self.definition["project_id"])
        ids = project_ids(org) if org is not None else run.project_ids
        return str(ids[0]) if ids else "@current"

    def _converge(self, run, resource, section, label, report, combined, skip_missing=False, keys=None):
        """Converge one object (or plan) and collect its Result; None when skipped as missing."""
        problems = resource.problems()
        if problems:
            raise Failure("; ".join("%s: %s" % (label, p) for p in problems), failed_item=label)
        try:
            result = resource.converge()
        except Failure as failure:
            if skip_missing and failure.missing:
                resource.task.warn("%s: %s" % (label, failure.msg))
                report.add("skipped", label)
                return None
            failure.msg = "%s: %s" % (label, failure.msg)
            failure.extra["changed"] = bool(failure.extra.get("changed") or combined.changed)
            failure.extra["failed_item"] = label
            raise failure
        if not result.changed:
            report.add("unchanged", label)
            return result
        combined.changed = report.changed = True
        if isinstance(resource, Planner):
            for verb, person, owner in planner_actions(result):
                report.add(verb, person)
                run.plan.add(section, person, [verb], keys(None, person) if keys else (), owner)
        else:
            for verb in result.actions:
                report.add(verb, label)
            run.plan.add(section, label, result.actions, keys(resource.found, label) if keys else ())
        combined.diffs.append(dict(before=result.before, after=result.after, before_header=label, after_header=label))
        return result

    def _converge_items(self, run, inner, section, planned, report, combined):
        matched = {}
        for where, params in planned:
            merged = dict(inner.params)
            merged.update(dict((k, v) for k, v in self.pruning(section, params).items()
                               if v is not None or k not in inner.params))
            task = inner if str(merged.get("project_id")) == str(inner.params.get("project_id")) else \
                inner.scoped(project_id=merged.get("project_id"))
            resource = section.resource(task, merged, run.listing)
            path = resource.listing_key()
            result = self._converge(run, resource, section.key, where, report, combined,
                                    skip_missing=section.skip_missing, keys=section.keys)
            if result is None:
                continue
            if isinstance(result.obj, dict) and "deleted" not in result.actions:
                run.converged.setdefault(section.key, []).append(result.obj)
                if result.obj.get("scim_bearer_token"):  # answered once: returned, never lost
                    combined.extra.setdefault("scim_bearer_tokens", {})[result.obj.get("name")] = \
                        result.obj["scim_bearer_token"]
            seen = matched.setdefault(path, set())
            for obj in (resource.found, result.obj):
                if isinstance(obj, dict) and obj.get("id") is not None:
                    seen.add(str(obj["id"]))
            run.listing.follow(resource.found, result, path)
        if self.prune and (section.prunable is True or (section.prunable and getattr(self, section.prunable))):
            self._prune(run, inner, section, matched, report, combined)

    def _prune(self, run, inner, section, matched, report, combined):
        """Remove what the section does not list from each collection it covers (nothing, with a warning,
        when the section's guard says so: asked only when there is something to remove)."""
        guarded = None
        base = dict(inner.params)
        for name, option in section.options.items():
            base[name] = option.get("default")
        base.update(section.prune_params, state="absent")
        for scope in section.resource.prune_scopes(run.project_ids or [inner.params.get("project_id")]):
            bare = dict(base, **scope)
            probe = section.resource(inner, bare)
            path = probe.listing_key()
            for obj in run.listing.objects(probe):
                if str(obj.get("id")) in matched.get(path, set()) or obj.get("id") is None:
                    continue
                if guarded is None:
                    guarded = (section.prune_guard(inner) if section.prune_guard else None) or ""
                    if guarded:
                        inner.warn(guarded)
                if guarded:
                    return
                doomed = section.resource.doomed(inner, bare, obj)
                result = self._converge(run, doomed, section.key, "%s (%s, not in the document)" % (
                    section.key, _label(section.kind, obj)), report, combined, keys=section.keys)
                run.listing.follow(obj, result, path)


# ---------------------------------------------------------------------------------- exporting
class ExportContext:
    """What a kind's ``export_items(ctx)`` reads through: the client (its reads remembered, so two kinds
    reading one collection cost one request), the organization, and where it writes notes (for the whole
    document), comments (above one item) and document-level keys (``default_role``)."""

    def __init__(self, task, org):
        self.client = task.client
        self.org = org
        self.task = Task(task.client, dict(task.params, organization=org["id"]), check_mode=True)
        self.project_ids = project_ids(org)
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
    client.remember_reads()
    try:
        org = client.get("/api/organizations/%s/" % organization, context="reading organization %s" % organization)
        ctx = ExportContext(task, org)
        document = dict(name=org.get("name"))
        document["settings"] = dict((k, org[k]) for k in _organization.SETTINGS if org.get(k) is not None)
        for section in SECTIONS:
            items = section.export(ctx)
            if items is not None:
                document[section.key] = items
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

STATE_MODULE_OPTIONS = dict(required_one_of=[("definition", "definition_file")],
                            mutually_exclusive=[("definition", "definition_file")])

STATE_INFO_ARGUMENT_SPEC = dict(
    dest=dict(type="path"),
)


def converge_state(task, params):
    """organization_state: converge the document; the Result as the module returns it."""
    definition = params["definition"]
    if params.get("definition_file"):
        definition = read_definition(params["definition_file"])
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
    notes = ctx.notes + ["%s %r: %s" % (section.kind, name, text) for section in SECTIONS
                         for name, text in ctx.comments.get(section.key, {}).items()]
    result = dict(definition=document, notes=notes)
    if params.get("dest"):
        import os
        parts = []
        for section in SECTIONS:
            parts.append((section.key, section.comment))
            parts.extend(section.document_keys)  # the default role, right after the roles it names
        text = to_yaml(document, parts, ctx.notes, ctx.comments, org, task.client.base_url)
        path = params["dest"]
        current = None
        if os.path.exists(path):
            with open(path) as handle:
                current = handle.read()
        result["changed"] = current != text
        if result["changed"] and not task.check_mode:
            write_private(path, text)
        result["dest"] = path
    return result
