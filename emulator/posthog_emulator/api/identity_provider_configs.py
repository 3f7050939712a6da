"""``/api/organizations/<organization_id>/identity_provider_configs`` (docs/posthog_facts.md §10.2).

Mirrors ``posthog/api/identity_provider_config.py`` (the newest code; generation
``identity_providers: newest``, the ``posthog`` profile's default; in generation ``absent`` the
route answers 404 "Endpoint not found." as older PostHog does):

* Scope object ``organization``; members read, admins (>= 8) write (403 "Your organization access
  level is insufficient."). Plan-gated as PostHog gates it (issue 27.3): OIDC settings without the
  ``oidc`` feature, any ``scim_enabled`` without ``scim``, an ID-JAG issuer without
  ``xaa_authentication`` are 400 ``feature_not_available`` (attr ``oidc_issuer_url``,
  ``scim_enabled``, ``id_jag_issuer_url``); a test grants them with
  ``PUT /_emulator/organizations/<org>/features``.
* Fields: ``id``, ``name`` (<= 255), ``domain_scope`` (``all``/``selected``/null),
  ``config_scope`` (``saml``/``scim``/``xaa``/``oidc``/null), ``organization_domain_ids`` (domains
  of this organization, else 400 ``does_not_exist`` 'Invalid pk "<id>" - object does not exist.'),
  ``created_at``, ``updated_at``, ``has_saml``, ``has_oidc``, ``has_oidc_client_secret``,
  ``oidc_issuer_url``, ``oidc_client_id``, write-only ``oidc_client_secret`` (omit to keep, ``""``
  to remove; never returned), ``saml_relay_state`` (a UUID assigned once), ``saml_entity_id``,
  ``saml_acs_url`` (<= 512), ``saml_x509_cert``, ``has_scim``, ``scim_enabled``, ``scim_base_url``,
  ``scim_bearer_token`` (the plain token only in the answer that enabled SCIM, else null),
  ``has_id_jag``, ``id_jag_issuer_url``, ``id_jag_jwks_url``, ``id_jag_allowed_clients``.
* Rules: OIDC settings need ``config_scope`` ``oidc`` (400 on ``config_scope``); the issuer is an
  HTTPS URL without credentials, query or fragment; it and the ID-JAG URLs must pass PostHog's
  ``is_url_allowed`` (no loopback, metadata, internal-suffix or private-address host: 400 "URL is
  not allowed: <reason>"; the emulator checks names and IP literals, it resolves nothing); a fully
  configured SAML (or OIDC) configuration may not share a verified domain with another one (400 on ``domain_scope``
  "This SAML configuration overlaps with another SAML configuration on one or more verified
  domains. Choose different domains before saving."). ``scim_enabled`` true generates a token
  (returned once), false clears it.
* ``POST …/<id>/scim/token`` regenerates the token: ``{"scim_enabled": true, "scim_bearer_token":
  "…"}``, or 403 "SCIM is not available for this organization" without the ``scim`` feature, or 400
  ``{"detail": "SCIM is not enabled for this config"}``. ``GET …/<id>/scim/logs`` (admins only, else
  403 "Only organization admins can view SCIM logs.") answers a page of SCIM requests
  (``{count, next, previous, results}``), always empty here. Neither action has a scope mapping,
  so profile ``posthog`` refuses personal API keys (403), as PostHog does.
* Delete (204) is refused for a configuration without ``config_scope``: 400 ``unscoped_config``.
"""

import secrets
import uuid

from django.db import transaction
from rest_framework import serializers, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response

from posthog_emulator import generations
from posthog_emulator.api.shared import GenerationGateMixin, rule_errors
from posthog_emulator.models import IdentityProviderConfig, OrganizationDomain, hash_key_value
from posthog_emulator.permissions import OrganizationAdminWritePermissions, membership_level
from posthog_emulator.routing import OrganizationNestedMixin, organization_prefix
from posthog_emulator.rules.identity_providers import (
    CONFIG_SCOPES,
    DOMAIN_SCOPES,
    MESSAGE_SCIM_NOT_ENABLED,
    check_deletable,
    check_features,
    check_oidc_issuer_url,
    check_oidc_scope,
    check_overlap,
    fully_configured,
    check_scim_logs_reader,
    check_scim_token_available,
    normalize_optional_url,
)


def scim_base_url(request, config: IdentityProviderConfig) -> str:
    return request.build_absolute_uri(f"/scim/v2/{config.scim_slug or config.id}")


def enable_scim(config: IdentityProviderConfig) -> str:
    """Turn SCIM on with a new token; the plain token (shown once)."""
    token = secrets.token_urlsafe(32)
    config.scim_enabled = True
    config.scim_bearer_token = hash_key_value(token)
    config.scim_slug = config.scim_slug or str(uuid.uuid4())
    return token


