"""Hog functions: PostHog's rules as plain functions (no HTTP).

Read in PostHog's code (``products/cdp/backend/api/hog_function.py``, ``posthog/cdp/validation.py``,
``posthog/cdp/templates/*/template_*.py``):

* the types (``HogFunctionType``); ``warehouse_source_webhook`` is refused over the API;
* the template catalogue: a few real templates, with their ids, names and input schemas as
  PostHog ships them (trimmed to what a test needs): ``template-customerio`` (secret ``token``) and
  ``template-sendgrid`` (secret ``api_key``) read in ``posthog/cdp/templates/``, ``template-webhook``
  and the ``template-geoip`` transformation;
* :func:`validate_inputs`: ``InputsSerializer.run_child_validation``: only the keys of the schema
  are kept (others are silently dropped), a secret input sent as the read-back marker
  ``{"secret": true}`` (or with the mask ``********``) or left out keeps the stored value, a marker
  with nothing stored is refused, a required input with a default is filled from it, a required
  input with no value is refused, the mask never reaches storage;
* :func:`represent_inputs`: a secret input that has a value reads back as ``{"secret": true}``;
* the caps on *enabled* transformations per project.
"""

from __future__ import annotations

import copy

from posthog_emulator.rules import RuleError

TYPES = ("destination", "site_destination", "internal_destination", "source_webhook", "warehouse_source_webhook",
         "site_app", "transformation", "transformation_log")
JAVASCRIPT_TYPES = ("site_destination", "site_app")
MAPPING_TYPES = ("destination", "site_destination")
MASKED_SECRET_VALUE = "********"
MAX_HOG_CODE_SIZE_BYTES = 100 * 1024
#: Enabled functions per project and type (transformation: ``MAX_TRANSFORMATIONS_PER_TEAM``).
ENABLED_CAPS = {"transformation": 20, "transformation_log": 5}

MSG_TYPE_CHANGE = "Cannot modify the type of an existing function"
MSG_WAREHOUSE_WEBHOOK = "Cannot create or modify warehouse source webhook functions via this API."
MSG_MAPPINGS = "Mappings are only allowed for destinations."
MSG_NO_SECRET = "No value is saved for this secret input. Enter the value again."
MSG_MASK_PERSISTED = "This secret input was not updated correctly. Enter the value again."
MSG_STALE = ("This function was changed since you read it (base_updated_at is older than its updated_at). "
             "Read it again and retry.")

_FILTERS_BYTECODE = ["_H", 1, 29]  # a stub: PostHog compiles filters to Hog bytecode; clients ignore it


def _template(template_id, name, description, type_, inputs_schema, code, icon, category, filters=None,
              status="stable", free=False):
    return dict(id=template_id, name=name, description=description, code=code, code_language="hog",
                inputs_schema=inputs_schema, type=type_, status=status, category=category, free=free,
                icon_url=icon, filters=filters, masking=None, mapping_templates=None)


