"""Batch exports (spec 2.3, 3.1, 4.2; facts 5), served on two routes:

* ``/api/organizations/<organization_id>/batch_exports`` (the spec's route), and
* ``/api/projects/<project_id>/batch_exports``, which PostHog also serves and where it adds the
  sub-resources ``runs`` and ``backfills`` (facts 0.2).

As ``posthog/batch_exports/http.py``:

* Scope object ``batch_export``; the actions ``pause``, ``unpause`` and ``backfill`` explicitly need
  ``batch_export:write`` (facts 0.6). Any member of the organization may read and write.
* Lists are limit/offset envelopes ordered by ``-created_at``. Deleted exports are hidden (404).
* Fields: spec 2.3 plus ``filters``. ``latest_runs`` holds the 10 newest runs, newest first.
  ``hogql_query`` is write-only on PostHog (it is turned into ``schema``): profile ``posthog``
  omits it from answers, profile ``spec`` (whose record lists it) answers it from ``schema``.
* Destination types and config keys, required keys (POST/PUT only), unknown keys, type
  conversion and the per-type rules come from :data:`DESTINATIONS` (facts 5 table). Errors about
  the config carry ``attr`` ``destination`` (facts 9: PostHog's exact attr is unconfirmed); an
  unknown type is ``invalid_choice`` on ``destination__type``.
* **Secret config keys are never returned** (removed recursively, as the newest code does). A PATCH
  merges the sent config into the stored one, so omitted secrets are kept.
* ``every 5 minutes`` / ``every 15 minutes`` need PostHog's feature flag ``high-frequency-batch-exports``;
  the emulator behaves as if it were on. Databricks needs a flag and an integration the emulator
  does not have: 403 "Databricks batch exports are not enabled for this team." (wording unconfirmed).
* Creating through the organization route: PostHog's serializer needs a team from the URL, which
  the organization route does not give (facts 5: probably broken upstream). The emulator creates
  the export in the organization's first project instead.
* ``pause`` / ``unpause``: no-ops when already in that state; pause sets ``last_paused_at``.
  ``unpause`` with ``{"backfill": true}`` also records a backfill from ``last_paused_at`` to now.
  ``backfill`` validates ISO-8601 timestamps with a timezone, ``start_at < end_at`` and an
  ``end_at`` at most one interval in the future (PostHog's messages), and records a backfill whose
  workflow id is ``<id>-Backfill-<start|START>-<end|END>``. Answers: profile ``spec`` the batch
  export record (spec 3.1/4.2), profile ``posthog`` ``{"paused": bool}`` and ``{"backfill_id": ...}``.
  PostHog's "There is no data to backfill for this model." is not emulated (there are no events).
* Delete is soft (``deleted=true``); running backfills are cancelled. 204.
"""

from __future__ import annotations

import datetime as dt
import re
from uuid import UUID

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response

from posthog_emulator import profiles
from posthog_emulator.models import BatchExport, BatchExportBackfill, BatchExportDestination, BatchExportRun
from posthog_emulator.models.batch_exports import INTERVALS, MODELS
from posthog_emulator.routing import OrganizationNestedMixin, ProjectNestedMixin, organization_prefix, project_prefix

# --------------------------------------------------------------------------------------------
# Destinations (facts 5, "Destination types and config keys")
# --------------------------------------------------------------------------------------------

#: Keys every destination accepts, with their types.
COMMON_KEYS = {"exclude_events": list, "include_events": list}

