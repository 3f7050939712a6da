"""Serializers of batch exports: the export record, its runs and backfills (spec 2.3; docs/posthog_facts.md §5), in
the middle generation (:class:`BatchExportSerializer`) and the newest (:class:`NewestBatchExportSerializer`).

The rules they apply (destination configs, HogQL, filters) are :mod:`posthog_emulator.rules.batch_exports`;
the viewsets are :mod:`posthog_emulator.api.batch_exports`.
"""

from __future__ import annotations

import re
import zoneinfo

from django.db import transaction
from django.utils import timezone
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from posthog_emulator import profiles
from posthog_emulator.api.shared import ModelSerializer, rule_errors
from posthog_emulator.models import (
    BatchExport,
    BatchExportBackfill,
    BatchExportDestination,
    BatchExportRun,
    FeatureFlags,
    Integration,
)
from posthog_emulator.models.batch_exports import INTERVALS, MODELS, NEWEST_MODELS
from posthog_emulator.rules import RuleError
from posthog_emulator.rules.batch_exports import (
    DESTINATIONS,
    HIGH_FREQUENCY_FLAG,
    INCREMENTAL_MODES,
    NEWEST_DESTINATIONS,
    check_destination_type,
    check_interval_allowed,
    check_filters,
    check_hogql_model,
    check_hogql_modifiers,
    check_incremental,
    check_integration,
    check_model,
    check_sticky_integration,
    check_newest_config,
    check_newest_destination_type,
    check_newest_filters,
    check_newest_model,
    check_offset_for_interval,
    hogql_schema,
    interval_offset,
    keeps_integration,
    newest_secret_keys,
    secret_keys,
    strip_secrets,
    validate_config,
    validate_newest_config,
)



class BatchExportRunSerializer(ModelSerializer):
    class Meta:
        model = BatchExportRun
        fields = [
            "id", "status", "records_completed", "latest_error", "data_interval_start", "data_interval_end",
            "cursor", "created_at", "finished_at", "last_updated_at", "records_total_count", "bytes_exported",
            "batch_export", "backfill",
        ]  # fmt: skip
        read_only_fields = fields


class BatchExportBackfillSerializer(ModelSerializer):
    team_id = serializers.IntegerField(read_only=True)

    class Meta:
        model = BatchExportBackfill
        fields = [
            "id", "team_id", "batch_export", "start_at", "end_at", "status", "created_at", "finished_at",
            "last_updated_at", "total_records_count",
        ]  # fmt: skip
        read_only_fields = fields


class DestinationSerializer(serializers.Serializer):
    type = serializers.ChoiceField(choices=list(DESTINATIONS))
    config = serializers.JSONField(required=False, default=dict)


