#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: integration
short_description: Create or delete the credentials a PostHog project's batch exports write with
version_added: 0.1.0
description:
  - Makes sure a credential integration of a project exists (an AWS key pair or role, S3-compatible
    storage keys, a Snowflake, PostgreSQL or Redshift login, Databricks service principal, Google
    Cloud service account, Azure storage connection string), or does not exist.
  - PostHog's newest API creates Snowflake, Postgres, Redshift, BigQuery, Databricks, Azure Blob and
    S3 batch exports only on an integration; create it here, then name it in
    M(posthog.admin.batch_export)'s C(destination.integration).
  - "An integration is found by O(id), or else by O(kind) and O(name). The kinds PostHog names
    (V(aws-s3), V(s3-compatible), V(snowflake), a V(aws-redshift) role or AWS keys) take the O(name)
    you give. The others are kept by PostHog by their connection, which is then their name: the
    Databricks host (C(server_hostname)), the login C(user@host:port) of a V(postgresql) (or a
    V(aws-redshift) login), the C(service_account_email), the Azure storage account (C(AccountName) of
    the connection string). O(name) may be left out for those: the module works it out from
    O(config)."
  - Secrets (keys, passwords, the connection string) are write-only. PostHog never returns them,
    so the module never compares, returns, diffs or exports them; they are sent when the integration
    is created (and, with O(update_secrets=always), on every run where PostHog can replace it).
  - "PostHog's API has no update. An integration of a named kind cannot change: the task fails when
    O(config) differs from it (delete it and create it again, or create one under another name). An
    integration kept by its connection is replaced in place (the same id) by posting it again,
    secrets included: a change of its other settings needs its secrets in O(config)."
  - Deleting an integration a batch export uses is refused before any request (PostHog refuses it
    too); point those exports at another integration first.
  - Integrations PostHog connects through an OAuth flow (Slack, GitHub, HubSpot, Salesforce ...)
    are made in PostHog's web app (Project settings > Integrations); the module refuses their kinds
    and says so. M(posthog.admin.integration_info) lists them.
  - O(integrations) manages several integrations of the project in one task, reading the project's
    integrations once for all of them.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.project
  - posthog.admin.posthog.organization_unused
  - posthog.admin.posthog.attributes
