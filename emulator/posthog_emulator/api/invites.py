"""``/api/organizations/<organization_id>/invites`` (spec 2.6, 3.4, 4.4; docs/posthog_facts.md §3).

Mirrors ``posthog/api/organization_invite.py``:

* **List** (``organization_member:read``): paginated, newest first (``-created_at``); expired
  invites are still listed, with ``is_expired: true``.
* **Create** (201): checks in PostHog's order. The invite permission first: any member may
  invite, unless the organization has the paid ``organization_invite_settings`` feature and
  ``members_can_invite`` is false, then members get 403 (``UserCanInvitePermission``; PostHog reads
  the user's *current* organization there, the emulator the one in the URL). Then a ``level``
  above the inviter's own is 403 "You cannot invite a user with a higher permission level than
  your own." (raised by the field validator, so it wins over field errors such as a missing
  ``target_email``, 400 ``required``). The domain part of ``target_email`` is lower-cased. An
  e-mail address that already belongs to a member is 400 ``invalid_input`` "A user with this email
  address already belongs to the organization." Every older invite for that address in the
  organization, expired ones included, is deleted: a new invite replaces them. Both comparisons are
  exact, as PostHog's ``user__email=`` and ``target_email=`` lookups (after the domain is
  lower-cased): ``Ann@example.com`` is invited beside the member or invite ``ann@example.com``.
  ``combine_pending_invites`` keeps the highest level of the non-expired pending invites and
  merges their ``private_project_access``. ``send_email`` (default true) sets
  ``emailing_attempt_made``: the emulator behaves like an instance with e-mail configured (Cloud),
  but sends nothing.
* **Bulk** ``POST .../invites/bulk`` (``organization_member:write``): a JSON array of at most 20
  invites, all validated first and created in one transaction (all or nothing). Not an array: 400
  "This endpoint needs an array of data for bulk invite creation."; more than 20: 400
  ``max_length`` "A maximum of 20 invites can be sent in a single request.". Profile ``posthog``
  answers 201 with the list of created invites (PostHog's code); profile ``spec`` answers 200 (the
  spec's status), with the same list as body.
* **Delete** (204): admin or owner; a member gets 403 "Your organization access level is
  insufficient." (PostHog's newest tests).
* No retrieve, update or PATCH: 405.

Scopes: object ``organization_member``. PostHog's ``create`` replaces the permission list with
``[IsAuthenticated, OrganizationMemberPermissions, UserCanInvitePermission]``, which drops the
API-key scope check; profile ``posthog`` reproduces that, profile ``spec`` requires
``organization_member:write`` as the spec's table says.

Emulator endpoints (not PostHog): ``/_emulator/clock``, ``/_emulator/invites/<id>/age`` and
``/_emulator/invites/accept`` (``/_emulator/invites/<id>/accept``); see the README.
"""

from uuid import UUID

from django.db import transaction
from rest_framework import exceptions, mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import BasePermission, IsAuthenticated
from rest_framework.response import Response

from posthog_emulator import cache, profiles
from posthog_emulator.api.shared import ModelSerializer, UserBasicSerializer, rule_errors
from posthog_emulator.models import Organization, OrganizationInvite, OrganizationMembership, User
from posthog_emulator.permissions import (
    MESSAGE_LEVEL_INSUFFICIENT,
    APIScopePermission,
    OrganizationMemberPermissions,
    membership_level,
)
from posthog_emulator.routing import OrganizationNestedMixin, organization_prefix
from posthog_emulator.rules.invites import (
    check_bulk,
    combine_pending,
    lowercase_email_domain,
    private_project_access,
)
from posthog_emulator.rules.levels import check_invite_level, is_admin, may_invite

MESSAGE_ALREADY_MEMBER = "A user with this email address already belongs to the organization."
INVITE_SETTINGS_FEATURE = "organization_invite_settings"


def is_member(organization: Organization, email: str) -> bool:
    """Whether a user with exactly this address belongs to the organization.

    PostHog's ``create`` asks ``OrganizationMembership.objects.filter(organization_id=...,
    user__email=validated_data["target_email"])``: an exact match, so ``Ann@example.com`` is not
    the member ``ann@example.com`` (issue 27.6). The members' addresses are remembered while no
    membership or user was written (``cache.memo``).
    """
    emails = cache.memo(
        ("member_emails", organization.id),
        (OrganizationMembership, User),
        lambda: list(OrganizationMembership.objects.filter(organization=organization).values_list("user__email", flat=True)),
    )
    return email in emails


class UserCanInvitePermission(BasePermission):
    """Admins always; members unless the invite-settings feature is on and members may not invite."""

    def has_permission(self, request, view) -> bool:
        organization = view.organization
        if not organization.is_feature_available(INVITE_SETTINGS_FEATURE):
            return True
        level = membership_level(request.user, organization)
        if level is None:
            raise exceptions.NotFound("Organization not found.")
        return may_invite(level, organization.members_can_invite)


