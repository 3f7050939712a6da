"""``/api/projects/<project_id>/hog_functions`` and ``…/hog_function_templates`` (docs/posthog_facts.md §12).

Mirrors ``HogFunctionViewSet`` of ``products/cdp/backend/api/hog_function.py`` (PostHog's newest
layout) with the inputs rules of ``posthog/cdp/validation.py`` (see
:mod:`posthog_emulator.rules.hog_functions`):

* Scope object ``hog_function``; list/retrieve read, create/update/partial_update/rearrange write.
* Served by the ``newest`` generation of ``hog_functions`` (profile ``posthog``); older PostHog
  (profile ``spec``) has no such route: 404 "Endpoint not found.".
* DELETE answers 405 with no body (``ForbidDestroyModel``): deleting is ``PATCH {"deleted": true}``.
  Deleted functions are hidden from every action except a PATCH with ``deleted: false``, which
  restores them.
* ``type`` and ``template_id`` are kept from creation (a different ``type`` is 400 "Cannot modify
  the type of an existing function"; ``template_id`` is silently replaced by the stored one);
  ``template_id`` is write-only (read ``template.id``). A template fills ``hog``, ``inputs_schema``,
  ``name``, ``description``, ``icon_url`` left empty on create; without one, ``hog`` is required.
* Inputs: only the schema's keys are kept; secret inputs read back as ``{"secret": true}``.
* Validation is in :mod:`posthog_emulator.api.hog_function_serializers`, as PostHog's serializers
  structure it. ``filters`` keep only PostHog's keys, with ``source`` defaulting to ``"events"``;
  ``filters`` and ``masking`` gain server-side ``bytecode``; ``mappings`` only for destinations
  (and drop ``filters.events``/``actions``); enabled transformation caps; ``execution_order`` of a
  transformation appended (highest + 1) on create, re-enable and undelete; ``rearrange``.
* ``version`` +1 on each change; ``base_updated_at`` older than the stored ``updated_at``: 409
  ``stale_update`` (docs/posthog_facts.md §12.8: from PostHog's newest code, not confirmed in the code read).
* ``logs``, ``metrics``, ``metrics/totals`` (read) and ``invocations`` (write) answer empty
  results and a no-op success (the emulator runs no Hog); ``icon``, ``icons`` and ``broadcast`` have
  no scope: 403 to a personal API key (``posthog/permissions.py``, ``APIScopePermission``).
* Served on ``/api/projects/<id>/`` only: ``products/cdp/backend/routes.py`` registers both
  viewsets on ``routers.projects`` (the ``/api/environments/`` alias answers 404).
* The list answers the minimal serializer unless ``?full=true``, narrowed by ``type`` (a comma
  list), ``enabled``, ``search``; ordered by ``execution_order``, then newest update first.
"""

import datetime as dt
import uuid

from django.db import transaction
from django.utils.dateparse import parse_datetime
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from posthog_emulator import generations
from posthog_emulator.api.hog_function_serializers import HogFunctionSerializer, MinimalHogFunctionSerializer
from posthog_emulator.api.shared import GenerationGateMixin, refused_action
from posthog_emulator.models import HogFunction
from posthog_emulator.routing import ProjectNestedMixin, project_prefix
from posthog_emulator.rules import hog_functions as rules


class StaleUpdate(Exception):
    pass


def _check_base(instance, base) -> None:
    if base in (None, ""):
        return
    moment = parse_datetime(str(base)) if isinstance(base, str) else None
    if moment is None:
        raise ValidationError({"base_updated_at": "Datetime has wrong format."})
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.timezone.utc)
    if instance.updated_at > moment:
        raise StaleUpdate()


