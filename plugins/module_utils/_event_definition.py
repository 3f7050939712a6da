# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Event definitions of a project: PostHog's rules as pure functions, and the Resource behind
``posthog.admin.event_definition``.

PostHog creates event definitions when it ingests events; the API can only read, update and delete
them. Updates follow ``EnterpriseEventDefinitionSerializer``: tags are normalised (trimmed,
lower-cased, de-duplicated) and replace the set; ``hidden=true`` forces ``verified=false``;
``verified=true`` forces ``hidden=false``; both true in one request is refused. The owner is
written as a user id and read back as a nested user, so the module takes an email address and
resolves it among the members of the project's organization only when it differs.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._module import UUID_RE
from ansible_collections.posthog.admin.plugins.module_utils._resource import Resource

EVENT_TYPES = ("event", "all", "action_event", "event_posthog", "event_custom")
ORDERING_CHOICES = ("name", "-name", "last_seen_at", "-last_seen_at", "last_seen_at::date", "-last_seen_at::date")
MANAGED = ("description", "tags", "owner", "verified", "hidden")

MSG_HIDDEN_AND_VERIFIED = ("hidden and verified cannot both be true: PostHog refuses an event that is both "
                           "hidden and verified (hiding an event unverifies it)")
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


class EventDefinition(Resource):
    """An event definition: found by id or by exact name; never created by the module."""

    def __init__(self, ph):
        super(EventDefinition, self).__init__(
            ph, "event definition", "event_definition",
            "/api/projects/%s/event_definitions/" % ph.project_id, MANAGED,
            natural_key="name", id_option="id", search_param="search")
        self._members = {}

    # --------------------------------------------------------------- finding
    def identity(self):
        if self.params.get("id"):
            return "event definition with id %s in project %s" % (self.params["id"], self.ph.project_id)
        return "event definition %r in project %s" % (self.params.get("name"), self.ph.project_id)

    def list_matches(self):
        name = self.params.get("name")
        # event_type=event (PostHog's default): event definitions only; older PostHog versions add
        # actions to the list with event_type=all, and those cannot be managed here.
        found = self.client.paginate(self.collection_path, params={"search": name, "event_type": "event"},
                                     context="looking up %s" % self.identity())
        return [obj for obj in found if obj.get("name") == name and not obj.get("is_action")]

    def find(self):
        if self.params.get("id"):
            return self.client.get_or_none(self.detail_path(self.params["id"].strip()),
                                           context="reading %s" % self.identity())
        return super(EventDefinition, self).find()

    def missing_message(self):
        if self.params.get("id"):
            return ("%s not found: no event definition of that project has this id (was it deleted? "
                    "PostHog only creates event definitions when it ingests events)" % self.identity())
        return ("%s not found: PostHog has never ingested an event with this exact name in this project (or it "
                "was deleted). PostHog creates event definitions when it ingests events; the API cannot create "
                "them. Send the event once (for example with a PostHog SDK), then run this task again."
                % self.identity())

    # ------------------------------------------------------------- comparing
    def desired(self):
        return dict((f, self.params[f]) for f in MANAGED if self.params.get(f) is not None)

    def differs(self, field, wanted, current_value):  # pylint: disable=redefined-outer-name
        # ``current_value`` here is already in the compared form (see :func:`current_value`).
        return wanted_value(field, wanted) != current_value

    def changes(self, current, desired):
        return dict((f, v) for f, v in desired.items() if self.differs(f, v, current_value(current, f)))

    def managed_view(self, obj, desired):
        view = dict(name=obj.get("name")) if obj else {}
        if obj:
            for field in desired:
                view[field] = current_value(obj, field)
        return view

    # ----------------------------------------------------------------- owner
    def organization_of_project(self):
        project = self.client.get("/api/projects/%s/" % self.ph.project_id,
                                  context="reading project %s to find its organization" % self.ph.project_id)
        return project.get("organization") or project.get("organization_id")

    def resolve_owner(self, email):
        """The nested user of the member with this email address; fails when there is none."""
        email = email.strip()
        if email.lower() in self._members:
            return self._members[email.lower()]
        organization = self.organization_of_project()
        path = "/api/organizations/%s/members/" % organization
        context = "looking up owner %s among the members of organization %s" % (email, organization)
        # PostHog filters members by exact email; when that misses (another case), read them all once.
        for query in ({"email": email}, None):
            try:
                members = self.client.list_all(path, params=query, context=context)
            except PostHogError as exc:
                if exc.status == 404:
                    raise PostHogError("%s: the members endpoint %s is not available on this server, so the owner "
                                       "cannot be resolved by email (%s)" % (context, path, exc.message),
                                       method=exc.method, path=exc.path, status=exc.status, type=exc.type,
                                       code=exc.code, detail=exc.detail, attr=exc.attr)
                raise
            for member in members:
                user = member.get("user") or {}
                if (user.get("email") or "").lower() == email.lower():
                    self._members[email.lower()] = user
                    return user
        self.ph.fail("owner %s is not a member of organization %s, which project %s belongs to; an event "
                     "definition's owner must be a member (invite them first)" % (email, organization, self.ph.project_id))

    # --------------------------------------------------------------- writing
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
                body["owner"] = owner_user.get("id")
            else:
                body["owner"] = None
        return body, owner_user

    def update(self, current, changes):
        try:
            return self.client.patch(self.detail_path(current["id"]), changes,
                                     context="updating %s" % self.identity())
        except PostHogError as exc:
            if exc.status == 402:
                raise PostHogError("updating %s: %s" % (self.identity(), MSG_PAYMENT_REQUIRED),
                                   method=exc.method, path=exc.path, status=exc.status, type=exc.type,
                                   code=exc.code, detail=exc.detail, attr=exc.attr)
            raise

    def delete(self, current):
        self.client.delete(self.detail_path(current["id"]), context="deleting %s" % self.identity())

    # ---------------------------------------------------------------- states
    def ensure_present(self, current=None, found=False):
        if not found:
            current = self.find()
        if current is None:
            self.ph.fail(self.missing_message())
        self.check_name(current, "PostHog cannot rename an event definition (the name is the event's name as ingested)")
        desired = self.desired()
        changes = self.changes(current, desired)
        result = dict(changed=bool(changes))
        obj = current
        if changes:
            body, owner_user = self.payload(changes)
            if self.ph.check_mode:
                shown = dict(body)
                if "owner" in body:
                    shown["owner"] = owner_user
                obj = predict(current, shown)
            else:
                obj = self.update(current, body)
                self.warn_if_ignored(obj, desired)
        result[self.return_key] = obj
        if self.ph.diff_mode:
            result["diff"] = dict(before=self.managed_view(current, desired), after=self.managed_view(obj, desired))
        return result

    def check_name(self, current, why):
        """With both id and name, fail when the definition of that id has another name."""
        name = self.params.get("name")
        if current and self.params.get("id") and name is not None and current.get("name") != name:
            self.ph.fail("%s is named %r, not %r: %s" % (self.identity(), current.get("name"), name, why))

    def ensure_absent(self, current=None, found=False):
        if not found:
            current = self.find()
        self.check_name(current, "refusing to delete it; fix the id or the name")
        return super(EventDefinition, self).ensure_absent(current, found=True)

    def warn_if_ignored(self, obj, desired):
        """Say so when PostHog accepted the request but did not store what was asked."""
        if "tags" in desired and current_value(obj, "tags") != wanted_value("tags", desired["tags"]):
            self.ph.module.warn(
                "PostHog did not store the tags of %s: tags need the organization's 'tagging' feature (a paid "
                "plan); without it PostHog silently ignores them, so this task will report a change every run."
                % self.identity())
