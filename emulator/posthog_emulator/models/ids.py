"""Identifier and key helpers: time-ordered UUIDs, random tokens, personal API key values and
their hashes. Plain functions with no models; :mod:`posthog_emulator.models.core` uses them as field
defaults and re-exports them for the area modules.
"""

import hashlib
import os
import secrets
import string
import threading
import time
import uuid

BASE62 = string.digits + string.ascii_letters

_uuid_lock = threading.Lock()
_uuid_last_ms = 0
_uuid_counter = 0


def uuidt() -> uuid.UUID:
    """A time-ordered UUID, like PostHog's UUIDT (docs/posthog_facts.md §0.2), laid out as an RFC 9562 UUIDv7.

    48 bits of Unix milliseconds, then a 12-bit counter that keeps IDs created within the same
    millisecond in creation order, then 62 random bits. Sorting by ID therefore sorts by creation.
    """
    global _uuid_last_ms, _uuid_counter
    with _uuid_lock:
        ms = time.time_ns() // 1_000_000
        if ms <= _uuid_last_ms:
            _uuid_counter += 1
            if _uuid_counter > 0xFFF:  # counter exhausted: borrow the next millisecond
                _uuid_last_ms += 1
                _uuid_counter = 0
            ms = _uuid_last_ms
        else:
            _uuid_last_ms = ms
            _uuid_counter = 0
        counter = _uuid_counter
    rand = int.from_bytes(os.urandom(8), "big") & ((1 << 62) - 1)
    value = (ms & ((1 << 48) - 1)) << 80 | 0x7 << 76 | counter << 64 | 0b10 << 62 | rand
    return uuid.UUID(int=value)


def random_token(length: int) -> str:
    """``length`` random base-62 characters (PostHog's token alphabet)."""
    return "".join(secrets.choice(BASE62) for _ in range(length))


def generate_distinct_id() -> str:
    return random_token(43)


def generate_key_id() -> str:
    return random_token(32)


def generate_personal_api_key() -> str:
    """A new raw personal API key: ``phx_`` plus 40 base-62 characters (docs/posthog_facts.md §0.5)."""
    return "phx_" + random_token(40)


def hash_key_value(value: str) -> str:
    """PostHog's current key hash: ``sha256$<hex>``, unsalted (docs/posthog_facts.md §0.5)."""
    return "sha256$" + hashlib.sha256(value.encode()).hexdigest()


def mask_key_value(value: str) -> str:
    """What PostHog shows instead of a key: its first and last four characters."""
    return f"{value[:4]}...{value[-4:]}"


def generate_random_short_suffix() -> str:
    """Four random letters used to disambiguate slugs (``posthog/models/utils.py``).

    PostHog draws from upper- and lower-case letters but stores slugs in a lower-casing field,
    so the value stored (and returned on every read) is lower case.
    """
    return "".join(secrets.choice(string.ascii_lowercase) for _ in range(4))


def generate_project_api_token() -> str:
    """A project API token: ``phc_`` plus 43 base-62 characters (docs/posthog_facts.md §0.5)."""
    return "phc_" + random_token(43)
