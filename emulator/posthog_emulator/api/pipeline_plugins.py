"""Pipeline plugins in three families (spec 2.8 / 4.6, facts 6).

``/api/organizations/<organization_id>/pipeline_destinations``, ``pipeline_frontend_apps`` and
``pipeline_import_apps``: one record shape, integer IDs, scope object ``plugin``. Mirrors
``products/cdp/backend/api/plugin.py`` (``PluginViewSet`` and its ``Pipeline*ViewSet`` subclasses):

* **Families** are views on the same plugins, filtered by ``capabilities`` (facts 6):
  destinations have ``methods`` containing ``onEvent`` or ``composeWebhook``; frontend apps have
  neither a ``methods`` nor a ``scheduled_tasks`` key; import apps have non-empty
  ``scheduled_tasks``, or ``methods`` without ``onEvent``/``composeWebhook``/``processEvent``.
  A plugin outside the family answers 404 on that family's detail routes.
* **Visible set**: plugins owned by the organization, global plugins, and plugins with a
  non-deleted config in one of the organization's projects.
* **Access level** (``PluginsAccessLevelPermission``): the organization's ``plugins_access_level``
  must be >= 3 (config) to read and >= 6 (install) to write, otherwise 403 "Your organization's
  plugin access level is insufficient."; writing a plugin of another organization: 403 "This
  plugin installation is managed by another organization"; ``is_global`` (sent on create as
  true, or sent at all on update) needs 9 (root): 403 "This organization can't manage global
  plugins!". Membership is checked as everywhere; there is no admin check beyond that.
* **Create**: ``source`` plugins take name etc. from the body. Other types install from ``url``:
  GitHub, GitLab or npm URLs only ("Must be a GitHub/GitLab repository or a npm package URL!"),
  resolved against the archives registered with ``POST /_emulator/plugin_archives`` (the tag in
  the URL, e.g. ``/tree/<tag>``, else the newest registered); unknown: "Could not find
  plugin.json in the plugin"; already installed anywhere: 'Plugin from URL "<url>" already
  installed!'; stateless with a config: "Stateless plugins cannot have a config!". name,
  description, icon, config_schema, public_jobs and tag come from ``plugin.json``; capabilities
  from the body, else from ``plugin.json``'s ``capabilities`` (an emulator convention: PostHog's
  plugin server derives them from the code). The type becomes ``custom`` unless ``repository``.
* **Update**: a plain field update. **Delete**: 204; a global plugin: 400 "This plugin is marked
  as global! Make it local before uninstallation".
* **Custom actions** have no scope mapping in PostHog: profile ``posthog`` refuses personal API
  keys (403, see :mod:`posthog_emulator.permissions`); profile ``spec`` asks for ``plugin:read`` /
  ``plugin:write`` by method. ``check_for_updates``, ``source``, ``update_source`` and
  ``upgrade`` need the plugin to belong to this organization (else 404) and an access level
  >= 6 (else 403 "Plugin <reason> is not available for the current organization!").
* **Shapes** (profile ``posthog`` / ``spec``): ``check_for_updates`` answers ``{"plugin": …}`` /
  the record; ``source`` and ``update_source`` the file map / the record; ``upgrade`` the record
  in both; ``unused`` an array of IDs / of records; ``exports_unsubscribe_configs`` an array of
  plugin configs / of the records of their plugins; ``repository`` the catalogue entries / the
  same as plugin-shaped records; ``activity`` PostHog's ``{results, next, previous, total_count}``
  in both (a plugin record cannot carry an activity entry). Profile ``posthog`` adds
  ``hog_function_migration_available`` (always false) to the record.
* Import apps: the spec lists only list, create, retrieve, update, delete and
  ``check_for_updates``; profile ``spec`` answers 404 for the other actions, profile ``posthog``
  serves them (PostHog's import-apps viewset is a full ``PluginViewSet``).
* Activity is logged as PostHog does: ``installed`` on create and ``uninstalled`` on delete,
  scope ``Plugin``, in the requester's current project.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlencode

from django.db import transaction
from django.db.models import Q
from django.utils.timezone import now
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated
from rest_framework.response import Response

from posthog_emulator import profiles
from posthog_emulator.models import Organization, Plugin, PluginActivity, PluginArchive, PluginConfig, PluginSourceFile
from posthog_emulator.permissions import APIScopePermission
from posthog_emulator.routing import OrganizationNestedMixin, organization_prefix

LEVEL_CONFIG = Organization.PluginsAccessLevel.CONFIG
LEVEL_INSTALL = Organization.PluginsAccessLevel.INSTALL
LEVEL_ROOT = Organization.PluginsAccessLevel.ROOT

MESSAGE_ACCESS_LEVEL = "Your organization's plugin access level is insufficient."
MESSAGE_OTHER_ORGANIZATION = "This plugin installation is managed by another organization"
MESSAGE_GLOBAL = "This organization can't manage global plugins!"
MESSAGE_DELETE_GLOBAL = "This plugin is marked as global! Make it local before uninstallation"
MESSAGE_BAD_URL = "Must be a GitHub/GitLab repository or a npm package URL!"
MESSAGE_NO_PLUGIN_JSON = "Could not find plugin.json in the plugin"
MESSAGE_STATELESS = "Stateless plugins cannot have a config!"

SECRET_FIELD_VALUE = "**************** POSTHOG SECRET FIELD ****************"
ARCHIVE_CODE_FILES = ("index.ts", "frontend.tsx", "site.ts")
TRANSPILED_FILES = ("site.ts", "frontend.tsx")

DESTINATION, FRONTEND_APP, IMPORT_APP = "destination", "frontend_app", "import_app"
COLLECTIONS = {
    DESTINATION: "pipeline_destinations",
    FRONTEND_APP: "pipeline_frontend_apps",
    IMPORT_APP: "pipeline_import_apps",
}

# posthog/plugins/utils.py parse_url, reduced to what decides acceptance and the tag.
_URL_PATTERNS = (
    re.compile(
        r"^(?P<root>https?://(?:www\.)?github\.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)"
        r"(?:/(?:commit|tree|releases/tag)/(?P<tag>[A-Za-z0-9_.\-/]+?))?/?$"
    ),
    re.compile(r"^(?P<root>https?://(?:www\.)?gitlab\.com/[A-Za-z0-9_.\-/]+?)(?:/-/(?:tree|commit)/(?P<tag>[A-Za-z0-9_.\-]+))?/?$"),
    re.compile(
        r"^(?P<root>https?://(?:www\.)?npmjs\.com/package/(?:@[a-z0-9_.-]+/)?[a-z0-9_.-]+)"
        r"(?:/v/(?P<tag>[A-Za-z0-9_.\-]+))?/?$"
    ),
)  # fmt: skip


# --------------------------------------------------------------------------------------------
# Families and URLs
# --------------------------------------------------------------------------------------------


def family_of(capabilities) -> str | None:
    """The family a plugin with these capabilities is listed in (or None: e.g. a transformation)."""
    capabilities = capabilities if isinstance(capabilities, dict) else {}
    methods = capabilities.get("methods")
    has_methods = "methods" in capabilities
    method_list = methods if isinstance(methods, list) else []
    if has_methods and ("onEvent" in method_list or "composeWebhook" in method_list):
        return DESTINATION
    if not has_methods and "scheduled_tasks" not in capabilities:
        return FRONTEND_APP
    if "scheduled_tasks" in capabilities and capabilities["scheduled_tasks"] != []:
        return IMPORT_APP
    if has_methods and not {"onEvent", "composeWebhook", "processEvent"} & set(method_list):
        return IMPORT_APP
    return None


def parse_plugin_url(url) -> tuple[str, str | None] | None:
    """``(root URL, tag or None)`` for a GitHub/GitLab/npm URL (query such as ``?private_token=`` ignored)."""
    if not isinstance(url, str):
        return None
    bare = url.split("?")[0]
    for pattern in _URL_PATTERNS:
        match = pattern.match(bare)
        if match:
            return match.group("root"), match.group("tag")
    return None


def find_archive(url) -> PluginArchive:
    """The registered archive a URL resolves to: its tag, else the newest registered tag."""
    parsed = parse_plugin_url(url)
    if parsed is None:
        raise ValidationError(MESSAGE_BAD_URL)
    root, tag = parsed
    archives = PluginArchive.objects.filter(url=root)
    archive = archives.filter(tag=tag).first() if tag else archives.order_by("-sequence", "-id").first()
    if archive is None:
        raise ValidationError(MESSAGE_NO_PLUGIN_JSON)
    return archive


def latest_tag_for(url) -> str | None:
    parsed = parse_plugin_url(url)
    if parsed is None:
        return None
    root, tag = parsed
    if tag:
        return tag
    archive = PluginArchive.objects.filter(url=root).order_by("-sequence", "-id").first()
    return archive.tag if archive else None


def fields_from_archive(archive: PluginArchive) -> dict:
    """What PostHog's ``update_validated_data_from_url`` takes from ``plugin.json``."""
    plugin_json = archive.plugin_json or {}
    data = {
        "tag": archive.tag,
        "latest_tag": archive.tag,
        "name": plugin_json["name"],
        "description": plugin_json.get("description", ""),
        "icon": plugin_json.get("icon"),
        "config_schema": plugin_json.get("config", []),
        "public_jobs": plugin_json.get("publicJobs", {}),
        "is_stateless": plugin_json.get("stateless", False),
    }
    if data["is_stateless"] and len(data["config_schema"]) > 0:
        raise ValidationError(MESSAGE_STATELESS)
    return data


