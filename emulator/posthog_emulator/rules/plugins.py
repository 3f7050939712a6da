"""Rules of pipeline plugins (docs/posthog_facts.md §6): families, capability filters, plugin URLs, what an archive
installs, source-file changes, secret config values.

Mirrors ``products/cdp/backend/api/plugin.py``, ``posthog/plugins/utils.py`` and
``PluginSourceFile.objects.sync_from_plugin_archive``. Nothing here reads or writes the database:
the ``/api/`` layer (:mod:`posthog_emulator.api.plugin_sources`) looks archives up and writes the
files these functions decide on. Access-level rules are in :mod:`posthog_emulator.rules.levels`.
"""

from __future__ import annotations

import json
import re

from posthog_emulator.rules import RuleError

MESSAGE_OTHER_ORGANIZATION = "This plugin installation is managed by another organization"
MESSAGE_DELETE_GLOBAL = "This plugin is marked as global! Make it local before uninstallation"
MESSAGE_BAD_URL = "Must be a GitHub/GitLab repository or a npm package URL!"
MESSAGE_NO_PLUGIN_JSON = "Could not find plugin.json in the plugin"
MESSAGE_STATELESS = "Stateless plugins cannot have a config!"

SECRET_FIELD_VALUE = "**************** POSTHOG SECRET FIELD ****************"
ARCHIVE_CODE_FILES = ("index.ts", "frontend.tsx", "site.ts")
TRANSPILED_FILES = ("site.ts", "frontend.tsx")

DESTINATION, FRONTEND_APP, IMPORT_APP = "destination", "frontend_app", "import_app"
#: The fourth family ``products/cdp/backend/routes.py`` registers (``pipeline_transformations``).
TRANSFORMATION = "transformation"

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
# Families and capabilities
# --------------------------------------------------------------------------------------------


def _methods(capabilities) -> list:
    methods = capabilities.get("methods")
    return methods if isinstance(methods, list) else []


def family_of(capabilities) -> str | None:
    """The family a plugin with these capabilities is listed in (or None: e.g. a transformation)."""
    capabilities = capabilities if isinstance(capabilities, dict) else {}
    has_methods = "methods" in capabilities
    method_list = _methods(capabilities)
    if has_methods and ("onEvent" in method_list or "composeWebhook" in method_list):
        return DESTINATION
    if not has_methods and "scheduled_tasks" not in capabilities:
        return FRONTEND_APP
    if "scheduled_tasks" in capabilities and capabilities["scheduled_tasks"] != []:
        return IMPORT_APP
    if has_methods and not {"onEvent", "composeWebhook", "processEvent"} & set(method_list):
        return IMPORT_APP
    return None


def in_family(capabilities, family: str) -> bool:
    """Whether a family's collection lists a plugin with these capabilities. Transformations are the
    plugins whose ``methods`` contain ``processEvent`` (``PipelineTransformationsViewSet``), so a
    plugin may be a destination and a transformation at once."""
    if family == TRANSFORMATION:
        capabilities = capabilities if isinstance(capabilities, dict) else {}
        return "methods" in capabilities and "processEvent" in _methods(capabilities)
    return family_of(capabilities) == family


def is_site_app(capabilities) -> bool:
    """A site app: capabilities that are the empty object (PostHog's ``Q(plugin__capabilities={})``)."""
    return isinstance(capabilities, dict) and not capabilities


def is_transformation_or_site_app(capabilities) -> bool:
    """A site app, or a plugin whose ``methods`` list holds ``processEvent`` (a transformation).

    PostHog's ``Q(plugin__capabilities__methods__contains=["processEvent"]) |
    Q(plugin__capabilities={})``: capabilities that are not an object (a list, a string, null)
    are neither, exactly as :func:`is_site_app` says."""
    return is_site_app(capabilities) or (isinstance(capabilities, dict) and "processEvent" in _methods(capabilities))


# --------------------------------------------------------------------------------------------
# URLs and archives
# --------------------------------------------------------------------------------------------


def bare_url(url: str) -> str:
    """A plugin URL without its query (``?private_token=…``), as PostHog shows and compares it."""
    return url.split("?")[0]


def parse_plugin_url(url) -> tuple[str, str | None] | None:
    """``(root URL, tag or None)`` for a GitHub/GitLab/npm URL (query such as ``?private_token=`` ignored)."""
    if not isinstance(url, str):
        return None
    bare = bare_url(url)
    for pattern in _URL_PATTERNS:
        match = pattern.match(bare)
        if match:
            return match.group("root"), match.group("tag")
    return None


