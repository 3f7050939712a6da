"""``/api/organizations`` and ``/api/organizations/<id|@current>`` (spec 4.1, docs/posthog_facts.md §1).

Mirrors ``posthog/api/organization.py`` as PostHog Cloud runs it:

* **List**: the organizations the user belongs to, narrowed to the key's
  ``scoped_organizations``; a user with no organization gets 404 "You need to belong to an
  organization.". A key with ``scoped_teams`` gets 403 (organization-based endpoint).
* **Retrieve**: looked up among the listable organizations, so a non-member, an unknown ID or an
  organization outside the key's scope gives 404 "Not found.". ``@current`` is the user's current
  organization (404 "Current organization not found." when there is none) and is then subject to
  the key's ``scoped_organizations`` (403).
* **Create**: 201; the requester becomes owner, a project "Default project" is created, and the
  user's current organization and project switch to the new ones. Cloud has no multi-organization
  premium check, so neither has the emulator.
* **Update** (PATCH/PUT): level >= 8 (admin), else 403 "Your organization access level is
  insufficient.". ``default_role_id`` takes a role of the organization or null (``rules.roles``).
* **Delete**: level 15 (owner), same 403 otherwise; 204. Memberships and projects go with it; users
  whose current organization it was move to another membership (or none).

* Newer settings (both profiles): ``members_can_create_projects`` (default false),
  ``members_can_see_org_members`` (default true), ``is_ai_training_opted_in`` (default true) and
  ``default_anonymize_ips`` (default false) are written by an admin; ``is_ai_training_locked``,
  ``is_ai_training_cta_shown``, ``is_hipaa``, ``is_active``, ``is_not_active_reason`` and
  ``is_pending_deletion`` are returned and never written (a PATCH of them is ignored, as DRF
  ignores read-only fields).
* ``enforce_verified_domains`` (logins, signups and invites only for addresses on the verified
  domains; PostHog #73492): turning it on needs a verified domain, and one that admits the
  requester's own address, else 400 on ``enforce_verified_domains`` (the messages of PostHog's
  settings page, "Verify at least one domain to enable this setting" / "Verify the domain of your
  own email address first, otherwise this would lock you out"). ``logo_media_id`` names uploaded
  media (``POST /_emulator/organizations/<org>/media``), else 400 ``does_not_exist``.

Scope object ``organization``.
"""

from functools import cached_property
from uuid import UUID

from django.db import transaction
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce
from rest_framework import serializers, viewsets
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated

from posthog_emulator import cache
from posthog_emulator.api.shared import (ModelSerializer, ProjectBasicSerializer, TeamBasicSerializer, refused_action,
                                         rule_errors)
from posthog_emulator.auth import personal_api_key_of
from posthog_emulator.models import (
    INTERNAL_BOT_EMAIL_SUFFIX,
    Organization,
    OrganizationMembership,
    Team,
    UploadedMedia,
    User,
)
from posthog_emulator.permissions import APIScopePermission, OrganizationAdminWritePermissions
from posthog_emulator.routing import EmulatorViewSetMixin
from posthog_emulator.rules.domains import check_enforce_verified_domains
from posthog_emulator.rules.roles import check_default_role

INSTANCE_TAG = "none"  # PostHog's settings.INSTANCE_TAG default

#: Settings of PostHog's newest ``OrganizationSerializer`` (its generated API schema of late 2026)
#: that an admin writes; ``members_can_see_org_members`` false hides members from non-admins
#: (``rules.visibility``), ``members_can_create_projects`` lets members create projects.
NEWER_SETTINGS = (
    "members_can_create_projects",
    "members_can_see_org_members",
    "is_ai_training_opted_in",
    "default_anonymize_ips",
)
#: Returned, never written through the API (staff, billing and the deletion flow set them).
NEWER_READ_ONLY = (
    "is_ai_training_locked",
    "is_ai_training_cta_shown",
    "is_hipaa",
    "is_active",
    "is_not_active_reason",
    "is_pending_deletion",
)


def member_count_queryset():
    """Memberships that count as members: active users, not PostHog's internal bots."""
    return OrganizationMembership.objects.filter(user__is_active=True).exclude(
        user__email__endswith=INTERNAL_BOT_EMAIL_SUFFIX
    )


