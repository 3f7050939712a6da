"""Rules of identity provider configurations (``posthog/api/identity_provider_config.py``,
``posthog/models/identity_provider_config.py``; docs/posthog_facts.md §10.2).

A configuration holds SAML (``config_scope`` ``saml``), OIDC (``oidc``), SCIM (``scim``) or
ID-JAG (``xaa``) settings for some verified domains of an organization (``domain_scope``
``selected``, the default when unset, or ``all``). Two fully configured configurations of the same
protocol may not cover the same verified domain.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from posthog_emulator.rules import RuleError

DOMAIN_SCOPES = ("all", "selected")
CONFIG_SCOPES = ("saml", "scim", "xaa", "oidc")
SAML_FIELDS = ("saml_entity_id", "saml_acs_url", "saml_x509_cert")
OIDC_FIELDS = ("oidc_issuer_url", "oidc_client_id", "oidc_client_secret")

MESSAGE_OIDC_SCOPE = "Use an OIDC configuration for OIDC settings."
MESSAGE_OIDC_ISSUER = "Use an HTTPS issuer URL without credentials, a query, or a fragment."
MESSAGE_UNSCOPED = "This identity provider configuration cannot be deleted until it has a feature scope."
MESSAGE_SCIM_NOT_ENABLED = "SCIM is not enabled for this config"


def overlap_message(protocol: str) -> str:
    return (f"This {protocol} configuration overlaps with another {protocol} configuration on one or more verified "
            "domains. Choose different domains before saving.")


def check_oidc_issuer_url(value: str) -> str:
    """HTTPS, no credentials, query or fragment (``validate_oidc_issuer_url``)."""
    normalized = (value or "").strip()
    if normalized:
        parts = urlsplit(normalized)
        if parts.scheme != "https" or parts.query or parts.fragment or parts.username or parts.password:
            raise RuleError(MESSAGE_OIDC_ISSUER)
        if not parts.hostname:
            raise RuleError("URL is not allowed: Invalid hostname")
    return normalized


def normalize_optional_url(value: str | None) -> str | None:
    """ID-JAG URLs: blank is null, a trailing slash is dropped."""
    if value is None:
        return None
    stripped = value.strip()
    if not stripped:
        return None
    parts = urlsplit(stripped)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RuleError("URL is not allowed: Invalid URL")
    return stripped.rstrip("/")


def check_oidc_scope(attrs: dict, current_scope: str | None) -> None:
    """OIDC settings only on an OIDC configuration."""
    if any(attrs.get(field) for field in OIDC_FIELDS):
        if attrs.get("config_scope", current_scope) != "oidc":
            raise RuleError(MESSAGE_OIDC_SCOPE, attr="config_scope")


def fully_configured(values: dict, is_oidc: bool) -> bool:
    """Whether the merged settings make a complete SAML (or OIDC) configuration."""
    if is_oidc:
        return all(values.get(field) for field in OIDC_FIELDS)
    return all(values.get(field) for field in SAML_FIELDS)


def check_overlap(protocol: str, domain_scope: str | None, proposed_verified: set, others: list,
                  organization_has_verified: bool) -> None:
    """``others``: ``(domain_scope, verified linked domain ids)`` of the organization's other fully
    configured configurations of the same protocol. Raises when they share a verified domain."""
    if domain_scope == "all":
        overlap = any(organization_has_verified or linked for _, linked in others)
    elif proposed_verified:
        overlap = any(scope == "all" or (linked & proposed_verified) for scope, linked in others)
    else:
        overlap = False
    if overlap:
        raise RuleError(overlap_message(protocol), attr="domain_scope")


def check_deletable(config_scope: str | None) -> None:
    if config_scope is None:
        raise RuleError(MESSAGE_UNSCOPED, code="unscoped_config")
