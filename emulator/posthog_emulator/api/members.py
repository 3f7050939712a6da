"""``/api/organizations/<organization_id>/members`` and ``.../members/<user_uuid|@me>`` (spec 2.7, 4.5;
docs/posthog_facts.md §4).

Mirrors ``posthog/api/organization_member.py`` and ``OrganizationMembership.validate_update``:

* **List** (``organization_member:read``): active, non-bot users only; with
  ``members_can_see_org_members`` off, a member below admin sees only the members
  :mod:`posthog_emulator.rules.visibility` lets them see (issue 27.5). Query parameters ``email``
  (exact match), ``updated_after``, ``search`` (at most 200 characters, else 400 attr ``search``;
  PostHog ranks by trigram similarity of first name, last name and e-mail, the emulator keeps the
  members whose first name, last name or e-mail contains the term, ordered by first name) and
  ``order`` (``joined_at`` or ``-joined_at``, the default; other values fall back to it).
* **PATCH / PUT** ``{"level": N}`` (``organization_member:write``), checked in this order. The
  object permission, for any write: when the target is someone else, the requester must be admin
  or owner (403 "You can only edit others if you are an admin.") and the target's level must not
  be above the requester's (403 "You can only edit others with level lower or equal to you.").
  Then, with a new level: nobody changes their own level (403 "You can't change your own access
  level."); only an owner makes an owner (403 "You can only make another member owner if you're
  this organization's owner."); a new level above the requester's is 403 "You can only change
  access level of others to lower or equal to your current one.". An invalid level is 400
  ``invalid_choice`` with attr ``level``. Several owners may coexist.
* **DELETE** (204): the same object permission for someone else; anyone may leave; an owner can
  never be removed, by themselves or anyone (400 "Cannot leave the organization as its owner!").
  The user's current organization/project is moved off the organization they left.
* No create and no retrieve: ``GET .../members/<uuid>`` is 405 (after the permission checks, so a
  foreign organization is 403). With a personal API key, profile ``posthog`` answers that GET with
  PostHog's 403 "This action does not support Personal API Key access" (no action, so no scope
  mapping); profile ``spec`` answers 405.

``is_guest`` is always false and ``guest_grant_count`` null: PostHog's newest list leaves guests
out unless ``include_guests``/``guests_only`` (``posthog/api/organization_member.py``), and the
emulator has no way to make a guest, so those parameters change nothing. ``GET
…/members/<uuid>/scoped_api_keys`` declares no scope: 403 to a personal API key.

``is_2fa_enabled``, ``has_social_auth`` and ``last_login`` are the user's, as the control API set
them (``PATCH /_emulator/users/<email|uuid>``; false, false and null until then): the emulator has
no second factors, social logins or web sessions of its own (issue 27.10).
"""

from uuid import UUID

from django.db import transaction
from django.db.models import Q
from django.utils.dateparse import parse_datetime
from rest_framework import exceptions, mixins, serializers, viewsets
from rest_framework.permissions import SAFE_METHODS, BasePermission

from posthog_emulator.api.shared import ModelSerializer, UserBasicSerializer, refused_action, rule_errors
from posthog_emulator.models import INTERNAL_BOT_EMAIL_SUFFIX, OrganizationMembership, User
from posthog_emulator.routing import OrganizationNestedMixin, organization_prefix
from posthog_emulator.rules.levels import check_can_leave, check_membership_update
from posthog_emulator.rules.visibility import ACCESS_CONTROL_FEATURE, visible_membership_ids

MAX_SEARCH_LENGTH = 200
ALLOWED_ORDERINGS = ("joined_at", "-joined_at")
DEFAULT_ORDERING = "-joined_at"


def validate_update(requester: OrganizationMembership, target: OrganizationMembership, new_level=None) -> None:
    """``OrganizationMembership.validate_update``: raise 403 when ``requester`` may not make the change
    (the rules are :func:`posthog_emulator.rules.levels.check_membership_update`)."""
    with rule_errors():
        check_membership_update(requester, target, new_level)


def visible_ids(request, organization) -> set | None:
    """The membership ids (strings) the requester may see, None for all (``rules.visibility``)."""
    if organization.members_can_see_org_members:
        return None
    own = OrganizationMembership.objects.filter(user=request.user, organization=organization).first()
    return visible_membership_ids(
        restricted=True,
        requester_id=str(own.id) if own else None,
        requester_level=own.level if own else None,
        has_access_control=organization.is_feature_available(ACCESS_CONTROL_FEATURE),
        projects={team_id: not private for team_id, private in organization.teams.values_list("id", "access_control")},
    )


def requester_membership(request, organization) -> OrganizationMembership:
    membership = OrganizationMembership.objects.filter(user=request.user, organization=organization).first()
    if membership is None:
        raise exceptions.NotFound("Organization not found.")
    return membership


