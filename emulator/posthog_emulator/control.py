"""The control API under ``/_emulator/``: test and demo helpers, never part of ``/api/``.

No authentication (the server is meant for loopback). JSON in and out; errors use the same
``{type, code, detail, attr}`` shape as the API. Endpoints:

``POST /_emulator/keys``
    Create (or reuse) a user, give them a membership, and issue a personal API key. 201.
``GET /_emulator/requests`` / ``DELETE /_emulator/requests``
    Read / clear the log of ``/api/`` requests (``DELETE`` answers 204).
``POST /_emulator/reset``
    Wipe the database, bootstrap again, clear the request log. 200.
``GET /_emulator/info``
    Profile, version, bootstrap user, organization and project.
``GET /_emulator/profile`` / ``PUT /_emulator/profile``
    Read / switch the response profile at runtime.
``GET /_emulator/generations`` / ``PUT /_emulator/generations``
    Read / switch the API generation of resources whose shape drifted across PostHog versions
    (see :mod:`posthog_emulator.generations`); a reset restores the defaults.
``GET|POST|PUT|DELETE /_emulator/faults``
    Fault injection rules (see :mod:`posthog_emulator.faults`): list with counters, add, replace,
    clear.
``GET /_emulator/openapi.json``
    The OpenAPI 3 document of ``/api/`` (drf-spectacular).

Resource modules may add their own control endpoints through ``control_urlpatterns``
(see :mod:`posthog_emulator.api`); write them with :func:`control_view` and :func:`read_json`.
"""

import functools
import json
from uuid import UUID

from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.urls import re_path
from django.views.decorators.csrf import csrf_exempt

from posthog_emulator import __version__, bootstrap, faults, generations, profiles, requestlog
from posthog_emulator.errors import error_body
from posthog_emulator.models import Organization, OrganizationMembership, PersonalAPIKey, Team, User
from posthog_emulator.permissions import is_valid_scope

LEVELS = {
    "member": OrganizationMembership.Level.MEMBER,
    "admin": OrganizationMembership.Level.ADMIN,
    "administrator": OrganizationMembership.Level.ADMIN,
    "owner": OrganizationMembership.Level.OWNER,
}


def json_response(data, status: int = 200) -> JsonResponse:
    """A compact JSON response, formatted like DRF's JSON renderer output."""
    return JsonResponse(data, status=status, safe=False, json_dumps_params={"separators": (",", ":")})


class ControlError(Exception):
    """Raised by control views; becomes a JSON error response."""

    def __init__(self, detail: str, attr: str | None = None, status: int = 400, code: str = "invalid_input"):
        super().__init__(detail)
        self.detail, self.attr, self.status, self.code = detail, attr, status, code

    def response(self) -> JsonResponse:
        type_ = "validation_error" if self.status == 400 else "invalid_request"
        return json_response(error_body(type_, self.code, self.detail, self.attr), status=self.status)


def control_view(*methods: str):
    """Decorate a control view: allowed methods (else 405 JSON), CSRF exemption, error bodies."""

    def decorator(view):
        @csrf_exempt
        @functools.wraps(view)
        def wrapper(request, *args, **kwargs):
            if request.method not in methods:
                response = json_response(
                    error_body("invalid_request", "method_not_allowed", f'Method "{request.method}" not allowed.'),
                    status=405,
                )
                response["Allow"] = ", ".join(methods)
                return response
            try:
                return view(request, *args, **kwargs)
            except ControlError as error:
                return error.response()

        return wrapper

    return decorator


def read_json(request) -> dict:
    """The request body as a JSON object (``{}`` when empty); 400 otherwise."""
    if not request.body:
        return {}
    try:
        data = json.loads(request.body)
    except (ValueError, UnicodeDecodeError) as error:
        raise ControlError(f"JSON parse error - {error}", code="parse_error")
    if not isinstance(data, dict):
        raise ControlError("Expected a JSON object.")
    return data


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
    if value is None:
        return OrganizationMembership.Level.MEMBER
    if isinstance(value, str) and value.lower() in LEVELS:
        return LEVELS[value.lower()]
    if isinstance(value, (int, str)) and not isinstance(value, bool) and str(value) in {"1", "8", "15"}:
        return int(value)
    raise ControlError(f'"{value}" is not a valid level; use member, admin or owner (or 1, 8, 15).', "level")


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


