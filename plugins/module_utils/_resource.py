# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""The one engine behind every posthog.admin state module.

A :class:`Resource` *describes* one kind of PostHog object through hooks: where it lives, how it
is looked up, how a field is read from PostHog's answer and compared, what a create or an update
sends, which follow-up :class:`Step` (pause, verify, upgrade, source files) it has and how each is
predicted in check mode, and which paths hold secrets. The flow itself (find, create or update,
steps, delete; ``changed``, the diff, check mode, recovery of a lost create answer, what failed
after which write) lives here alone, in :meth:`Resource.converge`, which returns a
:class:`Result` and never exits: one object, a list of them (:func:`converge_many`) or a whole
organization converge in one process. A :class:`Planner` does the same for a set of objects
decided together (invites, a roster).

Nothing here imports AnsibleModule: the task a resource runs in (client, check and diff mode, the
organization) is handed in as ``task`` (see ``_common.Task``).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import json

from ansible_collections.posthog.admin.plugins.module_utils._apply import Stopped, execute
from ansible_collections.posthog.admin.plugins.module_utils._base import (  # noqa: F401 # pylint: disable=unused-import
    SECRET_MASK,  # re-exported: the kinds import it from here
    UNKNOWN,
    Failure,
    Postponed,
    unknown,
    fold,
    mask,
    values_match,
)
from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError, require_object
from ansible_collections.posthog.admin.plugins.module_utils._plan import Action, Plan

# The methods that make up the flow: a Resource or Planner subclass describes, it never overrides
# these (tests/unit/plugins/module_utils/test_resource.py walks every subclass to make sure).
FLOW_METHODS = ("converge", "plan", "find", "changes", "lookup", "problems", "lookup_phrase", "write", "finish", "postpone",
                "_present", "_absent", "_create", "_run_steps", "_recover_created", "_failure")


def name_problem(params, max_length, option="name"):
    """Strip ``params[option]`` in place (PostHog trims names); the problem when it is then blank or
    longer than PostHog takes, else None."""
    name = params.get(option)
    if name is None:
        return None
    params[option] = name = name.strip()
    if not 0 < len(name) <= max_length:
        return "%s must be 1 to %d characters, not blank; got %d characters" % (option, max_length, len(name))
    return None


class Field:
    """One field of a kind, described once: the option that sets it (``type``, ``elements``,
    ``choices``; ``secret`` options are no_log), the API field it is sent as (``api``, default its
    name), how the user's value is sent (``to_api``), how PostHog's is read back to be compared
    (``from_api``) and exported (``to_user``), how the two compare (``compare(wanted, current)``, else
    ``case="fold"`` for text PostHog keeps in any case, else as a set when ``unordered``, else
    :func:`values_match`), whether PostHog keeps the first value (``frozen``), whether PostHog never
    answers it (``write_only``: sent, never compared by value), whether the update sends it (``sent``;
    false: a step of the kind converges it), where PostHog answers it when not under its ``api`` name
    (``locate(obj, resource)``: ``template.id``, an input the schema calls secret), and whether the export writes it
    (``export``; secrets never: PostHog returns none, or they must not reach a file). Converge, diff,
    validation (the argument spec), secrets and export all derive from these."""

    def __init__(self, name, type="str", elements=None, choices=None, to_api=None, from_api=None, to_user=None,
                 unordered=False, secret=False, frozen=False, export=True, api=None, compare=None, case=None,
                 write_only=False, option=None, sent=True, locate=None):
        self.name = name
        self.locate = locate  # locate(obj, resource): where PostHog answers it, when not under ``api``
        self.api = api or name
        self.option = dict(type=type)
        if elements:
            self.option["elements"] = elements
        if choices:
            self.option["choices"] = sorted(choices)
        if secret:
            self.option["no_log"] = True
        self.option.update(option or {})
        self.to_api = to_api
        self.from_api = from_api
        self.to_user = to_user
        self.unordered = unordered
        self.secret = secret
        self.frozen = frozen
        self.compare = compare
        self.case = case
        self.write_only = write_only or secret
        self.sent = sent  # False: a step converges it (a role's members), not the update
        self.export = False if secret else export  # True, False, or "if_true": only a true value is written


def options_of(fields):
    """The argument spec of ``fields`` (:class:`Field`), in order."""
    return dict((f.name, dict(f.option)) for f in fields)


class Scope:
    """Where a kind's objects live: in the organization (``organization``) or in a project
    (``project``, the item's ``project_id``), under ``part`` (``roles``, ``hog_functions``) - the one
    path template that finding, listing, prune and the export all use. ``fallback="organization"``: a
    task that names no project reaches the organization's collection (the spec's older route)."""

    def __init__(self, parent, part, fallback=None):
        self.parent = parent
        self.part = part
        self.fallback = fallback

    def path(self, task, params):
        if self.parent == "project" and self.fallback == "organization" and not str(
                params.get("project_id") if params.get("project_id") is not None else "").strip():
            return task.org_path(self.part)
        if self.parent == "project":
            from ansible_collections.posthog.admin.plugins.module_utils._common import project_id_of
            return task.known_path("/api/projects/%s/%s/" % (project_id_of(params), self.part))
        if self.parent == "organization":
            return task.org_path(self.part)
        return "/api/%s/" % self.part

    def each(self, project_ids):
        """The params of every collection of this scope organization_state's ``prune`` covers."""
        if self.parent == "project":
            return [dict(project_id=str(pid)) for pid in project_ids]
        return [{}]