class OrganizationPermissionsWithDelete(OrganizationAdminWritePermissions):
    """Admin (8) for updates, owner (15) for deletion; the message is inherited (docs/posthog_facts.md §1)."""

    def required_level(self, request, view) -> int:
        if request.method == "DELETE":
            return OrganizationMembership.Level.OWNER
        return OrganizationMembership.Level.ADMIN


class OrganizationSerializer(ModelSerializer):
    """Fields of spec 2.2 plus the newer ones PostHog's ``OrganizationSerializer`` returns.

    ``member_count`` is an integer (PostHog computes it in a ``SerializerMethodField``; the spec
    types it as a string only because of how its OpenAPI document was generated), and ``metadata``
    is an object ``{"instance_tag": ...}``.
    """

    membership_level = serializers.SerializerMethodField()
    teams = serializers.SerializerMethodField()
    projects = serializers.SerializerMethodField()
    metadata = serializers.SerializerMethodField()
    member_count = serializers.SerializerMethodField()
    # Writable although PostHog also lists it in read_only_fields (DRF ignores that for declared
    # fields); stored unchecked there, checked against the organization's roles here (rules.roles).
    default_role_id = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="ID of the role to automatically assign to new members joining the organization",
    )
    logo_media_id = serializers.UUIDField(required=False, allow_null=True)

    class Meta:
        model = Organization
        fields = [
            "id",
            "name",
            "slug",
            "logo_media_id",
            "created_at",
            "updated_at",
            "membership_level",
            "plugins_access_level",
            "teams",
            "projects",
            "available_product_features",
            "is_member_join_email_enabled",
            "metadata",
            "customer_id",
            "enforce_2fa",
            "members_can_invite",
            "members_can_use_personal_api_keys",
            "allow_publicly_shared_resources",
            "member_count",
            "is_ai_data_processing_approved",
            "default_experiment_stats_method",
            "default_role_id",
            "enforce_verified_domains",
            *NEWER_SETTINGS,
            *NEWER_READ_ONLY,
        ]
        read_only_fields = [
            "id",
            "slug",
            "created_at",
            "updated_at",
            "membership_level",
            "plugins_access_level",
            "teams",
            "projects",
            "available_product_features",
            "metadata",
            "customer_id",
            "member_count",
            *NEWER_READ_ONLY,
        ]

    def validate_logo_media_id(self, value):
        # PostHog validates this against uploaded media (``POST /_emulator/organizations/<org>/media``
        # records one here), with PrimaryKeyRelatedField's message and code.
        if value is not None and not UploadedMedia.objects.filter(id=value).exists():
            raise serializers.ValidationError(f'Invalid pk "{value}" - object does not exist.', code="does_not_exist")
        return value

    def validate_enforce_verified_domains(self, value):
        """Turning the restriction on needs a verified domain that admits the requester's own address."""
        organization = self.instance
        if value and not (organization is not None and organization.enforce_verified_domains):
            verified = list(organization.domains.filter(verified_at__isnull=False).values_list("domain", flat=True)) \
                if organization is not None else []
            with rule_errors():
                check_enforce_verified_domains(self.context["request"].user.email, verified)
        return value

    def create(self, validated_data):
        organization, _, _ = Organization.objects.bootstrap(self.context["request"].user, **validated_data)
        return organization

    def get_membership_level(self, organization: Organization) -> int | None:
        user = self.context["request"].user
        cached = getattr(user, "_emulator_memberships", None)
        if cached is not None and cached.memberships_current():
            return cached.memberships.get(organization.id)  # loaded with the key (cache.py)
        # One query per response, shared by every organization of a list page.
        levels = self.context.setdefault("_membership_levels", {})
        if organization.id not in levels:
            levels.update(
                OrganizationMembership.objects.filter(user=user).values_list("organization_id", "level")
            )
        return levels.get(organization.id)

    def _nested(self, serializer_class):
        # One nested serializer per response: building a serializer's fields is the costly part.
        cache = self.context.setdefault("_nested_serializers", {})
        if serializer_class not in cache:
            cache[serializer_class] = serializer_class(context=self.context)
        return cache[serializer_class]

    def _teams(self, organization: Organization) -> list:
        # ``teams`` and ``projects`` show the same rows: one query (or the list query's prefetch),
        # and none while no project was written since (posthog_emulator.cache.memo).
        teams = self.context.setdefault("_teams", {})
        if organization.id not in teams:
            prefetched = getattr(organization, "_prefetched_objects_cache", {}).get("teams")
            if prefetched is not None:
                teams[organization.id] = list(prefetched)
            else:
                rows = cache.memo(("teams", organization.id), (Team,),
                                  lambda: [cache.values_of(team) for team in organization.teams.all()])
                teams[organization.id] = cache.instances(Team, rows)
        return teams[organization.id]

    def get_teams(self, organization: Organization) -> list[dict]:
        serializer = self._nested(TeamBasicSerializer)
        return [serializer.to_representation(team) for team in self._teams(organization)]

    def get_projects(self, organization: Organization) -> list[dict]:
        serializer = self._nested(ProjectBasicSerializer)
        return [serializer.to_representation(team) for team in self._teams(organization)]

    def get_metadata(self, organization: Organization) -> dict:
        return {"instance_tag": INSTANCE_TAG}

    def get_member_count(self, organization: Organization) -> int:
        """Active, non-bot members (annotated on list queries, counted otherwise)."""
        annotated = getattr(organization, "annotated_member_count", None)
        if annotated is not None:
            return annotated
        return cache.memo(("member_count", organization.id), (OrganizationMembership, User),
                          lambda: member_count_queryset().filter(organization=organization).count())

    def validate_default_role_id(self, value):
        roles = self.instance.roles.values_list("id", flat=True) if self.instance is not None else []
        with rule_errors():
            return check_default_role(value, roles)


