"""Rules of verified domains (docs/posthog_facts.md §2): the domain name, what an unverified domain refuses, the
challenge lookup, SCIM tokens.

Mirrors ``posthog/api/organization_domain.py``. The TXT records themselves are database rows
(:class:`~posthog_emulator.models.DNSRecord`); these functions only read the values they are given.
"""

import re
import secrets

from posthog_emulator.models import hash_key_value
from posthog_emulator.rules import RuleError

#: PostHog's ``DOMAIN_REGEX`` (``posthog/api/organization_domain.py``): lower case only (docs/posthog_facts.md §2).
DOMAIN_PATTERN = r"^([a-z0-9]+(-[a-z0-9]+)*\.)+[a-z]{2,}$"
DOMAIN_REGEX = re.compile(DOMAIN_PATTERN)

MESSAGE_INVALID_DOMAIN = "Please enter a valid domain or subdomain name."
MESSAGE_VERIFICATION_REQUIRED = "This attribute cannot be updated until the domain is verified."
MESSAGE_ALREADY_VERIFIED = "This domain has already been verified."

#: Fields PostHog lets you change only once the domain is verified (in this order).
UPDATE_ONLY_WHEN_VERIFIED = ("jit_provisioning_enabled", "sso_enforcement", "scim_enabled")
#: What the newest generation no longer has on the domain (moved to ``identity_provider_config``).
MOVED_TO_IDENTITY_PROVIDER_CONFIG = ("saml_entity_id", "saml_acs_url", "saml_x509_cert", "scim_enabled",
                                     "scim_bearer_token")
#: Fields PostHog drops from a create body.
IGNORED_ON_CREATE = ("jit_provisioning_enabled", "sso_enforcement", "scim_enabled")


def check_domain(domain: str) -> str:
    """A domain or subdomain name, lower case (PostHog's ``DOMAIN_REGEX``)."""
    if not DOMAIN_REGEX.match(domain):
        raise RuleError(MESSAGE_INVALID_DOMAIN)
    return domain


MESSAGE_WOULD_BLOCK_SELF = (
    "You can't delete this domain while membership is restricted to verified email domains, because your own "
    "email address would no longer be allowed. Turn off that setting first."
)


def check_delete_keeps_requester(email: str, other_verified_domains) -> None:
    """With ``enforce_verified_domains`` on, a verified domain may go only while another verified
    domain still admits the requester's own address (``OrganizationDomainViewset.destroy``)."""
    email_domain = email[email.index("@") + 1:].lower() if "@" in email else ""
    if email_domain not in [d.lower() for d in other_verified_domains]:
        raise RuleError(MESSAGE_WOULD_BLOCK_SELF, code="would_block_self")


def check_update(is_verified: bool, fields) -> None:
    """An unverified domain refuses any of :data:`UPDATE_ONLY_WHEN_VERIFIED` among ``fields``,
    whatever the value (the first in that order is named)."""
    if not is_verified:
        for field in UPDATE_ONLY_WHEN_VERIFIED:
            if field in fields:
                raise RuleError(MESSAGE_VERIFICATION_REQUIRED, code="verification_required", attr=field)


def check_not_verified(is_verified: bool) -> None:
    """``verify`` on a verified domain."""
    if is_verified:
        raise RuleError(MESSAGE_ALREADY_VERIFIED, code="already_verified")


def unquote_txt(value: str) -> str:
    """A TXT value as written in a zone file (``"abc"``) or bare (``abc``): the string itself."""
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return value[1:-1]
    return value


def challenge_published(challenge: str, txt_values) -> bool:
    """Whether one of the TXT values published for the challenge record is the challenge."""
    return challenge in [unquote_txt(value) for value in txt_values]


def new_scim_token() -> tuple[str, str]:
    """A SCIM bearer token: ``(plain, stored)``; the plain one is shown once, the hash is kept."""
    token = secrets.token_urlsafe(32)
    return token, hash_key_value(token)


MESSAGE_ENFORCE_NEEDS_DOMAIN = "Verify at least one domain to enable this setting"
MESSAGE_ENFORCE_NEEDS_OWN_DOMAIN = "Verify the domain of your own email address first, otherwise this would lock you out"


def check_enforce_verified_domains(email: str, verified_domains) -> None:
    """Turning ``enforce_verified_domains`` on: a verified domain, one of them the requester's own
    (the guard PostHog's domain deletion "mirrors"; wording of PostHog's settings page)."""
    if not verified_domains:
        raise RuleError(MESSAGE_ENFORCE_NEEDS_DOMAIN)
    email_domain = email[email.index("@") + 1:].lower() if "@" in email else ""
    if email_domain not in [d.lower() for d in verified_domains]:
        raise RuleError(MESSAGE_ENFORCE_NEEDS_OWN_DOMAIN)
