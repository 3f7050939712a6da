"""Control endpoints of the pipeline plugins area.

``/_emulator/plugin_archives`` registers what GitHub/GitLab/npm would serve (installs by URL,
``check_for_updates`` and ``upgrade`` resolve against it), ``/_emulator/plugin_configs`` enables a
plugin in a project, ``/_emulator/organizations/<org>/plugins_access_level`` reads or sets the
level the API never changes.
"""

from django.db import transaction
from django.db.models import Max
from django.urls import re_path

from posthog_emulator.api.plugin_sources import newest_archives
from posthog_emulator.control.base import (
    ControlError,
    control_view,
    find_organization,
    json_response,
    read_json,
    rule_errors,
)
from posthog_emulator.models import Plugin, PluginArchive, PluginConfig, Team
from posthog_emulator.rules.levels import plugins_access_level_from
from posthog_emulator.rules.plugins import MESSAGE_BAD_URL, parse_plugin_url


def _archive_summary(archive: PluginArchive, latest_ids: set[int]) -> dict:
    return {
        "url": archive.url,
        "tag": archive.tag,
        "name": (archive.plugin_json or {}).get("name"),
        "repository": archive.repository,
        "latest": archive.id in latest_ids,
    }


def _latest_archive_ids() -> set[int]:
    return {archive.id for archive in newest_archives().values()}


@control_view("GET", "POST")
def plugin_archives(request):
    """Register (POST) or list (GET) plugin archives that installs by URL resolve against.

    Body: ``url`` (a GitHub/GitLab/npm URL, without a tag), ``tag``, ``plugin_json`` (an object
    with at least ``name``; ``description``, ``icon``, ``config``, ``publicJobs``, ``stateless``
    and the emulator's ``capabilities`` are used), ``files`` (file name to text), ``repository``
    (listed in the official catalogue). Registering an existing URL and tag replaces it. The
    newest registration of a URL is its latest tag.
    """
    if request.method == "GET":
        latest = _latest_archive_ids()
        return json_response([_archive_summary(a, latest) for a in PluginArchive.objects.order_by("sequence", "id")])
    data = read_json(request)
    parsed = parse_plugin_url(data.get("url"))
    if parsed is None:
        raise ControlError(MESSAGE_BAD_URL, "url")
    root, url_tag = parsed
    if url_tag:
        raise ControlError("Give the repository or package URL without a tag; put the tag in `tag`.", "url")
    tag = data.get("tag")
    if not isinstance(tag, str) or not tag.strip():
        raise ControlError("Expected a non-empty string.", "tag")
    plugin_json = data.get("plugin_json")
    if not isinstance(plugin_json, dict) or not isinstance(plugin_json.get("name"), str) or not plugin_json["name"]:
        raise ControlError("Expected an object with at least a non-empty `name`.", "plugin_json")
    capabilities = plugin_json.get("capabilities")
    if capabilities is not None and not isinstance(capabilities, dict):
        raise ControlError('`capabilities` must be an object such as {"methods": ["onEvent"]}.', "plugin_json")
    files = data.get("files") or {}
    if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        raise ControlError("Expected an object mapping file names to text.", "files")
    repository = data.get("repository", False)
    if not isinstance(repository, bool):
        raise ControlError("Expected a boolean.", "repository")
    with transaction.atomic():
        sequence = (PluginArchive.objects.aggregate(top=Max("sequence"))["top"] or 0) + 1
        archive, _ = PluginArchive.objects.update_or_create(
            url=root,
            tag=tag.strip(),
            defaults={"plugin_json": plugin_json, "files": files, "repository": repository, "sequence": sequence},
        )
    return json_response(_archive_summary(archive, _latest_archive_ids()), status=201)


@control_view("GET", "PUT", "PATCH")
def organization_plugins_access_level(request, reference):
    """Read or set an organization's ``plugins_access_level`` (0/3/6/9 or none/config/install/root)."""
    organization = find_organization(reference)
    if organization is None:
        raise ControlError(f"Organization {reference!r} not found.", "organization", status=404, code="not_found")
    if request.method != "GET":
        with rule_errors():
            value = plugins_access_level_from(read_json(request).get("plugins_access_level"))
        organization.plugins_access_level = value
        organization.save(update_fields=["plugins_access_level", "updated_at"])
    return json_response(
        {
            "id": str(organization.id),
            "slug": organization.slug,
            "name": organization.name,
            "plugins_access_level": organization.plugins_access_level,
        }
    )


@control_view("POST")
def plugin_configs(request):
    """Enable a plugin in a project (PostHog's API no longer creates plugin configs).

    Body: ``plugin`` (ID), ``project`` (ID; default the first project of the plugin's
    organization), ``enabled`` (default true), ``deleted`` (default false), ``order``, ``config``.
    """
    data = read_json(request)
    plugin_id = data.get("plugin")
    if isinstance(plugin_id, bool) or not isinstance(plugin_id, int):
        raise ControlError("Expected a plugin ID (an integer).", "plugin")
    plugin = Plugin.objects.filter(id=plugin_id).first()
    if plugin is None:
        raise ControlError(f"Plugin {plugin_id} not found.", "plugin")
    project_id = data.get("project")
    if project_id is None:
        team = Team.objects.filter(organization_id=plugin.organization_id).order_by("id").first()
        if team is None:
            raise ControlError("The plugin has no organization with a project; give `project`.", "project")
    else:
        team = Team.objects.filter(id=project_id).first() if isinstance(project_id, int) else None
        if team is None:
            raise ControlError(f"Project {project_id!r} not found.", "project")
    flags = {}
    for name, default in (("enabled", True), ("deleted", False)):
        flags[name] = data.get(name, default)
        if not isinstance(flags[name], bool):
            raise ControlError("Expected a boolean.", name)
    config = data.get("config") or {}
    if not isinstance(config, dict):
        raise ControlError("Expected an object.", "config")
    order = data.get("order", 0)
    if isinstance(order, bool) or not isinstance(order, int):
        raise ControlError("Expected an integer.", "order")
    plugin_config = PluginConfig.objects.create(team=team, plugin=plugin, config=config, order=order, **flags)
    return json_response(
        {
            "id": plugin_config.id,
            "plugin": plugin.id,
            "team_id": team.id,
            "enabled": plugin_config.enabled,
            "deleted": plugin_config.deleted,
            "order": plugin_config.order,
            "config": plugin_config.config,
        },
        status=201,
    )


urlpatterns = [
    re_path(r"^plugin_archives/?$", plugin_archives),
    re_path(r"^plugin_configs/?$", plugin_configs),
    re_path(r"^organizations/(?P<reference>[^/]+)/plugins_access_level/?$", organization_plugins_access_level),
]