EMPTY = (None, "", [], {})


class Result:
    """What converging one object (or one plan) did.

    ``obj`` is returned under ``return_key``; ``before``/``after`` make the diff; ``extra`` holds
    more return values (``verification``, ``changed_files``...); ``actions`` says what was done, in
    words (``created``, ``updated``, ``paused``...); ``written`` is true once a write succeeded.
    """

    def __init__(self, return_key, obj=None):
        self.return_key = return_key
        self.changed = False
        self.written = False
        self.obj = obj
        self.before = {}
        self.after = {}
        self.extra = {}
        self.actions = []
        self.diffs = None           # list mode: one diff per changed item
        self.raw = None             # the object as PostHog has it (unshaped; unknowns of a plan kept)

    def did(self, action, wrote):
        self.changed = True
        self.actions.append(action)
        if wrote:
            self.written = True

    def as_dict(self, diff_mode=False):
        """The module's return values."""
        out = dict(changed=self.changed)
        if self.return_key:
            out[self.return_key] = self.obj
        out.update(self.extra)
        if diff_mode and self.diffs is not None:
            out["diff"] = self.diffs
        elif diff_mode:
            out["diff"] = dict(before=self.before, after=self.after)
        return out


class Step:
    """One follow-up of converging an object that exists (or will, once the plan creates it): an
    update, pause/unpause, verify, upgrade, source files.

    ``plan`` reads what it needs (GETs only) and returns what to do, or a false value for nothing;
    ``requests`` returns the writes that do it (dicts of :meth:`Resource.write`'s arguments:
    ``method``, ``path``, ``body``...), which go into the plan as actions; ``predict`` returns the
    object as it will be after them. Both may add to ``result.before`` and ``result.after`` (the diff)
    and ``result.extra``. A step may also ``perform(resource, action, send)`` its action when the plan
    is applied (a wait, a verify retried within a timeout), ``absorb(resource, action, answer)`` its
    answer (the object as it now is, when the answer is not the object), and ``recover(resource,
    action)`` after a POST whose answer was lost (the answer it would have had, or None when the POST
    did not arrive).
    """

    action = "changed"
    # False: the step only watches the object (waits for a status); its action is no write, and the
    # task is not changed by it.
    changes = True

    def describe(self, plan):
        """What is done, in words (``paused``): the verb of the step's actions."""
        return self.action

    def plan(self, resource, result):
        raise NotImplementedError

    def predict(self, resource, result, plan):
        raise NotImplementedError

    def requests(self, resource, result, plan):
        raise NotImplementedError


class Update(Step):
    """PATCH the managed fields that differ (the step every resource has)."""

    action = "updated"

    def plan(self, resource, result):
        return resource.changes(result.obj, resource.desired())

    def predict(self, resource, result, plan):
        return resource.predict_update(result.obj, plan)

    def requests(self, resource, result, plan):
        return [resource.update_request(result.obj, resource.api_body(resource.update_payload(result.obj, plan)))]


UPDATE = Update()

GERUNDS = dict(created="creating", updated="updating", deleted="deleting", paused="pausing", resumed="resuming",
               verified="verifying", invited="inviting", removed="removing", revoked="revoking", waited="waiting for")


