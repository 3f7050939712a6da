# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Event definitions of a project: PostHog's rules as pure functions, and the Resource behind
``posthog.admin.event_definition``.

PostHog creates an event definition when it ingests the event; its newest API creates them too
(``EventDefinitionViewSet`` with ``CreateModelMixin``: a tracking plan declares its events before they
are sent; docs/posthog_facts.md §14.4), older versions answer 405. Updates follow
``EnterpriseEventDefinitionSerializer``: tags are normalised (trimmed, lower-cased, de-duplicated)
and replace the set; ``hidden=true`` forces ``verified=false``; ``verified=true`` forces
``hidden=false``; both true in one request is refused. The owner is written as a user id and read
back as a nested user, so the module takes an email address and resolves it among the members of
the project's organization only when it differs.

An event carries the project's property groups (``property_groups``, by name): each is an event
schema (``/api/projects/<id>/event_schemas/``: list, create, delete, no retrieve), which the
:class:`Groups` step adds and removes (docs/posthog_facts.md §16.3).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError, require_object
from ansible_collections.posthog.admin.plugins.module_utils._common import UUID_RE, list_or_get, project_id_of
from ansible_collections.posthog.admin.plugins.module_utils._property_group import PropertyGroup, project_groups
from ansible_collections.posthog.admin.plugins.module_utils._resource import (
    Failure,
    Field,
    Resource,
    Scope,
    Step,
    Update,
    options_of,
    unknown,
)
from ansible_collections.posthog.admin.plugins.module_utils._section import Section, options_from

EVENT_TYPES = ("event", "all", "action_event", "event_posthog", "event_custom")
#: Where an event's property groups are attached (``posthog/api/event_schema.py``: list, create, delete).
SCHEMAS = Scope("project", "event_schemas")
ORDERING_CHOICES = ("name", "-name", "last_seen_at", "-last_seen_at", "last_seen_at::date", "-last_seen_at::date")

MSG_HIDDEN_AND_VERIFIED = ("hidden and verified cannot both be true: PostHog refuses an event that is both "
                           "hidden and verified (hiding an event unverifies it)")
MSG_NO_CREATE = ("this PostHog cannot create event definitions (it answered 405 to POST): its API only documents the "
                 "events it has ingested; PostHog's newest API creates them, so that a tracking plan can declare "
                 "events before they are sent. Send the event once (for example with a PostHog SDK), then run this "
                 "task again.")
MSG_PAYMENT_REQUIRED = ("PostHog refused to change the event definition (HTTP 402 payment_required): editing event "
                        "definitions (description, tags, owner, verified, hidden) needs the 'ingestion_taxonomy' "
                        "feature of a paid PostHog plan; on this organization event definitions are read-only, "
                        "though they can still be deleted.")


def normalise_tags(tags):
    """Tags as PostHog stores them: trimmed, lower-cased, de-duplicated (first order kept)."""
    result = []
    for tag in tags or []:
        value = str(tag).strip().lower()
        if value and value not in result:
            result.append(value)
    return result


def owner_email(obj):
    """The owner's email address (lower-cased) of an event definition, or '' when it has none."""
    owner = (obj or {}).get("owner")
    if isinstance(owner, dict):
        return (owner.get("email") or "").lower()
    return ""


def current_value(obj, field):
    """A managed field as the module compares it, read from a server object."""
    if field == "owner":
        return owner_email(obj)
    if field == "tags":
        return sorted(normalise_tags(obj.get("tags")))
    if field == "description":
        return obj.get("description") or ""
    if field in ("verified", "hidden"):
        return bool(obj.get(field))
    return obj.get(field)


def wanted_value(field, value):
    """A managed option as the module compares it."""
    if field == "owner":
        return (value or "").strip().lower()
    if field == "tags":
        return sorted(normalise_tags(value))
    return value