class BatchExportSerializer(ModelSerializer):
    destination = DestinationSerializer()
    interval = serializers.ChoiceField(choices=INTERVALS)
    model = serializers.ChoiceField(choices=MODELS, required=False, default="events")
    latest_runs = serializers.SerializerMethodField()
    hogql_query = serializers.CharField(required=False, allow_blank=True, allow_null=True, write_only=True)
    team_id = serializers.IntegerField(read_only=True)

    class Meta:
        model = BatchExport
        fields = [
            "id", "team_id", "name", "model", "destination", "interval", "paused", "created_at",
            "last_updated_at", "last_paused_at", "start_at", "end_at", "latest_runs", "hogql_query", "schema",
            "filters",
        ]  # fmt: skip
        read_only_fields = ["id", "team_id", "created_at", "last_updated_at", "latest_runs", "schema"]

    # ---------------------------------------------------------------- output
    def to_representation(self, instance: BatchExport) -> dict:
        data = super().to_representation(instance)
        destination = instance.destination
        data["destination"] = {
            "type": destination.type,
            "config": strip_secrets(destination.config or {}, secret_keys(destination.type)),
        }
        query = (instance.schema or {}).get("hogql_query")
        if profiles.is_spec() and query is not None:
            # The spec's record lists hogql_query (PostHog's serializer of that time never returned
            # it); a string, as PostHog's schema types it, so an export without one leaves it out.
            data["hogql_query"] = query
        return data

    def get_latest_runs(self, instance: BatchExport) -> list[dict]:
        runs = instance.runs.order_by("-created_at", "-id")[:10]
        return BatchExportRunSerializer(runs, many=True).data

    # ------------------------------------------------------------ validation
    def validate_destination(self, value: dict) -> dict:
        instance: BatchExport | None = self.instance
        stored = instance.destination if instance is not None else None
        destination_type = value.get("type") or (stored.type if stored else None)
        if destination_type is None:
            raise ValidationError("This field is required.", code="required")
        same_type = stored is not None and stored.type == destination_type
        is_partial = bool(self.partial)
        with rule_errors():
            check_destination_type(destination_type)
            config = validate_config(
                destination_type,
                value.get("config") or {},
                stored.config if same_type else None,
                # Required keys: on POST and PUT, and on a PATCH that changes the type.
                check_required=not is_partial or not same_type,
            )
        return {"type": destination_type, "config": config}

    def validate_interval(self, value: str) -> str:
        """Sub-hour intervals need the ``high-frequency-batch-exports`` flag (on unless a test
        switched it off: ``PUT /_emulator/organizations/<org>/features``)."""
        if "get_organization" in self.context:
            organization_id = self.context["get_organization"]().id
        else:
            organization_id = self.context["get_team"]().organization_id
        with rule_errors():
            check_interval_allowed(value, FeatureFlags.enabled(organization_id, HIGH_FREQUENCY_FLAG))
        return value

    def validate_filters(self, value):
        with rule_errors():
            return check_filters(value)

    def validate_hogql_query(self, value):
        if value in (None, ""):
            return None
        with rule_errors():
            return hogql_schema(value)

    def validate(self, attrs: dict) -> dict:
        destination = attrs.get("destination")
        model = attrs.get("model") or (self.instance.model if self.instance else "events")
        destination_type = (
            destination["type"] if destination else (self.instance.destination.type if self.instance else None)
        )
        with rule_errors():
            check_model(destination_type, model)
        return attrs

    # --------------------------------------------------------------- writing
    def create(self, validated_data: dict) -> BatchExport:
        destination_data = validated_data.pop("destination")
        schema = validated_data.pop("hogql_query", None)
        if schema is not None:
            validated_data["schema"] = schema
        if validated_data.get("paused"):
            validated_data["last_paused_at"] = timezone.now()
        with transaction.atomic():
            destination = BatchExportDestination.objects.create(**destination_data)
            return BatchExport.objects.create(
                team=self.context["get_team"](), destination=destination, **validated_data
            )

    def update(self, instance: BatchExport, validated_data: dict) -> BatchExport:
        destination_data = validated_data.pop("destination", None)
        if "hogql_query" in validated_data:
            schema = validated_data.pop("hogql_query")
            if schema is not None:
                validated_data["schema"] = schema
        with transaction.atomic():
            if destination_data:
                instance.destination.type = destination_data["type"]
                instance.destination.config = destination_data["config"]
                instance.destination.save()
            return super().update(instance, validated_data)


# --------------------------------------------------------------------------------------------
# The newest generation (``products/batch_exports/backend/presentation/views/batch_export/``)
# --------------------------------------------------------------------------------------------

TIMEZONES = sorted(zoneinfo.available_timezones() | {"UTC"})


class NewestDestinationSerializer(serializers.Serializer):
    """``BatchExportDestinationSerializer``: ``type``, ``config``, ``integration`` (an id, read and
    written) and write-only ``integration_id`` (the same, as PostHog's request schema names it)."""

    type = serializers.ChoiceField(choices=list(NEWEST_DESTINATIONS))
    config = serializers.JSONField(required=False, default=dict)
    integration = serializers.IntegerField(required=False, allow_null=True)
    integration_id = serializers.IntegerField(required=False, allow_null=True, write_only=True)

    def to_representation(self, destination) -> dict:
        return {}  # NewestBatchExportSerializer.to_representation writes it (secrets stripped)


