"""Plugin code in the database: registered archives looked up, source files written.

The database side of :mod:`posthog_emulator.rules.plugins`: the rules decide what an install by
URL resolves to and which files change; the functions here query ``PluginArchive`` and write
``PluginSourceFile`` rows accordingly, as PostHog's ``PluginSourceFile.objects`` does.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.timezone import now
from rest_framework.exceptions import ValidationError

from posthog_emulator.api.shared import rule_errors
from posthog_emulator.models import Plugin, PluginArchive, PluginSourceFile
from posthog_emulator.rules.plugins import (
    ARCHIVE_CODE_FILES,
    MESSAGE_NO_PLUGIN_JSON,
    archive_files,
    archive_reference,
    bare_url,
    is_transpiled,
    newest_by_url,
    parse_plugin_url,
    plugin_fields_from_sources,
    source_file_changes,
    transpiled_text,
)

# --------------------------------------------------------------------------------------------
# Archives
# --------------------------------------------------------------------------------------------


def newest_archive(root: str) -> PluginArchive | None:
    """The newest registration of a URL (its "latest" tag)."""
    return PluginArchive.objects.filter(url=root).order_by("-sequence", "-id").first()


def newest_archives(**filters) -> dict[str, PluginArchive]:
    """The newest archive of each registered URL (of those matching ``filters``): ``{url: archive}``."""
    return newest_by_url(PluginArchive.objects.filter(**filters).order_by("sequence", "id"))


def find_archive(url) -> PluginArchive:
    """The registered archive a URL resolves to: its tag, else the newest registered tag."""
    with rule_errors():
        root, tag = archive_reference(url)
    archive = PluginArchive.objects.filter(url=root, tag=tag).first() if tag else newest_archive(root)
    if archive is None:
        raise ValidationError(MESSAGE_NO_PLUGIN_JSON)
    return archive


def latest_tag_for(url) -> str | None:
    """The tag ``check_for_updates`` reports: the one in the URL, else the newest registered."""
    parsed = parse_plugin_url(url)
    if parsed is None:
        return None
    root, tag = parsed
    if tag:
        return tag
    archive = newest_archive(root)
    return archive.tag if archive else None


def raise_if_plugin_installed(url: str) -> None:
    """A URL (without its query) is installed once, in any organization."""
    bare = bare_url(url)
    if Plugin.objects.filter(Q(url=bare) | Q(url__startswith=f"{bare}?")).exists():
        raise ValidationError(f'Plugin from URL "{bare}" already installed!')


# --------------------------------------------------------------------------------------------
# Source files
# --------------------------------------------------------------------------------------------


def source_file_fields(filename: str, text: str | None) -> dict:
    """The columns of a code file stored with ``text`` (transpiled by copying where PostHog transpiles)."""
    return {
        "source": text,
        "transpiled": transpiled_text(filename, text),
        "status": PluginSourceFile.Status.TRANSPILED if is_transpiled(filename) else None,
        "error": None,
    }


def sync_source_files(plugin: Plugin, archive: PluginArchive) -> None:
    """``PluginSourceFile.objects.sync_from_plugin_archive``: plugin.json and the code files."""
    plugin_json_text, code_files = archive_files(archive)
    PluginSourceFile.objects.update_or_create(
        plugin=plugin, filename="plugin.json", defaults={"source": plugin_json_text, "transpiled": None, "status": None}
    )
    for filename in ARCHIVE_CODE_FILES:
        if filename in code_files:
            PluginSourceFile.objects.update_or_create(
                plugin=plugin, filename=filename, defaults=source_file_fields(filename, code_files[filename])
            )
        else:
            PluginSourceFile.objects.filter(plugin=plugin, filename=filename).delete()
    if code_files.get("index.ts") is not None:
        plugin.source = code_files["index.ts"]
        plugin.save(update_fields=["source"])


def update_source_files(plugin: Plugin, changes: dict) -> dict[str, str]:
    """PostHog's ``update_source`` on checked ``changes``: write the file changes, then the plugin
    fields they imply. Answers the stored files (name to text) as PostHog does."""
    with transaction.atomic():
        sources = {f.filename: f for f in PluginSourceFile.objects.filter(plugin=plugin)}
        file_changes = source_file_changes({name: (f.source, f.transpiled) for name, f in sources.items()}, changes)
        for what, name, text in file_changes:
            if what == "create":
                sources[name], _ = PluginSourceFile.objects.update_or_create(
                    plugin=plugin, filename=name, defaults=source_file_fields(name, text)
                )
            elif what == "delete":
                sources.pop(name).delete()
            else:
                for field, value in source_file_fields(name, text).items():
                    setattr(sources[name], field, value)
                sources[name].save()
        stored = {name: f.source for name, f in sources.items() if f.source is not None}
        changed = plugin_fields_from_sources(stored, plugin.name, plugin.config_schema, plugin.source)
        for field, value in changed.items():
            setattr(plugin, field, value)
        if file_changes or changed:
            plugin.updated_at = now()
            plugin.save()
    return stored
