"""Projects: ``/api/organizations/<id|@current>/projects`` (full CRUD) and ``/api/projects``
(read, update and delete; issue 27.1). Scope object ``project``. Mirrors ``ProjectViewSet`` in
``posthog/api/project.py`` and its permission classes in ``posthog/permissions.py`` (docs/posthog_facts.md §10.5):

* **List** (``project:read``): the projects of the organization (or, on ``/api/projects``, of every
  organization the user belongs to, narrowed to the key's ``scoped_organizations``), ordered by id,
  in the basic shape of ``TeamBasicSerializer``. A key with ``scoped_teams`` gets 403 "API keys with
  scoped projects are only supported on project-based endpoints.".
* **Retrieve**: the full project (:mod:`posthog_emulator.api.project_serializers`). ``@current`` is
  the user's current project (404 when it is not in the organization of the URL). A non-integer id
  is 400 "Field 'id' expected a number but got 'abc'."; an unknown one 404 "Not found.".
* **Create** (``project:write``, 201): first ``PremiumMultiProjectPermission``: without the
  organization's ``organizations_projects`` feature an organization has one non-demo project, with
  it ``limit`` of them (null: up to 2000), else 403 "You have reached the maximum limit of allowed
  projects for your current plan. ..."; a second demo project is refused the same way. Then
  ``UserCanCreateProjectPermission``: admins only (403 "You need to be an organization admin or
  above to create new projects."; a non-member 404 "Organization not found."), unless ``is_demo``.
  The new project becomes the requester's current project (not their current organization).
* **Update** (PATCH, PUT; ``project:write`` with an API key): members may update, but only the
  member settings (``rules.projects.MEMBER_FIELDS``); anything else needs admin: 403 "Only project
  admins can modify these settings: <names>". A PUT also passes ``PremiumMultiProjectPermission``
  (it guards ``update`` as well as ``create``), so on a plan without the feature a PUT of the only
  project is refused; PATCH is not.
* **Name**: 1 to 200 characters, trimmed, unique within the organization regardless of case: 409
  ``conflict`` 'There is already a project called "<name>" in this organization. Choose a
  different name.'. Omitted on create: "Default project" (then "Default project 2", ...).
* **Delete** (``project:write``): admins only (403 "You don't have sufficient permissions in the
  project."); 204. PostHog marks the project pending deletion and removes its data in the
  background; the emulator removes it at once, with everything in it.
"""

from functools import cached_property

from django.shortcuts import get_object_or_404
from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import BasePermission, IsAuthenticated

from posthog_emulator.api.project_serializers import ProjectSerializer
from posthog_emulator.api.shared import TeamBasicSerializer, refused_action, rule_errors
from posthog_emulator.auth import personal_api_key_of
from posthog_emulator.models import Organization, Team
from posthog_emulator.permissions import APIScopePermission, membership_level
from rest_framework.response import Response

from posthog_emulator.routing import EmulatorViewSetMixin, OrganizationNestedMixin, organization_prefix, project_prefix
from posthog_emulator.rules.projects import check_can_create, check_can_delete, check_plan_allows


def project_counts(organization: Organization) -> tuple[int, bool]:
    """(non-demo projects, whether a demo project exists) of ``organization``."""
    teams = Team.objects.filter(organization=organization)
    return teams.exclude(is_demo=True).count(), teams.filter(is_demo=True).exists()


def requested_demo(request) -> bool:
    return bool(request.data.get("is_demo")) if hasattr(request.data, "get") else False


class ProjectCreatePermission(BasePermission):
    """``PremiumMultiProjectPermission`` then ``UserCanCreateProjectPermission`` of a create (a demo
    project needs membership only, as PostHog's ``OrganizationMemberPermissions``)."""

    def has_permission(self, request, view) -> bool:
        organization = view.organization
        count, has_demo = project_counts(organization)
        demo = requested_demo(request)
        with rule_errors():
            check_plan_allows(organization, demo, count, has_demo, creating=True)
        level = membership_level(request.user, organization)
        if level is None:
            if demo:
                return False
            raise NotFound("Organization not found.")
        with rule_errors():
            check_can_create(organization, level, demo)
        return True


class ProjectWritePermission(BasePermission):
    """A PUT passes the plan check; a DELETE needs admin (``TeamMemberLightManagementPermission``)."""

    def has_permission(self, request, view) -> bool:
        if view.action == "update":
            count, has_demo = project_counts(view.organization)
            with rule_errors():
                check_plan_allows(view.organization, requested_demo(request), count, has_demo, creating=False)
        if request.method == "DELETE":
            with rule_errors():
                check_can_delete(membership_level(request.user, view.organization))
        return True


def project_from_url(view, queryset) -> Team:
    """The project of a detail route: ``@current``, or an integer id within ``queryset``."""
    value = view.kwargs[view.lookup_field]
    if value == "@current":
        team = view.request.user.team
        if team is None or not queryset.filter(id=team.id).exists():
            raise NotFound()
        return team
    try:
        project_id = int(value)
    except ValueError:
        raise ValidationError(f"Field 'id' expected a number but got {value!r}.")
    return get_object_or_404(queryset, id=project_id)


#: Product keys ``complete_product_onboarding`` accepts (``ProductKey`` of PostHog's schema; the
#: ones an administrator meets, not the whole enum).
PRODUCT_KEYS = ("product_analytics", "session_replay", "feature_flags", "experiments", "surveys", "web_analytics",
                "data_warehouse", "error_tracking", "llm_analytics", "revenue_analytics", "workflows", "logs")


class ProductIntentSerializer(serializers.Serializer):
    product_type = serializers.CharField()
    intent_context = serializers.CharField(required=False, allow_null=True, allow_blank=True)
    metadata = serializers.DictField(required=False, default=dict)


