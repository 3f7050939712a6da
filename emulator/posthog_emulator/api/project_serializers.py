"""The project serializer of ``/api/organizations/<id>/projects/<id>`` (and the retrieve of
``/api/projects/<id>``): PostHog's ``ProjectBackwardCompatSerializer`` as the April 2026 schema
shows it (``posthog/api/project.py``).

The core ``Team`` row holds the name, token, timezone and flags; the other settings live in
:class:`~posthog_emulator.models.ProjectSettings` and are read and written here under the source
``project_settings.<name>``. Computed fields the emulator has nothing behind are constant:
``has_group_types`` false, ``group_types`` and ``product_intents`` empty, ``live_events_token``
and the secret tokens null, ``person_on_events_querying_enabled`` true, ``default_modifiers``
``{}``.
"""

import copy

from rest_framework import serializers
from rest_framework.exceptions import APIException, PermissionDenied

from posthog_emulator.api.shared import rule_errors
from posthog_emulator.models import OrganizationMembership, ProjectSettings, Team
from posthog_emulator.rules import Forbidden
from posthog_emulator.rules.projects import (
    TIMEZONES,
    check_admin_fields,
    check_errors_to_ignore,
    check_path_cleaning_filters,
    check_test_account_filters,
    clean_urls,
    duplicate_name_message,
)

SETTINGS = "project_settings"
#: Settings merged into what is stored rather than replacing it (``ProjectBackwardCompatSerializer.update``).
MERGED_SETTINGS = ("modifiers", "survey_config", "session_replay_config")


class Conflict(APIException):
    """``posthog.exceptions.Conflict``: 409, code ``conflict`` (no type of its own, so the error
    handler calls it a ``server_error``)."""

    status_code = 409
    default_code = "conflict"


def setting(field_class, **kwargs):
    """A field stored in the project's settings row."""
    return field_class(source=f"{SETTINGS}.{kwargs.pop('name')}", required=False, **kwargs)


def _nullable_bool(name):
    return setting(serializers.BooleanField, name=name, allow_null=True)


def _json(name, allow_null=True):
    return setting(serializers.JSONField, name=name, allow_null=allow_null)


def _url_list(name, allow_null):
    child = serializers.CharField(max_length=200, allow_null=True, allow_blank=True)
    return setting(serializers.ListField, name=name, child=child, allow_null=allow_null)


