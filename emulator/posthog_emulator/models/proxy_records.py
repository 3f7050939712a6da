"""Models of the proxy records area: managed reverse proxies (``posthog/models/proxy_record.py``).

A proxy record is a domain of the customer's (``e.example.com``) that PostHog serves its ingestion
and assets on, once the customer publishes a CNAME from it to ``target_cname``. PostHog's
``create-proxy`` workflow moves ``status`` along (``waiting`` for the CNAME, ``issuing`` the
certificate, ``valid``; or ``erroring`` / ``timed_out``); the emulator's pretend workflow lives in
:mod:`posthog_emulator.rules.proxy_records` and reads the CNAME records of ``/_emulator/dns``.
"""

from __future__ import annotations

from django.db import models

from posthog_emulator.models.core import Organization, User, uuidt

__all__ = ["ProxyRecord"]


class ProxyRecord(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting"
        ISSUING = "issuing", "Issuing"
        VALID = "valid", "Valid"
        WARNING = "warning", "Warning"
        ERRORING = "erroring", "Erroring"
        DELETING = "deleting", "Deleting"
        TIMED_OUT = "timed_out", "Timed Out"

    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="proxy_records")
    domain = models.CharField(max_length=64, unique=True)
    target_cname = models.CharField(max_length=256)
    message = models.CharField(max_length=1024, null=True)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.WAITING)
    created_by = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Emulator bookkeeping: a record being deleted is shown "deleting" once, then its delete
    # workflow is done (see rules.proxy_records.advance).
    deleting_seen = models.BooleanField(default=False)

    class Meta:
        app_label = "posthog_emulator"
        verbose_name = "proxy record"
        ordering = ["-created_at", "id"]

    def __str__(self) -> str:
        return f"{self.domain} -> {self.target_cname} ({self.status})"