class Resource:
    """One kind of PostHog object, described for the engine.

    Class attributes describe; methods marked *hook* may be overridden; the flow methods
    (``FLOW_METHODS``) may not.
    """

    kind = "object"                 # for messages: "batch export"
    return_key = None               # the object is returned under this key: "batch_export"
    list_option = None              # the module's list option: "batch_exports" (None: no list mode)
    item_options = ()               # the options an item of the list may set
    SCOPE = None                    # where its objects live (Scope): the path finding, prune and export use
    lookups = ("id", "name")        # options that identify the object, in order of precedence
    folded = ()                     # look-ups PostHog compares regardless of case (trimmed): a role's name
    named_by = None                 # how messages list the lookups ("name or id"); default from lookups
    id_option = "id"                # the lookup answered by one GET of the object (None: none is)
    summary_list = False            # PostHog's list answers a summary: a match is read whole (one GET)
    leaving = None                  # (field, value) of an object PostHog is removing: it counts as missing
    foreign = None                  # (field, value) of a listed object of another kind: never a match
    FIELDS = ()                     # the kind's fields (Field); fields, unordered, secret_paths, frozen follow
    fields = ()                     # the fields an update sends (derived from FIELDS)
    unordered = ()                  # fields whose list values compare as sets (derived)
    secret_paths = ()               # dotted paths masked in diffs and results (derived, and more)
    frozen = ()                     # fields PostHog keeps from creation (derived)
    update_after_create = False     # run the Update step on a just-created object too
    steps = (UPDATE,)               # what brings an existing object in line, in order

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "FIELDS" in cls.__dict__:  # one description: the engine's lists are derived from it (unless given)
            cls.field_map = dict((f.name, f) for f in cls.FIELDS)
            derived = dict(fields=tuple(f.name for f in cls.FIELDS if f.sent),
                           unordered=tuple(f.name for f in cls.FIELDS if f.unordered),
                           secret_paths=tuple(f.name for f in cls.FIELDS if f.secret),
                           frozen=tuple(f.name for f in cls.FIELDS if f.frozen))
            for name, value in derived.items():
                if name not in cls.__dict__:
                    setattr(cls, name, value)

    field_map = {}

    @classmethod
    def reader(cls):
        """An instance that only reads PostHog's objects (:meth:`read`, :meth:`export`): no task."""
        instance = cls.__new__(cls)
        instance.task = instance.client = instance.listing = instance.found = instance.departing = None
        instance.params = {}
        instance.seen = []
        return instance

    def __init__(self, task, params, listing=None):
        self.task = task
        self.client = task.client
        self.params = params
        self.listing = listing      # a Listing of the collection, shared by the items of a list
        self.found = None           # the object the look-up found (set by plan)
        self.seen = []              # the objects the look-up read (what PostHog's objects look like)
        self.departing = None       # the match the look-up set aside because it is gone (see gone())
        self.planned = None         # the Plan this object's actions went into
        self.actions = []           # those actions, in order
        self.result = None          # the Result as planned (then as applied)
        self.applied = None         # the object as the applied actions left it

    # ------------------------------------------------------------------ hooks: describing
    def collection_path(self):
        """The list/create path, ending in ``/``: the :attr:`SCOPE`'s."""
        return self.SCOPE.path(self.task, self.params)

    def detail_path(self, obj_id):
        """The path of the object with this id."""
        return "%s%s/" % (self.collection_path(), obj_id)

    def path_of(self, obj):
        """hook: the path of PostHog's object ``obj`` (updates and deletes go there)."""
        return self.detail_path(obj["id"])

    def identity(self):
        """hook: a phrase naming the object the task is about, for messages."""
        option, value = self.lookup()
        if option is None:
            return "no %s given" % self.lookup_phrase()
        if option == self.id_option:
            return "%s with id %s" % (self.kind, value)
        return "%s %r" % (self.kind, value)

    def label(self):
        """hook: how an item of a list is named in messages (default: :meth:`identity`)."""
        return self.identity()

    @staticmethod
    def validate_task(params):
        """hook: problems with the task's own options (not an item's), found without any request."""
        return []

    def validate(self):
        """hook: the problems with the options, found without any request (a list of sentences)."""
        return []

    def lookup_phrase(self):
        """The lookups as messages list them: "id, url or name"."""
        if self.named_by:
            return self.named_by
        names = list(self.lookups)
        return names[0] if len(names) == 1 else "%s or %s" % (", ".join(names[:-1]), names[-1])

    def problems(self):
        """Every problem with the options, found without any request: the look-up, then :meth:`validate`."""
        problems = [] if self.lookup()[0] is not None or not self.lookups else [
            "one of %s is required" % self.lookup_phrase()]
        return problems + list(self.validate())

    def identities(self):
        """hook: the hashable identities of the object named; two items of a list sharing one are refused
        (a :attr:`folded` look-up folded)."""
        return [(option, fold(self.params[option]) if option in self.folded else self.params[option])
                for option in self.lookups if self.params.get(option) is not None]

    def desired(self):
        """hook: the fields the user set (each through its Field's ``to_api``): options left unset
        are not managed."""
        desired = {}
        for name in self.fields:
            value = self.params.get(name)
            if value is not None:
                field = self.field_map.get(name)
                desired[name] = field.to_api(value) if field is not None and field.to_api else value
        return desired

    def read(self, obj, field):
        """hook: a field as the engine compares it, read from PostHog's object (its Field's ``api``
        name, through its ``from_api``)."""
        described = self.field_map.get(field)
        if described is not None and described.locate is not None:
            value = described.locate(obj or {}, self)
        else:
            value = (obj or {}).get(described.api if described is not None else field)
        return described.from_api(value) if described is not None and described.from_api else value

    def api_body(self, payload):
        """``payload`` (by field) as PostHog takes it: each Field's ``api`` name."""
        if not any(f.api != f.name for f in self.FIELDS):
            return payload
        return dict((self.field_map[k].api if k in self.field_map else k, v) for k, v in payload.items())

    def export(self, obj):
        """The item of organization_state's document that recreates ``obj``: its exported
        Fields, as the user writes them (``to_user``), the empty ones left out."""
        item = {}
        for field in self.FIELDS:
            if not field.export:
                continue
            value = self.read(obj, field.name)
            if field.to_user:
                value = field.to_user(value)
            if value not in EMPTY and (field.export is True or value):
                item[field.name] = value
        return item

    def lookup_value(self, option, value):
        """hook: the user's ``value`` of a look-up ``option`` as :meth:`read` gives PostHog's (a URL
        normalised...): a listing is indexed by :func:`fold` of :meth:`read`, probed with :func:`fold`
        of this, and :meth:`equal` then decides among the few objects the probe returns."""
        return value

    def equal(self, field, wanted, current):
        """hook: whether PostHog's ``current`` (from :meth:`read`) satisfies the user's ``wanted``: as
        the Field compares (``compare``, ``case``, ``unordered``), folded when ``field`` is the
        :attr:`folded` look-up the task finds the object by."""
        if field in self.folded and self.lookup()[0] == field:
            return isinstance(current, str) and fold(wanted) == fold(current)
        described = self.field_map.get(field)
        if described is not None and described.compare is not None:
            return described.compare(wanted, current)
        if described is not None and described.case == "fold":
            return fold(wanted or "") == fold(current or "")
        return values_match(wanted, current, unordered=field in self.unordered)

    def view(self, obj, desired):
        """hook: the fields the user manages, as they stand in ``obj`` (for diffs)."""
        if obj is None:
            return {}
        keys = list(desired)
        natural = [k for k in self.lookups if k != self.id_option]
        named = [k for k in natural if self.params.get(k) is not None] or natural[-1:]
        keys = [k for k in named if k not in keys] + keys
        return mask(dict((k, self.read(obj, k)) for k in keys), self.secret_paths)

    def shape(self, obj):
        """hook: the object as returned to the user."""
        return mask(obj, self.secret_paths) if obj else obj

    # ------------------------------------------------------------------ hooks: finding
    def list_query(self, option=None):
        """hook: the list query that narrows a look-up by ``option`` (None: every manageable object)."""
        return None

    def candidates(self, option, value):
        """hook: the objects a look-up by ``option`` reads from the server."""
        return self.client.paginate(self.collection_path(), params=self.list_query(option),
                                    context="looking up %s" % self.identity())

    def manageable(self, obj):
        """Whether a listed object is one this resource manages: a dict, unless :attr:`foreign` marks it
        another kind's (event definitions' list also answers actions)."""
        return isinstance(obj, dict) and not (self.foreign is not None and obj.get(self.foreign[0]) == self.foreign[1])

    def complete(self, obj):
        """The whole object for the match a look-up found in a list: where PostHog's list answers a
        summary (:attr:`summary_list`), one GET of ``obj``; else the match as listed."""
        if not self.summary_list:
            return obj
        return self.client.get(self.detail_path(obj["id"]), context="reading %s" % self.identity())

    def gone(self, obj):
        """Whether an object PostHog still shows is already on its way out (:attr:`leaving`: a proxy
        record being deleted): the look-up treats it as missing, and keeps it in :attr:`departing` so
        that :meth:`missing` can say why it cannot be created again yet."""
        return self.leaving is not None and obj.get(self.leaving[0]) == self.leaving[1]

    @classmethod
    def doomed(cls, task, params, obj):
        """hook: the resource that removes ``obj`` (listed, not in organization_state's document) with
        ``params`` (``state=absent``); default: the object named by its id."""
        return cls(task, dict(params, id=obj.get("id")))

    def listing_key(self):
        """Which collection a list's items share a :class:`Listing` of: the collection path, so items
        of different projects each read their own."""
        return self.collection_path()

    @classmethod
    def purged(cls, task, params, listed, listing):
        """hook: with a list option, the ``(resource, label)`` pairs to converge after the ``listed``
        resources, each with ``state: absent``, removing what the list leaves out (its ``purge``
        option); default: none."""
        return []

    def missing(self):
        """hook: why a missing object cannot be created (a sentence), or None when it can."""
        option, dummy = self.lookup()
        if option == self.id_option:
            return "%s not found; omit %s to create a new one" % (self.identity(), self.id_option)
        return None

    def guard(self, current):
        """hook: raise a Failure before any write when ``current`` (None: missing) must not be touched."""

    # ------------------------------------------------------------------ hooks: writing
    def create_payload(self, desired):
        """hook: the body of the create request."""
        return dict(desired)

    def update_payload(self, current, changes):
        """hook: the body of the update request for ``changes``."""
        return dict(changes)

    def predict_create(self, payload):
        """hook: what a create will answer, as far as the plan can tell (its id is unknown until then)."""
        return copy.deepcopy(payload)

    def predict_update(self, current, changes):
        """hook: the object after ``changes``."""
        after = copy.deepcopy(current)
        after.update(copy.deepcopy(changes))
        return after

    def create_request(self, payload):
        """hook: the write that creates the object (:meth:`write`'s arguments)."""
        return dict(method="POST", path=self.collection_path(), body=payload, answers="object")

    def update_request(self, current, payload):
        """hook: the write that updates ``current``."""
        return dict(method="PATCH", path=self.path_of(current), body=payload, answers="object")

    def delete_request(self, current):
        """hook: the write that deletes ``current`` (a 404 counts as done: a retried DELETE may meet its own work)."""
        return dict(method="DELETE", path=self.path_of(current))

    def after_create(self, obj, payload):
        """hook: check PostHog's answer to a create (raise a Failure, which reports changed); the object."""
        return obj

    def absorb(self, action, answer):
        """hook: the object after ``action`` was answered ``answer``, checked before it is believed: a
        create or update must answer the object (with an id), a deletion nothing else."""
        if action.step is not None and hasattr(action.step, "absorb"):
            self.applied = action.step.absorb(self, action, answer)
            return self.applied
        if action.verb == "deleted":
            if isinstance(answer, dict) and answer.get("id") is not None and self.applied and \
                    str(answer.get("id")) != str(self.applied.get("id")):
                raise Failure("%s: PostHog answered %s %s with another object (id %s), so the deletion cannot be "
                              "confirmed" % (self.identity(), action.method, action.path, answer.get("id")))
            self.applied = {}
            return answer
        if action.answers == "object":
            obj = self.applied = require_object(answer, action.method, self.planned.resolve(action.path))
            if action.creates:
                obj = self.after_create(obj, action.body)
        elif isinstance(answer, dict) and answer.get("id") is not None:
            obj = answer
        else:
            obj = copy.deepcopy(self.applied or {})
            obj.update(copy.deepcopy(action.sets or {}))
        self.applied = obj
        return obj

    def recovery(self, action, path, body):
        """For a POST whose answer may be lost, what re-reads PostHog: a callable answering the
        object the POST made (or None: it did not arrive, so it may be sent again); None where nothing
        can tell (the POST is then not repeated)."""
        if action.method != "POST":
            return None
        if action.step is not None and hasattr(action.step, "recover"):
            if hasattr(action.step, "can_recover") and not action.step.can_recover(self, action):
                return None
            return lambda: action.step.recover(self, action)
        return self._recover_created if action.creates else None

    def context_of(self, action):
        """What an action does, as an error message starts (``creating role 'x'``)."""
        return action.note or "%s %s" % (GERUNDS.get(action.verb, action.verb), self.identity())

    def explain(self, error):
        """hook: add what a person can do to a PostHogError from a write; returns it."""
        return error

    # ------------------------------------------------------------------ the flow
    def lookup(self):
        """(option, value) of the first lookup the user set, or (None, None)."""
        for option in self.lookups:
            if self.params.get(option) is not None:
                return option, self.params[option]
        return None, None

    def find(self, fresh=False):
        """The current object or None; fails when the look-up matches more than one object."""
        option, value = self.lookup()
        if option is None:
            raise Failure("one of %s is required to identify the %s" % (self.lookup_phrase(), self.kind))
        new_parent = UNKNOWN in self.collection_path()  # a parent the plan creates (also resolves a missing one)
        if (new_parent or getattr(self.task, "missing_parent", None)) and \
                (self.listing is None or option == self.id_option):
            self.seen = []
            return None  # nothing exists in a parent an earlier task (or this plan) would create
        if option == self.id_option:
            obj = self.client.get_or_none(self.detail_path(value), context="reading %s" % self.identity())
            if obj is not None and not isinstance(obj, dict):
                raise Failure("Unexpected answer to GET %s: not an object" % self.detail_path(value))
            self.seen = [obj] if obj else []
            if obj and self.gone(obj):
                self.departing, obj = obj, None
            return obj
        if self.listing is not None and not fresh:
            # indexed by the look-up's folded value: one dict probe, not a scan of the collection
            candidates, self.seen = self.listing.matches(self, option, value)
        else:
            candidates = self.seen = [obj for obj in self.candidates(option, value) if self.manageable(obj)]
        matches = [obj for obj in candidates if self.equal(option, value, self.read(obj, option))]
        leaving = [obj for obj in matches if self.gone(obj)]
        matches = [obj for obj in matches if not self.gone(obj)]
        self.departing = leaving[0] if leaving else None
        if len(matches) > 1:
            raise Failure("%s is ambiguous: %d %ss match (ids %s); set %s to pick one" % (
                self.identity(), len(matches), self.kind, ", ".join(str(m.get("id")) for m in matches),
                self.id_option or "a more precise option"))
        if not matches:
            return None
        # a match the plan itself makes (a project PostHog creates with a new organization) is complete as known
        return matches[0] if unknown(str(matches[0].get("id"))) else self.complete(matches[0])

    def _recover_created(self):
        """After an ambiguous create failure: the object if the POST went through, else None (the look-up's
        paths hold the ids the plan has answered by now: see ``Task.known_path``)."""
        option, dummy = self.lookup()
        if option is None or option == self.id_option:
            return None
        try:
            return self.find(fresh=True)
        except Failure:
            return None

    def changes(self, current, desired):
        """The subset of ``desired`` that the server does not have yet."""
        return dict((f, v) for f, v in desired.items() if not self.equal(f, v, self.read(current, f)))

    def state_key(self):
        """Which object the plan's decision is about: its collection and look-up (stable between two
        plans of the same document, whether the object exists or not)."""
        option, value = self.lookup()
        return "%s %s=%s" % (self.listing_key(), option, fold(value) if option in self.folded else value)

    def plan(self, plan):
        """Decide, reading only: this object's writes go into ``plan`` as actions; returns the
        :class:`Result` as the plan predicts it (raises :class:`Failure`, before any write)."""
        result = self.result = Result(self.return_key)
        self.planned = self.task.plan = plan
        self.actions = []
        try:
            state = self.params.get("state") or "present"
            current = self.found = self.find()
            self.applied = copy.deepcopy(current)
            self.guard(current)
            # the state as shown (secrets masked): a saved plan's fingerprints must not let its reader test a
            # guess of a secret a server answered
            self.decided_on = plan.depend(self.state_key(), self.shape(current) if current is not None else None)
            if state == "absent":
                self._absent(result, current)
            else:
                self._present(result, current)
        except PostHogError as exc:
            raise Failure.of(self.explain(exc))
        except Postponed as postponed:
            self.postpone(postponed)
        return result

    def wait_for(self, what, reason):
        """Part of what the task asks cannot happen yet: pending in the plan (and warned); the rest goes on."""
        self.planned.wait(None, None, what, reason)
        self.task.warn("%s: %s (pending: a later run does it)" % (self.identity(), reason))

    def postpone(self, postponed):
        """What cannot happen yet: pending in the plan (and warned), with none of this object's writes."""
        for action in self.actions:
            self.planned.actions.remove(action)
        self.actions = []
        self.result.changed = False
        self.result.actions = ["pending"]
        self.result.obj = self.shape(self.found) if self.found else {}
        self.planned.wait(None, None, postponed.what, postponed.reason)
        self.task.warn("%s: %s (pending: a later run does it)" % (self.identity(), postponed.reason))
        self.predicted, self.desired_now, self.after_extra = self.found, {}, {}

    def write(self, verb, method, path, body=None, step=None, creates=False, answers=None, sets=None, write=True,
              keys=(), person=False, label=None, note=None, fallback=None):
        """Add one write to the plan, as an action of this object; returns it."""
        action = Action(verb, method, path, body, state=self.decided_on, key=self.state_key(), owner=self,
                        step=step, secret_paths=self.secret_paths, sets=sets, creates=creates, write=write,
                        keys=keys, person=person, label=label, note=note, fallback=fallback, answers=answers)
        self.planned.add(action)
        self.actions.append(action)
        if write:
            self.result.did(verb, False)
        else:
            self.result.actions.append(verb)
        return action

    def converge(self):
        """Plan, then (a real run) apply exactly the plan; returns the :class:`Result`."""
        plan = Plan()
        result = self.plan(plan)
        if not self.task.check_mode and plan.actions:
            try:
                execute(self.client, plan)
            except Stopped as stopped:
                raise self._failure(stopped)
        self.finish()
        return result

    def finish(self):
        """The Result as it stands: what the applied actions answered, else what the plan predicts."""
        result = self.result
        applied = any(a.done for a in self.actions)
        if applied:
            result.written = True
        if self.params.get("state") == "absent":
            result.obj = {}
            return result
        obj = self.applied if applied else self.predicted
        result.raw = obj  # as PostHog has (or will have) it, unknowns kept: what a Listing follows
        after = self.view(obj, self.desired_now)
        after.update(self.after_extra)
        result.after = self.planned.known(after)
        result.obj = self.planned.known(self.shape(obj))
        return result

    def _failure(self, failure):
        """A failure after a write says so: ``changed`` and the object as it stands."""
        if any(a.done for a in self.actions):
            failure.extra["changed"] = True
            if self.return_key and self.return_key not in failure.extra and self.applied:
                failure.extra[self.return_key] = self.shape(self.applied)
        return failure

    def _absent(self, result, current):
        result.obj = {}
        if current is None:
            return
        result.before = self.view(current, self.desired())
        self.write("deleted", **self.delete_request(current))

    def _present(self, result, current):
        desired = self.desired_now = self.desired()
        created = current is None
        if created:
            why = self.missing()
            if why:
                failure = Failure(why)
                failure.missing = True  # the object does not exist and cannot be created (a caller may skip it)
                raise failure
            self._create(result, desired)
        else:
            frozen = sorted(set(self.changes(current, desired)) & set(self.frozen))
            if frozen:
                raise Failure("%s: %s cannot be changed after creation (PostHog keeps the first value); "
                              "delete and recreate the object to change it" % (self.identity(), ", ".join(frozen)))
            result.obj = current
            result.before = self.view(current, desired)
        self._run_steps(result, created)
        self.predicted = result.obj
        self.after_extra = dict(result.after)
        self.finish()

    def _create(self, result, desired):
        payload = self.create_payload(desired)
        predicted = self.predict_create(payload)
        action = self.write("created", creates=True, **self.create_request(self.api_body(payload)))
        if isinstance(predicted, dict):
            predicted["id"] = self.planned.unknown(action, "id")
        result.obj = predicted

    def _run_steps(self, result, created):
        for step in self.steps:
            if created and isinstance(step, Update) and not self.update_after_create:
                continue
            plan = step.plan(self, result)
            if not plan:
                continue
            verb = step.describe(plan)
            for request in step.requests(self, result, plan) or []:
                request = dict(request)
                action = self.write(request.pop("verb", verb), step=step, write=step.changes, **request)
                action.decision = plan
            result.obj = step.predict(self, result, plan)