#: type -> required keys, optional keys (both with types) and secret keys (never returned).
DESTINATIONS = {
    "S3": {
        "required": {"bucket_name": str, "region": str, "prefix": str},
        "optional": {
            "aws_access_key_id": str, "aws_secret_access_key": str, "compression": str, "encryption": str,
            "kms_key_id": str, "endpoint_url": str, "file_format": str, "max_file_size_mb": int,
            "use_virtual_style_addressing": bool,
        },
        "secret": ("aws_access_key_id", "aws_secret_access_key"),
    },
    "Snowflake": {
        "required": {"account": str, "user": str, "database": str, "warehouse": str, "schema": str},
        "optional": {
            "table_name": str, "authentication_type": str, "password": str, "private_key": str,
            "private_key_passphrase": str, "role": str,
        },
        "secret": ("user", "password", "private_key", "private_key_passphrase"),
    },
    "Postgres": {
        "required": {"user": str, "password": str, "host": str, "database": str},
        "optional": {"schema": str, "table_name": str, "port": int, "has_self_signed_cert": bool},
        "secret": ("user", "password"),
    },
    "Redshift": {
        "required": {"user": str, "password": str, "host": str, "database": str},
        "optional": {
            "schema": str, "table_name": str, "port": int, "properties_data_type": str, "mode": str,
            "copy_inputs": dict,
        },
        # The newest code strips secrets recursively, which reaches the AWS keys inside copy_inputs.
        "secret": ("user", "password", "aws_access_key_id", "aws_secret_access_key"),
    },
    "BigQuery": {
        "required": {
            "project_id": str, "dataset_id": str, "private_key": str, "private_key_id": str, "token_uri": str,
            "client_email": str,
        },
        "optional": {"table_id": str, "use_json_type": bool},
        "secret": ("private_key", "private_key_id", "client_email", "token_uri"),
    },
    "Databricks": {
        "required": {"http_path": str, "catalog": str, "schema": str, "table_name": str},
        "optional": {"use_variant_type": bool, "use_automatic_schema_evolution": bool},
        "secret": (),
    },
    "HTTP": {
        "required": {"url": str, "token": str},
        "optional": {},
        "secret": ("token",),
    },
    "NoOp": {
        "required": {},
        "optional": {"arg": str},
        "secret": (),
    },
}  # fmt: skip

HTTP_URLS = ("https://us.i.posthog.com/batch/", "https://eu.i.posthog.com/batch/")
S3_FILE_FORMATS = {"JSONLines": ("gzip", "brotli"), "Parquet": ("zstd", "lz4", "snappy", "gzip", "brotli")}
TYPE_NAMES = {str: "str", int: "int", bool: "bool", list: "list", dict: "dict"}


def secret_keys(destination_type: str) -> tuple:
    return DESTINATIONS.get(destination_type, {}).get("secret", ())


def strip_secrets(value, secrets: tuple):
    """``value`` without the ``secrets`` keys, at any depth."""
    if isinstance(value, dict):
        return {k: strip_secrets(v, secrets) for k, v in value.items() if k not in secrets}
    if isinstance(value, list):
        return [strip_secrets(v, secrets) for v in value]
    return value


def _convert(value, expected):
    """``value`` as ``expected`` where PostHog converts it (strings to bool/int), else raise."""
    if value is None or expected is None:
        return value
    if expected is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
    elif expected is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
            return int(value)
    elif isinstance(value, expected):
        return value
    raise ValidationError(
        f"Configuration has invalid type: got '{type(value).__name__}', expected '{TYPE_NAMES[expected]}'"
    )


def validate_config(destination_type: str, sent: dict, stored: dict | None, check_required: bool) -> dict:
    """The config to store: ``sent`` merged into ``stored`` (when given), checked by the type's rules."""
    spec = DESTINATIONS[destination_type]
    if not isinstance(sent, dict):
        raise ValidationError("Configuration must be an object.")
    known = {**spec["required"], **spec["optional"], **COMMON_KEYS}
    unknown = [key for key in sent if key not in known]
    if unknown:
        raise ValidationError("Configuration has unknown field/s: " + ", ".join(f"'{key}'" for key in unknown))
    if check_required:
        for key in spec["required"]:
            if key not in sent:
                raise ValidationError(f"Configuration missing required field: '{key}'")
    converted = {key: _convert(value, known[key]) for key, value in sent.items()}
    for key in COMMON_KEYS:
        if converted.get(key) is not None and not all(isinstance(item, str) for item in converted[key]):
            raise ValidationError(f"Configuration has invalid type: '{key}' must be a list of event names")
    config = {**(stored or {}), **converted}
    check = DESTINATION_CHECKS.get(destination_type)
    if check is not None:
        check(config)
    return config


def _check_s3(config: dict) -> None:
    file_format = config.get("file_format") or "JSONLines"
    if file_format not in S3_FILE_FORMATS:
        raise ValidationError(f"File format {file_format} is not supported. Supported: JSONLines, Parquet.")
    compression = config.get("compression")
    if compression and compression not in S3_FILE_FORMATS[file_format]:
        raise ValidationError(
            f"Compression {compression} is not supported for file format {file_format}. "
            f"Supported: {', '.join(S3_FILE_FORMATS[file_format])}."
        )
    keys = ("bucket_name", "region", "prefix", "aws_access_key_id", "aws_secret_access_key")
    empty = [key for key in keys if key in config and isinstance(config[key], str) and not config[key].strip()]
    if empty:
        raise ValidationError(f"The following inputs are empty: {empty}")
    if config.get("endpoint_url") == "":
        config["endpoint_url"] = None


