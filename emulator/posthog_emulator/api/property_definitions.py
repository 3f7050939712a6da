"""``/api/projects/<project_id|@current>/property_definitions`` (docs/posthog_facts.md §16.2).

Mirrors the newest ``posthog/api/property_definition.py`` with
``products/enterprise/backend/api/ee_property_definition.py``:

* Scope object ``property_definition``; list, retrieve, update (PATCH/PUT) and delete; **no create**
  (PostHog defines a property when it ingests it: ``POST /_emulator/projects/<id>/events`` with
  ``properties``). ``seen_together`` reads (``property_definition:read``).
* **List** (``PropertyDefinitionQuerySerializer``): ``type`` (``event`` default, ``person``, ``group``
  with ``group_type_index``, ``session``), ``search`` (each term a case-insensitive substring of the
  name), ``properties`` (comma-separated exact names), ``is_numerical``, ``excluded_properties`` (a
  JSON list), ``exclude_core_properties`` (names starting with ``$``), ``exclude_hidden``
  (enterprise); event properties ingestion makes for itself (``distinct_id``, ``$set`` ...) never show.
  Ordered by name (the enterprise serializer: verified first). Limit/offset pages of 100.
* **Serializer**: the enterprise one with the organization's ``ingestion_taxonomy`` (the emulator's
  default), whose ``description``, ``tags``, ``property_type``, ``verified`` and ``hidden`` are writable
  (hidden and verified in one request: 400 "A property cannot be both hidden and verified"; hiding
  unverifies, verifying unhides and records who and when, ``property_type: Numeric`` sets
  ``is_numerical``); else the open-source one, which lets a free organization change the property type
  only (anything else: 402). No owner: PostHog's property definitions have none.
* **Tags**: as event definitions' (``tagging`` feature; trimmed, lower-cased, de-duplicated).
"""


from django.db.models import Q
from django.utils import timezone
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from posthog_emulator.api.event_definitions import DefinitionViewMixin, EnterpriseFeatureException, TagsShownMixin
from posthog_emulator.api.shared import ModelSerializer, UserBasicSerializer, rule_errors
from posthog_emulator.models import EventProperty, PropertyDefinition
from posthog_emulator.routing import ProjectNestedMixin, project_prefix
from posthog_emulator.rules.event_definitions import normalise_tags
from posthog_emulator.rules.tracking_plan import (
    ALWAYS_EXCLUDED_EVENT_PROPERTIES,
    PROPERTY_TYPES,
    check_hidden_and_verified,
    definition_query,
    free_change,
    property_changes,
)


class SeenTogetherQuerySerializer(serializers.Serializer):
    event_names = serializers.ListField(child=serializers.CharField(), required=True)
    property_name = serializers.CharField(required=True)


class PropertyDefinitionSerializer(TagsShownMixin, ModelSerializer):
    """The open-source serializer: a free organization may change the property type, nothing else."""

    tags = serializers.ListField(child=serializers.CharField(allow_blank=True), required=False)
    property_type = serializers.ChoiceField(choices=PROPERTY_TYPES, required=False, allow_null=True)
    is_seen_on_filtered_events = serializers.SerializerMethodField()

    class Meta:
        model = PropertyDefinition
        fields = ["id", "name", "is_numerical", "property_type", "tags", "is_seen_on_filtered_events"]
        read_only_fields = ["id", "name", "is_numerical"]

    def get_is_seen_on_filtered_events(self, obj):
        return None

    def validate(self, data):
        with rule_errors():
            check_hidden_and_verified(data)
        return data

    def update(self, instance, validated_data):
        changed = dict((k, v) for k, v in validated_data.items()
                       if v != (getattr(instance, k, None) if k != "tags" else list(instance.tags or [])))
        if not free_change(changed):
            raise EnterpriseFeatureException()
        instance.property_type = changed["property_type"]
        instance.is_numerical = changed["property_type"] == "Numeric"
        instance.save()
        return instance


class EnterprisePropertyDefinitionSerializer(PropertyDefinitionSerializer):
    updated_by = UserBasicSerializer(read_only=True)
    verified_by = UserBasicSerializer(read_only=True)

    class Meta(PropertyDefinitionSerializer.Meta):
        fields = ["id", "name", "description", "tags", "is_numerical", "updated_at", "updated_by",
                  "is_seen_on_filtered_events", "property_type", "verified", "verified_at", "verified_by", "hidden"]
        read_only_fields = ["id", "name", "is_numerical", "is_seen_on_filtered_events", "verified_at", "verified_by",
                            "updated_at"]
        extra_kwargs = {"description": {"allow_null": True, "required": False}}

    def update(self, instance, validated_data):
        tags = validated_data.pop("tags", None)
        data = property_changes(validated_data, instance.verified, self.context["request"].user, timezone.now())
        instance = serializers.ModelSerializer.update(self, instance, data)
        if tags is not None and self._tagging():
            instance.tags = normalise_tags(tags)
            instance.save(update_fields=["tags", "updated_at"])
        return instance


class PropertyDefinitionViewSet(
    DefinitionViewMixin, ProjectNestedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.UpdateModelMixin,
    mixins.DestroyModelMixin, viewsets.GenericViewSet,
):  # fmt: skip
    scope_object = "property_definition"
    queryset = PropertyDefinition.objects.select_related("updated_by", "verified_by")

    def get_serializer_class(self):
        return EnterprisePropertyDefinitionSerializer if self.is_enterprise() else PropertyDefinitionSerializer

    def safely_get_queryset(self, queryset):
        if self.action != "list":
            return queryset
        with rule_errors():
            query = definition_query(self.request.query_params)
        queryset = queryset.filter(type=query["type"], group_type_index=query["group_type_index"])
        if query["type"] == PropertyDefinition.Type.EVENT:
            queryset = queryset.exclude(name__in=ALWAYS_EXCLUDED_EVENT_PROPERTIES)
            if query["exclude_core"]:
                queryset = queryset.exclude(name__startswith="$")
        if query["names"]:
            queryset = queryset.filter(name__in=query["names"])
        for term in query["search"].split():
            queryset = queryset.filter(name__icontains=term)
        if query["excluded"]:
            queryset = queryset.exclude(name__in=query["excluded"])
        if query["is_numerical"] in ("true", "True", "1"):
            queryset = queryset.filter(is_numerical=True).exclude(name__in=("distinct_id", "timestamp"))
        if query["exclude_hidden"] and self.is_enterprise():
            queryset = queryset.filter(Q(hidden=False) | Q(hidden__isnull=True))
        if self.is_enterprise():
            return queryset.order_by("-verified", "name")
        return queryset.order_by("name")

    @action(methods=["GET"], detail=False, required_scopes=["property_definition:read"])
    def seen_together(self, request, *args, **kwargs):
        """``{event name: whether property_name was ingested with it}`` (``SeenTogetherQuerySerializer``)."""
        query = SeenTogetherQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        events, name = query.validated_data["event_names"], query.validated_data["property_name"]
        seen = set(EventProperty.objects.filter(team=self.team, property=name, event__in=events)
                   .values_list("event", flat=True))
        return Response(dict((event, event in seen) for event in events))


def register(router) -> None:
    router.register(project_prefix("property_definitions"), PropertyDefinitionViewSet,
                    basename="project_property_definitions")
