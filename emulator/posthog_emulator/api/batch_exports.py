"""Batch exports (spec 2.3, 3.1, 4.2; docs/posthog_facts.md §5), served on two routes:

* ``/api/organizations/<organization_id>/batch_exports`` (the spec's route), and
* ``/api/projects/<project_id>/batch_exports``, which PostHog also serves and where it adds the
  sub-resources ``runs`` and ``backfills`` (docs/posthog_facts.md §0.2).

As ``posthog/batch_exports/http.py``:

* Scope object ``batch_export``; the actions ``pause``, ``unpause`` and ``backfill`` explicitly need
  ``batch_export:write`` (docs/posthog_facts.md §0.6). Any member of the organization may read and write.
* Lists are limit/offset envelopes ordered by ``-created_at``. Deleted exports are hidden (404).
* Fields: spec 2.3 plus ``filters``. ``latest_runs`` holds the 10 newest runs, newest first.
  ``hogql_query`` is write-only on PostHog (it is turned into ``schema``): profile ``posthog``
  omits it from answers, profile ``spec`` (whose record lists it) answers it from ``schema``.
* Destination types and config keys, required keys (POST/PUT only), unknown keys, type
  conversion and the per-type rules come from
  :data:`posthog_emulator.rules.batch_exports.DESTINATIONS` (docs/posthog_facts.md §5 table). Errors about
  the config carry ``attr`` ``destination`` (docs/posthog_facts.md §9: PostHog's exact attr is unconfirmed); an
  unknown type is ``invalid_choice`` on ``destination__type``.
* **Secret config keys are never returned** (removed recursively, as the newest code does). A PATCH
  merges the sent config into the stored one, so omitted secrets are kept.
* ``every 5 minutes`` / ``every 15 minutes`` need PostHog's feature flag ``high-frequency-batch-exports``;
  the emulator behaves as if it were on. Databricks needs a flag and an integration the emulator
  does not have: 403 "Databricks batch exports are not enabled for this team." (wording unconfirmed).
* Creating through the organization route: PostHog's serializer needs a team from the URL, which
  the organization route does not give (docs/posthog_facts.md §5: probably broken upstream). The emulator creates
  the export in the organization's first project instead.
* ``pause`` / ``unpause``: no-ops when already in that state; pause sets ``last_paused_at``.
  ``unpause`` with ``{"backfill": true}`` also records a backfill from ``last_paused_at`` to now.
  ``backfill`` validates ISO-8601 timestamps with a timezone, ``start_at < end_at`` and an
  ``end_at`` at most one interval in the future (PostHog's messages), and records a backfill whose
  workflow id is ``<id>-Backfill-<start|START>-<end|END>``. Answers: profile ``spec`` the batch
  export record (spec 3.1/4.2), profile ``posthog`` ``{"paused": bool}`` and ``{"backfill_id": ...}``.
  PostHog's "There is no data to backfill for this model." is not emulated (there are no events).
* Delete is soft (``deleted=true``); running backfills are cancelled. 204.

The serializers are in :mod:`posthog_emulator.api.batch_export_serializers`, the rules in
:mod:`posthog_emulator.rules.batch_exports`.
"""

from __future__ import annotations

import zoneinfo
from uuid import UUID, uuid4

from django.db import transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException, NotFound, ValidationError
from rest_framework.pagination import CursorPagination
from rest_framework.response import Response

from posthog_emulator import generations, profiles
from posthog_emulator.api.batch_export_serializers import (
    BatchExportBackfillSerializer,
    BatchExportRunSerializer,
    BatchExportSerializer,
    NewestBatchExportSerializer,
    PostHogBatchExportBackfillSerializer,
)
from posthog_emulator.api.shared import GenerationGateMixin, rule_errors
from posthog_emulator.models import BatchExport, BatchExportBackfill, BatchExportRun
from posthog_emulator.models.batch_exports import RUN_STATUSES
from posthog_emulator.routing import OrganizationNestedMixin, ProjectNestedMixin, organization_prefix, project_prefix
from posthog_emulator.rules import batch_exports as export_rules
from posthog_emulator.rules.batch_exports import (
    check_backfill_range,
    check_newest_backfill_range,
    parse_backfill_input,
    parse_newest_backfill_input,
    workflow_id,
)

# --------------------------------------------------------------------------------------------
# Backfills
# --------------------------------------------------------------------------------------------


def newest() -> bool:
    return generations.of("batch_exports") == generations.NEWEST


def on_environments(request) -> bool:
    """The request came through the deprecated ``/api/environments/<id>/`` alias."""
    return request.path.startswith("/api/environments/")


class TooManyConcurrentBackfills(APIException):
    """``backfills.py``: 429 past the team's cap of starting and running backfills."""

    status_code = 429
    default_code = "too_many_concurrent_backfills"


