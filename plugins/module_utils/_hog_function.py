# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Hog functions of a project (destinations, transformations, site apps: the successor of pipeline
plugins), described for the engine behind ``posthog.admin.hog_function``, and the read behind
``posthog.admin.hog_function_info``.

PostHog's rules, as ``products/cdp/backend/api/hog_function.py`` and ``posthog/cdp/validation.py``
have them:

* ``type`` and ``template_id`` are kept from creation (``frozen``); ``template_id`` is write-only
  and reads back as ``template.id``.
* DELETE answers 405: a function is deleted with ``PATCH {"deleted": true}`` (:meth:`delete`).
* An input whose schema item is ``secret`` reads back as ``{"secret": true}``: its value is never
  compared or shown. Secrets are sent on create, when one is not stored yet, or every run with
  ``update_secrets: always``; an update that leaves a secret out keeps the stored one.
* PostHog keeps only the inputs its schema has (others are silently dropped), so inputs outside the
  schema (the task's ``inputs_schema``, else the function's, else its template's) are refused
  before any write, naming the schema's keys. ``inputs`` replaces the whole set on update, so the
  update sends the stored non-secret inputs with the changed ones.
* PostHog adds compiled ``bytecode``/``transpiled`` to filters, masking and inputs: never compared.
* PostHog stores ``filters`` with ``source`` (``"events"`` when the request leaves it out): the
  task's filters are compared and sent as PostHog stores them (:func:`stored_filters`).
* An update carries ``base_updated_at`` (the ``updated_at`` this task read): PostHog's newest code
  answers 409 when someone changed the function in between, explained by :meth:`explain`.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._common import UUID_RE, list_or_get, project_id_of
from ansible_collections.posthog.admin.plugins.module_utils._resource import (
    SECRET_MASK,
    Failure,
    Field,
    Resource,
    Scope,
    Update,
    name_problem,
    options_of,
)
from ansible_collections.posthog.admin.plugins.module_utils._section import Section, options_from

TYPES = ("destination", "site_destination", "internal_destination", "source_webhook", "site_app", "transformation",
         "transformation_log")
MAPPING_TYPES = ("destination", "site_destination")
COMPILED = ("bytecode", "bytecode_error", "transpiled")
ITEM_OPTIONS = ("state", "id", "name", "type", "template_id", "description", "icon_url", "enabled", "hog",
                "inputs_schema", "inputs", "secret_inputs", "update_secrets", "filters", "masking", "mappings",
                "execution_order")
MSG_NO_ROUTE = ("this PostHog serves no hog functions API (older PostHog): %s answered 404. Hog functions are in "
                "PostHog since 2024; on an older version manage pipeline plugins with posthog.admin.pipeline_plugin")
MSG_STALE = ("%s was changed in PostHog after this task read it (PostHog compares base_updated_at with the "
             "function's updated_at and answered 409); nothing was written. Run the task again to apply it to the "
             "current function.")

INFO_ARGUMENT_SPEC = dict(
    id=dict(type="str"),
    name=dict(type="str"),
    type=dict(type="list", elements="str", choices=list(TYPES)),
    templates=dict(type="bool", default=False),
    template_id=dict(type="str"),
)


def strip_compiled(value, drop=COMPILED):
    """``value`` without what PostHog compiles server-side (at any depth)."""
    if isinstance(value, dict):
        return dict((k, strip_compiled(v, drop)) for k, v in value.items() if k not in drop)
    if isinstance(value, list):
        return [strip_compiled(v, drop) for v in value]
    return value


def is_marker(item):
    """Whether an input as read back is the secret marker ``{"secret": true}``."""
    return isinstance(item, dict) and item.get("secret") is True and "value" not in item


def secret_keys(obj, *schemas):
    """The keys of ``obj``'s inputs that are secret, whatever shape the answer gives their values: those
    its inputs schema or its template's marks ``secret`` (PostHog answers the function with its
    ``template``, whose schema the function was made from), those of ``schemas`` (the task's), and any
    read back as the marker. A server answering a secret as ``{"value": ...}`` does not make it public."""
    obj = obj if isinstance(obj, dict) else {}
    template = obj.get("template") if isinstance(obj.get("template"), dict) else {}
    keys = set()
    for schema in (obj.get("inputs_schema"), template.get("inputs_schema")) + schemas:
        for item in schema if isinstance(schema, list) else []:
            if isinstance(item, dict) and item.get("secret") and item.get("key") is not None:
                keys.add(str(item["key"]))
    inputs = obj.get("inputs") if isinstance(obj.get("inputs"), dict) else {}
    keys.update(key for key, item in inputs.items() if is_marker(item))
    return keys


def public_inputs(obj, secret=None):
    """The non-secret inputs of a function as ``{key: {"value": ..., "templating"?: ...}}``: never an
    input :func:`secret_keys` (or ``secret``, the caller's wider set) calls secret."""
    secret = secret_keys(obj) if secret is None else secret
    inputs = (obj or {}).get("inputs") if isinstance((obj or {}).get("inputs"), dict) else {}
    found = {}
    for key, item in inputs.items():
        if isinstance(item, dict) and not is_marker(item) and key not in secret:
            found[key] = dict((k, copy.deepcopy(v)) for k, v in item.items() if k in ("value", "templating"))
    return found


def stored_secrets(obj, secret=None):
    """The keys of the secret inputs a function has a value for (read back as markers, or echoed)."""
    secret = secret_keys(obj) if secret is None else secret
    inputs = (obj or {}).get("inputs") if isinstance((obj or {}).get("inputs"), dict) else {}
    return sorted(key for key, item in inputs.items() if key in secret and (
        is_marker(item) or (isinstance(item, dict) and item.get("value") not in (None, ""))))


def wrap(values):
    """Input values as PostHog takes them: ``{key: {"value": value}}``."""
    return dict((key, {"value": copy.deepcopy(value)}) for key, value in (values or {}).items())


def schema_problems(schema, inputs, secrets, creating):
    """What is wrong with ``inputs``/``secret_inputs`` against an inputs schema (a list of sentences)."""
    items = dict((str(i.get("key")), i) for i in schema or [] if isinstance(i, dict) and i.get("key") is not None)
    keys = ", ".join(sorted(items)) or "none"
    problems = []
    unknown = sorted(k for k in list(inputs) + list(secrets) if k not in items)
    if unknown:
        problems.append("input(s) %s are not in the function's inputs schema (its keys: %s); PostHog silently "
                        "drops inputs its schema does not have%s" % (
                            ", ".join(unknown), keys, "" if items else " (give inputs_schema, or template_id)"))
    secret_in_inputs = sorted(k for k in inputs if items.get(k, {}).get("secret"))
    if secret_in_inputs:
        problems.append("input(s) %s are secret in the schema: give them in secret_inputs (never shown, never "
                        "compared)" % ", ".join(secret_in_inputs))
    plain_in_secrets = sorted(k for k in secrets if k in items and not items[k].get("secret"))
    if plain_in_secrets:
        problems.append("secret_inputs %s are not secret in the schema, so PostHog would return them in plain "
                        "text: give them in inputs" % ", ".join(plain_in_secrets))
    if creating:
        required = sorted(k for k, item in items.items() if item.get("required") and item.get("default") is None
                          and k not in inputs and k not in secrets)
        if required:
            problems.append("required input(s) %s have no value and no default in the schema; give them in %s"
                            % (", ".join(required), "inputs or secret_inputs"))
    return problems


def stored_filters(filters):
    """``filters`` as PostHog stores them: its filters serializer gives ``source`` the default
    ``"events"`` when it is left out (``posthog/cdp/validation.py``, ``HogFunctionFiltersSerializer``)."""
    return dict({"source": "events"}, **filters)


def template_of(obj):
    """The template a function was made from: write-only ``template_id``, read back as ``template.id``."""
    return (obj.get("template") or {}).get("id") or obj.get("template_id")


def same_text(wanted, current):
    """PostHog answers an empty text as null or ``""`` alike."""
    return (wanted or "") == (current or "")


def input_values(inputs):
    """Inputs as the task writes them (``{key: value}``) from ``{key: {"value": value}}``."""
    return dict((key, item.get("value")) for key, item in sorted(inputs.items()))


def secrets_stored(wanted, current):
    """Whether PostHog has a value for each secret input the task gives (it never answers one)."""
    return all(key in (current or []) for key in wanted)


#: What a function is, each field described once: the module's options, what the engine sends and
#: compares, and what organization_state_info exports (in this order) come from here.
FIELDS = (
    Field("name", export=False),  # organization_state_info writes it first
    Field("type", option=dict(choices=list(TYPES)), frozen=True),
    Field("template_id", frozen=True, locate=lambda obj, resource: template_of(obj)),
    Field("description", compare=same_text),
    Field("icon_url"),
    Field("enabled", "bool"),
    Field("hog"),
    Field("inputs_schema", "list", elements="dict"),  # not exported with a template: the template's
    # PostHog replaces the inputs as a whole: update_payload sends the stored non-secret ones too
    Field("inputs", "dict", to_api=wrap, to_user=input_values,
          locate=lambda obj, resource: public_inputs(obj, resource.secret_keys(obj))),
    Field("filters", "dict", to_api=stored_filters, from_api=strip_compiled),
    Field("masking", "dict", from_api=strip_compiled),
    Field("mappings", "list", elements="dict",
          from_api=lambda mappings: strip_compiled(mappings, COMPILED + ("order",))),
    Field("execution_order", "int"),
    # never answered: compared by whether PostHog has one (and always sent with update_secrets: always)
    Field("secret_inputs", "dict", secret=True, compare=secrets_stored,
          locate=lambda obj, resource: stored_secrets(obj, resource.secret_keys(obj))),
)

ARGUMENT_SPEC = dict(
    state=dict(type="str", default="present", choices=["present", "absent"]),
    id=dict(type="str"),
    update_secrets=dict(type="str", default="on_create", choices=["on_create", "always"], no_log=False),
)
ARGUMENT_SPEC.update(options_of(FIELDS))


class HogUpdate(Update):
    """The update, where a 409 may be this task's own earlier attempt (a retried PATCH whose first
    answer was lost): re-read, and when the function already is as wanted, the update is done."""

    def perform(self, resource, action, send):
        try:
            return send()
        except PostHogError as exc:
            if exc.status != 409:
                raise
            try:
                fresh = resource.client.get_or_none(resource.planned.resolve(action.path),
                                                    context="re-reading %s after HTTP 409" % resource.identity())
            except PostHogError:
                raise exc
            desired = resource.desired()
            secrets = desired.pop("secret_inputs", None) or {}
            if fresh is None or resource.changes(fresh, desired):
                raise exc
            if any(k not in stored_secrets(fresh, resource.secret_keys(fresh)) for k in secrets):
                raise exc
            return fresh


HOG_UPDATE = HogUpdate()


class HogFunction(Resource):
    """A hog function of a project, found by id or by exact name among the project's functions."""

    kind = "hog function"
    return_key = "hog_function"
    SCOPE = Scope("project", "hog_functions")
    list_option = "hog_functions"
    item_options = ITEM_OPTIONS
    named_by = "name or id"
    folded = ("id",)  # a UUID, in any case
    FIELDS = FIELDS
    steps = (HOG_UPDATE,)

    def __init__(self, task, params, listing=None):
        super(HogFunction, self).__init__(task, params, listing)
        self.sent_secrets = False  # whether this run sends the secret inputs (then the diff shows them, masked)

    def identity(self):
        option, value = self.lookup()
        if option == "id":
            return "hog function with id %s in project %s" % (value, project_id_of(self.params))
        if option == "name":
            return "hog function %r in project %s" % (value, project_id_of(self.params))
        return super(HogFunction, self).identity()

    def label(self):
        return super(HogFunction, self).identity()

    def secret_keys(self, obj):
        """The inputs of ``obj`` that are secret: by its schema or its template's (:func:`secret_keys`), the
        task's ``inputs_schema``, the task's ``secret_inputs``, and the template this task read."""
        params = self.params or {}
        task = getattr(self, "task", None)
        template = (task.cache.get("hog_function_templates") or {}).get(params.get("template_id")) \
            if task is not None and params.get("template_id") else None
        keys = secret_keys(obj, params.get("inputs_schema"), (template or {}).get("inputs_schema"))
        keys.update(params.get("secret_inputs") or {})
        return keys

    def validate(self):
        params = self.params
        problems = []
        problem = name_problem(params, 400)
        if problem:
            problems.append(problem)
        if params.get("id") is not None:
            params["id"] = params["id"].strip()
            if not UUID_RE.match(params["id"]):
                problems.append("id must be a hog function's UUID, got %r" % params["id"])
        both = sorted(set(params.get("inputs") or {}) & set(params.get("secret_inputs") or {}))
        if both:
            problems.append("input(s) %s are given in both inputs and secret_inputs" % ", ".join(both))
        masking = params.get("masking")
        if masking is not None:
            ttl = masking.get("ttl")
            if not isinstance(ttl, int) or isinstance(ttl, bool) or not 60 <= ttl <= 86400:
                problems.append("masking.ttl must be a number of seconds from 60 to 86400, got %r" % (ttl,))
            if not masking.get("hash"):
                problems.append("masking.hash is required (a Hog expression, for example '{person.id}')")
        if params.get("mappings") is not None and params.get("type") not in (None,) + MAPPING_TYPES:
            problems.append("mappings are only for destinations (type destination or site_destination); PostHog "
                            "refuses them for %s" % params["type"])
        if params.get("execution_order") is not None and params["execution_order"] < 0:
            problems.append("execution_order must be 0 or more")
        for index, item in enumerate(params.get("inputs_schema") or []):
            if not item.get("key"):
                problems.append("inputs_schema[%d] needs a key" % index)
        return problems

    # --------------------------------------------------------------- finding
    def list_query(self, option=None):
        # full=true: the whole function (inputs, schema, mappings) in one read; every type named, since
        # PostHog's 2025 code listed destinations only when no type was given.
        return {"full": "true", "type": ",".join(TYPES)}

    def assumed(self, current):
        """Check mode of a play: the function does not exist, and these options alone could not create it
        (no template_id, no hog), so an earlier task of the play must be about to (check mode only
        predicted it). Warned, and predicted as a change; a real run fails if the function is still missing."""
        if current is not None or not self.task.assumes_earlier_tasks or self.params.get("hog") or \
                self.params.get("template_id") or (self.params.get("state") or "present") == "absent":
            return False
        self.task.warn("%s does not exist yet; check mode assumes an earlier task creates it, so this task's "
                       "inputs are not checked against its schema (a real run fails if it still does not exist)"
                       % self.identity())
        return True

    def missing(self):
        missing = super(HogFunction, self).missing()
        if missing:
            return missing
        if not self.params.get("hog") and not self.params.get("template_id") and not self.assumed(None):
            return "%s does not exist; to create it, give template_id or hog" % self.identity()
        return None

    def guard(self, current):
        if (self.params.get("state") or "present") == "absent" or self.assumed(current):
            return
        if current is None and not self.params.get("hog") and not self.params.get("template_id"):
            return  # it cannot be created: missing() says so, more plainly than the inputs schema could
        inputs = self.params.get("inputs") or {}
        secrets = self.params.get("secret_inputs") or {}
        if not inputs and not secrets:
            return
        problems = schema_problems(self.schema(current), inputs, secrets, current is None)
        if problems:
            raise Failure("%s: %s" % (self.identity(), "; ".join(problems)))

    def schema(self, current):
        """The inputs schema the function has or will have: the task's, else the function's, else its template's."""
        if self.params.get("inputs_schema") is not None:
            return self.params["inputs_schema"]
        if current is not None:
            return current.get("inputs_schema") or []
        template_id = self.params.get("template_id")
        if not template_id:
            return []
        return (read_template(self.task, template_id) or {}).get("inputs_schema") or []

    # ------------------------------------------------------------- comparing

    def equal(self, field, wanted, current):
        if field == "secret_inputs" and self.params.get("update_secrets") == "always":
            return False  # a task option, not the values, decides: no Field compare can say it
        return super(HogFunction, self).equal(field, wanted, current)

    def shape(self, obj):
        """The function as returned: an echoed value of a secret input masked, as hog_function_info does."""
        return masked_secrets(super(HogFunction, self).shape(obj), self.secret_keys(obj))

    def view(self, obj, desired):
        if obj is None:
            return {}
        shown = dict((k, v) for k, v in desired.items() if k != "secret_inputs")
        view = super(HogFunction, self).view(obj, shown)
        if "secret_inputs" in desired:
            stored = stored_secrets(obj, self.secret_keys(obj))
            view["secret_inputs"] = dict((k, SECRET_MASK) for k in sorted(desired["secret_inputs"])
                                         if k in stored or self.sent_secrets)
        return view

    # --------------------------------------------------------------- writing
    def create_payload(self, desired):
        payload = dict((k, v) for k, v in desired.items() if k != "secret_inputs")
        secrets = self.params.get("secret_inputs") or {}
        if secrets:
            payload["inputs"] = dict(payload.get("inputs") or {}, **wrap(secrets))
            self.sent_secrets = True
        return payload

    def predict_create(self, payload):
        obj = copy.deepcopy(payload)
        obj["inputs"] = dict((k, {"secret": True} if k in (self.params.get("secret_inputs") or {}) else v)
                             for k, v in (obj.get("inputs") or {}).items())
        template_id = obj.pop("template_id", None)
        obj["template"] = {"id": template_id} if template_id else None
        obj.setdefault("type", "destination")
        obj.setdefault("enabled", False)
        return obj

    def update_payload(self, current, changes):
        payload = dict((k, v) for k, v in changes.items() if k not in ("inputs", "secret_inputs"))
        if "inputs" in changes or "secret_inputs" in changes:
            # PostHog replaces the inputs as a whole: send the stored non-secret ones with the changes.
            # Secrets left out keep their stored value.
            inputs = public_inputs(current, self.secret_keys(current))
            inputs.update(wrap(self.params.get("inputs")))
            if "secret_inputs" in changes:
                inputs.update(wrap(self.params.get("secret_inputs")))
                self.sent_secrets = True
            payload["inputs"] = inputs
        if current.get("updated_at"):
            payload["base_updated_at"] = current["updated_at"]
        return payload

    def predict_update(self, current, changes):
        after = copy.deepcopy(current)
        payload = self.update_payload(current, changes)
        payload.pop("base_updated_at", None)
        if "inputs" in payload:
            secrets = set(stored_secrets(current, self.secret_keys(current)))
            secrets.update(self.params.get("secret_inputs") or {})
            inputs = dict((k, v) for k, v in payload.pop("inputs").items() if k not in secrets)
            inputs.update(dict((k, {"secret": True}) for k in secrets))
            after["inputs"] = inputs
        after.update(payload)
        return after

    def delete_request(self, current):
        """PostHog refuses DELETE (405): a hog function is deleted with PATCH ``{"deleted": true}``."""
        return dict(method="PATCH", path=self.path_of(current), body={"deleted": True})

    def explain(self, error):
        if error.status == 409:
            error.reword(MSG_STALE % self.identity())
        elif error.status == 404 and (error.path or "").split("?")[0].rstrip("/").endswith("/hog_functions"):
            error.reword("%s: %s" % (self.identity(), MSG_NO_ROUTE % error.path.split("?")[0]))
        return error


#: The project's hog function templates (PostHog's, read only).
TEMPLATES = Scope("project", "hog_function_templates")


def read_template(task, template_id):
    """A template of the project's PostHog (one GET, remembered for the task), or a Failure."""
    templates = task.cache.setdefault("hog_function_templates", {})
    if template_id not in templates:
        path = "%s%s/" % (TEMPLATES.path(task, task.params), template_id)
        found = task.client.get_or_none(path, context="reading hog function template %s" % template_id)
        if found is None:
            raise Failure("no hog function template %r in this PostHog (%s answered 404); list the templates with "
                          "posthog.admin.hog_function_info and templates: true" % (template_id, path))
        templates[template_id] = found
    return templates[template_id]


ROUTE_GONE = "Endpoint not found."  # PostHog's catch-all 404: it routes no such path


def _listed(task, path, *args, **kwargs):
    """list_or_get, a PostHog without the route (older than hog functions) explained, as the module's
    own tasks explain it."""
    try:
        return list_or_get(task, path, *args, **kwargs)
    except PostHogError as exc:
        if exc.status == 404 and (exc.detail or "") == ROUTE_GONE:
            raise Failure.of(exc.reword(MSG_NO_ROUTE % path))
        raise


def read_hog_functions(task, params):
    """hog_function_info: the project's hog functions (or one), or its templates."""
    if params.get("templates") or params.get("template_id"):
        path = TEMPLATES.path(task, params)
        query = {"types": ",".join(params.get("type") or TYPES)}
        found = _listed(task, path, params.get("template_id"), params=query, what="hog function template")
        if params.get("name"):
            found = [t for t in found if t.get("name") == params["name"]]
        return dict(templates=found)
    if params.get("id") is not None and not UUID_RE.match(params["id"].strip()):
        raise Failure("id must be a hog function's UUID, got %r" % params["id"])
    path = HogFunction.SCOPE.path(task, params)
    query = {"full": "true", "type": ",".join(params.get("type") or TYPES)}
    functions = _listed(task, path, params.get("id"), params=query, what="hog function",
                        filters=dict(name=params.get("name")))
    if params.get("id") and params.get("type"):
        functions = [f for f in functions if f.get("type") in params["type"]]
    return dict(hog_functions=[masked_secrets(f) for f in functions])


def masked_secrets(obj, secret=None):
    """A function as read, any value of an input that is secret (:func:`secret_keys`, or ``secret``) masked
    (PostHog answers the marker ``{"secret": true}`` alone; a server that echoed a value would not have it
    printed), and ``encrypted_inputs`` too."""
    if not isinstance(obj, dict):
        return obj
    secret = secret_keys(obj) if secret is None else secret
    inputs = obj.get("inputs") if isinstance(obj.get("inputs"), dict) else {}
    echoed = [k for k in secret if k in inputs and not is_marker(inputs[k])]
    if not echoed and not obj.get("encrypted_inputs"):
        return obj
    obj = dict(obj, inputs=dict(inputs))
    for key in echoed:
        item = inputs[key]
        obj["inputs"][key] = dict(item, value=SECRET_MASK) if isinstance(item, dict) and "value" in item else SECRET_MASK
    if obj.get("encrypted_inputs"):
        obj["encrypted_inputs"] = SECRET_MASK
    return obj


# ---------------------------------------------------------------------------------- exporting
def export_item(ctx, obj):
    item = dict(name=obj.get("name"))
    item.update(HogFunction.reader().export(obj))
    if item.get("template_id"):
        item.pop("inputs_schema", None)  # the template's: a function made from a template takes its schema from it
    secrets = stored_secrets(obj)
    if secrets:
        ctx.comment("hog_functions", obj.get("name"), (
            "secret_inputs %s are set; PostHog never returns them, so they are left out: they are only needed to "
            "create this function again (add them from your vault; update_secrets: always rotates them)"
            % ", ".join(secrets)))
    return item


def export_items(ctx):
    """organization_state_info: every project's hog functions (not the deleted ones); the items of the
    first project (the document's default) carry no project_id. None where PostHog has no hog functions."""
    items = []
    for project_id in ctx.project_ids:
        found = ctx.quietly("hog functions of project %s" % project_id, lambda pid=project_id: ctx.client.list_all(
            HogFunction.SCOPE.path(ctx.task, dict(project_id=pid)), params=HogFunction.reader().list_query(),
            context="listing hog functions of project %s" % pid))
        if found is None:
            return None
        for obj in found:
            if isinstance(obj, dict) and not obj.get("deleted"):
                item = export_item(ctx, obj)
                if project_id != ctx.project_ids[0]:
                    item["project_id"] = str(project_id)
                items.append(item)
    return items


# ---------------------------------------------------------------------------------- the document
SECTION = Section(
    "hog_functions", HogFunction, options_from(ARGUMENT_SPEC, ITEM_OPTIONS + ("project_id",),
                                               project_id=dict(type="str")),
    "hog function", required_one_of=[("name", "id")], refers=(("project_id", "projects"),), export=export_items,
    comment="Hog functions - destinations, transformations, site apps - of every project "
            "(posthog.admin.hog_function). Secret inputs are never returned: see the notes.")