class HogFunctionViewSet(GenerationGateMixin, ProjectNestedMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin,
                         viewsets.GenericViewSet):
    scope_object = "hog_function"
    scope_object_read_actions = ["list", "retrieve", "logs", "metrics", "metrics_totals"]
    scope_object_write_actions = ["create", "update", "partial_update", "rearrange", "destroy", "invocations"]
    queryset = HogFunction.objects.select_related("created_by")
    lookup_value_regex = r"[^/]+"

    def route_absent(self) -> bool:
        return generations.of("hog_functions") == generations.ABSENT

    def get_serializer_class(self):
        if self.action == "list" and self.request.query_params.get("full") != "true":
            return MinimalHogFunctionSerializer
        return HogFunctionSerializer

    def safely_get_queryset(self, queryset):
        queryset = queryset.exclude(type="warehouse_source_webhook")
        data = self.request.data if isinstance(self.request.data, dict) else {}
        if not (self.action == "partial_update" and data.get("deleted") is False):
            queryset = queryset.filter(deleted=False)
        if self.action == "list":
            params = self.request.query_params
            if params.get("type"):
                queryset = queryset.filter(type__in=[t for t in params["type"].split(",") if t])
            if params.get("enabled") in ("true", "false"):
                queryset = queryset.filter(enabled=params["enabled"] == "true")
            if params.get("search"):
                queryset = queryset.filter(name__icontains=params["search"])
            queryset = queryset.order_by("execution_order", "-updated_at")
        return queryset

    def get_object(self):
        try:
            uuid.UUID(str(self.kwargs[self.lookup_field]))
        except ValueError:
            raise NotFound()
        return super().get_object()

    def _answer(self, function, code=200):
        return Response(HogFunctionSerializer(function, context=self.get_serializer_context()).data, status=code)

    def create(self, request, *args, **kwargs):
        serializer = HogFunctionSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        return self._answer(serializer.save(), status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        function = self.get_object()
        data = request.data if isinstance(request.data, dict) else {}
        try:
            _check_base(function, data.get("base_updated_at"))
        except StaleUpdate:
            return Response({"type": "validation_error", "code": "stale_update", "detail": rules.MSG_STALE,
                             "attr": "base_updated_at"}, status=status.HTTP_409_CONFLICT)
        serializer = HogFunctionSerializer(function, data=request.data, partial=True,
                                           context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        return self._answer(serializer.save())

    def partial_update(self, request, *args, **kwargs):
        return self.update(request, *args, **kwargs)

    def destroy(self, request, *args, **kwargs):
        return Response(status=status.HTTP_405_METHOD_NOT_ALLOWED)

    @action(methods=["PATCH"], detail=False, pagination_class=None)
    def rearrange(self, request, *args, **kwargs):
        orders = request.data.get("orders") if isinstance(request.data, dict) else None
        if not orders or not isinstance(orders, dict):
            raise ValidationError("No orders provided")
        with transaction.atomic():
            functions = {str(f.id): f for f in HogFunction.objects.filter(
                id__in=[k for k in orders if _is_uuid(k)], team=self.team, type="transformation", deleted=False)}
            missing = [k for k in orders if k not in functions]
            if missing:
                raise ValidationError(f"HogFunction with id {missing[0]} does not exist")
            for key, function in functions.items():
                if not isinstance(orders[key], int) or isinstance(orders[key], bool):
                    raise ValidationError({"orders": "A valid integer is required."})
                if function.execution_order != orders[key]:
                    function.execution_order = orders[key]
                    function.save(update_fields=["execution_order", "updated_at"])
        transformations = HogFunction.objects.filter(team=self.team, type="transformation",
                                                     deleted=False).order_by("execution_order")
        return Response(HogFunctionSerializer(transformations, many=True,
                                              context=self.get_serializer_context()).data)


    icon = refused_action("icon", "GET", detail=False)
    icons = refused_action("icons", "GET", detail=False)
    broadcast = refused_action("broadcast", "POST")

    @action(methods=["POST"], detail=True)
    def invocations(self, request, *args, **kwargs):
        """A test invocation: the emulator runs no Hog, so the function "succeeds" doing nothing
        (PostHog's plugin server answers ``{"status", "logs"}``)."""
        self.get_object()
        return Response({"status": "success", "logs": []})

    @action(methods=["GET"], detail=True)
    def logs(self, request, *args, **kwargs):
        self.get_object()
        return Response({"results": []})

    @action(methods=["GET"], detail=True)
    def metrics(self, request, *args, **kwargs):
        self.get_object()
        return Response({"labels": [], "series": []})

    @action(methods=["GET"], detail=True, url_path="metrics/totals")
    def metrics_totals(self, request, *args, **kwargs):
        self.get_object()
        return Response({"totals": {}})


def _is_uuid(value) -> bool:
    try:
        uuid.UUID(str(value))
        return True
    except ValueError:
        return False


class HogFunctionTemplateViewSet(GenerationGateMixin, ProjectNestedMixin, viewsets.GenericViewSet):
    """``hog_function_templates``: list (``type`` default ``destination``, ``types=a,b``,
    ``template_id``; deprecated ones left out) and retrieve by the template's id string."""

    scope_object = "hog_function"
    scope_object_read_actions = ["list", "retrieve"]
    lookup_value_regex = r"[^/]+"

    def route_absent(self) -> bool:
        return generations.of("hog_functions") == generations.ABSENT

    def list(self, request, *args, **kwargs):
        params = request.query_params
        types = [t for t in (params.get("types") or "").split(",") if t] or (
            [params["type"]] if params.get("type") else None)
        found = rules.templates(types, params.get("template_id"))
        page = self.paginate_queryset(found)
        return self.get_paginated_response(page) if page is not None else Response(found)

    def retrieve(self, request, *args, **kwargs):
        _ = self.team  # an unknown project is answered first (Project not found.)
        found = rules.template(self.kwargs[self.lookup_field])
        if found is None:
            raise NotFound()
        return Response(found)


def register(router) -> None:
    router.register(project_prefix("hog_functions"), HogFunctionViewSet, basename="project_hog_functions")
    router.register(project_prefix("hog_function_templates"), HogFunctionTemplateViewSet,
                    basename="project_hog_function_templates")
