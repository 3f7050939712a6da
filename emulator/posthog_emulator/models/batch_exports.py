"""Batch exports: exports, their destinations, runs and backfills (docs/posthog_facts.md §5, spec 2.3).

Registered through :mod:`posthog_emulator.models`, so the tables are created with the others.
Field names follow ``posthog/batch_exports/models.py``.
"""

from __future__ import annotations

import datetime as dt

from django.db import models

from posthog_emulator.models.core import Team, uuidt

__all__ = ["BatchExportDestination", "BatchExport", "BatchExportRun", "BatchExportBackfill"]

#: Status values of runs and backfills (docs/posthog_facts.md §5, "Runs"). Backfills have all but ``FailedBilling``.
RUN_STATUSES = (
    "Cancelled", "Completed", "ContinuedAsNew", "Failed", "FailedRetryable", "FailedBilling",
    "Terminated", "TimedOut", "Running", "Starting",
)  # fmt: skip
BACKFILL_STATUSES = tuple(status for status in RUN_STATUSES if status != "FailedBilling")

#: ``interval`` values (docs/posthog_facts.md §5; ``every 15 minutes`` is in the newest code only).
INTERVALS = ("hour", "day", "week", "every 5 minutes", "every 15 minutes")
INTERVAL_DELTAS = {
    "hour": dt.timedelta(hours=1),
    "day": dt.timedelta(days=1),
    "week": dt.timedelta(weeks=1),
    "every 5 minutes": dt.timedelta(minutes=5),
    "every 15 minutes": dt.timedelta(minutes=15),
}
MODELS = ("events", "persons", "sessions")
#: The newest generation adds the ``hogql`` model (the results of a HogQL query).
NEWEST_MODELS = MODELS + ("hogql",)


class BatchExportDestination(models.Model):
    """Where an export goes: a type and its configuration (secrets included, never returned)."""

    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    type = models.CharField(max_length=64)
    config = models.JSONField(default=dict, blank=True)
    # The integration holding the credentials (newest generation); a string reference, so that
    # this area imports only the core.
    integration = models.ForeignKey("posthog_emulator.Integration", null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="destinations")
    created_at = models.DateTimeField(auto_now_add=True)
    last_updated_at = models.DateTimeField(auto_now=True)


class BatchExport(models.Model):
    """A scheduled export of a model of one project to a destination. Deleted ones are kept (soft)."""

    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="batch_exports")
    name = models.TextField()
    model = models.CharField(max_length=64, default="events")
    destination = models.ForeignKey(BatchExportDestination, on_delete=models.CASCADE, related_name="batch_exports")
    interval = models.CharField(max_length=64, default="hour")
    paused = models.BooleanField(default=False)
    deleted = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    last_updated_at = models.DateTimeField(auto_now=True)
    last_paused_at = models.DateTimeField(null=True, blank=True)
    start_at = models.DateTimeField(null=True, blank=True)
    end_at = models.DateTimeField(null=True, blank=True)
    schema = models.JSONField(null=True, blank=True)
    filters = models.JSONField(null=True, blank=True)
    # Newest generation: daily and weekly schedules in a timezone with an offset (seconds from the
    # start of the day or week), and the source of a ``hogql`` model (PostHog's BatchExportSource).
    timezone = models.CharField(max_length=240, default="UTC")
    interval_offset = models.IntegerField(null=True, blank=True)
    hogql_query = models.TextField(null=True, blank=True)
    hogql_modifiers = models.JSONField(null=True, blank=True)
    # The newest code's incremental exports of a ``hogql`` model: the query's columns that make up
    # the primary and version keys (PostHog keeps them on the BatchExportSource), and how runs land.
    primary_key = models.JSONField(null=True, blank=True)
    version_key = models.JSONField(null=True, blank=True)
    incremental_mode = models.CharField(max_length=16, default="APPEND")

    class Meta:
        ordering = ["-created_at"]

    @property
    def interval_time_delta(self) -> dt.timedelta:
        return INTERVAL_DELTAS.get(self.interval, dt.timedelta(hours=1))

    @property
    def offset_day(self) -> int | None:
        """Weekly: the day the week starts on (0 Sunday … 6 Saturday), else None (PostHog's model)."""
        if self.interval != "week":
            return None
        return 0 if self.interval_offset is None else self.interval_offset // 86400

    @property
    def offset_hour(self) -> int | None:
        """Daily or weekly: the hour of the day runs start at, else None (PostHog's model)."""
        if self.interval not in ("day", "week"):
            return None
        return 0 if self.interval_offset is None else (self.interval_offset // 3600) % 24


class BatchExportBackfill(models.Model):
    """A requested backfill. The emulator records it; nothing runs."""

    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    batch_export = models.ForeignKey(BatchExport, on_delete=models.CASCADE, related_name="backfills")
    start_at = models.DateTimeField(null=True, blank=True)
    end_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=64, default="Starting")
    workflow_id = models.TextField(default="")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    last_updated_at = models.DateTimeField(auto_now=True)
    total_records_count = models.BigIntegerField(null=True, blank=True)
    adjusted_start_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]


class BatchExportRun(models.Model):
    """One run of an export (recorded through the control API; the emulator schedules nothing)."""

    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    batch_export = models.ForeignKey(BatchExport, on_delete=models.CASCADE, related_name="runs")
    backfill = models.ForeignKey(
        BatchExportBackfill, null=True, blank=True, on_delete=models.SET_NULL, related_name="runs"
    )
    status = models.CharField(max_length=64)
    records_completed = models.IntegerField(null=True, blank=True)
    records_total_count = models.IntegerField(null=True, blank=True)
    bytes_exported = models.BigIntegerField(null=True, blank=True)
    latest_error = models.TextField(null=True, blank=True)
    data_interval_start = models.DateTimeField(null=True, blank=True)
    data_interval_end = models.DateTimeField()
    cursor = models.TextField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    last_updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
