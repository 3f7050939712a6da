"""Control endpoints of integrations and organization media.

``POST /_emulator/projects/<project_id>/integrations`` → 201
    Create an integration of any kind, as an OAuth flow or a credentials form in PostHog's web app
    would: body ``kind`` (required, one of PostHog's kinds), ``integration_id`` (default: the
    ``name`` of ``config``, else the kind), ``config`` (shown) and ``sensitive_config`` (secrets,
    never shown by the API), ``created_by`` (an e-mail; default the bootstrap user). An existing
    (project, kind, integration_id) is updated (200). Answers the integration as the API shows it,
    with ``sensitive_config_keys`` added.
``GET /_emulator/integrations/<id>`` → 200
    The integration as stored, **secrets included** (to prove a write-only value arrived).
``POST /_emulator/organizations/<org>/media`` → 201
    Record an uploaded file (no content) that ``logo_media_id`` may name: body ``file_name``
    (default ``logo.png``). Answers ``{"id", "file_name", "organization"}``.
"""

from django.db import transaction
from django.urls import re_path

from posthog_emulator import bootstrap
from posthog_emulator.control.base import ControlError, control_view, find_organization, json_response, parse_string, read_json
from posthog_emulator.models import Integration, Team, UploadedMedia, User
from posthog_emulator.rules.integrations import ALL_KINDS, display_name


def integration_summary(integration: Integration, secrets: bool = False) -> dict:
    summary = {
        "id": integration.id,
        "kind": integration.kind,
        "integration_id": integration.integration_id,
        "team_id": integration.team_id,
        "config": integration.config,
        "display_name": display_name(integration.kind, integration.integration_id, integration.config),
        "sensitive_config_keys": sorted(integration.sensitive_config or {}),
    }
    if secrets:
        summary["sensitive_config"] = integration.sensitive_config
    return summary


@control_view("POST")
def create_integration(request, project_id):
    data = read_json(request)
    team = Team.objects.filter(id=int(project_id)).first() if str(project_id).isdigit() else None
    if team is None:
        raise ControlError("Project not found.", status=404, code="not_found")
    kind = data.get("kind")
    if kind not in ALL_KINDS:
        raise ControlError(f"Unknown kind {kind!r}; expected one of: {', '.join(ALL_KINDS)}.", "kind",
                           code="invalid_choice")
    config, sensitive = data.get("config") or {}, data.get("sensitive_config") or {}
    for name, value in (("config", config), ("sensitive_config", sensitive)):
        if not isinstance(value, dict):
            raise ControlError("Expected an object.", name)
    integration_id = parse_string(data, "integration_id") or config.get("name") or kind
    email = parse_string(data, "created_by", bootstrap.BOOTSTRAP_EMAIL)
    user = User.objects.filter(email__iexact=email).first()
    with transaction.atomic():
        integration, created = Integration.objects.update_or_create(
            team=team, kind=kind, integration_id=integration_id,
            defaults={"config": config, "sensitive_config": sensitive},
        )
        if created:
            integration.created_by = user
            integration.save(update_fields=["created_by"])
    return json_response(integration_summary(integration), status=201 if created else 200)


@control_view("GET")
def read_integration(request, integration_id):
    integration = Integration.objects.filter(id=int(integration_id)).first() if integration_id.isdigit() else None
    if integration is None:
        raise ControlError("Integration not found.", status=404, code="not_found")
    return json_response(integration_summary(integration, secrets=True))


@control_view("POST")
def upload_media(request, reference):
    data = read_json(request)
    organization = find_organization(reference)
    if organization is None:
        raise ControlError(f"Organization {reference!r} not found.", status=404, code="not_found")
    media = UploadedMedia.objects.create(organization=organization,
                                         file_name=parse_string(data, "file_name", "logo.png") or "logo.png")
    return json_response({"id": str(media.id), "file_name": media.file_name, "organization": str(organization.id)},
                         status=201)


urlpatterns = [
    re_path(r"^projects/(?P<project_id>[^/]+)/integrations/?$", create_integration),
    re_path(r"^integrations/(?P<integration_id>[^/]+)/?$", read_integration),
    re_path(r"^organizations/(?P<reference>[^/]+)/media/?$", upload_media),
]