#: The cap of concurrent backfills per team (``PUT /_emulator/batch_exports/settings``).
backfill_settings = {"max_concurrent_backfills_per_team": export_rules.DEFAULT_MAX_CONCURRENT_BACKFILLS}


def check_backfill_capacity(team) -> None:
    limit = backfill_settings["max_concurrent_backfills_per_team"]
    if BatchExportBackfill.objects.filter(team=team, status__in=("Starting", "Running")).count() >= limit:
        raise TooManyConcurrentBackfills(export_rules.too_many_backfills_message(limit))


def record_backfill(batch_export: BatchExport, start_at, end_at, **fields) -> BatchExportBackfill:
    return BatchExportBackfill.objects.create(
        **fields,
        team=batch_export.team,
        batch_export=batch_export,
        start_at=start_at,
        end_at=end_at,
        status="Starting",
        workflow_id=workflow_id(batch_export.id, start_at, end_at),
    )


def request_backfill(batch_export: BatchExport, data) -> BatchExportBackfill:
    """Validate a backfill request as PostHog's ``backfill`` action does and record it.

    ``data`` is the request body; anything but an object counts as ``{}``."""
    data = data if hasattr(data, "get") else {}
    with rule_errors():
        start_at = parse_backfill_input(data.get("start_at"), "start_at")
        end_at = parse_backfill_input(data.get("end_at"), "end_at")
        check_backfill_range(start_at, end_at, timezone.now() + batch_export.interval_time_delta)
    return record_backfill(batch_export, start_at, end_at)


def request_newest_backfill(batch_export: BatchExport, data) -> BatchExportBackfill:
    """The newest ``create_backfill``: dates for daily and weekly exports, no future end; the
    backfill's id is the ``backfill_id`` answered."""
    data = data if hasattr(data, "get") else {}
    tz = zoneinfo.ZoneInfo(batch_export.timezone or "UTC")
    check_backfill_capacity(batch_export.team)
    with rule_errors():
        start_at, end_at = (
            parse_newest_backfill_input(data.get(key), batch_export.interval, batch_export.offset_day,
                                        batch_export.offset_hour, tz)
            for key in ("start_at", "end_at")
        )
        check_newest_backfill_range(start_at, end_at, timezone.now())
    return record_backfill(batch_export, start_at, end_at, id=uuid4())


# --------------------------------------------------------------------------------------------
# Viewsets
# --------------------------------------------------------------------------------------------


def _uuid_or_404(value: str) -> UUID:
    try:
        return UUID(str(value))
    except ValueError:
        raise NotFound()