def validate_params(params):
    """A list of problems with the options, found before any request."""
    problems = []
    if params.get("hidden") and params.get("verified"):
        problems.append(MSG_HIDDEN_AND_VERIFIED)
    obj_id = params.get("id")
    if obj_id is not None and not UUID_RE.match(obj_id.strip()):
        problems.append("id must be an event definition's UUID, got %r" % obj_id)
    name = params.get("name")
    if name is not None and not name.strip():
        problems.append("name must not be blank")
    if name is not None and len(name) > 400:
        problems.append("name must be at most 400 characters (PostHog's limit), got %d" % len(name))
    tags = params.get("tags")
    if tags is not None and any(not str(tag).strip() for tag in tags):
        problems.append("tags must not contain blank entries")
    groups = params.get("property_groups")
    if groups is not None:
        if any(not str(g).strip() for g in groups):
            problems.append("property_groups must not contain blank entries")
        elif len(set(groups)) != len(groups):
            problems.append("property_groups lists a group twice: list each once")
    owner = params.get("owner")
    if owner is not None and owner.strip() and "@" not in owner:
        problems.append("owner must be the email address of a member of the project's organization "
                        "(or '' to remove the owner), got %r" % owner)
    return problems


def predict(current, changes, requester=None, now=None):
    """The object PostHog would return after PATCHing ``changes`` (API values) onto ``current``.

    ``changes['owner']`` may be the nested user (for the prediction) rather than its id.
    """
    after = copy.deepcopy(current)
    for field, value in changes.items():
        after[field] = value
    if "tags" in changes:
        after["tags"] = normalise_tags(changes["tags"])
    if changes.get("hidden"):
        after["verified"] = False
        after["verified_by"] = None
        after["verified_at"] = None
    elif changes.get("verified"):
        after["hidden"] = False
    if "verified" in changes and not changes.get("hidden"):
        if changes["verified"] and not current.get("verified"):
            after["verified_by"] = requester
            after["verified_at"] = now
        elif not changes["verified"]:
            after["verified_by"] = None
            after["verified_at"] = None
    return after


INFO_ARGUMENT_SPEC = dict(
    id=dict(type="str"),
    name=dict(type="str"),
    search=dict(type="str"),
    event_type=dict(type="str", default="event", choices=list(EVENT_TYPES)),
    exclude_hidden=dict(type="bool", default=False),
    ordering=dict(type="list", elements="str", choices=list(ORDERING_CHOICES)),
)


class DocumentEvent(Update):
    """The update of an event definition, saying so when PostHog accepted tags it did not store."""

    def absorb(self, resource, action, answer):
        obj = require_object(answer, action.method, resource.planned.resolve(action.path))
        check_tags(resource, action.decision, obj)
        return obj


def check_tags(resource, sent, obj):
    if "tags" in (sent or {}) and current_value(obj, "tags") != wanted_value("tags", sent["tags"]):
        resource.task.warn(
            "PostHog did not store the tags of %s: tags need the organization's 'tagging' feature (a paid "
            "plan); without it PostHog silently ignores them, so this task will report a change every run."
            % resource.identity())


def _owner_of(owner):
    return (owner.get("email") or "").lower() if isinstance(owner, dict) else ""


