# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""A project's access control rules: the Resource behind posthog.admin.access_control and the read
of access_control_info.

PostHog's rules (``products/access_control/backend/presentation/access_control.py`` and
``.../facade/user_access_control.py``, ``ee/api/rbac/access_control_management.py``):

* a rule gives a level of a ``resource`` in a project to a member of the organization, a role, or
  neither (the project's default for everyone); ``project`` rules (who reaches the project, at
  ``none``/``member``/``admin``) live at ``/api/projects/<id>/access_controls/``, rules for every
  object of a resource type (``none``/``viewer``/``editor``/``manager``; ``action`` at least
  ``viewer``, ``activity_log`` and ``toolbar`` at most ``viewer``) at
  ``.../resource_access_controls/``; a GET of either answers ``{"access_controls": [rules], ...}``;
* one PUT creates or updates the rule of its subject (200, the rule); ``access_level: null``
  removes it (204, also when there was none): there is no DELETE and no id;
* a member is named by the id of their membership (``organization_member``), a role by its id;
  this module takes an email and a role name and looks them up;
* role rules need the organization's paid ``role_based_access`` feature (403 without it); only
  organization admins write; a rule Terraform manages cannot be changed by anyone else while the
  project's Terraform lock is on (403).

PostHog's rules carry no id: the engine's ``id`` of a rule is its key (resource, then ``role:<id>``,
``member:<id>`` or ``default``), added to what PostHog answers.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.module_utils._base import unknown
from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._common import project_id_of
from ansible_collections.posthog.admin.plugins.module_utils._people import (
    index_members,
    list_members,
    normalize_email,
    standing,
)
from ansible_collections.posthog.admin.plugins.module_utils._resource import Failure, Field, Postponed, Resource, Scope
from ansible_collections.posthog.admin.plugins.module_utils._resource import options_of
from ansible_collections.posthog.admin.plugins.module_utils._role_membership import list_roles, role_key
from ansible_collections.posthog.admin.plugins.module_utils._section import Section, options_from

PROJECT_LEVELS = ("none", "member", "admin")
RESOURCE_LEVELS = ("none", "viewer", "editor", "manager")
ITEM_OPTIONS = ("state", "resource", "access_level", "role", "member")
#: One resource of each list of a project's rules: the project's own, and every other resource's.
LISTS = ("project", "dashboard")

#: A rule's fields. The level is what an update changes; the resource and whom the rule is for (a role
#: by name, a member by email, or neither: everyone) make the rule's key, so no update sends them: every
#: PUT carries them as PostHog's ids (see AccessControl.body).
FIELDS = (
    Field("resource", option=dict(default="project"), sent=False),
    Field("access_level", choices=set(PROJECT_LEVELS + RESOURCE_LEVELS)),
    Field("role", sent=False),
    Field("member", sent=False),
)

ARGUMENT_SPEC = dict(state=dict(type="str", default="present", choices=["present", "absent"]))
ARGUMENT_SPEC.update(options_of(FIELDS))
ARGUMENT_SPEC.update(purge=dict(type="bool", default=False))

INFO_ARGUMENT_SPEC = dict(
    resource=dict(type="str"),
    users_with_access=dict(type="bool", default=False),
)

MSG_TERRAFORM = ("This rule is owned by Terraform: PostHog's Terraform provider manages it and the project's "
                 "Terraform lock is on, so only Terraform may change or remove it. Change it in the Terraform "
                 "configuration, or leave it out of this task (or turn the lock off in the project's settings).")
MSG_TERRAFORM_PLAN = ("this project's Terraform lock is on and Terraform manages rules in it, so PostHog refuses changes "
                      "to the rules Terraform owns (HTTP 403), and it does not say which rules those are: nothing was "
                      "changed. Change the rule in the Terraform configuration, leave it out of this task, or turn the "
                      "lock off in the project's settings (Access control > Terraform).")