def _copy(obj):
    """A deep copy of a JSON object (a JSON round trip: several times cheaper than copy.deepcopy)."""
    try:
        return json.loads(json.dumps(obj))
    except (TypeError, ValueError):
        return copy.deepcopy(obj)


class Listing:
    """The objects of the collections the items of a list read, each read once and kept in step
    with what each item's :meth:`Resource.converge` returned. Only look-ups are served from it: a
    GET by id, every write and every re-read while recovering a lost answer go to the server.

    Items may live in different collections (batch exports of several projects): each collection
    is one entry, keyed by :meth:`Resource.listing_key`. Each entry is kept by id, and indexed by a
    look-up's folded value when an item first looks up by it, so converging N items costs O(N),
    not O(N^2): nothing copies or scans the whole collection per item.
    """

    def __init__(self, objects=None, key=None, predict=False):
        self.predict = predict  # check mode's plan: follow what the items would do, not only what they did
        self._collections = {}  # key -> {position key: object}, in the server's order
        self._indexes = {}      # (key, option) -> (resource that reads it, {folded value: [objects]})
        self._serial = 0
        if objects is not None:  # known already (an object the task has just converged): no read
            self._store(key, copy.deepcopy(objects))
        self.reads = 0

    def _slot(self, obj):
        if isinstance(obj, dict) and obj.get("id") is not None:
            return "id:%s" % obj["id"]
        self._serial += 1
        return "new:%d" % self._serial

    def seed(self, key, objects):
        """Know the collection ``key`` holds ``objects`` without reading it (what a parent the plan creates
        comes with: a new organization's first project)."""
        self._store(key, copy.deepcopy(objects))

    def _store(self, key, objects):
        self._collections[key] = dict((self._slot(obj), obj) for obj in objects)
        self._indexes = dict((k, v) for k, v in self._indexes.items() if k[0] != key)

    def _load(self, resource):
        """The kept objects of ``resource``'s collection (read once); never a copy."""
        key = resource.listing_key()
        if self._collections.get(key) is not None:
            return self._collections[key]  # read, or known already (what a parent the plan creates comes with)
        if getattr(getattr(resource, "task", None), "missing_parent", None) or UNKNOWN in key:
            self._store(key, [])  # the parent would be created (by an earlier task, or the plan): empty yet
            return self._collections[key]
        if self._collections.get(key) is None:
            self._store(key, [obj for obj in resource.candidates(None, None) if resource.manageable(obj)])
            self.reads += 1
        return self._collections[key]

    def objects(self, resource):
        """Every object of ``resource``'s collection, as kept (callers must not change them)."""
        kept = self._load(resource)
        return list(kept.values()) if kept else []

    def matches(self, resource, option, value):
        """``(candidates, sample)``: copies of the objects whose ``option`` folds like ``value``
        (a superset of the matches: :meth:`Resource.equal` decides), and a few objects of the
        collection for hooks that look at what PostHog's objects are like."""
        kept = self._load(resource)
        if not kept:
            return [], []
        try:
            wanted = fold(resource.lookup_value(option, value))
        except Exception:  # a value the hook cannot normalise: no index, every object is a candidate
            wanted = None
        if wanted is None:
            found = [_copy(obj) for obj in kept.values()]
            return found, found
        index_key = (resource.listing_key(), option)
        if index_key not in self._indexes:
            index = {}
            for obj in kept.values():
                index.setdefault(self._key(resource, obj, option), []).append(obj)
            self._indexes[index_key] = (resource, index)
        found = [_copy(obj) for obj in self._indexes[index_key][1].get(wanted, []) +
                 self._indexes[index_key][1].get(None, [])]
        # what hooks see of the collection (a domain's SAML fields tell the API's generation): the
        # matches, else one object of it
        return found, found or [_copy(next(iter(kept.values())))]

    @staticmethod
    def _key(resource, obj, option):
        try:
            return fold(resource.read(obj, option))
        except Exception:
            return None  # unreadable: offered to every probe, equal() decides

    def collection(self, key=None):
        """The objects kept for ``key`` (None when not read, or dropped to be read again)."""
        kept = self._collections.get(key)
        return None if kept is None else list(kept.values())

    def _unindex(self, key, obj):
        for (k, option), (resource, index) in self._indexes.items():
            if k == key:
                bucket = index.get(self._key(resource, obj, option), [])
                if obj in bucket:
                    bucket.remove(obj)

    def _reindex(self, key, obj):
        for (k, option), (resource, index) in self._indexes.items():
            if k == key:
                index.setdefault(self._key(resource, obj, option), []).append(obj)

    def follow(self, before, result, key=None):
        """Keep the listing of ``key`` true after an item: ``before`` is the object it found (or None)."""
        kept = self._collections.get(key)
        if kept is None or not (result.written or (self.predict and result.changed)):
            return
        obj = result.raw if result.raw is not None else result.obj
        slot = "id:%s" % before["id"] if before and before.get("id") is not None else None
        old = kept.get(slot) if slot else None
        if old is not None:
            self._unindex(key, old)
        if "deleted" in result.actions:
            kept.pop(slot, None)
        elif isinstance(obj, dict) and obj.get("id") is not None:
            new_slot = "id:%s" % obj["id"]
            if slot and slot != new_slot:
                kept.pop(slot, None)
            stored = copy.deepcopy(obj)
            kept[new_slot] = stored
            self._reindex(key, stored)
        elif self.predict and isinstance(obj, dict) and "created" in result.actions:
            stored = copy.deepcopy(obj)  # a prediction has no id yet
            kept[self._slot(stored)] = stored
            self._reindex(key, stored)
        else:
            self._collections[key] = None  # an answer it cannot follow: read again
            self._indexes = dict((k, v) for k, v in self._indexes.items() if k[0] != key)


