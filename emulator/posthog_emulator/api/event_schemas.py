"""``/api/projects/<id>/schema_property_groups`` and ``/api/projects/<id>/event_schemas`` (docs/posthog_facts.md §16.3).

The schema of a tracking plan: a **property group** is a named set of typed properties; an **event
schema** says an event definition carries a group. As PostHog's newest code:

* ``posthog/api/schema_property_group.py``: scope object ``event_definition`` (the newest version; older
  ones said ``INTERNAL``); list (ordered by name), create, retrieve, update (PATCH/PUT), delete (its
  event schemas go with it). Fields ``id``, ``name`` (unique in the project: 400 attr ``name`` "A
  property group with this name already exists for this team", on update "... already exists"),
  ``description``, ``properties`` (each ``id``, ``name`` trimmed and 1 to 200 characters,
  ``property_type`` one of DateTime, String, Numeric, Boolean, Object, ``is_required``,
  ``is_optional_in_types``, ``validation_rules``, ``description``; returned by name), ``events`` (the
  event definitions carrying it, ``{id, name}`` by name), ``created_at``, ``updated_at``,
  ``created_by``. An update's ``properties`` is the whole list: a property sent with its ``id`` is
  changed, one without is created, one left out is deleted (a name twice: 400 attr ``properties``
  "A property named '<name>' already exists in this group"; on create PostHog answers its generic
  "Could not create property group due to a database error.").
* ``posthog/api/event_schema.py``: list (``?event_definition=<id>``, newest first), create, update,
  delete; **no retrieve** (PostHog's mixins, as PostHog's Terraform provider's design note, verified
  against PostHog's code of July 2026, lists them: list/create/update/destroy). Fields ``id``,
  ``event_definition`` (an id of the project's), ``property_group`` (the whole group, read only),
  ``property_group_id`` (write only), ``created_at``, ``updated_at``; a pair that exists: 400 "Property
  group '<name>' is already added to this event schema". Its scope object: the one stored version says
  ``INTERNAL``; the emulator follows the newest property group file and the Terraform provider, which
  reaches it with a personal API key: ``event_definition`` (**unconfirmed** in ``event_schema.py`` itself).
"""

from django.db import IntegrityError, transaction
from rest_framework import mixins, serializers, viewsets
from rest_framework.exceptions import NotFound, ValidationError

from posthog_emulator.api.shared import ModelSerializer, UserBasicSerializer, rule_errors
from posthog_emulator.models import EventDefinition, EventSchema, SchemaPropertyGroup, SchemaPropertyGroupProperty
from posthog_emulator.routing import ProjectNestedMixin, project_prefix
from posthog_emulator.rules import parse_uuid
from posthog_emulator.rules.tracking_plan import (
    MESSAGE_CREATE_DATABASE_ERROR,
    MESSAGE_GROUP_NAME_TAKEN_CREATE,
    MESSAGE_GROUP_NAME_TAKEN_UPDATE,
    SCHEMA_PROPERTY_TYPES,
    check_validation_rules,
    duplicate_property,
    property_name,
    schema_taken,
)


class SchemaPropertySerializer(ModelSerializer):
    id = serializers.UUIDField(required=False)
    property_type = serializers.ChoiceField(choices=SCHEMA_PROPERTY_TYPES)
    validation_rules = serializers.JSONField(required=False, allow_null=True)
    description = serializers.CharField(required=False, allow_blank=True)

    class Meta:
        model = SchemaPropertyGroupProperty
        fields = ["id", "name", "property_type", "is_required", "is_optional_in_types", "validation_rules",
                  "description", "created_at", "updated_at"]
        read_only_fields = ["created_at", "updated_at"]

    def validate_name(self, value):
        with rule_errors():
            return property_name(value)

    def validate(self, data):
        with rule_errors():
            check_validation_rules(data.get("property_type", ""), data.get("validation_rules"))
        return data


