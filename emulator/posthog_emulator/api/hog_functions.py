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
* ``filters`` and ``masking`` gain server-side ``bytecode``; ``mappings`` only for destinations
  (and drop ``filters.events``/``actions``); enabled transformation caps; ``execution_order`` of a
  transformation appended (highest + 1) on create, re-enable and undelete; ``rearrange``.
* ``version`` +1 on each change; ``base_updated_at`` older than the stored ``updated_at``: 409
  ``stale_update`` (docs/posthog_facts.md §12.8: from PostHog's newest code, not confirmed in the code read).
* The list answers the minimal serializer unless ``?full=true``, narrowed by ``type`` (a comma
  list), ``enabled``, ``search``; ordered by ``execution_order``, then newest update first.
"""

import datetime as dt
import uuid

from django.db import transaction
from django.utils.dateparse import parse_datetime
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.response import Response

from posthog_emulator import generations
from posthog_emulator.api.shared import GenerationGateMixin, UserBasicSerializer, rule_errors
from posthog_emulator.models import HogFunction
from posthog_emulator.routing import ProjectNestedMixin, project_prefix
from posthog_emulator.rules import RuleError
from posthog_emulator.rules import hog_functions as rules

WRITABLE = ("type", "name", "description", "icon_url", "enabled", "hog", "inputs_schema", "inputs", "filters",
            "masking", "mappings", "execution_order")
MINIMAL_FIELDS = ("id", "type", "name", "description", "created_at", "created_by", "updated_at", "enabled", "hog",
                  "filters", "icon_url", "template", "status", "execution_order")


class StaleUpdate(Exception):
    pass


def template_of(function):
    return rules.template(function.template_id) if function.template_id else None


class HogFunctionSerializer(serializers.ModelSerializer):
    created_by = UserBasicSerializer(read_only=True)
    template = serializers.SerializerMethodField()
    status = serializers.SerializerMethodField()
    inputs = serializers.SerializerMethodField()

    class Meta:
        model = HogFunction
        fields = ["id", "type", "name", "description", "created_at", "created_by", "updated_at", "enabled", "hog",
                  "bytecode", "transpiled", "inputs_schema", "inputs", "filters", "masking", "mappings", "icon_url",
                  "template", "status", "execution_order", "version"]
        read_only_fields = fields

    def get_template(self, function):
        return template_of(function)

    def get_status(self, function):
        return rules.status(function.enabled)

    def get_inputs(self, function):
        return rules.represent_inputs(function.inputs_schema, function.inputs, function.encrypted_inputs)


class MinimalHogFunctionSerializer(HogFunctionSerializer):
    class Meta(HogFunctionSerializer.Meta):
        fields = list(MINIMAL_FIELDS)
        read_only_fields = fields


def _highest_order(team) -> int:
    found = (HogFunction.objects.filter(team=team, type="transformation", deleted=False)
             .exclude(execution_order=None).order_by("-execution_order").values_list("execution_order", flat=True)
             .first())
    return found or 0


def _enabled_count(team, hog_type) -> int:
    return HogFunction.objects.filter(team=team, type=hog_type, deleted=False, enabled=True).count()


def _validate(team, data: dict, instance=None) -> dict:
    """The fields to store, as ``HogFunctionSerializer`` validates them; raises ValidationError."""
    if not isinstance(data, dict):
        raise ValidationError("Invalid data. Expected a dictionary.")
    creating = instance is None
    errors = {}
    hog_type = data.get("type") or (instance.type if instance else "destination")
    if hog_type not in rules.TYPES:
        raise ValidationError({"type": [f'"{hog_type}" is not a valid choice.']})
    with rule_errors():
        rules.check_type(hog_type, instance.type if instance else None, creating)
    template_id = instance.template_id if instance else data.get("template_id")
    template = None
    if template_id:
        template = rules.template(template_id)
        if template is None:
            raise ValidationError({"template_id": f"No template found for id '{template_id}'"})
    values = {k: data[k] for k in WRITABLE if k in data}
    values["type"] = hog_type
    if creating:
        values["template_id"] = template_id
        if template:
            for field, source in (("hog", "code"), ("inputs_schema", "inputs_schema"), ("icon_url", "icon_url"),
                                  ("description", "description"), ("name", "name")):
                values[field] = values.get(field) or template[source]
        if not values.get("hog"):
            errors["hog"] = "Required."
    for field in ("name", "description", "hog", "icon_url"):
        if field in values and values[field] is not None and not isinstance(values[field], str):
            errors[field] = "Not a valid string."
    if isinstance(values.get("name"), str) and len(values["name"]) > 400:
        errors["name"] = "Ensure this field has no more than 400 characters."
    if "enabled" in values and not isinstance(values["enabled"], bool):
        errors["enabled"] = "Must be a valid boolean."
    if errors:
        raise ValidationError(errors)
    schema = values.get("inputs_schema", instance.inputs_schema if instance else [])
    if not isinstance(schema, list) or not all(isinstance(i, dict) and i.get("key") for i in schema):
        raise ValidationError({"inputs_schema": "Each item needs a key."})
    with rule_errors():
        if "hog" in values:
            rules.check_hog(values["hog"])
        enabled = values.get("enabled", instance.enabled if instance else False)
        if enabled and (creating or not instance.enabled):
            rules.check_enabled_cap(hog_type, _enabled_count(team, hog_type))
        filters = values.get("filters", instance.filters if instance else {}) or {}
        if values.get("mappings") is not None:
            if hog_type not in rules.MAPPING_TYPES:
                raise RuleError(rules.MSG_MAPPINGS, attr="mappings")
            filters = {k: v for k, v in filters.items() if k not in ("events", "actions")}
        if "filters" in values or "mappings" in values or creating:
            values["filters"] = rules.compile_filters(filters, hog_type)
        if "masking" in values:
            values["masking"] = rules.compile_masking(values["masking"])
    inputs = values.get("inputs", instance.inputs if instance else {})
    if "inputs" in values or "inputs_schema" in values or creating:
        try:
            public, secret = rules.validate_inputs(schema, inputs, instance.encrypted_inputs if instance else {})
        except rules.InputErrors as error:
            raise ValidationError({"inputs": error.errors})
        values["inputs"], values["encrypted_inputs"] = public, secret
    if "hog" in values:
        javascript = hog_type in rules.JAVASCRIPT_TYPES
        values["bytecode"] = None if javascript else ["_H", 1, 32, "hog"]
        values["transpiled"] = "(function () { /* transpiled */ })" if javascript else None
    return values


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
    scope_object_read_actions = ["list", "retrieve"]
    scope_object_write_actions = ["create", "update", "partial_update", "rearrange", "destroy"]
    queryset = HogFunction.objects.select_related("created_by")
    lookup_value_regex = r"[^/]+"
    served_on_environments = True

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
        data = dict(request.data) if isinstance(request.data, dict) else request.data
        values = _validate(self.team, data)
        if values["type"] == "transformation" and values.get("execution_order") is None:
            values["execution_order"] = _highest_order(self.team) + 1
        function = HogFunction.objects.create(team=self.team, created_by=request.user, **values)
        return self._answer(function, status.HTTP_201_CREATED)

    def update(self, request, *args, **kwargs):
        function = self.get_object()
        data = request.data if isinstance(request.data, dict) else {}
        try:
            _check_base(function, data.get("base_updated_at"))
        except StaleUpdate:
            return Response({"type": "validation_error", "code": "stale_update", "detail": rules.MSG_STALE,
                             "attr": "base_updated_at"}, status=status.HTTP_409_CONFLICT)
        values = _validate(self.team, dict(data), function)
        deleted = data.get("deleted")
        if deleted is not None and not isinstance(deleted, bool):
            raise ValidationError({"deleted": "Must be a valid boolean."})
        if function.type == "transformation" and "execution_order" not in data and (
                (function.deleted and deleted is False) or (not function.enabled and values.get("enabled") is True)):
            values["execution_order"] = _highest_order(self.team) + 1
        if deleted is not None:
            values["deleted"] = deleted
        changed = [field for field, value in values.items() if getattr(function, field) != value]
        for field in changed:
            setattr(function, field, values[field])
        if changed:
            function.version += 1
            function.save()
        return self._answer(function)

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
    served_on_environments = True

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