MSG_ROLE_FEATURE = ("Rules for roles need PostHog's role-based access, a paid feature this organization's plan lacks; "
                    "give the level to members (member) or set the default (neither role nor member) instead.")
#: The plan feature PostHog requires of every write that names a role (AvailableFeature.ROLE_BASED_ACCESS).
ROLE_FEATURE = "role_based_access"
MSG_ROLE_REFUSED = ('PostHog would answer HTTP 403 "Role-based access controls require the Role-based access '
                    'feature." (the organization\'s available_product_features lack %s).' % ROLE_FEATURE)
MSG_ADMIN = "Only organization admins and owners change access control; use an admin's API key."
MSG_NO_API = ("This PostHog serves no access control for projects (older PostHog, or a self-hosted one without "
              "role-based access control).")


def levels_of(resource):
    return PROJECT_LEVELS if resource in ("project", "organization") else RESOURCE_LEVELS


def level_problem(resource, level):
    """Why ``level`` cannot be set on ``resource`` (PostHog's ``validate_access_level``), or None."""
    if level is None:
        return None
    levels = levels_of(resource)
    if level not in levels:
        return "access_level %r is not a level of %s; it takes %s" % (level, resource, ", ".join(levels))
    if resource == "action" and level == "none":
        return "access_level of action cannot be below 'viewer' (PostHog's minimum for actions)"
    if resource in ("activity_log", "toolbar") and levels.index(level) > levels.index("viewer"):
        return "access_level of %s cannot be above 'viewer' (PostHog's maximum for it)" % resource
    return None


def rule_key(row):
    """The key of a rule PostHog answered: its resource, then whom it is for."""
    if row.get("role"):
        subject = "role:%s" % row["role"]
    elif row.get("organization_member"):
        subject = "member:%s" % row["organization_member"]
    else:
        subject = "default"
    return "%s/%s" % (row.get("resource"), subject)


def keyed(row):
    """PostHog's rule with its key as ``id`` (PostHog's rules have none)."""
    if not isinstance(row, dict):
        return row
    return dict(row, id=rule_key(row))


class Rules(Scope):
    """Where a project's rules live: the project's own (``resource: project``) at ``access_controls``, every
    other resource's in one list at ``resource_access_controls``; prune covers both lists of each project."""

    def path(self, task, params):
        part = self.part if (params.get("resource") or "project") == "project" else "resource_" + self.part
        return Scope(self.parent, part).path(task, params)

    def each(self, project_ids):
        return [dict(project_id=str(pid), resource=resource) for pid in project_ids for resource in LISTS]


RULES = Rules("project", "access_controls")


def read_rules(task, path, context):
    """The rules a GET of ``path`` answers, keyed."""
    answer = task.client.get(path, context=context)
    if not isinstance(answer, dict) or not isinstance(answer.get("access_controls"), list):
        raise Failure("Unexpected answer to GET %s: no access_controls list" % path)
    return [keyed(row) for row in answer["access_controls"] if isinstance(row, dict)]


def explain(error, what="the rule"):
    """What a person can do about PostHog's refusals of access control writes; returns the error."""
    detail = error.detail or ""
    if error.status == 403 and "Terraform manages" in detail:
        return error.reword("%s: %s" % (what, MSG_TERRAFORM)) if what else error.append(MSG_TERRAFORM)
    if error.status == 403 and "Role-based access" in detail:
        return error.append(MSG_ROLE_FEATURE)
    if error.status == 403 and detail.startswith("Must be"):
        return error.replace_hint(MSG_ADMIN)
    if error.status == 404 and detail == "Endpoint not found.":
        return error.append(MSG_NO_API)
    return error


