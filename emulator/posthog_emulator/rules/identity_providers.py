"""Rules of identity provider configurations (``posthog/api/identity_provider_config.py``,
``posthog/models/identity_provider_config.py``; docs/posthog_facts.md §10.2).

A configuration holds SAML (``config_scope`` ``saml``), OIDC (``oidc``), SCIM (``scim``) or
ID-JAG (``xaa``) settings for some verified domains of an organization (``domain_scope``
``selected``, the default when unset, or ``all``). Two fully configured configurations of the same
protocol may not cover the same verified domain.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlparse, urlsplit

from posthog_emulator.rules import Forbidden, RuleError

DOMAIN_SCOPES = ("all", "selected")
CONFIG_SCOPES = ("saml", "scim", "xaa", "oidc")
SAML_FIELDS = ("saml_entity_id", "saml_acs_url", "saml_x509_cert")
OIDC_FIELDS = ("oidc_issuer_url", "oidc_client_id", "oidc_client_secret")

MESSAGE_OIDC_SCOPE = "Use an OIDC configuration for OIDC settings."
MESSAGE_OIDC_ISSUER = "Use an HTTPS issuer URL without credentials, a query, or a fragment."
MESSAGE_UNSCOPED = "This identity provider configuration cannot be deleted until it has a feature scope."
MESSAGE_SCIM_NOT_ENABLED = "SCIM is not enabled for this config"
MESSAGE_SCIM_TOKEN_UNAVAILABLE = "SCIM is not available for this organization"
MESSAGE_SCIM_LOGS_ADMINS = "Only organization admins can view SCIM logs."

#: Paid features (``AvailableFeature`` in ``posthog/constants.py``) and where PostHog's serializer
#: reports their absence: (feature, attr, message), checked in PostHog's order.
FEATURE_OIDC = "oidc"
FEATURE_SCIM = "scim"
FEATURE_XAA = "xaa_authentication"

# ``posthog/security/url_validation.py``: hosts refused by name, before any DNS lookup.
METADATA_HOSTS = frozenset({"169.254.169.254", "metadata.google.internal"})
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
INTERNAL_DOMAIN_PATTERNS = (
    ".local", ".internal", ".svc.cluster.local", ".cluster.local", ".consul", ".lan", ".home", ".corp",
    ".localdomain", ".home.arpa", ".intranet", ".priv",
)  # fmt: skip
_CGNAT_NETWORK = ipaddress.ip_network("100.64.0.0/10")


def overlap_message(protocol: str) -> str:
    return (f"This {protocol} configuration overlaps with another {protocol} configuration on one or more verified "
            "domains. Choose different domains before saving.")


def url_not_allowed_reason(raw_url: str) -> str | None:
    """Why PostHog's ``is_url_allowed`` refuses ``raw_url`` without resolving it, or None.

    The checks of ``posthog/security/url_validation.py`` that need no network: the URL's shape
    (``http``/``https``, a host, no backslash), then the host's name (cloud metadata hosts,
    loopback names, internal domain suffixes, private/loopback/link-local/reserved/CGNAT IP
    literals). PostHog then resolves the name and refuses internal addresses ("Could not resolve
    host", "Disallowed target IP: ..."); the emulator never reaches the network, so a public-looking
    name passes (issue 27.4).
    """
    if "\\" in raw_url or "%5c" in raw_url.lower():
        return "Invalid URL: ambiguous authority"
    try:
        parsed = urlparse(raw_url)
        hostname = parsed.hostname
    except ValueError:
        return "Invalid URL"
    if parsed.scheme not in ("http", "https"):
        return "URL must start with http:// or https://"
    if not parsed.netloc:
        return "Missing host"
    host = hostname or ""
    try:
        host = host.encode("idna").decode("ascii")
    except ValueError:
        pass
    host = host.lower().rstrip(".")
    if host in METADATA_HOSTS:
        return "Local/metadata host"
    if host in LOOPBACK_HOSTS:
        return "Local/Loopback host not allowed"
    for pattern in INTERNAL_DOMAIN_PATTERNS:
        if host.endswith(pattern):
            return f"Internal domain pattern blocked: {pattern}"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if (ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_reserved
            or ip.is_unspecified or ip in _CGNAT_NETWORK):
        return "Private IP address not allowed"
    return None


def check_url_allowed(url: str) -> str:
    reason = url_not_allowed_reason(url)
    if reason is not None:
        raise RuleError(f"URL is not allowed: {reason}")
    return url


def check_oidc_issuer_url(value: str) -> str:
    """HTTPS, no credentials, query or fragment, and allowed (``validate_oidc_issuer_url``)."""
    normalized = (value or "").strip()
    if normalized:
        parts = urlsplit(normalized)
        if parts.scheme != "https" or parts.query or parts.fragment or parts.username or parts.password:
            raise RuleError(MESSAGE_OIDC_ISSUER)
        check_url_allowed(normalized)
    return normalized


def normalize_optional_url(value: str | None) -> str | None:
    """ID-JAG URLs (``_validate_id_jag_url``): blank is null, a trailing slash is dropped, and the
    URL must be allowed."""
    if value is None:
        return None
    stripped = value.strip()
    if not stripped:
        return None
    normalized = stripped.rstrip("/")
    return check_url_allowed(normalized)


def check_features(attrs: dict, available) -> None:
    """The plan gates of ``IdentityProviderConfigSerializer.validate`` (400 ``feature_not_available``):
    OIDC settings need ``oidc``, any ``scim_enabled`` value needs ``scim``, an ID-JAG issuer needs
    ``xaa_authentication``. ``available(feature)`` answers for the organization."""
    if any(attrs.get(field) for field in OIDC_FIELDS) and not available(FEATURE_OIDC):
        raise RuleError("OIDC is not available for this organization.", code="feature_not_available",
                        attr="oidc_issuer_url")
    if attrs.get("scim_enabled") is not None and not available(FEATURE_SCIM):
        raise RuleError("SCIM provisioning is not available for this organization.", code="feature_not_available",
                        attr="scim_enabled")
    if attrs.get("id_jag_issuer_url") and not available(FEATURE_XAA):
        raise RuleError("XAA (ID-JAG) is not available for this organization.", code="feature_not_available",
                        attr="id_jag_issuer_url")


def check_scim_token_available(available) -> None:
    """``scim_token``: 403 without the ``scim`` feature, before the "not enabled" 400."""
    if not available(FEATURE_SCIM):
        raise Forbidden(MESSAGE_SCIM_TOKEN_UNAVAILABLE)


def check_scim_logs_reader(level: int | None) -> None:
    """``scim_logs``: admins and owners only."""
    if level is None or level < 8:
        raise Forbidden(MESSAGE_SCIM_LOGS_ADMINS)


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
