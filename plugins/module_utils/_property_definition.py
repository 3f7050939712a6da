# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Property definitions of a project: the Resource behind posthog.admin.property_definition,
property_definition_info's read, and the document's ``property_definitions`` section.

PostHog's rules (the newest ``posthog/api/property_definition.py``,
``products/enterprise/backend/api/ee_property_definition.py``, ``posthog/models/property_definition.py``;
docs/posthog_facts.md §16.2):

* PostHog defines a property when it ingests it, per type (``event``, ``person``, ``group`` with its
  ``group_type_index``, ``session``); the API lists, reads, updates and deletes them, and never
  creates one;
* the enterprise serializer (the ``ingestion_taxonomy`` feature) makes ``description``, ``tags``,
  ``property_type``, ``verified`` and ``hidden`` writable: hiding unverifies, verifying unhides, both
  in one request is refused; without the feature only ``property_type`` may change (else 402);
* ``property_type`` is one of DateTime, String, Numeric, Boolean, Duration (Numeric sets
  ``is_numerical``); property definitions have no owner.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

from ansible_collections.posthog.admin.plugins.module_utils._event_definition import normalise_tags
from ansible_collections.posthog.admin.plugins.module_utils._common import list_or_get, project_id_of
from ansible_collections.posthog.admin.plugins.module_utils._resource import Failure, Field, Resource, Scope, options_of
from ansible_collections.posthog.admin.plugins.module_utils._section import Section, options_from

PROPERTY_TYPES = ("DateTime", "String", "Numeric", "Boolean", "Duration")
TYPES = ("event", "person", "group", "session")
GROUP_TYPES_LIMIT = 5
MSG_HIDDEN_AND_VERIFIED = ("hidden and verified cannot both be true: PostHog refuses a property that is both hidden "
                           "and verified (hiding a property unverifies it)")
MSG_PAYMENT_REQUIRED = ("PostHog refused to change the property definition (HTTP 402 payment_required): documenting "
                        "properties (description, tags, verified, hidden) needs the 'ingestion_taxonomy' feature of a "
                        "paid PostHog plan; without it only property_type can change.")

#: What a user documents about a property, each described once: sent, compared, exported.
FIELDS = (
    Field("description", from_api=lambda value: value or ""),
    Field("tags", "list", elements="str", to_api=normalise_tags, from_api=lambda tags: sorted(normalise_tags(tags)),
          unordered=True),
    Field("property_type", choices=PROPERTY_TYPES),
    Field("verified", "bool", from_api=bool, export="if_true"),
    Field("hidden", "bool", from_api=bool, export="if_true"),
)
ITEM_OPTIONS = ("state", "name", "id", "type", "group_type_index") + tuple(f.name for f in FIELDS)
ARGUMENT_SPEC = dict(
    state=dict(type="str", default="present", choices=["present", "absent"]),
    name=dict(type="str"),
    id=dict(type="str"),
    type=dict(type="str", default="event", choices=list(TYPES)),
    group_type_index=dict(type="int"),
)
ARGUMENT_SPEC.update(options_of(FIELDS))
INFO_ARGUMENT_SPEC = dict(
    id=dict(type="str"),
    name=dict(type="str"),
    type=dict(type="str", default="event", choices=list(TYPES)),
    group_type_index=dict(type="int"),
    search=dict(type="str"),
    exclude_hidden=dict(type="bool", default=False),
)


def type_problems(params):
    """PostHog's ``PropertyDefinitionQuerySerializer.validate``: a group's index goes with type group only."""
    kind, index = params.get("type") or "event", params.get("group_type_index")
    if kind == "group" and index is None:
        return ["group_type_index is required with type: group (PostHog: `group_type_index` must be set for "
                "`group` type)"]
    if kind != "group" and index is not None:
        return ["group_type_index goes with type: group only"]
    if index is not None and not 0 <= index < GROUP_TYPES_LIMIT:
        return ["group_type_index must be 0 to %d" % (GROUP_TYPES_LIMIT - 1)]
    return []


def type_query(params):
    query = dict(type=params.get("type") or "event")
    if params.get("group_type_index") is not None:
        query["group_type_index"] = params["group_type_index"]
    return query


def predict(current, changes, requester=None):
    """The definition PostHog answers after PATCHing ``changes`` onto ``current`` (the enterprise rules)."""
    after = copy.deepcopy(current)
    after.update(copy.deepcopy(changes))
    if "tags" in changes:
        after["tags"] = normalise_tags(changes["tags"])
    if changes.get("hidden"):
        after.update(verified=False, verified_by=None, verified_at=None)
    elif changes.get("verified"):
        after["hidden"] = False
    if "verified" in changes and not changes.get("hidden"):
        if changes["verified"] and not current.get("verified"):
            after["verified_by"] = requester
        elif not changes["verified"]:
            after.update(verified_by=None, verified_at=None)
    if "property_type" in changes:
        after["is_numerical"] = changes["property_type"] == "Numeric"
    return after