class Planner:
    """A set of objects decided together (the invites of a task, a roster).

    ``decide()`` reads (GETs only) and returns its decisions; ``requests(decisions)`` the writes
    that carry them out (dicts of an action's ``verb``, ``method``, ``path``, ``body``, ``label``:
    the person); ``report(decisions)`` gives the return values and ``diff(decisions)`` the
    ``(before, after)`` pair. The flow (the plan, check mode, what was applied before a failure) is
    the engine's.
    """

    return_key = None
    progress_kinds = ()             # the verbs a failure's result lists what was done under (empty lists too)

    def __init__(self, task, params):
        self.task = task
        self.client = task.client
        self.params = params
        self.actions = []
        self.planned = None
        self.decisions = None
        self.result = None

    @staticmethod
    def validate_task(params):
        """hook: problems with the task's options, found without any request."""
        return []

    def validate(self):
        """hook: problems found without any request."""
        return []

    def problems(self):
        return list(self.validate())

    def decide(self):
        """hook: read and decide; returns the decisions."""
        raise NotImplementedError

    def requests(self, decisions):
        """hook: the writes that carry ``decisions`` out, in order."""
        raise NotImplementedError

    def absorb(self, action, answer):
        """hook: check the answer to ``action`` (raise a Failure when it is not what was asked for);
        what later actions may read of it."""
        return answer

    def recovery(self, action, path, body):
        """hook: for a POST whose answer may be lost, a callable re-reading PostHog (see
        :meth:`Resource.recovery`), or None."""
        return None

    def context_of(self, action):
        return action.note or "%s %s" % (GERUNDS.get(action.verb, action.verb), action.label)

    def report(self, decisions):
        raise NotImplementedError

    def diff(self, decisions):
        return {}, {}

    def explain(self, error):
        """hook: add what a person can do to a PostHogError from a write; returns it."""
        return error

    def plan(self, plan):
        """Decide (reads only) and put the writes into ``plan``; returns the Result as planned."""
        self.planned = self.task.plan = plan
        self.actions = []
        try:
            self.decisions = self.decide()
        except PostHogError as exc:
            raise Failure.of(self.explain(exc))
        result = self.result = Result(None)
        for request in self.requests(self.decisions):
            request = dict(request)
            action = Action(request.pop("verb"), request.pop("method"), request.pop("path"), request.pop("body", None),
                            owner=self, **request)
            plan.add(action)
            self.actions.append(action)
            result.did(action.verb, False)
        self.finish()
        return result

    def finish(self):
        self.result.extra = self.report(self.decisions)
        self.result.before, self.result.after = self.diff(self.decisions)
        return self.result

    def converge(self):
        plan = Plan()
        result = self.plan(plan)
        if result.changed and not self.task.check_mode:
            try:
                execute(self.client, plan)
            except Stopped as stopped:
                done = summary(stopped.done)
                if done:
                    stopped.msg = "%s%s Applied before this failure: %s." % (
                        stopped.msg.rstrip(), "" if stopped.msg.rstrip().endswith(".") else ".", done)
                for kind in self.progress_kinds:
                    stopped.extra.setdefault(kind, [])
                for action in stopped.done:  # what was done, by verb: invited, removed...
                    stopped.extra.setdefault(action.verb, []).extend(action.items or [action.label])
                stopped.extra["changed"] = bool(stopped.done)
                raise stopped
            self.finish()
        return result