class BatchExportViewSetMixin(GenerationGateMixin):
    scope_object = "batch_export"
    serializer_class = BatchExportSerializer
    queryset = BatchExport.objects.filter(deleted=False).select_related("destination", "team").order_by("-created_at")
    lookup_value_regex = r"[^/]+"

    def get_serializer_class(self):
        return NewestBatchExportSerializer if newest() else BatchExportSerializer

    def route_absent(self) -> bool:
        # The newest viewset has no ``backfill`` action (``…/backfills`` replaced it), and the newest
        # routes.py registers batch exports on ``routers.projects`` only: no /api/environments/ alias.
        return newest() and (self.action == "backfill" or on_environments(self.request))

    @action(methods=["GET"], detail=False, required_scopes=["batch_export:read"])
    def test(self, request, *args, **kwargs):
        """The steps of a destination's test (``?destination=<type>``): no type is 400 with no
        body, an unknown one 404 with no body (``exports.py``)."""
        destination = request.query_params.get("destination")
        if not destination:
            return Response(status=400)
        described = export_rules.destination_test(destination)
        return Response(described) if described else Response(status=404)

    def _test_step(self, data, batch_export=None):
        data = dict(data) if isinstance(data, dict) else {}
        step = data.pop("step", 0)
        if batch_export is not None and isinstance(data.get("destination"), dict):
            stored = dict(batch_export.destination.config)
            data["destination"] = {**data["destination"],
                                   "config": {**stored, **(data["destination"].get("config") or {})}}
        serializer = self.get_serializer(data=data)
        serializer.is_valid(raise_exception=True)
        return Response(export_rules.destination_test_step(serializer.validated_data["destination"]["type"], step))

    @action(methods=["POST"], detail=False, required_scopes=["batch_export:write"])
    def run_test_step_new(self, request, *args, **kwargs):
        """Validate an export as create would and run one step of its destination's test."""
        return self._test_step(request.data)

    @action(methods=["POST"], detail=True, required_scopes=["batch_export:write"])
    def run_test_step(self, request, *args, **kwargs):
        """The same for a stored export: the stored config is merged under the sent one."""
        return self._test_step(request.data, self.get_object())

    @action(methods=["GET"], detail=True, required_scopes=["batch_export:read"])
    def logs(self, request, *args, **kwargs):
        """The export's log entries (``LogEntryMixin``); the emulator runs nothing, so there are none."""
        self.get_object()
        return Response({"results": []})

    def get_object(self):
        _uuid_or_404(self.kwargs[self.lookup_field])
        return super().get_object()

    def safely_get_queryset(self, queryset):
        """The newest list leaves out exports to Workflows (``BatchExportViewSet.safely_get_queryset``)."""
        if newest() and self.action == "list":
            return queryset.exclude(destination__type="Workflows")
        return queryset

    def perform_destroy(self, instance: BatchExport) -> None:
        with transaction.atomic():
            instance.deleted = True
            instance.save(update_fields=["deleted", "last_updated_at"])
            instance.backfills.filter(status__in=("Running", "Starting")).update(
                status="Cancelled", finished_at=timezone.now()
            )

    def _record(self, batch_export: BatchExport) -> Response:
        return Response(self.get_serializer(batch_export).data)

    def _paused_answer(self, batch_export: BatchExport) -> Response:
        """``pause`` / ``unpause``: ``{"paused": bool}`` (profile ``posthog`` or the newest
        generation) or the record (the spec)."""
        if profiles.is_posthog() or newest():
            return Response({"paused": batch_export.paused})
        return self._record(batch_export)

    @action(methods=["POST"], detail=True, required_scopes=["batch_export:write"])
    def pause(self, request, *args, **kwargs):
        batch_export = self.get_object()
        if not batch_export.paused:
            batch_export.paused = True
            batch_export.last_paused_at = timezone.now()
            batch_export.save(update_fields=["paused", "last_paused_at", "last_updated_at"])
        return self._paused_answer(batch_export)

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
        return self._paused_answer(batch_export)

    @action(methods=["POST"], detail=True, required_scopes=["batch_export:write"])
    def backfill(self, request, *args, **kwargs):
        batch_export = self.get_object()
        backfill = request_backfill(batch_export, request.data)
        if profiles.is_posthog():
            return Response({"backfill_id": backfill.workflow_id})
        return self._record(batch_export)


class OrganizationBatchExportViewSet(BatchExportViewSetMixin, OrganizationNestedMixin, viewsets.ModelViewSet):
    """``/api/organizations/<organization_id>/batch_exports``: the project viewset filtered by
    organization. The newest ``routes.py`` no longer registers it: 404 "Endpoint not found."."""

    organization_lookup = "team__organization"

    def route_absent(self) -> bool:
        return newest()

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

    served_on_environments = True  # and /api/environments/<id>/batch_exports (posthog/api/__init__.py)


class CreatedAtCursorPagination(CursorPagination):
    ordering = "-created_at"
    page_size = 100


class BackfillsCursorPagination(CreatedAtCursorPagination):
    page_size = 50


class _ProjectBatchExportChild(GenerationGateMixin, ProjectNestedMixin):
    """A viewset under ``/api/projects/<project_id>/batch_exports/<batch_export_id>/...``."""

    scope_object = "batch_export"
    lookup_value_regex = r"[^/]+"
    served_on_environments = True  # runs and backfills too, in the middle generation (posthog/api/__init__.py)

    def route_absent(self) -> bool:
        return newest() and on_environments(self.request)

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


class RunListQuerySerializer(serializers.Serializer):
    """``BatchExportRunListQuerySerializer`` (``runs.py``): repeated ``status`` of the run choices,
    ``after``/``before`` (created) or ``start``/``end`` (data interval, when ordering by it)."""

    status = serializers.ListField(required=False, child=serializers.ChoiceField(choices=RUN_STATUSES))
    after = serializers.CharField(required=False, allow_blank=True)
    before = serializers.CharField(required=False, allow_blank=True)
    start = serializers.CharField(required=False, allow_blank=True)
    end = serializers.CharField(required=False, allow_blank=True)


def filter_runs(queryset, query_params, team):
    """The newest ``BatchExportRunViewSet.safely_get_queryset``: a 7-day window by default (on
    ``created_at``, or on the data interval when ordering by ``data_interval_start``) and the
    statuses asked for; a bad status is 400."""
    query = RunListQuerySerializer(data=query_params)
    query.is_valid(raise_exception=True)
    params = query.validated_data
    tz = zoneinfo.ZoneInfo(team.timezone or "UTC")
    now = timezone.now()
    try:
        if query_params.get("ordering") in ("data_interval_start", "-data_interval_start"):
            start = export_rules.relative_start(params.get("start") or None, now, tz)
            end = export_rules.relative_start(params["end"], now, tz) if params.get("end") else now
            queryset = queryset.filter(data_interval_start__gte=start, data_interval_end__lte=end)
        else:
            after = export_rules.relative_start(params.get("after") or None, now, tz)
            before = export_rules.relative_start(params["before"], now, tz) if params.get("before") else now
            queryset = queryset.filter(created_at__range=(after, before))
    except ValueError:
        raise ValidationError("Invalid date.")
    if params.get("status"):
        queryset = queryset.filter(status__in=params["status"])
    return queryset