# --------------------------------------------------------------------------------------------
# Views
# --------------------------------------------------------------------------------------------


@control_view("POST")
def keys(request):
    """Create a user (if needed), a membership at ``level`` and a personal API key.

    ``level`` defaults to member for a new membership; an existing membership keeps its level
    unless ``level`` is given.
    """
    data = read_json(request)
    email = parse_string(data, "email")
    if not email or "@" not in email:
        raise ControlError("Enter a valid email address.", "email", code="invalid")
    first_name = parse_string(data, "first_name")
    last_name = parse_string(data, "last_name")
    scopes = parse_scopes(data.get("scopes"))
    level = parse_level(data.get("level"))
    scoped_teams = data.get("scoped_teams") or []
    if not isinstance(scoped_teams, list) or not all(
        isinstance(t, int) and not isinstance(t, bool) for t in scoped_teams
    ):
        raise ControlError("Expected a list of project IDs (integers).", "scoped_teams")
    scoped_refs = data.get("scoped_organizations") or []
    if not isinstance(scoped_refs, list):
        raise ControlError("Expected a list of organization IDs, slugs or names.", "scoped_organizations")

    with transaction.atomic():
        scoped_organizations = []
        for reference in scoped_refs:
            organization = find_organization(reference, "scoped_organizations")
            if organization is None:
                raise ControlError(f"Organization {reference!r} not found.", "scoped_organizations")
            scoped_organizations.append(str(organization.id))

        user, created = User.objects.get_or_create_user(email, first_name or "", last_name or "")
        if not created and (first_name is not None or last_name is not None):
            user.first_name = first_name if first_name is not None else user.first_name
            user.last_name = last_name if last_name is not None else user.last_name
            user.save(update_fields=["first_name", "last_name"])

        reference = data.get("organization")
        if reference is None:
            organization = (
                bootstrap.bootstrap_organization()
                or Organization.objects.bootstrap(None, name=bootstrap.BOOTSTRAP_ORGANIZATION_NAME)[0]
            )
        else:
            organization = find_organization(reference)
            if organization is None:
                organization, _, _ = Organization.objects.bootstrap(None, name=reference[:64])

        membership, _ = OrganizationMembership.objects.get_or_create(
            organization=organization, user=user, defaults={"level": level}
        )
        if "level" in data and membership.level != level:
            membership.level = level
            membership.save(update_fields=["level", "updated_at"])
        if user.current_organization_id is None:
            user.switch_to(organization)

        _, raw = PersonalAPIKey.objects.issue(
            user,
            label=parse_string(data, "label", "emulator") or "emulator",
            scopes=scopes,
            scoped_organizations=scoped_organizations,
            scoped_teams=scoped_teams,
        )
    return json_response(
        {
            "key": raw,
            "user": user_summary(user),
            "organization": organization_summary(organization),
            "level": membership.level,
            "scopes": scopes,
            "scoped_organizations": scoped_organizations,
            "scoped_teams": scoped_teams,
        },
        status=201,
    )


@control_view("GET", "DELETE")
def requests(request):
    if request.method == "DELETE":
        requestlog.clear()
        return HttpResponse(status=204)
    return json_response(requestlog.entries())


@control_view("POST")
def reset(request):
    data = read_json(request)
    api_key = parse_string(data, "api_key")
    raw = bootstrap.reset(api_key or None)
    requestlog.clear()
    return json_response(
        {
            "api_key": raw,
            "organization": organization_summary(bootstrap.bootstrap_organization()),
            "project": project_summary(bootstrap.bootstrap_project()),
        }
    )


