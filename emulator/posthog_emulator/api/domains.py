"""``/api/organizations/<organization_id>/domains`` (spec 2.4, 3.3, 4.3; docs/posthog_facts.md §2).

Mirrors ``posthog/api/organization_domain.py`` in its middle generation (SAML columns on the
domain; docs/posthog_facts.md §2 "Fields"), as self-hosted PostHog with every paid feature available runs it:

* **Permissions**: members read; admin (>= 8) creates, updates, deletes and verifies, else 403
  "Your organization access level is insufficient.". Scope object ``organization``. ``verify`` has
  no scope mapping: profile ``posthog`` refuses personal API keys with 403 "This action does not
  support Personal API Key access" (docs/posthog_facts.md §0.6); profile ``spec`` asks for ``organization:write``.
* **List**: ordered by ``domain``, paginated. Another organization's domain under your own
  organization's URL is 404; another organization in the URL is 403.
* **domain**: required on create, <= 128 characters, must match ``rules.domains.DOMAIN_PATTERN`` (lower case
  only) else 400 ``invalid_input`` "Please enter a valid domain or subdomain name."; globally unique,
  else 400 ``unique`` "domain with this domain already exists."; read-only after creation (a value
  sent on update is silently ignored).
* **Create** stores ``domain`` and the SAML fields; ``jit_provisioning_enabled``,
  ``sso_enforcement`` and ``scim_enabled`` are ignored. The challenge is
  ``secrets.token_urlsafe(32)`` (43 characters). PostHog Cloud gates creation behind the
  ``automatic_provisioning`` feature; self-hosted has no gate, and neither has the emulator.
* **Update**: on an unverified domain, a body holding ``jit_provisioning_enabled``,
  ``sso_enforcement`` or ``scim_enabled`` (whatever the value, even ``false``/``""``) answers 400
  ``verification_required`` "This attribute cannot be updated until the domain is verified." with
  ``attr`` the field. PostHog also refuses ``jit_provisioning_enabled: true`` (and SCIM) without the
  paid ``automatic_provisioning`` (``scim``) feature; the emulator has every feature available, so
  it never answers ``feature_not_available``.
* **SCIM** (2024+ fields): enabling answers the plain bearer token once (``scim_bearer_token``; null
  in every other response) and ``scim_base_url`` ``<host>/scim/v2/<domain id>``; disabling drops
  the token.
* **Verify** (``POST .../verify``, body ignored): 400 ``already_verified`` "This domain has
  already been verified." (``attr`` null) when verified; otherwise the TXT records of
  ``_posthog-challenge.<domain>`` (published with ``POST /_emulator/dns``) are compared with the
  challenge: a match sets ``verified_at``; no match sets the hidden ``last_verification_retry``.
  Either way 200 with the domain.
* **Delete**: 204.

**Newest generation** (``PUT /_emulator/generations {"domains": "newest"}``, the ``posthog``
profile's default; docs/posthog_facts.md §2, the newest generation): the serializer of
``posthog/api/organization_domain.py`` with ``identity_provider_config``. The SAML columns and ``scim_enabled`` leave the domain for
identity provider configurations (``api/identity_provider_configs.py``): ``identity_provider_config``
is the id of the configuration the domain is linked to (the oldest, when several are), null when
none; writing it links the domain to that configuration of the same organization only (400
``does_not_exist`` 'Invalid pk "<value>" - object does not exist.' otherwise), null unlinks it.
``has_saml``, ``has_scim`` and ``has_id_jag`` come from the linked configurations (SAML stored on
the domain earlier still counts), ``scim_base_url`` from its SCIM configuration. SAML and SCIM keys
in a body are unknown fields, silently ignored, as DRF ignores them in PostHog. (PostHog's very
newest serializer drops ``has_*`` and ``identity_provider_config`` too and links domains only from
the configuration's ``organization_domain_ids``; both ways work here.)

* With the organization's ``enforce_verified_domains`` on, deleting the verified domain that admits
  the acting user's own e-mail address is refused: 400 ``would_block_self`` "You can't delete this
  domain while membership is restricted to verified email domains, because your own email address
  would no longer be allowed. Turn off that setting first." (both generations).

The TXT records are published, listed and withdrawn through ``/_emulator/dns``.
"""

import uuid

from django.utils import timezone
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from posthog_emulator import generations
from posthog_emulator.api.shared import ModelSerializer, rule_errors
from posthog_emulator.models import DNSRecord, IdentityProviderConfig, OrganizationDomain
from posthog_emulator.permissions import OrganizationAdminWritePermissions
from posthog_emulator.routing import OrganizationNestedMixin, organization_prefix
from posthog_emulator.rules.domains import (
    IGNORED_ON_CREATE,
    MOVED_TO_IDENTITY_PROVIDER_CONFIG,
    challenge_published,
    check_domain,
    check_delete_keeps_requester,
    check_not_verified,
    check_update,
    new_scim_token,
)


