"""Serializers of batch exports: the export record, its runs and backfills (spec 2.3; facts 5).

The rules they apply (destination configs, HogQL, filters) are :mod:`posthog_emulator.rules.batch_exports`;
the viewsets are :mod:`posthog_emulator.api.batch_exports`.
"""

from __future__ import annotations

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
)
from posthog_emulator.models.batch_exports import INTERVALS, MODELS
from posthog_emulator.rules.batch_exports import (
    DESTINATIONS,
    HIGH_FREQUENCY_FLAG,
    check_destination_type,
    check_interval_allowed,
    check_filters,
    check_model,
    hogql_schema,
    secret_keys,
    strip_secrets,
    validate_config,
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
        if profiles.is_spec():
            # The spec's record lists hogql_query; PostHog's serializer never returns it.
            data["hogql_query"] = (instance.schema or {}).get("hogql_query")
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
