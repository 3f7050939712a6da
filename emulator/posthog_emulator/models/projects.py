"""Models of the projects area: the settings of a project that the emulator keeps beside its core row.

PostHog keeps a project's settings as columns of its ``Team`` (``posthog/models/team/team.py``,
about sixty of them). The emulator's core ``Team`` holds only what every other area needs (name,
token, timezone, ...); the settings an administrator manages through
``/api/organizations/<id>/projects/`` live here, one JSON object per project, merged over
:data:`SETTING_DEFAULTS` when read. The rules about each value are in
:mod:`posthog_emulator.rules.projects`.
"""

from __future__ import annotations

import copy

from django.db import models

from posthog_emulator.models.core import Team

__all__ = ["ProjectSettings", "SETTING_DEFAULTS"]

#: The stored settings of a new project: PostHog's model defaults (``Team`` columns).
SETTING_DEFAULTS = {
    "product_description": None,
    "app_urls": [],
    "slack_incoming_webhook": None,
    "anonymize_ips": False,
    "test_account_filters": [],
    "test_account_filters_default_checked": None,
    "path_cleaning_filters": [],
    "data_attributes": ["data-attr"],
    "person_display_name_properties": None,
    "correlation_config": {},
    "autocapture_opt_out": None,
    "autocapture_exceptions_opt_in": None,
    "autocapture_web_vitals_opt_in": None,
    "autocapture_web_vitals_allowed_metrics": None,
    "autocapture_exceptions_errors_to_ignore": None,
    "capture_console_log_opt_in": True,
    "capture_performance_opt_in": True,
    "session_recording_opt_in": False,
    "session_recording_sample_rate": None,
    "session_recording_minimum_duration_milliseconds": None,
    "session_recording_linked_flag": None,
    "session_recording_network_payload_capture_config": None,
    "session_recording_masking_config": None,
    "session_replay_config": None,
    "survey_config": None,
    "week_start_day": None,
    "primary_dashboard": None,
    "live_events_columns": None,
    "recording_domains": [],
    "inject_web_apps": None,
    "extra_settings": None,
    "modifiers": None,
    "surveys_opt_in": None,
    "heatmaps_opt_in": None,
    "flags_persistence_default": False,
}


class ProjectSettings(models.Model):
    """The settings of one project, as a JSON object of the keys of :data:`SETTING_DEFAULTS`."""

    team = models.OneToOneField(Team, on_delete=models.CASCADE, primary_key=True, related_name="settings_row")
    values = models.JSONField(default=dict)

    class Meta:
        app_label = "posthog_emulator"

    @classmethod
    def of(cls, team: Team) -> dict:
        """Every setting of ``team``: what was stored over the defaults (a fresh copy)."""
        row = cls.objects.filter(team=team).first()
        values = copy.deepcopy(SETTING_DEFAULTS)
        if row is not None:
            values.update(copy.deepcopy(row.values))
        return values

    @classmethod
    def store(cls, team: Team, changes: dict) -> dict:
        """Merge ``changes`` into the stored settings of ``team``; returns every setting."""
        row, _ = cls.objects.get_or_create(team=team)
        row.values = {**row.values, **copy.deepcopy(changes)}
        row.save(update_fields=["values"])
        return cls.of(team)
