"""``/api/projects/<project_id|@current>/event_definitions`` (spec 4.7, docs/posthog_facts.md §7 and §0.6).

Mirrors ``posthog/api/event_definition.py`` with ``ee/api/ee_event_definition.py``:

* Scope object ``event_definition``: list/retrieve need ``event_definition:read``; update
  (PATCH/PUT) and delete need ``event_definition:write``. Any member of the project's organization
  may read and write (no admin level), as in PostHog.
* **Create** (profile ``posthog``): the newest ``EventDefinitionViewSet`` mixes in
  ``CreateModelMixin``: ``POST {"name", ...}`` answers 201 with the definition, ``created_at`` and
  ``last_seen_at`` null until an event of that name is ingested; a name the project already has is
  400 "Event definition with name '<name>' already exists" (attr ``name``); the enterprise
  serializer's fields (``description``, ``tags``, ``owner``, ``verified``, ``hidden`` ...) may be
  given too. Profile ``spec`` keeps the spec's "no create": 405. Definitions also come from ingestion:
  ``POST /_emulator/projects/<project_id>/events``.
* ``GET …/<id>/metrics`` (``metrics_totals``) has no scope: 403 to a personal API key.
* **Serializer**: the enterprise one when the organization has ``ingestion_taxonomy`` (the
  emulator's default, like a paying PostHog Cloud organization), else the open-source one, whose
  fields are all read-only and whose updates answer 402 ``payment_required`` (type
  ``server_error``, the hog-handler's type for a non-DRF status). Switch per organization with
  ``PUT /_emulator/organizations/<org>/taxonomy``. PostHog asks the requester's *current*
  organization; the emulator asks the project's organization (the same one in every normal case).
* **Enterprise update rules** (``EnterpriseEventDefinitionSerializer.validate/update``):
  ``hidden`` and ``verified`` both true in one request: 400 "An event cannot be both hidden and
  verified" (attr null). ``hidden=true`` forces ``verified=false`` and clears ``verified_by`` /
  ``verified_at``; else ``verified=true`` forces ``hidden=false``. ``verified`` false→true sets
  ``verified_by`` (the requester) and ``verified_at`` (now); ``verified=false`` clears both;
  re-verifying a verified definition is ignored. ``updated_by`` becomes the requester. ``name`` is
  read-only. ``owner`` is written as a user id and read back as a nested user (or null); the
  emulator accepts only members of the project's organization (anyone else: 400 'Invalid pk "<id>"
  - object does not exist.', attr ``owner``). ``post_to_slack`` is accepted and not stored.
  ``default_columns`` reads back as ``[]`` when unset.
* **Tags** (``TaggedItemSerializerMixin``): trimmed, lower-cased, de-duplicated, and they replace
  the whole set; without the organization feature ``tagging`` they are silently ignored and always
  read back as ``[]``. Blank tags are dropped.
* **List**: ``search`` (space-separated terms, each a case-insensitive substring of the name),
  ``event_type`` (``event`` default, ``all`` and ``action_event`` — the emulator has no actions, so
  the same rows — ``event_posthog`` for names starting with ``$``, ``event_custom`` for the rest;
  anything else: 400 attr ``event_type``, as PostHog's newest code answers), ``ordering`` (repeated
  or comma-separated: ``name``, ``last_seen_at``, ``last_seen_at::date``, ``created_at``,
  ``created_at::date``, each optionally ``-``; unknown values are dropped; ascending puts nulls
  first, descending last; ``name`` is appended as the tiebreaker; default
  ``-last_seen_at::date,name``), ``exclude_hidden=true`` (enterprise only), ``excluded_properties``
  (a JSON array of names). Limit/offset pages of 100.
* **Retrieve/update/delete** by UUID inside the project; an unknown or malformed id is 404 "Not
  found." (PostHog's plain ``.get()`` may answer 500 there; unconfirmed, docs/posthog_facts.md §7). Delete: 204.
* Read-only action fields (``is_action``, ``action_id``, ``is_calculating``,
  ``last_calculated_at``, ``last_updated_at``, ``created_by``) are always ``false``/``null``: the
  emulator has no actions.
"""

from uuid import UUID

from django.db.models import F
from django.db.models.functions import TruncDate
from django.utils import timezone
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.exceptions import APIException, MethodNotAllowed, NotFound

from posthog_emulator import profiles

