#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: project
short_description: Create, update or delete a project of a PostHog organization
version_added: 0.1.0
description:
  - Makes sure a project of an organization exists with the settings you give, or does not exist.
  - The project is found by O(id), or else by O(name) among the organization's projects (PostHog keeps
    project names unique within an organization, regardless of case). Settings you leave out are not
    managed.
  - Creating a project makes it the API key user's current project, as the PostHog web app does, so
    later tasks that use V(@current) for O(project_id) act on it; the task warns about that.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.attributes
options:
  state:
    description:
      - V(present) creates the project or updates its settings.
      - V(absent) deletes it, with all its data (events, persons, recordings, dashboards ...). To
        delete by O(name), O(confirm_delete) must be true; by O(id) it need not.
    type: str
    choices: [present, absent]
    default: present
  id:
    description:
      - The project's numeric id. With O(id), O(name) is a setting, so the project can be renamed.
      - When O(id) names no project of the organization, the task fails rather than creating one.
    type: str
  name:
    description:
      - The project's name, 1 to 200 characters (surrounding spaces are dropped). Required to create
        one.
      - Without O(id), the project of the organization with this name, compared regardless of case.
    type: str
  confirm_delete:
    description:
      - Set to true to delete a project named by O(name) with O(state=absent). Deleting a project
        deletes its data, so a task that names the project only by name must say so explicitly.
    type: bool
    default: false
  product_description:
    description: What the project is about (at most 1000 characters); PostHog AI reads it.
    type: str
  timezone:
    description:
      - The IANA time zone of the project's dates and reports, for example V(Europe/Paris). PostHog
        refuses names it does not know.
    type: str
  anonymize_ips:
    description: Whether PostHog drops the IP address of every event it ingests.
    type: bool
  app_urls:
    description:
      - The authorized URLs of the toolbar and web analytics (each at most 200 characters; wildcards
        such as V(https://*.example.com) allowed). Compared as a set; empty entries are dropped.
    type: list
    elements: str
  recording_domains:
    description:
      - The origins allowed to record session replays and heatmaps; an empty list allows all. Compared
        as a set; empty entries are dropped.
    type: list
    elements: str
  test_account_filters:
    description:
      - The property filters that mark internal and test traffic, excluded from insights when
        "filter out internal and test users" is on. Each is a PostHog property filter with C(key),
        C(value), C(operator) and C(type), as in the examples.
      - The list replaces PostHog's; keys a filter leaves out are not compared.
    type: list
    elements: dict
  test_account_filters_default_checked:
    description: Whether new insights filter out internal and test users by default.
    type: bool
  path_cleaning_filters:
    description:
      - Rules that rewrite URL paths before they are shown, each with a C(regex) and an C(alias). PostHog
        refuses a rule without a regex or with one that does not compile.
    type: list
    elements: dict
  data_attributes:
    description: The element attributes the toolbar uses to name elements in actions, for example V(data-attr).
    type: list
    elements: str
  person_display_name_properties:
    description: The person properties, in order, whose first value names a person in PostHog.
    type: list
    elements: str
  autocapture_opt_out:
    description: Whether posthog-js autocapture (clicks, page views) is off.
    type: bool
  autocapture_exceptions_opt_in:
    description: Whether the SDK captures JavaScript exceptions.
    type: bool
  autocapture_web_vitals_opt_in:
    description: Whether the SDK captures Core Web Vitals.
    type: bool
  capture_console_log_opt_in:
    description: Whether session replays capture the browser console.
    type: bool
  capture_performance_opt_in:
    description: Whether the SDK captures performance timing and network requests.
    type: bool
  session_recording_opt_in:
    description: Whether session replay records sessions.
    type: bool
  session_recording_sample_rate:
    description:
      - The share of sessions recorded, from 0 to 1 with at most two decimals (V(0.25) records a
        quarter of them).
    type: float
  session_recording_minimum_duration_milliseconds:
    description: Sessions shorter than this are not kept, 0 to 30000 milliseconds.
    type: int
  surveys_opt_in:
    description: Whether posthog-js shows surveys.
    type: bool
  heatmaps_opt_in:
    description: Whether posthog-js records heatmaps.
    type: bool
  inject_web_apps:
    description: Whether posthog-js loads the project's site apps.
    type: bool
  flags_persistence_default:
    description: Whether new feature flags persist across authentication steps by default.
    type: bool
  week_start_day:
    description: The first day of the week in date filters.
    type: str
    choices: [sunday, monday]
  slack_incoming_webhook:
    description:
      - The Slack (or Teams) incoming webhook URL PostHog posts action notifications to. It is a
        secret, masked in results and diffs.
    type: str
notes:
  - Needs the scope C(project:read), and C(project:write) to change anything.
  - Creating a project needs the admin level in the organization, and a plan that allows another
    project (PostHog's C(organizations_projects) feature; a free plan has one). Deleting needs admin.
    Members may change only O(session_recording_opt_in), O(autocapture_exceptions_opt_in),
    O(autocapture_web_vitals_opt_in) and O(surveys_opt_in); every other setting, the name included,
    needs a project admin.
  - PostHog has far more project settings than this module manages (session replay triggers and
    masking, survey appearance, modifiers ...); those are left as they are.
  - "Requests: by O(id), one GET; by O(name), the organization's project list and one GET of the
    match. A run that changes nothing makes one or two requests; a change adds one PATCH."
seealso:
  - module: posthog.admin.project_info
  - module: posthog.admin.organization
"""

EXAMPLES = r"""
- name: The web project of Acme, with its settings
  posthog.admin.project:
    organization: Acme
    name: Acme Web
    timezone: Europe/Paris
    anonymize_ips: true
    app_urls:
      - https://acme.example
      - https://*.acme.example
    recording_domains:
      - https://acme.example
    session_recording_opt_in: true
    session_recording_sample_rate: 0.25
    test_account_filters:
      - key: email
        value: "@acme.example"
        operator: not_icontains
        type: person
  register: acme_web

- name: Find the project still called Acme Site
  posthog.admin.project_info:
    organization: Acme
    name: Acme Site
  register: acme_site

- name: Rename it to Acme Website, keeping its id (nothing left to do once it is renamed)
  posthog.admin.project:
    organization: Acme
    id: "{{ acme_site.projects[0].id }}"
    name: Acme Website
  when: acme_site.projects | length == 1

- name: Delete a project by id (its data goes with it)
  posthog.admin.project:
    organization: Acme
    id: "42"
    state: absent

- name: Delete a project by name, which must be confirmed
  posthog.admin.project:
    organization: Acme
    name: Old sandbox
    state: absent
    confirm_delete: true
"""

RETURN = r"""
project:
  description:
    - The project as PostHog returns it after the task, with all its settings (in check mode, as it
      would be; a project not created yet has no C(id) or C(api_token)). Empty after O(state=absent).
    - C(slack_incoming_webhook), C(secret_api_token) and C(secret_api_token_backup) are masked.
  returned: always
  type: dict
  sample:
    id: 2
    uuid: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
    organization: 0190a3f4-0000-7000-8000-000000000001
    name: Acme Web
    api_token: phc_AbCdEf0123456789
    timezone: Europe/Paris
    anonymize_ips: true
    app_urls: [https://acme.example]
    recording_domains: [https://acme.example]
    session_recording_opt_in: true
    session_recording_sample_rate: "0.25"
    week_start_day: 1
diff:
  description: The managed settings before and after, in diff mode.
  returned: when diff mode is on and something changed
  type: dict
  sample:
    before:
      name: Acme Web
      anonymize_ips: false
    after:
      name: Acme Web
      anonymize_ips: true
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_module
from ansible_collections.posthog.admin.plugins.module_utils._project import ARGUMENT_SPEC, Project


def main():
    run_module(Project, ARGUMENT_SPEC, required_one_of=[("id", "name")])


if __name__ == "__main__":
    main()
