"""``GET /api/users/@me`` — who the API key acts as (read only; scope ``user:read``).

PostHog's ``posthog/api/user.py`` (``UserViewSet``, ``scope_object = "user"``) serves the
requesting user at ``/api/users/@me/`` with many more fields (settings, notification preferences,
and so on). The emulator returns the identity and membership part only: the nested user fields of
spec 2.5 plus ``date_joined``, the current ``organization`` and ``team``, and every
``organizations`` entry with the user's ``membership_level`` there, and the read-only account flags
PostHog's schema requires (``has_password``, ``has_social_auth``, ``has_sso_enforcement``,
``is_2fa_enabled``, ``is_impersonated``, ``is_impersonated_until``, ``pending_email``,
``scene_personalisation``, ``sensitive_session_expires_at``; the emulator has no passwords, social
logins, 2FA or impersonation). ``organization`` is the full organization record. Other users (``/api/users/<uuid>``)
are 404, as for a non-staff user on PostHog. Updates are not emulated (405).

The collection's ``roster`` module uses it to recognise the key's own membership (never removed).
"""

from rest_framework import mixins, serializers, viewsets
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated

from posthog_emulator.api.organizations import OrganizationSerializer
from posthog_emulator.api.shared import ModelSerializer, TeamBasicSerializer, UserBasicSerializer
from posthog_emulator.models import OrganizationMembership, User
from posthog_emulator.permissions import APIScopePermission
from posthog_emulator.routing import EmulatorViewSetMixin


class UserSerializer(ModelSerializer):
    date_joined = serializers.DateTimeField(source="created_at", read_only=True)
    organization = serializers.SerializerMethodField()
    organizations = serializers.SerializerMethodField()
    team = serializers.SerializerMethodField()
    has_password = serializers.SerializerMethodField()
    has_social_auth = serializers.SerializerMethodField()
    has_sso_enforcement = serializers.SerializerMethodField()
    is_2fa_enabled = serializers.SerializerMethodField()
    is_impersonated = serializers.SerializerMethodField()
    is_impersonated_until = serializers.SerializerMethodField()
    pending_email = serializers.SerializerMethodField()
    scene_personalisation = serializers.SerializerMethodField()
    sensitive_session_expires_at = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = [
            *UserBasicSerializer.Meta.fields, "date_joined", "organization", "organizations", "team", "has_password",
            "has_social_auth", "has_sso_enforcement", "is_2fa_enabled", "is_impersonated", "is_impersonated_until",
            "pending_email", "scene_personalisation", "sensitive_session_expires_at",
        ]  # fmt: skip
        read_only_fields = fields

    def get_has_password(self, user) -> bool:
        return False

    def get_has_social_auth(self, user) -> bool:
        return False

    def get_has_sso_enforcement(self, user) -> bool:
        return False

    def get_is_2fa_enabled(self, user) -> bool:
        return False

    def get_is_impersonated(self, user) -> bool:
        return False

    def get_is_impersonated_until(self, user) -> str | None:
        return None

    def get_pending_email(self, user) -> str | None:
        return None

    def get_scene_personalisation(self, user) -> list:
        return []

    def get_sensitive_session_expires_at(self, user) -> str | None:
        return None

    def _levels(self, user):
        return dict(OrganizationMembership.objects.filter(user=user).values_list("organization_id", "level"))

    @staticmethod
    def _organization(organization, levels):
        return {
            "id": str(organization.id),
            "name": organization.name,
            "slug": organization.slug,
            "logo_media_id": str(organization.logo_media_id) if organization.logo_media_id else None,
            "membership_level": levels.get(organization.id),
        }

    def get_organization(self, user) -> dict | None:
        organization = user.organization
        return OrganizationSerializer(organization, context=self.context).data if organization else None

    def get_organizations(self, user):
        levels = self._levels(user)
        return [self._organization(o, levels) for o in user.organizations.order_by("created_at", "id")]

    def get_team(self, user):
        team = user.team
        return TeamBasicSerializer(team, context=self.context).data if team else None


class UserViewSet(EmulatorViewSetMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    scope_object = "user"
    serializer_class = UserSerializer
    queryset = User.objects.none()
    lookup_field = "uuid"
    lookup_value_regex = r"[^/]+"

    def dangerously_get_permissions(self):
        return [IsAuthenticated(), APIScopePermission()]

    def get_object(self):
        if self.kwargs[self.lookup_field] != "@me":
            raise NotFound()
        return self.request.user


def register(router) -> None:
    router.register(r"users", UserViewSet, basename="users")
