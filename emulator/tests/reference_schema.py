"""Answers checked against PostHog's own OpenAPI schema of April 2026.

PostHog's generated schema (drf-spectacular), as the PyPI package ``arcade-posthog-api`` 0.2.1 ships
it (``moar/openapi.json``; docs/posthog_facts.md says where it stands among the sources). The
package is pinned in ``requirements-test.txt`` (the real-client test uses it too), so the schema is
always there: nothing is skipped. ``POSTHOG_OPENAPI_REFERENCE`` may name another copy of the file.

The schema is OpenAPI 3.0 (``nullable``, ``readOnly``/``writeOnly``); :func:`json_schema` turns a
response schema into JSON Schema. drf-spectacular documents what it cannot type as a string, and
some views answer other shapes than their serializer's: :data:`QUIRKS` says what PostHog's code
really answers there, one entry per field (or whole answer), each with the reason.
"""

import copy
import json
import os
from pathlib import Path

import jsonschema

from tests.real_client import openapi_document

_ARRAY = {"type": "array"}
_OBJECT = {"type": "object"}
_BOOLEAN = {"type": "boolean"}
_INTEGER = {"type": "integer"}

#: (path, field) -> the schema of what PostHog's code answers. A field of None replaces the whole
#: answer's schema.
QUIRKS = {
    # Computed fields without a declared type come out as string (the directory's README).
    ("/api/organizations/{id}/", "member_count"): _INTEGER,
    ("/api/organizations/{id}/", "metadata"): _OBJECT,
    ("/api/organizations/{organization_id}/projects/{id}/", "default_modifiers"): _OBJECT,
    ("/api/organizations/{organization_id}/projects/{id}/", "person_on_events_querying_enabled"): _BOOLEAN,
    ("/api/organizations/{organization_id}/projects/{id}/", "product_intents"): _ARRAY,
    ("/api/organizations/{organization_id}/projects/", "default_modifiers"): _OBJECT,
    ("/api/organizations/{organization_id}/projects/", "person_on_events_querying_enabled"): _BOOLEAN,
    ("/api/organizations/{organization_id}/projects/", "product_intents"): _ARRAY,
    # RoleSerializer's SerializerMethodFields (ee/api/rbac/role.py): a list of role memberships and a bool.
    ("/api/organizations/{organization_id}/roles/", "members"): _ARRAY,
    ("/api/organizations/{organization_id}/roles/", "is_default"): _BOOLEAN,
    ("/api/organizations/{organization_id}/roles/{id}/", "members"): _ARRAY,
    ("/api/organizations/{organization_id}/roles/{id}/", "is_default"): _BOOLEAN,
    # RoleSerializer.create never sets created_by (ee/api/rbac/role.py): null, which the schema omits.
    ("/api/organizations/{organization_id}/roles/", "created_by"): {"anyOf": [_OBJECT, {"type": "null"}]},
    ("/api/organizations/{organization_id}/roles/{id}/", "created_by"): {"anyOf": [_OBJECT, {"type": "null"}]},
    # A member who never logged in has last_login null (the directory's README).
    ("/api/organizations/{organization_id}/roles/{role_id}/role_memberships/", "organization_member.last_login"): {
        "type": ["string", "null"]},
}

#: Paths whose list view overrides ``list``: the answer is not the paginated envelope.
UNPAGINATED = {
    # ProxyRecordViewset.list answers {"results": [...], "max_proxy_records": n} (posthog/api/proxy_record.py).
    "/api/organizations/{organization_id}/proxy_records/": "max_proxy_records",
}


_document = None


def document() -> dict:
    global _document
    if _document is None:
        if os.environ.get("POSTHOG_OPENAPI_REFERENCE"):
            _document = json.loads(Path(os.environ["POSTHOG_OPENAPI_REFERENCE"]).read_text())
        else:
            _document = openapi_document()
    return _document


def json_schema(schema, response=True):
    """An OpenAPI 3.0 schema as JSON Schema: ``nullable`` becomes ``null`` allowed, write-only
    properties leave a response (and its ``required``), descriptions and examples go."""
    if isinstance(schema, list):
        return [json_schema(item, response) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key in ("readOnly", "writeOnly", "description", "example", "title", "format", "nullable"):
            continue
        if key == "properties":
            out[key] = {name: json_schema(prop, response) for name, prop in value.items()
                        if not (response and isinstance(prop, dict) and prop.get("writeOnly"))}  # fmt: skip
        else:
            out[key] = json_schema(value, response)
    if response and "required" in out and "properties" in schema:
        out["required"] = [name for name in out["required"] if not schema["properties"].get(name, {}).get("writeOnly")]
    if schema.get("nullable"):
        return {"anyOf": [out, {"type": "null"}]}
    return out


def response_schema(path: str, method: str, status: str = "200", item: bool = False) -> dict:
    """The JSON Schema of the answer to ``method path`` with ``status`` (``item``: of one element of
    a list answer's ``results``), with :data:`QUIRKS` applied."""
    operation = document()["paths"][path][method.lower()]
    schema = copy.deepcopy(operation["responses"][status]["content"]["application/json"]["schema"])
    listed = "results" in schema.get("properties", {})
    if listed:
        element = schema["properties"]["results"]["items"]
        if path in UNPAGINATED:
            schema = {"type": "object", "required": ["results", UNPAGINATED[path]],
                      "properties": {"results": {"type": "array", "items": element},
                                     UNPAGINATED[path]: _INTEGER}}  # fmt: skip
    target = element if listed else schema
    for (quirk_path, field), replacement in QUIRKS.items():
        if quirk_path == path:
            _replace(target, field.split("."), replacement)
    return json_schema(target if item else schema)


def _replace(schema: dict, names: list, replacement: dict) -> None:
    """Replace the property at the dotted ``names`` (through nested objects and their ``allOf``)."""
    for part in (schema, *schema.get("allOf", [])):
        properties = part.get("properties", {})
        if names[0] in properties:
            if len(names) == 1:
                properties[names[0]] = copy.deepcopy(replacement)
            else:
                _replace(properties[names[0]], names[1:], replacement)


def assert_matches(body, path: str, method: str = "get", status: str = "200"):
    """``body`` is valid against the reference answer; fails naming the first problem."""
    schema = response_schema(path, method, status)
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(body), key=lambda e: list(e.path))
    assert not errors, "%s %s: %s at %s" % (method.upper(), path, errors[0].message, "/".join(map(str, errors[0].path)))
    return body
