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
  - Makes sure a plugin of one pipeline family (a destination, a frontend app, an import app or a
    transformation)
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
  - B(PostHog is removing this API.) Creating plugins is shut off on PostHog Cloud, destinations,
    transformations and site apps are moving to hog functions (C(/api/projects/<project_id>/hog_functions/),
    PostHog's Data pipelines), and PostHog/posthog#97440 removes the C(pipeline_*) routes and the
    C(plugin) scope. Every run says so with a deprecation warning. The module keeps working wherever
    the API still answers (self-hosted PostHog, the spec); plan the move to hog functions with
    M(posthog.admin.hog_function) (guide C(docs/docsite/rst/guide_plugins_to_hog_functions.rst)).
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.attributes
options:
  family:
    description:
      - The pipeline family, that is the collection the plugin is managed in
        (C(pipeline_destinations), C(pipeline_frontend_apps), C(pipeline_import_apps) or
        C(pipeline_transformations)).
      - V(transformation) (plugins whose C(capabilities.methods) contain C(processEvent)) is the family
        PostHog's C(products/cdp/backend/routes.py) registers beside the spec's three; it has the
        destinations' actions.
      - PostHog files a plugin under a family by its O(capabilities), so a plugin is only found
        in the family its capabilities put it in.
    type: str
    required: true
    choices: [destination, frontend_app, import_app, transformation]
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
  - module: posthog.admin.hog_function
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

from ansible_collections.posthog.admin.plugins.module_utils._module import run_module
from ansible_collections.posthog.admin.plugins.module_utils._plugins import ARGUMENT_SPEC, PipelinePlugin


def main():
    run_module(PipelinePlugin, ARGUMENT_SPEC, required_one_of=[("id", "name", "url")])


if __name__ == "__main__":
    main()
