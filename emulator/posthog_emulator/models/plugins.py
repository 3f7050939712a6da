"""Pipeline plugins: plugins, their source files, plugin configs, activity, and the archive registry.

Field names and defaults follow PostHog's ``products/cdp/backend/models/plugin.py`` (docs/posthog_facts.md §6).
``PluginArchive`` is the emulator's stand-in for GitHub/GitLab/npm: the emulator cannot download
plugin archives, so tests register them through ``POST /_emulator/plugin_archives`` and installs
by URL resolve against it.

Registered through :mod:`posthog_emulator.models`, so the tables are created with the rest.
"""

from __future__ import annotations

from django.db import models

__all__ = ["Plugin", "PluginSourceFile", "PluginConfig", "PluginActivity", "PluginArchive"]


class Plugin(models.Model):
    """A plugin installed in (owned by) an organization, or a global one (docs/posthog_facts.md §6, "Fields")."""

    class PluginType(models.TextChoices):
        LOCAL = "local", "local"  # url starts with "file:"
        CUSTOM = "custom", "custom"  # a GitHub/GitLab/npm archive
        REPOSITORY = "repository", "repository"  # same, from the official repository
        SOURCE = "source", "source"  # written in the browser
        INLINE = "inline", "inline"  # built into the plugin server, url starts with "inline:"

    organization = models.ForeignKey(
        "posthog_emulator.Organization", on_delete=models.CASCADE, null=True, related_name="plugins"
    )
    plugin_type = models.CharField(max_length=200, null=True, blank=True, choices=PluginType.choices, default=None)
    is_global = models.BooleanField(default=False)
    is_stateless = models.BooleanField(default=False, null=True, blank=True)
    name = models.CharField(max_length=200, null=True, blank=True)
    description = models.TextField(null=True, blank=True)
    url = models.CharField(max_length=800, null=True, blank=True, unique=True)
    icon = models.CharField(max_length=800, null=True, blank=True)
    config_schema = models.JSONField(default=dict, blank=True)
    tag = models.CharField(max_length=200, null=True, blank=True)
    latest_tag = models.CharField(max_length=800, null=True, blank=True)
    latest_tag_checked_at = models.DateTimeField(null=True, blank=True)
    capabilities = models.JSONField(default=dict)
    metrics = models.JSONField(default=dict, null=True, blank=True)
    public_jobs = models.JSONField(default=dict, null=True, blank=True)
    source = models.TextField(blank=True, null=True)  # deprecated mirror of index.ts
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name or f"ID {self.id}"


class PluginSourceFile(models.Model):
    """One file of a plugin's code (``plugin.json``, ``index.ts``, ``frontend.tsx``, ``site.ts`` ...)."""

    class Status(models.TextChoices):
        LOCKED = "LOCKED", "locked"
        TRANSPILED = "TRANSPILED", "transpiled"
        ERROR = "ERROR", "error"

    plugin = models.ForeignKey(Plugin, on_delete=models.CASCADE, related_name="source_files")
    filename = models.CharField(max_length=200)
    source = models.TextField(blank=True, null=True)
    transpiled = models.TextField(blank=True, null=True)
    status = models.CharField(max_length=20, choices=Status.choices, null=True, blank=True)
    error = models.TextField(blank=True, null=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["plugin", "filename"], name="unique_plugin_source_filename")]


class PluginConfig(models.Model):
    """A plugin enabled (or not) in one project. Created through the control API only."""

    team = models.ForeignKey("posthog_emulator.Team", on_delete=models.CASCADE, null=True)
    plugin = models.ForeignKey(Plugin, on_delete=models.CASCADE, related_name="configs")
    enabled = models.BooleanField(default=False)
    order = models.IntegerField(default=0)
    config = models.JSONField(default=dict)
    name = models.CharField(max_length=400, null=True, blank=True)
    description = models.CharField(max_length=1000, null=True, blank=True)
    deleted = models.BooleanField(default=False, null=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["order", "plugin_id", "id"]


class PluginActivity(models.Model):
    """An activity-log entry of scope ``Plugin`` or ``PluginConfig`` (docs/posthog_facts.md §6, ``activity``)."""

    team_id = models.IntegerField(default=0)
    organization_id = models.UUIDField(null=True)
    user = models.ForeignKey("posthog_emulator.User", on_delete=models.SET_NULL, null=True)
    scope = models.CharField(max_length=79)
    item_id = models.CharField(max_length=72, null=True)
    activity = models.CharField(max_length=79)
    detail = models.JSONField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]


class PluginArchive(models.Model):
    """A registered plugin archive: what GitHub/GitLab/npm would serve for ``url`` at ``tag``.

    The newest registration of a URL is its "latest" tag. ``repository`` marks archives listed
    in the official plugin repository (``GET .../repository``).
    """

    url = models.CharField(max_length=800)
    tag = models.CharField(max_length=200)
    plugin_json = models.JSONField(default=dict)
    files = models.JSONField(default=dict)
    repository = models.BooleanField(default=False)
    registered_at = models.DateTimeField(auto_now=True)
    sequence = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["sequence", "id"]
        constraints = [models.UniqueConstraint(fields=["url", "tag"], name="unique_plugin_archive_tag")]
