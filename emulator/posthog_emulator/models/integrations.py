"""Integrations: a project's connections to other services, with their credentials.

Follows ``posthog/models/integration/model.py``: ``kind``, ``integration_id`` (the connection's
identifier in the other service, or the name the user gave), ``config`` (what may be shown) and
``sensitive_config`` (secrets, never returned), unique per (project, kind, integration_id).
Batch export destinations point at one (``BatchExportDestination.integration``).
"""

from __future__ import annotations

from django.db import models

from posthog_emulator.models.core import Team, User

__all__ = ["Integration"]


class Integration(models.Model):
    """A connection of a project to another service (an S3 key pair, a Snowflake login …)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="integrations")
    kind = models.CharField(max_length=32)
    integration_id = models.TextField(null=True, blank=True)
    config = models.JSONField(default=dict, blank=True)
    sensitive_config = models.JSONField(default=dict, blank=True)
    errors = models.TextField(default="", blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        app_label = "posthog_emulator"
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["team", "kind", "integration_id"], name="unique_integration_kind_id")
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.integration_id}"