class Groups(Step):
    """The property groups the event carries: an event schema added for each listed group it lacks,
    and removed for each it carries that is not listed (one POST or DELETE each)."""

    action = "property groups changed"

    def plan(self, resource, result):
        wanted = resource.params.get("property_groups")
        if wanted is None:
            return None
        by_name = dict((g.get("name"), g) for g in resource.groups() if isinstance(g, dict))
        missing = [name for name in wanted if name not in by_name]
        if missing:
            there = ", ".join(sorted(n for n in by_name if n)) or "none"
            if not resource.task.assumes_earlier_tasks:
                raise Failure("%s: property group(s) %s do not exist in project %s (there: %s); create them with "
                              "posthog.admin.property_group (in organization_state, in its property_groups section)"
                              % (resource.identity(), ", ".join(missing), project_id_of(resource.params), there))
            resource.task.warn("%s: property group(s) %s do not exist yet (there: %s); check mode assumes an earlier "
                               "task creates them (a real run fails if they still do not exist)"
                               % (resource.identity(), ", ".join(missing), there))
            by_name.update((n, dict(id="(the id of property group %r)" % n, name=n)) for n in missing)
        carried = resource.read(result.obj, "property_groups")
        add = [by_name[name] for name in wanted if name not in carried]
        remove = [name for name in carried if name not in wanted]
        if not add and not remove:
            return None
        schemas = resource.schemas(result.obj) if remove else {}
        return dict(add=add, remove=[(name, schemas.get(name)) for name in remove], wanted=sorted(wanted))

    def predict(self, resource, result, plan):
        return dict(result.obj, property_groups=plan["wanted"])

    def requests(self, resource, result, plan):
        base = SCHEMAS.path(resource.task, resource.params)
        out = [dict(method="DELETE", path="%s%s/" % (base, schema["id"]), sets=dict(detached=name),
                    note="taking the property group %r from %s" % (name, resource.identity()))
               for name, schema in plan["remove"] if schema is not None]
        out.extend(dict(method="POST", path=base, body=dict(event_definition=result.obj.get("id"),
                                                            property_group_id=group.get("id")),
                        sets=dict(attached=group.get("name")),
                        note="giving %s the property group %r" % (resource.identity(), group.get("name")))
                   for group in plan["add"])
        return out

    def absorb(self, resource, action, answer):
        obj = copy.deepcopy(resource.applied)
        carried = set(resource.read(obj, "property_groups"))
        if action.method == "DELETE":
            carried.discard(action.sets["detached"])
        else:
            schema = require_object(answer, action.method, resource.planned.resolve(action.path))
            carried.add(((schema.get("property_group") or {}).get("name")) or action.sets["attached"])
        obj["property_groups"] = sorted(carried)
        return obj

    def recover(self, resource, action):
        """A lost answer to the POST: the event schema if it arrived (then it is not posted twice), else None."""
        body = resource.planned.resolve(action.body)
        found = resource.client.list_all(resource.planned.resolve(action.path),
                                         params=dict(event_definition=body["event_definition"]),
                                         context="looking for the event schema just created")
        for schema in found:
            if str((schema.get("property_group") or {}).get("id")) == str(body["property_group_id"]):
                return schema
        return None


GROUPS = Groups()


def groups_carrying(groups, definition_id):
    """The names of the property ``groups`` (as PostHog lists them: each with its ``events``) that the
    event definition ``definition_id`` carries, sorted."""
    return sorted(g.get("name") for g in groups if isinstance(g, dict) and any(
        str(e.get("id")) == str(definition_id) for e in g.get("events") or [] if isinstance(e, dict)))


#: What a user documents about an event, each described once: sent, compared, exported. The
#: property groups the event carries are converged by the Groups step (``sent=False``).
FIELDS = (
    Field("description", from_api=lambda value: value or ""),
    Field("tags", "list", elements="str", to_api=normalise_tags, from_api=lambda tags: sorted(normalise_tags(tags)),
          unordered=True),
    Field("owner", to_api=lambda email: (email or "").strip().lower(), from_api=_owner_of),
    Field("verified", "bool", from_api=bool, export="if_true"),
    Field("hidden", "bool", from_api=bool, export="if_true"),
    Field("property_groups", "list", elements="str", unordered=True, sent=False, export=False,
          locate=lambda obj, resource: resource.carried_groups(obj)),
)

ITEM_OPTIONS = ("state", "name", "id") + tuple(f.name for f in FIELDS)

ARGUMENT_SPEC = dict(
    state=dict(type="str", default="present", choices=["present", "absent"]),
    name=dict(type="str"),
    id=dict(type="str"),
)
ARGUMENT_SPEC.update(options_of(FIELDS))


