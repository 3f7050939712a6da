# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Property groups of a project's tracking plan: the Resource behind posthog.admin.property_group,
property_group_info's read, and the document's ``property_groups`` section.

PostHog's rules (the newest ``posthog/api/schema_property_group.py`` and ``posthog/models/schema.py``;
docs/posthog_facts.md §16.3):

* a group has a ``name`` unique in the project (compared exactly), a ``description`` and
  ``properties``: each a ``name`` (trimmed, 1 to 200 characters, once per group), a
  ``property_type`` (DateTime, String, Numeric, Boolean, Object), ``is_required``,
  ``is_optional_in_types``, ``validation_rules`` (String: ``enum`` or ``not: {enum}``; Numeric:
  ``minimum``/``exclusiveMinimum``, ``maximum``/``exclusiveMaximum``) and a ``description``;
* an update's ``properties`` is the whole set: a property sent with its id is changed in place, one
  without is created, one left out is deleted. The module matches properties by name and sends the
  ids of those that stay, so they keep their ids;
* event definitions carry groups (event schemas, see ``_event_definition.py``); deleting a group
  detaches it from every event;
* scope object ``event_definition``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

from ansible_collections.posthog.admin.plugins.module_utils._common import list_or_get, project_id_of
from ansible_collections.posthog.admin.plugins.module_utils._resource import (
    Field,
    Resource,
    Scope,
    name_problem,
    options_of,
)
from ansible_collections.posthog.admin.plugins.module_utils._section import Section, options_from

PROPERTY_TYPES = ("DateTime", "String", "Numeric", "Boolean", "Object")
NAME_MAX_LENGTH = 400
PROPERTY_NAME_MAX_LENGTH = 200
MAX_ENUM_VALUES = 1000
#: A property's keys as PostHog names them, with the value an absent one means.
PROPERTY_DEFAULTS = (("property_type", None), ("is_required", False), ("is_optional_in_types", False),
                     ("description", ""), ("validation_rules", None))
PROPERTY_OPTIONS = dict(
    name=dict(type="str", required=True),
    property_type=dict(type="str", required=True, choices=list(PROPERTY_TYPES)),
    is_required=dict(type="bool"),
    is_optional_in_types=dict(type="bool"),
    description=dict(type="str"),
    validation_rules=dict(type="dict"),
)


def normalise_property(prop):
    """A property as PostHog keeps it (name trimmed, absent keys at their defaults), without ids or times."""
    prop = prop or {}
    out = dict(name=str(prop.get("name") or "").strip())
    for key, default in PROPERTY_DEFAULTS:
        value = prop.get(key)
        out[key] = default if value is None or (key == "validation_rules" and value == {}) else value
    return out


def normalise_properties(props):
    return sorted((normalise_property(p) for p in props or []), key=lambda p: p["name"])


def same_properties(wanted, current):
    return normalise_properties(wanted) == normalise_properties(current)


def rules_problem(prop):
    """PostHog's ``validate_validation_rules`` for one property (None when they are fine)."""
    rules, kind = prop.get("validation_rules"), prop.get("property_type")
    if not rules:
        return None
    if kind not in ("String", "Numeric"):
        return "Validation rules are not supported for %s properties" % kind
    if kind == "String":
        if set(rules) - {"enum", "not"} or ("enum" in rules) == ("not" in rules):
            return "String validation takes either 'enum' or 'not' (with an 'enum')"
        values = rules.get("enum") if "enum" in rules else (rules["not"] or {}).get("enum") \
            if isinstance(rules.get("not"), dict) and set(rules["not"]) == {"enum"} else None
        if not isinstance(values, list) or not values or len(values) > MAX_ENUM_VALUES or \
                not all(isinstance(v, str) for v in values):
            return "'enum' must be a list of 1 to %d strings" % MAX_ENUM_VALUES
        return None
    bounds = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")
    if set(rules) - set(bounds):
        return "Unrecognized keys for Numeric validation: %s" % ", ".join(sorted(set(rules) - set(bounds)))
    if "minimum" in rules and "exclusiveMinimum" in rules:
        return "Cannot specify both 'minimum' and 'exclusiveMinimum'"
    if "maximum" in rules and "exclusiveMaximum" in rules:
        return "Cannot specify both 'maximum' and 'exclusiveMaximum'"
    if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in rules.values()):
        return "the bounds must be numbers"
    lower = [rules[k] for k in ("minimum", "exclusiveMinimum") if k in rules]
    upper = [rules[k] for k in ("maximum", "exclusiveMaximum") if k in rules]
    if lower and upper and lower[0] >= upper[0]:
        return "the lower bound must be less than the upper bound"
    return None


def exported_properties(props):
    """The properties as the document writes them: each key left out where it has the value PostHog
    gives an absent one."""
    defaults = dict(PROPERTY_DEFAULTS)
    return [dict((k, v) for k, v in prop.items() if k in ("name", "property_type") or v != defaults.get(k))
            for prop in props or []]