def leave(user: User, organization) -> None:
    """``User.leave``: owners cannot leave; the current organization/project moves elsewhere."""
    membership = OrganizationMembership.objects.filter(user=user, organization=organization).first()
    if membership is None:
        raise exceptions.ValidationError("Membership doesn't exist!")
    with rule_errors():
        check_can_leave(membership.level)
    with transaction.atomic():
        membership.delete()
        user.refresh_from_db()
        current_team = user.current_team
        if user.current_organization_id == organization.id or (
            current_team is not None and current_team.organization_id == organization.id
        ):
            user.switch_to(user.organizations.order_by("created_at", "id").first())


class OrganizationMemberObjectPermissions(BasePermission):
    """Writes on someone else's membership need admin and a target level <= your own."""

    def has_object_permission(self, request, view, membership) -> bool:
        if request.method in SAFE_METHODS:
            return True
        validate_update(requester_membership(request, membership.organization), membership)
        return True


class OrganizationMemberSerializer(ModelSerializer):
    user = UserBasicSerializer(read_only=True)
    is_2fa_enabled = serializers.SerializerMethodField()
    has_social_auth = serializers.SerializerMethodField()
    last_login = serializers.SerializerMethodField()
    is_guest = serializers.SerializerMethodField()
    guest_grant_count = serializers.SerializerMethodField()

    class Meta:
        model = OrganizationMembership
        fields = ["id", "user", "level", "joined_at", "updated_at", "is_2fa_enabled", "has_social_auth", "last_login",
                  "is_guest", "guest_grant_count"]
        read_only_fields = ["id", "joined_at", "updated_at"]

    def get_is_2fa_enabled(self, membership) -> bool:
        return membership.user.is_2fa_enabled

    def get_has_social_auth(self, membership) -> bool:
        return membership.user.has_social_auth

    def get_last_login(self, membership):
        value = membership.user.last_login
        return serializers.DateTimeField().to_representation(value) if value is not None else None

    def get_is_guest(self, membership) -> bool:
        return False  # the emulator has no guests (see the module docstring)

    def get_guest_grant_count(self, membership):
        return None  # "null for regular members" (OrganizationMemberSerializer.get_guest_grant_count)

    def update(self, instance, validated_data):
        requester = requester_membership(self.context["request"], instance.organization)
        for attr, value in validated_data.items():
            if attr == "level":
                validate_update(requester, instance, value)
            setattr(instance, attr, value)
        instance.save()
        return instance


class OrganizationMemberViewSet(
    OrganizationNestedMixin,
    mixins.ListModelMixin,
    mixins.UpdateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    scope_object = "organization_member"
    serializer_class = OrganizationMemberSerializer
    permission_classes = [OrganizationMemberObjectPermissions]
    queryset = (
        OrganizationMembership.objects.filter(user__is_active=True)
        .exclude(user__email__endswith=INTERNAL_BOT_EMAIL_SUFFIX)
        .select_related("user")
    )
    lookup_field = "user__uuid"
    lookup_value_regex = r"[^/]+"

    def get_object(self):
        queryset = self.get_queryset()
        value = self.kwargs[self.lookup_field]
        if value == "@me":
            membership = queryset.filter(user=self.request.user).first()
        else:
            try:
                membership = queryset.filter(user__uuid=UUID(value)).first()
            except ValueError:
                membership = None
        if membership is None:
            raise exceptions.NotFound()
        self.check_object_permissions(self.request, membership)
        return membership

    def safely_get_queryset(self, queryset):
        if self.action != "list":
            return queryset
        visible = visible_ids(self.request, self.organization)
        if visible is not None:
            queryset = queryset.filter(id__in=visible)
        params = self.request.query_params
        if "email" in params:
            queryset = queryset.filter(user__email=params["email"])
        if "updated_after" in params:
            after = parse_datetime(params["updated_after"])
            if after is None:
                raise serializers.ValidationError({"updated_after": "Enter a valid date/time."})
            queryset = queryset.filter(updated_at__gt=after)
        search = params.get("search", "")
        if len(search) > MAX_SEARCH_LENGTH:
            raise serializers.ValidationError(
                {"search": f"Search query must be {MAX_SEARCH_LENGTH} characters or fewer."}
            )
        term = " ".join(search.split())
        if term:
            return queryset.filter(
                Q(user__first_name__icontains=term) | Q(user__last_name__icontains=term) | Q(user__email__icontains=term)
            ).order_by("user__first_name", "id")
        order = params.get("order")
        return queryset.order_by(order if order in ALLOWED_ORDERINGS else DEFAULT_ORDERING, "id")

    def perform_destroy(self, membership):
        leave(membership.user, membership.organization)

    # No scope in PostHog (``organization_member.py``): refused to a personal API key.
    scoped_api_keys = refused_action("scoped_api_keys", "GET")


def register(router) -> None:
    router.register(organization_prefix("members"), OrganizationMemberViewSet, basename="organization_members")