class EventDefinition(Resource):
    """An event definition of a project: found by id or by exact name; created by name on PostHog's
    newest API (older ones create definitions only when they ingest events)."""

    kind = "event definition"
    return_key = "event_definition"
    SCOPE = Scope("project", "event_definitions")
    foreign = ("is_action", True)  # its list answers actions too: never one of these
    list_option = "event_definitions"
    item_options = ITEM_OPTIONS
    named_by = "name or id"
    FIELDS = FIELDS
    steps = (DocumentEvent(), GROUPS)

    def identity(self):
        option, value = self.lookup()
        if option == "id":
            return "event definition with id %s in project %s" % (value, project_id_of(self.params))
        if option == "name":
            return "event definition %r in project %s" % (value, project_id_of(self.params))
        return super(EventDefinition, self).identity()

    def label(self):
        return super(EventDefinition, self).identity()  # the items of a list share the task's project

    def validate(self):
        if self.params.get("id") is not None:
            self.params["id"] = self.params["id"].strip()
        return validate_params(self.params)

    def identities(self):
        return [(k, v.lower() if k == "id" else v) for k, v in super(EventDefinition, self).identities()]

    # --------------------------------------------------------------- finding
    def list_query(self, option=None):
        # event_type=event (PostHog's default): event definitions only; older PostHog versions add
        # actions to the list with event_type=all, and those cannot be managed here.
        if option == "name":
            return {"search": self.params["name"], "event_type": "event"}
        return {"event_type": "event"}

    def missing(self):
        if self.params.get("id"):
            return ("%s not found: no event definition of that project has this id (was it deleted? omit id to "
                    "create the definition by name)" % self.identity())
        return None

    def carried_groups(self, obj):
        """The names of the property groups the definition ``obj`` carries: PostHog answers them on the
        groups (each group's ``events``), not on the definition; a prediction of the plan carries them."""
        if "property_groups" in obj:
            return list(obj["property_groups"])
        if obj.get("id") is None or unknown(str(obj.get("id"))) or self.task is None:
            return []
        return groups_carrying(self.groups(), obj["id"])

    def view(self, obj, desired):
        view = super(EventDefinition, self).view(obj, desired)
        if obj is not None and self.params.get("property_groups") is not None:
            view["property_groups"] = sorted(self.read(obj, "property_groups"))
        return view

    def shape(self, obj):
        if obj and self.params.get("property_groups") is not None and "property_groups" not in obj:
            obj = dict(obj, property_groups=self.read(obj, "property_groups"))
        return obj

    def groups(self):
        """The project's property groups (their ``events`` say which definitions carry them)."""
        return project_groups(self.task, project_id_of(self.params))

    def schemas(self, obj):
        """``{group name: event schema}`` of the definition ``obj`` (read only to remove one)."""
        if obj.get("id") is None or unknown(str(obj["id"])):
            return {}
        path = SCHEMAS.path(self.task, self.params)
        found = self.client.list_all(path, params=dict(event_definition=obj["id"]),
                                     context="reading the property groups of %s" % self.identity())
        return dict(((s.get("property_group") or {}).get("name"), s) for s in found if isinstance(s, dict))

    def guard(self, current):
        """With both id and name, fail when the definition of that id has another name."""
        name = self.params.get("name")
        if current and self.params.get("id") and name is not None and current.get("name") != name:
            why = ("refusing to delete it; fix the id or the name" if self.params.get("state") == "absent" else
                   "PostHog cannot rename an event definition (the name is the event's name as ingested)")
            raise Failure("%s is named %r, not %r: %s" % (self.identity(), current.get("name"), name, why))

    # --------------------------------------------------------------- writing
    def create_payload(self, desired):
        body = dict(self.payload(desired)[0])
        body["name"] = self.params["name"]
        return body

    def predict_create(self, payload):
        body, owner_user = self.payload(self.desired())
        if "owner" in body:
            body["owner"] = owner_user
        base = dict(id=None, name=payload["name"], description="", tags=[], owner=None, verified=False,
                    verified_at=None, verified_by=None, hidden=False, created_at=None, last_seen_at=None,
                    default_columns=[])
        return predict(base, body)

    def after_create(self, obj, payload):
        check_tags(self, payload, obj)
        return obj

    def update_payload(self, current, changes):
        return self.payload(changes)[0]

    def predict_update(self, current, changes):
        body, owner_user = self.payload(changes)
        if "owner" in body:
            body["owner"] = owner_user
        return predict(current, body)

    def payload(self, changes):
        """API values for the changed options, and the owner's nested user (or None) for predictions."""
        body = dict(changes)
        owner_user = None
        if "tags" in body:
            body["tags"] = normalise_tags(body["tags"])
        if "owner" in body:
            email = (body["owner"] or "").strip()
            if email:
                owner_user = self.resolve_owner(email)
                if owner_user is None:  # invited, not a member yet: pending (the owner is set once they join)
                    body.pop("owner")
                else:
                    body["owner"] = owner_user.get("id")
            else:
                body["owner"] = None
        return body, owner_user

    def owner_in_new_project(self, email):
        """The owner of a definition in a project organization_state creates (its id known after apply):
        a member of the document's organization (as the plan knows them); someone its roster invites is
        pending (an owner must be a member), anyone else fails."""
        from ansible_collections.posthog.admin.plugins.module_utils._people import standing

        members, invited, strangers = standing(self.task, [email])
        if email.lower() in members:
            return members[email.lower()].get("user") or {}
        if invited:
            self.task.cache["event_definition_owners"][email.lower()] = None  # decided once: pending
            self.wait_for("owner %s" % email, "%s is invited but not a member yet, and an event definition's owner "
                          "must be a member; the owner is set by a run after they join" % email)
            return None
        raise Failure("owner %s is not a member of the organization the plan creates the project in, nor invited to "
                      "it; an event definition's owner must be a member (invite them first)" % email)

    def explain(self, error):
        if error.status == 402:
            error.reword("updating %s: %s" % (self.identity(), MSG_PAYMENT_REQUIRED))
        elif error.status == 405 and error.method == "POST" and "/event_definitions/" in (error.path or ""):
            error.reword("creating %s: %s" % (self.identity(), MSG_NO_CREATE))
        elif error.status == 403 and "/event_schemas/" in (error.path or "") and error.refuses_api_keys:
            error.append("This PostHog serves event schemas (the property groups an event carries) to its web app "
                         "only (scope INTERNAL in posthog/api/event_schema.py, before it opened them to personal API "
                         "keys): give the event its groups in PostHog's data management, or leave property_groups "
                         "out.")
        return error

    # ----------------------------------------------------------------- owner
    def resolve_owner(self, email):
        """The nested user of the member with this email address; fails when there is none.
        Members found are remembered for the other items of a list."""
        members = self.task.cache.setdefault("event_definition_owners", {})
        email = email.strip()
        if email.lower() in members:
            return members[email.lower()]
        if unknown(project_id_of(self.params)):
            return self.owner_in_new_project(email)
        project = self.client.get("/api/projects/%s/" % project_id_of(self.params),
                                  context="reading project %s to find its organization" % project_id_of(self.params))
        organization = project.get("organization") or project.get("organization_id")
        path = "/api/organizations/%s/members/" % organization
        context = "looking up owner %s among the members of organization %s" % (email, organization)
        # PostHog filters members by exact email; when that misses (another case), read them all once.
        for query in ({"email": email}, None):
            try:
                found = self.client.list_all(path, params=query, context=context)
            except PostHogError as exc:
                if exc.status == 404:
                    exc.reword("%s: the members endpoint %s is not available on this server, so the owner cannot "
                               "be resolved by email (%s)" % (context, path, exc.message))
                raise
            for member in found:
                user = member.get("user") or {}
                if (user.get("email") or "").lower() == email.lower():
                    members[email.lower()] = user
                    return user
        raise Failure("owner %s is not a member of organization %s, which project %s belongs to; an event "
                      "definition's owner must be a member (invite them first)" % (email, organization,
                                                                                   project_id_of(self.params)))


