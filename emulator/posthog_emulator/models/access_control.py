"""Models of the access control area (PostHog's ``AccessControl`` and ``TeamAccessControlConfig``,
``products/access_control/backend/models/``).

* :class:`AccessControl`: one rule of a project: an ``access_level`` for a ``resource`` (``project``
  or a resource type such as ``dashboard``), all of its objects (``resource_id`` null) or one
  (``resource_id``: the project's id for a project rule), for a member of the organization
  (``organization_member``), a role (``role``), or neither (the default for everyone). The unique
  key is ``(team, resource, resource_id, organization_member, role)``. ``managed_by``/``managed_at``
  record that Terraform wrote (or claimed) the rule; PostHog does not serialize them.
* :class:`TeamAccessControlConfig`: a project's ``lock_terraform_managed_rules`` switch.

Deleting a role or a membership deletes its rules (PostHog's foreign keys cascade).
"""

from __future__ import annotations

from django.db import models

from posthog_emulator.models.core import OrganizationMembership, Team, User
from posthog_emulator.models.roles import Role

__all__ = ["AccessControl", "TeamAccessControlConfig"]


class AccessControl(models.Model):
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="access_controls")
    access_level = models.CharField(max_length=32)
    resource = models.CharField(max_length=64)
    resource_id = models.CharField(max_length=36, null=True)
    organization_member = models.ForeignKey(
        OrganizationMembership, on_delete=models.CASCADE, null=True, related_name="access_controls"
    )
    role = models.ForeignKey(Role, on_delete=models.CASCADE, null=True, related_name="access_controls")
    created_by = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    managed_by = models.CharField(max_length=32, null=True)
    managed_at = models.DateTimeField(null=True)

    class Meta:
        app_label = "posthog_emulator"
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.resource}:{self.resource_id} {self.access_level}"


class TeamAccessControlConfig(models.Model):
    team = models.OneToOneField(Team, on_delete=models.CASCADE, related_name="access_control_config")
    lock_terraform_managed_rules = models.BooleanField(default=False)

    class Meta:
        app_label = "posthog_emulator"