def organization_path(task):
    """``/api/organizations/<id>/`` of the organization whose roles, members and plan a project's rules
    name: the task's ``organization`` when it is given, else the organization the project belongs to (a
    project's rules can only name its own organization's roles and members, and the key user's current
    organization may be another one, for example after creating one). Found in the list of the key's
    organizations (their ``teams`` and ``projects``: the scope ``organization:read`` the look-ups need
    anyway), once per task; the current project is in the current organization."""
    project = project_id_of(task.params)
    if str(task.params.get("organization") or "@current").strip() != "@current" or task.missing_parent or \
            project == "@current":
        return task.org_path()
    key = "access_control organization of project %s" % project
    if key not in task.cache:
        found = None
        for org in task.client.list_all("/api/organizations/", context="finding the organization of project %s"
                                        % project):
            ids = [str(p.get("id")) for p in (org.get("teams") or []) + (org.get("projects") or [])
                   if isinstance(p, dict)] if isinstance(org, dict) else []
            if project in ids and org.get("id"):
                found = str(org["id"])
                break
        task.cache[key] = "/api/organizations/%s/" % found if found else task.org_path()
    return task.cache[key]


class Subjects:
    """The roles and members of the project's organization, read once per task when a rule names one."""

    def __init__(self, task):
        self.task = task

    def roles(self):
        if "access_control_roles" not in self.task.cache:
            self.task.cache["access_control_roles"] = list_roles(self.task, organization_path(self.task))
        return self.task.cache["access_control_roles"]

    def members(self):
        if "access_control_members" not in self.task.cache:
            path = organization_path(self.task)
            if path == self.task.org_path():
                members = list_members(self.task)
            else:
                members = self.task.client.list_all(path + "members/", context="listing members")
            self.task.cache["access_control_members"] = index_members(members)
        return self.task.cache["access_control_members"]

    def role_id(self, name):
        for role in self.roles():
            if role_key(role.get("name")) == role_key(name):
                return str(role.get("id"))
        return None

    def member_id(self, email):
        member = self.members().get(email.lower())
        return str(member.get("id")) if member else None

    def role_name(self, role_id):
        return next((r.get("name") for r in self.roles() if str(r.get("id")) == str(role_id)), None)

    def member_email(self, member_id):
        return next((email for email, m in self.members().items() if str(m.get("id")) == str(member_id)), None)