def read_event_definitions(task, params):
    """event_definition_info: one definition by id, or a project's definitions (searched, filtered)."""
    problems = validate_params(dict(id=params.get("id"), name=params.get("name")))
    if problems:
        raise Failure("; ".join(problems))
    query = dict(event_type=params["event_type"])
    search = " ".join(x for x in (params.get("search"), params.get("name")) if x)
    if search:
        query["search"] = search
    if params.get("exclude_hidden"):
        query["exclude_hidden"] = "true"
    if params.get("ordering"):
        query["ordering"] = list(params["ordering"])  # repeated, as PostHog reads it
    path = EventDefinition.SCOPE.path(task, params)
    definitions = list_or_get(task, path, params.get("id"), params=query, what="event definition",
                              filters=dict(name=params.get("name")))
    return dict(event_definitions=definitions)


# ---------------------------------------------------------------------------------- exporting
def export_item(obj, project_id, first_project, groups=()):
    """The document's item for a definition someone documented, declared (created before any event was
    ingested) or gave property groups; None for the others (ingestion makes them)."""
    documented = EventDefinition.reader().export(obj)
    carried = groups_carrying(groups, obj.get("id"))
    declared = "created_at" in obj and obj.get("created_at") is None and obj.get("last_seen_at") is None
    if not documented and not carried and not declared:
        return None  # only definitions someone documented
    item = dict(name=obj.get("name"))
    if project_id != first_project:  # the first project's (the document's default) carry none
        item["project_id"] = str(project_id)
    item.update(documented)
    if carried:
        item["property_groups"] = carried
    return item