def summary(actions):
    """What ``actions`` did, by verb: ``invited a@x, b@y; removed c@z``."""
    verbs = []
    for action in actions:
        if action.verb not in [v for v, dummy in verbs]:
            verbs.append((action.verb, []))
        labels = dict(verbs)[action.verb]
        if action.label not in labels:
            labels.append(action.label)
    return "; ".join("%s %s" % (verb, ", ".join(labels)) for verb, labels in verbs)


def converge_many(list_option, resources, labels):
    """Plan each resource of a list in order, over one :class:`Listing` (following what each item
    would do), then (a real run) apply the whole plan; returns a Result whose ``obj`` is the list of
    objects and whose diff is a list, one entry per changed item.

    ``labels`` name the items (``batch_exports[1] (batch export 'x')``). When one fails, the task
    fails naming it, with what the items before it changed and their objects.
    """
    plan = Plan()
    combined = Result(None)
    check_mode = resources[0].task.check_mode if resources else True
    planned = []
    for index, (resource, label) in enumerate(zip(resources, labels)):
        try:
            result = resource.plan(plan)
        except Failure as failure:
            raise _item_failure(failure, label, resource, [], planned)
        if resource.listing is not None:
            resource.listing.follow(resource.found, result, resource.listing_key())
        planned.append((resource, label))
    if not check_mode and plan.actions:
        try:
            execute(resources[0].client, plan)
        except Stopped as stopped:
            owner = stopped.action.owner
            failed = [i for i, (r, dummy) in enumerate(planned) if r is owner][0]
            for resource, dummy in planned[:failed]:
                resource.finish()
            raise _item_failure(owner._failure(stopped), labels[failed], owner, planned[:failed], planned)
    objects, diffs = [], []
    for resource, label in planned:
        result = resource.finish()
        combined.changed = combined.changed or result.changed
        objects.append(result.obj)
        if result.changed and (result.before or result.after):
            diffs.append(dict(before=result.before, after=result.after, before_header=label, after_header=label))
    combined.extra[list_option] = objects
    combined.diffs = diffs
    return combined


def _item_failure(failure, label, resource, before, planned):
    """The list's failure at the item ``label``: what the items ``before`` it did (applied)."""
    extra = dict(failure.extra)
    extra.pop(resource.return_key, None)
    changed = any(r.result.written for r, dummy in before)
    detail = ""
    if before:
        detail = "%s %d item(s) were converged (%s)" % (
            " Before it," if failure.msg.endswith(".") else "; before it,", len(before),
            "changed" if changed else "nothing changed")
    extra["changed"] = changed or bool(extra.get("changed"))
    extra[resource.list_option or "items"] = [r.result.obj for r, dummy in before]
    diffs = [dict(before=r.result.before, after=r.result.after, before_header=lbl, after_header=lbl)
             for r, lbl in before if r.result.changed and (r.result.before or r.result.after)]
    if diffs:
        extra["diff"] = diffs
    return Failure("%s: %s%s" % (label, failure.msg or "failed", detail), **extra)