class OrganizationDomainIdsField(serializers.PrimaryKeyRelatedField):
    """Domains of the organization in the URL only (PostHog's ``OrgScopedPrimaryKeyRelatedField``)."""

    def get_queryset(self):
        return OrganizationDomain.objects.filter(organization=self.context["get_organization"]())

    def to_internal_value(self, data):
        try:
            uuid.UUID(str(data))
        except ValueError:
            self.fail("does_not_exist", pk_value=data)
        return super().to_internal_value(data)


class IdentityProviderConfigSerializer(serializers.ModelSerializer):
    domain_scope = serializers.ChoiceField(choices=DOMAIN_SCOPES, required=False, allow_null=True)
    config_scope = serializers.ChoiceField(choices=CONFIG_SCOPES, required=False, allow_null=True)
    organization_domain_ids = OrganizationDomainIdsField(source="organization_domains", many=True, required=False)
    saml_relay_state = serializers.CharField(read_only=True)
    saml_entity_id = serializers.CharField(max_length=512, required=False, allow_null=True, allow_blank=True)
    saml_acs_url = serializers.CharField(max_length=512, required=False, allow_null=True, allow_blank=True)
    saml_x509_cert = serializers.CharField(required=False, allow_null=True, allow_blank=True)
    oidc_issuer_url = serializers.CharField(max_length=512, required=False, allow_null=True, allow_blank=True)
    oidc_client_id = serializers.CharField(max_length=512, required=False, allow_null=True, allow_blank=True)
    oidc_client_secret = serializers.CharField(required=False, write_only=True, allow_blank=True, max_length=4096,
                                               trim_whitespace=False)
    has_saml = serializers.BooleanField(read_only=True)
    has_oidc = serializers.BooleanField(read_only=True)
    has_oidc_client_secret = serializers.BooleanField(read_only=True)
    has_scim = serializers.BooleanField(read_only=True)
    has_id_jag = serializers.BooleanField(read_only=True)
    scim_enabled = serializers.BooleanField(required=False)
    scim_base_url = serializers.SerializerMethodField()
    scim_bearer_token = serializers.SerializerMethodField()
    id_jag_issuer_url = serializers.CharField(max_length=512, required=False, allow_null=True, allow_blank=True)
    id_jag_jwks_url = serializers.CharField(max_length=512, required=False, allow_null=True, allow_blank=True)
    id_jag_allowed_clients = serializers.ListField(child=serializers.CharField(max_length=256), required=False,
                                                   allow_empty=True)

    class Meta:
        model = IdentityProviderConfig
        fields = [
            "id", "name", "domain_scope", "config_scope", "organization_domain_ids", "created_at", "updated_at",
            "has_saml", "has_oidc", "has_oidc_client_secret", "oidc_issuer_url", "oidc_client_id",
            "oidc_client_secret", "saml_relay_state", "saml_entity_id", "saml_acs_url", "saml_x509_cert", "has_scim",
            "scim_enabled", "scim_base_url", "scim_bearer_token", "has_id_jag", "id_jag_issuer_url",
            "id_jag_jwks_url", "id_jag_allowed_clients",
        ]  # fmt: skip
        read_only_fields = ["id", "created_at", "updated_at"]

    # ---------------------------------------------------------------- output
    def get_scim_base_url(self, config: IdentityProviderConfig) -> str:
        return scim_base_url(self.context["request"], config)

    def get_scim_bearer_token(self, config: IdentityProviderConfig) -> str | None:
        return self.context.get("scim_plain_token")

    # ------------------------------------------------------------ validation
    def validate_oidc_issuer_url(self, value):
        if value is None:
            return None
        with rule_errors():
            return check_oidc_issuer_url(value)

    def validate_id_jag_issuer_url(self, value):
        with rule_errors():
            return normalize_optional_url(value)

    def validate_id_jag_jwks_url(self, value):
        with rule_errors():
            return normalize_optional_url(value)

    def validate(self, attrs):
        instance = self.instance
        organization = self.context["get_organization"]()
        with rule_errors():
            check_features(attrs, organization.is_feature_available)
            check_oidc_scope(attrs, getattr(instance, "config_scope", None))
        is_oidc = attrs.get("config_scope", getattr(instance, "config_scope", None)) == "oidc"
        merged = {}
        for field in ("saml_entity_id", "saml_acs_url", "saml_x509_cert", "oidc_issuer_url", "oidc_client_id"):
            merged[field] = attrs.get(field, getattr(instance, field, None))
        merged["oidc_client_secret"] = attrs.get(
            "oidc_client_secret", (getattr(instance, "oidc_credentials", None) or {}).get("client_secret"))
        if not fully_configured(merged, is_oidc):
            return attrs
        domains = attrs.get("organization_domains")
        if domains is None:
            domains = list(instance.organization_domains.all()) if instance else []
        proposed = {d.id for d in domains if d.verified_at is not None}
        scope = attrs.get("domain_scope", getattr(instance, "domain_scope", None))
        others = IdentityProviderConfig.objects.filter(organization=organization).prefetch_related(
            "organization_domains")
        if instance is not None:
            others = others.exclude(pk=instance.pk)
        same_protocol = []
        for other in others:
            other_is_oidc = other.config_scope == "oidc"
            if other_is_oidc != is_oidc or (not is_oidc and other.config_scope not in (None, "saml")):
                continue
            if not (other.has_oidc if is_oidc else other.has_saml):
                continue
            linked = {d.id for d in other.organization_domains.all() if d.verified_at is not None}
            same_protocol.append((other.domain_scope, linked))
        with rule_errors():
            check_overlap("OIDC" if is_oidc else "SAML", scope, proposed, same_protocol,
                          organization.domains.filter(verified_at__isnull=False).exists())
        return attrs

    # --------------------------------------------------------------- writing
    def _secret(self, validated_data):
        if "oidc_client_secret" in validated_data:
            validated_data["oidc_credentials"] = {"client_secret": validated_data.pop("oidc_client_secret")}

    def create(self, validated_data):
        self._secret(validated_data)
        scim_enabled = validated_data.pop("scim_enabled", None)
        domains = validated_data.pop("organization_domains", [])
        with transaction.atomic():
            config = IdentityProviderConfig(organization=self.context["get_organization"](), **validated_data)
            if scim_enabled:
                self.context["scim_plain_token"] = enable_scim(config)
            config.save()
            config.organization_domains.set(domains)
        return config

    def update(self, config, validated_data):
        self._secret(validated_data)
        scim_enabled = validated_data.pop("scim_enabled", None)
        domains = validated_data.pop("organization_domains", None)
        with transaction.atomic():
            if scim_enabled is True and not config.scim_enabled:
                self.context["scim_plain_token"] = enable_scim(config)
            elif scim_enabled is False and config.scim_enabled:
                config.scim_enabled = False
                config.scim_bearer_token = None
            for field, value in validated_data.items():
                setattr(config, field, value)
            config.save()
            if domains is not None:
                config.organization_domains.set(domains)
        return config


