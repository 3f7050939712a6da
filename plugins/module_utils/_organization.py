# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Organizations: the resource behind posthog.admin.organization, and organization_info's read."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.module_utils._module import list_or_get
from ansible_collections.posthog.admin.plugins.module_utils._resource import Resource
from ansible_collections.posthog.admin.plugins.module_utils._role import default_role_id

SETTINGS = (
    "is_member_join_email_enabled",
    "enforce_2fa",
    "members_can_invite",
    "members_can_use_personal_api_keys",
    "allow_publicly_shared_resources",
    "is_ai_data_processing_approved",
    "default_experiment_stats_method",
)
NAME_MAX_LENGTH = 64

ARGUMENT_SPEC = dict(
    state=dict(type="str", default="present", choices=["present", "absent"]),
    id=dict(type="str"),
    name=dict(type="str"),
    is_member_join_email_enabled=dict(type="bool"),
    enforce_2fa=dict(type="bool"),
    members_can_invite=dict(type="bool"),
    members_can_use_personal_api_keys=dict(type="bool"),
    allow_publicly_shared_resources=dict(type="bool"),
    is_ai_data_processing_approved=dict(type="bool"),
    default_experiment_stats_method=dict(type="str", choices=["bayesian", "frequentist"]),
    default_role=dict(type="str"),
)

INFO_ARGUMENT_SPEC = dict(id=dict(type="str"), name=dict(type="str"), slug=dict(type="str"))


class Organization(Resource):
    """An organization, found by id or by name among those the key's user belongs to. With an id,
    ``name`` is a setting (a rename)."""

    kind = "organization"
    return_key = "organization"
    lookups = ("id", "name")
    fields = SETTINGS

    def collection_path(self):
        return "/api/organizations/"

    def validate(self):
        name = self.params.get("name")
        if name is not None and not (0 < len(name.strip()) <= NAME_MAX_LENGTH):
            return ["name must be 1 to %d characters, not blank; got %d characters" % (NAME_MAX_LENGTH, len(name))]
        return []

    def desired(self):
        desired = super(Organization, self).desired()
        if self.params.get("id") and self.params.get("name") is not None:
            desired["name"] = self.params["name"]
        if getattr(self, "role_to_default", None) is not None:
            desired["default_role_id"] = self.role_to_default or None  # "" clears it
        return desired

    def guard(self, current):
        """``default_role`` is a role name: resolve it to the id PostHog stores (one list of roles)."""
        if self.params.get("state") != "absent":
            self.role_to_default = default_role_id(self.task, current, self.params.get("default_role"))

    def create_payload(self, desired):
        payload = dict(desired)
        payload["name"] = self.params["name"]
        return payload


def read_organizations(task, params):
    """organization_info: one organization by id, or all the key can see, filtered by name and slug."""
    return dict(organizations=list_or_get(task, "/api/organizations/", params.get("id"), what="organization",
                                          filters=dict(name=params.get("name"), slug=params.get("slug"))))
