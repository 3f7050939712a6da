"""Response profiles, switchable at runtime (``PUT /_emulator/profile``).

``spec`` (default)
    Answer with the shapes and rules our spec (``organization-admin-api.md``) documents.
``posthog``
    Answer as real PostHog's code does where the two differ (for example, custom actions without
    a scope mapping refuse personal API keys).

Where the spec is silent, both profiles behave like real PostHog. Code asks
:func:`current_profile` at request time, never at import time, so a switch takes effect on the
next request.
"""

import threading

from django.conf import settings

SPEC = "spec"
POSTHOG = "posthog"
PROFILES = (SPEC, POSTHOG)

_lock = threading.Lock()
_profile: str | None = None


def current_profile() -> str:
    """The active profile name: ``spec`` or ``posthog``."""
    global _profile
    if _profile is None:
        with _lock:
            if _profile is None:
                _profile = _validate(getattr(settings, "EMULATOR_PROFILE", SPEC))
    return _profile


def set_profile(name: str) -> str:
    """Switch the active profile; raises ``ValueError`` for an unknown name."""
    global _profile
    name = _validate(name)
    with _lock:
        _profile = name
    return name


def is_posthog() -> bool:
    return current_profile() == POSTHOG


def is_spec() -> bool:
    return current_profile() == SPEC


def _validate(name) -> str:
    if name not in PROFILES:
        raise ValueError(f"Unknown profile {name!r}; expected one of: {', '.join(PROFILES)}.")
    return name