class ProjectActionsMixin:
    """The custom actions of PostHog's ``ProjectViewSet`` (``posthog/api/project.py``), served on
    ``/api/projects/<id>/`` and ``/api/organizations/<id>/projects/<id>/`` alike.

    ``add_product_intent`` and ``complete_product_onboarding`` declare ``required_scopes=
    ["project:read"]``; the others (``activity``, ``change_organization``,
    ``is_generating_demo_data``, ``reset_token``, ``rotate_secret_token``,
    ``delete_secret_token_backup``) declare no scope, so ``APIScopePermission`` refuses a personal
    API key: 403 "This action does not support Personal API Key access" (every key the emulator
    knows is one, so their bodies never run). The emulator records no product intents.
    """

    def _project_answer(self, code=200):
        return Response(ProjectSerializer(self.get_object(), context=self.get_serializer_context()).data, status=code)

    @action(methods=["PATCH"], detail=True, required_scopes=["project:read"])
    def add_product_intent(self, request, *args, **kwargs):
        ProductIntentSerializer(data=request.data).is_valid(raise_exception=True)
        return self._project_answer(201)

    @action(methods=["PATCH"], detail=True, required_scopes=["project:read"])
    def complete_product_onboarding(self, request, *args, **kwargs):
        product_type = request.data.get("product_type") if hasattr(request.data, "get") else None
        if not product_type:
            return Response({"error": "product_type is required"}, status=400)
        if product_type not in PRODUCT_KEYS:
            return Response({"error": f"invalid product_type, expected one of {list(PRODUCT_KEYS)}"}, status=400)
        ProductIntentSerializer(data=request.data).is_valid(raise_exception=True)
        return self._project_answer()

    activity = refused_action("activity", "GET")
    change_organization = refused_action("change_organization", "POST")
    is_generating_demo_data = refused_action("is_generating_demo_data", "GET")
    reset_token = refused_action("reset_token", "PATCH")
    rotate_secret_token = refused_action("rotate_secret_token", "PATCH")
    delete_secret_token_backup = refused_action("delete_secret_token_backup", "PATCH")


ENVIRONMENTS_GONE = ("Multiple environments per project are no longer available. Please contact support if you need "
                     "assistance.")


class ProjectEnvironmentsViewSet(viewsets.ViewSet):
    """``/api/projects/<id>/environments/...``: PostHog's ``ProjectEnvironmentsViewSet``
    (``posthog/api/team.py``) raises in ``initial``, before authentication: every request, with
    or without a key, is 403 "Multiple environments per project are no longer available. ..."."""

    authentication_classes = []
    permission_classes = []

    def initial(self, request, *args, **kwargs):
        raise PermissionDenied(ENVIRONMENTS_GONE)

    def list(self, request, *args, **kwargs):
        raise PermissionDenied(ENVIRONMENTS_GONE)  # unreachable: initial refuses first

    create = retrieve = update = partial_update = destroy = list

    @action(methods=["GET", "POST", "PUT", "PATCH", "DELETE"], detail=True, url_path=r"[^/]+")
    def any_action(self, request, *args, **kwargs):
        raise PermissionDenied(ENVIRONMENTS_GONE)


class OrganizationProjectViewSet(ProjectActionsMixin, OrganizationNestedMixin, viewsets.ModelViewSet):
    scope_object = "project"
    queryset = Team.objects.all()
    lookup_field = "id"
    lookup_value_regex = r"[^/]+"
    permission_classes = [ProjectWritePermission]

    def dangerously_get_permissions(self):
        if self.action == "create":
            return [IsAuthenticated(), APIScopePermission(), ProjectCreatePermission()]
        raise NotImplementedError()

    def get_serializer_class(self):
        return TeamBasicSerializer if self.action == "list" else ProjectSerializer

    def safely_get_queryset(self, queryset):
        return queryset.order_by("id")

    @cached_property
    def team(self) -> Team:
        """The project of a detail route (scoped-team checks read it); ``KeyError`` on a list."""
        if self.lookup_field not in self.kwargs:
            raise KeyError(self.lookup_field)
        return project_from_url(self, self.get_queryset())

    def get_object(self):
        team = self.team
        self.check_object_permissions(self.request, team)
        return team

    def perform_create(self, serializer):
        team = serializer.save()
        user = self.request.user
        user.current_team = team
        user.save(update_fields=["current_team"])

    def perform_destroy(self, team):
        team.delete()


class ProjectViewSet(ProjectActionsMixin, EmulatorViewSetMixin, mixins.UpdateModelMixin, mixins.DestroyModelMixin,
                     viewsets.ReadOnlyModelViewSet):
    """``/api/projects``: every project of the user's organizations; a project is updated and
    deleted here as under its organization (PostHog registers ``RootProjectViewSet``, a subclass of
    the full ``ProjectViewSet``, on this route: ``posthog/api/__init__.py``). Creating a project here
    is not emulated (PostHog creates it in the requester's current organization)."""

    scope_object = "project"
    queryset = Team.objects.none()
    lookup_field = "id"
    lookup_value_regex = r"[^/]+"
    http_method_names = ["get", "put", "patch", "delete", "head", "options"]

    def dangerously_get_permissions(self):
        # Membership is enforced by the queryset: other organizations' projects do not exist here.
        return [IsAuthenticated(), APIScopePermission(), ProjectWritePermission()]

    def perform_destroy(self, team):
        team.delete()

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
        return project_from_url(self, self.get_queryset())

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
    router.register(organization_prefix("projects"), OrganizationProjectViewSet, basename="organization_projects")
    router.register(project_prefix("environments"), ProjectEnvironmentsViewSet, basename="project_environments")
    router.register(r"projects", ProjectViewSet, basename="projects")