class PropertyDefinition(Resource):
    """A property definition of a project: found by id, or by exact name among the definitions of its
    type; never created (PostHog defines a property when it ingests it)."""

    kind = "property definition"
    return_key = "property_definition"
    SCOPE = Scope("project", "property_definitions")
    list_option = "property_definitions"
    item_options = ITEM_OPTIONS
    lookups = ("id", "name")
    named_by = "name or id"
    FIELDS = FIELDS

    def identity(self):
        option, value = self.lookup()
        kind = self.params.get("type") or "event"
        if option == "name":
            return "%s property %r in project %s" % (kind, value, project_id_of(self.params))
        return super(PropertyDefinition, self).identity()

    def label(self):
        option, value = self.lookup()
        return "%s property %r" % (self.params.get("type") or "event", value) if option == "name" else self.identity()

    def identities(self):
        kind = (self.params.get("type") or "event", self.params.get("group_type_index"))
        return [(option, (kind, value)) for option, value in super(PropertyDefinition, self).identities()]

    def validate(self):
        params = self.params
        problems = type_problems(params)
        if params.get("hidden") and params.get("verified"):
            problems.append(MSG_HIDDEN_AND_VERIFIED)
        if params.get("name") is not None and not params["name"].strip():
            problems.append("name must not be blank")
        if params.get("tags") is not None and any(not str(t).strip() for t in params["tags"]):
            problems.append("tags must not contain blank entries")
        return problems

    # --------------------------------------------------------------- finding
    def listing_key(self):
        """The definitions of one type share a listing (PostHog lists them by type)."""
        query = type_query(self.params)
        return "%s?%s" % (self.collection_path(), "&".join("%s=%s" % (k, query[k]) for k in sorted(query)))

    def list_query(self, option=None):
        query = type_query(self.params)
        name = self.params.get("name")
        if option == "name" and name and "," not in name:
            query["properties"] = name  # PostHog's exact filter (comma-separated names)
        return query

    def missing(self):
        if self.params.get("id"):
            return "%s not found (was it deleted?)" % self.identity()
        return ("%s not found: PostHog defines a property when it ingests an event (or a person, or a group) that "
                "has it, and its API cannot create one. Send it once (for example with a PostHog SDK), then run "
                "this task again." % self.identity())

    # --------------------------------------------------------------- writing
    def predict_update(self, current, changes):
        return predict(current, changes)

    def explain(self, error):
        if error.status == 402:
            error.reword("updating %s: %s" % (self.identity(), MSG_PAYMENT_REQUIRED))
        return error

    def guard(self, current):
        name = self.params.get("name")
        if current and self.params.get("id") and name is not None and current.get("name") != name:
            raise Failure("%s is named %r, not %r: PostHog cannot rename a property definition; fix the id or the "
                          "name" % (self.identity(), current.get("name"), name))


def read_property_definitions(task, params):
    """property_definition_info: one definition by id, or a project's definitions of a type (searched)."""
    problems = type_problems(params)
    if problems:
        raise Failure("; ".join(problems))
    query = type_query(params)
    if params.get("search"):
        query["search"] = params["search"]
    if params.get("name") and "," not in params["name"]:
        query["properties"] = params["name"]
    if params.get("exclude_hidden"):
        query["exclude_hidden"] = "true"
    path = PropertyDefinition.SCOPE.path(task, params)
    found = list_or_get(task, path, params.get("id"), params=query, what="property definition",
                        filters=dict(name=params.get("name")))
    return dict(property_definitions=found)


# ---------------------------------------------------------------------------------- exporting
def export_item(obj, kind, project_id, first_project):
    documented = dict((k, v) for k, v in PropertyDefinition.reader().export(obj).items() if k != "property_type")
    if not documented:
        return None  # only properties someone documented (ingestion types the others)
    item = dict(name=obj.get("name"))
    if kind != "event":
        item["type"] = kind
    if project_id != first_project:
        item["project_id"] = str(project_id)
    item.update(documented)
    if obj.get("property_type"):
        item["property_type"] = obj["property_type"]
    return item


def export_items(ctx):
    """organization_state_info: the documented event and person properties of every project."""
    items = []
    for project_id in ctx.project_ids:
        for kind in ("event", "person"):
            found = ctx.quietly("%s property definitions of project %s" % (kind, project_id),
                                lambda pid=project_id, k=kind: ctx.client.list_all(
                                    PropertyDefinition.SCOPE.path(ctx.task, dict(project_id=pid)), params=dict(type=k),
                                    context="listing %s property definitions of project %s" % (k, pid)))
            items.extend(i for i in (export_item(d, kind, project_id, ctx.project_ids[0]) for d in found or []
                                     if isinstance(d, dict) and not d.get("virtual")) if i)
    return items


# ---------------------------------------------------------------------------------- the document
#: Like event definitions: a property exists once PostHog ingests it, so one not ingested yet is skipped
#: (with a warning), and prune never deletes one.
SECTION = Section(
    "property_definitions", PropertyDefinition, options_from(ARGUMENT_SPEC, ITEM_OPTIONS + ("project_id",),
                                                             project_id=dict(type="str")),
    "property definition", prunable=False, required_one_of=[("name", "id")], skip_missing=True,
    refers=(("project_id", "projects"),), export=export_items,
    comment="Documented property definitions, per project (posthog.admin.property_definition). PostHog defines a "
            "property when it ingests it; undocumented ones are left out.")
