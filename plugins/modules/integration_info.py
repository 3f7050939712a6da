#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: integration_info
short_description: List the integrations of a PostHog project
version_added: 0.1.0
description:
  - Lists the integrations of a project (oldest first), its connections to other services, such as
    the AWS keys or the Snowflake login a batch export writes with. Each has its C(id), C(kind),
    C(display_name) and C(name).
  - C(name) is the name an integration was given, or, for the kinds PostHog keeps by their
    connection, that connection (a Databricks host, C(user@host:port) of a PostgreSQL or Redshift
    login, a service account, an Azure storage account), as M(posthog.admin.integration) names them -
    what C(destination.integration) of M(posthog.admin.batch_export) takes (or the C(id)).
  - Secrets (keys, passwords) are never returned; PostHog keeps them write-only.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project
  - posthog.admin.posthog.organization_unused
  - posthog.admin.posthog.attributes_info
options:
  id:
    description: Only the integration with this id (an integer). An unknown id gives an empty list.
    type: str
  kind:
    description:
      - Only integrations of this kind, for example V(aws-s3), V(s3-compatible), V(snowflake),
        V(postgresql), V(aws-redshift), V(google-cloud-service-account), V(databricks), V(azure-blob),
        V(slack).
    type: str
  name:
    description:
      - Only the integrations with this name (as RV(integrations[].name) says) or display name
        (PostHog's C(display_name), or its part before the parenthesis).
    type: str
notes:
  - Needs the scope C(integration:read).
  - One request per 100 integrations, or one GET with O(id).
  - The credential kinds are created with M(posthog.admin.integration); the OAuth kinds (Slack,
    GitHub ...) in PostHog's web app (Project settings > Integrations).
seealso:
  - module: posthog.admin.integration
  - module: posthog.admin.batch_export
"""

EXAMPLES = r"""
- name: Find the Acme Web project
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: The AWS integrations of Acme Web
  posthog.admin.integration_info:
    project_id: "{{ acme_web.projects[0].id }}"
    kind: aws-s3
  register: aws

- name: Export to S3 with the integration named acme-aws
  posthog.admin.batch_export:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Events to S3
    interval: hour
    destination:
      type: AwsS3
      integration: "{{ (aws.integrations | selectattr('name', 'equalto', 'acme-aws') | first).id }}"
      config:
        bucket_name: acme-posthog-exports
        region: eu-west-1
        prefix: events/
"""

RETURN = r"""
integrations:
  description: The integrations found, each as PostHog returns it, with C(name) added.
  returned: always
  type: list
  elements: dict
  contains:
    id:
      description: The integration's id, what C(destination.integration) of M(posthog.admin.batch_export) takes.
      type: int
    kind:
      description: The kind of service.
      type: str
    name:
      description: The name it was given (C(config.name)), else the connection PostHog keeps it by, else its display name.
      type: str
    display_name:
      description: How PostHog shows it.
      type: str
    config:
      description: Its settings that are not secret.
      type: dict
  sample:
    - id: 7
      kind: aws-s3
      name: acme-aws
      display_name: acme-aws (AWS account 123456789012)
      config:
        name: acme-aws
        aws_account_id: "123456789012"
      created_at: "2026-01-31T08:00:00Z"
      errors: ""
"""

from ansible_collections.posthog.admin.plugins.module_utils._integration import INFO_ARGUMENT_SPEC, read_integrations
from ansible_collections.posthog.admin.plugins.module_utils._module import run_info


def main():
    run_info(INFO_ARGUMENT_SPEC, read_integrations)


if __name__ == "__main__":
    main()
