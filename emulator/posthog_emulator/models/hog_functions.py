"""Hog functions: destinations, transformations and site apps, the successor of pipeline plugins.

Field names follow ``products/cdp/backend/models/hog_functions/hog_function.py`` of PostHog:
``inputs`` holds the non-secret inputs, ``encrypted_inputs`` the secret ones (PostHog encrypts
them with Fernet; the emulator keeps them apart and never returns them), ``deleted`` is a soft
delete (the API refuses DELETE), ``version`` counts the live configuration changes.
"""

from __future__ import annotations

from django.db import models

from posthog_emulator.models.core import Team, User, uuidt

__all__ = ["HogFunction"]


class HogFunction(models.Model):
    """One hog function of a project."""

    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="hog_functions")
    type = models.CharField(max_length=32, default="destination")
    name = models.CharField(max_length=400, blank=True, default="")
    description = models.TextField(blank=True, default="")
    icon_url = models.TextField(null=True, blank=True)
    enabled = models.BooleanField(default=False)
    deleted = models.BooleanField(default=False)
    hog = models.TextField(default="")
    bytecode = models.JSONField(null=True, blank=True)
    transpiled = models.TextField(null=True, blank=True)
    inputs_schema = models.JSONField(default=list, blank=True)
    inputs = models.JSONField(default=dict, blank=True)
    encrypted_inputs = models.JSONField(default=dict, blank=True)
    filters = models.JSONField(default=dict, blank=True)
    masking = models.JSONField(null=True, blank=True)
    mappings = models.JSONField(null=True, blank=True)
    template_id = models.CharField(max_length=400, null=True, blank=True)
    execution_order = models.PositiveSmallIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "posthog_emulator"
        ordering = ["execution_order", "-updated_at"]

    def __str__(self) -> str:
        return f"{self.type} {self.name}"
