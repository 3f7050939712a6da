"""The emulator-wide control endpoints under ``/_emulator/``.

``POST /_emulator/keys``
    Create (or reuse) a user, give them a membership, and issue a personal API key. 201.
``GET /_emulator/requests`` / ``DELETE /_emulator/requests``
    Read / clear the log of ``/api/`` requests (``DELETE`` answers 204).
``POST /_emulator/reset``
    Wipe the database, bootstrap again, clear the request log. 200.
``GET /_emulator/info``
    Profile, version, bootstrap user, organization and project.
``GET /_emulator/profile`` / ``PUT /_emulator/profile``
    Read / switch the response profile at runtime; a switch drops the generation overrides.
``GET /_emulator/generations`` / ``PUT /_emulator/generations``
    Read / switch the API generation of resources whose shape drifted across PostHog versions
    (see :mod:`posthog_emulator.generations`); defaults depend on the profile, and a reset or a
    profile switch restores them.
``GET|POST|PUT|DELETE /_emulator/faults``
    Fault injection rules (see :mod:`posthog_emulator.faults`): list with counters, add, replace,
    clear.
``GET|PUT|PATCH /_emulator/organizations/<org>/feature_flags``
    An organization's PostHog feature flags (``high-frequency-batch-exports``), on by default.
``GET /_emulator/openapi.json``
    The OpenAPI 3 document of ``/api/`` (drf-spectacular).

The endpoints of one resource area live in that area's module of this package.
"""

from django.db import transaction
from django.http import HttpResponse
from django.urls import re_path

from posthog_emulator import __version__, bootstrap, faults, generations, profiles, requestlog
from posthog_emulator.control.base import (
    ControlError,
    control_view,
    find_organization,
    json_response,
    organization_summary,
    parse_level,
    parse_scopes,
    parse_string,
    project_summary,
    read_json,
    user_summary,
)
from posthog_emulator.models import FeatureFlags, Organization, OrganizationMembership, PersonalAPIKey, User


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
        generations.restore_defaults()  # the new profile's default generations apply
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


@control_view("GET", "PUT", "PATCH")
def feature_flags(request, organization):
    """Read or switch an organization's PostHog feature flags (see ``models.FeatureFlags``); its paid
    features (``available_product_features``) are ``/organizations/<org>/features`` (control/features.py).

    ``PUT``/``PATCH`` body ``{"high-frequency-batch-exports": false}`` (flags not named keep their
    value). Answers ``{"organization": "<id>", "features": {"high-frequency-batch-exports": bool}}``.
    """
    found = find_organization(organization)
    if found is None:
        raise ControlError("Organization not found.", status=404, code="not_found")
    if request.method in ("PUT", "PATCH"):
        data = read_json(request)
        if not data:
            raise ControlError(f"Expected an object such as {{\"{FeatureFlags.FLAGS[0]}\": false}}.")
        for key, value in data.items():
            if key not in FeatureFlags.FLAGS:
                raise ControlError(f"Unknown feature flag; known: {', '.join(FeatureFlags.FLAGS)}.", key,
                                   code="invalid_choice")
            if not isinstance(value, bool):
                raise ControlError("Expected true or false.", key)
        FeatureFlags.put(found.id, **data)
    return json_response({"organization": str(found.id), "features": FeatureFlags.get(found.id)})


_openapi_view = None


def openapi_view(request, *args, **kwargs):
    """The OpenAPI document of ``/api/``, generated by drf-spectacular (no authentication).

    drf-spectacular is imported on the first call, not at start-up (a tenth of a second)."""
    global _openapi_view
    if _openapi_view is None:
        from drf_spectacular.views import SpectacularJSONAPIView

        from posthog_emulator import openapi  # noqa: F401  (registers the authentication extension)

        _openapi_view = SpectacularJSONAPIView.as_view(authentication_classes=[], permission_classes=[])
    return _openapi_view(request, *args, **kwargs)


openapi_view.csrf_exempt = True


@control_view("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
def unknown(request, rest=""):
    raise ControlError("Unknown emulator control endpoint.", status=404, code="not_found")


urlpatterns = [
    re_path(r"^keys/?$", keys),
    re_path(r"^requests/?$", requests),
    re_path(r"^reset/?$", reset),
    re_path(r"^info/?$", info),
    re_path(r"^profile/?$", profile),
    re_path(r"^generations/?$", generation_switch),
    re_path(r"^faults/?$", fault_rules),
    re_path(r"^organizations/(?P<organization>[^/]+)/feature_flags/?$", feature_flags),
    re_path(r"^openapi\.json$", openapi_view),
]
