# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Pipeline plugins (destinations, frontend apps, import apps, transformations): families, lookups, source files.

PostHog is removing its legacy plugin API (creating plugins was shut off on Cloud, destinations and
site apps move to hog functions, and PostHog/posthog#97440 removes the plugin routes and the
``plugin`` scope); every task says so with a deprecation (:data:`DEPRECATION`).

PostHog serves one plugin record under three collections, each a view filtered by the plugin's
``capabilities``. The helpers here are pure (no requests), so the
rules are unit-tested: which family a plugin belongs to, how URLs compare, which source files
differ, and how to read the two answer shapes of the custom actions (our spec's plugin record,
real PostHog's own shapes).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import json

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._common import list_or_get
from ansible_collections.posthog.admin.plugins.module_utils._resource import UPDATE, Failure, Resource, Scope, Step
from ansible_collections.posthog.admin.plugins.module_utils._resource import Field, options_of
from ansible_collections.posthog.admin.plugins.module_utils._section import Section, options_from

FAMILIES = {
    "destination": "pipeline_destinations",
    "frontend_app": "pipeline_frontend_apps",
    "import_app": "pipeline_import_apps",
    # products/cdp/backend/routes.py registers a fourth family: PipelineTransformationsViewSet, the
    # plugins whose capabilities.methods contain processEvent.
    "transformation": "pipeline_transformations",
}
FAMILY_KINDS = {
    "destination": "pipeline destination",
    "frontend_app": "pipeline frontend app",
    "import_app": "pipeline import app",
    "transformation": "pipeline transformation",
}
# Actions the spec lists per family besides CRUD (4.6): import apps have only check_for_updates.
FAMILY_ACTIONS = {
    "destination": frozenset(["check_for_updates", "source", "update_source", "upgrade", "activity",
                              "exports_unsubscribe_configs", "repository", "unused"]),
    "frontend_app": frozenset(["check_for_updates", "source", "update_source", "upgrade", "activity",
                               "exports_unsubscribe_configs", "repository", "unused"]),
    "import_app": frozenset(["check_for_updates"]),
    # Not in the spec; PostHog's viewset is a full PluginViewSet, like the destinations'.
    "transformation": frozenset(["check_for_updates", "source", "update_source", "upgrade", "activity",
                                 "exports_unsubscribe_configs", "repository", "unused"]),
}
# Capabilities given to a new source plugin when none are set, so that it lands in its family.
DEFAULT_CAPABILITIES = {
    "destination": {"methods": ["onEvent"]},
    "frontend_app": {},
    "import_app": {"scheduled_tasks": ["runEveryMinute"]},
    "transformation": {"methods": ["processEvent"]},
}
# Plugin types PostHog installs from a URL (and can upgrade); the others have no upstream.
URL_TYPES = ("custom", "repository")
# Files a purge never deletes.
KEPT_FILES = ("plugin.json",)

DEPRECATION = ("PostHog is removing its legacy plugin API (pipeline_* routes and the plugin scope, "
               "PostHog/posthog#97440; plugins can no longer be created on PostHog Cloud): move destinations, "
               "transformations and site apps to hog functions (/api/projects/<project_id>/hog_functions/, "
               "PostHog's Data pipelines) with posthog.admin.hog_function, as the collection's guide "
               "'From pipeline plugins to hog functions' (docs/docsite/rst/guide_plugins_to_hog_functions.rst) "
               "shows, and remove pipeline_plugin tasks once that is done")
DEPRECATION_VERSION = "2.0.0"

NO_PAK_HINT = ("PostHog does not allow personal API keys to call this plugin action (it has no "
               "scope mapping); it can only be done in the PostHog web app by a logged-in user")


def families_of(capabilities):
    """Every family PostHog lists a plugin with these ``capabilities`` under (a plugin with both
    ``onEvent`` and ``processEvent`` is a destination and a transformation)."""
    found = set()
    first = family_of(capabilities)
    if first:
        found.add(first)
    capabilities = capabilities if isinstance(capabilities, dict) else {}
    methods = capabilities.get("methods") if isinstance(capabilities.get("methods"), list) else []
    if "processEvent" in methods:
        found.add("transformation")
    return found


def family_of(capabilities):
    """The family PostHog lists a plugin with these ``capabilities`` under, or None.

    destination: ``methods`` contains onEvent or composeWebhook; frontend_app: neither a
    ``methods`` nor a ``scheduled_tasks`` key; import_app: non-empty ``scheduled_tasks``, or
    ``methods`` without onEvent, composeWebhook and processEvent. None: e.g. a transformation
    (``processEvent``), listed in none of the three.
    """
    capabilities = capabilities if isinstance(capabilities, dict) else {}
    has_methods = "methods" in capabilities
    methods = capabilities.get("methods") if isinstance(capabilities.get("methods"), list) else []
    if has_methods and ("onEvent" in methods or "composeWebhook" in methods):
        return "destination"
    if not has_methods and "scheduled_tasks" not in capabilities:
        return "frontend_app"
    if "scheduled_tasks" in capabilities and capabilities["scheduled_tasks"] != []:
        return "import_app"
    if has_methods and not set(["onEvent", "composeWebhook", "processEvent"]) & set(methods):
        return "import_app"
    return None


def normalize_url(url):
    """A plugin URL as PostHog shows it: without its query (``?private_token=...``) and trailing slash."""
    if not url:
        return url
    return str(url).split("?", 1)[0].rstrip("/")


def unwrap_plugin(answer):
    """The plugin record from ``check_for_updates``: PostHog wraps it in ``{"plugin": ...}``, the spec does not."""
    if isinstance(answer, dict) and isinstance(answer.get("plugin"), dict) and "id" not in answer:
        return answer["plugin"]
    return answer


def is_file_map(answer):
    """Whether a ``source``/``update_source`` answer is PostHog's file map (not the spec's plugin record).

    A file map has only string (or null) values; a plugin record has an integer ``id``.
    """
    if not isinstance(answer, dict):
        return False
    if isinstance(answer.get("id"), int) and "plugin_type" in answer:
        return False
    return all(value is None or isinstance(value, str) for value in answer.values())


def source_file_changes(desired, current, purge=False):
    """The ``update_source`` body that turns ``current`` (a file map) into ``desired``.

    ``desired`` maps file names to text, or to None to delete the file. Files not listed are left
    alone unless ``purge`` (then deleted, except plugin.json). Returns ``{}`` when nothing differs.
    """
    current = dict((k, v) for k, v in (current or {}).items() if v is not None)
    changes = {}
    for name, text in (desired or {}).items():
        if text is None:
            if name in current:
                changes[name] = None
        elif current.get(name) != text:
            changes[name] = text
    if purge:
        for name in current:
            if name not in (desired or {}) and name not in KEPT_FILES:
                changes[name] = None
    return changes


def apply_source_changes(current, changes):
    """The file map after ``changes`` (None deletes)."""
    result = dict((k, v) for k, v in (current or {}).items() if v is not None)
    for name, text in changes.items():
        if text is None:
            result.pop(name, None)
        else:
            result[name] = text
    return result


def plugin_json_of(source_files):
    """The parsed plugin.json from ``source_files``, None when absent; ValueError when not a JSON object."""
    text = (source_files or {}).get("plugin.json")
    if text is None:
        return None
    try:
        parsed = json.loads(text)
    except ValueError as exc:
        raise ValueError("source_files['plugin.json'] is not valid JSON: %s" % exc)
    if not isinstance(parsed, dict):
        raise ValueError("source_files['plugin.json'] must be a JSON object")
    return parsed


ITEM_OPTIONS = ("state", "id", "name", "url", "plugin_type", "description", "icon", "config_schema", "tag", "is_global",
                "capabilities", "metrics", "public_jobs", "source_files", "purge_source_files")
FAMILY_CHOICES = ["destination", "frontend_app", "import_app", "transformation"]
PLUGIN_TYPES = ["source", "custom", "repository", "local"]


def same_url(wanted, current):
    """Whether the user's URL names the plugin installed from ``current`` (read normalised)."""
    return normalize_url(wanted) == current


#: What a plugin is, each field described once: the module's options, what the update sends and
#: compares, and what organization_state_info exports (description and is_global; export_item
#: writes how the plugin is installed: its URL, name and type).
FIELDS = (
    Field("name", export=False),
    # kept from the install (guard() refuses another), read without its query (a private token)
    Field("url", from_api=normalize_url, compare=same_url, frozen=True, sent=False, export=False),
    Field("plugin_type", option=dict(choices=PLUGIN_TYPES), sent=False, export=False),  # sent on create only
    Field("description"),
    Field("icon", export=False),
    Field("config_schema", "raw", export=False),
    Field("tag", export=False),
    Field("is_global", "bool"),
    Field("capabilities", "dict", export=False),
    Field("metrics", "dict", export=False),
    Field("public_jobs", "dict", export=False),
    Field("source_files", "dict", sent=False, export=False),  # the SourceFiles step converges them
)

ARGUMENT_SPEC = dict(
    family=dict(type="str", required=True, choices=FAMILY_CHOICES),
    state=dict(type="str", default="present", choices=["present", "absent", "latest"]),
    id=dict(type="int"),
    purge_source_files=dict(type="bool", default=False),
)
ARGUMENT_SPEC.update(options_of(FIELDS))

INFO_ARGUMENT_SPEC = dict(
    family=dict(type="str", required=True, choices=FAMILY_CHOICES),
    id=dict(type="int"),
    name=dict(type="str"),
    url=dict(type="str"),
    unused=dict(type="bool", default=False),
    repository=dict(type="bool", default=False),
    activity=dict(type="bool", default=False),
    activity_limit=dict(type="int", default=10),
)


def refused(exc, what, identity, written=False):
    """A Failure for PostHog refusing personal API keys an action (else the error itself)."""
    if isinstance(exc, PostHogError) and exc.refuses_api_keys:
        return Failure.of(exc.reword("Cannot %s for %s: %s.%s" % (
            what, identity, NO_PAK_HINT,
            " The plugin itself was created; its files were not written." if written else "")))
    return exc


class SourceFiles(Step):
    """Keep a source plugin's files as listed (``source_files``, ``purge_source_files``)."""

    action = "source files written"

    def plan(self, resource, result):
        desired = resource.params.get("source_files")
        if desired is None:
            return None
        purge = resource.params["purge_source_files"]
        created = "created" in result.actions
        readable = True
        current = {}
        if not created and result.obj.get("id") is not None:
            try:
                answer = resource.client.get(resource.detail_path(result.obj["id"]) + "source/",
                                             context="reading the source files of %s" % resource.identity())
            except PostHogError as exc:
                raise refused(exc, "read its source files", resource.identity())
            readable = is_file_map(answer)
            current = answer if readable else {}
        if readable:
            changes = source_file_changes(desired, current, purge)
        else:
            changes = dict((k, v) for k, v in desired.items() if v is not None)
            resource.task.warn(
                "The server answered GET .../source with the plugin record (as the API specification documents) "
                "instead of the file map, so the source files of %s cannot be compared: every listed file was sent "
                "and the task reports a change%s." % (
                    resource.identity(), "; purge_source_files was ignored" if purge else ""))
        result.extra["changed_files"] = sorted(changes)
        if not changes:
            return None
        if readable and not created:
            result.before["source_files"] = dict((k, current.get(k)) for k in sorted(changes) if k in current)
        self.show(result, changes, apply_source_changes(current, changes))
        return changes

    @staticmethod
    def show(result, changes, files):
        result.after["source_files"] = dict((k, files.get(k)) for k in sorted(changes) if k in files)

    def predict(self, resource, result, plan):
        return result.obj

    def requests(self, resource, result, plan):
        return [dict(method="PATCH", path=resource.path_of(result.obj) + "update_source/", body=plan,
                     note="writing the source files of %s" % resource.identity())]

    def perform(self, resource, action, send):
        try:
            return send()
        except PostHogError as exc:
            raise refused(exc, "write its source files", resource.identity(),
                          written=any(a.creates and a.done for a in resource.actions))

    def absorb(self, resource, action, answer):
        obj = resource.applied
        if is_file_map(answer):
            self.show(resource.result, action.body, answer)
            resource.after_extra["source_files"] = resource.result.after["source_files"]
            if "plugin.json" in action.body:  # PostHog renames the plugin after plugin.json
                return resource.client.get(resource.planned.resolve(action.path)[:-len("update_source/")],
                                           context="reading %s" % resource.identity())
        elif isinstance(answer, dict):
            return answer
        return obj


class Upgrade(Step):
    """``state=latest``: upgrade a plugin installed from a URL when a newer release exists."""

    action = "upgraded"

    def plan(self, resource, result):
        plugin = result.obj
        if resource.params.get("state") != "latest" or "created" in result.actions \
                or plugin.get("plugin_type") not in URL_TYPES:
            return None
        try:
            checked = unwrap_plugin(resource.client.get(resource.detail_path(plugin["id"]) + "check_for_updates/",
                                                        context="checking %s for updates" % resource.identity()))
        except PostHogError as exc:
            raise refused(exc, "check it for updates", resource.identity())
        latest = checked.get("latest_tag") if isinstance(checked, dict) else None
        result.extra["latest_tag"] = latest
        if isinstance(checked, dict) and checked.get("id") == plugin["id"]:
            result.obj = plugin = checked
        if not latest or latest == plugin.get("tag"):
            return None
        result.before["tag"] = plugin.get("tag")
        result.after["tag"] = latest
        return latest

    def predict(self, resource, result, plan):
        return dict(copy.deepcopy(result.obj), tag=plan)

    def requests(self, resource, result, plan):
        return [dict(method="POST", path=resource.path_of(result.obj) + "upgrade/", body={},
                     note="upgrading %s" % resource.identity())]

    def perform(self, resource, action, send):
        try:
            return send()
        except PostHogError as exc:
            raise refused(exc, "upgrade it", resource.identity())

    def recover(self, resource, action):
        """An upgrade re-installs the newest version, so repeating it is harmless: the plugin when it
        is at the tag the plan upgrades to now, else None (asked again)."""
        detail = resource.planned.resolve(action.path)[:-len("upgrade/")]
        plugin = unwrap_plugin(resource.client.get_or_none(detail, context="reading %s" % resource.identity()))
        if isinstance(plugin, dict) and action.decision and plugin.get("tag") == action.decision:
            return plugin
        return None

    def absorb(self, resource, action, answer):
        resource.after_extra["tag"] = answer.get("tag", action.decision) if isinstance(answer, dict) else action.decision
        return answer if isinstance(answer, dict) and answer.get("id") is not None else resource.applied


class FamilyScope(Scope):
    """Where a family's plugins live: the organization's collection of the item's ``family`` (``part``
    maps each family to it), one per family for prune. Kind-local until the engine's Scope takes a
    part chosen by an option."""

    def path(self, task, params):
        return task.org_path(self.part[params["family"]])

    def each(self, project_ids):
        return [dict(family=family) for family in self.part]


class PipelinePlugin(Resource):
    """A plugin of one family (``family``): found by id, URL or name; installed from a URL or
    created from source; kept up to date with ``state=latest``."""

    return_key = "plugin"
    SCOPE = FamilyScope("organization", FAMILIES)
    list_option = "plugins"
    item_options = ITEM_OPTIONS
    lookups = ("id", "url", "name")
    FIELDS = FIELDS
    update_after_create = True  # PostHog fills a URL plugin from its plugin.json: apply what the user set
    steps = (UPDATE, SourceFiles(), Upgrade())

    @property
    def family(self):
        return self.params["family"]

    @property
    def kind(self):
        return FAMILY_KINDS[self.family]

    def identity(self):
        if self.lookup()[0] == "url":
            return "%s from %s" % (self.kind, normalize_url(self.params["url"]))
        return super(PipelinePlugin, self).identity()

    def label(self):
        return self.identity().replace(self.kind, "plugin", 1)

    def identities(self):
        option, value = self.lookup()
        if option is None:
            return []
        return [(option, normalize_url(value) if option == "url" else value)]

    def lookup_value(self, option, value):
        return normalize_url(value) if option == "url" else value

    def view(self, obj, desired):
        view = super(PipelinePlugin, self).view(obj, desired)
        if obj is not None and self.params.get("url"):
            view["tag"] = obj.get("tag")  # the version a URL install took (PostHog picks it)
        return view

    def wanted_type(self):
        return self.params.get("plugin_type") or ("custom" if self.params.get("url") else "source")

    # --------------------------------------------------------------- checks
    def validate(self):
        params = self.params
        self.task.deprecate(DEPRECATION, DEPRECATION_VERSION)
        problems = []
        family_actions = FAMILY_ACTIONS[self.family]
        if params.get("source_files") is not None and "source" not in family_actions:
            problems.append("source_files cannot be used with family=%s: the PostHog API specification has no source "
                            "actions for %ss (it lists only list, create, retrieve, update, delete and "
                            "check_for_updates for them)" % (self.family, self.kind))
        if params.get("state") == "latest" and "upgrade" not in family_actions:
            problems.append("state=latest cannot be used with family=%s: the PostHog API specification has no upgrade "
                            "action for %ss; upgrade them in the PostHog web app" % (self.family, self.kind))
        if params.get("purge_source_files") and params.get("source_files") is None:
            problems.append("purge_source_files needs source_files (the files to keep)")
        if params.get("capabilities") is not None:
            fits = families_of(params["capabilities"])
            if self.family not in fits:
                problems.append("capabilities %s put the plugin in %s, not in family=%s; PostHog lists a plugin in the "
                                "family its capabilities match" % (params["capabilities"], describe_families(fits),
                                                                   self.family))
        explicit_type = params.get("plugin_type") or ("custom" if params.get("url") else None)
        if explicit_type and explicit_type != "source":
            problems.extend(self.source_only_problems(explicit_type))
        files = params.get("source_files")
        if files is not None:
            for file_name, text in files.items():
                if text is not None and not isinstance(text, str):
                    problems.append("source_files[%r] must be text (or null to delete the file), got %s"
                                    % (file_name, type(text).__name__))
            try:
                plugin_json = plugin_json_of(files)
            except ValueError as exc:
                problems.append(str(exc))
                plugin_json = None
            if plugin_json and isinstance(plugin_json.get("name"), str) and params.get("name") is not None \
                    and plugin_json["name"] != params["name"]:
                problems.append("name %r differs from the name %r in source_files['plugin.json']; PostHog renames the "
                                "plugin after plugin.json, so give the same name in both" % (params["name"],
                                                                                             plugin_json["name"]))
        return problems

    def source_only_problems(self, plugin_type):
        problems = []
        if self.params.get("tag") is not None:
            problems.append("tag cannot be set for a %s plugin: PostHog takes the version from the URL (append "
                            "/tree/<tag> to pin one) or from the newest release; use state=latest to upgrade" % plugin_type)
        if self.params.get("source_files") is not None:
            problems.append("source_files can only be managed for source plugins (plugin_type=source); this is a "
                            "%s plugin, whose code comes from its URL" % plugin_type)
        return problems

    def guard(self, current):
        if current is None:
            return
        if self.params.get("state") == "absent":
            if current.get("is_global"):
                raise Failure("%s is global (installed for every organization); PostHog refuses to uninstall a global "
                              "plugin: set is_global=false first (needs the plugins access level root)" % self.identity())
            return
        if self.params.get("url") and normalize_url(current.get("url")) != normalize_url(self.params["url"]):
            raise Failure("%s was installed from %s; url cannot be changed: remove it and install the new URL"
                          % (self.identity(), current.get("url")))
        if current.get("plugin_type") != "source":
            problems = self.source_only_problems(current.get("plugin_type"))
            if problems:
                raise Failure("; ".join(problems))

    # --------------------------------------------------------------- writing
    def missing(self):
        params = self.params
        if params.get("id") is not None:
            return "%s not found; omit id to install a new one" % self.identity()
        plugin_type = self.wanted_type()
        if plugin_type == "source" and not params.get("name"):
            return "name is required to create a source plugin (%s not found)" % self.identity()
        if plugin_type != "source" and not params.get("url"):
            return "url is required to install a %s plugin (%s not found)" % (plugin_type, self.identity())
        if params.get("source_files"):
            # Fail before any write when the server refuses personal API keys on plugin actions.
            try:
                self.client.get(self.collection_path() + "unused/")
            except PostHogError as exc:
                if exc.refuses_api_keys:
                    raise Failure.of(exc.reword(
                        "Cannot create %s with source_files: %s, so its files could not be written after creating "
                        "it. Create the plugin and its code in the web app, or omit source_files."
                        % (self.identity(), NO_PAK_HINT)))
        return None

    def create_payload(self, desired):
        payload = dict(desired)
        plugin_type = self.wanted_type()
        payload["plugin_type"] = plugin_type
        if self.params.get("url"):
            payload["url"] = self.params["url"]
        if plugin_type == "source" and "capabilities" not in payload:
            payload["capabilities"] = copy.deepcopy(DEFAULT_CAPABILITIES[self.family])
        return payload

    def predict_create(self, payload):
        obj = dict(payload)
        if obj.get("url"):
            # PostHog fills a plugin installed from a URL from its plugin.json: what the task sets is
            # applied after the install (update_after_create), whatever the install answers.
            obj = dict(url=normalize_url(obj["url"]), plugin_type=obj.get("plugin_type"))
        return obj

    def after_create(self, obj, payload):
        fits = families_of(obj.get("capabilities"))
        if self.family not in fits:
            raise Failure("%s was installed (id %s), but its capabilities %s put it in %s, not in family=%s; manage "
                          "it with that family (or remove it there with state=absent)"
                          % (self.identity(), obj.get("id"), obj.get("capabilities"), describe_families(fits),
                             self.family))
        return obj


def describe_families(families):
    return " and ".join("family=%s" % family for family in sorted(families)) or "no family"


def read_plugins(task, params):
    """pipeline_plugin_info: the plugins of one family (or one by id, name or URL), with the
    unused ids, the repository catalogue and the recent activity when asked."""
    family = params["family"]
    kind = FAMILY_KINDS[family]
    task.deprecate(DEPRECATION, DEPRECATION_VERSION)
    wanted = [flag for flag in ("unused", "repository", "activity") if params[flag]]
    missing = [flag for flag in wanted if flag not in FAMILY_ACTIONS[family]]
    if missing:
        raise Failure("%s cannot be used with family=%s: the PostHog API specification has no such action for %ss"
                      % (", ".join(missing), family, kind))
    if params["activity_limit"] < 1:
        raise Failure("activity_limit must be at least 1, got %d" % params["activity_limit"])
    path = PipelinePlugin.SCOPE.path(task, params)
    plugins = list_or_get(task, path, params.get("id"), what=kind, filters=dict(name=params.get("name")))
    if params.get("url") is not None:
        plugins = [p for p in plugins if normalize_url(p.get("url")) == normalize_url(params["url"])]
    result = dict(plugins=plugins)

    def action(name, what, query=None):
        try:
            return task.client.get(path + name + "/", params=query, context="reading %s" % what)
        except PostHogError as exc:
            if exc.refuses_api_keys:
                raise Failure.of(exc.reword("Cannot read %s: %s." % (what, NO_PAK_HINT)))
            raise

    if params["unused"]:
        answer = action("unused", "the unused %ss" % kind) or []
        # PostHog answers with ids; a server following the spec's shapes with plugin records.
        result["unused"] = [item.get("id") if isinstance(item, dict) else item for item in answer]
    if params["repository"]:
        result["repository"] = action("repository", "the plugin repository") or []
    if params["activity"]:
        answer = action("activity", "the plugin activity", dict(limit=params["activity_limit"], page=1)) or {}
        result["activity"] = answer.get("results", []) if isinstance(answer, dict) else list(answer)
    return result


# ---------------------------------------------------------------------------------- exporting
def export_item(obj, family):
    """The item that installs ``obj`` again: from its URL (the type only when not custom) or from
    source, with the exported Fields."""
    item = dict(family=family)
    if obj.get("plugin_type") in URL_TYPES and obj.get("url"):
        item.update(url=normalize_url(obj["url"]), name=obj.get("name"))
        if obj.get("plugin_type") != "custom":
            item["plugin_type"] = obj["plugin_type"]
    else:
        item.update(name=obj.get("name"), plugin_type=obj.get("plugin_type") or "source")
    item.update(PipelinePlugin.reader().export(obj))
    return item


def export_items(ctx):
    """organization_state_info: the plugins of every family (a family PostHog refuses is noted)."""
    items = []
    for scope in PipelinePlugin.SCOPE.each(ctx.project_ids):
        what = "%ss" % FAMILY_KINDS[scope["family"]]
        found = ctx.quietly(what, lambda scope=scope, what=what: ctx.client.list_all(
            PipelinePlugin.SCOPE.path(ctx.task, scope), context="listing %s" % what))
        items.extend(export_item(p, scope["family"]) for p in found or [] if isinstance(p, dict))
    return items


# ---------------------------------------------------------------------------------- the document
SECTION = Section(
    "plugins", PipelinePlugin, options_from(ARGUMENT_SPEC, ("family",) + ITEM_OPTIONS), "plugin",
    required_one_of=[("id", "url", "name")], export=export_items,
    comment="Pipeline plugins of every family (posthog.admin.pipeline_plugin).")