def _check_snowflake(config: dict) -> None:
    authentication = config.get("authentication_type") or "password"
    if authentication not in ("password", "keypair"):
        raise ValidationError(f"Unsupported authentication type: '{authentication}'")
    if authentication == "password" and not config.get("password"):
        raise ValidationError("Password is required if authentication type is password")
    if authentication == "keypair" and not config.get("private_key"):
        raise ValidationError("Private key is required if authentication type is key pair")


def _check_redshift(config: dict) -> None:
    mode = config.get("mode") or "INSERT"
    if mode not in ("INSERT", "COPY"):
        raise ValidationError(f"Unsupported Redshift mode: '{mode}'")
    if mode == "COPY":
        copy_inputs = config.get("copy_inputs")
        if not isinstance(copy_inputs, dict):
            raise ValidationError("Redshift COPY mode requires 'copy_inputs'")
        for key in ("s3_bucket", "region_name", "authorization", "bucket_credentials"):
            if not copy_inputs.get(key):
                raise ValidationError(f"Redshift COPY mode requires 'copy_inputs.{key}'")


def _check_http(config: dict) -> None:
    if config.get("url") not in HTTP_URLS:
        raise ValidationError(f"Invalid destination URL: {config.get('url')}")


DESTINATION_CHECKS = {"S3": _check_s3, "Snowflake": _check_snowflake, "Redshift": _check_redshift, "HTTP": _check_http}


# --------------------------------------------------------------------------------------------
# HogQL (a small stand-in for PostHog's parser: SELECT <fields> FROM events [WHERE ...])
# --------------------------------------------------------------------------------------------

_SELECT_RE = re.compile(r"^\s*select\s+(?P<fields>.+?)\s+from\s+(?P<table>[A-Za-z_][\w.]*)(?P<rest>.*)$", re.I | re.S)


def _split_top_level(text: str) -> list[str]:
    parts, depth, current, quote = [], 0, "", None
    for char in text:
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"`":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += char
    if current.strip():
        parts.append(current.strip())
    return parts


def hogql_schema(query: str) -> dict:
    """The ``schema`` PostHog derives from a batch export's HogQL query, with its messages."""
    if not isinstance(query, str) or not query.strip():
        raise ValidationError("Failed to parse query")
    if re.search(r"\bunion\b", query, re.I):
        raise ValidationError("UNIONs are not supported")
    match = _SELECT_RE.match(query)
    if match is None:
        if re.match(r"^\s*select\b", query, re.I) and not re.search(r"\bfrom\b", query, re.I):
            raise ValidationError("Query must SELECT FROM events")
        raise ValidationError("Failed to parse query")
    if match["table"] != "events":
        raise ValidationError("Query must only SELECT FROM events")
    if re.search(r"\bjoin\b", match["rest"], re.I):
        raise ValidationError("JOINs are not supported")
    if re.search(r"\(\s*select\b", query, re.I):
        raise ValidationError("Query must only SELECT FROM events")
    fields = []
    for part in _split_top_level(match["fields"]):
        alias_match = re.match(r"^(?P<expr>.+?)\s+as\s+(?P<alias>[A-Za-z_]\w*)$", part, re.I | re.S)
        if alias_match:
            fields.append({"expression": alias_match["expr"].strip(), "alias": alias_match["alias"]})
        else:
            fields.append({"expression": part, "alias": part})
    return {"fields": fields, "values": {}, "hogql_query": query.strip()}


# --------------------------------------------------------------------------------------------
# Serializers
# --------------------------------------------------------------------------------------------


class BatchExportRunSerializer(serializers.ModelSerializer):
    class Meta:
        model = BatchExportRun
        fields = [
            "id", "status", "records_completed", "latest_error", "data_interval_start", "data_interval_end",
            "cursor", "created_at", "finished_at", "last_updated_at", "records_total_count", "bytes_exported",
            "batch_export", "backfill",
        ]  # fmt: skip
        read_only_fields = fields


class BatchExportBackfillSerializer(serializers.ModelSerializer):
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