#: Real template ids of PostHog (``posthog/cdp/templates/``), schemas trimmed.
TEMPLATES = {t["id"]: t for t in (
    _template(
        "template-customerio", "Customer.io", "Identify or track events against customers in Customer.io",
        "destination",
        [
            {"key": "site_id", "type": "string", "label": "Customer.io site ID", "secret": False, "required": True},
            {"key": "token", "type": "string", "label": "Customer.io API Key", "secret": True, "required": True},
            {"key": "host", "type": "choice", "label": "Customer.io region", "secret": False, "required": True,
             "default": "track.customer.io",
             "choices": [{"label": "US (track.customer.io)", "value": "track.customer.io"},
                         {"label": "EU (track-eu.customer.io)", "value": "track-eu.customer.io"}]},
            {"key": "identifier_key", "type": "choice", "label": "Identifier key", "secret": False, "required": True,
             "default": "email", "choices": [{"label": "Email", "value": "email"}, {"label": "ID", "value": "id"}]},
            {"key": "identifier_value", "type": "string", "label": "Identifier value", "secret": False,
             "required": True, "default": "{person.properties.email}"},
            {"key": "action", "type": "choice", "label": "Action", "secret": False, "required": True,
             "default": "automatic",
             "choices": [{"label": v.title(), "value": v} for v in ("automatic", "identify", "event", "page")]},
            {"key": "include_all_properties", "type": "boolean", "label": "Include all properties as attributes",
             "secret": False, "required": True, "default": False},
            {"key": "attributes", "type": "dictionary", "label": "Attribute mapping", "secret": False,
             "required": False, "default": {"email": "{person.properties.email}"}},
        ],
        "let action := inputs.action\nfetch(f'https://{inputs.host}/api/v2/entity', {'method': 'POST'})",
        "/static/services/customerio.png", ["Email Marketing"],
        filters={"events": [{"id": "$identify", "name": "$identify", "type": "events", "order": 0}],
                 "actions": [], "filter_test_accounts": True},
    ),
    _template(
        "template-sendgrid", "Sendgrid", "Update marketing contacts in Sendgrid", "destination",
        [
            {"key": "api_key", "type": "string", "label": "Sendgrid API Key", "secret": True, "required": True},
            {"key": "email", "type": "string", "label": "Email of the user", "secret": False, "required": True,
             "default": "{person.properties.email}"},
            {"key": "properties", "type": "dictionary", "label": "Property mapping", "secret": False,
             "required": False, "default": {"last_name": "{person.properties.last_name}"}},
        ],
        "let contact := {'email': inputs.email}\nfetch('https://api.sendgrid.com/v3/marketing/contacts', "
        "{'method': 'PUT'})",
        "/static/services/sendgrid.png", ["Email Marketing"], status="beta",
    ),
    _template(
        "template-webhook", "HTTP Webhook", "Sends a webhook templated by the incoming event data", "destination",
        [
            {"key": "url", "type": "string", "label": "Webhook URL", "secret": False, "required": True},
            {"key": "method", "type": "choice", "label": "Method", "secret": False, "required": False,
             "default": "POST", "choices": [{"label": m, "value": m} for m in ("POST", "PUT", "PATCH", "GET")]},
            {"key": "body", "type": "json", "label": "JSON Body", "secret": False, "required": False,
             "default": {"event": "{event}", "person": "{person}"}},
            {"key": "headers", "type": "dictionary", "label": "Headers", "secret": False, "required": False,
             "default": {"Content-Type": "application/json"}},
        ],
        "let res := fetch(inputs.url, {'headers': inputs.headers, 'body': inputs.body, 'method': inputs.method})",
        "/static/posthog-icon.svg", ["Custom"], free=True,
    ),
    _template(
        "template-geoip", "GeoIP", "Adds geoip data to the event", "transformation", [],
        "// Transformations return the event\nreturn event", "/static/transformations/geoip.png", ["Custom"],
        free=True,
    ),
)}


def template(template_id):
    """The template with this id (a copy), or None."""
    found = TEMPLATES.get(template_id)
    return copy.deepcopy(found) if found else None


def templates(types=None, template_id=None):
    """The templates PostHog lists: of ``types`` (default ``destination``), not deprecated."""
    found = [copy.deepcopy(t) for t in TEMPLATES.values() if t["status"] != "deprecated"]
    if template_id:
        return [t for t in found if t["id"] == template_id]
    types = types or ["destination"]
    return [t for t in found if t["type"] in types]


class InputErrors(ValueError):
    """Errors of some inputs, by key (answered as ``{"inputs": {key: message}}``)."""

    def __init__(self, errors: dict):
        super().__init__(str(errors))
        self.errors = errors


def _has_value(item) -> bool:
    return isinstance(item, dict) and "value" in item and item["value"] is not None and item["value"] != ""


