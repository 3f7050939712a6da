"""Rules of the tracking plan past event definitions (docs/posthog_facts.md §16): property definitions
and the schema (property groups, the groups an event carries).

Mirrors ``posthog/api/property_definition.py`` (``PropertyDefinitionQuerySerializer``, the open-source
serializer's ``update``), ``products/enterprise/backend/api/ee_property_definition.py`` (the enterprise
``validate``/``update``), ``posthog/models/property_definition.py`` and ``posthog/api/schema_property_group.py``
with ``posthog/models/schema.py`` (the newest versions; ``event_schema.py`` as its one stored version).
"""

import json
import re

from posthog_emulator.rules import RuleError
from posthog_emulator.rules.event_definitions import verification_changes

#: ``PropertyType`` (``posthog/models/property_definition.py``).
PROPERTY_TYPES = ("DateTime", "String", "Numeric", "Boolean", "Duration")
#: ``SchemaPropertyType`` (``posthog/models/schema.py``: Object is for TypeScript generation).
SCHEMA_PROPERTY_TYPES = ("DateTime", "String", "Numeric", "Boolean", "Object")
#: ``PropertyDefinitionQuerySerializer.type`` -> ``PropertyDefinition.Type``.
DEFINITION_TYPES = {"event": 1, "person": 2, "group": 3, "session": 4}
GROUP_TYPES_LIMIT = 5  # posthog/constants.py
#: ``ALWAYS_EXCLUDED_EVENT_PROPERTIES``: event properties ingestion makes that the list never shows.
ALWAYS_EXCLUDED_EVENT_PROPERTIES = frozenset(
    ["distinct_id", "$set", "$set_once", "$initial_referrer", "$initial_referring_domain", "$groups", "$group_type",
     "$group_key", "$group_set"] + [f"$group_{i}" for i in range(GROUP_TYPES_LIMIT)])
MESSAGE_HIDDEN_AND_VERIFIED = "A property cannot be both hidden and verified"
MAX_PROPERTY_NAME_LENGTH = 200  # schema_property_group.py
MAX_ENUM_VALUES = 1000
_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$")


# ------------------------------------------------------------------------ property definitions
def definition_query(params) -> dict:
    """``PropertyDefinitionQuerySerializer``: the list's ``type`` (default ``event``) and
    ``group_type_index`` checked together, as ``(type number, group index)`` with the other filters."""
    kind = params.get("type") or "event"
    if kind not in DEFINITION_TYPES:
        raise RuleError(f'"{kind}" is not a valid choice.', code="invalid_choice", attr="type")
    raw_index = params.get("group_type_index")
    index = None
    if raw_index not in (None, ""):
        try:
            index = int(raw_index)
        except ValueError:
            raise RuleError("A valid integer is required.", code="invalid", attr="group_type_index")
    if kind == "group" and index is None:
        raise RuleError("`group_type_index` must be set for `group` type")
    if kind != "group" and index is not None:
        raise RuleError("`group_type_index` can only set for `group` type")
    if index and not 0 <= index < GROUP_TYPES_LIMIT:
        raise RuleError("Invalid value for `group_type_index`")
    if kind != "event" and params.get("event_names"):
        raise RuleError("`event_names` can only be set for `event` type")
    excluded = params.get("excluded_properties")
    try:
        excluded = set(json.loads(excluded)) if excluded else set()
    except (ValueError, TypeError):
        raise RuleError("excluded_properties must be a JSON list", attr="excluded_properties")
    return dict(type=DEFINITION_TYPES[kind], group_type_index=index if kind == "group" else None,
                names=[n for n in (params.get("properties") or "").split(",") if n] or None,
                search=params.get("search") or "", excluded=excluded,
                exclude_core=str(params.get("exclude_core_properties", "")).lower() == "true",
                exclude_hidden=str(params.get("exclude_hidden", "")).lower() == "true",
                is_numerical=params.get("is_numerical"))


def check_hidden_and_verified(data: dict) -> None:
    if data.get("hidden") and data.get("verified"):
        raise RuleError(MESSAGE_HIDDEN_AND_VERIFIED)


def property_changes(data: dict, was_verified: bool, user, now) -> dict:
    """``EnterprisePropertyDefinitionSerializer.update``: hiding unverifies; verifying unhides and records
    who and when (unless already verified); unverifying clears both - as an event definition's
    (:func:`~posthog_emulator.rules.event_definitions.verification_changes`) -; the type sets ``is_numerical``."""
    data = verification_changes(data, was_verified, user, now)
    if "property_type" in data:
        data["is_numerical"] = data["property_type"] == "Numeric"
    return data