class BatchExportSerializer(serializers.ModelSerializer):
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
        if destination_type == "Databricks":
            raise PermissionDenied("Databricks batch exports are not enabled for this team.")
        same_type = stored is not None and stored.type == destination_type
        is_partial = bool(self.partial)
        config = validate_config(
            destination_type,
            value.get("config") or {},
            stored.config if same_type else None,
            # Required keys: on POST and PUT, and on a PATCH that changes the type.
            check_required=not is_partial or not same_type,
        )
        return {"type": destination_type, "config": config}

    def validate_filters(self, value):
        if value is None:
            return None
        if not isinstance(value, list):
            raise ValidationError("Filters must be a list.")
        for item in value:
            if isinstance(item, dict) and item.get("key") in ("data_interval_start", "data_interval_end"):
                raise ValidationError("Filters may not reference 'data_interval_start' or 'data_interval_end'.")
        return value

    def validate_hogql_query(self, value):
        if value in (None, ""):
            return None
        return hogql_schema(value)

    def validate(self, attrs: dict) -> dict:
        destination = attrs.get("destination")
        model = attrs.get("model") or (self.instance.model if self.instance else "events")
        destination_type = (
            destination["type"] if destination else (self.instance.destination.type if self.instance else None)
        )
        if destination_type == "HTTP" and model != "events":
            raise ValidationError({"model": "HTTP batch exports only support the events model."})
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
# Actions
# --------------------------------------------------------------------------------------------


def parse_backfill_input(value, name: str):
    """PostHog's ``validate_date_input``: ISO-8601 with a timezone, else 400 (facts 5)."""
    if value is None:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise ValidationError(f"Input {value} is not a valid ISO formatted datetime.")
    if parsed.tzinfo is None:
        raise ValidationError(f"Input {value} is naive.")
    return parsed


def workflow_id(batch_export: BatchExport, start_at, end_at) -> str:
    """PostHog's backfill workflow id: ``<id>-Backfill-<start UTC iso|START>-<end UTC iso|END>``."""
    start = start_at.astimezone(dt.timezone.utc).isoformat() if start_at else "START"
    end = end_at.astimezone(dt.timezone.utc).isoformat() if end_at else "END"
    return f"{batch_export.id}-Backfill-{start}-{end}"


def record_backfill(batch_export: BatchExport, start_at, end_at) -> BatchExportBackfill:
    return BatchExportBackfill.objects.create(
        team=batch_export.team,
        batch_export=batch_export,
        start_at=start_at,
        end_at=end_at,
        status="Starting",
        workflow_id=workflow_id(batch_export, start_at, end_at),
    )


def request_backfill(batch_export: BatchExport, data) -> BatchExportBackfill:
    """Validate a backfill request as PostHog's ``backfill`` action does and record it."""
    start_at = parse_backfill_input(data.get("start_at"), "start_at")
    end_at = parse_backfill_input(data.get("end_at"), "end_at")
    if start_at is not None and end_at is not None:
        if start_at >= end_at:
            raise ValidationError("The initial backfill datetime 'start_at' happens after 'end_at'")
        if end_at > timezone.now() + batch_export.interval_time_delta:
            raise ValidationError(
                f"The provided 'end_at' ({end_at.isoformat()}) is too far into the future. "
                "Cannot backfill beyond 1 batch period into the future."
            )
    return record_backfill(batch_export, start_at, end_at)


# --------------------------------------------------------------------------------------------
# Viewsets
# --------------------------------------------------------------------------------------------


def _uuid_or_404(value: str) -> UUID:
    try:
        return UUID(str(value))
    except ValueError:
        raise NotFound()


class BatchExportViewSetMixin:
    scope_object = "batch_export"
    serializer_class = BatchExportSerializer
    queryset = BatchExport.objects.filter(deleted=False).select_related("destination", "team").order_by("-created_at")
    lookup_value_regex = r"[^/]+"

    def get_object(self):
        _uuid_or_404(self.kwargs[self.lookup_field])
        return super().get_object()

    def perform_destroy(self, instance: BatchExport) -> None:
        with transaction.atomic():
            instance.deleted = True
            instance.save(update_fields=["deleted", "last_updated_at"])
            instance.backfills.filter(status__in=("Running", "Starting")).update(
                status="Cancelled", finished_at=timezone.now()
            )

    def _record(self, batch_export: BatchExport) -> Response:
        return Response(self.get_serializer(batch_export).data)

    @action(methods=["POST"], detail=True, required_scopes=["batch_export:write"])
    def pause(self, request, *args, **kwargs):
        batch_export = self.get_object()
        if not batch_export.paused:
            batch_export.paused = True
            batch_export.last_paused_at = timezone.now()
            batch_export.save(update_fields=["paused", "last_paused_at", "last_updated_at"])
        if profiles.is_posthog():
            return Response({"paused": True})
        return self._record(batch_export)

    @action(methods=["POST"], detail=True, required_scopes=["batch_export:write"])
    def unpause(self, request, *args, **kwargs):
        batch_export = self.get_object()
        backfill = request.data.get("backfill", False) if hasattr(request.data, "get") else False
        if batch_export.paused:
            with transaction.atomic():
                batch_export.paused = False
                batch_export.save(update_fields=["paused", "last_updated_at"])
                if backfill is True and batch_export.last_paused_at is not None:
                    record_backfill(batch_export, batch_export.last_paused_at, timezone.now())
        if profiles.is_posthog():
            return Response({"paused": False})
        return self._record(batch_export)

    @action(methods=["POST"], detail=True, required_scopes=["batch_export:write"])
    def backfill(self, request, *args, **kwargs):
        batch_export = self.get_object()
        data = request.data if hasattr(request.data, "get") else {}
        backfill = request_backfill(batch_export, data)
        if profiles.is_posthog():
            return Response({"backfill_id": backfill.workflow_id})
        return self._record(batch_export)


