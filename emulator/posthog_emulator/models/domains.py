"""Models of the domains area: verified domains (with SSO/SAML/SCIM settings), identity provider
configurations and the emulated DNS.

``OrganizationDomain`` follows ``posthog/models/organization_domain.py`` in its middle generation
(docs/posthog_facts.md §2): the SAML columns live on the domain itself. ``IdentityProviderConfig`` follows
``posthog/models/identity_provider_config.py`` (the newest generation's home of SAML, OIDC, SCIM
and ID-JAG), linked to domains as PostHog's ``LinkedIdentityProviderConfig`` does.
``DNSRecord`` is emulator bookkeeping, not a PostHog model: the records published through
``/_emulator/dns``, TXT records that domain ``verify`` reads and CNAME records that proxy records
wait for, instead of real DNS. All are plain tables, so
``POST /_emulator/reset`` (a database flush) clears them.
"""

from __future__ import annotations

import secrets
import uuid

from django.db import models

from posthog_emulator.models.core import Organization, uuidt

__all__ = ["OrganizationDomain", "IdentityProviderConfig", "DNSRecord"]

#: Where PostHog's verification looks for the challenge (docs/posthog_facts.md §2, "Verify").
CHALLENGE_RECORD_PREFIX = "_posthog-challenge."


def new_relay_state() -> str:
    """The SAML RelayState of a new identity provider configuration: a UUID, assigned once."""
    return str(uuid.uuid4())


def generate_verification_challenge() -> str:
    """43 URL-safe characters: ``secrets.token_urlsafe(32)``, as PostHog (docs/posthog_facts.md §2)."""
    return secrets.token_urlsafe(32)


class OrganizationDomain(models.Model):
    """A domain an organization claims, with its SSO settings (docs/posthog_facts.md §2, middle generation).

    ``verbose_name`` is "domain" so the uniqueness message reads as PostHog's test expects:
    "domain with this domain already exists.".
    """

    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="domains")
    domain = models.CharField(max_length=128, unique=True)
    verification_challenge = models.CharField(max_length=128, default=generate_verification_challenge)
    verified_at = models.DateTimeField(null=True, blank=True, default=None)
    last_verification_retry = models.DateTimeField(null=True, blank=True, default=None)
    jit_provisioning_enabled = models.BooleanField(default=False)
    sso_enforcement = models.CharField(max_length=28, blank=True, default="")
    saml_entity_id = models.CharField(max_length=512, null=True, blank=True)
    saml_acs_url = models.CharField(max_length=512, null=True, blank=True)
    saml_x509_cert = models.TextField(null=True, blank=True)
    scim_enabled = models.BooleanField(default=False)
    scim_bearer_token = models.CharField(max_length=200, null=True, blank=True)  # sha256$<hex>, never shown

    class Meta:
        app_label = "posthog_emulator"
        verbose_name = "domain"
        ordering = ["domain"]

    def __str__(self) -> str:
        return self.domain

    @property
    def is_verified(self) -> bool:
        return self.verified_at is not None

    @property
    def has_saml(self) -> bool:
        return bool(self.saml_entity_id and self.saml_acs_url and self.saml_x509_cert)

    @property
    def challenge_record_name(self) -> str:
        return CHALLENGE_RECORD_PREFIX + self.domain


class IdentityProviderConfig(models.Model):
    """SAML, OIDC, SCIM or ID-JAG settings of an organization, applied to some of its domains
    (``posthog/models/identity_provider_config.py``). ``scim_bearer_token`` holds a hash; the plain
    token is shown once. ``oidc_credentials`` holds the OIDC client secret, never shown."""

    id = models.UUIDField(primary_key=True, default=uuidt, editable=False)
    organization = models.ForeignKey(Organization, on_delete=models.CASCADE, related_name="identity_provider_configs")
    name = models.CharField(max_length=255, blank=True, default="")
    domain_scope = models.CharField(max_length=8, null=True, blank=True)
    config_scope = models.CharField(max_length=4, null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    saml_entity_id = models.CharField(max_length=512, null=True, blank=True)
    saml_acs_url = models.CharField(max_length=512, null=True, blank=True)
    saml_x509_cert = models.TextField(null=True, blank=True)
    saml_relay_state = models.CharField(max_length=36, null=True, blank=True, default=new_relay_state)
    oidc_issuer_url = models.CharField(max_length=512, null=True, blank=True)
    oidc_client_id = models.CharField(max_length=512, null=True, blank=True)
    oidc_credentials = models.JSONField(default=dict, blank=True)
    scim_slug = models.CharField(max_length=36, null=True, blank=True)
    scim_enabled = models.BooleanField(default=False)
    scim_bearer_token = models.CharField(max_length=200, null=True, blank=True)  # sha256$<hex>, never shown
    id_jag_issuer_url = models.CharField(max_length=512, null=True, blank=True)
    id_jag_jwks_url = models.CharField(max_length=512, null=True, blank=True)
    id_jag_allowed_clients = models.JSONField(default=list, blank=True, null=True)
    organization_domains = models.ManyToManyField(OrganizationDomain, related_name="identity_provider_configs",
                                                  blank=True)

    class Meta:
        app_label = "posthog_emulator"
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return self.name or str(self.id)

    @property
    def has_saml(self) -> bool:
        return bool(self.saml_entity_id and self.saml_acs_url and self.saml_x509_cert)

    @property
    def has_oidc_client_secret(self) -> bool:
        return bool((self.oidc_credentials or {}).get("client_secret"))

    @property
    def has_oidc(self) -> bool:
        return bool(self.oidc_issuer_url and self.oidc_client_id and self.has_oidc_client_secret)

    @property
    def has_scim(self) -> bool:
        return bool(self.scim_enabled and self.scim_bearer_token)

    @property
    def has_id_jag(self) -> bool:
        return bool(self.id_jag_issuer_url)


def normalise_record_name(name: str) -> str:
    """DNS names compare case-insensitively and may be written fully qualified (``name.``)."""
    return name.strip().rstrip(".").lower()


class DNSRecord(models.Model):
    """A TXT or CNAME record published through the control API (emulator only, not a PostHog model).

    A name has any number of TXT records but at most one CNAME (as in DNS); a CNAME's value is a
    DNS name, stored like ``name`` (lower case, no trailing dot).
    """

    TYPES = ("TXT", "CNAME")

    name = models.CharField(max_length=253)
    record_type = models.CharField(max_length=10, default="TXT")
    value = models.CharField(max_length=2048)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "posthog_emulator"
        ordering = ["name", "record_type", "id"]
        constraints = [models.UniqueConstraint(fields=["name", "record_type", "value"], name="unique_dns_record")]

    def __str__(self) -> str:
        return f"{self.name} {self.record_type} {self.value}"

    @classmethod
    def txt_values(cls, name: str) -> list[str]:
        """The first (only) string of every TXT answer for ``name``, as PostHog's lookup reads them."""
        return list(
            cls.objects.filter(name=normalise_record_name(name), record_type="TXT").values_list("value", flat=True)
        )

    @classmethod
    def cname_of(cls, name: str) -> str | None:
        """Where the CNAME record of ``name`` points, or None when it has none."""
        return (
            cls.objects.filter(name=normalise_record_name(name), record_type="CNAME")
            .values_list("value", flat=True)
            .first()
        )