class SchemaPropertyGroupSerializer(ModelSerializer):
    properties = SchemaPropertySerializer(many=True, required=False)
    created_by = UserBasicSerializer(read_only=True)
    events = serializers.SerializerMethodField()

    class Meta:
        model = SchemaPropertyGroup
        fields = ["id", "name", "description", "properties", "events", "created_at", "updated_at", "created_by"]
        read_only_fields = ["id", "created_at", "updated_at", "created_by"]
        extra_kwargs = {"description": {"required": False, "allow_blank": True}}

    def get_events(self, group):
        definitions = sorted((s.event_definition for s in group.event_schemas.select_related("event_definition")),
                             key=lambda d: d.name.lower())
        return [{"id": str(d.id), "name": d.name} for d in definitions]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["properties"] = SchemaPropertySerializer(instance.properties.order_by("name"), many=True).data
        return data

    def create(self, validated_data):
        properties = validated_data.pop("properties", [])
        team = self.context["get_team"]()
        if SchemaPropertyGroup.objects.filter(team=team, name=validated_data["name"]).exists():
            raise ValidationError({"name": MESSAGE_GROUP_NAME_TAKEN_CREATE})
        if duplicate_property([p["name"] for p in properties]) is not None:
            raise ValidationError(MESSAGE_CREATE_DATABASE_ERROR)
        try:
            with transaction.atomic():
                group = SchemaPropertyGroup.objects.create(team=team, created_by=self.context["request"].user,
                                                           **validated_data)
                for data in properties:
                    data.pop("id", None)
                    SchemaPropertyGroupProperty.objects.create(property_group=group, **data)
        except IntegrityError:
            raise ValidationError({"name": MESSAGE_GROUP_NAME_TAKEN_CREATE})
        return group

    def update(self, instance, validated_data):
        properties = validated_data.pop("properties", None)
        name = validated_data.get("name", instance.name)
        if name != instance.name and SchemaPropertyGroup.objects.filter(team=instance.team, name=name).exists():
            raise ValidationError({"name": MESSAGE_GROUP_NAME_TAKEN_UPDATE})
        if properties is not None:
            taken = duplicate_property([p["name"] for p in properties])
            if taken is not None:  # PostHog's IntegrityError on unique_property_group_property_name
                raise ValidationError({"properties": f"A property named '{taken}' already exists in this group"})
        try:
            with transaction.atomic():
                instance.name = name
                instance.description = validated_data.get("description", instance.description)
                instance.save()
                if properties is not None:
                    existing = dict((p.id, p) for p in instance.properties.all())
                    kept = set(p.get("id") for p in properties if p.get("id"))
                    instance.properties.filter(id__in=set(existing) - kept).delete()
                    for data in properties:
                        property_id = data.pop("id", None)
                        if property_id in existing:
                            for key, value in data.items():
                                setattr(existing[property_id], key, value)
                            existing[property_id].save()
                        else:
                            SchemaPropertyGroupProperty.objects.create(property_group=instance, **data)
        except IntegrityError:  # names swapped between properties: PostHog's generic answer
            raise ValidationError({"properties": "A property with this name already exists in this group"})
        return instance


class UUIDLookup:
    """Objects by UUID: anything else names none (404)."""

    lookup_field = "id"
    lookup_value_regex = r"[^/]+"

    def get_object(self):
        object_id = parse_uuid(self.kwargs[self.lookup_field])
        obj = self.get_queryset().filter(id=object_id).first() if object_id is not None else None
        if obj is None:
            raise NotFound()
        self.check_object_permissions(self.request, obj)
        return obj


class SchemaPropertyGroupViewSet(
    UUIDLookup, ProjectNestedMixin, mixins.ListModelMixin, mixins.CreateModelMixin, mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet,
):  # fmt: skip
    scope_object = "event_definition"
    serializer_class = SchemaPropertyGroupSerializer
    queryset = SchemaPropertyGroup.objects.select_related("created_by").prefetch_related("properties")

    def safely_get_queryset(self, queryset):
        return queryset.order_by("name")


class TeamEventDefinitionField(serializers.PrimaryKeyRelatedField):
    def get_queryset(self):
        return EventDefinition.objects.filter(team=self.context["get_team"]())


class TeamPropertyGroupField(serializers.PrimaryKeyRelatedField):
    def get_queryset(self):
        return SchemaPropertyGroup.objects.filter(team=self.context["get_team"]())


class EventSchemaSerializer(ModelSerializer):
    event_definition = TeamEventDefinitionField()
    property_group = SchemaPropertyGroupSerializer(read_only=True)
    property_group_id = TeamPropertyGroupField(source="property_group", write_only=True)

    class Meta:
        model = EventSchema
        fields = ["id", "event_definition", "property_group", "property_group_id", "created_at", "updated_at"]
        read_only_fields = ["id", "property_group", "created_at", "updated_at"]

    def validate(self, attrs):
        definition = attrs.get("event_definition", getattr(self.instance, "event_definition", None))
        group = attrs.get("property_group", getattr(self.instance, "property_group", None))
        if definition is not None and group is not None and \
                EventSchema.objects.filter(event_definition=definition, property_group=group) \
                .exclude(id=getattr(self.instance, "id", None)).exists():
            raise ValidationError(schema_taken(group.name))
        return attrs


class EventSchemaViewSet(
    UUIDLookup, ProjectNestedMixin, mixins.ListModelMixin, mixins.CreateModelMixin, mixins.UpdateModelMixin,
    mixins.DestroyModelMixin, viewsets.GenericViewSet,
):  # fmt: skip
    scope_object = "event_definition"
    serializer_class = EventSchemaSerializer
    queryset = EventSchema.objects.select_related("event_definition", "property_group")
    team_lookup = "event_definition__team"

    def safely_get_queryset(self, queryset):
        definition = self.request.query_params.get("event_definition")
        if definition and self.action == "list":
            queryset = queryset.filter(event_definition_id=parse_uuid(definition))
        return queryset.order_by("-created_at")


def register(router) -> None:
    router.register(project_prefix("schema_property_groups"), SchemaPropertyGroupViewSet,
                    basename="project_schema_property_groups")
    router.register(project_prefix("event_schemas"), EventSchemaViewSet, basename="project_event_schemas")
