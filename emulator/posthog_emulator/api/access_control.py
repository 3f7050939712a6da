"""Access control of a project (generation ``access_control: newest``, the ``posthog`` profile's
default; ``spec``, an older PostHog, has none: 404 "Endpoint not found."). Mirrors the custom actions PostHog's ``AccessControlViewSetMixin``
(``products/access_control/backend/presentation/access_control.py``) and
``AccessControlManagementViewSetMixin`` (``ee/api/rbac/access_control_management.py``) add to the
project viewset, all hidden from PostHog's OpenAPI schema (``extend_schema(exclude=True)``):

* ``GET|PUT /api/projects/<id>/access_controls/``: the project's own rules (``resource`` "project",
  ``resource_id`` the project's id): its default (no member, no role), and a member's or a role's
  project level (``none``/``member``/``admin``).
* ``GET|PUT /api/projects/<id>/resource_access_controls/`` (and the deprecated
  ``global_access_controls``): rules for every object of a resource type (``resource_id`` null;
  ``none``/``viewer``/``editor``/``manager``). A ``resource_id`` in the body is 403.
* ``GET /api/projects/<id>/users_with_access/``: who can reach the project, at what level, and why.
* ``PUT /api/projects/<id>/access_control_management/`` and ``GET|PATCH
  …/access_control_management_settings/``: Terraform's claim on a rule and the project's lock.

A PUT creates or updates the rule of its subject (200, the rule); ``access_level: null`` removes it
(204, also when there was none). Scopes: ``access_control:read`` to read, ``access_control:write``
to write. Writing needs an organization admin; role rules the ``role_based_access`` feature (403);
a rule Terraform manages is refused to other callers while the lock is on (403).
"""

from functools import cached_property

from django.utils import timezone
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.response import Response

from posthog_emulator import generations
from posthog_emulator.api.shared import GenerationGateMixin, ModelSerializer, rule_errors
from posthog_emulator.models import AccessControl, OrganizationMembership, Role, Team, TeamAccessControlConfig
from posthog_emulator.permissions import API_SCOPE_OBJECTS, membership_level
from posthog_emulator.routing import ProjectNestedMixin
from posthog_emulator.rules import parse_uuid
from posthog_emulator.rules import access_control as rules
from posthog_emulator.rules.features import available_feature

#: ``API_SCOPE_OBJECTS`` without the internal ones, and the resource types of the settings UI.
RESOURCES = tuple(sorted(set(API_SCOPE_OBJECTS) | {
    "customer_analytics", "endpoint", "external_data_source", "warehouse_objects", "heatmap", "hog_flow",
    "llm_analytics", "revenue_analytics", "web_analytics", "toolbar", "ticket", "tracing", "metrics",
}))  # fmt: skip
READ_ACTIONS = ("access_controls", "resource_access_controls", "global_access_controls", "users_with_access")


class AccessControlSerializer(ModelSerializer):
    class Meta:
        model = AccessControl
        fields = ["access_level", "resource", "resource_id", "organization_member", "role", "created_by",
                  "created_at", "updated_at"]
        read_only_fields = fields


def _related(model, value, field: str, message: str | None = None):
    """The object a body's ``field`` names by id, or a 400 as DRF's related field answers."""
    if value is None:
        return None
    uuid = parse_uuid(value)
    if uuid is None:
        raise ValidationError({field: [message or f'"{value}" is not a valid UUID.']})
    found = model.objects.filter(id=uuid).first()
    if found is None:
        raise ValidationError({field: [f'Invalid pk "{value}" - object does not exist.']})
    return found