class AccessControl(Resource):
    """One rule of a project: a ``resource``'s level for a role, a member, or everyone."""

    kind = "access control rule"
    return_key = "access_control"
    list_option = "rules"
    item_options = ITEM_OPTIONS
    SCOPE = RULES
    lookups = ("target",)
    named_by = "resource, role or member"
    id_option = None
    FIELDS = FIELDS

    def __init__(self, task, params, listing=None):
        params = dict(params)
        resource = (params.get("resource") or "project").strip()
        params["resource"] = resource
        subject = ("role %r" % params["role"] if params.get("role") else
                   "member %s" % params["member"] if params.get("member") else "everyone (the default)")
        params["target"] = "%s for %s" % (resource, subject)
        super(AccessControl, self).__init__(task, params, listing)
        self.subjects = Subjects(task)
        self.fixed = None  # a rule PostHog answered that this resource removes (purge)

    @property
    def resource(self):
        return self.params["resource"]

    def path_of(self, obj):
        return self.collection_path()

    def identity(self):
        return "access control of %s" % self.params["target"]

    def identities(self):
        """Role names and emails name the same rule regardless of case."""
        return [("target", self.params["target"].lower())]

    @staticmethod
    def validate_task(params):
        if params.get("purge") and params.get("rules") is None:
            return ["purge removes the rules a list leaves out: give the list as rules"]
        return []

    def validate(self):
        params = self.params
        problems = []
        if not self.resource:
            problems.append("resource must not be blank")
        if params.get("role") and params.get("member"):
            problems.append("give role or member, not both (PostHog scopes a rule to one of them)")
        if params.get("member"):
            try:
                params["member"] = normalize_email(params["member"])
            except ValueError as exc:
                problems.append("member: %s" % exc)
        if params.get("role") is not None and not params["role"].strip():
            problems.append("role must not be blank")
        if params.get("state") != "absent" and params.get("access_level") is None and self.fixed is None:
            problems.append("access_level is required (or state=absent to remove the rule)")
        problem = level_problem(self.resource, params.get("access_level"))
        if problem:
            problems.append(problem)
        try:
            project_id_of(params)
        except Failure as failure:
            problems.append(failure.msg)
        return problems

    # ------------------------------------------------------------- the subject
    def subject(self, strict):
        """``{"role": id}``, ``{"organization_member": id}`` or ``{}``; None when the role or member
        does not exist (then no rule can be theirs). ``strict``: fail instead, saying what to do."""
        if self.fixed is not None:
            return dict((k, self.fixed[k]) for k in ("role", "organization_member") if self.fixed.get(k))
        role, email = self.params.get("role"), self.params.get("member")
        if role:
            found = self.subjects.role_id(role)
            if found is None and strict:
                raise Failure("%s: the organization has no role %r; create it first with posthog.admin.role"
                              % (self.identity(), role))
            return None if found is None else {"role": found}
        if email:
            found = self.subjects.member_id(email)
            if found is None and strict:
                dummy, invited, unknown = standing(self.task, [email])
                if invited:
                    raise Postponed("access control of %s" % email, "%s is invited but not a member yet; a rule can "
                                    "only name a member: run this again once they have joined" % email)
                raise Failure("%s: %s is not a member of the organization; invite them (posthog.admin.invite) and "
                              "run this again once they have joined" % (self.identity(), email))
            return None if found is None else {"organization_member": found}
        return {}

    def wanted_key(self):
        strict = self.params.get("state") != "absent" and not self.task.assumes_earlier_tasks
        subject = self.subject(strict)
        if subject is None:
            if self.params.get("state") != "absent":
                self.task.warn("%s: %s does not exist yet; check mode assumes an earlier task creates it"
                               % (self.identity(), "the role" if self.params.get("role") else "the member"))
            return None
        return rule_key(dict(subject, resource=self.resource))

    # ------------------------------------------------------------- comparing
    def lookup_value(self, option, value):
        """A rule is found by its key (resource and subject id), as :meth:`read` gives PostHog's rules'."""
        return self.wanted_key() if option == "target" else value

    def read(self, obj, field):
        if field == "target":
            return rule_key(obj or {})
        return super(AccessControl, self).read(obj, field)

    def equal(self, field, wanted, current):
        if field == "target":
            return current == self.wanted_key()
        return super(AccessControl, self).equal(field, wanted, current)

    def view(self, obj, desired):
        if obj is None:
            return {}
        return dict(target=self.params["target"], access_level=obj.get("access_level"))

    def shape(self, obj):
        if not obj:
            return obj
        shaped = dict(obj)
        if shaped.get("role"):
            shaped["role_name"] = self.params.get("role") or self.subjects.role_name(shaped["role"])
        if shaped.get("organization_member"):
            shaped["member_email"] = self.params.get("member") or self.subjects.member_email(
                shaped["organization_member"])
        return shaped

    # --------------------------------------------------------------- finding
    def candidates(self, option, value):
        return read_rules(self.task, self.collection_path(), "reading the access control of project %s"
                          % project_id_of(self.params))

    # --------------------------------------------------------------- writing
    def body(self, access_level, subject):
        body = dict(subject or {}, access_level=access_level)
        if self.resource != "project":
            body["resource"] = self.resource
        return body

    def create_payload(self, desired):
        subject = self.subject(not self.task.assumes_earlier_tasks)
        if subject is None:  # check mode: an earlier task would create the role or invite the member
            subject = ({"role": "(the id of role %r)" % self.params["role"]} if self.params.get("role") else
                       {"organization_member": "(the membership id of %s)" % self.params["member"]})
        return self.body(desired.get("access_level"), subject)

    def update_payload(self, current, changes):
        subject = dict((k, current[k]) for k in ("role", "organization_member") if current.get(k))
        return self.body(changes["access_level"], subject)

    def predict_create(self, payload):
        row = dict(access_level=payload["access_level"], resource=self.resource, role=payload.get("role"),
                   organization_member=payload.get("organization_member"),
                   resource_id=str(project_id_of(self.params)) if self.resource == "project" else None)
        return keyed(row)

    # One PUT creates, changes or (access_level null) removes the rule of its subject.
    def create_request(self, payload):
        return dict(method="PUT", path=self.collection_path(), body=payload, note="setting %s" % self.identity())

    def update_request(self, current, payload):
        return dict(method="PUT", path=self.collection_path(), body=payload, note="changing %s" % self.identity())

    def delete_request(self, current):
        subject = dict((k, current[k]) for k in ("role", "organization_member") if current.get(k))
        return dict(method="PUT", path=self.collection_path(), body=self.body(None, subject),
                    note="removing %s" % self.identity())

    def absorb(self, action, answer):
        if action.verb == "deleted":
            self.applied = {}
            return answer
        if not isinstance(answer, dict) or not answer.get("resource"):
            raise Failure("%s: PostHog answered PUT %s without the rule it stored" % (self.identity(), action.path))
        self.applied = keyed(answer)
        return self.applied

    def guard(self, current):
        """Before any write, what PostHog would refuse: a write naming a role on a plan without
        role-based access (PostHog's AccessControlSerializer.validate answers 403 to any write with a
        role, ee/api/rbac/access_control.py), read once per task from the organization's
        ``available_product_features``; and a change to an existing rule of a project whose Terraform
        lock is on while Terraform manages rules there (``assert_rule_is_editable``,
        ee/api/rbac/access_control_management.py: PostHog does not say which rules Terraform owns, so
        no existing rule of such a project is changed)."""
        if self.task.missing_parent:
            return
        if (self.params.get("state") or "present") == "absent":
            writes = current is not None
        else:
            wanted = self.params.get("access_level")
            writes = current is None or not self.equal("access_level", wanted, self.read(current, "access_level"))
        if not writes:
            return
        if current is not None and self.terraform_locked():
            raise Failure("%s: %s" % (self.identity(), MSG_TERRAFORM_PLAN))
        if not (self.params.get("role") or (self.fixed or {}).get("role")):
            return
        if "organization plan" not in self.task.cache:
            self.task.cache["organization plan"] = self.client.get(organization_path(self.task),
                                                                   context="reading the organization's plan")
        plan = self.task.cache["organization plan"]
        features = plan.get("available_product_features") if isinstance(plan, dict) else None
        if isinstance(features, list) and not any(isinstance(f, dict) and f.get("key") == ROLE_FEATURE
                                                  for f in features):
            raise Failure("%s would fail: %s %s" % (self.identity(), MSG_ROLE_REFUSED, MSG_ROLE_FEATURE))

    def terraform_locked(self):
        """Whether the project's Terraform lock is on while Terraform manages some of its rules (one
        read per project and task; an older PostHog without the setting has no lock)."""
        if unknown(project_id_of(self.params)):
            return False  # a project the plan creates has no rules yet
        path = "/api/projects/%s/access_control_management_settings/" % project_id_of(self.params)
        if path not in self.task.cache:
            try:
                settings = self.client.get(path, context="reading the Terraform lock of project %s"
                                           % project_id_of(self.params))
            except PostHogError as exc:
                if exc.status not in (403, 404, 405):
                    raise
                settings = None
            self.task.cache[path] = isinstance(settings, dict) and bool(settings.get("lock_terraform_managed_rules")) \
                and bool(settings.get("has_terraform_managed_rules"))
        return self.task.cache[path]

    def explain(self, error):
        return explain(error, self.identity())

    # --------------------------------------------------------------- prune (organization_state)
    @classmethod
    def doomed(cls, task, params, obj):
        """A rule PostHog has that is to go, named as a person would write it: its role by name, its
        member by email (PostHog keys them by role id and membership id), else by that id."""
        one = cls(task, dict(params, resource=obj.get("resource"), role=None, member=None, access_level=None))
        one.fixed = obj
        if obj.get("role"):
            name = one.subjects.role_name(obj["role"])
            subject = "role %r" % name if name else "role id %s" % obj["role"]
        elif obj.get("organization_member"):
            email = one.subjects.member_email(obj["organization_member"])
            subject = "member %s" % email if email else "membership id %s" % obj["organization_member"]
        else:
            subject = "everyone (the default)"
        one.params["target"] = "%s for %s" % (obj.get("resource"), subject)
        return one

    # --------------------------------------------------------------- purge
    @classmethod
    def purged(cls, task, params, listed, listing):
        """With ``purge``: the project's rules (of both kinds) that no listed item names, removed."""
        if not params.get("purge"):
            return []
        wanted = set(one.wanted_key() for one in listed)
        extra = []
        for resource in LISTS:  # the two lists of the project
            probe = cls(task, dict(params, rules=None, resource=resource), listing)
            for row in listing.objects(probe):
                if row["id"] in wanted:
                    continue
                one = cls.doomed(task, dict(params, rules=None, state="absent"), row)
                one.listing = listing
                extra.append((one, "purged (%s)" % one.params["target"]))
        return extra