class ProjectSerializer(serializers.ModelSerializer):
    name = serializers.CharField(required=False, min_length=1, max_length=200)
    product_description = setting(
        serializers.CharField, name="product_description", allow_null=True, allow_blank=True, max_length=1000
    )
    effective_membership_level = serializers.SerializerMethodField()
    has_group_types = serializers.SerializerMethodField()
    group_types = serializers.SerializerMethodField()
    live_events_token = serializers.SerializerMethodField()
    app_urls = _url_list("app_urls", allow_null=False)
    slack_incoming_webhook = setting(
        serializers.CharField, name="slack_incoming_webhook", allow_null=True, allow_blank=True, max_length=500
    )
    anonymize_ips = setting(serializers.BooleanField, name="anonymize_ips")
    test_account_filters = _json("test_account_filters", allow_null=False)
    test_account_filters_default_checked = _nullable_bool("test_account_filters_default_checked")
    path_cleaning_filters = _json("path_cleaning_filters")
    timezone = serializers.ChoiceField(choices=TIMEZONES, required=False)
    data_attributes = _json("data_attributes", allow_null=False)
    person_display_name_properties = setting(
        serializers.ListField, name="person_display_name_properties", child=serializers.CharField(max_length=400),
        allow_null=True,
    )  # fmt: skip
    correlation_config = _json("correlation_config")
    autocapture_opt_out = _nullable_bool("autocapture_opt_out")
    autocapture_exceptions_opt_in = _nullable_bool("autocapture_exceptions_opt_in")
    autocapture_web_vitals_opt_in = _nullable_bool("autocapture_web_vitals_opt_in")
    autocapture_web_vitals_allowed_metrics = _json("autocapture_web_vitals_allowed_metrics")
    autocapture_exceptions_errors_to_ignore = _json("autocapture_exceptions_errors_to_ignore")
    capture_console_log_opt_in = _nullable_bool("capture_console_log_opt_in")
    capture_performance_opt_in = _nullable_bool("capture_performance_opt_in")
    session_recording_opt_in = setting(serializers.BooleanField, name="session_recording_opt_in")
    session_recording_sample_rate = setting(
        serializers.DecimalField, name="session_recording_sample_rate", max_digits=3, decimal_places=2,
        allow_null=True, min_value=0, max_value=1,
    )  # fmt: skip
    session_recording_minimum_duration_milliseconds = setting(
        serializers.IntegerField, name="session_recording_minimum_duration_milliseconds", allow_null=True,
        min_value=0, max_value=30000,
    )  # fmt: skip
    session_recording_linked_flag = _json("session_recording_linked_flag")
    session_recording_network_payload_capture_config = _json("session_recording_network_payload_capture_config")
    session_recording_masking_config = _json("session_recording_masking_config")
    session_replay_config = _json("session_replay_config")
    survey_config = _json("survey_config")
    week_start_day = setting(serializers.ChoiceField, name="week_start_day", choices=[0, 1], allow_null=True)
    primary_dashboard = setting(serializers.IntegerField, name="primary_dashboard", allow_null=True)
    live_events_columns = setting(
        serializers.ListField, name="live_events_columns", child=serializers.CharField(), allow_null=True
    )
    recording_domains = _url_list("recording_domains", allow_null=True)
    person_on_events_querying_enabled = serializers.SerializerMethodField()
    inject_web_apps = _nullable_bool("inject_web_apps")
    extra_settings = _json("extra_settings")
    modifiers = _json("modifiers")
    default_modifiers = serializers.SerializerMethodField()
    surveys_opt_in = _nullable_bool("surveys_opt_in")
    heatmaps_opt_in = _nullable_bool("heatmaps_opt_in")
    product_intents = serializers.SerializerMethodField()
    flags_persistence_default = _nullable_bool("flags_persistence_default")
    secret_api_token = serializers.SerializerMethodField()
    secret_api_token_backup = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = [
            "id", "organization", "name", "product_description", "created_at", "effective_membership_level",
            "has_group_types", "group_types", "live_events_token", "updated_at", "uuid", "api_token", "app_urls",
            "slack_incoming_webhook", "anonymize_ips", "completed_snippet_onboarding", "ingested_event",
            "test_account_filters", "test_account_filters_default_checked", "path_cleaning_filters", "is_demo",
            "timezone", "data_attributes", "person_display_name_properties", "correlation_config",
            "autocapture_opt_out", "autocapture_exceptions_opt_in", "autocapture_web_vitals_opt_in",
            "autocapture_web_vitals_allowed_metrics", "autocapture_exceptions_errors_to_ignore",
            "capture_console_log_opt_in", "capture_performance_opt_in", "session_recording_opt_in",
            "session_recording_sample_rate", "session_recording_minimum_duration_milliseconds",
            "session_recording_linked_flag", "session_recording_network_payload_capture_config",
            "session_recording_masking_config", "session_replay_config", "survey_config", "access_control",
            "week_start_day", "primary_dashboard", "live_events_columns", "recording_domains",
            "person_on_events_querying_enabled", "inject_web_apps", "extra_settings", "modifiers",
            "default_modifiers", "has_completed_onboarding_for", "surveys_opt_in", "heatmaps_opt_in",
            "product_intents", "flags_persistence_default", "secret_api_token", "secret_api_token_backup",
        ]  # fmt: skip
        read_only_fields = ["id", "uuid", "organization", "created_at", "updated_at", "api_token", "ingested_event"]

    # ----------------------------------------------------------------------------- reading
    def to_representation(self, instance):
        instance.project_settings = ProjectSettings.of(instance)
        return super().to_representation(instance)

    def get_effective_membership_level(self, team: Team) -> int | None:
        return (
            OrganizationMembership.objects.filter(user=self.context["request"].user, organization_id=team.organization_id)
            .values_list("level", flat=True)
            .first()
        )

    def get_has_group_types(self, team: Team) -> bool:
        return False

    def get_group_types(self, team: Team) -> list[dict]:
        return []

    def get_live_events_token(self, team: Team) -> str | None:
        return None

    def get_person_on_events_querying_enabled(self, team: Team) -> bool:
        return True

    def get_default_modifiers(self, team: Team) -> dict:
        return {}

    def get_product_intents(self, team: Team) -> list[dict]:
        return []

    def get_secret_api_token(self, team: Team) -> str | None:
        return None

    def get_secret_api_token_backup(self, team: Team) -> str | None:
        return None

    # ----------------------------------------------------------------------------- validating
    def _organization(self):
        return self.instance.organization if self.instance is not None else self.context["get_organization"]()

    def validate_name(self, value: str) -> str:
        value = value.strip()
        if self.instance is not None and value == self.instance.name:
            return value
        others = Team.objects.filter(organization=self._organization())
        if self.instance is not None:
            others = others.exclude(pk=self.instance.pk)
        if any(name.strip().lower() == value.lower() for name in others.values_list("name", flat=True)):
            raise Conflict(duplicate_name_message(value))
        return value

    def validate_app_urls(self, value):
        return clean_urls(value)

    def validate_recording_domains(self, value):
        return clean_urls(value)

    def validate_test_account_filters(self, value):
        with rule_errors():
            return check_test_account_filters(value)

    def validate_path_cleaning_filters(self, value):
        with rule_errors():
            return check_path_cleaning_filters(value)

    def validate_autocapture_exceptions_errors_to_ignore(self, value):
        with rule_errors():
            return check_errors_to_ignore(value)

    def validate_primary_dashboard(self, value):
        if value is None:
            return value
        if self.instance is None:
            raise serializers.ValidationError("Primary dashboard cannot be set on project creation.")
        raise serializers.ValidationError(f'Invalid pk "{value}" - object does not exist.', code="does_not_exist")

    def validate(self, attrs):
        given = set(self.initial_data) if isinstance(self.initial_data, dict) else set()
        writable = {name for name, field in self.fields.items() if not field.read_only}
        level = (
            OrganizationMembership.objects.filter(user=self.context["request"].user, organization=self._organization())
            .values_list("level", flat=True)
            .first()
        )
        try:
            check_admin_fields(given & writable, level, creating=self.instance is None)
        except Forbidden as error:  # PostHog raises PermissionDenied from validate_team_attrs
            raise PermissionDenied(error.detail)
        return attrs

    # ----------------------------------------------------------------------------- writing
    @staticmethod
    def _settings_of(validated_data: dict) -> dict:
        settings = validated_data.pop(SETTINGS, {})
        rate = settings.get("session_recording_sample_rate")
        if rate is not None:
            settings["session_recording_sample_rate"] = str(rate)
        return settings

    def create(self, validated_data):
        settings = self._settings_of(validated_data)
        organization = self.context["get_organization"]()
        if "name" not in validated_data:
            validated_data["name"] = unique_default_name(organization)
        team = Team.objects.create(organization=organization, **validated_data)
        ProjectSettings.store(team, settings)
        return team

    def update(self, instance, validated_data):
        settings = self._settings_of(validated_data)
        stored = ProjectSettings.of(instance)
        for name in MERGED_SETTINGS:
            if isinstance(settings.get(name), dict) and isinstance(stored.get(name), dict):
                settings[name] = {**copy.deepcopy(stored[name]), **settings[name]}
        instance = super().update(instance, validated_data)
        if settings:
            ProjectSettings.store(instance, settings)
        return instance


def unique_default_name(organization) -> str:
    """A name for a project created without one: "Default project", then "Default project 2" ..."""
    taken = {name.strip().lower() for name in Team.objects.filter(organization=organization).values_list("name", flat=True)}
    name, number = "Default project", 1
    while name.lower() in taken:
        number += 1
        name = f"Default project {number}"
    return name
