#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: batch_export
short_description: Create, update, pause, resume or delete a PostHog batch export
version_added: 0.1.0
description:
  - Makes sure a batch export of an organization exists with the settings you give and is running
    (O(state=present)) or paused (O(state=paused)), or does not exist (O(state=absent)).
  - The export is found by O(id), or else by O(name) among the organization's exports (the task
    fails when several share the name). Settings you leave out are not managed.
  - Destination credentials are write-only, see O(update_secrets).
  - O(batch_exports) manages many exports in one task, reading the organization's exports once for all
    of them instead of once per loop item.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.attributes
options:
  state:
    description:
      - V(present) creates or updates the export and makes sure it runs; a paused export is
        resumed with PostHog's C(unpause) action. So let one task own an export's state; a
        V(present) task and a V(paused) task for the same export resume and pause it on every run.
      - V(paused) creates or updates the export and makes sure it is paused (C(pause) action). An
        export created in this state is created paused, in one request.
      - V(absent) deletes the export. PostHog keeps it as deleted and cancels its running backfills.
    type: str
    choices: [present, paused, absent]
    default: present
  id:
    description:
      - The export's id (a UUID). With O(id), O(name) is a setting, so the export can be renamed.
      - One of O(id), O(name) and O(batch_exports) is required; O(batch_exports) excludes the other two.
      - When O(id) names no export of the organization, the task fails rather than creating one.
    type: str
  name:
    description:
      - The export's name. Required to create one.
      - Without O(id), the export of the organization with exactly this name.
    type: str
  model:
    description:
      - What is exported. PostHog's default on creation is V(events).
      - HTTP destinations take only V(events).
      - V(hogql) (PostHog's newest API, behind its C(hogql-batch-exports) feature) exports the results
        of O(hogql_query); PostHog refuses to switch an export to or from V(hogql); create a new one instead.
    type: str
    choices: [events, persons, sessions, hogql]
  interval:
    description:
      - How often a batch is exported. Required to create an export.
      - V(every 5 minutes) and V(every 15 minutes) need PostHog's C(high-frequency-batch-exports)
        feature for your team; without it PostHog answers 403 ("Higher frequency batch exports are not
        enabled for this team."), and the task says so. V(every 15 minutes) exists in PostHog's newest
        API only.
    type: str
    choices: [hour, day, week, every 5 minutes, every 15 minutes]
  destination:
    description:
      - Where the data goes. Required to create an export.
      - On update, only the config keys you give are compared and sent; PostHog merges them into
        the stored config, so keys you leave out (secrets included) are kept.
      - Giving another O(destination.type) than the export has replaces the whole config, so give
        every required key, secrets included.
    type: dict
    suboptions:
      type:
        description:
          - The destination type.
          - PostHog's newest API refuses V(S3) (use V(AwsS3), or V(S3Compatible) for other S3 storage)
            and keeps the credentials of V(AwsS3), V(S3Compatible), V(AzureBlob), V(Databricks), V(BigQuery)
            and new V(Snowflake), V(Postgres) and V(Redshift) exports in an integration, see
            O(destination.integration). It also refuses to change the type of an existing export;
            delete it and create it again.
        type: str
        required: true
        choices: [AwsS3, AzureBlob, BigQuery, Databricks, HTTP, NoOp, Postgres, Redshift, S3, S3Compatible, Snowflake]
      integration:
        description:
          - The integration that holds the destination's credentials (PostHog's newest API), by its
            numeric id or by its name (as M(posthog.admin.integration) names it - the name given, or for
            the kinds PostHog keeps by their connection, that connection, such as
            C(posthog_export@warehouse.acme.example:5432) - or its display name), looked up among the
            integrations of O(project_id) (V(@current) when not set). In
            M(posthog.admin.organization_state), an integration the same document creates is created
            first, and the export waits for it.
          - Required to create V(AwsS3) (integration kind C(aws-s3)), V(S3Compatible) (C(s3-compatible)),
            V(AzureBlob) (C(azure-blob)) and V(Databricks) (C(databricks)) exports, and on PostHog's newest API
            for V(Snowflake) (C(snowflake)), V(BigQuery) (C(google-cloud-service-account)), V(Postgres)
            (C(postgresql)) and V(Redshift) (C(aws-redshift)); with it, those take only their non-secret
            config keys.
          - Create integrations with M(posthog.admin.integration) (or in PostHog, Project settings >
            Integrations); list them with M(posthog.admin.integration_info).
        type: str
      config:
        description:
          - The destination's settings. Only the keys of O(destination.type) are accepted (the task
            fails before any request otherwise); every key PostHog requires must be given to create.
          - Keys marked write-only are secrets. PostHog never returns them; Ansible masks their
            values everywhere in its output (so avoid short, common values that would mask other
            text too), and the module shows them masked in the diff and the result.
        type: dict
        suboptions:
          account:
            description:
              - The Snowflake account identifier.
              - Required to create a Snowflake destination.
            type: str
          arg:
            description:
              - "NoOp: an argument for the test destination."
            type: str
          authentication_type:
            description:
              - "Snowflake: V(password) or V(keypair)."
            type: str
          aws_access_key_id:
            description:
              - The AWS access key id. Write-only.
            type: str
          aws_secret_access_key:
            description:
              - The AWS secret access key. Write-only.
            type: str
          bucket_name:
            description:
              - The S3 bucket.
              - Required to create an S3 destination.
            type: str
          catalog:
            description:
              - "Databricks: the catalog."
              - Required to create a Databricks destination.
            type: str
          client_email:
            description:
              - "BigQuery: the service account e-mail. Write-only."
              - Required to create a BigQuery destination.
            type: str
          compression:
            description:
              - V(gzip) or V(brotli) for JSONLines; V(zstd), V(lz4), V(snappy), V(gzip) or V(brotli) for Parquet.
            type: str
          container_name:
            description:
              - "AzureBlob: the container."
              - Required to create a AzureBlob destination.
            type: str
          copy_inputs:
            description:
              - "Redshift COPY mode: C(s3_bucket), C(region_name), C(authorization), C(bucket_credentials)."
              - It holds AWS credentials, so it is write-only as a whole.
            type: dict
          database:
            description:
              - The database (Snowflake, Postgres, Redshift).
              - Required to create a Snowflake or Postgres or Redshift destination.
            type: str
          dataset_id:
            description:
              - "BigQuery: the dataset."
              - Required to create a BigQuery destination.
            type: str
          encryption:
            description:
              - Server-side encryption, for example V(AES256) or V(aws:kms).
            type: str
          endpoint_url:
            description:
              - An S3-compatible endpoint instead of AWS; an empty string means AWS.
            type: str
          exclude_events:
            description:
              - Event names not to export (any type).
            type: list
            elements: str
          file_format:
            description:
              - V(JSONLines) (PostHog's default) or V(Parquet).
            type: str
          has_self_signed_cert:
            description:
              - "Postgres: the server uses a self-signed certificate."
            type: bool
          host:
            description:
              - Postgres or Redshift host name.
              - Required to create a Postgres or Redshift destination.
            type: str
          http_path:
            description:
              - "Databricks: the SQL warehouse HTTP path."
              - Required to create a Databricks destination.
            type: str
          include_events:
            description:
              - Only export these event names (any type).
            type: list
            elements: str
          kms_key_id:
            description:
              - The KMS key for V(aws:kms) encryption (an id, not a secret).
            type: str
          max_file_size_mb:
            description:
              - Split the files of a run at this size.
            type: int
          mode:
            description:
              - "Redshift: V(INSERT) or V(COPY)."
            type: str
          password:
            description:
              - The database password (Snowflake, Postgres, Redshift). Write-only.
              - Required to create a Postgres or Redshift destination.
            type: str
          port:
            description:
              - Postgres (default 5432) or Redshift (default 5439) port.
            type: int
          prefix:
            description:
              - The key prefix of the exported files.
              - Required to create an S3 destination.
            type: str
          private_key:
            description:
              - Snowflake key-pair private key, or the BigQuery service account's private key. Write-only.
              - Required to create a BigQuery destination.
            type: str
          private_key_id:
            description:
              - "BigQuery: the service account key id. Write-only."
              - Required to create a BigQuery destination.
            type: str
          private_key_passphrase:
            description:
              - "Snowflake: passphrase of the private key. Write-only."
            type: str
          project_id:
            description:
              - "BigQuery: the Google Cloud project."
              - Required to create a BigQuery destination.
            type: str
          properties_data_type:
            description:
              - "Redshift: V(varchar) or V(super) for properties."
            type: str
          region:
            description:
              - The bucket's AWS region.
              - Required to create an S3 destination.
            type: str
          role:
            description:
              - "Snowflake: the role to use."
            type: str
          schema:
            description:
              - The schema (Snowflake, Databricks; Postgres and Redshift default to V(public)).
              - Required to create a Snowflake or Databricks destination.
            type: str
          table_id:
            description:
              - "BigQuery: the table (PostHog's default is V(events))."
            type: str
          table_name:
            description:
              - The table to write to (PostHog's default is V(events)).
              - Required to create a Databricks destination.
            type: str
          token:
            description:
              - "HTTP: the project API token to send with. Write-only."
              - Required to create a HTTP destination.
            type: str
          token_uri:
            description:
              - "BigQuery: the service account token URI. Write-only."
              - Required to create a BigQuery destination.
            type: str
          url:
            description:
              - "HTTP: V(https://us.i.posthog.com/batch/) or V(https://eu.i.posthog.com/batch/)."
              - Required to create a HTTP destination.
            type: str
          use_automatic_schema_evolution:
            description:
              - "Databricks: let the table schema evolve."
            type: bool
          use_json_type:
            description:
              - "BigQuery: store properties as JSON."
            type: bool
          use_variant_type:
            description:
              - "Databricks: store properties as VARIANT."
            type: bool
          use_virtual_style_addressing:
            description:
              - Use virtual-hosted-style bucket addresses.
            type: bool
          user:
            description:
              - The database user (Snowflake, Postgres, Redshift). Write-only.
              - Required to create a Snowflake or Postgres or Redshift destination.
            type: str
          warehouse:
            description:
              - The Snowflake warehouse.
              - Required to create a Snowflake destination.
            type: str
  update_secrets:
    description:
      - When to send the write-only config keys (see O(destination.config)) of an existing export.
        PostHog never returns them, so they cannot be compared.
      - V(on_create) sends them only when the export is created. On update, only the other keys
        are compared and sent; a changed secret is not noticed. To rotate a secret, run once with
        V(always).
      - V(always) sends every secret you give on every run, and the task then always reports changed.
    type: str
    choices: [on_create, always]
    default: on_create
  start_at:
    description:
      - No runs are triggered before this time. An ISO-8601 date-time with a timezone, for example
        V(2026-01-01T00:00:00Z). Compared as an instant, so V(+00:00) and V(Z) are the same.
    type: str
  end_at:
    description:
      - No runs are triggered after this time. Same format as O(start_at), and after it.
    type: str
  hogql_query:
    description:
      - A HogQL C(SELECT ... FROM events) that chooses the exported fields (no C(JOIN), C(UNION) or
        subquery). PostHog turns it into the export's C(schema).
      - With O(model=hogql), the query whose results are exported (required then).
      - Compared with the query PostHog keeps in C(schema.hogql_query), ignoring whitespace.
        PostHog may reprint a query in its own style; write it the way PostHog prints it to stay idempotent.
    type: str
  hogql_modifiers:
    description:
      - "HogQL modifiers for the query of a V(hogql) export (PostHog's newest API), for example
        C({convertToProjectTimezone: true})."
      - PostHog refuses them with any other O(model) and refuses
        unknown modifier names. Compared key by key; PostHog replaces the whole set on update.
    type: dict
  incremental_mode:
    description:
      - How the runs of a V(hogql) export land in the destination (PostHog's newest API) — V(APPEND)
        adds the rows of each run, V(MERGE) merges them on O(primary_key). PostHog sets V(APPEND) on
        create when it is left out.
      - An older PostHog has no such field; the task fails rather than sending it on every run.
    type: str
    choices: [APPEND, MERGE]
  primary_key:
    description:
      - The columns of O(hogql_query) that identify a row of a V(hogql) export (PostHog's newest
        API). Required with O(incremental_mode=MERGE). PostHog refuses names that are not columns of
        the query, and the option with any other O(model).
      - Compared as a list, in order.
    type: list
    elements: str
  version_key:
    description:
      - The columns of O(hogql_query) that order the versions of a row of a V(hogql) export
        (PostHog's newest API); with O(incremental_mode=MERGE) the newest version wins. Compared as a
        list, in order.
    type: list
    elements: str
  filters:
    description:
      - "Property filters that narrow which events are exported, each a serialized HogQL property
        filter with a C(type) of V(event), V(person) or V(hogql), for example
        C({key: $browser, operator: exact, type: event, value: [Firefox]}). Not with O(model=hogql)."
      - Compared as a whole list, in order.
    type: list
    elements: dict
  timezone:
    description:
      - The IANA timezone (V(Europe/Berlin), V(UTC)) whose day and week boundaries daily and weekly
        exports follow (PostHog's newest API; PostHog's default is V(UTC)).
    type: str
  offset_day:
    description:
      - Weekly exports (O(interval=week)) only; the day the week's run starts, V(0) (Sunday) to V(6)
        (Saturday). PostHog's newest API.
      - With O(offset_hour) the module also sends O(interval) (PostHog applies offsets only with it).
    type: int
  offset_hour:
    description:
      - Daily and weekly exports only; the hour (V(0) to V(23), in O(timezone)) the run starts.
        PostHog's newest API.
    type: int
  project_id:
    description:
      - The numeric id of the project whose exports the task manages (or V(@current), the key user's
        current project). The export is then looked up, created and changed through
        C(/api/projects/<project_id>/batch_exports/), PostHog's canonical route and the only one its
        newest API has, among that project's exports only.
      - Set once for every module in C(module_defaults) for C(group/posthog.admin.posthog), it applies
        here too.
      - Without it the task uses the organization's route (the spec's and older PostHog's), where the
        export is looked up in the whole organization; the emulator creates there in the
        organization's first project. Against PostHog's newest API, which has no organization route,
        a task without O(project_id) fails saying to set it.
      - O(destination.integration) given by name is looked up in this project.
    type: str
  batch_exports:
    description:
      - Several exports, each a dictionary of the options of one export. An option an item leaves out
        takes the value of the task's option of the same name (so O(state), O(update_secrets),
        O(interval) or O(project_id) set beside O(batch_exports) applies to every item that does not
        set its own). An item's C(destination) replaces the task's O(destination) as a whole.
      - The items are converged in order, in one module run that lists the organization's exports once
        (and each O(project_id)'s once); an item with C(id) costs one GET. An idempotent run of any
        number of exports named by C(name) costs one request per collection (one page of exports).
      - Every item is checked before any request (argument types, destination keys, timestamps); two
        items naming the same export (by C(name) or C(id)) fail the task before any change. When an item
        fails, the task fails naming it, and returns RV(batch_exports) for the items converged before it.
      - Write-only keys given in an item are C(no_log) like those of O(destination), so they never
        appear in the output.
    type: list
    elements: dict
    suboptions:
      state:
        description: Like O(state); defaults to the task's O(state).
        type: str
        choices: [present, paused, absent]
      id:
        description: Like O(id). One of C(name) and C(id) is required.
        type: str
      name:
        description: Like O(name).
        type: str
      model:
        description: Like O(model).
        type: str
        choices: [events, persons, sessions, hogql]
      interval:
        description: Like O(interval).
        type: str
        choices: [hour, day, week, every 5 minutes, every 15 minutes]
      destination:
        description: Like O(destination); an item's destination replaces the task's O(destination) as a whole.
        type: dict
        suboptions:
          type:
            description: Like O(destination.type).
            type: str
            required: true
            choices: [AwsS3, AzureBlob, BigQuery, Databricks, HTTP, NoOp, Postgres, Redshift, S3, S3Compatible, Snowflake]
          integration:
            description: Like O(destination.integration).
            type: str
          config:
            description: Like O(destination.config); write-only keys are masked the same way.
            type: dict
            suboptions:
              account:
                description: Like O(destination.config.account).
                type: str
              arg:
                description: Like O(destination.config.arg).
                type: str
              authentication_type:
                description: Like O(destination.config.authentication_type).
                type: str
              aws_access_key_id:
                description: Like O(destination.config.aws_access_key_id).
                type: str
              aws_secret_access_key:
                description: Like O(destination.config.aws_secret_access_key).
                type: str
              bucket_name:
                description: Like O(destination.config.bucket_name).
                type: str
              catalog:
                description: Like O(destination.config.catalog).
                type: str
              client_email:
                description: Like O(destination.config.client_email).
                type: str
              compression:
                description: Like O(destination.config.compression).
                type: str
              container_name:
                description: Like O(destination.config.container_name).
                type: str
              copy_inputs:
                description: Like O(destination.config.copy_inputs).
                type: dict
              database:
                description: Like O(destination.config.database).
                type: str
              dataset_id:
                description: Like O(destination.config.dataset_id).
                type: str
              encryption:
                description: Like O(destination.config.encryption).
                type: str
              endpoint_url:
                description: Like O(destination.config.endpoint_url).
                type: str
              exclude_events:
                description: Like O(destination.config.exclude_events).
                type: list
                elements: str
              file_format:
                description: Like O(destination.config.file_format).
                type: str
              has_self_signed_cert:
                description: Like O(destination.config.has_self_signed_cert).
                type: bool
              host:
                description: Like O(destination.config.host).
                type: str
              http_path:
                description: Like O(destination.config.http_path).
                type: str
              include_events:
                description: Like O(destination.config.include_events).
                type: list
                elements: str
              kms_key_id:
                description: Like O(destination.config.kms_key_id).
                type: str
              max_file_size_mb:
                description: Like O(destination.config.max_file_size_mb).
                type: int
              mode:
                description: Like O(destination.config.mode).
                type: str
              password:
                description: Like O(destination.config.password).
                type: str
              port:
                description: Like O(destination.config.port).
                type: int
              prefix:
                description: Like O(destination.config.prefix).
                type: str
              private_key:
                description: Like O(destination.config.private_key).
                type: str
              private_key_id:
                description: Like O(destination.config.private_key_id).
                type: str
              private_key_passphrase:
                description: Like O(destination.config.private_key_passphrase).
                type: str
              project_id:
                description: Like O(destination.config.project_id).
                type: str
              properties_data_type:
                description: Like O(destination.config.properties_data_type).
                type: str
              region:
                description: Like O(destination.config.region).
                type: str
              role:
                description: Like O(destination.config.role).
                type: str
              schema:
                description: Like O(destination.config.schema).
                type: str
              table_id:
                description: Like O(destination.config.table_id).
                type: str
              table_name:
                description: Like O(destination.config.table_name).
                type: str
              token:
                description: Like O(destination.config.token).
                type: str
              token_uri:
                description: Like O(destination.config.token_uri).
                type: str
              url:
                description: Like O(destination.config.url).
                type: str
              use_automatic_schema_evolution:
                description: Like O(destination.config.use_automatic_schema_evolution).
                type: bool
              use_json_type:
                description: Like O(destination.config.use_json_type).
                type: bool
              use_variant_type:
                description: Like O(destination.config.use_variant_type).
                type: bool
              use_virtual_style_addressing:
                description: Like O(destination.config.use_virtual_style_addressing).
                type: bool
              user:
                description: Like O(destination.config.user).
                type: str
              warehouse:
                description: Like O(destination.config.warehouse).
                type: str
      update_secrets:
        description: Like O(update_secrets); defaults to the task's O(update_secrets).
        type: str
        choices: [on_create, always]
      start_at:
        description: Like O(start_at).
        type: str
      end_at:
        description: Like O(end_at).
        type: str
      hogql_query:
        description: Like O(hogql_query).
        type: str
      hogql_modifiers:
        description: Like O(hogql_modifiers).
        type: dict
      incremental_mode:
        description: Like O(incremental_mode).
        type: str
        choices: [APPEND, MERGE]
      primary_key:
        description: Like O(primary_key).
        type: list
        elements: str
      version_key:
        description: Like O(version_key).
        type: list
        elements: str
      filters:
        description: Like O(filters).
        type: list
        elements: dict
      timezone:
        description: Like O(timezone).
        type: str
      offset_day:
        description: Like O(offset_day).
        type: int
      offset_hour:
        description: Like O(offset_hour).
        type: int
      project_id:
        description: Like O(project_id); each item may manage an export of its own project (the exports
          of each project are listed once).
        type: str
notes:
  - Needs the scope C(batch_export:read), and C(batch_export:write) to change anything (the C(pause)
    and C(unpause) actions need C(batch_export:write) too); C(integration:read) to find
    O(destination.integration) by name (an id costs no request).
  - Write-only values. PostHog strips the destination's credentials (S3 C(aws_access_key_id) and
    C(aws_secret_access_key); Snowflake, Postgres and Redshift C(user) and C(password); Snowflake
    C(private_key) and C(private_key_passphrase); Redshift C(copy_inputs); BigQuery C(private_key),
    C(private_key_id), C(client_email) and C(token_uri); HTTP C(token)) from every response. With
    O(update_secrets=on_create) (the default) they are sent only when the export is created;
    V(always) sends them on every run and reports changed.
  - The write-only keys are declared C(no_log) suboptions of O(destination.config), so Ansible masks
    their values in results, diffs, verbose output and the module's invocation log; the module also
    masks them in C(batch_export) and C(diff).
  - Pausing and resuming use PostHog's C(pause) and C(unpause) actions, never a PATCH of C(paused).
    Real PostHog answers those actions with C(paused) only, so the module then reads the export
    once more to return it; the emulator's C(spec) profile answers with the export.
  - An idempotent run costs one request (a GET by O(id), or one page of the organization's, or with
    O(project_id) the project's, exports by O(name), or with O(batch_exports) one list per collection
    for all the items named by C(name) plus one GET per item given by C(id)), plus one to look up
    O(organization) when it is given as a slug or name, plus one list of the project's integrations
    when O(destination.integration) is a name (an id costs none).
  - With O(batch_exports), an item that pauses or resumes an export against real PostHog (which
    answers those actions with C(paused) only) makes the next item read the organization's exports
    again.
  - "PostHog's newest API (2026): exports live under projects only (set O(project_id)); S3 credentials,
    and those of most other destinations, live in integrations (O(destination.integration)); inline
    AWS keys are refused, and the task then says how to create the integration. Older PostHog and the
    spec keep the organization route and inline credentials, which the module still supports."
seealso:
  - module: posthog.admin.batch_export_info
  - module: posthog.admin.batch_export_backfill
"""

EXAMPLES = r"""
- name: Find the Acme Web project (its id is what the exports' API takes)
  posthog.admin.project_info:
    organization: Acme
    name: Acme Web
  register: acme_web

- name: The credentials the exports write with (their secrets from a vault, sent once)
  posthog.admin.integration:
    project_id: "{{ acme_web.projects[0].id }}"
    integrations:
      - kind: aws-s3
        name: acme-aws
        config:
          aws_access_key_id: "{{ vault_export_key_id }}"
          aws_secret_access_key: "{{ vault_export_secret }}"
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

# One task owns an export's state: a task with state=present resumes a paused export, so a
# "present" task followed by a "paused" task for the same export would resume and pause it on
# every run. Pause it through the one task instead:
- name: Export events to S3 every hour, credentials in the integration named acme-aws (paused during maintenance)
  posthog.admin.batch_export:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Events to S3
    state: "{{ 'paused' if maintenance | default(false) else 'present' }}"
    interval: hour
    model: events
    destination:
      type: AwsS3
      integration: acme-aws
      config:
        bucket_name: acme-posthog-exports
        region: eu-west-1
        prefix: events/
        file_format: Parquet
        compression: zstd

- name: Find the export still called Raw events
  posthog.admin.batch_export_info:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Raw events
  register: raw_events

- name: Rename it to Raw events to S3, keeping its id (nothing left to do once it is renamed)
  posthog.admin.batch_export:
    project_id: "{{ acme_web.projects[0].id }}"
    id: "{{ raw_events.batch_exports[0].id }}"
    name: Raw events to S3
  when: raw_events.batch_exports | length == 1

- name: Firefox events once a day at 02:00 Berlin time
  posthog.admin.batch_export:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Firefox events to S3
    interval: day
    timezone: Europe/Berlin
    offset_hour: 2
    destination:
      type: AwsS3
      integration: acme-aws
      config:
        bucket_name: acme-posthog-exports
        region: eu-west-1
        prefix: firefox/
        file_format: Parquet
        compression: zstd
    filters:
      - key: $browser
        type: event
        operator: exact
        value: [Firefox]

- name: The latest version of each person's order, merged into Snowflake
  posthog.admin.batch_export:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Orders to Snowflake
    model: hogql
    interval: hour
    hogql_query: >-
      SELECT properties.order_id AS order_id, max(timestamp) AS version, argMax(properties.total, timestamp) AS total
      FROM events WHERE event = 'order_placed' GROUP BY order_id
    incremental_mode: MERGE
    primary_key: [order_id]
    version_key: [version]
    destination:
      type: Snowflake
      integration: acme-snowflake
      config:
        database: ANALYTICS
        warehouse: EXPORTS
        schema: POSTHOG

- name: Persons to Postgres, with the warehouse's PostgreSQL login (PostHog names it by the login)
  posthog.admin.batch_export:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Persons to the warehouse
    model: persons
    interval: day
    destination:
      type: Postgres
      integration: posthog_export@warehouse.acme.example:5432
      config:
        database: analytics
        schema: posthog

- name: Delete an export
  posthog.admin.batch_export:
    project_id: "{{ acme_web.projects[0].id }}"
    name: Old export
    state: absent

- name: Several exports in one task (one list of the project's exports, whatever their number)
  posthog.admin.batch_export:
    project_id: "{{ acme_web.projects[0].id }}"
    interval: hour
    batch_exports:
      - name: Pageviews to S3
        destination:
          type: AwsS3
          integration: acme-aws
          config:
            bucket_name: acme-posthog-exports
            region: eu-west-1
            prefix: pageviews/
      - name: Events to the data lake
        interval: day
        state: paused
        destination:
          type: HTTP
          config:
            url: https://eu.i.posthog.com/batch/
            token: "{{ vault_lake_project_token }}"
      - name: Old export
        state: absent
  register: acme_exports

- name: Show the ids of the exports
  ansible.builtin.debug:
    msg: "{{ acme_exports.batch_exports | map(attribute='id', default='(deleted)') | list }}"
"""

RETURN = r"""
batch_export:
  description:
    - The export as PostHog returns it after the task (in check mode, as it would be), with
      C(latest_runs) (at most 10, newest first). Write-only config keys never appear.
    - Empty after O(state=absent).
  returned: unless O(batch_exports) is set
  type: dict
  sample:
    id: 01900000-0000-7000-8000-000000000001
    team_id: 2
    name: Events to S3
    model: events
    interval: hour
    paused: false
    last_paused_at: null
    destination:
      type: S3
      config:
        bucket_name: acme-posthog-exports
        region: eu-west-1
        prefix: events/
    start_at: null
    end_at: null
    schema: null
    latest_runs:
      - id: 01900000-0000-7000-8000-0000000000aa
        status: Completed
        records_completed: 1200
        data_interval_start: "2026-01-31T09:00:00Z"
        data_interval_end: "2026-01-31T10:00:00Z"
    created_at: "2026-01-31T08:00:00Z"
batch_exports:
  description:
    - With O(batch_exports), each item's export after the task, in the order of the items, like
      RV(batch_export) (empty for an item with C(state=absent)).
    - On failure, the exports of the items converged before the failing one.
  returned: when O(batch_exports) is set
  type: list
  elements: dict
  sample:
    - id: 01900000-0000-7000-8000-000000000001
      team_id: 2
      name: Events to S3
      model: events
      interval: hour
      paused: false
      destination:
        type: S3
        config:
          bucket_name: acme-posthog-exports
          region: eu-west-1
          prefix: events/
    - {}
diff:
  description:
    - The managed settings, the destination and C(paused), before and after, in diff mode.
      Write-only keys that are sent appear masked on the after side.
    - With O(batch_exports), a list with one such entry per item that changed, each with headers naming
      the item (an empty list when nothing changed).
  returned: when diff mode is on and something changed (with O(batch_exports), whenever diff mode is on)
  type: raw
  sample:
    before:
      name: Events to S3
      interval: hour
      paused: false
      destination:
        type: S3
        config:
          prefix: events/
    after:
      name: Events to S3
      interval: day
      paused: true
      destination:
        type: S3
        config:
          prefix: events/
"""

from ansible_collections.posthog.admin.plugins.module_utils._batch_export import ARGUMENT_SPEC, BatchExport
from ansible_collections.posthog.admin.plugins.module_utils._module import run_module


def main():
    run_module(BatchExport, ARGUMENT_SPEC, required_one_of=[("id", "name")])


if __name__ == "__main__":
    main()