class OrganizationBatchExportViewSet(BatchExportViewSetMixin, OrganizationNestedMixin, viewsets.ModelViewSet):
    """``/api/organizations/<organization_id>/batch_exports``: the project viewset filtered by organization."""

    organization_lookup = "team__organization"

    def get_serializer_context(self):
        # Creation here lands in the organization's first project (see the module docstring).
        def first_project():
            team = self.organization.teams.order_by("id").first()
            if team is None:
                raise ValidationError("The organization has no project to create the batch export in.")
            return team

        return {**super().get_serializer_context(), "get_team": first_project}


class ProjectBatchExportViewSet(BatchExportViewSetMixin, ProjectNestedMixin, viewsets.ModelViewSet):
    """``/api/projects/<project_id>/batch_exports`` (where PostHog's own tests create them)."""


class CreatedAtCursorPagination(CursorPagination):
    ordering = "-created_at"
    page_size = 100


class BackfillsCursorPagination(CreatedAtCursorPagination):
    page_size = 50


class _ProjectBatchExportChild(ProjectNestedMixin):
    """A viewset under ``/api/projects/<project_id>/batch_exports/<batch_export_id>/...``."""

    scope_object = "batch_export"
    lookup_value_regex = r"[^/]+"

    def parent_batch_export(self) -> BatchExport:
        return get_object_or_404(
            BatchExport.objects.filter(deleted=False, team=self.team),
            id=_uuid_or_404(self.kwargs["batch_export_id"]),
        )

    def safely_get_queryset(self, queryset):
        return queryset.filter(batch_export=self.parent_batch_export())

    def get_object(self):
        _uuid_or_404(self.kwargs[self.lookup_field])
        return super().get_object()


class BatchExportRunViewSet(_ProjectBatchExportChild, viewsets.ReadOnlyModelViewSet):
    """Runs of an export, newest first, cursor-paginated (100 a page, no ``count``; facts 0.3)."""

    queryset = BatchExportRun.objects.all()
    serializer_class = BatchExportRunSerializer
    pagination_class = CreatedAtCursorPagination
    team_lookup = "batch_export__team"


class BatchExportBackfillViewSet(
    _ProjectBatchExportChild, mixins.CreateModelMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):  # fmt: skip
    """Backfills of an export (50 a page). ``POST`` takes ``start_at``/``end_at`` like the
    ``backfill`` action and answers 200 ``{"backfill_id": ...}`` (facts 5)."""

    queryset = BatchExportBackfill.objects.all()
    serializer_class = BatchExportBackfillSerializer
    pagination_class = BackfillsCursorPagination

    def create(self, request, *args, **kwargs):
        data = request.data if hasattr(request.data, "get") else {}
        backfill = request_backfill(self.parent_batch_export(), data)
        return Response({"backfill_id": backfill.workflow_id})


def register(router) -> None:
    router.register(organization_prefix("batch_exports"), OrganizationBatchExportViewSet,
                    basename="organization_batch_exports")  # fmt: skip
    router.register(project_prefix("batch_exports"), ProjectBatchExportViewSet, basename="project_batch_exports")
    child = project_prefix(r"batch_exports/(?P<batch_export_id>[^/]+)")
    router.register(child + "/runs", BatchExportRunViewSet, basename="project_batch_export_runs")
    router.register(child + "/backfills", BatchExportBackfillViewSet, basename="project_batch_export_backfills")
