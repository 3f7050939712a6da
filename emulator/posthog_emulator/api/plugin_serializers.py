"""Serializers of pipeline plugins (spec 2.8; docs/posthog_facts.md §6): the plugin record, plugin configs as
``exports_unsubscribe_configs`` shows them, activity entries and catalogue entries.

Installs by URL resolve through :mod:`posthog_emulator.api.plugin_sources`; the rules are in
:mod:`posthog_emulator.rules.plugins` and :mod:`posthog_emulator.rules.levels`.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.timezone import now
from rest_framework import serializers
from rest_framework.exceptions import ValidationError

from posthog_emulator import profiles
from posthog_emulator.api.plugin_sources import find_archive, raise_if_plugin_installed, sync_source_files
from posthog_emulator.api.shared import ModelSerializer, rule_errors
from posthog_emulator.models import Plugin, PluginActivity, PluginArchive, PluginConfig
from posthog_emulator.rules.levels import check_global_plugins
from posthog_emulator.rules.plugins import archive_capabilities, bare_url, fields_from_archive, masked_config


class PluginSerializer(ModelSerializer):
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
        return bare_url(str(plugin.url)) if plugin.url else None

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
        if validated_data.get("is_global"):
            with rule_errors():
                check_global_plugins(organization.plugins_access_level)
        url = self.initial_data.get("url")
        validated_data["url"] = url
        validated_data["organization"] = organization
        validated_data["updated_at"] = now()
        archive = None
        if validated_data.get("plugin_type") != Plugin.PluginType.SOURCE:
            if isinstance(url, str) and url.startswith("file:"):
                raise ValidationError(f"Could not load plugin.json from: {url[5:].rstrip('/')}/plugin.json")
            archive = find_archive(url)
            with rule_errors():
                data = fields_from_archive(archive)
            if "capabilities" not in validated_data:
                data["capabilities"] = archive_capabilities(archive) or {}
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
        if "is_global" in validated_data:
            with rule_errors():
                check_global_plugins(organization.plugins_access_level)
        validated_data["updated_at"] = now()
        return super().update(instance, validated_data)


class PluginConfigSerializer(ModelSerializer):
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
        return masked_config(plugin_config.config, plugin_config.plugin.config_schema)

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


def repository_entry(archive: PluginArchive) -> dict:
    """A catalogue entry of ``GET .../repository``: plugin-shaped in profile ``spec``, PostHog's
    catalogue entry in profile ``posthog``."""
    plugin_json = archive.plugin_json or {}
    if profiles.is_spec():
        return {
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
    return {
        "name": plugin_json.get("name"),
        "url": archive.url,
        "description": plugin_json.get("description", ""),
        "icon": plugin_json.get("icon"),
        "verified": True,
        "maintainer": "official",
    }