def read_access_controls(task, params):
    """access_control_info: the project's rules (its own and its resources'), optionally of one
    resource, each with ``role_name``/``member_email``; with ``users_with_access``, who reaches the
    project and why."""
    project = project_id_of(params)
    subjects = Subjects(task)
    rows = []
    try:
        for resource in LISTS:
            rows.extend(read_rules(task, RULES.path(task, dict(params, resource=resource)),
                                   "reading the access control of project %s" % project))
    except PostHogError as exc:
        raise Failure.of(explain(exc, None))
    if params.get("resource"):
        rows = [r for r in rows if r.get("resource") == params["resource"]]
    for row in rows:
        if row.get("role"):
            row["role_name"] = subjects.role_name(row["role"])
        if row.get("organization_member"):
            row["member_email"] = subjects.member_email(row["organization_member"])
    result = dict(access_controls=rows)
    if params.get("users_with_access"):
        answer = task.client.get("/api/projects/%s/users_with_access/" % project,
                                 context="reading who has access to project %s" % project)
        users = (answer or {}).get("users") or [] if isinstance(answer, dict) else []
        for user in users:
            user["email"] = subjects.member_email(user.get("organization_membership_id"))
        result["users_with_access"] = users
    return result


# ---------------------------------------------------------------------------------- exporting
def export_items(ctx):
    """organization_state_info: every project's rules (the project's and its resources'), each with its role
    by name or its member by email; the first project's carry no project_id. None where PostHog has no
    access control API (or refuses the key)."""
    subjects = Subjects(ctx.task)
    items = []
    first = str(ctx.project_ids[0]) if ctx.project_ids else None
    for scope in RULES.each(ctx.project_ids):
        path = RULES.path(ctx.task, scope)
        rows = ctx.quietly("access control of project %s" % scope["project_id"],
                           lambda p=path: read_rules(ctx.task, p, "listing the access control of %s" % p))
        if rows is None:
            return None
        for row in rows:
            item = dict(resource=row.get("resource") or "project", access_level=row.get("access_level"))
            if row.get("role"):
                item["role"] = subjects.role_name(row["role"]) or str(row["role"])
            elif row.get("organization_member"):
                item["member"] = subjects.member_email(row["organization_member"]) or str(row["organization_member"])
            if scope["project_id"] != first:
                item["project_id"] = scope["project_id"]
            if item["access_level"] is not None:
                items.append(item)
    return items


# ---------------------------------------------------------------------------------- the document
SECTION = Section(
    "access_controls", AccessControl, options_from(ARGUMENT_SPEC, ITEM_OPTIONS, project_id=dict(type="str")),
    "access control rule", refers=(("project_id", "projects"), ("role", "roles"), ("member", "roster")),
    export=export_items,
    comment="Access control of each project and its resources (posthog.admin.access_control): the default "
            "level, a role's (role) or a member's (member), per resource.")
