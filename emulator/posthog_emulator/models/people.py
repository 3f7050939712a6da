"""Models of the people area: organization invites, and the emulator clock that ages them.

Registered through :mod:`posthog_emulator.models`, so Django knows them as models of the app.

* :class:`OrganizationInvite` follows ``posthog/models/organization_invite.py`` (docs/posthog_facts.md §3): a
  UUIDT id, the target e-mail address (domain lower-cased by the serializer), a first name of at
  most 30 characters, the level (1/8/15, default member), a nullable message, the private project
  access list, the inviter, and ``is_expired`` when it was created more than
  ``INVITE_DAYS_VALIDITY`` (3) days ago (``posthog/constants.py``).
* The **emulator clock** (not part of PostHog) is the real time plus an offset kept in
  :class:`~posthog_emulator.models.core.EmulatorState` (so a reset, which flushes the database, puts it
  back). Invites are stamped and expired by this clock, so tests can move it forward
  (``POST /_emulator/clock``) instead of waiting three days.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import models
from django.utils import timezone

from posthog_emulator.models.core import EmulatorState, Organization, OrganizationMembership, User, uuidt

__all__ = [
    "INVITE_DAYS_VALIDITY",
    "OrganizationInvite",
    "clock_offset",
    "emulator_now",
    "move_clock",
]

INVITE_DAYS_VALIDITY = 3  # posthog/constants.py
CLOCK_OFFSET_KEY = "people_clock_offset_seconds"


def clock_offset() -> timedelta:
    """How far the emulator clock is ahead of the real time."""
    return timedelta(seconds=float(EmulatorState.get(CLOCK_OFFSET_KEY, 0) or 0))


def emulator_now():
    """The emulator's idea of now: the real time plus the clock offset.

    An answer computed from it changes with time: it must not be reused (see
    :mod:`posthog_emulator.responses`)."""
    from posthog_emulator import tables

    tables.uncacheable()
    return timezone.now() + clock_offset()


def move_clock(seconds: float | None = None, *, offset_seconds: float | None = None) -> timedelta:
    """Advance the clock by ``seconds`` (may be negative), or set its offset outright."""
    if offset_seconds is not None:
        value = float(offset_seconds)
    else:
        value = clock_offset().total_seconds() + float(seconds or 0)
    EmulatorState.put(CLOCK_OFFSET_KEY, value)
    return timedelta(seconds=value)


class OrganizationInvite(models.Model):
    """An invitation of an e-mail address to an organization at a level (docs/posthog_facts.md §3)."""

    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="invites")
    target_email = models.EmailField(max_length=254, db_index=True)
    first_name = models.CharField(max_length=30, blank=True, default="")
    created_by = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    emailing_attempt_made = models.BooleanField(default=False)
    level = models.PositiveSmallIntegerField(
        default=OrganizationMembership.Level.MEMBER, choices=OrganizationMembership.Level.choices
    )
    message = models.TextField(null=True, blank=True)
    private_project_access = models.JSONField(default=list, null=True, blank=True)
    created_at = models.DateTimeField(default=emulator_now)
    updated_at = models.DateTimeField(default=emulator_now)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"invite of {self.target_email} to {self.organization} ({self.level})"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            self.updated_at = emulator_now()
        super().save(*args, **kwargs)

    @property
    def is_expired(self) -> bool:
        """Created more than three days ago by the emulator clock (``OrganizationInvite.is_expired``)."""
        return self.created_at < emulator_now() - timedelta(days=INVITE_DAYS_VALIDITY)
