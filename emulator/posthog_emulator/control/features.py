"""Control endpoints of an organization's paid features: ``/_emulator/organizations/<org>/features``.

PostHog's billing (Cloud) or licence (self-hosted) decides ``available_product_features``; the API
never changes it. Emulator organizations start with none, as a free plan; a test or a demo grants
what it needs: ``organizations_projects`` (more than one project; ``limit`` caps them),
``managed_reverse_proxy`` (``limit`` proxy records instead of 2), ``organization_invite_settings``
(``members_can_invite`` is honoured) ...
"""

from django.urls import re_path

from posthog_emulator.control.base import ControlError, control_view, json_response, read_json, rule_errors
from posthog_emulator.control.base import find_organization, organization_summary
from posthog_emulator.rules.features import parse_features


@control_view("GET", "PUT", "PATCH")
def features(request, organization):
    """``GET`` the organization's features; ``PUT`` replaces them, ``PATCH`` adds (or replaces by
    key) the ones given. Body ``{"features": ["organizations_projects", {"key":
    "managed_reverse_proxy", "limit": 10}]}`` (``available_product_features`` is accepted too).
    ``<org>`` is an ID, slug or name. Answers ``{"id", "slug", "name", "available_product_features"}``."""
    found = find_organization(organization)
    if found is None:
        raise ControlError(f"Organization {organization!r} not found.", status=404, code="not_found")
    if request.method != "GET":
        data = read_json(request)
        attr = "features" if "features" in data else "available_product_features"
        with rule_errors():
            given = parse_features(data.get(attr), attr)
        if request.method == "PATCH":
            keys = {item["key"] for item in given}
            given = [f for f in found.available_product_features or [] if f.get("key") not in keys] + given
        found.available_product_features = given
        found.save(update_fields=["available_product_features", "updated_at"])
    return json_response({**organization_summary(found), "available_product_features": found.available_product_features})


urlpatterns = [re_path(r"^organizations/(?P<organization>[^/]+)/features/?$", features)]
