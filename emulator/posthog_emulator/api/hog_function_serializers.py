"""The serializers of hog functions, structured as PostHog's (docs/posthog_facts.md §12.3-§12.6):

* :class:`HogFunctionFiltersSerializer` and :class:`HogFunctionMaskingSerializer` as in
  ``posthog/cdp/validation.py``: the filters keep only the keys PostHog declares, ``source``
  defaults to ``"events"`` (``ChoiceField(choices=["events", "person-updates",
  "data-warehouse-table", "data-warehouse-view"], default="events")``), and both gain compiled
  ``bytecode`` (``transpiled`` for site functions);
* :class:`HogFunctionSerializer` as ``HogFunctionSerializer`` of
  ``products/cdp/backend/api/hog_function.py``: ``to_internal_value`` fills ``type`` and keeps the
  stored ``template_id``, ``validate_type`` refuses webhook functions and a change of type,
  ``validate`` fills from the template, requires ``hog`` on create, caps enabled transformations,
  checks mappings and the inputs against the schema; ``create`` and ``update`` store it.

The rules themselves (templates, inputs, caps, compiled forms) are pure functions of
:mod:`posthog_emulator.rules.hog_functions`.
"""

from rest_framework import serializers

from posthog_emulator.api.shared import UserBasicSerializer, rule_errors
from posthog_emulator.models import HogFunction
from posthog_emulator.rules import hog_functions as rules

MINIMAL_FIELDS = ("id", "type", "name", "description", "created_at", "created_by", "updated_at", "enabled", "hog",
                  "filters", "icon_url", "template", "status", "execution_order")
#: What a template fills when the request leaves it empty (field, the template's key).
TEMPLATE_FILLS = (("hog", "code"), ("inputs_schema", "inputs_schema"), ("icon_url", "icon_url"),
                  ("description", "description"), ("name", "name"))
FILTER_SOURCES = ["events", "person-updates", "data-warehouse-table", "data-warehouse-view"]


def template_of(function):
    return rules.template(function.template_id) if function.template_id else None


def highest_order(team) -> int:
    found = (HogFunction.objects.filter(team=team, type="transformation", deleted=False)
             .exclude(execution_order=None).order_by("-execution_order").values_list("execution_order", flat=True)
             .first())
    return found or 0


class HogFunctionFiltersSerializer(serializers.Serializer):
    """``filters``: unknown keys are dropped; ``bytecode`` is compiled from them."""

    source = serializers.ChoiceField(choices=FILTER_SOURCES, required=False, default="events")
    actions = serializers.ListField(child=serializers.DictField(), required=False)
    events = serializers.ListField(child=serializers.DictField(), required=False)
    data_warehouse = serializers.ListField(child=serializers.DictField(), required=False)
    properties = serializers.ListField(child=serializers.DictField(), required=False)
    bytecode = serializers.JSONField(required=False, allow_null=True)
    transpiled = serializers.JSONField(required=False)
    filter_test_accounts = serializers.BooleanField(required=False)
    bytecode_error = serializers.CharField(required=False)

    def validate(self, data):
        return rules.compile_filters(dict(data), self.context["function_type"])


class HogFunctionMaskingSerializer(serializers.Serializer):
    ttl = serializers.IntegerField(min_value=60, max_value=86400)
    threshold = serializers.IntegerField(required=False, allow_null=True)
    hash = serializers.CharField()
    bytecode = serializers.JSONField(required=False, allow_null=True)

    def validate(self, data):
        return {"ttl": data["ttl"], "threshold": data.get("threshold"), "hash": data["hash"],
                "bytecode": rules.masking_bytecode(data["hash"])}


class InputsSchemaItemSerializer(serializers.DictField):
    """One item of ``inputs_schema``: an object with a ``key``."""

    def to_internal_value(self, data):
        value = super().to_internal_value(data)
        if not value.get("key"):
            raise serializers.ValidationError("Each item needs a key.")
        return value


