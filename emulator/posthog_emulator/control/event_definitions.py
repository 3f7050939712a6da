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
from posthog_emulator.models import EventDefinition, TaxonomySettings, Team


def _definition_summary(definition: EventDefinition, created: bool) -> dict:
    return {
        "id": str(definition.id),
        "name": definition.name,
        "created": created,
        "last_seen_at": definition.last_seen_at.isoformat().replace("+00:00", "Z") if definition.last_seen_at else None,
    }


def _parse_event(item, index: int) -> tuple[str, object]:
    attr = f"events__{index}"
    if isinstance(item, str):
        name, seen = item, None
    elif isinstance(item, dict):
        name, seen = item.get("name"), item.get("last_seen_at")
    else:
        raise ControlError('Expected an event name or {"name": ..., "last_seen_at": ...}.', attr)
    if not isinstance(name, str) or not name.strip() or len(name) > 400:
        raise ControlError("An event name must be a non-blank string of at most 400 characters.", attr)
    if seen is None:
        return name, timezone.now()
    parsed = parse_datetime(seen) if isinstance(seen, str) else None
    if parsed is None:
        raise ControlError("last_seen_at must be an ISO 8601 date-time.", attr)
    if timezone.is_naive(parsed):
        parsed = timezone.make_aware(parsed, dt_timezone.utc)
    return name, parsed


@control_view("POST")
def ingest_events(request, project_id):
    """Record ingested event names: create missing definitions, move ``last_seen_at`` forward.

    Body ``{"events": ["signed_up", {"name": "purchase", "last_seen_at": "2026-01-01T00:00:00Z"}]}``.
    ``last_seen_at`` defaults to now; an existing definition keeps the later of the two values.
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
        for name, seen in parsed:
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