class NewestBatchExportSerializer(serializers.ModelSerializer):
    """The newest ``BatchExportSerializer``: integration-backed destinations, ``timezone``,
    ``offset_day``/``offset_hour``, ``hogql_modifiers`` and the ``hogql`` model."""

    destination = NewestDestinationSerializer()
    interval = serializers.ChoiceField(choices=INTERVALS)
    model = serializers.ChoiceField(choices=NEWEST_MODELS, required=False)
    latest_runs = serializers.SerializerMethodField()
    hogql_query = serializers.CharField(required=False, allow_null=True, allow_blank=True)
    hogql_modifiers = serializers.JSONField(required=False, allow_null=True)
    timezone = serializers.ChoiceField(choices=TIMEZONES, required=False, allow_null=True)
    offset_day = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=6)
    offset_hour = serializers.IntegerField(required=False, allow_null=True, min_value=0, max_value=23)
    team_id = serializers.IntegerField(read_only=True)
    primary_key = serializers.ListField(child=serializers.CharField(allow_blank=False), required=False,
                                        allow_null=True, allow_empty=False)
    version_key = serializers.ListField(child=serializers.CharField(allow_blank=False), required=False,
                                        allow_null=True, allow_empty=False)
    incremental_mode = serializers.ChoiceField(choices=INCREMENTAL_MODES, required=False)

    class Meta:
        model = BatchExport
        fields = [
            "id", "team_id", "name", "model", "destination", "interval", "paused", "created_at",
            "last_updated_at", "last_paused_at", "start_at", "end_at", "latest_runs", "hogql_query",
            "hogql_modifiers", "primary_key", "version_key", "incremental_mode", "schema", "filters", "timezone",
            "offset_day", "offset_hour",
        ]  # fmt: skip
        read_only_fields = ["id", "team_id", "created_at", "last_updated_at", "latest_runs", "schema"]

    # ---------------------------------------------------------------- output
    def to_representation(self, instance: BatchExport) -> dict:
        data = super().to_representation(instance)
        destination = instance.destination
        data["destination"] = {
            "type": destination.type,
            "config": strip_secrets(destination.config or {}, newest_secret_keys(destination.type)),
            "integration": destination.integration_id,
        }
        if instance.model == "hogql":
            data["hogql_query"] = instance.hogql_query
        else:
            data["hogql_query"] = (instance.schema or {}).get("hogql_query")
        return data

    def get_latest_runs(self, instance: BatchExport) -> list[dict]:
        runs = instance.runs.order_by("-created_at", "-id")[:10]
        return BatchExportRunSerializer(runs, many=True).data

    # ------------------------------------------------------------ validation
    def _interval(self):
        interval = self.initial_data.get("interval") if isinstance(self.initial_data, dict) else None
        return interval if interval is not None else (self.instance.interval if self.instance else None)

    def validate_timezone(self, value):
        return "UTC" if value is None else value

    def validate_offset_day(self, value):
        with rule_errors():
            return check_offset_for_interval("offset_day", value, self._interval())

    def validate_offset_hour(self, value):
        with rule_errors():
            return check_offset_for_interval("offset_hour", value, self._interval())

    def validate_filters(self, value):
        with rule_errors():
            return check_newest_filters(value)

    def validate_hogql_modifiers(self, value):
        with rule_errors():
            return check_hogql_modifiers(value)

    def validate_destination(self, value: dict) -> dict:
        instance: BatchExport | None = self.instance
        stored = instance.destination if instance is not None else None
        destination_type = value.get("type") or (stored.type if stored else None)
        team = self.context["get_team"]()
        sent_integration = "integration" in value or "integration_id" in value
        integration_id = value.get("integration_id", value.get("integration"))
        integration = None
        if integration_id is not None:
            integration = Integration.objects.filter(id=integration_id, team=team).first()
            if integration is None:
                field = "integration_id" if "integration_id" in value else "integration"
                raise ValidationError({field: [f'Invalid pk "{integration_id}" - object does not exist.']},
                                      code="does_not_exist")
        elif not sent_integration and stored is not None and keeps_integration(destination_type):
            integration = stored.integration  # a PATCH with config alone keeps the integration
        with rule_errors():
            check_newest_destination_type(destination_type, stored.type if stored else None)
            check_sticky_integration(destination_type, stored.integration_id if stored else None, integration)
            config = validate_newest_config(destination_type, value.get("config") or {},
                                            stored.config if stored else None, check_required=not self.partial)
            check_integration(destination_type, integration.kind if integration else None, creating=stored is None)
            check_newest_config(destination_type, config, value.get("config") or {})
        validated = {"type": destination_type, "config": config}
        if stored is None or sent_integration or integration is not None:
            validated["integration"] = integration
        return validated

    def validate(self, attrs: dict) -> dict:
        instance: BatchExport | None = self.instance
        destination = attrs.get("destination")
        if destination and destination["type"] == "HTTP" and attrs.get("model") not in (None, "events"):
            raise ValidationError("HTTP batch exports only support the events model")
        interval = attrs.get("interval")
        if interval is not None:
            offsets = {k: attrs.pop(k) for k in ("offset_day", "offset_hour") if k in attrs}
            with rule_errors():
                changed, value = interval_offset(interval, self.partial, offsets,
                                                 instance.interval_offset if instance else None)
            if changed:
                attrs["interval_offset"] = value
        else:
            for key in ("offset_day", "offset_hour"):
                attrs.pop(key, None)
        current_model = instance.model if instance is not None else None
        model = attrs.get("model") or current_model or "events"
        with rule_errors():
            check_newest_model(current_model, model)
            query = attrs.get("hogql_query", instance.hogql_query if instance is not None else None)
            modifiers = attrs.get("hogql_modifiers")
            check_hogql_model(model, attrs.get("filters"), query, modifiers)
            saved = {"primary_key": instance.primary_key, "version_key": instance.version_key,
                     "incremental_mode": instance.incremental_mode} if instance is not None else {}
            check_incremental(model, attrs, saved, query)
            if model != "hogql" and attrs.get("hogql_query"):
                attrs["schema"] = hogql_schema(attrs["hogql_query"])
        if model == "hogql" and attrs.get("hogql_query"):
            with rule_errors():
                if not re.match(r"^\s*select\b", attrs["hogql_query"], re.I):
                    raise RuleError("Failed to parse query", attr="hogql_query")
        return attrs

    # --------------------------------------------------------------- writing
    def create(self, validated_data: dict) -> BatchExport:
        destination_data = validated_data.pop("destination")
        model = validated_data.setdefault("model", "events")
        if model != "hogql":
            validated_data.pop("hogql_query", None)
        if validated_data.get("paused"):
            validated_data["last_paused_at"] = timezone.now()
        with transaction.atomic():
            destination = BatchExportDestination.objects.create(**destination_data)
            return BatchExport.objects.create(team=self.context["get_team"](), destination=destination,
                                              **validated_data)

    def update(self, instance: BatchExport, validated_data: dict) -> BatchExport:
        destination_data = validated_data.pop("destination", None)
        if instance.model != "hogql":
            if "hogql_query" in validated_data and not validated_data["hogql_query"]:
                validated_data["schema"] = None
            validated_data.pop("hogql_query", None)
        with transaction.atomic():
            if destination_data:
                instance.destination.config = destination_data["config"]
                # ``destination_data.get("integration", <the stored one>)``: kept unless one is given
                if "integration" in destination_data:
                    instance.destination.integration = destination_data["integration"]
                instance.destination.save()
            return super().update(instance, validated_data)


class PostHogBatchExportBackfillSerializer(serializers.ModelSerializer):
    """PostHog's ``BatchExportBackfillSerializer`` (``fields = "__all__"`` plus ``progress``)."""

    progress = serializers.SerializerMethodField()

    class Meta:
        model = BatchExportBackfill
        fields = [
            "id", "progress", "start_at", "end_at", "status", "created_at", "finished_at", "last_updated_at",
            "total_records_count", "adjusted_start_at", "team", "batch_export",
        ]  # fmt: skip
        read_only_fields = fields

    def get_progress(self, backfill: BatchExportBackfill) -> dict | None:
        """Progress of a finished (``Completed``) backfill; None while running or after a failure."""
        if backfill.status == "Completed":
            return {"total_runs": 1, "finished_runs": 1, "progress": 1.0}
        return None