@control_view("GET")
def info(request):
    user = User.objects.filter(email=bootstrap.BOOTSTRAP_EMAIL).first()
    return json_response(
        {
            "profile": profiles.current_profile(),
            "version": __version__,
            "user": user_summary(user) if user else None,
            "organization": organization_summary(bootstrap.bootstrap_organization()),
            "project": project_summary(bootstrap.bootstrap_project()),
        }
    )


@control_view("GET", "PUT")
def profile(request):
    if request.method == "PUT":
        name = read_json(request).get("profile")
        try:
            profiles.set_profile(name)
        except ValueError as error:
            raise ControlError(str(error), "profile", code="invalid_choice")
    return json_response({"profile": profiles.current_profile()})


@control_view("GET", "PUT")
def generation_switch(request):
    if request.method == "PUT":
        data = read_json(request)
        if not isinstance(data, dict) or not data:
            raise ControlError("Expected an object such as {\"domains\": \"newest\"}.")
        try:
            generations.update(data)
        except ValueError as error:
            raise ControlError(error.args[0], error.args[1], code="invalid_choice")
    return json_response(generations.current())


bootstrap.on_reset(generations.restore_defaults)


@control_view("GET", "POST", "PUT", "DELETE")
def fault_rules(request):
    """Fault injection rules: ``GET`` lists them with their counters, ``POST`` adds, ``PUT`` replaces
    them all, ``DELETE`` clears them (204).

    The body is one rule, or ``{"rules": [rule, ...], "seed": n}``; ``seed`` alone (no rules)
    just re-seeds the random generator. See :mod:`posthog_emulator.faults` for the rule fields.
    """
    if request.method == "DELETE":
        faults.clear()
        return HttpResponse(status=204)
    if request.method == "GET":
        return json_response({"seed": faults.current_seed(), "rules": faults.rules()})
    data = read_json(request)
    seed = data.get("seed")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str))):
        raise ControlError("Expected an integer or a string.", "seed")
    if "rules" in data:
        extra = sorted(set(data) - {"rules", "seed"})
        if extra:
            raise ControlError(f"Unknown field {extra[0]!r} next to rules.", extra[0])
        raw_rules = data["rules"]
        if not isinstance(raw_rules, list):
            raise ControlError("Expected a list of rules.", "rules")
    elif set(data) <= {"seed"}:
        raw_rules = []
    else:
        raw_rules = [{k: v for k, v in data.items() if k != "seed"}]
    parsed = []
    for index, raw in enumerate(raw_rules):
        try:
            parsed.append(faults.parse_rule(raw))
        except faults.RuleError as error:
            attr = error.attr
            if "rules" in data:
                attr = f"rules__{index}" + (f"__{error.attr}" if error.attr != "rules" else "")
            raise ControlError(error.detail, attr)
    added = faults.add_rules(parsed, seed=seed, replace=request.method == "PUT")
    status = 201 if request.method == "POST" else 200
    return json_response({"seed": faults.current_seed(), "rules": added if status == 201 else faults.rules()},
                         status=status)


def openapi_view():
    """The OpenAPI document of ``/api/``, generated by drf-spectacular (no authentication)."""
    from drf_spectacular.views import SpectacularJSONAPIView

    from posthog_emulator import openapi  # noqa: F401  (registers the authentication extension)

    return SpectacularJSONAPIView.as_view(authentication_classes=[], permission_classes=[])


@control_view("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
def unknown(request, rest=""):
    raise ControlError("Unknown emulator control endpoint.", status=404, code="not_found")


def urlpatterns_with(extra: list) -> list:
    """The control URL patterns, with resource-specific ones inserted before the catch-all."""
    return [
        re_path(r"^keys/?$", keys),
        re_path(r"^requests/?$", requests),
        re_path(r"^reset/?$", reset),
        re_path(r"^info/?$", info),
        re_path(r"^profile/?$", profile),
        re_path(r"^generations/?$", generation_switch),
        re_path(r"^faults/?$", fault_rules),
        re_path(r"^openapi\.json$", openapi_view()),
        *extra,
        re_path(r"^(?P<rest>.*)$", unknown),
    ]