def sync_source_files(plugin: Plugin, archive: PluginArchive) -> None:
    """``PluginSourceFile.objects.sync_from_plugin_archive``: plugin.json and the code files."""
    files = dict(archive.files or {})
    if "index.ts" not in files and "index.js" in files:
        files["index.ts"] = files["index.js"]
    plugin_json_text = files.get("plugin.json") or json.dumps(archive.plugin_json, indent=2)
    PluginSourceFile.objects.update_or_create(
        plugin=plugin, filename="plugin.json", defaults={"source": plugin_json_text, "transpiled": None, "status": None}
    )
    for filename in ARCHIVE_CODE_FILES:
        if filename in files:
            transpiled = files[filename] if filename in TRANSPILED_FILES else None
            file_status = PluginSourceFile.Status.TRANSPILED if filename in TRANSPILED_FILES else None
            PluginSourceFile.objects.update_or_create(
                plugin=plugin,
                filename=filename,
                defaults={"source": files[filename], "transpiled": transpiled, "status": file_status, "error": None},
            )
        else:
            PluginSourceFile.objects.filter(plugin=plugin, filename=filename).delete()
    if files.get("index.ts") is not None:
        plugin.source = files["index.ts"]
        plugin.save(update_fields=["source"])


def raise_if_plugin_installed(url: str) -> None:
    bare = url.split("?")[0]
    if Plugin.objects.filter(Q(url=bare) | Q(url__startswith=f"{bare}?")).exists():
        raise ValidationError(f'Plugin from URL "{bare}" already installed!')


