"""Roles and who holds them: ``/api/organizations/<id|@current>/roles`` and
``.../roles/<role_id>/role_memberships`` (docs/posthog_facts.md §10.4). Mirrors
``RoleViewSet`` and ``RoleMembershipViewSet`` in ``ee/api/rbac/role.py``.

* **Roles**: scope object ``organization``; members read, admins (>= 8) create, rename and delete
  (403 "Your organization access level is insufficient."). Fields ``id``, ``name`` (required, at
  most 200 characters), ``created_at``, ``created_by`` (nested user; null for roles made through
  the API, which does not record the creator), ``members`` (the role's
  memberships, as the membership list shows them) and ``is_default`` (whether the organization's
  ``default_role_id`` is this role). A name another role of the organization has, in any case, is
  400 ``unique`` "There is already a role with this name." (``attr`` ``name``; renaming a role to
  its own name is fine). List ordered by creation, paginated. Delete → 204: the role's memberships
  go with it, and the organization's ``default_role_id`` becomes null if it was this role.
* **Role memberships**: the same permissions. List (ordered by ``joined_at``) and retrieve within
  the role of the URL (an unknown or malformed role id lists nothing). Create ``{"user_uuid"}`` →
  201: the role must be one of this organization's (else 400 "Role does not exist."), the user an
  active member of it (else 400 "User does not exist."), and not in the role yet (else 400 "User is
  already part of the role."); these three have ``attr`` null. Fields ``id``, ``role_id``,
  ``organization_member`` (the member, as ``/members`` shows it), ``user`` (nested), ``joined_at``,
  ``updated_at``; ``user_uuid`` is write-only. Delete → 204. Leaving the organization drops a
  person's role memberships.
* With ``members_can_see_org_members`` off, a member below admin sees, in a role's ``members`` and
  in the role memberships list, only the members the members list shows them, and a role's
  ``created_by`` only when they may see its creator (``RestrictedMemberVisibilityMixin``; issue 27.5).
"""

from django.db import IntegrityError, transaction
from rest_framework import mixins, serializers, viewsets
from rest_framework.exceptions import NotFound

from posthog_emulator.api.members import OrganizationMemberSerializer, visible_ids
from posthog_emulator.api.shared import UserBasicSerializer, rule_errors
from posthog_emulator.models import OrganizationMembership, Role, RoleMembership
from posthog_emulator.permissions import OrganizationAdminWritePermissions
from posthog_emulator.routing import OrganizationNestedMixin, organization_prefix
from posthog_emulator.rules import parse_uuid
from posthog_emulator.rules.roles import (
    MESSAGE_ALREADY_IN_ROLE,
    MESSAGE_ROLE_MISSING,
    MESSAGE_USER_MISSING,
    check_role_name,
)


class RoleMembershipSerializer(serializers.ModelSerializer):
    user = UserBasicSerializer(read_only=True)
    organization_member = OrganizationMemberSerializer(read_only=True)
    role_id = serializers.UUIDField(read_only=True)
    user_uuid = serializers.UUIDField(required=True, write_only=True)

    class Meta:
        model = RoleMembership
        fields = ["id", "role_id", "organization_member", "user", "joined_at", "updated_at", "user_uuid"]
        read_only_fields = ["id", "role_id", "organization_member", "user", "joined_at", "updated_at"]

    def create(self, validated_data):
        organization = self.context["get_organization"]()
        role_id = parse_uuid(self.context["role_id"])
        role = Role.objects.filter(id=role_id).first() if role_id else None
        if role is None or role.organization_id != organization.id:
            raise serializers.ValidationError(MESSAGE_ROLE_MISSING)
        member = (
            OrganizationMembership.objects.select_related("user")
            .filter(organization=organization, user__uuid=validated_data["user_uuid"], user__is_active=True)
            .first()
        )
        if member is None:
            raise serializers.ValidationError(MESSAGE_USER_MISSING)
        try:
            with transaction.atomic():
                return RoleMembership.objects.create(role=role, user=member.user, organization_member=member)
        except IntegrityError:
            raise serializers.ValidationError(MESSAGE_ALREADY_IN_ROLE)


