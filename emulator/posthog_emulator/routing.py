"""Routing helpers: an optional-slash router and mixins for nested resources.

Mirrors ``posthog/api/routing.py`` (docs/posthog_facts.md §0.2):

* :class:`OptionalSlashRouter` answers ``/path`` and ``/path/`` alike, with no redirect
  (``DefaultRouterPlusPlus`` sets ``trailing_slash = "/?"``; ``APPEND_SLASH`` is False).
* :class:`EmulatorViewSetMixin` composes the permission classes every viewset gets, as
  ``TeamAndOrgViewSetMixin.get_permissions``: authentication, API key scopes, membership, then
  the viewset's own ``permission_classes``.
* :class:`OrganizationNestedMixin` serves ``/api/organizations/<organization_id>/<resource>``:
  ``organization_id`` is a UUID or ``@current``. Unknown, malformed, or ``@current`` with no current
  organization: 404 "Organization not found.". A foreign organization: 403 (membership check).
* :class:`ProjectNestedMixin` serves ``/api/projects/<project_id>/<resource>``: ``project_id`` is an
  integer or ``@current``; anything else, or an unknown project: 404 "Project not found.".

Register a nested viewset with the prefix helpers, e.g.
``router.register(organization_prefix("members"), MemberViewSet, basename="organization_members")``.
"""

from functools import cached_property
from uuid import UUID

from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.routers import SimpleRouter

from posthog_emulator import cache
from posthog_emulator.models import Organization, Team
from posthog_emulator.permissions import (
    APIScopePermission,
    OrganizationMemberPermissions,
    TeamMemberAccessPermission,
)

ORGANIZATION_ID_PATTERN = r"(?P<organization_id>[^/]+)"
PROJECT_ID_PATTERN = r"(?P<project_id>[^/]+)"


class OptionalSlashRouter(SimpleRouter):
    """A DRF router whose routes match with or without a trailing slash (no API root view)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.trailing_slash = r"/?"


def organization_prefix(resource: str) -> str:
    """Router prefix for a resource nested under an organization."""
    return rf"organizations/{ORGANIZATION_ID_PATTERN}/{resource}"


def project_prefix(resource: str) -> str:
    """Router prefix for a resource nested under a project."""
    return rf"projects/{PROJECT_ID_PATTERN}/{resource}"


def add_environment_aliases(router: SimpleRouter) -> None:
    """Serve ``/api/environments/<id>/<resource>`` beside ``/api/projects/<id>/<resource>`` for every
    registered project route whose viewset sets ``served_on_environments`` (PostHog's
    ``register_grandfathered_environment_nested_viewset`` in ``posthog/api/__init__.py``: a
    deprecated alias its Terraform provider still calls; event definitions, for one, are not
    served there). Call once, after every resource has registered."""
    for prefix, viewset, basename in list(router.registry):
        if prefix.startswith("projects/") and getattr(viewset, "served_on_environments", False):
            router.register("environments/" + prefix[len("projects/"):], viewset, basename="environment_" + basename)


class EmulatorViewSetMixin:
    """Base of every API viewset. Put it first in the bases.

    Permissions are ``[IsAuthenticated, APIScopePermission, <membership>, *permission_classes]``,
    where ``<membership>`` is :class:`TeamMemberAccessPermission` on project-based views and
    :class:`OrganizationMemberPermissions` otherwise. A viewset with special needs (like the
    organizations resource) overrides :meth:`dangerously_get_permissions` and returns the full
    list itself, or raises ``NotImplementedError`` to fall back to the default.
    """

    scope_object: str | None = None
    required_scopes: list[str] | None = None
    permission_classes: list = []
    is_project_view = False

    def dangerously_get_permissions(self):
        raise NotImplementedError()

    def get_permissions(self):
        try:
            return self.dangerously_get_permissions()
        except NotImplementedError:
            pass
        membership = TeamMemberAccessPermission if self.is_project_view else OrganizationMemberPermissions
        classes = [IsAuthenticated, APIScopePermission, membership, *self.permission_classes]
        return [permission() for permission in classes]


class OrganizationNestedMixin(EmulatorViewSetMixin):
    """For viewsets under ``/api/organizations/<organization_id>/``.

    Exposes ``self.organization``. ``get_queryset`` restricts the viewset's ``queryset`` to that
    organization (field named by ``organization_lookup``), so an object of another organization
    answers 404 even under your own organization's URL (docs/posthog_facts.md §8, item 4). Add filtering in
    :meth:`safely_get_queryset`.
    """

    organization_lookup = "organization"

    @cached_property
    def organization(self) -> Organization:
        value = self.kwargs["organization_id"]
        if value == "@current":
            organization = self.request.user.organization
            if organization is None:
                raise NotFound("Organization not found.")
            return organization
        try:
            organization_id = UUID(value)
        except ValueError:
            raise NotFound("Organization not found.")
        organization = cache.organization(organization_id)
        if organization is None:
            raise NotFound("Organization not found.")
        return organization

    def safely_get_queryset(self, queryset):
        return queryset

    def get_queryset(self):
        queryset = super().get_queryset().filter(**{self.organization_lookup: self.organization})
        return self.safely_get_queryset(queryset)

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "get_organization": lambda: self.organization}


class ProjectNestedMixin(EmulatorViewSetMixin):
    """For viewsets under ``/api/projects/<project_id>/``.

    Exposes ``self.team`` (alias ``self.project``) and ``self.organization`` (the project's).
    ``get_queryset`` restricts ``queryset`` to the project (field named by ``team_lookup``).
    """

    is_project_view = True
    team_lookup = "team"
    #: Also served under ``/api/environments/<id>/`` (see :func:`add_environment_aliases`).
    served_on_environments = False

    @cached_property
    def team(self) -> Team:
        value = self.kwargs["project_id"]
        if value == "@current":
            team = self.request.user.team
            if team is None:
                raise NotFound("Project not found.")
            return team
        try:
            project_id = int(value)
        except ValueError:
            raise NotFound("Project not found.")
        team = Team.objects.select_related("organization").filter(id=project_id).first()
        if team is None:
            raise NotFound("Project not found.")
        return team

    @property
    def project(self) -> Team:
        return self.team

    @property
    def organization(self) -> Organization:
        return self.team.organization

    def safely_get_queryset(self, queryset):
        return queryset

    def get_queryset(self):
        queryset = super().get_queryset().filter(**{self.team_lookup: self.team})
        return self.safely_get_queryset(queryset)

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "get_team": lambda: self.team}
