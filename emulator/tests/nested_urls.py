"""Test-only URLconf: the real routes plus two small nested viewsets that exercise the generic
routing mixins and permissions the way future resources (members, event definitions) will."""

from rest_framework import mixins, serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from posthog_emulator.models import OrganizationMembership
from posthog_emulator.permissions import OrganizationAdminWritePermissions
from posthog_emulator.routing import (
    OptionalSlashRouter,
    OrganizationNestedMixin,
    ProjectNestedMixin,
    organization_prefix,
    project_prefix,
)
from posthog_emulator.urls import urlpatterns as base_urlpatterns
from django.urls import include, re_path


class MembershipSerializer(serializers.ModelSerializer):
    class Meta:
        model = OrganizationMembership
        fields = ["id", "level"]


class WidgetViewSet(OrganizationNestedMixin, mixins.ListModelMixin, mixins.DestroyModelMixin, viewsets.GenericViewSet):
    """Lists the organization's memberships; admin-only writes."""

    scope_object = "organization_member"
    queryset = OrganizationMembership.objects.order_by("joined_at")
    serializer_class = MembershipSerializer
    permission_classes = [OrganizationAdminWritePermissions]

    @action(detail=False, methods=["post"])
    def unmapped(self, request, **kwargs):
        return Response({"ok": True})

    @action(detail=False, methods=["get"])
    def unmapped_read(self, request, **kwargs):
        return Response({"ok": True})

    @action(detail=False, methods=["post"], required_scopes=["organization_member:write"])
    def mapped(self, request, **kwargs):
        return Response({"ok": True})


class ThingViewSet(ProjectNestedMixin, viewsets.GenericViewSet):
    scope_object = "event_definition"

    def list(self, request, **kwargs):
        return Response({"project": self.team.id, "organization": str(self.organization.id)})


router = OptionalSlashRouter()
router.register(organization_prefix("widgets"), WidgetViewSet, basename="organization_widgets")
router.register(project_prefix("things"), ThingViewSet, basename="project_things")

urlpatterns = [re_path(r"^api/", include(router.urls)), *base_urlpatterns]