from posthog_emulator.api.shared import ModelSerializer, UserBasicSerializer, refused_action, rule_errors
from posthog_emulator.models import EventDefinition, TaxonomySettings, User
from posthog_emulator.routing import ProjectNestedMixin, project_prefix
from posthog_emulator.rules.event_definitions import (
    check_hidden_and_verified,
    event_type_filter,
    excluded_names,
    normalise_tags,
    ordering_fields,
    verification_changes,
)


class EnterpriseFeatureException(APIException):
    """PostHog's 402 for a paid feature (``posthog/exceptions.py``), as PostHog Cloud words it."""

    status_code = status.HTTP_402_PAYMENT_REQUIRED
    default_code = "payment_required"

    def __init__(self, feature: str | None = None) -> None:
        super().__init__(
            detail=(
                f"{feature.capitalize() if feature else 'This feature'} is part of the premium PostHog offering. "
                "To use it, subscribe to PostHog Cloud with a generous free tier."
            )
        )


class TagsShownMixin:
    """A definition's tags as PostHog answers them: only with the organization's ``tagging`` feature."""

    def _tagging(self) -> bool:
        return TaxonomySettings.has(self.context["get_team"]().organization, "tagging")

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["tags"] = list(instance.tags or []) if self._tagging() else []
        return data


class _TaggedSerializerMixin(TagsShownMixin):
    """Tags as ``TaggedItemSerializerMixin``: stored only with the ``tagging`` feature. Also the
    create path both serializers share (``EventDefinitionSerializer.validate_name`` and
    ``create``): the name is writable only when creating."""

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is None:
            fields["name"] = serializers.CharField(max_length=400)
        return fields

    def validate_name(self, value):
        if self.instance is None and EventDefinition.objects.filter(team=self.context["get_team"](), name=value).exists():
            raise serializers.ValidationError(f"Event definition with name '{value}' already exists")
        return value

    def create(self, validated_data):
        validated_data.pop("post_to_slack", None)
        tags = validated_data.pop("tags", None)
        validated_data = verification_changes(validated_data, False, self.context["request"].user, timezone.now())
        definition = EventDefinition.objects.create(
            team=self.context["get_team"](), created_at=None, last_seen_at=None, **validated_data,
            tags=normalise_tags(tags) if tags and self._tagging() else [],
        )  # fmt: skip
        return definition



class EventDefinitionSerializer(_TaggedSerializerMixin, ModelSerializer):
    """The open-source serializer: every field read-only; updates answer 402."""

    tags = serializers.ListField(child=serializers.CharField(allow_blank=True), required=False)
    is_action = serializers.SerializerMethodField()
    action_id = serializers.SerializerMethodField()
    is_calculating = serializers.SerializerMethodField()
    last_calculated_at = serializers.SerializerMethodField()
    last_updated_at = serializers.SerializerMethodField()
    created_by = serializers.SerializerMethodField()
    post_to_slack = serializers.BooleanField(default=False)

    class Meta:
        model = EventDefinition
        fields = [
            "id",
            "name",
            "created_at",
            "last_seen_at",
            "last_updated_at",
            "tags",
            "is_action",
            "action_id",
            "is_calculating",
            "last_calculated_at",
            "created_by",
            "post_to_slack",
        ]
        read_only_fields = ["id", "name", "created_at", "last_seen_at"]

    def get_is_action(self, obj) -> bool:
        return False

    def get_action_id(self, obj):
        return None

    def get_is_calculating(self, obj) -> bool:
        return False

    def get_last_calculated_at(self, obj):
        return None

    def get_last_updated_at(self, obj):
        return None

    def get_created_by(self, obj):
        return None

    def update(self, instance, validated_data):
        raise EnterpriseFeatureException()


class OwnerField(serializers.PrimaryKeyRelatedField):
    """A user id on write; members of the project's organization only."""

    def get_queryset(self):
        organization = self.context["get_team"]().organization
        return User.objects.filter(organization_memberships__organization=organization)