class BatchExportRunViewSet(_ProjectBatchExportChild, viewsets.ReadOnlyModelViewSet):
    """Runs of an export, newest first, cursor-paginated (100 a page, no ``count``; docs/posthog_facts.md §0.3),
    with PostHog's ``cancel``, ``retry`` and ``logs`` actions."""

    queryset = BatchExportRun.objects.all()
    serializer_class = BatchExportRunSerializer
    pagination_class = CreatedAtCursorPagination
    team_lookup = "batch_export__team"

    def safely_get_queryset(self, queryset):
        queryset = super().safely_get_queryset(queryset)
        return filter_runs(queryset, self.request.query_params, self.team) if newest() else queryset

    def paginate_queryset(self, queryset):
        ordering = self.request.query_params.get("ordering")
        if newest() and ordering in export_rules.RUN_ORDERINGS:
            self.paginator.ordering = ordering
        return super().paginate_queryset(queryset)

    @action(methods=["POST"], detail=True, required_scopes=["batch_export:write"])
    def cancel(self, request, *args, **kwargs):
        """A running or starting run becomes ``Cancelled``; any other is 400."""
        run = self.get_object()
        if run.status not in ("Running", "Starting"):
            raise ValidationError(f"Cannot cancel a run that is in '{run.status}' status")
        run.status, run.finished_at = "Cancelled", timezone.now()
        run.save(update_fields=["status", "finished_at", "last_updated_at"])
        return Response({"cancelled": True})

    @action(methods=["POST"], detail=True, required_scopes=["batch_export:write"])
    def retry(self, request, *args, **kwargs):
        """Retrying a run is backfilling its interval: 201 ``{"backfill_id": ...}``."""
        run = self.get_object()
        backfill = record_backfill(run.batch_export, run.data_interval_start, run.data_interval_end, id=uuid4())
        return Response({"backfill_id": str(backfill.id)}, status=201)

    @action(methods=["GET"], detail=True, required_scopes=["batch_export:read"])
    def logs(self, request, *args, **kwargs):
        self.get_object()
        return Response({"results": []})


class BatchExportBackfillViewSet(
    _ProjectBatchExportChild, mixins.CreateModelMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
    viewsets.GenericViewSet,
):  # fmt: skip
    """Backfills of an export (50 a page). ``POST`` takes ``start_at``/``end_at`` like the
    ``backfill`` action and answers 200 ``{"backfill_id": <workflow id>}`` (docs/posthog_facts.md §5); the newest
    generation answers 201 ``{"backfill_id": <the backfill's id>}`` and validates as the newest
    ``create_backfill``. ``POST …/<id>/cancel`` cancels a running or starting backfill."""

    queryset = BatchExportBackfill.objects.all()
    serializer_class = BatchExportBackfillSerializer
    pagination_class = BackfillsCursorPagination

    def get_serializer_class(self):
        return PostHogBatchExportBackfillSerializer if profiles.is_posthog() or newest() else BatchExportBackfillSerializer

    def create(self, request, *args, **kwargs):
        if newest():
            backfill = request_newest_backfill(self.parent_batch_export(), request.data)
            return Response({"backfill_id": str(backfill.id)}, status=201)
        backfill = request_backfill(self.parent_batch_export(), request.data)
        return Response({"backfill_id": backfill.workflow_id})

    @action(methods=["POST"], detail=True, required_scopes=["batch_export:write"])
    def cancel(self, request, *args, **kwargs):
        backfill = self.get_object()
        if backfill.status not in ("Running", "Starting"):
            raise ValidationError(f"Cannot cancel a backfill that is in '{backfill.status}' status")
        backfill.status, backfill.finished_at = "Cancelled", timezone.now()
        backfill.save(update_fields=["status", "finished_at", "last_updated_at"])
        return Response({"cancelled": True})


def register(router) -> None:
    router.register(organization_prefix("batch_exports"), OrganizationBatchExportViewSet,
                    basename="organization_batch_exports")  # fmt: skip
    router.register(project_prefix("batch_exports"), ProjectBatchExportViewSet, basename="project_batch_exports")
    child = project_prefix(r"batch_exports/(?P<batch_export_id>[^/]+)")
    router.register(child + "/runs", BatchExportRunViewSet, basename="project_batch_export_runs")
    router.register(child + "/backfills", BatchExportBackfillViewSet, basename="project_batch_export_backfills")
