"""Control endpoints of the batch exports area: what the emulator cannot do by itself.

``GET /_emulator/batch_exports/<id>`` shows an export as stored (secrets included),
``POST …/<id>/runs`` records a run, ``PATCH …/<id>/backfills/<backfill id>`` moves a backfill on,
``GET|PUT /_emulator/batch_exports/settings`` reads or sets the cap of concurrent backfills.
"""

import datetime as dt
from uuid import UUID

from django.urls import re_path
from django.utils import timezone

from posthog_emulator import bootstrap
from posthog_emulator.api.batch_export_serializers import BatchExportRunSerializer
from posthog_emulator.api.batch_exports import backfill_settings
from posthog_emulator.rules.batch_exports import DEFAULT_MAX_CONCURRENT_BACKFILLS
from posthog_emulator.control.base import ControlError, control_view, json_response, parse_string, read_json
from posthog_emulator.models import BatchExport, BatchExportBackfill, BatchExportRun
from posthog_emulator.models.batch_exports import BACKFILL_STATUSES, RUN_STATUSES


def _control_export(batch_export_id: str) -> BatchExport:
    try:
        return BatchExport.objects.select_related("destination").get(id=UUID(batch_export_id))
    except (ValueError, BatchExport.DoesNotExist):
        raise ControlError("Batch export not found.", status=404, code="not_found")


def _control_datetime(data: dict, name: str, default=None):
    value = data.get(name)
    if value is None:
        return default
    try:
        parsed = dt.datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None:
        raise ControlError("Expected an ISO-8601 date-time.", name)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=dt.timezone.utc)


def _control_int(data: dict, name: str):
    value = data.get(name)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
        raise ControlError("Expected a non-negative integer.", name)
    return value


def _backfill_summary(backfill: BatchExportBackfill) -> dict:
    return {
        "id": str(backfill.id),
        "backfill_id": backfill.workflow_id,
        "start_at": backfill.start_at.isoformat() if backfill.start_at else None,
        "end_at": backfill.end_at.isoformat() if backfill.end_at else None,
        "status": backfill.status,
        "created_at": backfill.created_at.isoformat(),
    }


@control_view("GET")
def control_batch_export(request, batch_export_id):
    """The stored export as the server keeps it, secrets included, with its backfills."""
    batch_export = _control_export(batch_export_id)
    return json_response(
        {
            "id": str(batch_export.id),
            "team_id": batch_export.team_id,
            "name": batch_export.name,
            "deleted": batch_export.deleted,
            "paused": batch_export.paused,
            "destination": {"type": batch_export.destination.type, "config": batch_export.destination.config,
                            "integration": batch_export.destination.integration_id},
            "backfills": [_backfill_summary(b) for b in batch_export.backfills.order_by("created_at", "id")],
            "runs": batch_export.runs.count(),
        }
    )


@control_view("POST")
def control_runs(request, batch_export_id):
    """Record a run: ``{"status", "records_completed", "records_total_count", "bytes_exported",
    "latest_error", "data_interval_start", "data_interval_end", "finished_at"}`` (only status required)."""
    batch_export = _control_export(batch_export_id)
    data = read_json(request)
    status = data.get("status")
    if status not in RUN_STATUSES:
        raise ControlError(f"Expected one of: {', '.join(RUN_STATUSES)}.", "status", code="invalid_choice")
    latest_error = parse_string(data, "latest_error")
    now = timezone.now()
    end = _control_datetime(data, "data_interval_end", now)
    start = _control_datetime(data, "data_interval_start", end - batch_export.interval_time_delta)
    finished_default = now if status not in ("Running", "Starting") else None
    run = BatchExportRun.objects.create(
        batch_export=batch_export,
        status=status,
        records_completed=_control_int(data, "records_completed"),
        records_total_count=_control_int(data, "records_total_count"),
        bytes_exported=_control_int(data, "bytes_exported"),
        latest_error=latest_error,
        data_interval_start=start,
        data_interval_end=end,
        finished_at=_control_datetime(data, "finished_at", finished_default),
    )
    return json_response(BatchExportRunSerializer(run).data, status=201)


@control_view("PATCH")
def control_backfill(request, batch_export_id, backfill_id):
    """Move a recorded backfill to another status: ``{"status": "Completed"}``."""
    batch_export = _control_export(batch_export_id)
    status = read_json(request).get("status")
    if status not in BACKFILL_STATUSES:
        raise ControlError(f"Expected one of: {', '.join(BACKFILL_STATUSES)}.", "status", code="invalid_choice")
    try:
        backfill = batch_export.backfills.get(id=UUID(backfill_id))
    except (ValueError, BatchExportBackfill.DoesNotExist):
        raise ControlError("Backfill not found.", status=404, code="not_found")
    backfill.status = status
    if status not in ("Running", "Starting"):
        backfill.finished_at = timezone.now()
    backfill.save()
    return json_response(_backfill_summary(backfill))


@control_view("GET", "PUT")
def control_settings(request):
    """``{"max_concurrent_backfills_per_team": n}``: PostHog's
    ``BATCH_EXPORT_MAX_CONCURRENT_BACKFILLS_PER_TEAM``; past it, creating a backfill is 429
    ``too_many_concurrent_backfills``. A reset restores the default."""
    if request.method == "PUT":
        value = read_json(request).get("max_concurrent_backfills_per_team")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ControlError("Expected a non-negative integer.", "max_concurrent_backfills_per_team")
        backfill_settings["max_concurrent_backfills_per_team"] = value
    return json_response(dict(backfill_settings))


def restore_settings() -> None:
    backfill_settings["max_concurrent_backfills_per_team"] = DEFAULT_MAX_CONCURRENT_BACKFILLS


bootstrap.on_reset(restore_settings)

urlpatterns = [
    re_path(r"^batch_exports/settings/?$", control_settings),
    re_path(r"^batch_exports/(?P<batch_export_id>[^/]+)/runs/?$", control_runs),
    re_path(r"^batch_exports/(?P<batch_export_id>[^/]+)/backfills/(?P<backfill_id>[^/]+)/?$", control_backfill),
    re_path(r"^batch_exports/(?P<batch_export_id>[^/]+)/?$", control_batch_export),
]