class AccessControlViewSet(GenerationGateMixin, ProjectNestedMixin, viewsets.GenericViewSet):
    scope_object = "project"
    queryset = AccessControl.objects.all()

    def route_absent(self) -> bool:
        return generations.of("access_control") == generations.ABSENT

    @property
    def required_scopes(self):
        method = self.request.method
        if self.action == "access_control_management":
            return ["access_control:write"]
        if self.action == "access_control_management_settings":
            return ["access_control:read" if method == "GET" else "access_control:write"]
        return ["access_control:read" if method == "GET" else "access_control:write"]

    # ------------------------------------------------------------------ helpers
    def _is_admin(self) -> bool:
        level = membership_level(self.request.user, self.organization) or 0
        return level >= OrganizationMembership.Level.ADMIN

    def _rules(self):
        return AccessControl.objects.filter(team=self.team).select_related("role", "organization_member")

    def _project_level(self, membership) -> tuple:
        """(level, source) of ``membership`` for this project."""
        project_rules = list(self._rules().filter(resource="project", resource_id=str(self.team.id)))
        roles = set(membership.role_memberships.values_list("role_id", flat=True))
        member_rule = next((r.access_level for r in project_rules if r.organization_member_id == membership.id), None)
        role_rules = [r.access_level for r in project_rules if r.role_id in roles]
        default = next((r.access_level for r in project_rules if not r.role_id and not r.organization_member_id), None)
        return rules.resolve_level("project", member_rule, role_rules, default,
                                   membership.level >= OrganizationMembership.Level.ADMIN)

    def _locked(self) -> bool:
        config = TeamAccessControlConfig.objects.filter(team=self.team).first()
        return bool(config and config.lock_terraform_managed_rules)

    def _terraform(self) -> bool:
        return rules.is_terraform(self.request.headers.get("User-Agent"))

    # ------------------------------------------------------------------ reading
    def _read(self, resource_level: bool) -> Response:
        if resource_level:
            rows = self._rules().filter(resource_id=None)
            levels, default, low, high = rules.LEVELS_RESOURCE, "editor", "none", "manager"
        else:
            rows = self._rules().filter(resource="project", resource_id=str(self.team.id))
            levels, default = rules.LEVELS_MEMBER, rules.default_level("project")
            low, high = rules.minimum_level("project"), rules.highest_level("project")
        membership = OrganizationMembership.objects.filter(organization=self.organization,
                                                           user=self.request.user).first()
        payload = {
            "access_controls": AccessControlSerializer(rows.order_by("created_at", "id"), many=True).data,
            "available_access_levels": list(levels),
            "default_access_level": default,
            "minimum_access_level": low,
            "maximum_access_level": high,
            "user_access_level": self._project_level(membership)[0] if membership else None,
            "user_can_edit_access_levels": self._is_admin(),
        }
        if not resource_level:
            payload["inherited_access"] = None  # a project has nothing above it to fall back to
        return Response(payload)

    # ------------------------------------------------------------------ writing
    def _write(self, request, resource_level: bool) -> Response:
        data = request.data if isinstance(request.data, dict) else {}
        if resource_level:
            if data.get("resource_id"):
                raise PermissionDenied(rules.MESSAGE_URL_TARGET)
            if "resource" not in data:
                raise ValidationError({"resource": ["This field is required."]})
            resource, resource_id = data["resource"], None
        else:
            resource, resource_id = "project", str(self.team.id)
        if "access_level" not in data:
            raise ValidationError({"access_level": ["This field is required."]})
        with rule_errors():
            rules.check_resource(resource, RESOURCES)
            level = rules.check_level(resource, data["access_level"])
        member = _related(OrganizationMembership, data.get("organization_member"), "organization_member",
                          rules.MESSAGE_MEMBER_ID)
        role = _related(Role, data.get("role"), "role")
        with rule_errors():
            rules.check_subject(member, role, available_feature(self.organization, rules.ROLE_BASED_ACCESS) is not None)
        if role is not None and role.organization_id != self.organization.id:
            raise ValidationError(rules.MESSAGE_ROLE_ORGANIZATION)
        if member is not None and member.organization_id != self.organization.id:
            raise ValidationError(rules.MESSAGE_MEMBER_ORGANIZATION)
        if not self._is_admin():
            raise PermissionDenied(rules.MESSAGE_PROJECT_WIDE if resource_level else
                                   f"Must be {rules.highest_level(resource)} to modify {resource} permissions.")
        instance = AccessControl.objects.filter(team=self.team, resource=resource, resource_id=resource_id,
                                                organization_member=member, role=role).first()
        if instance is not None:
            with rule_errors():
                rules.check_editable(instance.managed_by, self._terraform(), self._locked())
        if level is None:
            if instance is not None:
                instance.delete()
            return Response(status=status.HTTP_204_NO_CONTENT)
        if instance is None:
            instance = AccessControl(team=self.team, resource=resource, resource_id=resource_id,
                                     organization_member=member, role=role, created_by=request.user)
        instance.access_level = level
        if self._terraform():
            instance.managed_by, instance.managed_at = rules.TERRAFORM, timezone.now()
        instance.save()
        return Response(AccessControlSerializer(instance).data, status=status.HTTP_200_OK)

    # ------------------------------------------------------------------ the actions
    @action(methods=["GET", "PUT"], detail=False)
    def access_controls(self, request, *args, **kwargs):
        return self._write(request, False) if request.method == "PUT" else self._read(False)

    @action(methods=["GET", "PUT"], detail=False)
    def resource_access_controls(self, request, *args, **kwargs):
        return self._write(request, True) if request.method == "PUT" else self._read(True)

    @action(methods=["GET", "PUT"], detail=False)
    def global_access_controls(self, request, *args, **kwargs):
        """Deprecated alias of ``resource_access_controls``."""
        return self._write(request, True) if request.method == "PUT" else self._read(True)

    @action(methods=["GET"], detail=False)
    def users_with_access(self, request, *args, **kwargs):
        levels = rules.ordered_levels("project")
        users = []
        memberships = OrganizationMembership.objects.filter(organization=self.organization, user__is_active=True)
        for membership in memberships.select_related("user"):
            level, source = self._project_level(membership)
            if level == "none":
                continue
            users.append({
                "user_id": str(membership.user.uuid),
                "access_level": level,
                "access_source": source,
                "organization_membership_id": str(membership.id),
                "organization_membership_level": OrganizationMembership.Level(membership.level).name.lower(),
            })  # fmt: skip
        users.sort(key=lambda u: (levels.index(u["access_level"]), u["user_id"]), reverse=True)
        return Response({"users": users, "total_count": len(users)})

    @action(methods=["PUT"], detail=False)
    def access_control_management(self, request, *args, **kwargs):
        if not self._is_admin():
            raise PermissionDenied(rules.MESSAGE_MANAGE)
        data = request.data if isinstance(request.data, dict) else {}
        if data.get("resource") not in RESOURCES:
            raise ValidationError({"resource": ["Invalid resource."]})
        if "managed_by" not in data:
            raise ValidationError({"managed_by": ["This field is required."]})
        if data["managed_by"] not in (rules.TERRAFORM, None):
            raise ValidationError({"managed_by": [f'"{data["managed_by"]}" is not a valid choice.']})
        if data.get("role") and data.get("organization_member"):
            raise ValidationError("A rule cannot target both a member and a role.")
        instance = AccessControl.objects.filter(
            team=self.team, resource=data["resource"], resource_id=data.get("resource_id"),
            role_id=parse_uuid(data["role"]) if data.get("role") else None,
            organization_member_id=parse_uuid(data["organization_member"]) if data.get("organization_member") else None,
        ).first()  # fmt: skip
        if instance is None:
            raise NotFound(rules.MESSAGE_NO_RULE)
        with rule_errors():
            rules.check_editable(instance.managed_by, self._terraform(), self._locked())
        instance.managed_by = data["managed_by"]
        instance.managed_at = timezone.now() if data["managed_by"] else None
        instance.save(update_fields=["managed_by", "managed_at"])
        return Response({"managed_by": instance.managed_by,
                         "managed_at": serializers.DateTimeField().to_representation(instance.managed_at)
                         if instance.managed_at else None})

    @action(methods=["GET", "PATCH"], detail=False)
    def access_control_management_settings(self, request, *args, **kwargs):
        config, _ = TeamAccessControlConfig.objects.get_or_create(team=self.team)
        if request.method == "PATCH":
            if not self._is_admin():
                raise PermissionDenied(rules.MESSAGE_MANAGE)
            value = (request.data if isinstance(request.data, dict) else {}).get("lock_terraform_managed_rules")
            if not isinstance(value, bool):
                raise ValidationError({"lock_terraform_managed_rules": ["Must be a valid boolean."]})
            config.lock_terraform_managed_rules = value
            config.save(update_fields=["lock_terraform_managed_rules"])
        return Response({
            "lock_terraform_managed_rules": config.lock_terraform_managed_rules,
            "has_terraform_managed_rules": self._rules().filter(managed_by__isnull=False).exists(),
        })  # fmt: skip


class OrganizationProjectAccessControlViewSet(AccessControlViewSet):
    """The same actions under ``/api/organizations/<organization_id>/projects/<project_id>/``:
    ``AccessControlViewSetMixin`` is mixed into PostHog's ``ProjectViewSet``, which is registered
    on that route too (``products/access_control/backend/presentation/access_control.py``,
    ``posthog/api/project.py``). A project of another organization is 404 "Project not found."."""

    @cached_property
    def team(self) -> Team:
        team = ProjectNestedMixin.team.func(self)
        value = self.kwargs["organization_id"]
        current = self.request.user.organization
        expected = str(current.id) if value == "@current" and current is not None else value
        if str(team.organization_id) != expected:
            raise NotFound("Project not found.")
        return team


def register(router) -> None:
    router.register(r"projects/(?P<project_id>[^/]+)", AccessControlViewSet, basename="project_access_controls")
    router.register(r"organizations/(?P<organization_id>[^/]+)/projects/(?P<project_id>[^/]+)",
                    OrganizationProjectAccessControlViewSet, basename="organization_project_access_controls")
