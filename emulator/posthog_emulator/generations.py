"""API generations, switchable at runtime (``GET|PUT /_emulator/generations``).

Where PostHog's API changed shape across versions (docs/posthog_facts.md: "version drift", and §10), the
emulator answers with one generation per resource and a test can switch a resource to another to
prove how a client copes with it. The default depends on the profile (:mod:`posthog_emulator.profiles`):

* profile ``spec``: the generations our spec and the facts name as the default (``middle`` for
  domains and batch exports, no identity provider configurations);
* profile ``posthog``: ``newest`` everywhere, PostHog as its newest code has it.

``PUT`` overrides the default of the resources it names; switching the profile or a reset drops
the overrides, so the new profile's defaults apply.

``domains``
    ``middle``: the 2024-25 public schema (and the April 2026 schema), SAML columns
    (``saml_entity_id``, ``saml_acs_url``, ``saml_x509_cert``) and ``scim_enabled`` on the domain
    (docs/posthog_facts.md §2, "Fields").
    ``newest``: SAML and SCIM live on identity provider configurations; the domain shows only
    ``id``, ``domain``, ``is_verified``, ``verified_at``, ``verification_challenge``,
    ``jit_provisioning_enabled``, ``sso_enforcement``, ``has_saml``, ``has_scim``,
    ``scim_base_url``, ``has_id_jag`` and ``identity_provider_config``, and SAML or SCIM keys in a
    request body are silently ignored.
``batch_exports``
    ``middle``: the spec's batch exports and the April 2026 schema's (organization and project
    routes, destination type ``S3`` with inline keys, the ``backfill`` action).
    ``newest``: ``products/batch_exports/backend/presentation/views/batch_export/`` of PostHog's
    newest code: the project route only, ``AwsS3``/``S3Compatible`` destinations whose credentials
    live in an integration, ``timezone``/``offset_day``/``offset_hour``, ``hogql_modifiers`` and
    the ``hogql`` model, backfills through ``…/backfills`` only.
``identity_providers``
    ``absent``: no ``/identity_provider_configs`` route (404 "Endpoint not found.", as older PostHog).
    ``newest``: ``/api/organizations/<id>/identity_provider_configs`` (``posthog/api/identity_provider_config.py``).
``hog_functions``
    ``absent``: no ``/hog_functions`` or ``/hog_function_templates`` route (older PostHog).
    ``newest``: ``products/cdp/backend/api/hog_function.py`` (:mod:`posthog_emulator.api.hog_functions`).
``access_control``
    ``absent``: no access control routes under ``/api/projects/<id>/`` (404 "Endpoint not found.").
    ``newest``: ``access_controls``, ``resource_access_controls``, ``users_with_access`` and the
    Terraform lock (:mod:`posthog_emulator.api.access_control`).
"""

import threading

from posthog_emulator import profiles

ABSENT = "absent"
MIDDLE = "middle"
NEWEST = "newest"
CHOICES = {
    "domains": (MIDDLE, NEWEST),
    "batch_exports": (MIDDLE, NEWEST),
    "identity_providers": (ABSENT, NEWEST),
    "hog_functions": (ABSENT, NEWEST),
    "access_control": (ABSENT, NEWEST),
}
#: The default generation of every resource, per profile.
PROFILE_DEFAULTS = {
    profiles.SPEC: {"domains": MIDDLE, "batch_exports": MIDDLE, "identity_providers": ABSENT, "hog_functions": ABSENT,
                    "access_control": ABSENT},
    profiles.POSTHOG: {"domains": NEWEST, "batch_exports": NEWEST, "identity_providers": NEWEST,
                       "hog_functions": NEWEST, "access_control": NEWEST},
}
#: The defaults of the ``spec`` profile (kept for callers that predate per-profile defaults).
DEFAULTS = PROFILE_DEFAULTS[profiles.SPEC]

_lock = threading.Lock()
_overrides: dict = {}


def defaults() -> dict:
    """The default generation of every resource in the current profile."""
    return dict(PROFILE_DEFAULTS[profiles.current_profile()])


def current() -> dict:
    """The active generation of every resource that has more than one."""
    with _lock:
        return {**defaults(), **_overrides}


def of(resource: str) -> str:
    with _lock:
        return _overrides.get(resource) or PROFILE_DEFAULTS[profiles.current_profile()][resource]


def is_newest(resource: str) -> bool:
    return of(resource) == NEWEST


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
        _overrides.update(changes)
    return current()


def restore_defaults() -> None:
    """Drop every override: the current profile's defaults apply."""
    with _lock:
        _overrides.clear()