class OrganizationViewSet(EmulatorViewSetMixin, viewsets.ModelViewSet):
    scope_object = "organization"
    serializer_class = OrganizationSerializer
    permission_classes = [OrganizationPermissionsWithDelete]
    queryset = Organization.objects.none()
    lookup_field = "id"
    lookup_value_regex = r"[^/]+"

    def dangerously_get_permissions(self):
        # Same split as PostHog's OrganizationViewSet.dangerously_get_permissions; retrieve and
        # destroy use the defaults (membership, then OrganizationPermissionsWithDelete).
        if self.action in ("list", "create"):
            return [IsAuthenticated(), APIScopePermission()]
        if self.action in ("update", "partial_update"):
            return [IsAuthenticated(), APIScopePermission(), OrganizationAdminWritePermissions()]
        raise NotImplementedError()

    def get_queryset(self):
        member_count = (
            member_count_queryset()
            .filter(organization=OuterRef("pk"))
            .values("organization")
            .annotate(count=Count("id"))
            .values("count")
        )
        queryset = (
            self.request.user.organizations.order_by("created_at", "id")
            .prefetch_related("teams")
            .annotate(annotated_member_count=Coalesce(Subquery(member_count), 0))
        )
        key = personal_api_key_of(self.request)
        if key is not None and key.scoped_organizations:
            queryset = queryset.filter(id__in=key.scoped_organizations)
        return queryset

    @cached_property
    def organization(self) -> Organization:
        """The organization of a detail route (the lookup PostHog's permission checks use)."""
        if not self.detail:
            raise AttributeError("Not valid for non-detail routes.")
        value = self.kwargs[self.lookup_field]
        if value == "@current":
            organization = self.request.user.organization
            if organization is None:
                raise NotFound("Current organization not found.")
            return organization
        try:
            organization_id = UUID(value)
        except ValueError:
            # PostHog lets Django's UUID validation error escape here (a 500); 404 is kinder.
            raise NotFound()
        organization = self.get_queryset().filter(id=organization_id).first()
        if organization is None:
            raise NotFound()
        return organization

    def get_object(self):
        organization = self.organization
        self.check_object_permissions(self.request, organization)
        return organization

    def list(self, request, *args, **kwargs):
        if request.user.organization is None:
            raise NotFound("You need to belong to an organization.")
        return super().list(request, *args, **kwargs)

    def perform_destroy(self, organization: Organization) -> None:
        with transaction.atomic():
            affected = list(User.objects.filter(current_organization=organization))
            organization.delete()  # memberships and projects cascade
            for user in affected:
                user.refresh_from_db()
                user.switch_to(user.organizations.order_by("created_at", "id").first())

    # PostHog's ``environments_rollback`` (``posthog/api/organization.py``) declares no scope.
    environments_rollback = refused_action("environments_rollback", "POST")


def register(router) -> None:
    router.register(r"organizations", OrganizationViewSet, basename="organizations")
