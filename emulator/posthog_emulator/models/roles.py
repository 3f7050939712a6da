"""Models of the roles area: roles of an organization and who holds them (PostHog's role-based
access control, ``ee/models/rbac/role.py``).

* :class:`Role`: a name unique within its organization (PostHog's ``unique_role_name`` constraint;
  the API also refuses names that differ only in case), who created it and when.
* :class:`RoleMembership`: a user holding a role, through their membership of the role's
  organization (``organization_member``), so leaving the organization drops their roles.

``Organization.default_role`` (in ``core``) points at the role new members get when they join.
"""

from __future__ import annotations

from django.db import IntegrityError, models, transaction

from posthog_emulator.models.core import Organization, OrganizationMembership, User, uuidt

__all__ = ["Role", "RoleMembership", "assign_default_role"]


class Role(models.Model):
    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="roles")
    name = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(User, on_delete=models.SET_NULL, null=True, related_name="+")

    class Meta:
        app_label = "posthog_emulator"
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["organization", "name"], name="unique_role_name")]

    def __str__(self) -> str:
        return self.name


class RoleMembership(models.Model):
    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    role = models.ForeignKey(Role, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="role_memberships")
    organization_member = models.ForeignKey(
        OrganizationMembership, on_delete=models.CASCADE, null=True, related_name="role_memberships"
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        app_label = "posthog_emulator"
        ordering = ["joined_at", "id"]
        constraints = [models.UniqueConstraint(fields=["role", "user"], name="unique_user_and_role")]

    def __str__(self) -> str:
        return f"{self.user} in {self.role}"

    @property
    def organization(self) -> Organization:
        """The role's organization (what PostHog's ``filter_rewrite_rules`` point the permission
        checks at: ``role__organization_id``)."""
        return self.role.organization


def assign_default_role(membership: OrganizationMembership) -> RoleMembership | None:
    """What ``User.join`` does after creating a membership (``posthog/models/user.py``): when the
    organization has a default role, the new member gets it. PostHog swallows (and reports) any
    error here, so a failure never stops someone from joining; so does the emulator."""
    role_id = membership.organization.default_role_id
    if role_id is None:
        return None
    try:
        with transaction.atomic():
            return RoleMembership.objects.create(role_id=role_id, user=membership.user, organization_member=membership)
    except IntegrityError:
        return None
