# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Organizations: the resource behind posthog.admin.organization, and organization_info's read."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._common import UUID_RE, list_or_get
from ansible_collections.posthog.admin.plugins.module_utils._resource import (
    Field,
    Resource,
    Scope,
    name_problem,
    options_of,
)
from ansible_collections.posthog.admin.plugins.module_utils._role import default_role_id, role_key
from ansible_collections.posthog.admin.plugins.module_utils._role_membership import list_roles
from ansible_collections.posthog.admin.plugins.module_utils._section import Root, options_from


def same_media(wanted, current):
    """A logo's media id: a UUID in any case; "" and None are no logo."""
    return str(wanted or "").lower() == str(current or "").lower()


#: The settings of an organization, each described once (PostHog's field names): the module's options,
#: what the engine sends and compares, and what organization_state_info exports all come from here.
FIELDS = (
    Field("is_member_join_email_enabled", "bool"),
    Field("enforce_2fa", "bool"),
    Field("members_can_invite", "bool"),
    Field("members_can_use_personal_api_keys", "bool"),
    Field("allow_publicly_shared_resources", "bool"),
    Field("is_ai_data_processing_approved", "bool"),
    Field("default_experiment_stats_method", choices=["bayesian", "frequentist"]),
    Field("enforce_verified_domains", "bool"),
    Field("logo_media_id", to_api=lambda value: value.strip() or None, compare=same_media),
    Field("members_can_create_projects", "bool"),
    Field("members_can_see_org_members", "bool"),
    Field("is_ai_training_opted_in", "bool"),
    Field("default_anonymize_ips", "bool"),
)
SETTINGS = tuple(f.name for f in FIELDS)
NAME_MAX_LENGTH = 64

ARGUMENT_SPEC = dict(
    state=dict(type="str", default="present", choices=["present", "absent"]),
    id=dict(type="str"),
    name=dict(type="str"),
    default_role=dict(type="str"),
)
ARGUMENT_SPEC.update(options_of(FIELDS))

INFO_ARGUMENT_SPEC = dict(id=dict(type="str"), name=dict(type="str"), slug=dict(type="str"))

# PostHog's OrganizationManager.bootstrap (posthog/models/organization.py) makes the new organization and its
# first project the creating user's current ones.
MSG_CURRENT = ("Like the PostHog web app, creating an organization made it the API key user's current organization, "
               "and its first project the current project: later tasks with organization @current (the default) "
               "or project_id @current act on them.")


class Organization(Resource):
    """An organization, found by id or by name among those the key's user belongs to. With an id,
    ``name`` is a setting (a rename)."""

    kind = "organization"
    return_key = "organization"
    SCOPE = Scope(None, "organizations")
    lookups = ("id", "name")
    FIELDS = FIELDS

    def validate(self):
        problems = []
        problems.extend(p for p in [name_problem(self.params, NAME_MAX_LENGTH)] if p)
        logo = self.params.get("logo_media_id")
        if logo and not UUID_RE.match(logo.strip()):
            problems.append("logo_media_id must be the id (a UUID) of media uploaded to PostHog, or an empty string "
                            "for no logo; got %r" % logo)
        return problems

    def desired(self):
        desired = super(Organization, self).desired()
        if self.params.get("id") and self.params.get("name") is not None:
            desired["name"] = self.params["name"]
        if getattr(self, "role_to_default", None) is not None:
            desired["default_role_id"] = self.role_to_default or None  # "" clears it
        return desired

    def view(self, obj, desired):
        """The default role by its name, as the task gives it (never the UUID PostHog stores)."""
        view = super(Organization, self).view(obj, dict((k, v) for k, v in desired.items() if k != "default_role_id"))
        if obj is not None and "default_role_id" in desired:
            stored = obj.get("default_role_id")
            shown = self.task.diff_mode or getattr(self.task, "planning", False)  # a diff, or a plan, shows it
            roles = list_roles(self.task, self.path_of(obj)) if stored and shown else []
            view["default_role"] = dict((r.get("id"), r.get("name")) for r in roles).get(stored, stored)
        return view

    def guard(self, current):
        """``default_role`` is a role name: resolve it to the id PostHog stores (one list of roles)."""
        if self.params.get("state") != "absent":
            self.role_to_default = default_role_id(self.task, current, self.params.get("default_role"))

    def explain(self, error):
        if error.attr == "enforce_verified_domains":
            return error.append("Verify the domain of the API key user's own e-mail address first (posthog.admin.domain "
                                "with state=verified), so that the restriction does not lock that user out.")
        if error.attr == "logo_media_id":
            return error.append("logo_media_id must name media uploaded to PostHog (the organization settings page "
                                "uploads the logo); give an empty string for none.")
        return error

    def create_payload(self, desired):
        payload = dict(desired)
        payload["name"] = self.params["name"]
        return payload

    def predict_create(self, payload):
        return dict(payload, projects=[], teams=[])

    def after_create(self, obj, payload):
        self.task.warn(MSG_CURRENT)
        if isinstance(obj, dict):
            # PostHog makes a first project with the organization: what the document's items live in
            ids = project_ids(obj)
            obj[DEFAULT_PROJECT] = ids[0] if ids else None
        return obj


def read_organizations(task, params):
    """organization_info: one organization by id, or all the key can see, filtered by name and slug."""
    return dict(organizations=list_or_get(task, "/api/organizations/", params.get("id"), what="organization",
                                          filters=dict(name=params.get("name"), slug=params.get("slug"))))


# ---------------------------------------------------------------------------------- the document
#: The field of a just-created organization (as applied) that holds the first project PostHog made with it.
DEFAULT_PROJECT = "default_project_id"


def project_ids(org):
    """The organization's project ids, lowest (its first project) first."""
    projects = (org or {}).get("projects") or (org or {}).get("teams") or []
    return sorted(p.get("id") for p in projects if isinstance(p, dict) and p.get("id") is not None)


def export_root(ctx, org):
    """The top of the exported document: the name and the settings PostHog answered."""
    return dict(name=org.get("name"), settings=dict((k, org[k]) for k in SETTINGS if org.get(k) is not None))


#: The project PostHog makes with an organization (``Team.objects.create_with_data``, posthog/models/team/team.py).
FIRST_PROJECT = "Default project"

OWNER = 15


def comes_with(project, client):
    """What PostHog makes with a new organization: its first project, and its creator (the API key's
    user) as its owner (``Organization.objects.bootstrap``, posthog/models/organization.py)."""
    made = dict(projects=[dict(id=project, name=FIRST_PROJECT)])
    try:
        me = client.get("/api/users/@me/", context="finding the API key's own user (the new organization's owner)")
    except PostHogError:
        return made  # a key without user:read: the roster finds out when it needs to
    if isinstance(me, dict) and me.get("email"):
        made["members"] = [dict(id=None, level=OWNER, user=dict((k, me.get(k)) for k in (
            "uuid", "email", "first_name", "last_name")))]
    return made


ROOT = Root(Organization, options_from(ARGUMENT_SPEC, SETTINGS), deferred=("default_role",),
            refers=(("default_role", "roles", role_key, "names it"),), project_ids=project_ids,
            default_project=DEFAULT_PROJECT, export=export_root, comes_with=comes_with)