class EnterpriseEventDefinitionSerializer(EventDefinitionSerializer):
    """``EnterpriseEventDefinitionSerializer``: the metadata fields are writable."""

    owner = OwnerField(required=False, allow_null=True)
    updated_by = UserBasicSerializer(read_only=True)
    verified_by = UserBasicSerializer(read_only=True)
    default_columns = serializers.ListField(child=serializers.CharField(), required=False)

    class Meta(EventDefinitionSerializer.Meta):
        fields = [
            "id",
            "name",
            "owner",
            "description",
            "tags",
            "created_at",
            "updated_at",
            "updated_by",
            "last_seen_at",
            "last_updated_at",
            "verified",
            "verified_at",
            "verified_by",
            "hidden",
            "is_action",
            "action_id",
            "is_calculating",
            "last_calculated_at",
            "created_by",
            "post_to_slack",
            "default_columns",
        ]
        read_only_fields = ["id", "name", "created_at", "updated_at", "last_seen_at", "verified_at"]
        extra_kwargs = {"description": {"allow_null": True, "required": False}}

    def validate(self, data):
        data = super().validate(data)
        with rule_errors():
            check_hidden_and_verified(data)
        return data

    def update(self, instance, validated_data):
        tags = validated_data.pop("tags", None)
        validated_data = verification_changes(
            validated_data, instance.verified, self.context["request"].user, timezone.now()
        )
        # post_to_slack is set on the instance (so this response echoes it) but never saved.
        instance = serializers.ModelSerializer.update(self, instance, validated_data)
        if tags is not None and self._tagging():
            instance.tags = normalise_tags(tags)
            instance.save(update_fields=["tags", "updated_at"])
        return instance

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["owner"] = UserBasicSerializer(instance.owner).data if instance.owner_id else None
        if data.get("default_columns") is None:
            data["default_columns"] = []
        return data


class DefinitionViewMixin:
    """What the event and property definition viewsets share: a definition is found by its UUID in the
    project (an unknown or malformed id is 404), and the organization's ``ingestion_taxonomy`` feature
    chooses the enterprise serializer."""

    lookup_field = "id"
    lookup_value_regex = r"[^/]+"

    def is_enterprise(self) -> bool:
        return TaxonomySettings.has(self.organization, "ingestion_taxonomy")

    def get_object(self):
        try:
            definition_id = UUID(str(self.kwargs[self.lookup_field]))
        except ValueError:
            raise NotFound()
        obj = self.get_queryset().filter(id=definition_id).first()
        if obj is None:
            raise NotFound()
        self.check_object_permissions(self.request, obj)
        return obj


class EventDefinitionViewSet(
    DefinitionViewMixin,
    ProjectNestedMixin,
    mixins.CreateModelMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    scope_object = "event_definition"
    queryset = EventDefinition.objects.select_related("owner", "updated_by", "verified_by")

    def create(self, request, *args, **kwargs):
        if not profiles.is_posthog():
            raise MethodNotAllowed(request.method)
        return super().create(request, *args, **kwargs)

    def perform_create(self, serializer):
        extra = {"updated_by": self.request.user} if self.is_enterprise() else {}
        serializer.save(**extra)

    metrics_totals = refused_action("metrics_totals", "GET", url_path="metrics")  # no scope in PostHog

    def get_serializer_class(self):
        return EnterpriseEventDefinitionSerializer if self.is_enterprise() else EventDefinitionSerializer

    def safely_get_queryset(self, queryset):
        if self.action != "list":
            return queryset
        params = self.request.query_params
        for term in (params.get("search") or "").split():
            queryset = queryset.filter(name__icontains=term)

        with rule_errors():
            kind = event_type_filter(params.get("event_type", "event"))
        if kind == "posthog":
            queryset = queryset.filter(name__startswith="$")
        elif kind == "custom":
            queryset = queryset.exclude(name__startswith="$")

        if params.get("exclude_hidden", "false").lower() == "true" and self.is_enterprise():
            queryset = queryset.exclude(hidden=True)

        with rule_errors():
            excluded = excluded_names(params.get("excluded_properties"))
        if excluded is not None:
            queryset = queryset.exclude(name__in=excluded)

        return queryset.order_by(*self._ordering())

    def _ordering(self) -> list:
        expressions = []
        for field, descending in ordering_fields(self.request.query_params.getlist("ordering")):
            if field == "name":
                expressions.append(F("name").desc() if descending else F("name").asc())
                continue
            column, _, cast = field.partition("::")
            expression = TruncDate(column) if cast == "date" else F(column)
            expressions.append(expression.desc(nulls_last=True) if descending else expression.asc(nulls_first=True))
        return expressions


def register(router) -> None:
    router.register(project_prefix("event_definitions"), EventDefinitionViewSet, basename="project_event_definitions")
