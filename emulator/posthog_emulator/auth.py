"""Personal API key authentication, as ``PersonalAPIKeyAuthentication`` in ``posthog/auth.py``.

Facts 0.5: the key is read from, in order, the ``Authorization: Bearer <key>`` header, a
``personal_api_key`` field of the request body, or a ``personal_api_key`` query parameter; only the
first candidate found is tried. It is hashed (``sha256$<hex>``) and looked up among keys whose user
is active. An unknown key gives 401 ``authentication_failed`` "Personal API key found in request
<source> is invalid." where <source> is "Authorization header", "body" or "query string".

No key at all: DRF raises ``NotAuthenticated`` ("Authentication credentials were not provided.").
Because :meth:`authenticate_header` returns "Bearer", DRF answers 401 rather than 403 (docs/posthog_facts.md §0.4);
the hog-handler then drops the ``WWW-Authenticate`` header, which is faithful to PostHog.
"""

import re
from datetime import timedelta

from django.utils import timezone
from rest_framework import authentication
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.request import Request

from posthog_emulator import cache
from posthog_emulator.models import PersonalAPIKey, hash_key_value

_BEARER = re.compile(r"^Bearer\s+(\S.+)$")


class PersonalAPIKeyAuthentication(authentication.BaseAuthentication):
    keyword = "Bearer"

    @classmethod
    def find_key_with_source(cls, request: Request) -> tuple[str, str] | None:
        """The first key candidate in the request and where it was found."""
        header = request.META.get("HTTP_AUTHORIZATION")
        if header:
            match = _BEARER.match(header)
            if match:
                return match.group(1).strip(), "Authorization header"
        # As in PostHog, reading the body here means a malformed body fails with 400 parse_error.
        data = request.data
        if data and hasattr(data, "__contains__") and "personal_api_key" in data:
            return str(data["personal_api_key"]), "body"
        if "personal_api_key" in request.query_params:
            return request.query_params["personal_api_key"], "query string"
        return None

    def authenticate(self, request: Request):
        found = self.find_key_with_source(request)
        if found is None:
            return None
        raw_value, source = found
        entry = cache.key_entry(hash_key_value(raw_value))
        if entry is None:
            raise AuthenticationFailed(detail=f"Personal API key found in request {source} is invalid.")
        key, user = entry.key, entry.key.user
        user._emulator_memberships = entry  # read by permissions.membership_level while current
        if user.current_organization_id is not None:
            current = cache.organization(user.current_organization_id)
            if current is not None:
                user._state.fields_cache["current_organization"] = current
        cache.authenticated_with(key.secure_value if source == "Authorization header" else None)
        note_use(key)
        return user, key

    def authenticate_header(self, request) -> str:
        return self.keyword


def note_use(key: PersonalAPIKey) -> None:
    """Record the key's use. PostHog only writes ``last_used_at`` when the hour has changed, to
    spare UPDATEs."""
    now = timezone.now()
    if key.last_used_at is None or now - key.last_used_at > timedelta(hours=1):
        key.last_used_at = now
        key.save(update_fields=["last_used_at"])


def personal_api_key_of(request) -> PersonalAPIKey | None:
    """The key a request was authenticated with, or ``None``."""
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, PersonalAPIKey) else None