class HogFunctionSerializer(serializers.ModelSerializer):
    created_by = UserBasicSerializer(read_only=True)
    template = serializers.SerializerMethodField()
    status = serializers.SerializerMethodField()
    template_id = serializers.CharField(write_only=True, required=False, allow_null=True, allow_blank=True)
    type = serializers.ChoiceField(choices=sorted(rules.TYPES), required=False)
    name = serializers.CharField(max_length=400, required=False, allow_blank=True, allow_null=True)
    description = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    icon_url = serializers.CharField(required=False, allow_blank=True, allow_null=True)
    hog = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    enabled = serializers.BooleanField(required=False)
    deleted = serializers.BooleanField(required=False, write_only=True)
    inputs_schema = serializers.ListField(child=InputsSchemaItemSerializer(), required=False)
    inputs = serializers.JSONField(required=False)
    filters = serializers.JSONField(required=False, allow_null=True)
    masking = serializers.JSONField(required=False, allow_null=True)
    mappings = serializers.JSONField(required=False, allow_null=True)
    execution_order = serializers.IntegerField(required=False, allow_null=True)

    class Meta:
        model = HogFunction
        fields = ["id", "type", "name", "description", "created_at", "created_by", "updated_at", "enabled", "hog",
                  "bytecode", "transpiled", "inputs_schema", "inputs", "filters", "masking", "mappings", "icon_url",
                  "template", "template_id", "status", "execution_order", "version", "deleted"]
        read_only_fields = ["id", "created_at", "created_by", "updated_at", "bytecode", "transpiled", "template",
                            "status", "version"]

    # ---------------------------------------------------------------------------- answers
    def get_template(self, function):
        return template_of(function)

    def get_status(self, function):
        return rules.status(function.enabled)

    def to_representation(self, function):
        answer = super().to_representation(function)
        answer["inputs"] = rules.represent_inputs(function.inputs_schema, function.inputs, function.encrypted_inputs)
        return answer

    # ---------------------------------------------------------------------------- requests
    def to_internal_value(self, data):
        """``type`` defaults to the stored one, else ``destination``; ``template_id`` is always the
        stored one on update."""
        if not isinstance(data, dict):
            raise serializers.ValidationError({"non_field_errors": ["Invalid data. Expected a dictionary."]})
        data = dict(data)
        data["type"] = data.get("type") or (self.instance.type if self.instance else "destination")
        if self.instance is not None:
            data["template_id"] = self.instance.template_id
        return super().to_internal_value(data)

    def validate_type(self, value):
        with rule_errors():
            rules.check_type(value, self.instance.type if self.instance else None, self.instance is None)
        return value

    def validate_template_id(self, value):
        if value and rules.template(value) is None:
            raise serializers.ValidationError(f"No template found for id '{value}'")
        return value or None

    def validate_hog(self, value):
        with rule_errors():
            rules.check_hog(value)
        return value

    def validate(self, attrs):
        instance = self.instance
        hog_type = attrs["type"]
        if instance is None:
            self._fill_from_template(attrs)
        self._check_enabled_cap(attrs, hog_type)
        self._validate_filters_and_mappings(attrs, hog_type)
        if attrs.get("masking") is not None:
            attrs["masking"] = self._nested(HogFunctionMaskingSerializer, attrs["masking"], "masking")
        if "inputs" in attrs or "inputs_schema" in attrs or instance is None:
            self._validate_inputs(attrs)
        if "hog" in attrs:
            attrs.update(rules.compiled_hog(attrs["hog"], hog_type))
        return attrs

    def _fill_from_template(self, attrs) -> None:
        template = rules.template(attrs["template_id"]) if attrs.get("template_id") else None
        if template:
            for field, key in TEMPLATE_FILLS:
                attrs[field] = attrs.get(field) or template[key]
        if not attrs.get("hog"):
            raise serializers.ValidationError({"hog": "Required."})

    def _check_enabled_cap(self, attrs, hog_type) -> None:
        instance = self.instance
        enabled = attrs.get("enabled", instance.enabled if instance else False)
        if enabled and (instance is None or not instance.enabled):
            count = HogFunction.objects.filter(team=self.context["get_team"](), type=hog_type, deleted=False,
                                               enabled=True).count()
            with rule_errors():
                rules.check_enabled_cap(hog_type, count)

    def _validate_filters_and_mappings(self, attrs, hog_type) -> None:
        instance = self.instance
        filters = attrs.get("filters", instance.filters if instance else {}) or {}
        if attrs.get("mappings") is not None:
            if hog_type not in rules.MAPPING_TYPES:
                raise serializers.ValidationError({"mappings": rules.MSG_MAPPINGS})
            filters = {k: v for k, v in filters.items() if k not in ("events", "actions")}
        if "filters" in attrs or "mappings" in attrs or instance is None:
            attrs["filters"] = self._nested(HogFunctionFiltersSerializer, filters, "filters",
                                            {"function_type": hog_type})

    def _validate_inputs(self, attrs) -> None:
        instance = self.instance
        schema = attrs.get("inputs_schema", instance.inputs_schema if instance else [])
        inputs = attrs.get("inputs", instance.inputs if instance else {})
        try:
            public, secret = rules.validate_inputs(schema, inputs, instance.encrypted_inputs if instance else {})
        except rules.InputErrors as error:
            raise serializers.ValidationError({"inputs": error.errors})
        attrs["inputs"], attrs["encrypted_inputs"] = public, secret

    def _nested(self, serializer_class, data, attr, context=None):
        nested = serializer_class(data=data, context={**self.context, **(context or {})})
        if not nested.is_valid():
            raise serializers.ValidationError({attr: nested.errors})
        return nested.validated_data

    # ---------------------------------------------------------------------------- storing
    def create(self, validated_data):
        validated_data.pop("deleted", None)
        team = self.context["get_team"]()
        if validated_data["type"] == "transformation" and validated_data.get("execution_order") is None:
            validated_data["execution_order"] = highest_order(team) + 1
        return HogFunction.objects.create(team=team, created_by=self.context["request"].user, **validated_data)

    def update(self, function, validated_data):
        validated_data.pop("template_id", None)
        deleted = validated_data.get("deleted")
        explicit_order = "execution_order" in self.initial_data
        if function.type == "transformation" and not explicit_order and (
                (function.deleted and deleted is False) or (not function.enabled and validated_data.get("enabled"))):
            validated_data["execution_order"] = highest_order(function.team) + 1
        changed = [field for field, value in validated_data.items() if getattr(function, field) != value]
        for field in changed:
            setattr(function, field, validated_data[field])
        if changed:
            function.version += 1
            function.save()
        return function


class MinimalHogFunctionSerializer(HogFunctionSerializer):
    class Meta(HogFunctionSerializer.Meta):
        fields = list(MINIMAL_FIELDS)
        read_only_fields = fields

    def to_representation(self, function):
        return serializers.ModelSerializer.to_representation(self, function)