class OrganizationDomainSerializer(ModelSerializer):
    """Every field of spec 2.4, plus ``has_scim``, ``scim_enabled``, ``scim_base_url`` and
    ``scim_bearer_token`` (docs/posthog_facts.md §2, the 2024+ fields)."""

    is_verified = serializers.BooleanField(read_only=True)
    has_saml = serializers.BooleanField(read_only=True)
    has_scim = serializers.SerializerMethodField()
    scim_base_url = serializers.SerializerMethodField()
    scim_bearer_token = serializers.SerializerMethodField()

    class Meta:
        model = OrganizationDomain
        fields = [
            "id",
            "domain",
            "is_verified",
            "verified_at",
            "verification_challenge",
            "jit_provisioning_enabled",
            "sso_enforcement",
            "has_saml",
            "saml_entity_id",
            "saml_acs_url",
            "saml_x509_cert",
            "has_scim",
            "scim_enabled",
            "scim_base_url",
            "scim_bearer_token",
        ]
        read_only_fields = ["id", "is_verified", "verified_at", "verification_challenge", "has_saml"]

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None and not isinstance(self.instance, (list, tuple)):
            fields["domain"].read_only = True  # read-only after creation: silently ignored
        if generations.of("domains") == generations.NEWEST:
            for name in MOVED_TO_IDENTITY_PROVIDER_CONFIG:
                del fields[name]
            fields["has_saml"] = serializers.SerializerMethodField()
            fields["has_scim"] = serializers.SerializerMethodField()
            fields["has_id_jag"] = serializers.SerializerMethodField()
            fields["identity_provider_config"] = serializers.CharField(required=False, allow_null=True,
                                                                       write_only=True)
        return fields

    @staticmethod
    def linked_configs(domain: OrganizationDomain) -> list:
        return list(domain.identity_provider_configs.all().order_by("created_at", "id"))

    def get_has_saml(self, domain: OrganizationDomain) -> bool:
        return domain.has_saml or any(config.has_saml for config in self.linked_configs(domain))

    def get_has_id_jag(self, domain: OrganizationDomain) -> bool:
        return any(config.has_id_jag for config in self.linked_configs(domain))

    def to_representation(self, domain):
        data = super().to_representation(domain)
        if generations.of("domains") == generations.NEWEST:
            linked = self.linked_configs(domain)
            data["identity_provider_config"] = str(linked[0].id) if linked else None
        return data

    def validate_domain(self, domain: str) -> str:
        with rule_errors():
            return check_domain(domain)

    def validate_identity_provider_config(self, value):
        if value is None:
            return None
        try:
            config_id = uuid.UUID(str(value))
        except ValueError:
            config_id = None
        organization = self.context["get_organization"]()
        config = IdentityProviderConfig.objects.filter(id=config_id, organization=organization).first()
        if config is None:
            raise serializers.ValidationError(f'Invalid pk "{value}" - object does not exist.', code="does_not_exist")
        return config

    def validate(self, attrs):
        with rule_errors():
            if self.instance is not None:
                check_update(self.instance.is_verified, attrs)
        return attrs

    def save(self, **kwargs):
        linking = "identity_provider_config" in self.validated_data
        config = self.validated_data.pop("identity_provider_config", None)
        domain = super().save(**kwargs)
        if linking:
            domain.identity_provider_configs.set([config] if config is not None else [])
        return domain

    def create(self, validated_data):
        for field in IGNORED_ON_CREATE:
            validated_data.pop(field, None)
        validated_data["organization"] = self.context["get_organization"]()
        return super().create(validated_data)

    def update(self, instance, validated_data):
        validated_data.pop("domain", None)
        enabling = validated_data.get("scim_enabled") is True and not instance.scim_enabled
        if validated_data.get("scim_enabled") is False:
            validated_data["scim_bearer_token"] = None
        if enabling:
            token, validated_data["scim_bearer_token"] = new_scim_token()
            self.context["scim_plain_token"] = token
        return super().update(instance, validated_data)

    def get_has_scim(self, domain: OrganizationDomain) -> bool:
        if generations.of("domains") == generations.NEWEST:
            return any(config.has_scim for config in self.linked_configs(domain))
        return bool(domain.scim_enabled and domain.scim_bearer_token)

    def get_scim_base_url(self, domain: OrganizationDomain):
        if generations.of("domains") == generations.NEWEST:
            scim = [config for config in self.linked_configs(domain) if config.has_scim]
            if len(scim) != 1:
                return None
            return self.context["request"].build_absolute_uri(f"/scim/v2/{scim[0].scim_slug or scim[0].id}")
        if not domain.scim_enabled:
            return None
        return self.context["request"].build_absolute_uri(f"/scim/v2/{domain.id}")

    def get_scim_bearer_token(self, domain: OrganizationDomain):
        return self.context.get("scim_plain_token")


class OrganizationDomainViewSet(OrganizationNestedMixin, viewsets.ModelViewSet):
    scope_object = "organization"
    serializer_class = OrganizationDomainSerializer
    permission_classes = [OrganizationAdminWritePermissions]
    queryset = OrganizationDomain.objects.all()
    lookup_field = "id"
    lookup_value_regex = r"[^/]+"

    def safely_get_queryset(self, queryset):
        return queryset.order_by("domain")

    def perform_destroy(self, domain: OrganizationDomain) -> None:
        organization = self.organization
        if domain.is_verified and organization.enforce_verified_domains:
            others = organization.domains.filter(verified_at__isnull=False).exclude(pk=domain.pk)
            with rule_errors():
                check_delete_keeps_requester(self.request.user.email, [d.domain for d in others])
        domain.delete()

    @action(methods=["POST"], detail=True)
    def verify(self, request, *args, **kwargs):
        """Look for the challenge at ``_posthog-challenge.<domain>`` (docs/posthog_facts.md §2, "Verify")."""
        domain = self.get_object()
        with rule_errors():
            check_not_verified(domain.is_verified)
        if challenge_published(domain.verification_challenge, DNSRecord.txt_values(domain.challenge_record_name)):
            domain.verified_at = timezone.now()
            domain.last_verification_retry = None
        else:
            domain.last_verification_retry = timezone.now()
        domain.save(update_fields=["verified_at", "last_verification_retry"])
        return Response(self.get_serializer(domain).data)


def register(router) -> None:
    router.register(organization_prefix("domains"), OrganizationDomainViewSet, basename="organization_domains")
