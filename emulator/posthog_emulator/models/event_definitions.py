"""Models of the event definitions area (docs/posthog_facts.md §7), registered through :mod:`posthog_emulator.models`.

PostHog keeps an open-source ``EventDefinition`` row (``posthog/models/event_definition.py``)
and, with the enterprise extension, an ``EnterpriseEventDefinition`` child row
(``ee/models/event_definition.py``) that adds the metadata: description, owner, tags, verified,
hidden, default columns. The emulator keeps both in one table; which serializer answers (basic or
enterprise) is decided per organization at request time (see ``api/event_definitions.py``).

Tags are PostHog ``TaggedItem`` rows; here they are a JSON list of normalised names.

The rest of the tracking plan lives here too (docs/posthog_facts.md §16): property definitions
(``posthog/models/property_definition.py`` with ``EnterprisePropertyDefinition``), which event
carried which property (``EventProperty``), and the schema: named groups of typed properties
(``SchemaPropertyGroup``, ``SchemaPropertyGroupProperty``) and which groups an event definition
carries (``EventSchema``), as ``posthog/models/schema.py``.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from posthog_emulator.models.core import EmulatorState, Organization, Team, User, uuidt

__all__ = [
    "EventDefinition",
    "EventProperty",
    "EventSchema",
    "PropertyDefinition",
    "SchemaPropertyGroup",
    "SchemaPropertyGroupProperty",
    "TaxonomySettings",
]


class EventDefinition(models.Model):
    """One event name seen in a project (created by ingestion, never by the API)."""

    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="event_definitions")
    name = models.CharField(max_length=400)
    created_at = models.DateTimeField(default=timezone.now, null=True)
    last_seen_at = models.DateTimeField(default=None, null=True)

    # The enterprise part (EnterpriseEventDefinition).
    owner = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    description = models.TextField(blank=True, null=True, default="")
    tags = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    verified = models.BooleanField(default=False, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    verified_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    hidden = models.BooleanField(blank=True, null=True, default=False)
    default_columns = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["team", "name"], name="unique_event_definition_name")]

    def __str__(self) -> str:
        return f"{self.name} / {self.team.name}"


class PropertyDefinition(models.Model):
    """One property name seen in a project, per type (event, person, group, session); created by
    ingestion, never by the API. The enterprise part (description, tags, verified, hidden) in the same
    row, as for event definitions."""

    class Type(models.IntegerChoices):
        EVENT = 1, "event"
        PERSON = 2, "person"
        GROUP = 3, "group"
        SESSION = 4, "session"

    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="property_definitions")
    name = models.CharField(max_length=400)
    is_numerical = models.BooleanField(default=False)
    property_type = models.CharField(max_length=50, null=True, blank=True)
    type = models.PositiveSmallIntegerField(default=Type.EVENT, choices=Type.choices)
    group_type_index = models.PositiveSmallIntegerField(null=True, blank=True)

    description = models.TextField(blank=True, null=True, default="")
    tags = models.JSONField(default=list, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    verified = models.BooleanField(default=False, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)
    verified_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    hidden = models.BooleanField(blank=True, null=True, default=False)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["team", "name", "type", "group_type_index"],
                                               name="unique_property_definition")]

    def __str__(self) -> str:
        return f"{self.name} / {self.team.name}"


class EventProperty(models.Model):
    """That ``event`` was ingested with ``property`` (``posthog_eventproperty``)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    event = models.CharField(max_length=400)
    property = models.CharField(max_length=400)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "event", "property"], name="unique_event_property")]


class SchemaPropertyGroup(models.Model):
    """A named group of typed properties, unique by name in a project (``posthog/models/schema.py``)."""

    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="schema_property_groups")
    name = models.CharField(max_length=400)
    description = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)
    created_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "name"], name="unique_schema_property_group_team_name")]


class SchemaPropertyGroupProperty(models.Model):
    """One property of a group: its name (unique in the group), type, and whether it is required."""

    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    property_group = models.ForeignKey(SchemaPropertyGroup, on_delete=models.CASCADE, related_name="properties")
    name = models.CharField(max_length=400)
    property_type = models.CharField(max_length=50)
    is_required = models.BooleanField(default=False)
    is_optional_in_types = models.BooleanField(default=False)
    validation_rules = models.JSONField(null=True, blank=True)
    description = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["property_group", "name"],
                                               name="unique_property_group_property_name")]


class EventSchema(models.Model):
    """A property group an event definition carries (unique per pair)."""

    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    event_definition = models.ForeignKey(EventDefinition, on_delete=models.CASCADE, related_name="schemas")
    property_group = models.ForeignKey(SchemaPropertyGroup, on_delete=models.CASCADE, related_name="event_schemas")
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["event_definition", "property_group"], name="unique_event_schema")]


class TaxonomySettings:
    """Per-organization switches for the paid features event definitions depend on.

    PostHog picks the enterprise serializer when the organization has ``ingestion_taxonomy`` and
    stores tags only with ``tagging`` (docs/posthog_facts.md §7). The emulator behaves like a PostHog Cloud
    organization on a plan with both, unless a test switches them off through the control API
    (``PUT /_emulator/organizations/<org>/taxonomy``). Kept in :class:`EmulatorState`, so a reset
    forgets them.
    """

    FEATURES = ("ingestion_taxonomy", "tagging")

    @staticmethod
    def _key(organization: Organization) -> str:
        return f"taxonomy:{organization.id}"

    @classmethod
    def get(cls, organization: Organization) -> dict:
        stored = EmulatorState.get(cls._key(organization)) or {}
        return {feature: bool(stored.get(feature, True)) for feature in cls.FEATURES}

    @classmethod
    def put(cls, organization: Organization, **features) -> dict:
        current = cls.get(organization)
        current.update({k: bool(v) for k, v in features.items() if k in cls.FEATURES})
        EmulatorState.put(cls._key(organization), current)
        return current

    @classmethod
    def has(cls, organization: Organization, feature: str) -> bool:
        return cls.get(organization)[feature]
