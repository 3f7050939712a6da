"""Pipeline plugins in four families (spec 2.8 / 4.6, docs/posthog_facts.md §6 and §10.7).

``/api/organizations/<organization_id>/pipeline_destinations``, ``pipeline_frontend_apps``,
``pipeline_import_apps`` (the spec's) and ``pipeline_transformations`` (``processEvent`` plugins,
registered by PostHog's ``products/cdp/backend/routes.py``, not in the spec): one record shape, integer IDs, scope object ``plugin``. Mirrors
``products/cdp/backend/api/plugin.py`` (``PluginViewSet`` and its ``Pipeline*ViewSet`` subclasses):

* **Families** are views on the same plugins, filtered by ``capabilities`` (docs/posthog_facts.md §6):
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

The serializers are in :mod:`posthog_emulator.api.plugin_serializers`, archive look-ups and
source files in :mod:`posthog_emulator.api.plugin_sources`, the rules in
:mod:`posthog_emulator.rules.plugins` and :mod:`posthog_emulator.rules.levels`.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.db import transaction
from django.db.models import Q
from django.utils.timezone import now
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import SAFE_METHODS, BasePermission, IsAuthenticated
from rest_framework.response import Response

from posthog_emulator import profiles
from posthog_emulator.api.plugin_serializers import (
    PluginConfigSerializer,
    PluginSerializer,
    activity_entry,
    repository_entry,
)
from posthog_emulator.api.plugin_sources import (
    find_archive,
    latest_tag_for,
    newest_archives,
    sync_source_files,
    update_source_files,
)
from posthog_emulator.api.shared import rule_errors
from posthog_emulator.limits import MAX_PAGE
from posthog_emulator.models import Plugin, PluginActivity, PluginConfig, PluginSourceFile
from posthog_emulator.permissions import APIScopePermission
from posthog_emulator.routing import OrganizationNestedMixin, organization_prefix
from posthog_emulator.rules.levels import (
    MESSAGE_PLUGINS_ACCESS_LEVEL,
    check_plugin_action,
    plugins_readable,
    plugins_writable,
)
from posthog_emulator.rules.plugins import (
    DESTINATION,
    FRONTEND_APP,
    IMPORT_APP,
    TRANSFORMATION,
    MESSAGE_DELETE_GLOBAL,
    MESSAGE_OTHER_ORGANIZATION,
    archive_capabilities,
    check_source_changes,
    in_family,
    fields_from_archive,
    is_site_app,
    is_transformation_or_site_app,
)

COLLECTIONS = {
    DESTINATION: "pipeline_destinations",
    FRONTEND_APP: "pipeline_frontend_apps",
    IMPORT_APP: "pipeline_import_apps",
    TRANSFORMATION: "pipeline_transformations",
}


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
# Permissions and viewsets
# --------------------------------------------------------------------------------------------


class PluginsAccessLevelPermission(BasePermission):
    """The organization's ``plugins_access_level``: >= 3 to read, >= 6 to write (docs/posthog_facts.md §6)."""

    message = MESSAGE_PLUGINS_ACCESS_LEVEL

    def has_permission(self, request, view) -> bool:
        level = view.organization.plugins_access_level
        return plugins_readable(level) if request.method in SAFE_METHODS else plugins_writable(level)

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return plugins_readable(view.organization.plugins_access_level)
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
        if not plugins_readable(self.organization.plugins_access_level):
            return Plugin.objects.none()
        visible = self.visible_plugins().only("id", "capabilities")
        ids = [plugin.id for plugin in visible if self.family is None or in_family(plugin.capabilities, self.family)]
        return Plugin.objects.filter(id__in=ids).select_related("organization").order_by("id")

    def require_action(self) -> None:
        if profiles.is_spec() and self.action not in self.spec_actions:
            raise NotFound("Endpoint not found.")

    def get_plugin_with_permissions(self, reason: str) -> Plugin:
        plugin = self.get_object()
        if plugin.organization_id != self.organization.id:
            raise NotFound()
        with rule_errors():
            check_plugin_action(self.organization.plugins_access_level, reason)
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
        with rule_errors():
            check_source_changes(request.data)
        response = update_source_files(plugin, request.data)
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
            with rule_errors():
                data = fields_from_archive(archive)
            capabilities = archive_capabilities(archive)
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
        # Clamped like the limit/offset pages (posthog_emulator.limits): no 64-bit overflow in SQLite.
        limit, page = min(max(limit, 1), MAX_PAGE), min(max(page, 1), MAX_PAGE)
        team = request.user.team
        entries = PluginActivity.objects.filter(team_id=team.id if team else -1, scope__in=["Plugin", "PluginConfig"])
        total = entries.count()
        start = (page - 1) * limit
        results = [] if start >= total else list(entries.select_related("user")[start : start + limit])

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
        global_allowed = Q(plugin__is_global=True) & Q(plugin__id__in=self._ids_where(is_transformation_or_site_app))
        local_site_apps = Q(plugin__is_global=False) & Q(plugin__id__in=self._ids_where(is_site_app))
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
    def _ids_where(rule) -> list[int]:
        """IDs of all plugins whose capabilities satisfy ``rule``."""
        return [p.id for p in Plugin.objects.only("id", "capabilities") if rule(p.capabilities)]

    @action(methods=["GET"], detail=False)
    def repository(self, request, **kwargs):
        """The official catalogue: the newest archive of each URL registered with ``repository: true``."""
        self.require_action()
        return Response([repository_entry(archive) for archive in newest_archives(repository=True).values()])

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


class PipelineTransformationViewSet(PipelinePluginViewSet):
    """``pipeline_transformations``: not in the spec; PostHog's ``PipelineTransformationsViewSet`` is a
    full plugin viewset filtered to ``processEvent`` plugins, so both profiles serve every action."""

    family = TRANSFORMATION
    spec_actions = PipelinePluginViewSet.spec_actions


class PluginViewSet(PipelinePluginViewSet):
    """``/api/organizations/<id>/plugins``: every plugin the organization sees, whatever its family
    (``products/cdp/backend/routes.py``: ``routers.organizations.register(r"plugins",
    plugin.PluginViewSet, ...)``; the pipeline families are filtered subclasses of it)."""

    family = None


def register(router) -> None:
    for viewset in (PipelineDestinationViewSet, PipelineFrontendAppViewSet, PipelineImportAppViewSet,
                    PipelineTransformationViewSet):
        collection = COLLECTIONS[viewset.family]
        router.register(organization_prefix(collection), viewset, basename=f"organization_{collection}")
    router.register(organization_prefix("plugins"), PluginViewSet, basename="organization_plugins")
