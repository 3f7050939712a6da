"""Rules of event definitions (docs/posthog_facts.md §7): tags, hidden and verified, and the list's query parameters.

Mirrors ``posthog/api/event_definition.py`` and ``ee/api/ee_event_definition.py``.
"""

import json

from posthog_emulator.rules import RuleError

EVENT_TYPES = ("event", "all", "action_event", "event_posthog", "event_custom")
ORDERING_FIELDS = ("name", "last_seen_at", "last_seen_at::date", "created_at", "created_at::date")
DEFAULT_ORDERING = [("last_seen_at::date", True), ("name", False)]
MESSAGE_HIDDEN_AND_VERIFIED = "An event cannot be both hidden and verified"


def normalise_tags(tags) -> list[str]:
    """PostHog's ``tagify`` (strip, lower-case) and de-duplication; blanks dropped; first order kept."""
    result = []
    for tag in tags or []:
        value = str(tag).strip().lower()
        if value and value not in result:
            result.append(value)
    return result


def check_hidden_and_verified(data: dict) -> None:
    """A definition is not hidden and verified at once (one request may not ask for both)."""
    if data.get("hidden") and data.get("verified"):
        raise RuleError(MESSAGE_HIDDEN_AND_VERIFIED)


def verification_changes(data: dict, was_verified: bool, user, now) -> dict:
    """``EnterpriseEventDefinitionSerializer.update``: the fields to write for the validated ``data``
    of ``user`` (``updated_by``; hiding unverifies; verifying unhides and records who and ``now``,
    unless already verified; unverifying clears both)."""
    data = {**data, "updated_by": user}
    if data.get("hidden", False):
        data.update(verified=False, verified_by=None, verified_at=None)
    elif data.get("verified", False):
        data["hidden"] = False
    if "verified" in data:
        if data["verified"] and not was_verified:
            data.update(verified_by=user, verified_at=now)
        elif not data["verified"]:
            data.update(verified_by=None, verified_at=None)
        else:
            data.pop("verified")  # re-verifying is ignored
    return data


def event_type_filter(event_type) -> str | None:
    """Which names a list keeps for ``event_type``: ``"posthog"`` (starting with ``$``),
    ``"custom"`` (the others) or ``None`` (all; the emulator has no actions)."""
    if event_type not in EVENT_TYPES:
        raise RuleError(f"Not a valid event type. Use one of: {', '.join(EVENT_TYPES)}.", attr="event_type")
    return {"event_posthog": "posthog", "event_custom": "custom"}.get(event_type)


def excluded_names(value) -> list[str] | None:
    """``excluded_properties``: a JSON array of event names (``None`` when not given)."""
    if not value:
        return None
    try:
        names = json.loads(value)
    except ValueError:
        names = None
    if not isinstance(names, list):
        raise RuleError("Expected a JSON array of event names.", attr="excluded_properties")
    return [str(n) for n in names]


def ordering_fields(values) -> list[tuple[str, bool]]:
    """``ordering`` (repeated or comma-separated) as ``[(field, descending)]``: unknown fields are
    dropped, the default is ``-last_seen_at::date,name``, and ``name`` always breaks ties."""
    fields = []
    for value in (value.strip() for raw in values for value in raw.split(",")):
        if value.lstrip("-") in ORDERING_FIELDS:
            fields.append((value.lstrip("-"), value.startswith("-")))
    if not fields:
        fields = list(DEFAULT_ORDERING)
    if not any(field == "name" for field, _ in fields):
        fields.append(("name", False))
    return fields