def free_change(changes: dict) -> bool:
    """The open-source serializer's ``update``: without ``ingestion_taxonomy`` only the property type
    may change (anything else is 402)."""
    return set(changes) == {"property_type"}


def detected_type(value) -> str | None:
    """The type ingestion gives a property from its first value (the emulator's reading of PostHog's
    property-defs detection: booleans, numbers, ISO dates; **unconfirmed** in detail)."""
    if isinstance(value, bool):
        return "Boolean"
    if isinstance(value, (int, float)):
        return "Numeric"
    if isinstance(value, str):
        return "DateTime" if _DATE_RE.match(value.strip()) else "String"
    return None


# ------------------------------------------------------------------------ property groups
def property_name(value) -> str:
    """``SchemaPropertyGroupPropertySerializer.validate_name`` (newest: trimmed, 1..200 characters)."""
    if not isinstance(value, str) or not value.strip():
        raise RuleError("Property name is required")
    cleaned = value.strip()
    if len(cleaned) > MAX_PROPERTY_NAME_LENGTH:
        raise RuleError(f"Property name must be {MAX_PROPERTY_NAME_LENGTH} characters or less")
    return cleaned


def check_validation_rules(property_type: str, rules) -> None:
    """``validate_validation_rules``: String takes ``enum`` or ``not: {enum}``; Numeric takes bounds."""
    if rules is None or rules == {}:
        return
    fail = lambda message: RuleError(message, attr="validation_rules")  # noqa: E731
    if property_type not in ("String", "Numeric"):
        raise fail(f"Validation rules are not supported for {property_type} properties")
    if not isinstance(rules, dict):
        raise fail("Validation rules must be an object")
    if property_type == "String":
        extra = set(rules) - {"enum", "not"}
        if extra:
            raise fail(f"Unrecognized keys for String validation: {', '.join(sorted(extra))}")
        if "enum" in rules and "not" in rules:
            raise fail("Cannot specify both 'enum' and 'not' — use one or the other")
        if "enum" not in rules and "not" not in rules:
            raise fail("String validation requires either 'enum' or 'not' key")
        if "enum" in rules:
            _check_enum(rules["enum"], fail)
        else:
            negated = rules["not"]
            if not isinstance(negated, dict) or set(negated) != {"enum"}:
                raise fail("'not' must contain exactly one key: 'enum'")
            _check_enum(negated["enum"], fail)
        return
    bounds = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")
    extra = set(rules) - set(bounds)
    if extra:
        raise fail(f"Unrecognized keys for Numeric validation: {', '.join(sorted(extra))}")
    if "minimum" in rules and "exclusiveMinimum" in rules:
        raise fail("Cannot specify both 'minimum' and 'exclusiveMinimum'")
    if "maximum" in rules and "exclusiveMaximum" in rules:
        raise fail("Cannot specify both 'maximum' and 'exclusiveMaximum'")
    for key, value in rules.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise fail(f"'{key}' must be a number")
    lower = next((k for k in ("minimum", "exclusiveMinimum") if k in rules), None)
    upper = next((k for k in ("maximum", "exclusiveMaximum") if k in rules), None)
    if lower and upper and rules[lower] >= rules[upper]:
        raise fail(f"Lower bound ({lower}={rules[lower]}) must be less than upper bound ({upper}={rules[upper]})")


def _check_enum(values, fail) -> None:
    if not isinstance(values, list):
        raise fail("'enum' must be a list")
    if not values:
        raise fail("'enum' list must not be empty")
    if len(values) > MAX_ENUM_VALUES:
        raise fail(f"'enum' list must not exceed {MAX_ENUM_VALUES} items")
    if not all(isinstance(v, str) for v in values):
        raise fail("All 'enum' values must be strings")


def duplicate_property(names) -> str | None:
    """The first property name listed twice, or None (the group's ``unique_property_group_property_name``)."""
    seen = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    return None


MESSAGE_GROUP_NAME_TAKEN_CREATE = "A property group with this name already exists for this team"
MESSAGE_GROUP_NAME_TAKEN_UPDATE = "A property group with this name already exists"
MESSAGE_CREATE_DATABASE_ERROR = "Could not create property group due to a database error."


def schema_taken(group_name: str) -> str:
    """``EventSchemaSerializer.validate``: the pair exists already."""
    return f"Property group '{group_name}' is already added to this event schema"
