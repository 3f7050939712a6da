# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Roles of an organization and who holds them: the Resource behind posthog.admin.role, role_info's
read, and what the organization (``default_role``) and the roster (``roles`` per person) need.

PostHog's rules (``ee/api/rbac/role.py``, ``User.join`` in ``posthog/models/user.py``):

* a role's name is unique within the organization regardless of case;
* a role answers its members (``members``: role memberships, each with the member's user), so one
  list of roles tells who holds what; a membership is added with the member's user UUID
  (``POST .../roles/<id>/role_memberships/``) and removed by its own id;
* only members of the organization can hold a role: people who are only invited get it once they
  join (or through the organization's default role, which PostHog gives everyone who joins);
* members read roles; admins create, rename and delete them and change who holds them.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

from ansible_collections.posthog.admin.plugins.module_utils._common import list_or_get
from ansible_collections.posthog.admin.plugins.module_utils._people import normalize_email, standing
from ansible_collections.posthog.admin.plugins.module_utils._resource import (
    UPDATE,
    Failure,
    Field,
    Resource,
    Step,
    name_problem,
    options_of,
)
from ansible_collections.posthog.admin.plugins.module_utils._role_membership import (
    ROLES,
    add_request,
    check_membership,
    explain,
    holder_emails,
    list_roles,
    member_emails,
    recover_membership,
    remove_request,
    role_key,
    roles_by_key,
    with_member_emails,
)
from ansible_collections.posthog.admin.plugins.module_utils._section import Section, options_from

NAME_MAX_LENGTH = 200
ITEM_OPTIONS = ("state", "name", "id", "members", "purge")

#: A role's fields: its name (found regardless of case; given with an id, a rename) and who holds it
#: (their email addresses; PostHog answers role memberships), which the Members step converges.
FIELDS = (
    Field("name"),
    Field("members", "list", elements="str", from_api=member_emails, sent=False),
)

ARGUMENT_SPEC = dict(
    state=dict(type="str", default="present", choices=["present", "absent"]),
    id=dict(type="str"),
)
ARGUMENT_SPEC.update(options_of(FIELDS))
ARGUMENT_SPEC.update(purge=dict(type="bool", default=False))

INFO_ARGUMENT_SPEC = dict(id=dict(type="str"), name=dict(type="str"))


# ------------------------------------------------------------------------------------ people
def resolve_people(resource, emails):
    """``{email key: member}`` for the ``emails`` who are members; invited people are pending (they
    get the role once they join); anyone else fails before any write."""
    members, invited, unknown = standing(resource.task, emails)
    if unknown:
        verb = "is" if len(unknown) == 1 else "are"
        raise Failure("%s: %s %s not a member of the organization and not invited to it; only members can hold a "
                      "role. Invite them first (posthog.admin.invite or posthog.admin.roster), and run this "
                      "again once they have joined." % (resource.identity(), ", ".join(unknown), verb))
    if invited:
        resource.wait_for("members %s" % ", ".join(invited), "%s %s invited but not a member yet, and only members can "
                          "hold a role; run this again once they have joined (the organization's default role, if it "
                          "has one, is given on joining)" % (", ".join(invited), "is" if len(invited) == 1 else "are"))
    return members


# ------------------------------------------------------------------------------------ the role
class Members(Step):
    """Who holds the role: add the listed members missing from it, and (``purge``) take it from
    the people not listed."""

    action = "members changed"

    def plan(self, resource, result):
        """Before any write: the listed people must be members (those only invited are pending)."""
        wanted = resource.wanted_members()
        if wanted is None:
            return None
        holders = holder_emails(result.obj)
        people = resolve_people(resource, [e for e in resource.params["members"] if e.lower() not in holders])
        add = [(email, people[email]) for email in wanted if email in people and email not in holders]
        remove = [m for email, m in sorted(holders.items()) if email not in wanted] if resource.params["purge"] else []
        return dict(add=add, remove=remove) if add or remove else None

    def describe(self, plan):
        return "members changed"

    def predict(self, resource, result, plan):
        obj = copy.deepcopy(result.obj)
        gone = set(m.get("id") for m in plan["remove"])
        members = [copy.deepcopy(m) for m in result.obj.get("members") or [] if m.get("id") not in gone]
        for email, member in plan["add"]:
            members.append(dict(id=None, role_id=obj.get("id"), user=copy.deepcopy(member.get("user")),
                                organization_member=dict(id=member.get("id"), level=member.get("level"))))
        obj["members"] = members
        return obj

    def requests(self, resource, result, plan):
        role = result.obj
        return ([remove_request(resource.task, role, membership) for membership in plan["remove"]] +
                [add_request(resource.task, role, member) for dummy, member in plan["add"]])

    def absorb(self, resource, action, answer):
        obj = copy.deepcopy(resource.applied)
        if action.method == "DELETE":
            obj["members"] = [m for m in obj.get("members") or [] if not action.path.endswith("/%s/" % m.get("id"))]
        else:
            obj["members"] = list(obj.get("members") or []) + [check_membership(action, answer)]
        return obj

    def recover(self, resource, action):
        return recover_membership(resource.client, resource.planned.resolve(action.path), action.body["user_uuid"])


MEMBERS = Members()


class Role(Resource):
    """A role of the organization, by name (compared regardless of case) or id, with who holds it."""

    kind = "role"
    return_key = "role"
    SCOPE = ROLES
    list_option = "roles"
    item_options = ITEM_OPTIONS
    lookups = ("id", "name")
    named_by = "name or id"
    FIELDS = FIELDS
    folded = ("name",)  # role names are the same role regardless of case
    steps = (UPDATE, MEMBERS)

    def validate(self):
        params = self.params
        problems = []
        problems.extend(p for p in [name_problem(params, NAME_MAX_LENGTH)] if p)
        if params.get("members") is not None:
            seen = set()
            normalised = []
            for email in params["members"]:
                try:
                    address = normalize_email(email)
                except ValueError as exc:
                    problems.append("members: %s" % exc)
                    continue
                if address.lower() in seen:
                    problems.append("members: %s is listed twice" % address)
                seen.add(address.lower())
                normalised.append(address)
            params["members"] = normalised
        return problems

    def wanted_members(self):
        members = self.params.get("members")
        return None if members is None else [e.lower() for e in members]

    # ------------------------------------------------------------- comparing
    def view(self, obj, desired):
        """The managed fields, and who holds the role when the task lists them (a step's field)."""
        view = super(Role, self).view(obj, desired)
        if obj is not None and self.params.get("members") is not None:
            view["members"] = self.read(obj, "members")
        return view

    def shape(self, obj):
        return with_member_emails(obj)

    # --------------------------------------------------------------- writing
    def predict_create(self, payload):
        return dict(id=None, name=payload["name"], members=[], is_default=False, created_by=None, created_at=None)

    def explain(self, error):
        return explain(error)


def read_roles(task, params):
    """role_info: the organization's roles (or one by id, or by name regardless of case), each with
    ``member_emails``."""
    roles = list_or_get(task, Role.SCOPE.path(task, params), params.get("id"), what="role")
    if params.get("name") is not None:
        roles = [r for r in roles if role_key(r.get("name")) == role_key(params["name"])]
    return dict(roles=[with_member_emails(r) for r in roles])


# ------------------------------------------------------------------------------- the default role
def default_role_id(task, organization, name):
    """The id of the role ``name`` of ``organization`` (PostHog's object), for its ``default_role_id``;
    None for an empty name (no default role). Fails when the role does not exist, except in check
    mode, where an earlier task may be about to create it (then a placeholder, and a warning)."""
    if name is None:
        return None
    if not name.strip():
        return ""
    if organization is None:
        if task.check_mode:
            task.warn("check mode: the default role %r can only be set once the organization and the role exist"
                      % name)
            return "(the id of role %r)" % name
        raise Failure("default_role %r: a new organization has no roles yet. Create the organization, then the role "
                      "(posthog.admin.role), then set default_role." % name)
    path = "/api/organizations/%s/" % organization["id"]
    found = roles_by_key(list_roles(task, path)).get(role_key(name))
    if found is not None:
        return found["id"]
    if task.assumes_earlier_tasks:
        task.warn("default_role %r does not exist yet; check mode assumes an earlier task creates it (a real run "
                  "fails if it still does not exist)" % name)
        return "(the id of role %r)" % name
    raise Failure("default_role %r is not a role of the organization; create it first with posthog.admin.role" % name)


# ---------------------------------------------------------------------------------- exporting
def export_items(ctx):
    """organization_state_info: the roles, each with its holders and ``purge: true`` (the holders listed
    are its holders: one given by hand is drift, taken away on apply); sets the document's
    ``default_role``. None when PostHog refuses the list."""
    roles = ctx.quietly("roles", lambda: ctx.client.list_all(Role.SCOPE.path(ctx.task, {}), context="listing roles"))
    if roles is None:
        return None
    roles = [r for r in roles if isinstance(r, dict)]
    defaults = [r.get("name") for r in roles if r.get("id") == ctx.org.get("default_role_id")]
    if defaults:
        ctx.document["default_role"] = defaults[0]
    reader = Role.reader()
    # members even when none hold it: with purge, an empty list takes the role from anyone given it by hand
    return [dict(reader.export(r), members=reader.read(r, "members"), purge=True) for r in roles]


def scim_keeps_roles(task):
    """Why organization_state's prune must keep the roles a document does not list, or None: SCIM
    groups create and fill roles by name (PostHog's ee/api/scim), and PostHog's API does not say which
    roles a SCIM group made, so while any identity provider configuration (or, in older PostHog, any
    domain) has SCIM on, no role is pruned."""
    from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
    for part, what in (("identity_provider_configs", "identity provider configuration"), ("domains", "domain")):
        try:
            found = task.client.list_all(task.org_path(part), context="looking for SCIM before pruning roles")
        except PostHogError as exc:
            if exc.status in (403, 404, 405):
                continue
            raise
        scim = [o for o in found if isinstance(o, dict) and o.get("scim_enabled")]
        if scim:
            return ("SCIM manages this organization's roles (%s %r has SCIM on), so prune keeps the roles the document "
                    "does not list" % (what, scim[0].get("name") or scim[0].get("domain")))
    return None


# ---------------------------------------------------------------------------------- the document
def _role_keys(obj, label):
    return [role_key(obj.get("name"))] if obj and obj.get("name") else []


SECTION = Section(
    "roles", Role, options_from(ARGUMENT_SPEC, ITEM_OPTIONS), "role", required_one_of=[("name", "id")],
    on_prune=lambda params, options: dict(params, purge=True), keys=_role_keys, refers=(("members", "roster"),),
    prune_guard=scim_keeps_roles, export=export_items,
    comment="Roles and who holds them (posthog.admin.role). purge: true makes the members listed the role's "
            "only holders: a role given by hand is drift, and applying the document takes it away.",
    document_keys=(("default_role", "The role new members get when they join (set once the roles exist)."),))
