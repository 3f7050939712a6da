#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: pipeline_plugin
short_description: Install, update, upgrade or remove a PostHog pipeline plugin
version_added: 0.1.0
description:
  - Makes sure a plugin of one pipeline family (a destination, a frontend app or an import app)
    is installed in a PostHog organization with the settings you give, is at its newest version,
    or is not installed.
  - Plugins come from a URL (a GitHub or GitLab repository or an npm package, O(plugin_type=custom)
    or V(repository)), in which case PostHog reads their name, description, icon, config schema and
    tag from the archive's C(plugin.json); or they are written in the browser
    (O(plugin_type=source)), in which case you give those fields and the code as O(source_files).
  - The plugin is found by O(id), else by O(url), else by O(name), among the plugins the
    organization can see in the family's collection. Settings you leave out are not managed.
  - O(plugins) manages many plugins of one family in one task, reading the family's collection once
    for all of them instead of once per loop item.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.attributes
options:
  family:
    description:
      - The pipeline family, that is the collection the plugin is managed in
        (C(pipeline_destinations), C(pipeline_frontend_apps) or C(pipeline_import_apps)).
      - PostHog files a plugin under a family by its O(capabilities), so a plugin is only found
        in the family its capabilities put it in.
    type: str
    required: true
    choices: [destination, frontend_app, import_app]
  state:
    description:
      - V(present) installs the plugin or updates the settings you give, and keeps O(source_files)
        in sync.
      - V(latest) does the same, then asks PostHog for the newest tag of the plugin's URL and
        upgrades the plugin when that tag differs from the installed one. Plugins without an
        upstream (source and local ones) are only kept present. Not available for import apps.
      - V(absent) uninstalls the plugin. PostHog refuses to uninstall a global plugin; set
        O(is_global=false) first.
    type: str
    choices: [present, absent, latest]
    default: present
  id:
    description:
      - The plugin's id (an integer). When it names no plugin of the family, the task fails rather
        than installing one.
      - One of O(id), O(url), O(name) and O(plugins) is required; O(plugins) excludes the other three.
    type: int
  name:
    description:
      - The plugin's name. Required to create a source plugin.
      - Without O(id) and O(url), the plugin of the family with exactly this name; the task fails
        when several share it. Otherwise a setting (for a plugin installed from a URL, PostHog
        takes the name from C(plugin.json); setting it here renames it, until an upgrade resets it).
    type: str
  url:
    description:
      - Where PostHog downloads the plugin from, for O(plugin_type=custom) and V(repository), that is
        a GitHub or GitLab repository or an npm package URL. Append C(/tree/<tag>) (GitHub) to pin a
        version; without it PostHog installs the newest one.
      - Without O(id), the plugin installed from this URL (compared without a C(?private_token=...)
        query and a trailing slash). It cannot be changed after installation.
    type: str
  plugin_type:
    description:
      - How the plugin is installed. Used only when the plugin is created; PostHog manages it
        afterwards (an upgrade turns a V(repository) plugin into V(custom)).
      - Defaults to V(custom) when O(url) is set, else V(source).
      - V(local) needs a C(file:) URL on the PostHog server's disk (self-hosted only).
    type: str
    choices: [source, custom, repository, local]
  description:
    description: The plugin's description.
    type: str
  icon:
    description: The URL of the plugin's icon.
    type: str
  config_schema:
    description:
      - The fields a project fills in when it enables the plugin, usually a list of objects with
        C(key), C(name), C(type), C(default), C(required) and C(secret).
      - For source plugins, a C(config) in the C(plugin.json) of O(source_files) replaces it.
    type: raw
  tag:
    description:
      - The version label of a source plugin.
      - Plugins installed from a URL get their tag from PostHog (the URL's C(/tree/<tag>) or the
        newest version); use O(state=latest) to move them to the newest one. Setting O(tag) for
        them fails.
    type: str
  is_global:
    description:
      - Whether the plugin is installed for every organization of the instance. Changing it needs
        the organization's plugins access level C(root) (9), available on self-hosted PostHog.
    type: bool
  capabilities:
    description:
      - "What the plugin's code does, for example C({\"methods\": [\"onEvent\"]}) for a destination,
        C({\"scheduled_tasks\": [\"runEveryMinute\"]}) for an import app, or C({}) for a frontend (site)
        app. PostHog files the plugin under a family by it, so it must fit O(family)."
      - "A new source plugin without it gets C({\"methods\": [\"onEvent\"]}), C({}) or
        C({\"scheduled_tasks\": [\"runEveryMinute\"]}) by family. Keys you leave out are not compared."
    type: dict
  metrics:
    description: The plugin's metrics definition. Keys you leave out are not compared.
    type: dict
  public_jobs:
    description: The jobs the plugin exposes to be run by hand. Keys you leave out are not compared.
    type: dict
  source_files:
    description:
      - The code of a source plugin, file name to content, for example C(plugin.json), C(index.ts),
        C(frontend.tsx) or C(site.ts). A value of V(null) deletes that file.
      - The module reads the plugin's files and sends only those that differ. Files you do not list
        are left alone unless O(purge_source_files=true).
      - A C(name) or C(config) in C(plugin.json) renames the plugin or replaces its config schema.
      - Only for O(plugin_type=source) plugins, and not for import apps (PostHog's API has no source
        actions for them).
    type: dict
  purge_source_files:
    description:
      - Delete the plugin's source files that O(source_files) does not list (C(plugin.json) is never
        deleted).
    type: bool
    default: false
  plugins:
    description:
      - Several plugins of the family O(family), each a dictionary of the options of one plugin. An
        option an item leaves out takes the value of the task's option of the same name (so O(state) or
        O(is_global) set beside O(plugins) applies to every item that does not set its own).
      - The items are converged in order, in one module run that lists the family's collection once;
        an item with C(id) costs one GET instead. An idempotent run of any number of plugins found by
        C(url) or C(name) costs one request, plus, per item, one GET of its source files when it has
        C(source_files) and one C(check_for_updates) when it has C(state=latest).
      - Every item is checked before any request; two items that find their plugin the same way (the
        same C(id), the same C(url), or, without both, the same C(name)) fail the task before any
        change. When an item fails, the task fails naming it, and returns RV(plugins) for the items
        converged before it.
    type: list
    elements: dict
    suboptions:
      state:
        description: Like O(state); defaults to the task's O(state).
        type: str
        choices: [present, absent, latest]
      id:
        description: Like O(id). One of C(id), C(url) and C(name) is required.
        type: int
      name:
        description: Like O(name).
        type: str
      url:
        description: Like O(url).
        type: str
      plugin_type:
        description: Like O(plugin_type).
        type: str
        choices: [source, custom, repository, local]
      description:
        description: Like O(description).
        type: str
      icon:
        description: Like O(icon).
        type: str
      config_schema:
        description: Like O(config_schema).
        type: raw
      tag:
        description: Like O(tag).
        type: str
      is_global:
        description: Like O(is_global).
        type: bool
      capabilities:
        description: Like O(capabilities).
        type: dict
      metrics:
        description: Like O(metrics).
        type: dict
      public_jobs:
        description: Like O(public_jobs).
        type: dict
      source_files:
        description: Like O(source_files).
        type: dict
      purge_source_files:
        description: Like O(purge_source_files); defaults to the task's O(purge_source_files).
        type: bool
notes:
  - Needs the scope C(plugin:read), and C(plugin:write) to change anything.
  - The organization's plugins access level must be at least C(config) (3) to read plugins and
    C(install) (6) to install, change, upgrade or remove them; PostHog Cloud gives new organizations
    3, self-hosted PostHog 9. Membership level does not matter beyond being a member.
  - Real PostHog refuses personal API keys on the plugin actions C(check_for_updates), C(source),
    C(update_source) and C(upgrade) ("This action does not support Personal API Key access"), so
    O(source_files) and O(state=latest) fail against it with a message saying so; do those in the
    PostHog web app. Everything else (installing, settings, removal) works with a key, and
    O(state=present) without O(source_files) never calls those actions. Before creating a source
    plugin with O(source_files), the module checks that the server lets the key call plugin
    actions, so nothing is created half-way.
  - A server that answers C(source) with the plugin record, as the API specification documents,
    instead of the file map real PostHog returns, does not show the files, so the module cannot
    compare them; it then sends every listed file, reports a change and warns.
  - PostHog gives no way to list the plugin configs of projects with a key in this API; plugin
    configs (enabling a plugin in a project) are not managed here.
  - The task is idempotent; with O(url) or O(name) an unchanged run costs one request (a list of the
    family's plugins), with O(id) one GET, and with O(plugins) one list for all the items found by
    C(url) or C(name) plus one GET per item given by C(id).
seealso:
  - module: posthog.admin.pipeline_plugin_info
"""

EXAMPLES = r"""
- name: Install a destination plugin from GitHub in the current organization
  posthog.admin.pipeline_plugin:
    family: destination
    url: https://github.com/PostHog/posthog-hello-world-plugin
  register: hello

- name: Keep it at its newest version
  posthog.admin.pipeline_plugin:
    family: destination
    url: https://github.com/PostHog/posthog-hello-world-plugin
    state: latest

- name: A destination written in the browser, with its code
  posthog.admin.pipeline_plugin:
    family: destination
    organization: acme
    plugin_type: source
    name: Event forwarder
    description: Forwards events to our webhook
    capabilities:
      methods: [onEvent]
    source_files:
      plugin.json: "{{ {'name': 'Event forwarder', 'config': [{'key': 'url', 'name': 'Webhook URL', 'type': 'string'}]} | to_json }}"
      index.ts: |
        export async function onEvent(event, { config }) {
          await fetch(config.url, { method: 'POST', body: JSON.stringify(event) })
        }

- name: Remove a frontend app by id
  posthog.admin.pipeline_plugin:
    family: frontend_app
    id: 42
    state: absent

- name: Several destinations in one task (one list of the destinations, whatever their number)
  posthog.admin.pipeline_plugin:
    family: destination
    plugins:
      - url: https://github.com/PostHog/posthog-hello-world-plugin
        state: latest
      - url: https://github.com/PostHog/currency-normalization-plugin
      - name: Old forwarder
        state: absent
  register: destinations

- name: Show the installed versions
  ansible.builtin.debug:
    msg: "{{ destinations.plugins | map(attribute='tag', default='(removed)') | list }}"
"""

RETURN = r"""
plugin:
  description:
    - The plugin as PostHog returns it after the task (in check mode, as it would be).
    - Empty after O(state=absent).
  returned: unless O(plugins) is set
  type: dict
  sample:
    id: 12
    plugin_type: custom
    name: Hello World
    description: Greets every event
    url: https://github.com/PostHog/posthog-hello-world-plugin
    icon: null
    config_schema:
      - key: greeting
        name: Greeting
        type: string
    tag: 3c1a2b9
    latest_tag: 3c1a2b9
    is_global: false
    organization_id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
    organization_name: Acme
    capabilities:
      methods: [onEvent]
    metrics: {}
    public_jobs: {}
plugins:
  description:
    - With O(plugins), each item's plugin after the task, in the order of the items, like RV(plugin)
      (empty for an item with C(state=absent)). RV(changed_files) and RV(latest_tag) are not returned
      for items; the diff shows the files an item changed.
    - On failure, the plugins of the items converged before the failing one.
  returned: when O(plugins) is set
  type: list
  elements: dict
  sample:
    - id: 12
      plugin_type: custom
      name: Hello World
      description: Greets every event
      url: https://github.com/PostHog/posthog-hello-world-plugin
      icon: null
      config_schema: []
      tag: 3c1a2b9
      latest_tag: 3c1a2b9
      is_global: false
      organization_id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
      organization_name: Acme
      capabilities:
        methods: [onEvent]
      metrics: {}
      public_jobs: {}
    - {}
changed_files:
  description: The source files written (created, changed or deleted), by name.
  returned: when O(source_files) is set, without O(plugins)
  type: list
  elements: str
  sample: [index.ts]
latest_tag:
  description: The newest tag PostHog found for the plugin's URL.
  returned: when O(state=latest) and the plugin existed and comes from a URL, without O(plugins)
  type: str
  sample: v2.1.0
diff:
  description:
    - The managed settings (and changed source files) before and after, in diff mode.
    - With O(plugins), a list with one such entry per item that changed, each with headers naming the
      item (an empty list when nothing changed).
  returned: when diff mode is on and something changed, or with O(plugins) when diff mode is on
  type: raw
  sample:
    before:
      name: Event forwarder
      description: Old text
    after:
      name: Event forwarder
      description: Forwards events to our webhook
"""

import copy

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._many import Snapshot, item_spec, run_items
from ansible_collections.posthog.admin.plugins.module_utils._module import PostHogModule
from ansible_collections.posthog.admin.plugins.module_utils._plugins import (
    DEFAULT_CAPABILITIES,
    FAMILY_ACTIONS,
    FAMILY_KINDS,
    NO_PAK_HINT,
    URL_TYPES,
    apply_source_changes,
    collection_path,
    family_of,
    find_plugins,
    is_file_map,
    normalize_url,
    plugin_json_of,
    source_file_changes,
    unwrap_plugin,
    upgrade_recover,
)
from ansible_collections.posthog.admin.plugins.module_utils._resource import Resource

FIELDS = ("name", "description", "icon", "config_schema", "tag", "is_global", "capabilities", "metrics", "public_jobs")


def refuses_keys(exc):
    """Whether a PostHogError is PostHog refusing personal API keys for an action."""
    detail = (exc.detail or "").lower()
    return exc.status == 403 and "personal api key access" in detail


class PipelinePlugin(Resource):
    def __init__(self, ph):
        self.family = ph.params["family"]
        # The collection path (which may resolve the organization) is set in run(), after validate().
        super(PipelinePlugin, self).__init__(ph, FAMILY_KINDS[self.family], "plugin", None, FIELDS)

    # ------------------------------------------------------------ describing
    def identity(self):
        params = self.params
        if params.get("id") is not None:
            return "%s with id %s" % (self.kind, params["id"])
        if params.get("url"):
            return "%s from %s" % (self.kind, normalize_url(params["url"]))
        return "%s %r" % (self.kind, params.get("name"))

    def wanted_type(self):
        return self.params.get("plugin_type") or ("custom" if self.params.get("url") else "source")

    # --------------------------------------------------------------- checks
    def validate(self):
        """Bad input fails here, before any request."""
        problems = self.problems()
        if problems:
            self.ph.fail("; ".join(problems))

    def problems(self):
        """The problems with the options, found without any request."""
        params = self.params
        problems = []
        family_actions = FAMILY_ACTIONS[self.family]
        if params["source_files"] is not None and "source" not in family_actions:
            problems.append("source_files cannot be used with family=%s: the PostHog API specification has no source actions "
                            "for %ss (it lists only list, create, retrieve, update, delete and check_for_updates for them)"
                            % (self.family, self.kind))
        if params["state"] == "latest" and "upgrade" not in family_actions:
            problems.append("state=latest cannot be used with family=%s: the PostHog API specification has no upgrade action "
                            "for %ss; upgrade them in the PostHog web app" % (self.family, self.kind))
        if params["purge_source_files"] and params["source_files"] is None:
            problems.append("purge_source_files needs source_files (the files to keep)")
        if params.get("capabilities") is not None:
            fits = family_of(params["capabilities"])
            if fits != self.family:
                problems.append("capabilities %s put the plugin in %s, not in family=%s; PostHog lists a plugin in the "
                                "family its capabilities match" % (params["capabilities"],
                                                                   "family=%s" % fits if fits else "no family",
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

    def refuse_source_only(self, plugin_type):
        problems = self.source_only_problems(plugin_type)
        if problems:
            self.ph.fail("; ".join(problems))

    def check_existing(self, current):
        if self.params.get("url") and normalize_url(current.get("url")) != normalize_url(self.params["url"]):
            self.ph.fail("%s was installed from %s; url cannot be changed: remove it and install the new URL"
                         % (self.identity(), current.get("url")))
        if current.get("plugin_type") != "source":
            self.refuse_source_only(current.get("plugin_type"))

    def probe_actions(self):
        """Fail before any write when the server refuses personal API keys on plugin actions."""
        try:
            self.client.get(self.collection_path + "unused/")
        except PostHogError as exc:
            if refuses_keys(exc):
                message = ("Cannot create %s with source_files: %s, so its files could not be written after creating it. "
                           "Create the plugin and its code in the web app, or omit source_files." % (self.identity(), NO_PAK_HINT))
                self.ph.module.fail_json(msg=message, error=exc.to_dict())

    # --------------------------------------------------------------- finding
    def list_matches(self):
        params = self.params
        if params.get("url"):
            return find_plugins(self.client, self.collection_path, url=params["url"],
                                context="looking up %s" % self.identity())
        return find_plugins(self.client, self.collection_path, name=params.get("name"),
                            context="looking up %s" % self.identity())

    def recover_created(self):
        """After an ambiguous install failure: the plugin if the POST went through, else None.

        Found by URL or name, as :meth:`find` does (the base class knows only the name, and a
        plugin installed by URL has none in the task, so a lost answer would install it twice).
        """
        if not self.params.get("url") and self.params.get("name") is None:
            return None
        matches = self.list_matches()
        return matches[0] if len(matches) == 1 else None

    def find(self):
        params = self.params
        if params.get("id") is not None:
            return self.client.get_or_none(self.detail_path(params["id"]), context="reading %s" % self.identity())
        if not params.get("url") and params.get("name") is None:
            self.ph.fail("one of id, url or name is required to identify the %s" % self.kind)
        matches = self.list_matches()
        if len(matches) > 1:
            self.ph.fail("%s is ambiguous: %d plugins match (ids %s); set id to pick one" % (
                self.identity(), len(matches), ", ".join(str(m.get("id")) for m in matches)))
        return matches[0] if matches else None

    # ----------------------------------------------------------------- states
    def install(self, desired):
        params = self.params
        plugin_type = self.wanted_type()
        if plugin_type == "source" and not params.get("name"):
            self.ph.fail("name is required to create a source plugin (%s not found)" % self.identity())
        if plugin_type != "source" and not params.get("url"):
            self.ph.fail("url is required to install a %s plugin (%s not found)" % (plugin_type, self.identity()))
        if params.get("source_files"):
            self.probe_actions()
        payload = dict(desired)
        payload["plugin_type"] = plugin_type
        if params.get("url"):
            payload["url"] = params["url"]
        if plugin_type == "source" and "capabilities" not in payload:
            payload["capabilities"] = copy.deepcopy(DEFAULT_CAPABILITIES[self.family])
        result = dict(changed=True)
        if self.ph.check_mode:
            obj = dict(payload)
            if obj.get("url"):
                obj["url"] = normalize_url(obj["url"])
        else:
            obj = self.create(payload)
            fits = family_of(obj.get("capabilities"))
            if fits != self.family:
                self.ph.fail("%s was installed (id %s), but its capabilities %s put it in %s, not in family=%s; manage "
                             "it with that family (or remove it there with state=absent)"
                             % (self.identity(), obj.get("id"), obj.get("capabilities"),
                                "family=%s" % fits if fits else "no family", self.family), plugin=obj)
            # PostHog fills name, description etc. of URL plugins from plugin.json: apply what the
            # user set on top, so that the next run has nothing left to change.
            fixup = self.changes(obj, desired)
            if fixup:
                obj = self.update(obj, fixup)
        result["plugin"] = obj
        if self.ph.diff_mode:
            result["diff"] = dict(before={}, after=self.managed_view(payload, desired))
        return result

    def sync_source_files(self, result, created):
        desired = self.params["source_files"]
        purge = self.params["purge_source_files"]
        plugin = result["plugin"]
        detail = self.detail_path(plugin.get("id"))
        readable = True
        if created:
            current = {}
        else:
            try:
                answer = self.client.get(detail + "source/", context="reading the source files of %s" % self.identity())
            except PostHogError as exc:
                self.fail_refused(exc, "read its source files")
            readable = is_file_map(answer)
            current = answer if readable else {}
        if readable:
            changes = source_file_changes(desired, current, purge)
        else:
            changes = dict((k, v) for k, v in desired.items() if v is not None)
            self.ph.module.warn(
                "The server answered GET .../source with the plugin record (as the API specification documents) "
                "instead of the file map, so the source files of %s cannot be compared: every listed file was sent "
                "and the task reports a change%s." % (self.identity(), "; purge_source_files was ignored" if purge else ""))
        result["changed_files"] = sorted(changes)
        if not changes:
            return
        result["changed"] = True
        after_files = apply_source_changes(current, changes)
        if not self.ph.check_mode and plugin.get("id") is not None:
            try:
                answer = self.client.patch(detail + "update_source/", changes,
                                           context="writing the source files of %s" % self.identity())
            except PostHogError as exc:
                self.fail_refused(exc, "write its source files", written=created)
            if is_file_map(answer):
                after_files = answer
                if "plugin.json" in changes:
                    result["plugin"] = self.client.get(detail, context="reading %s" % self.identity())
            elif isinstance(answer, dict):
                result["plugin"] = answer
        if self.ph.diff_mode:
            diff = result.setdefault("diff", dict(before={}, after={}))
            if readable and not created:
                diff["before"]["source_files"] = dict((k, current.get(k)) for k in sorted(changes) if k in current)
            diff["after"]["source_files"] = dict((k, after_files.get(k)) for k in sorted(changes) if k in after_files)

    def upgrade_if_newer(self, result):
        plugin = result["plugin"]
        if plugin.get("plugin_type") not in URL_TYPES:
            return
        detail = self.detail_path(plugin["id"])
        try:
            checked = unwrap_plugin(self.client.get(detail + "check_for_updates/",
                                                    context="checking %s for updates" % self.identity()))
        except PostHogError as exc:
            self.fail_refused(exc, "check it for updates")
        latest = checked.get("latest_tag") if isinstance(checked, dict) else None
        result["latest_tag"] = latest
        if isinstance(checked, dict) and checked.get("id") == plugin["id"]:
            result["plugin"] = plugin = checked
        if not latest or latest == plugin.get("tag"):
            return
        result["changed"] = True
        before_tag = plugin.get("tag")
        if self.ph.check_mode:
            upgraded = copy.deepcopy(plugin)
            upgraded["tag"] = latest
        else:
            try:
                upgraded = self.client.post(detail + "upgrade/", {}, context="upgrading %s" % self.identity(),
                                            recover=upgrade_recover(self.client, detail, latest,
                                                                    context="reading %s" % self.identity()))
            except PostHogError as exc:
                self.fail_refused(exc, "upgrade it")
        result["plugin"] = upgraded
        if self.ph.diff_mode:
            diff = result.setdefault("diff", dict(before={}, after={}))
            diff["before"]["tag"] = before_tag
            diff["after"]["tag"] = upgraded.get("tag", latest)

    def fail_refused(self, exc, what, written=False):
        if refuses_keys(exc):
            self.ph.module.fail_json(msg="Cannot %s for %s: %s.%s" % (
                what, self.identity(), NO_PAK_HINT,
                " The plugin itself was created; its files were not written." if written else ""),
                error=exc.to_dict())
        raise exc

    def ensure_absent(self, current=None, found=False):
        current = self.find()
        if current is not None and current.get("is_global"):
            self.ph.fail("%s is global (installed for every organization); PostHog refuses to uninstall a global "
                         "plugin: set is_global=false first (needs the plugins access level root)" % self.identity())
        return super(PipelinePlugin, self).ensure_absent(current, found=True)

    def run(self):
        self.validate()
        self.collection_path = collection_path(self.ph, self.family)
        state = self.params["state"]
        if state == "absent":
            self.ph.exit(**self.ensure_absent())
        current = self.find()
        desired = self.desired()
        if current is None:
            if self.params.get("id") is not None:
                self.ph.fail("%s not found; omit id to install a new one" % self.identity())
            result = self.install(desired)
        else:
            self.check_existing(current)
            result = self._update(current, desired)
        if self.params["source_files"] is not None:
            self.sync_source_files(result, created=current is None)
        if state == "latest" and current is not None:
            self.upgrade_if_newer(result)
        self.ph.exit(**result)


ITEM_OPTIONS = ("state", "id", "name", "url", "plugin_type", "description", "icon", "config_schema", "tag", "is_global",
                "capabilities", "metrics", "public_jobs", "source_files", "purge_source_files")


def check_params(ph):
    """The problems with one plugin's options, found before any request (the module's own checks)."""
    problems = PipelinePlugin(ph).problems()
    if ph.params.get("id") is None and not ph.params.get("url") and ph.params.get("name") is None:
        problems.insert(0, "one of id, url or name is required")
    return problems


def label(params):
    if params.get("id") is not None:
        return "plugin with id %s" % params["id"]
    if params.get("url"):
        return "plugin from %s" % normalize_url(params["url"])
    if params.get("name") is not None:
        return "plugin %r" % params["name"]
    return "no id, url or name given"


def identities(params):
    """How an item finds its plugin (id, else URL, else name): two items found the same way collide."""
    if params.get("id") is not None:
        return [("id", params["id"])]
    if params.get("url"):
        return [("url", normalize_url(params["url"]))]
    if params.get("name") is not None:
        return [("name", params["name"])]
    return []


def main():
    spec = dict(
        family=dict(type="str", required=True, choices=["destination", "frontend_app", "import_app"]),
        state=dict(type="str", default="present", choices=["present", "absent", "latest"]),
        id=dict(type="int"),
        name=dict(type="str"),
        url=dict(type="str"),
        plugin_type=dict(type="str", choices=["source", "custom", "repository", "local"]),
        description=dict(type="str"),
        icon=dict(type="str"),
        config_schema=dict(type="raw"),
        tag=dict(type="str"),
        is_global=dict(type="bool"),
        capabilities=dict(type="dict"),
        metrics=dict(type="dict"),
        public_jobs=dict(type="dict"),
        source_files=dict(type="dict"),
        purge_source_files=dict(type="bool", default=False),
    )
    spec["plugins"] = dict(type="list", elements="dict", options=item_spec(spec, ITEM_OPTIONS))
    ph = PostHogModule(
        argument_spec=spec,
        organization=True,
        required_one_of=[("id", "name", "url", "plugins")],
        mutually_exclusive=[("plugins", "id"), ("plugins", "name"), ("plugins", "url")],
        supports_check_mode=True,
    )
    if ph.params.get("plugins") is not None:
        ph.run(lambda ph: run_items(ph, "plugins", ITEM_OPTIONS, "plugin",
                                    Snapshot(collection_path(ph, ph.params["family"])),
                                    check_params, PipelinePlugin, label, keys=identities))
    else:
        ph.run(lambda ph: PipelinePlugin(ph).run())


if __name__ == "__main__":
    main()