#: What a user declares about a group, each once: sent, compared, exported. The name (compared exactly,
#: as PostHog keeps it unique) is sent with a create, and renames the group found by id.
FIELDS = (
    Field("name", export=False),  # organization_state_info writes it first
    Field("description", from_api=lambda value: value or ""),
    Field("properties", "list", elements="dict", option=dict(options=PROPERTY_OPTIONS), to_api=normalise_properties,
          from_api=normalise_properties, to_user=exported_properties, compare=same_properties),
)
ITEM_OPTIONS = ("state", "name", "id", "description", "properties")
ARGUMENT_SPEC = dict(
    state=dict(type="str", default="present", choices=["present", "absent"]),
    id=dict(type="str"),
)
ARGUMENT_SPEC.update(options_of(FIELDS))
INFO_ARGUMENT_SPEC = dict(id=dict(type="str"), name=dict(type="str"))


class PropertyGroup(Resource):
    """A property group of a project, found by id or by its exact name."""

    kind = "property group"
    return_key = "property_group"
    SCOPE = Scope("project", "schema_property_groups")
    list_option = "property_groups"
    item_options = ITEM_OPTIONS
    lookups = ("id", "name")
    named_by = "name or id"
    FIELDS = FIELDS

    def validate(self):
        params = self.params
        problems = [p for p in [name_problem(params, NAME_MAX_LENGTH)] if p]  # PostHog trims names
        seen = set()
        for index, prop in enumerate(params.get("properties") or []):
            where = "properties[%d]" % index
            prop_name = (prop.get("name") or "").strip()
            if not prop_name:
                problems.append("%s: Property name is required" % where)
            elif len(prop_name) > PROPERTY_NAME_MAX_LENGTH:
                problems.append("%s: Property name must be %d characters or less" % (where, PROPERTY_NAME_MAX_LENGTH))
            elif prop_name in seen:
                problems.append("%s: A property named '%s' already exists in this group (list each property once)"
                                % (where, prop_name))
            seen.add(prop_name)
            problem = rules_problem(prop)
            if problem:
                problems.append("%s: validation_rules: %s" % (where, problem))
        return problems

    def missing(self):
        if self.params.get("id"):
            return "%s not found in project %s; omit id to create a new one" % (self.identity(), project_id_of(self.params))
        return None

    # --------------------------------------------------------------- writing
    def predict_create(self, payload):
        predicted = dict(id=None, name=payload["name"], description=payload.get("description", ""), events=[],
                         created_by=None, created_at=None, updated_at=None)
        predicted["properties"] = [dict(p, id=None) for p in payload.get("properties") or []]
        return predicted

    def update_payload(self, current, changes):
        """The properties as PostHog takes a new set: those that stay with their ids (changed in place)."""
        payload = dict(changes)
        if "properties" in payload:
            ids = dict((p.get("name"), p.get("id")) for p in current.get("properties") or [] if isinstance(p, dict))
            payload["properties"] = [dict(p, id=ids[p["name"]]) if ids.get(p["name"]) else dict(p)
                                     for p in payload["properties"]]
        return payload

    def predict_update(self, current, changes):
        after = copy.deepcopy(current)
        for key, value in self.update_payload(current, changes).items():
            after[key] = value
        return after

    def explain(self, error):
        if error.status == 400 and "already exists" in (error.detail or "") and error.attr == "name":
            return error.append("Property group names are unique in a project: manage that group, or choose another "
                                "name.")
        return error


def project_groups(task, project_id):
    """The project's property groups: as organization_state's property_groups section left them (one
    the plan creates with the token of its id), else read once per task."""
    path = PropertyGroup.SCOPE.path(task, dict(project_id=project_id))
    known = task.known(path)
    if known is not None:
        return known
    if task.missing_parent:
        return []
    key = ("property_groups", path)
    if key not in task.cache:
        task.cache[key] = task.client.list_all(path, context="listing the property groups of project %s" % project_id)
    return task.cache[key]


def read_property_groups(task, params):
    """property_group_info: the project's property groups (or one by id), by exact name."""
    path = PropertyGroup.SCOPE.path(task, params)
    groups = list_or_get(task, path, params.get("id"), what="property group", filters=dict(name=params.get("name")))
    return dict(property_groups=groups)


# ---------------------------------------------------------------------------------- exporting
def export_item(obj, project_id, first_project):
    item = dict(name=obj.get("name"))
    item.update(PropertyGroup.reader().export(obj))
    if project_id != first_project:
        item["project_id"] = str(project_id)
    return item


def export_items(ctx):
    """organization_state_info: every project's property groups."""
    items = []
    for project_id in ctx.project_ids:
        found = ctx.quietly("property groups of project %s" % project_id, lambda pid=project_id: ctx.client.list_all(
            PropertyGroup.SCOPE.path(ctx.task, dict(project_id=pid)), context="listing property groups of project %s" % pid))
        items.extend(export_item(g, project_id, ctx.project_ids[0]) for g in found or [] if isinstance(g, dict))
    return items


# ---------------------------------------------------------------------------------- the document
def _keys(obj, label):
    """What event definitions call a group: its name (lower-cased, as the plan compares references)."""
    return [str(obj.get("name") or "").lower()] if obj else []


#: Property groups come before the event definitions that carry them: a group the document creates is
#: created first, and deleting one an event lists is refused by the plan.
SECTION = Section(
    "property_groups", PropertyGroup, options_from(ARGUMENT_SPEC, ITEM_OPTIONS + ("project_id",),
                                                   project_id=dict(type="str")),
    "property group", required_one_of=[("name", "id")], refers=(("project_id", "projects"),), keys=_keys,
    export=export_items,
    comment="The tracking plan's property groups, per project (posthog.admin.property_group): named sets of typed "
            "properties that event definitions carry (their property_groups).")