class RoleSerializer(serializers.ModelSerializer):
    created_by = UserBasicSerializer(read_only=True)
    members = serializers.SerializerMethodField()
    is_default = serializers.SerializerMethodField()

    class Meta:
        model = Role
        fields = ["id", "name", "created_at", "created_by", "members", "is_default"]
        read_only_fields = ["id", "created_at", "created_by", "is_default"]

    def validate_name(self, name: str) -> str:
        others = Role.objects.filter(organization=self.context["get_organization"](), name__iexact=name)
        if self.instance is not None:
            others = others.exclude(pk=self.instance.pk)
        with rule_errors():
            return check_role_name(name, others.exists())

    def create(self, validated_data):
        # PostHog's RoleSerializer.create sets the organization only: created_by stays null.
        validated_data["organization"] = self.context["get_organization"]()
        return super().create(validated_data)

    def _visible(self):
        if "visible_membership_ids" not in self.context:
            self.context["visible_membership_ids"] = visible_ids(self.context["request"],
                                                                 self.context["get_organization"]())
        return self.context["visible_membership_ids"]

    def get_members(self, role: Role) -> list[dict]:
        memberships = role.memberships.select_related("user", "organization_member__user").order_by("joined_at", "id")
        visible = self._visible()
        if visible is not None:
            memberships = [m for m in memberships if str(m.organization_member_id) in visible]
        return RoleMembershipSerializer(memberships, many=True, context=self.context).data

    def to_representation(self, instance):
        data = super().to_representation(instance)
        visible = self._visible()
        if visible is not None and instance.created_by_id is not None:
            creator = OrganizationMembership.objects.filter(organization_id=instance.organization_id,
                                                            user_id=instance.created_by_id).first()
            if creator is None or str(creator.id) not in visible:
                data["created_by"] = None  # hidden from a member who may not see its creator
        return data

    def get_is_default(self, role: Role) -> bool:
        return self.context["get_organization"]().default_role_id == role.id


class RoleViewSet(OrganizationNestedMixin, viewsets.ModelViewSet):
    scope_object = "organization"
    serializer_class = RoleSerializer
    permission_classes = [OrganizationAdminWritePermissions]
    queryset = Role.objects.select_related("created_by")
    lookup_field = "id"
    lookup_value_regex = r"[^/]+"

    def safely_get_queryset(self, queryset):
        return queryset.order_by("created_at", "id")

    def get_object(self):
        role_id = parse_uuid(self.kwargs[self.lookup_field])
        if role_id is None:
            raise NotFound()
        self.kwargs[self.lookup_field] = role_id
        return super().get_object()


class RoleMembershipViewSet(
    OrganizationNestedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    scope_object = "organization"
    serializer_class = RoleMembershipSerializer
    permission_classes = [OrganizationAdminWritePermissions]
    queryset = RoleMembership.objects.select_related("role", "user", "organization_member__user")
    organization_lookup = "role__organization"
    lookup_field = "id"
    lookup_value_regex = r"[^/]+"

    def safely_get_queryset(self, queryset):
        role_id = parse_uuid(self.kwargs["role_id"])
        if role_id is None:
            return queryset.none()
        visible = visible_ids(self.request, self.organization)
        if visible is not None:
            queryset = queryset.filter(organization_member_id__in=visible)
        return queryset.filter(role_id=role_id).order_by("joined_at", "id")

    def get_object(self):
        membership_id = parse_uuid(self.kwargs[self.lookup_field])
        if membership_id is None:
            raise NotFound()
        self.kwargs[self.lookup_field] = membership_id
        return super().get_object()

    def get_serializer_context(self):
        return {**super().get_serializer_context(), "role_id": self.kwargs["role_id"]}


def register(router) -> None:
    router.register(organization_prefix("roles"), RoleViewSet, basename="organization_roles")
    router.register(
        organization_prefix(r"roles/(?P<role_id>[^/]+)/role_memberships"),
        RoleMembershipViewSet,
        basename="organization_role_memberships",
    )