class InviteDeletePermission(BasePermission):
    """Deleting an invite needs admin (8) or owner (docs/posthog_facts.md §3, "Delete")."""

    message = MESSAGE_LEVEL_INSUFFICIENT

    def has_permission(self, request, view) -> bool:
        if request.method != "DELETE":
            return True
        return is_admin(membership_level(request.user, view.organization))


class OrganizationInviteSerializer(ModelSerializer):
    created_by = UserBasicSerializer(read_only=True)
    is_expired = serializers.BooleanField(read_only=True)
    private_project_access = serializers.JSONField(required=False, allow_null=True)
    send_email = serializers.BooleanField(write_only=True, default=True)
    combine_pending_invites = serializers.BooleanField(write_only=True, default=False)

    class Meta:
        model = OrganizationInvite
        fields = [
            "id",
            "target_email",
            "first_name",
            "emailing_attempt_made",
            "level",
            "is_expired",
            "created_by",
            "created_at",
            "updated_at",
            "message",
            "private_project_access",
            "send_email",
            "combine_pending_invites",
        ]
        read_only_fields = ["id", "emailing_attempt_made", "created_at", "updated_at"]
        extra_kwargs = {"target_email": {"required": True, "allow_null": False}}

    @property
    def organization(self) -> Organization:
        return self.context["get_organization"]()

    def validate_target_email(self, email: str) -> str:
        return lowercase_email_domain(email)

    def validate_level(self, level: int) -> int:
        own = membership_level(self.context["request"].user, self.organization)
        if own is None:
            raise exceptions.PermissionDenied("You must be a member of the organization to send invites.")
        with rule_errors():
            check_invite_level(own, level)
        return level

    def validate_private_project_access(self, value):
        if not value:
            return []
        teams = dict(self.organization.teams.values_list("id", "access_control"))
        own = membership_level(self.context["request"].user, self.organization)
        with rule_errors():
            return private_project_access(value, set(teams), {k for k, private in teams.items() if private},
                                          inviter_is_admin=is_admin(own))

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if data.get("private_project_access") is None:
            data["private_project_access"] = []
        return data

    def create(self, validated_data):
        organization = self.organization
        email = validated_data["target_email"]
        if is_member(organization, email):
            raise exceptions.ValidationError(MESSAGE_ALREADY_MEMBER)
        combine = validated_data.pop("combine_pending_invites", False)
        send_email = validated_data.pop("send_email", True)
        # ``OrganizationInviteManager._get_invites_for_user_org``: ``target_email=`` (exact).
        existing = OrganizationInvite.objects.filter(organization=organization, target_email=email)
        if combine:
            pending = [invite for invite in existing if not invite.is_expired]
            if pending:
                validated_data["level"], validated_data["private_project_access"] = combine_pending(
                    validated_data.get("level", OrganizationMembership.Level.MEMBER),
                    validated_data.get("private_project_access"),
                    pending,
                )
        existing.delete()
        return OrganizationInvite.objects.create(
            organization=organization,
            created_by=self.context["request"].user,
            emailing_attempt_made=bool(send_email),
            **validated_data,
        )


class OrganizationInviteViewSet(
    OrganizationNestedMixin,
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    scope_object = "organization_member"
    serializer_class = OrganizationInviteSerializer
    queryset = OrganizationInvite.objects.all()
    permission_classes = [InviteDeletePermission]
    lookup_field = "id"
    lookup_value_regex = r"[^/]+"

    def dangerously_get_permissions(self):
        if self.action == "create" and profiles.is_posthog():
            # PostHog's create drops APIScopePermission (see the module docstring).
            return [IsAuthenticated(), OrganizationMemberPermissions(), UserCanInvitePermission()]
        if self.action in ("create", "bulk"):
            return [
                IsAuthenticated(),
                APIScopePermission(),
                OrganizationMemberPermissions(),
                UserCanInvitePermission(),
            ]
        raise NotImplementedError()

    def safely_get_queryset(self, queryset):
        return queryset.select_related("created_by").order_by("-created_at", "-id")

    def get_object(self):
        try:
            UUID(str(self.kwargs.get(self.lookup_field)))
        except ValueError:
            raise exceptions.NotFound()
        return super().get_object()

    def perform_create(self, serializer):
        with transaction.atomic():
            serializer.save()

    @action(methods=["POST"], detail=False, required_scopes=["organization_member:write"])
    def bulk(self, request, **kwargs):
        data = request.data
        with rule_errors():
            check_bulk(data)
        serializer = self.get_serializer(data=data, many=True)
        serializer.is_valid(raise_exception=True)
        with transaction.atomic():
            serializer.save()
        code = status.HTTP_201_CREATED if profiles.is_posthog() else status.HTTP_200_OK
        return Response(serializer.data, status=code)


def register(router) -> None:
    router.register(organization_prefix("invites"), OrganizationInviteViewSet, basename="organization_invites")