def log_activity(user, organization, plugin_id, name, activity: str, scope: str = "Plugin") -> None:
    team = user.team if user is not None else None
    PluginActivity.objects.create(
        team_id=team.id if team else 0,
        organization_id=organization.id if organization else None,
        user=user,
        scope=scope,
        item_id=str(plugin_id),
        activity=activity,
        detail={
            "id": None,
            "changes": None,
            "merge": None,
            "trigger": None,
            "name": name,
            "short_id": None,
            "type": None,
        },
    )


# --------------------------------------------------------------------------------------------
# Serializers
# --------------------------------------------------------------------------------------------


class PluginSerializer(serializers.ModelSerializer):
    """The record of spec 2.8 (``PluginSerializer``). ``url`` is read back without its query
    (``?private_token=…``) and taken from the raw body on create.

    ``latest_tag`` is the stored value: PostHog's serializer has a ``get_latest_tag`` method, but
    the field is a plain model field, so DRF never calls it.
    """

    url = serializers.SerializerMethodField()
    organization_id = serializers.SerializerMethodField()
    organization_name = serializers.SerializerMethodField()
    hog_function_migration_available = serializers.SerializerMethodField()
    config_schema = serializers.JSONField(required=False)
    capabilities = serializers.JSONField(required=False)
    metrics = serializers.JSONField(required=False, allow_null=True)
    public_jobs = serializers.JSONField(required=False, allow_null=True)

    class Meta:
        model = Plugin
        fields = [
            "id",
            "plugin_type",
            "name",
            "description",
            "url",
            "icon",
            "config_schema",
            "tag",
            "latest_tag",
            "is_global",
            "organization_id",
            "organization_name",
            "capabilities",
            "metrics",
            "public_jobs",
            "hog_function_migration_available",
        ]
        read_only_fields = ["id", "latest_tag", "hog_function_migration_available"]

    def get_url(self, plugin: Plugin) -> str | None:
        return str(plugin.url).split("?")[0] if plugin.url else None

    def get_organization_id(self, plugin: Plugin) -> str | None:
        return str(plugin.organization_id) if plugin.organization_id else None

    def get_organization_name(self, plugin: Plugin) -> str:
        return plugin.organization.name if plugin.organization_id else "posthog-inline"

    def get_hog_function_migration_available(self, plugin: Plugin) -> bool:
        return False  # the emulator has no hog function migrators

    def to_representation(self, instance):
        data = super().to_representation(instance)
        if profiles.is_spec():
            data.pop("hog_function_migration_available", None)
        return data

    def create(self, validated_data: dict) -> Plugin:
        organization = self.context["get_organization"]()
        if validated_data.get("is_global") and organization.plugins_access_level < LEVEL_ROOT:
            raise PermissionDenied(MESSAGE_GLOBAL)
        url = self.initial_data.get("url")
        validated_data["url"] = url
        validated_data["organization"] = organization
        validated_data["updated_at"] = now()
        archive = None
        if validated_data.get("plugin_type") != Plugin.PluginType.SOURCE:
            if isinstance(url, str) and url.startswith("file:"):
                raise ValidationError(f"Could not load plugin.json from: {url[5:].rstrip('/')}/plugin.json")
            archive = find_archive(url)
            data = fields_from_archive(archive)
            if "capabilities" not in validated_data:
                data["capabilities"] = (archive.plugin_json or {}).get("capabilities") or {}
            validated_data.update(data)
            if validated_data.get("plugin_type") not in (Plugin.PluginType.CUSTOM, Plugin.PluginType.REPOSITORY):
                validated_data["plugin_type"] = Plugin.PluginType.CUSTOM
            raise_if_plugin_installed(url)
        with transaction.atomic():
            plugin = Plugin.objects.create(**validated_data)
            if archive is not None:
                sync_source_files(plugin, archive)
        return plugin

    def update(self, instance: Plugin, validated_data: dict) -> Plugin:
        organization = self.context["get_organization"]()
        if "is_global" in validated_data and organization.plugins_access_level < LEVEL_ROOT:
            raise PermissionDenied(MESSAGE_GLOBAL)
        validated_data["updated_at"] = now()
        return super().update(instance, validated_data)