def validate_inputs(schema: list, inputs: dict, stored_secrets: dict) -> tuple[dict, dict]:
    """``(public, secret)``: the inputs PostHog keeps, split as ``move_secret_inputs`` stores them.

    Iterates the schema, not the inputs: keys the schema does not have are dropped.
    """
    public, secret, errors = {}, {}, {}
    inputs = inputs if isinstance(inputs, dict) else {}
    for order, item in enumerate(schema or []):
        key = str(item.get("key"))
        value = inputs.get(key) or {}
        if item.get("secret"):
            masked = isinstance(value, dict) and bool(value.get("secret")) and (
                "value" not in value or value.get("value") == MASKED_SECRET_VALUE)
            if masked or value == {}:
                if stored_secrets.get(key):
                    secret[key] = copy.deepcopy(stored_secrets[key])
                    continue
                if masked:
                    errors[key] = MSG_NO_SECRET
                    continue
        if value == {} and item.get("required") and item.get("default") is not None:
            value = {"value": copy.deepcopy(item["default"])}
        if not isinstance(value, dict):
            errors[key] = "Expected a dictionary of items but got type \"%s\"." % type(value).__name__
            continue
        if not _has_value(value):
            if item.get("required"):
                errors[key] = "This field is required."
            continue
        problem = _type_problem(item.get("type"), value["value"])
        if problem:
            errors[key] = problem
            continue
        if item.get("secret") and value["value"] == MASKED_SECRET_VALUE:
            errors[key] = MSG_MASK_PERSISTED
            continue
        kept = {"value": copy.deepcopy(value["value"])}
        if value.get("templating") in ("hog", "liquid"):
            kept["templating"] = value["templating"]
        kept["bytecode"] = ["_H", 1, 32, key]
        kept["order"] = order
        (secret if item.get("secret") else public)[key] = kept
    if errors:
        raise InputErrors(errors)
    return public, secret


def _type_problem(kind, value):
    if kind in ("string", "email") and not isinstance(value, str):
        return "Value must be a string."
    if kind == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))):
        return "Value must be a number."
    if kind == "boolean" and not isinstance(value, bool):
        return "Value must be a boolean."
    if kind == "dictionary" and not isinstance(value, dict):
        return "Value must be a dictionary."
    if kind == "integration" and not isinstance(value, int):
        return "Value must be an Integration ID."
    return None


def represent_inputs(schema: list, inputs: dict, secrets: dict) -> dict:
    """The inputs as PostHog answers them: a secret that has a value is only ``{"secret": true}``."""
    shown = copy.deepcopy(inputs or {})
    for item in schema or []:
        key = item.get("key")
        if item.get("secret") and (secrets.get(key) or shown.get(key)):
            shown[key] = {"secret": True}
    return shown


def check_type(value, current_type=None, creating=True):
    if value == "warehouse_source_webhook":
        raise RuleError(MSG_WAREHOUSE_WEBHOOK, attr="type")
    if not creating and current_type is not None and value != current_type:
        raise RuleError(MSG_TYPE_CHANGE, attr="type")


def check_enabled_cap(hog_type: str, enabled_count: int) -> None:
    cap = ENABLED_CAPS.get(hog_type)
    if cap is not None and enabled_count >= cap:
        raise RuleError("Maximum of %d enabled %s functions allowed per team. Please contact support if you need "
                        "this limit increased, or disable some existing %ss." % (cap, hog_type, hog_type), attr="type")


def check_hog(hog: str) -> None:
    if len(hog.encode("utf-8")) > MAX_HOG_CODE_SIZE_BYTES:
        raise RuleError("HOG code exceeds maximum size of %dKB. Please simplify your code or contact support if "
                        "you need this limit increased." % (MAX_HOG_CODE_SIZE_BYTES // 1024), attr="hog")


def compile_filters(filters: dict, hog_type: str) -> dict:
    """Filters as stored: PostHog adds compiled bytecode (``transpiled`` for site functions)."""
    filters = copy.deepcopy(filters or {})
    filters.pop("bytecode", None)
    filters.pop("transpiled", None)
    filters.pop("bytecode_error", None)
    if hog_type in JAVASCRIPT_TYPES:
        filters["transpiled"] = {"lang": "ts", "code": "() => true", "stl": []}
    else:
        filters["bytecode"] = list(_FILTERS_BYTECODE)
    return filters


def masking_bytecode(hash_expression: str) -> list:
    return ["_H", 1, 32, hash_expression]


def compiled_hog(hog: str, hog_type: str) -> dict:
    """``bytecode`` (Hog) or ``transpiled`` (TypeScript of site functions), the other null."""
    javascript = hog_type in JAVASCRIPT_TYPES
    return {"bytecode": None if javascript else ["_H", 1, 32, "hog"],
            "transpiled": "(function () { /* transpiled */ })" if javascript else None}


def status(enabled: bool) -> dict:
    """``{state, tokens}``: a disabled function answers ``{"state": 0, "tokens": 0}``; 1 is healthy."""
    return {"state": 1 if enabled else 0, "tokens": 0}
