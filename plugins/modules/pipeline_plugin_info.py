#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: pipeline_plugin_info
short_description: List the PostHog pipeline plugins of one family
version_added: 0.1.0
description:
  - Lists the plugins of one pipeline family (destinations, frontend apps, import apps or transformations) that a
    PostHog organization can see (its own, global ones, and those enabled in one of its projects),
    or the one you name.
  - Optionally also returns the ids of the family's plugins that no project has enabled, PostHog's
    plugin repository catalogue, and the recent plugin activity of your current project.
  - B(PostHog is removing this API.) Creating plugins is shut off on PostHog Cloud, destinations,
    transformations and site apps are moving to hog functions (C(/api/projects/<project_id>/hog_functions/),
    PostHog's Data pipelines), and PostHog/posthog#97440 removes the C(pipeline_*) routes and the
    C(plugin) scope. Every run says so with a deprecation warning. The module keeps working wherever
    the API still answers (self-hosted PostHog, the spec); plan the move to hog functions.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.attributes_info
options:
  family:
    description:
      - The pipeline family to list; V(transformation) lists C(pipeline_transformations), the family
        PostHog registers beside the spec's three (plugins with C(processEvent)).
    type: str
    required: true
    choices: [destination, frontend_app, import_app, transformation]
  id:
    description:
      - Only the plugin with this id. An id that is not a plugin of the family gives an empty list.
    type: int
  name:
    description: Only plugins with exactly this name.
    type: str
  url:
    description: Only the plugin installed from this URL (compared without its query and trailing slash).
    type: str
  unused:
    description:
      - Also return, as RV(unused), the ids of the family's plugins that no project of the
        organization has enabled.
    type: bool
    default: false
  repository:
    description: Also return PostHog's plugin repository catalogue as RV(repository).
    type: bool
    default: false
  activity:
    description:
      - Also return the most recent plugin activity (installs, removals, configuration changes) of
        the API key user's current project as RV(activity).
    type: bool
    default: false
  activity_limit:
    description: How many activity entries to return with O(activity).
    type: int
    default: 10
notes:
  - Needs the scope C(plugin:read), and the organization's plugins access level at least C(config) (3).
  - O(unused), O(repository) and O(activity) call plugin actions that real PostHog refuses to personal
    API keys ("This action does not support Personal API Key access"); against it they fail with a
    message saying so. They do not exist for import apps in the API specification.
  - A server that follows the API specification's shapes answers O(repository) with plugin-shaped
    records; real PostHog with its catalogue entries (C(name), C(url), C(description), ...).
seealso:
  - module: posthog.admin.pipeline_plugin
"""

EXAMPLES = r"""
- name: List every destination plugin of the current organization
  posthog.admin.pipeline_plugin_info:
    family: destination
  register: destinations

- name: Show their names and versions
  ansible.builtin.debug:
    msg: "{{ destinations.plugins | map(attribute='name') | zip(destinations.plugins | map(attribute='tag')) | list }}"

- name: Find one frontend app by URL, with the ids of unused apps
  posthog.admin.pipeline_plugin_info:
    family: frontend_app
    organization: acme
    url: https://github.com/PostHog/bug-report-app
    unused: true
  register: apps
"""

RETURN = r"""
plugins:
  description: The plugins found, each as PostHog returns it.
  returned: always
  type: list
  elements: dict
  sample:
    - id: 12
      plugin_type: custom
      name: Hello World
      url: https://github.com/PostHog/posthog-hello-world-plugin
      tag: 3c1a2b9
      latest_tag: 3c1a2b9
      is_global: false
      organization_name: Acme
      capabilities:
        methods: [onEvent]
unused:
  description: Ids of the family's plugins that no project of the organization has enabled.
  returned: when O(unused=true)
  type: list
  elements: int
  sample: [12, 15]
repository:
  description: The plugin repository catalogue, as the server returns it.
  returned: when O(repository=true)
  type: list
  elements: dict
  sample:
    - name: GeoIP
      url: https://www.npmjs.com/package/@posthog/geoip-plugin
      description: Adds geographical information to events
activity:
  description: The most recent plugin activity entries, newest first.
  returned: when O(activity=true)
  type: list
  elements: dict
  sample:
    - activity: installed
      scope: Plugin
      item_id: "12"
      user:
        first_name: Ada
        email: ada@example.com
      detail:
        name: Hello World
      created_at: "2026-11-22T10:00:00Z"
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_info
from ansible_collections.posthog.admin.plugins.module_utils._plugins import INFO_ARGUMENT_SPEC, read_plugins


def main():
    run_info(INFO_ARGUMENT_SPEC, read_plugins)


if __name__ == "__main__":
    main()
