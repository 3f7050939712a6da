"""``GET /api/projects`` and ``GET /api/projects/<id|@current>`` (read-only; scope ``project``).

Other resources (event definitions) need a project ID; this is where clients find one (spec 4).
Mirrors ``ProjectViewSet`` in ``posthog/api/project.py``:

* **List**: projects of the organizations the user belongs to, narrowed to the key's
  ``scoped_organizations``. A key with ``scoped_teams`` gets 403 "API keys with scoped projects are
  only supported on project-based endpoints." (PostHog resolves ``view.team`` for the scoped-team
  check and a list has none; public reports confirm the 403 on ``GET /api/projects/``).
* **Retrieve**: among the same projects; otherwise 404 "Not found.". ``@current`` is the user's
  current project (404 "Not found." when none, or when outside ``scoped_organizations``). A key
  with ``scoped_teams`` not listing the project gets 403 "API key does not have access to the
  requested project: ID <n>.". A non-integer ID gives 400, as Django's integer lookup does in
  PostHog ("Field 'id' expected a number but got 'abc'.").

Only the basic project fields are served (PostHog's full project serializer has hundreds of
settings that no module here manages).
"""

from functools import cached_property

from django.shortcuts import get_object_or_404
from rest_framework import viewsets
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import IsAuthenticated

from posthog_emulator.api.shared import TeamBasicSerializer
from posthog_emulator.auth import personal_api_key_of
from posthog_emulator.models import Organization, Team
from posthog_emulator.permissions import APIScopePermission
from posthog_emulator.routing import EmulatorViewSetMixin


class ProjectSerializer(TeamBasicSerializer):
    class Meta(TeamBasicSerializer.Meta):
        fields = [*TeamBasicSerializer.Meta.fields, "created_at", "updated_at"]
        read_only_fields = fields


class ProjectViewSet(EmulatorViewSetMixin, viewsets.ReadOnlyModelViewSet):
    scope_object = "project"
    queryset = Team.objects.none()
    lookup_field = "id"
    lookup_value_regex = r"[^/]+"

    def dangerously_get_permissions(self):
        # Membership is enforced by the queryset: other organizations' projects do not exist here.
        return [IsAuthenticated(), APIScopePermission()]

    def get_serializer_class(self):
        return TeamBasicSerializer if self.action == "list" else ProjectSerializer

    def _scoped_organizations(self) -> list[str]:
        key = personal_api_key_of(self.request)
        return list(key.scoped_organizations) if key is not None else []

    def get_queryset(self):
        queryset = Team.objects.filter(organization__memberships__user=self.request.user).order_by("id")
        if scoped := self._scoped_organizations():
            queryset = queryset.filter(organization_id__in=scoped)
        return queryset

    @cached_property
    def team(self) -> Team:
        """The project of a detail route; ``KeyError`` on the list route (no lookup value)."""
        value = self.kwargs[self.lookup_field]
        if value == "@current":
            team = self.request.user.team
            scoped = self._scoped_organizations()
            if team is None or (scoped and str(team.organization_id) not in scoped):
                raise NotFound()
            return team
        try:
            project_id = int(value)
        except ValueError:
            raise ValidationError(f"Field 'id' expected a number but got {value!r}.")
        return get_object_or_404(self.get_queryset(), id=project_id)

    @property
    def organization(self) -> Organization:
        if not self.detail:
            raise AttributeError("Not valid for non-detail routes.")
        return self.team.organization

    def get_object(self):
        team = self.team
        self.check_object_permissions(self.request, team)
        return team


def register(router) -> None:
    router.register(r"projects", ProjectViewSet, basename="projects")