class PluginConfigSerializer(serializers.ModelSerializer):
    """A plugin config as ``exports_unsubscribe_configs`` returns it (profile ``posthog``)."""

    config = serializers.SerializerMethodField()
    plugin_info = serializers.SerializerMethodField()
    error = serializers.SerializerMethodField()
    team_id = serializers.IntegerField(read_only=True)

    class Meta:
        model = PluginConfig
        fields = [
            "id",
            "plugin",
            "enabled",
            "order",
            "config",
            "error",
            "team_id",
            "plugin_info",
            "created_at",
            "updated_at",
            "name",
            "description",
            "deleted",
        ]
        read_only_fields = fields

    def get_config(self, plugin_config: PluginConfig) -> dict:
        config = dict(plugin_config.config or {})
        schema = plugin_config.plugin.config_schema
        secret_keys = (
            {f.get("key") for f in schema if isinstance(f, dict) and f.get("secret")}
            if isinstance(schema, list)
            else set()
        )
        for key in secret_keys:
            if config.get(key):
                config[key] = SECRET_FIELD_VALUE
        return config

    def get_plugin_info(self, plugin_config: PluginConfig) -> dict:
        return PluginSerializer(plugin_config.plugin, context=self.context).data

    def get_error(self, plugin_config: PluginConfig) -> None:
        return None

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["name"] = data["name"] or instance.plugin.name
        data["description"] = data["description"] or instance.plugin.description
        return data