def archive_reference(url) -> tuple[str, str | None]:
    """What an install by ``url`` asks for: ``(root URL, tag or None for the newest)``."""
    parsed = parse_plugin_url(url)
    if parsed is None:
        raise RuleError(MESSAGE_BAD_URL)
    return parsed


def newest_by_url(archives) -> dict:
    """The newest of ``archives`` (given oldest first) for each URL: ``{url: archive}``."""
    newest = {}
    for archive in archives:
        newest[archive.url] = archive
    return newest


def fields_from_archive(archive) -> dict:
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
        raise RuleError(MESSAGE_STATELESS)
    return data


def archive_capabilities(archive):
    """The capabilities an archive declares (an emulator convention), or ``None``."""
    return (archive.plugin_json or {}).get("capabilities")


# --------------------------------------------------------------------------------------------
# Source files
# --------------------------------------------------------------------------------------------


def is_transpiled(filename: str) -> bool:
    """Whether a file is stored with its transpiled text (``site.ts``, ``frontend.tsx``)."""
    return filename in TRANSPILED_FILES


def transpiled_text(filename: str, text: str | None) -> str | None:
    """The transpiled text stored beside ``text`` (the emulator transpiles by copying)."""
    return text if is_transpiled(filename) else None


def archive_files(archive) -> tuple[str, dict[str, str]]:
    """What syncing a plugin from ``archive`` writes: the ``plugin.json`` text, and the code files
    of :data:`ARCHIVE_CODE_FILES` the archive has (``{name: text}``, in that order); the others are
    deleted. ``index.js`` stands in for a missing ``index.ts``."""
    files = dict(archive.files or {})
    if "index.ts" not in files and "index.js" in files:
        files["index.ts"] = files["index.js"]
    plugin_json_text = files.get("plugin.json") or json.dumps(archive.plugin_json, indent=2)
    return plugin_json_text, {name: files[name] for name in ARCHIVE_CODE_FILES if name in files}


def check_source_changes(changes) -> None:
    """An ``update_source`` body: file name to text (``null`` deletes); ``plugin.json`` an object."""
    if not isinstance(changes, dict):
        raise RuleError("Expected an object mapping file names to source text.")
    for key, value in changes.items():
        if value is not None and not isinstance(value, str):
            raise RuleError("Expected a string, or null to delete the file.", attr=key)
    if isinstance(changes.get("plugin.json"), str):
        try:
            parsed = json.loads(changes["plugin.json"])
        except ValueError:
            parsed = None
        if not isinstance(parsed, dict):
            # PostHog crashes here (a 500); a 400 is kinder and writes nothing.
            raise RuleError("plugin.json must be a JSON object.", attr="plugin.json")


def source_file_changes(current: dict[str, tuple], changes: dict) -> list[tuple[str, str, str | None]]:
    """PostHog's ``update_source``, decided: ``current`` maps the stored file names to
    ``(source, transpiled)``; answers ``[(what, name, text)]`` in the order of ``changes``, where
    ``what`` is ``create`` (a new name with text), ``update`` or ``delete`` (``null`` for an
    existing file). Unchanged files are left out, and so is ``null`` for a file that does not
    exist: deleting nothing creates nothing (no empty file)."""
    result = []
    for name, text in changes.items():
        if name not in current:
            if text is not None:
                result.append(("create", name, text))
        elif current[name] != (text, transpiled_text(name, text)):
            result.append(("delete" if text is None else "update", name, text))
    return result


def plugin_fields_from_sources(sources: dict[str, str], name, config_schema, source) -> dict:
    """The plugin fields the stored files change: ``name`` and ``config_schema`` from
    ``plugin.json``, ``source`` (deprecated) from ``index.ts``; only those that differ."""
    changed = {}
    if sources.get("plugin.json"):
        plugin_json = json.loads(sources["plugin.json"])
        new_name = plugin_json.get("name")
        if isinstance(new_name, str) and new_name != name:
            changed["name"] = new_name
        if "config" in plugin_json and json.dumps(plugin_json["config"]) != json.dumps(config_schema):
            changed["config_schema"] = plugin_json["config"]
    if sources.get("index.ts") and source != sources["index.ts"]:
        changed["source"] = sources["index.ts"]
    return changed


# --------------------------------------------------------------------------------------------
# Configs
# --------------------------------------------------------------------------------------------


def masked_config(config: dict | None, config_schema) -> dict:
    """A plugin config with the values of the schema's secret fields replaced, as PostHog shows it."""
    config = dict(config or {})
    secret_keys = (
        {f.get("key") for f in config_schema if isinstance(f, dict) and f.get("secret")}
        if isinstance(config_schema, list)
        else set()
    )
    for key in secret_keys:
        if config.get(key):
            config[key] = SECRET_FIELD_VALUE
    return config
