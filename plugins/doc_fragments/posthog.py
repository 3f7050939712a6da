# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type


class ModuleDocFragment(object):
    # Connection options of every module.
    DOCUMENTATION = r"""
options:
  host:
    description:
      - Address of the PostHog instance, without C(/api).
      - V(https://us.posthog.com) for US Cloud, V(https://eu.posthog.com) for EU Cloud, or your own
        instance. Point it at the emulator (for example V(http://127.0.0.1:8010)) to test offline.
      - If not set, the value of the E(POSTHOG_HOST) environment variable is used.
    type: str
    default: https://us.posthog.com
  api_key:
    description:
      - A PostHog personal API key (C(phx_...)). It is sent in the C(Authorization) header as a
        Bearer token and never printed, returned or logged.
      - Create one in PostHog under Settings, Personal API keys, with the scopes the module's
        notes name.
      - If not set, the value of the E(POSTHOG_API_KEY) environment variable is used.
    type: str
    required: true
  validate_certs:
    description:
      - Whether to verify the server's TLS certificate. Leave on outside tests.
      - If not set, the value of the E(POSTHOG_VALIDATE_CERTS) environment variable is used.
    type: bool
    default: true
  ca_path:
    description:
      - A PEM file of certificate authorities to trust instead of the system bundle, for an instance
        behind a private CA.
      - If not set, the value of the E(POSTHOG_CA_PATH) environment variable is used.
    type: path
  timeout:
    description:
      - Seconds to wait for each HTTP response.
      - If not set, the value of the E(POSTHOG_TIMEOUT) environment variable is used.
    type: float
    default: 30
  retries:
    description:
      - How many times one request is retried after a connection failure or an answer of 429, 500,
        502, 503 or 504, with jittered exponential backoff. A wait PostHog asks for (C(Retry-After),
        or "Expected available in N seconds" in a 429 body) is honoured.
      - GET, PATCH and DELETE are retried; a POST only when the failure proves nothing was written,
        or after re-reading the server shows the object was not created.
      - If not set, the value of the E(POSTHOG_RETRIES) environment variable is used.
    type: int
    default: 5
  retry_max_delay:
    description:
      - The most seconds spent waiting between retries of one request, in total. When the next wait
        would go past it, the task fails and says so.
      - If not set, the value of the E(POSTHOG_RETRY_MAX_DELAY) environment variable is used.
    type: float
    default: 120
requirements:
  - requests >= 2.25.0
"""

    # The organization option of modules that manage something inside an organization.
    ORGANIZATION = r"""
options:
  organization:
    description:
      - The organization to work in, given as its id (a UUID), its slug, its name, or V(@current)
        for the current organization of the API key's user.
      - A slug or a name costs one extra request to look up; a name shared by several
        organizations fails. An id or V(@current) costs none.
      - If not set, the value of the E(POSTHOG_ORGANIZATION_ID) environment variable is used.
    type: str
    default: '@current'
"""

    # The project option of modules that manage something inside a project.
    PROJECT = r"""
options:
  project_id:
    description:
      - The numeric id of the project, or V(@current) for the current project of the API key's
        user. The ids are listed by M(posthog.admin.organization_info) under C(projects).
      - If not set, the value of the E(POSTHOG_PROJECT_ID) environment variable is used.
    type: str
    default: '@current'
"""

    # The organization option of modules that do not work inside one organization.
    ORGANIZATION_UNUSED = r"""
options:
  organization:
    description:
      - Not used by this module. It is accepted, and ignored, so that O(organization) can be set
        once for every module in C(module_defaults) for C(group/posthog.admin.posthog).
    type: str
    default: '@current'
"""

    # The project option of modules that do not work inside one project.
    PROJECT_UNUSED = r"""
options:
  project_id:
    description:
      - Not used by this module. It is accepted, and ignored, so that O(project_id) can be set
        once for every module in C(module_defaults) for C(group/posthog.admin.posthog).
    type: str
    default: '@current'
"""

    # Connection options of plugins (inventory), with their environment variables.
    PLUGINS = r"""
options:
  host:
    description:
      - Address of the PostHog instance, without C(/api).
    type: str
    default: https://us.posthog.com
    env:
      - name: POSTHOG_HOST
  api_key:
    description:
      - A PostHog personal API key (C(phx_...)) with the scope C(organization:read). It may be a
        template, for example a lookup of a vault.
    type: str
    required: true
    env:
      - name: POSTHOG_API_KEY
  validate_certs:
    description:
      - Whether to verify the server's TLS certificate.
    type: bool
    default: true
    env:
      - name: POSTHOG_VALIDATE_CERTS
  ca_path:
    description:
      - A PEM file of certificate authorities to trust instead of the system bundle.
    type: path
    env:
      - name: POSTHOG_CA_PATH
  timeout:
    description:
      - Seconds to wait for each HTTP response.
    type: float
    default: 30
    env:
      - name: POSTHOG_TIMEOUT
  retries:
    description:
      - How many times one request is retried after a transient failure (see the modules' option
        of the same name).
    type: int
    default: 5
    env:
      - name: POSTHOG_RETRIES
  retry_max_delay:
    description:
      - The most seconds spent waiting between retries of one request, in total.
    type: float
    default: 120
    env:
      - name: POSTHOG_RETRY_MAX_DELAY
requirements:
  - requests >= 2.25.0
"""

    # Attributes of modules that change things.
    ATTRIBUTES = r"""
attributes:
  check_mode:
    description: Can run in check mode and return changed status prediction without modifying target.
    support: full
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check_mode), when in diff mode.
    support: full
  action_group:
    description: Use C(group/posthog.admin.posthog) in C(module_defaults) to set defaults for this module.
    support: full
    membership:
      - posthog.admin.posthog
"""

    # Attributes of info modules.
    ATTRIBUTES_INFO = r"""
attributes:
  check_mode:
    description: Can run in check mode and return changed status prediction without modifying target.
    support: full
    details: This module never changes anything.
  diff_mode:
    description: Will return details on what has changed (or possibly needs changing in check_mode), when in diff mode.
    support: N/A
    details: This module never changes anything.
  action_group:
    description: Use C(group/posthog.admin.posthog) in C(module_defaults) to set defaults for this module.
    support: full
    membership:
      - posthog.admin.posthog
"""