def activity_entry(entry: PluginActivity) -> dict:
    if entry.user is not None:
        user = {"first_name": entry.user.first_name, "email": entry.user.email}
    else:
        user = {"first_name": "System", "email": None, "is_system": True}
    return {
        "user": user,
        "activity": entry.activity,
        "scope": entry.scope,
        "item_id": entry.item_id,
        "detail": entry.detail,
        "created_at": serializers.DateTimeField().to_representation(entry.created_at),
    }


# --------------------------------------------------------------------------------------------
# Permissions and viewsets
# --------------------------------------------------------------------------------------------


class PluginsAccessLevelPermission(BasePermission):
    """The organization's ``plugins_access_level``: >= 3 to read, >= 6 to write (facts 6)."""

    message = MESSAGE_ACCESS_LEVEL

    def has_permission(self, request, view) -> bool:
        minimum = LEVEL_CONFIG if request.method in SAFE_METHODS else LEVEL_INSTALL
        return view.organization.plugins_access_level >= minimum

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return view.organization.plugins_access_level >= LEVEL_CONFIG
        if obj.organization_id != view.organization.id:
            self.message = MESSAGE_OTHER_ORGANIZATION
            return False
        return True


class PipelinePluginViewSet(OrganizationNestedMixin, viewsets.ModelViewSet):
    scope_object = "plugin"
    serializer_class = PluginSerializer
    permission_classes = [PluginsAccessLevelPermission]
    queryset = Plugin.objects.all()
    http_method_names = ["get", "post", "put", "patch", "delete", "head", "options"]
    family: str = DESTINATION
    #: actions the spec lists for this family besides CRUD; others answer 404 in profile ``spec``
    spec_actions = ("check_for_updates", "source", "update_source", "upgrade", "all_activity",
                    "exports_unsubscribe_configs", "repository", "unused")  # fmt: skip

    def dangerously_get_permissions(self):
        # PostHog: retrieving a global plugin skips the membership checks, so every organization
        # with plugin access can read it.
        if self.action == "retrieve":
            try:
                plugin = Plugin.objects.filter(pk=int(self.kwargs.get(self.lookup_field, ""))).first()
            except ValueError:
                plugin = None
            if plugin is not None and plugin.is_global:
                return [IsAuthenticated(), APIScopePermission(), PluginsAccessLevelPermission()]
        raise NotImplementedError()

    def visible_plugins(self):
        organization = self.organization
        configured = PluginConfig.objects.filter(team__organization=organization, deleted=False).values("plugin_id")
        return Plugin.objects.filter(Q(organization=organization) | Q(is_global=True) | Q(id__in=configured))

    def get_queryset(self):
        if self.organization.plugins_access_level < LEVEL_CONFIG:
            return Plugin.objects.none()
        visible = self.visible_plugins().only("id", "capabilities")
        ids = [plugin.id for plugin in visible if family_of(plugin.capabilities) == self.family]
        return Plugin.objects.filter(id__in=ids).select_related("organization").order_by("id")

    def require_action(self) -> None:
        if profiles.is_spec() and self.action not in self.spec_actions:
            raise NotFound("Endpoint not found.")

    def get_plugin_with_permissions(self, reason: str) -> Plugin:
        plugin = self.get_object()
        if plugin.organization_id != self.organization.id:
            raise NotFound()
        if self.organization.plugins_access_level < LEVEL_INSTALL:
            raise PermissionDenied(f"Plugin {reason} is not available for the current organization!")
        return plugin

    def record(self, plugin: Plugin) -> dict:
        return PluginSerializer(plugin, context=self.get_serializer_context()).data

    # ------------------------------------------------------------------ CRUD
    def perform_create(self, serializer) -> None:
        plugin = serializer.save()
        log_activity(self.request.user, self.organization, plugin.id, plugin.name, "installed")

    def destroy(self, request, *args, **kwargs):
        plugin = self.get_object()
        if plugin.is_global:
            raise ValidationError(MESSAGE_DELETE_GLOBAL)
        plugin_id, name = plugin.id, plugin.name
        plugin.delete()
        log_activity(request.user, self.organization, plugin_id, name, "uninstalled")
        return Response(status=status.HTTP_204_NO_CONTENT)

    # ------------------------------------------------------------ detail actions
    @action(methods=["GET"], detail=True)
    def check_for_updates(self, request, **kwargs):
        self.require_action()
        plugin = self.get_plugin_with_permissions("installation")
        Plugin.objects.filter(id=plugin.id).update(latest_tag=latest_tag_for(plugin.url), latest_tag_checked_at=now())
        plugin.refresh_from_db()
        data = self.record(plugin)
        return Response({"plugin": data} if profiles.is_posthog() else data)

    @action(methods=["GET"], detail=True)
    def source(self, request, **kwargs):
        self.require_action()
        plugin = self.get_plugin_with_permissions("source editing")
        if profiles.is_spec():
            return Response(self.record(plugin))
        return Response({f.filename: f.source for f in PluginSourceFile.objects.filter(plugin=plugin)})

    @action(methods=["PATCH"], detail=True)
    def update_source(self, request, **kwargs):
        """PostHog's ``update_source``: new files are created, changed ones updated, ``null`` deletes.

        A ``plugin.json`` that changes ``name`` or ``config`` renames the plugin / replaces its
        config_schema; ``index.ts`` is mirrored to the deprecated ``source`` column.
        """
        self.require_action()
        plugin = self.get_plugin_with_permissions("source editing")
        changes = request.data
        if not isinstance(changes, dict):
            raise ValidationError("Expected an object mapping file names to source text.")
        for key, value in changes.items():
            if value is not None and not isinstance(value, str):
                raise ValidationError({key: ["Expected a string, or null to delete the file."]})
        if isinstance(changes.get("plugin.json"), str):
            try:
                parsed = json.loads(changes["plugin.json"])
            except ValueError:
                parsed = None
            if not isinstance(parsed, dict):
                # PostHog crashes here (a 500); a 400 is kinder and writes nothing.
                raise ValidationError({"plugin.json": ["plugin.json must be a JSON object."]})

        with transaction.atomic():
            sources = {f.filename: f for f in PluginSourceFile.objects.filter(plugin=plugin)}
            performed_changes = False
            for key, text in changes.items():
                transpiled = text if key in TRANSPILED_FILES else None
                file_status = PluginSourceFile.Status.TRANSPILED if key in TRANSPILED_FILES else None
                if key not in sources:
                    performed_changes = True
                    sources[key], _ = PluginSourceFile.objects.update_or_create(
                        plugin=plugin,
                        filename=key,
                        defaults={"source": text, "transpiled": transpiled, "status": file_status, "error": None},
                    )
                elif sources[key].source != text or sources[key].transpiled != transpiled:
                    performed_changes = True
                    if text is None:
                        sources[key].delete()
                        del sources[key]
                    else:
                        sources[key].source = text
                        sources[key].transpiled = transpiled
                        sources[key].status = file_status
                        sources[key].error = None
                        sources[key].save()

            response = {name: f.source for name, f in sources.items() if f.source is not None}
            if response.get("plugin.json"):
                plugin_json = json.loads(response["plugin.json"])
                name = plugin_json.get("name")
                if isinstance(name, str) and name != plugin.name:
                    plugin.name = name
                    performed_changes = True
                if "config" in plugin_json and json.dumps(plugin_json["config"]) != json.dumps(plugin.config_schema):
                    plugin.config_schema = plugin_json["config"]
                    performed_changes = True
            if response.get("index.ts") and plugin.source != response["index.ts"]:
                plugin.source = response["index.ts"]
                performed_changes = True
            if performed_changes:
                plugin.updated_at = now()
                plugin.save()
        if profiles.is_spec():
            return Response(self.record(plugin))
        return Response(response)

    @action(methods=["POST"], detail=True)
    def upgrade(self, request, **kwargs):
        """Re-install the newest archive of the plugin's URL; source and local plugins are unchanged.

        As in PostHog, the type becomes ``custom`` (``update_validated_data_from_url`` starts from
        an empty dict, so even a ``repository`` plugin is reset).
        """
        self.require_action()
        plugin = self.get_plugin_with_permissions("upgrading")
        if plugin.plugin_type not in (Plugin.PluginType.SOURCE, Plugin.PluginType.LOCAL):
            archive = find_archive(plugin.url)
            data = fields_from_archive(archive)
            capabilities = (archive.plugin_json or {}).get("capabilities")
            if capabilities is not None:
                data["capabilities"] = capabilities
            data["plugin_type"] = Plugin.PluginType.CUSTOM
            data["updated_at"] = now()
            with transaction.atomic():
                for field, value in data.items():
                    setattr(plugin, field, value)
                plugin.save()
                sync_source_files(plugin, archive)
        return Response(self.record(plugin))

    # -------------------------------------------------------- collection actions
    @action(methods=["GET"], detail=False, url_path="activity")
    def all_activity(self, request, **kwargs):
        """``{results, next, previous, total_count}`` of the requester's current project, pages by ``page``."""
        self.require_action()
        try:
            limit = int(request.query_params.get("limit", "10"))
            page = int(request.query_params.get("page", "1"))
        except ValueError:
            raise ValidationError("limit and page must be integers.")
        limit, page = max(limit, 1), max(page, 1)
        team = request.user.team
        entries = PluginActivity.objects.filter(team_id=team.id if team else -1, scope__in=["Plugin", "PluginConfig"])
        total = entries.count()
        results = list(entries.select_related("user")[(page - 1) * limit : page * limit])

        def page_url(number: int) -> str:
            query = request.query_params.copy()
            query["page"] = str(number)
            query["limit"] = str(limit)
            return request.build_absolute_uri(request.path) + "?" + urlencode(sorted(query.items()))

        return Response(
            {
                "results": [activity_entry(entry) for entry in results],
                "next": page_url(page + 1) if total > page * limit else None,
                "previous": page_url(page - 1) if page > 1 else None,
                "total_count": total,
            }
        )

    @action(methods=["GET"], detail=False)
    def exports_unsubscribe_configs(self, request, **kwargs):
        """The organization's enabled configs, without global transformations and site apps."""
        self.require_action()
        global_allowed = Q(plugin__is_global=True) & Q(plugin__id__in=self._transformation_or_site_app_ids())
        local_site_apps = Q(plugin__is_global=False) & Q(plugin__id__in=self._site_app_ids())
        configs = (
            PluginConfig.objects.filter(team__organization=self.organization, enabled=True)
            .exclude(global_allowed)
            .exclude(local_site_apps)
            .select_related("plugin", "plugin__organization")
        )
        if profiles.is_spec():
            seen, records = set(), []
            for config in configs:
                if config.plugin_id not in seen:
                    seen.add(config.plugin_id)
                    records.append(self.record(config.plugin))
            return Response(records)
        return Response(PluginConfigSerializer(configs, many=True, context=self.get_serializer_context()).data)

    @staticmethod
    def _site_app_ids() -> list[int]:
        return [p.id for p in Plugin.objects.only("id", "capabilities") if p.capabilities == {}]

    @staticmethod
    def _transformation_or_site_app_ids() -> list[int]:
        ids = []
        for plugin in Plugin.objects.only("id", "capabilities"):
            capabilities = plugin.capabilities if isinstance(plugin.capabilities, dict) else {}
            methods = capabilities.get("methods") if isinstance(capabilities.get("methods"), list) else []
            if capabilities == {} or "processEvent" in methods:
                ids.append(plugin.id)
        return ids

    @action(methods=["GET"], detail=False)
    def repository(self, request, **kwargs):
        """The official catalogue: the newest archive of each URL registered with ``repository: true``."""
        self.require_action()
        newest: dict[str, PluginArchive] = {}
        for archive in PluginArchive.objects.filter(repository=True).order_by("sequence", "id"):
            newest[archive.url] = archive
        entries = []
        for archive in newest.values():
            plugin_json = archive.plugin_json or {}
            if profiles.is_spec():
                entry = {
                    "id": None,
                    "plugin_type": Plugin.PluginType.REPOSITORY,
                    "name": plugin_json.get("name"),
                    "description": plugin_json.get("description", ""),
                    "url": archive.url,
                    "icon": plugin_json.get("icon"),
                    "config_schema": plugin_json.get("config", []),
                    "tag": archive.tag,
                    "latest_tag": archive.tag,
                    "is_global": False,
                    "organization_id": None,
                    "organization_name": None,
                    "capabilities": plugin_json.get("capabilities") or {},
                    "metrics": {},
                    "public_jobs": plugin_json.get("publicJobs", {}),
                }
            else:
                entry = {
                    "name": plugin_json.get("name"),
                    "url": archive.url,
                    "description": plugin_json.get("description", ""),
                    "icon": plugin_json.get("icon"),
                    "verified": True,
                    "maintainer": "official",
                }
            entries.append(entry)
        return Response(entries)

    @action(methods=["GET"], detail=False)
    def unused(self, request, **kwargs):
        """Visible plugins of the family with no enabled config in the organization (by ID)."""
        self.require_action()
        enabled = PluginConfig.objects.filter(enabled=True, team__organization=self.organization).values("plugin_id")
        plugins = self.get_queryset().exclude(id__in=enabled).order_by("id")
        if profiles.is_spec():
            return Response([self.record(plugin) for plugin in plugins])
        return Response([plugin.id for plugin in plugins])


class PipelineDestinationViewSet(PipelinePluginViewSet):
    family = DESTINATION


class PipelineFrontendAppViewSet(PipelinePluginViewSet):
    family = FRONTEND_APP


class PipelineImportAppViewSet(PipelinePluginViewSet):
    family = IMPORT_APP
    spec_actions = ("check_for_updates",)


def register(router) -> None:
    for viewset in (PipelineDestinationViewSet, PipelineFrontendAppViewSet, PipelineImportAppViewSet):
        collection = COLLECTIONS[viewset.family]
        router.register(organization_prefix(collection), viewset, basename=f"organization_{collection}")
