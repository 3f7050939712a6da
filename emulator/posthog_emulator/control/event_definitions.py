"""Control endpoints of the event definitions area: ingestion and the paid features.

``POST /_emulator/projects/<project_id>/events`` records ingested event names (PostHog creates
definitions when it ingests events); ``/_emulator/organizations/<org>/taxonomy`` reads or switches
the organization's ``ingestion_taxonomy`` and ``tagging`` features.
"""

from datetime import timezone as dt_timezone

from django.db import IntegrityError, transaction
from django.urls import re_path
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from posthog_emulator.control.base import ControlError, control_view, find_organization, json_response, read_json
from posthog_emulator.models import EventDefinition, EventProperty, PropertyDefinition, TaxonomySettings, Team
from posthog_emulator.rules.tracking_plan import detected_type


def _definition_summary(definition: EventDefinition, created: bool) -> dict:
    return {
        "id": str(definition.id),
        "name": definition.name,
        "created": created,
        "last_seen_at": definition.last_seen_at.isoformat().replace("+00:00", "Z") if definition.last_seen_at else None,
    }


def _parse_event(item, index: int) -> tuple[str, object, dict, dict]:
    attr = f"events__{index}"
    properties, person_properties = {}, {}
    if isinstance(item, str):
        name, seen = item, None
    elif isinstance(item, dict):
        name, seen = item.get("name"), item.get("last_seen_at")
        properties, person_properties = item.get("properties") or {}, item.get("person_properties") or {}
        if not isinstance(properties, dict) or not isinstance(person_properties, dict):
            raise ControlError("properties and person_properties must be objects ({name: value}).", attr)
    else:
        raise ControlError('Expected an event name or {"name": ..., "last_seen_at": ..., "properties": ...}.', attr)
    if not isinstance(name, str) or not name.strip() or len(name) > 400:
        raise ControlError("An event name must be a non-blank string of at most 400 characters.", attr)
    if seen is None:
        return name, timezone.now(), properties, person_properties
    parsed = parse_datetime(seen) if isinstance(seen, str) else None
    if parsed is None:
        raise ControlError("last_seen_at must be an ISO 8601 date-time.", attr)
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, dt_timezone.utc)
    return name, parsed, properties, person_properties


def _define_properties(team: Team, event: str, properties: dict, kind: int) -> None:
    """Property definitions as ingestion makes them: new names get the type of their first value."""
    for name, value in properties.items():
        if not isinstance(name, str) or not name or len(name) > 400:
            continue
        property_type = detected_type(value)
        PropertyDefinition.objects.get_or_create(team=team, name=name, type=kind, group_type_index=None, defaults=dict(
            property_type=property_type, is_numerical=property_type == "Numeric"))
        if kind == PropertyDefinition.Type.EVENT:
            EventProperty.objects.get_or_create(team=team, event=event, property=name)


@control_view("POST")
def ingest_events(request, project_id):
    """Record ingested event names: create missing definitions, move ``last_seen_at`` forward.

    Body ``{"events": ["signed_up", {"name": "purchase", "last_seen_at": "2026-01-01T00:00:00Z",
    "properties": {"amount": 12.5}, "person_properties": {"plan": "pro"}}]}``. ``last_seen_at`` defaults
    to now; an existing definition keeps the later of the two values. Properties define event (and
    person) property definitions the first time a name is seen, typed from the value, and record
    which event carried which property.
    Answers 200 ``{"project": <id>, "results": [{"id", "name", "created", "last_seen_at"}]}``.
    """
    team = Team.objects.filter(id=int(project_id)).first()
    if team is None:
        raise ControlError("Project not found.", status=404, code="not_found")
    events = read_json(request).get("events")
    if not isinstance(events, list) or not events:
        raise ControlError("Expected a non-empty list of event names.", "events")
    parsed = [_parse_event(item, index) for index, item in enumerate(events)]
    results = []
    with transaction.atomic():
        for name, seen, properties, person_properties in parsed:
            try:
                with transaction.atomic():
                    definition, created = EventDefinition.objects.get_or_create(
                        team=team, name=name, defaults={"last_seen_at": seen}
                    )
            except IntegrityError:  # pragma: no cover - serialised by the global lock
                definition, created = EventDefinition.objects.get(team=team, name=name), False
            if not created and (definition.last_seen_at is None or seen > definition.last_seen_at):
                definition.last_seen_at = seen
                EventDefinition.objects.filter(pk=definition.pk).update(last_seen_at=seen)
            results.append(_definition_summary(definition, created))
            _define_properties(team, name, properties, PropertyDefinition.Type.EVENT)
            _define_properties(team, name, person_properties, PropertyDefinition.Type.PERSON)
        if not team.ingested_event:
            team.ingested_event = True
            team.save(update_fields=["ingested_event"])
    return json_response({"project": team.id, "results": results})


@control_view("GET", "PUT")
def taxonomy(request, organization):
    """Read or switch an organization's ``ingestion_taxonomy`` and ``tagging`` features.

    ``PUT`` body ``{"ingestion_taxonomy": false, "tagging": true}`` (either key optional). Answers
    ``{"organization": <id>, "ingestion_taxonomy": bool, "tagging": bool}``.
    """
    found = find_organization(organization)
    if found is None:
        raise ControlError("Organization not found.", status=404, code="not_found")
    if request.method == "PUT":
        data = read_json(request)
        for key, value in data.items():
            if key not in TaxonomySettings.FEATURES:
                raise ControlError(f"Unknown feature; use {' or '.join(TaxonomySettings.FEATURES)}.", key)
            if not isinstance(value, bool):
                raise ControlError("Expected true or false.", key)
        TaxonomySettings.put(found, **data)
    return json_response({"organization": str(found.id), **TaxonomySettings.get(found)})


urlpatterns = [
    re_path(r"^projects/(?P<project_id>[0-9]+)/events/?$", ingest_events),
    re_path(r"^organizations/(?P<organization>[^/]+)/taxonomy/?$", taxonomy),
]