class IdentityProviderConfigViewSet(GenerationGateMixin, OrganizationNestedMixin, viewsets.ModelViewSet):
    scope_object = "organization"
    serializer_class = IdentityProviderConfigSerializer
    permission_classes = [OrganizationAdminWritePermissions]
    queryset = IdentityProviderConfig.objects.prefetch_related("organization_domains").order_by("created_at")
    lookup_value_regex = r"[^/]+"

    def route_absent(self) -> bool:
        return generations.of("identity_providers") == generations.ABSENT

    def get_object(self):
        try:
            uuid.UUID(str(self.kwargs[self.lookup_field]))
        except ValueError:
            raise NotFound()
        return super().get_object()

    def perform_destroy(self, config):
        with rule_errors():
            check_deletable(config.config_scope)
        config.delete()

    @action(methods=["POST"], detail=True, url_path="scim/token")
    def scim_token(self, request, *args, **kwargs):
        """Regenerate the SCIM bearer token (no scope mapping: PAKs need a legacy key in ``posthog``)."""
        config = self.get_object()
        with rule_errors():
            check_scim_token_available(config.organization.is_feature_available)
        if not config.scim_enabled:
            return Response({"detail": MESSAGE_SCIM_NOT_ENABLED}, status=400)
        token = enable_scim(config)
        config.save(update_fields=["scim_enabled", "scim_bearer_token", "scim_slug", "updated_at"])
        return Response({"scim_enabled": True, "scim_bearer_token": token})


    @action(methods=["GET"], detail=True, url_path="scim/logs")
    def scim_logs(self, request, *args, **kwargs):
        """The configuration's SCIM request log, admins only. The emulator serves no SCIM endpoint,
        so the log is always empty: PostHog's page of 20 (``?page=``, ``?page_size=`` up to 100)."""
        config = self.get_object()
        with rule_errors():
            check_scim_logs_reader(membership_level(request.user, config.organization))
        paginator = ScimLogPagination()
        page = paginator.paginate_queryset([], request, view=self)
        return paginator.get_paginated_response(page)


class ScimLogPagination(PageNumberPagination):
    """``SCIMRequestLogPagination`` (``posthog/api/scim_request_log.py``)."""

    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100


def register(router) -> None:
    router.register(organization_prefix("identity_provider_configs"), IdentityProviderConfigViewSet,
                    basename="organization_identity_provider_configs")
