"""Uploaded media: the files an organization's ``logo_media_id`` may point at.

PostHog stores uploads (``UploadedMedia``, ``posthog/models/uploaded_media.py``) and checks that
``logo_media_id`` names one; the emulator keeps only the record (no file), created through
``POST /_emulator/organizations/<org>/media``.
"""

from __future__ import annotations

from django.db import models

from posthog_emulator.models.core import Organization, User, uuidt

__all__ = ["UploadedMedia"]


class UploadedMedia(models.Model):
    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    organization = models.ForeignKey(Organization, null=True, blank=True, on_delete=models.CASCADE,
                                     related_name="uploaded_media")
    file_name = models.CharField(max_length=1000, default="logo.png")
    content_type = models.CharField(max_length=100, default="image/png")
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(User, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")

    class Meta:
        app_label = "posthog_emulator"
        ordering = ["created_at"]
