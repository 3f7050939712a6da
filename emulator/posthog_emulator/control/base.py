"""What every control view uses: the view decorator, its error, body parsing and input helpers,
and the summaries the answers are made of.

No authentication (the server is meant for loopback). JSON in and out; errors use the same
``{type, code, detail, attr}`` shape as the API.
"""

import functools
from contextlib import contextmanager
from uuid import UUID

from django.http import JsonResponse
from django.views.decorators.csrf import csrf_exempt

from posthog_emulator.errors import error_response
from posthog_emulator.http import BodyError, json_object, json_response
from posthog_emulator.models import Organization, Team, User
from posthog_emulator.permissions import is_valid_scope
from posthog_emulator.rules import RuleError
from posthog_emulator.rules.levels import level_from

__all__ = [
    "ControlError",
    "control_view",
    "find_organization",
    "json_response",
    "organization_summary",
    "parse_level",
    "parse_scopes",
    "parse_string",
    "project_summary",
    "read_json",
    "rule_errors",
    "user_summary",
]

class ControlError(Exception):
    """Raised by control views; becomes a JSON error response."""

    def __init__(self, detail: str, attr: str | None = None, status: int = 400, code: str = "invalid_input"):
        super().__init__(detail)
        self.detail, self.attr, self.status, self.code = detail, attr, status, code

    def response(self) -> JsonResponse:
        type_ = "validation_error" if self.status == 400 else "invalid_request"
        return error_response(self.status, type_, self.code, self.detail, self.attr)


def control_view(*methods: str):
    """Decorate a control view: allowed methods (else 405 JSON), CSRF exemption, error bodies."""

    def decorator(view):
        @csrf_exempt
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method not in methods:
                response = error_response(
                    405, "invalid_request", "method_not_allowed", f'Method "{request.method}" not allowed.'
                )
                response["Allow"] = ", ".join(methods)
                return response
            if "\x00" in request.path or any(
                "\x00" in key + "".join(values) for key, values in request.GET.lists()
            ):
                return ControlError("Null characters are not allowed.", code="null_characters_not_allowed").response()
            try:
                return view(request, *args, **kwargs)
            except ControlError as error:
                return error.response()

        return wrapper

    return decorator


@contextmanager
def rule_errors():
    """Run rules of :mod:`posthog_emulator.rules`: a refusal becomes a 400 ``ControlError`` with
    its detail, ``attr`` and code (``invalid_input`` when it has none)."""
    try:
        yield
    except RuleError as error:
        raise ControlError(error.detail, error.attr, code=error.code or "invalid_input")


def read_json(request) -> dict:
    """The request body as a JSON object (``{}`` when empty); 400 otherwise."""
    try:
        return json_object(request.body)
    except BodyError as error:
        raise ControlError(error.detail, error.attr, code=error.code)


# --------------------------------------------------------------------------------------------
# Summaries
# --------------------------------------------------------------------------------------------


def user_summary(user: User) -> dict:
    return {
        "id": user.id,
        "uuid": str(user.uuid),
        "email": user.email,
        "first_name": user.first_name,
        "last_name": user.last_name,
        "distinct_id": user.distinct_id,
    }


def organization_summary(organization: Organization | None) -> dict | None:
    if organization is None:
        return None
    return {"id": str(organization.id), "slug": organization.slug, "name": organization.name}


def project_summary(team: Team | None) -> dict | None:
    if team is None:
        return None
    return {"id": team.id, "uuid": str(team.uuid), "name": team.name, "organization": str(team.organization_id)}


# --------------------------------------------------------------------------------------------
# Input helpers
# --------------------------------------------------------------------------------------------


def find_organization(reference, attr: str = "organization") -> Organization | None:
    """The organization named by ``reference``: an ID, a slug, or a (unique) name."""
    if not isinstance(reference, str) or not reference:
        raise ControlError("Expected an organization ID, slug or name.", attr)
    try:
        by_id = Organization.objects.filter(id=UUID(reference)).first()
    except ValueError:
        by_id = None
    if by_id is not None:
        return by_id
    by_slug = Organization.objects.filter(slug=reference).first()
    if by_slug is not None:
        return by_slug
    by_name = list(Organization.objects.filter(name=reference)[:2])
    if len(by_name) > 1:
        raise ControlError(f"More than one organization is named {reference!r}; use its ID or slug.", attr)
    return by_name[0] if by_name else None


def parse_level(value) -> int:
    """A membership level by name or number (``None``: member); 400 with ``attr`` ``level`` otherwise."""
    with rule_errors():
        return level_from(value)


def parse_scopes(value) -> list[str]:
    if value is None:
        return ["*"]
    if not isinstance(value, list):
        raise ControlError("Expected a list of scopes.", "scopes")
    for scope in value:
        if not is_valid_scope(scope):
            raise ControlError(f"Invalid scope {scope!r}: use '*' or '<object>:read|write'.", "scopes")
    return list(value)


def parse_string(data: dict, name: str, default: str | None = None) -> str | None:
    value = data.get(name, default)
    if value is not None and not isinstance(value, str):
        raise ControlError("Expected a string.", name)
    return value
