"""API generations, switchable at runtime (``GET|PUT /_emulator/generations``).

Where PostHog's API changed shape across versions (facts "[VERSION DRIFT]"), the emulator
answers with the generation the facts name as the default, and a test can switch a resource to
another generation to prove how a client copes with it. Every reset returns to the defaults.

``domains``
    ``middle`` (default): the 2024-25 public schema, SAML columns (``saml_entity_id``,
    ``saml_acs_url``, ``saml_x509_cert``) and ``scim_enabled`` on the domain (facts 2, "Fields").
    ``newest``: the 2025-26 serializer of ``posthog/api/organization_domain.py``. SAML and SCIM
    live on a linked ``identity_provider_config``; the domain shows only ``id``, ``domain``,
    ``is_verified``, ``verified_at``, ``verification_challenge``, ``jit_provisioning_enabled``,
    ``sso_enforcement``, ``has_saml``, ``has_scim``, ``scim_base_url``, ``has_id_jag`` and
    ``identity_provider_config``, and SAML or SCIM keys in a request body are silently ignored.
"""

import threading

MIDDLE = "middle"
NEWEST = "newest"
CHOICES = {"domains": (MIDDLE, NEWEST)}
DEFAULTS = {"domains": MIDDLE}

_lock = threading.Lock()
_current = dict(DEFAULTS)


def current() -> dict:
    """The active generation of every resource that has more than one."""
    with _lock:
        return dict(_current)


def of(resource: str) -> str:
    with _lock:
        return _current[resource]


def update(changes: dict) -> dict:
    """Switch the named resources; raises ``ValueError`` (message, resource) for a bad entry.

    Nothing changes unless every entry is valid.
    """
    for resource, generation in changes.items():
        if resource not in CHOICES:
            raise ValueError(f"No resource {resource!r} has generations; expected one of: {', '.join(CHOICES)}.",
                             resource)
        if generation not in CHOICES[resource]:
            raise ValueError(f"Unknown generation {generation!r} for {resource}; expected one of: "
                             f"{', '.join(CHOICES[resource])}.", resource)
    with _lock:
        _current.update(changes)
        return dict(_current)


def restore_defaults() -> None:
    with _lock:
        _current.clear()
        _current.update(DEFAULTS)