def export_items(ctx):
    """organization_state_info: the documented (or declared) event definitions of every project, with
    the property groups they carry."""
    items = []
    for project_id in ctx.project_ids:
        found = ctx.quietly("event definitions of project %s" % project_id, lambda pid=project_id: ctx.client.list_all(
            EventDefinition.SCOPE.path(ctx.task, dict(project_id=pid)), params={"event_type": "event"},
            context="listing event definitions of project %s" % pid))
        groups = ctx.quietly("property groups of project %s" % project_id, lambda pid=project_id: ctx.client.list_all(
            PropertyGroup.SCOPE.path(ctx.task, dict(project_id=pid)), context="listing property groups of project %s" % pid)) \
            if found else []
        items.extend(i for i in (export_item(d, project_id, ctx.project_ids[0], groups or []) for d in found or []
                                 if isinstance(d, dict) and not d.get("is_action")) if i)
    return items


# ---------------------------------------------------------------------------------- the document
#: An event definition exists once PostHog ingests the event, or once it is declared (PostHog's newest
#: API creates them); one given by id that is gone is skipped (with a warning), and prune never deletes
#: one (ingestion would bring it back without its documentation). The property groups it lists come
#: from the property_groups section: deleting one an event lists is refused by the plan.
SECTION = Section(
    "event_definitions", EventDefinition, options_from(ARGUMENT_SPEC, ITEM_OPTIONS + ("project_id",),
                                                       project_id=dict(type="str")),
    "event definition", prunable=False, required_one_of=[("name", "id")], skip_missing=True,
    refers=(("project_id", "projects"), ("property_groups", "property_groups")), export=export_items,
    comment="Event definitions, per project (posthog.admin.event_definition): the documented and declared ones, "
            "with the property groups they carry. PostHog's newest API creates a definition before the event is "
            "sent; older versions only when they ingest it.")