options:
  state:
    description:
      - V(present) creates the integration (or replaces one kept by its connection, see above).
      - V(absent) deletes it.
    type: str
    choices: [present, absent]
    default: present
  name:
    description:
      - The integration's name. Required to create an integration of a named kind (V(aws-s3),
        V(s3-compatible), V(snowflake), a V(aws-redshift) role or AWS keys).
      - For the kinds PostHog keeps by their connection, the connection (see the description); left
        out, it is worked out from O(config).
      - One of O(name) and O(id) identifies the integration (O(name) with O(kind)).
    type: str
  id:
    description:
      - The integration's numeric id, as M(posthog.admin.integration_info) returns it.
    type: str
  kind:
    description:
      - The kind of credentials. Required unless O(id) is given.
      - V(aws-s3) (C(aws_access_key_id) and C(aws_secret_access_key), or C(aws_role_arn)) for V(AwsS3)
        exports; V(s3-compatible) (C(endpoint_url) and the keys) for V(S3Compatible); V(snowflake)
        (C(account), C(user), C(authentication_type), C(password) or C(private_key)); V(postgresql)
        (C(host), C(port), C(user), C(password), C(ssl_mode), C(ssl_root_cert)); V(aws-redshift) (an AWS
        role or keys with the database C(user), or a login as V(postgresql)); V(databricks)
        (C(server_hostname), C(client_id), C(client_secret)); V(google-cloud-service-account)
        (C(service_account_email), C(project_id), and a key file's C(private_key), C(private_key_id),
        C(token_uri), or none of them for impersonation) for V(BigQuery); V(azure-blob)
        (C(connection_string)) for V(AzureBlob).
    type: str
  config:
    description:
      - The integration's settings and secrets, the keys of its O(kind) (each key below says which
        kinds take it). A key the kind does not take fails the task before any request.
      - PostHog's checks are made before any request, with PostHog's messages (a Snowflake account
        identifier, role ARNs, endpoint URLs and hosts that must be public, ports).
      - Keys left out are not managed.
    type: dict
    suboptions:
      aws_access_key_id:
        description: The AWS access key id (V(aws-s3), V(s3-compatible), V(aws-redshift)). Secret.
        type: str
      aws_secret_access_key:
        description: The AWS secret access key (V(aws-s3), V(s3-compatible), V(aws-redshift)). Secret.
        type: str
      aws_role_arn:
        description:
          - The ARN of an AWS role PostHog assumes (V(aws-s3), V(aws-redshift)), instead of keys,
            C(arn:aws:iam::<account>:role/<name>). The role must trust PostHog and require its
            external id C(posthog-<organization id>).
        type: str
      endpoint_url:
        description: The storage's endpoint (V(s3-compatible)), an C(http(s)) URL of a public host.
        type: str
      account:
        description: The Snowflake account identifier (V(snowflake)), for example V(acme-xy12345).
        type: str
      user:
        description:
          - The database user (V(snowflake), V(postgresql), V(aws-redshift)). For a Redshift role or
            AWS keys, the user PostHog gets temporary credentials for.
        type: str
      authentication_type:
        description: How Snowflake authenticates the user (V(snowflake)); PostHog's default is V(password).
        type: str
        choices: [password, keypair]
      password:
        description: The database password (V(snowflake) with V(password), V(postgresql), a V(aws-redshift) login). Secret.
        type: str
      private_key:
        description:
          - A Snowflake key pair's private key (V(snowflake) with V(keypair)), or a service account key
            file's C(private_key) (V(google-cloud-service-account)). Secret.
        type: str
      private_key_passphrase:
        description: The passphrase of the Snowflake private key (V(snowflake)). Secret.
        type: str
      host:
        description: The database host (V(postgresql), a V(aws-redshift) login); it must be public.
        type: str
      port:
        description: The database port (V(postgresql), a V(aws-redshift) login), 0 to 65535.
        type: int
      ssl_mode:
        description: How the connection checks the server (V(postgresql), a V(aws-redshift) login); PostHog's default is V(require).
        type: str
        choices: [require, verify-ca, verify-full]
      ssl_root_cert:
        description: The CA certificate (PEM) the server's certificate is checked against, needed with V(verify-ca) and V(verify-full).
        type: str
      groups:
        description: The database groups of a Redshift user (a V(aws-redshift) role or keys); at least one.
        type: list
        elements: str
      auto_create:
        description: Whether Redshift creates the user on first connection (a V(aws-redshift) role or keys).
        type: bool
      workgroup_arn:
        description: The Redshift Serverless workgroup's ARN (a V(aws-redshift) role or keys), when the cluster is serverless.
        type: str
      server_hostname:
        description: The Databricks workspace host, without C(https://) (V(databricks)). PostHog keeps the integration by it.
        type: str
      client_id:
        description: The Databricks service principal's client id (V(databricks)). Secret.
        type: str
      client_secret:
        description: The Databricks service principal's OAuth secret (V(databricks)). Secret.
        type: str
      service_account_email:
        description: The Google Cloud service account (V(google-cloud-service-account)). PostHog keeps the integration by it.
        type: str
      project_id:
        description: The Google Cloud project of the service account (V(google-cloud-service-account)).
        type: str
      private_key_id:
        description: The key file's C(private_key_id) (V(google-cloud-service-account)). Secret.
        type: str
      token_uri:
        description: The key file's C(token_uri) (V(google-cloud-service-account)). Secret.
        type: str
      connection_string:
        description:
          - The storage account's connection string (V(azure-blob)), with C(AccountName=) and
            C(DefaultEndpointsProtocol=https). Secret; PostHog keeps the integration by its account.
        type: str
  update_secrets:
    description:
      - V(on_create) sends the secrets only when the integration is created; PostHog never returns
        them, so they are not compared and the task stays idempotent.
      - V(always) replaces the integration with the secrets on every run (a rotation; the task then
        always reports a change). Only the kinds PostHog keeps by their connection can be replaced;
        for a named kind, create a new integration under another name, point the exports at it,
        then delete the old one.
    type: str
    choices: [on_create, always]
    default: on_create
  integrations:
    description:
      - Several integrations of the project O(project_id), each a dictionary of the options of one
        integration. An option an item leaves out takes the task's value.
      - The items are converged in order, in one run that lists the project's integrations once.
      - Every item is checked before any request; two items naming the same integration fail the
        task before any change.
    type: list
    elements: dict
    suboptions:
      state:
        description: Like O(state).
        type: str
        choices: [present, absent]
      name:
        description: Like O(name).
        type: str
      id:
        description: Like O(id).
        type: str
      kind:
        description: Like O(kind).
        type: str
      config:
        description: Like O(config) (its keys and secrets as there).
        type: dict
        suboptions:
          aws_access_key_id:
            description: Like O(config.aws_access_key_id).
            type: str
          aws_secret_access_key:
            description: Like O(config.aws_secret_access_key).
            type: str
          aws_role_arn:
            description: Like O(config.aws_role_arn).
            type: str
          endpoint_url:
            description: Like O(config.endpoint_url).
            type: str
          account:
            description: Like O(config.account).
            type: str
          user:
            description: Like O(config.user).
            type: str
          authentication_type:
            description: Like O(config.authentication_type).
            type: str
            choices: [password, keypair]
          password:
            description: Like O(config.password).
            type: str
          private_key:
            description: Like O(config.private_key).
            type: str
          private_key_passphrase:
            description: Like O(config.private_key_passphrase).
            type: str
          host:
            description: Like O(config.host).
            type: str
          port:
            description: Like O(config.port).
            type: int
          ssl_mode:
            description: Like O(config.ssl_mode).
            type: str
            choices: [require, verify-ca, verify-full]
          ssl_root_cert:
            description: Like O(config.ssl_root_cert).
            type: str
          groups:
            description: Like O(config.groups).
            type: list
            elements: str
          auto_create:
            description: Like O(config.auto_create).
            type: bool
          workgroup_arn:
            description: Like O(config.workgroup_arn).
            type: str
          server_hostname:
            description: Like O(config.server_hostname).
            type: str
          client_id:
            description: Like O(config.client_id).
            type: str
          client_secret:
            description: Like O(config.client_secret).
            type: str
          service_account_email:
            description: Like O(config.service_account_email).
            type: str
          project_id:
            description: Like O(config.project_id).
            type: str
          private_key_id:
            description: Like O(config.private_key_id).
            type: str
          token_uri:
            description: Like O(config.token_uri).
            type: str
          connection_string:
            description: Like O(config.connection_string).
            type: str
      update_secrets:
        description: Like O(update_secrets).
        type: str
        choices: [on_create, always]
notes:
  - Needs the scope C(integration:read), and C(integration:write) to create or delete. Any member of
    the project may create one; replacing one that exists and deleting another's needs the admin
    level (PostHog refuses otherwise, and the task says so). Deleting checks the project's batch
    exports, which needs C(batch_export:read).
  - PostHog checks AWS keys with AWS (its account id then shows in C(config.aws_account_id)), tries the
    role ARN, and resolves the hosts it is given; the module checks what it can without reaching
    them.
  - "Requests: one list of the project's integrations (or one GET by O(id)); a creation adds one
    POST, a deletion one list of the project's batch exports and one DELETE."
seealso:
  - module: posthog.admin.integration_info
  - module: posthog.admin.batch_export
"""

EXAMPLES = r"""
- name: Find the Acme Web project
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: The AWS keys the S3 exports of Acme Web write with
  posthog.admin.integration:
    project_id: "{{ acme_web.projects[0].id }}"
    kind: aws-s3
    name: acme-aws
    config:
      aws_access_key_id: "{{ vault_export_key_id }}"
      aws_secret_access_key: "{{ vault_export_secret }}"

- name: The Snowflake login and the warehouse's PostgreSQL login, in one task
  posthog.admin.integration:
    project_id: "{{ acme_web.projects[0].id }}"
    integrations:
      - kind: snowflake
        name: acme-snowflake
        config:
          account: acme-eu
          user: POSTHOG
          password: "{{ vault_snowflake_password }}"
      - kind: postgresql
        config:
          host: warehouse.acme.example
          port: 5432
          user: posthog_export
          password: "{{ vault_warehouse_password }}"
  register: credentials

- name: Export events to S3 with the acme-aws keys
  posthog.admin.batch_export:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Events to S3 (acme-aws)
    interval: hour
    destination:
      type: AwsS3
      integration: acme-aws
      config:
        bucket_name: acme-posthog-exports
        region: eu-west-1
        prefix: signups/

- name: Rotate the warehouse password (PostHog replaces the login in place)
  posthog.admin.integration:
    project_id: "{{ acme_web.projects[0].id }}"
    kind: postgresql
    update_secrets: always
    config:
      host: warehouse.acme.example
      port: 5432
      user: posthog_export
      password: "{{ vault_warehouse_password }}"

- name: Retire keys nothing exports with any more
  posthog.admin.integration:
    project_id: "{{ acme_web.projects[0].id }}"
    kind: aws-s3
    name: acme-aws-2025
    state: absent
"""

RETURN = r"""
integration:
  description:
    - The integration as PostHog returns it after the task, with C(name) added (in check mode, as it
      would be; a new one has no C(id) yet). Empty after O(state=absent). Secrets are never returned.
  returned: when O(integrations) is not given
  type: dict
  contains:
    id:
      description: The integration's id, what C(destination.integration) of M(posthog.admin.batch_export) takes.
      type: int
    kind:
      description: Its kind.
      type: str
    name:
      description: The name the module knows it by (see O(name)).
      type: str
    display_name:
      description: How PostHog shows it.
      type: str
    config:
      description: Its settings that are not secret, as PostHog keeps them.
      type: dict
  sample:
    id: 7
    kind: aws-s3
    name: acme-aws
    display_name: acme-aws (AWS account 123456789012)
    config:
      name: acme-aws
      aws_account_id: "123456789012"
    created_at: "2026-01-31T08:00:00Z"
    errors: ""
integrations:
  description: With O(integrations), each item's integration as RV(integration) describes it, in order.
  returned: when O(integrations) is given
  type: list
  elements: dict
diff:
  description:
    - The integration's name, kind and managed settings before and after, in diff mode; secrets
      being sent show masked. With O(integrations), one entry per changed integration.
  returned: when diff mode is on and something changed
  type: raw
  sample:
    before: {}
    after:
      name: acme-aws
      kind: aws-s3
      config:
        aws_access_key_id: VALUE_SPECIFIED_IN_NO_LOG_PARAMETER
        aws_secret_access_key: VALUE_SPECIFIED_IN_NO_LOG_PARAMETER
"""

from ansible_collections.posthog.admin.plugins.module_utils._integration import ARGUMENT_SPEC, Integration
from ansible_collections.posthog.admin.plugins.module_utils._module import run_module


def main():
    run_module(Integration, ARGUMENT_SPEC)


if __name__ == "__main__":
    main()
