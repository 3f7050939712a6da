#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: organization_state
short_description: Converge a whole PostHog organization from one document
version_added: 0.1.0
description:
  - Makes one organization look like O(definition) says, in one task - its settings, projects, roles
    and the default role, domains and single sign-on, identity provider configurations, people, managed
    reverse proxies, batch exports, pipeline plugins and documented event definitions - by handing each
    part to the engine of the module that manages it (M(posthog.admin.organization), M(posthog.admin.project),
    M(posthog.admin.role), M(posthog.admin.domain), M(posthog.admin.identity_provider_config),
    M(posthog.admin.roster),
    M(posthog.admin.proxy_record), M(posthog.admin.batch_export), M(posthog.admin.pipeline_plugin),
    M(posthog.admin.event_definition)), in one process.
  - Every part of the document is checked before the first request, each collection is read once,
    and only what differs is written. An unchanged organization costs one request per collection.
  - A part the document leaves out is not managed; inside a part, options an item leaves out are not
    managed. With O(prune=true), a part the document has also loses what it does not list.
  - Run it in check mode with diff mode for a drift report - what would be added, changed and
    removed, part by part - for example on a schedule from AWX.
  - M(posthog.admin.organization_state_info) exports an organization in this shape, so an existing
    organization can be adopted - exported, kept in git, applied back with no change.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization_unused
  - posthog.admin.posthog.project_unused
  - posthog.admin.posthog.attributes
attributes:
  action:
    description: Indicates this has a corresponding action plugin so some parts of the options can be executed on the controller.
    support: full
    details:
      - With the C(local) connection, the controller's own Python as C(ansible_python_interpreter) (as the
        examples of the inventory plugin P(posthog.admin.organizations#inventory) set them), and no C(become),
        C(environment) or C(async), the task runs in the controller's worker process instead of a module
        process of its own. It is the same code, with the arguments checked the same way, in the same working
        directory (the playbook's, so a relative O(definition_file) or O(plan_file) names the same file either way),
        and it returns the same result after the same requests. What it saves is the module process's start-up,
        about two thirds of an unchanged organization's CPU (see the fleet guide).
      - Set the variable C(posthog_admin_in_process) to V(false) to run it as a module process anyway. An
        ansible-core older than 2.16 or newer than 2.21, and an ansible-core older than 2.19 at C(-vvv), run it as
        a module process too; C(-vvv) says which way each task ran.
options:
  definition:
    description:
      - The organization, as the variable C(organization_as_code_organization) of the role
        P(posthog.admin.organization_as_code#role) takes it (see the role's argument specification for
        every option).
      - C(name) (or C(id)) finds the organization; C(state) is V(present) (default) or V(absent);
        C(project_id) is the project new batch exports are created in and event definitions are
        documented in unless an item names its own (default, the organization's first project).
      - C(settings) takes the settings of M(posthog.admin.organization); C(default_role) names the role
        new members get (set once the roles exist).
      - C(projects), C(roles), C(domains), C(identity_provider_configs), C(proxy_records), C(integrations),
        C(batch_exports), C(access_controls), C(hog_functions), C(plugins), C(property_groups),
        C(event_definitions) and C(property_definitions) are lists whose items take the options of one
        object of M(posthog.admin.project), M(posthog.admin.role), M(posthog.admin.domain),
        M(posthog.admin.identity_provider_config) (PostHog's newest API only), M(posthog.admin.proxy_record),
        M(posthog.admin.integration), M(posthog.admin.batch_export), M(posthog.admin.access_control) and
        M(posthog.admin.hog_function) (PostHog's newest API only; each with its own C(project_id)),
        M(posthog.admin.pipeline_plugin) (with its C(family)), M(posthog.admin.property_group),
        M(posthog.admin.event_definition) and M(posthog.admin.property_definition) (each with its own
        C(project_id)); C(roster) takes the options of M(posthog.admin.roster).
      - What one part names in another is planned in order - an integration the document creates is
        created before the exports that name it (its id known after apply), a property group before the
        events that carry it - and deleting what another part still names (a group an event lists, keys
        an export uses) is refused before any write.
      - Values of options those modules mark secret (destination and integration credentials, an OIDC client
        secret) are masked in the output.
      - An event definition PostHog has not ingested yet is created on PostHog's newest API (older versions
        refuse it); a property definition not ingested yet is skipped with a warning (PostHog defines
        properties when it ingests them).
      - One of O(definition) and O(definition_file) is required.
    type: dict
  definition_file:
    description:
      - A YAML file holding the document (as M(posthog.admin.organization_state_info) writes it with
        C(dest)), read by the module itself on the host the task runs on.
      - No value of the file is ever evaluated as a template, so a name such as
        C({{ lookup('pipe', ...) }}) in an exported organization stays a name. Prefer it to
        O(definition) with C(lookup('file')) when the file comes from an export.
    type: path
  plan_file:
    description:
      - A reviewed plan, in two steps (as C(terraform plan -out) and C(terraform apply plan)).
      - In check mode, the module saves the plan it made to this file (JSON, private to its owner) - every
        action, the diff of each change (secrets masked), a fingerprint of the document and of every
        answer the plan was decided from, and when, against which host and for which organization it was
        made. Render it for review with the P(posthog.admin.plan_markdown#filter) filter.
      - In a real run, the module carries out that plan and nothing else. It plans again first and
        refuses, before any write, when the plan is stale - the host, the organization or the document
        differ, anything the plan read has changed on the server since (named), or the new plan's
        actions are not the saved ones. Of two plans made from the same state, only the first applies.
      - Fields PostHog changes by itself (an event's C(last_seen_at), an export's latest runs...) are left
        out of the fingerprints.
    type: path
  limits:
    description:
      - Refuse, before any write (in check mode too), a plan that goes beyond these limits; the refusal
        lists the actions over them. For scheduled jobs that should report a surprising drift instead of
        applying it.
    type: dict
    suboptions:
      max_deletes:
        description: At most this many deletes (deleted objects, removed people, revoked invites).
        type: int
      remove_people:
        description: Whether the plan may remove people or revoke invites.
        type: bool
        default: true
      change_sso:
        description: Whether the plan may change domains or identity provider configurations.
        type: bool
        default: true
      change_owners:
        description: Whether the plan may make someone an owner, or lower or remove an owner.
        type: bool
        default: true
  prune:
    description:
      - Also remove, in each part the document has, what it does not list - roles, domains, identity
        provider configurations, proxy records, integrations and batch exports of every project, property
        groups of every project, plugins of every family,
        and people (as M(posthog.admin.roster) with its purge option, so never the API key's own user, and owners only with O(prune_owners)).
      - Projects only with O(prune_projects) as well; event and property definitions never (PostHog makes
        them from what it ingests); integrations made in PostHog's web app (Slack ...) never.
      - A part the document leaves out is never pruned; an empty list prunes everything in its part.
    type: bool
    default: false
  prune_projects:
    description:
      - With O(prune), also delete projects the document does not list, with all their data (events,
        persons, recordings, dashboards).
    type: bool
    default: false
  prune_owners:
    description:
      - With O(prune), also remove owners the roster does not list (they are lowered to member first,
        as PostHog requires).
    type: bool
    default: false
notes:
  - Needs the scopes of the parts it manages (see each module); for all of them C(organization:write),
    C(organization_member:write), C(user:read), C(project:write), C(access_control:write),
    C(batch_export:write), C(integration:write), C(hog_function:write), C(plugin:write),
    C(event_definition:write) and C(property_definition:write).
  - Fails before any request when any part of the document is wrong, naming each problem.
  - Plans the whole organization before the first write (a check-mode pass; each collection is read
    once, and the real run reuses those reads) and refuses, with nothing written, a plan that deletes
    what the document still refers to (the default role, the project the document or an item lives
    in, a person a role lists) or a document that lists one object twice (role names regardless of
    case). Check mode returns that plan (RV(plan)); a real run carries out exactly its writes.
  - Fails at the first refused write with the part and item named, reporting C(changed=true) when
    earlier parts changed something, what was done (RV(done)), what was not attempted
    (RV(not_attempted)) and the write PostHog may have done all the same (RV(uncertain)); running the
    task again converges the rest.
seealso:
  - module: posthog.admin.organization_state_info
"""

EXAMPLES = r"""
- name: Acme is exactly as organizations/acme.yml says (exported by organization_state_info; read as data)
  posthog.admin.organization_state:
    definition_file: organizations/acme.yml

- name: Plan from the pull request's document and save the plan for review (check mode)
  posthog.admin.organization_state:
    definition_file: organizations/acme.yml
    plan_file: acme.plan.json
    limits:
      max_deletes: 5
      change_owners: false
  check_mode: true

- name: After the merge, apply exactly the reviewed plan (refused if anything changed since)
  posthog.admin.organization_state:
    definition_file: organizations/acme.yml
    plan_file: acme.plan.json

- name: Report drift without changing anything (run with --check --diff, e.g. from AWX on a schedule)
  posthog.admin.organization_state:
    definition_file: organizations/acme.yml
    prune: true
  check_mode: true
  diff: true
  register: drift

- name: Converge a small organization written inline
  posthog.admin.organization_state:
    definition:
      name: Acme
      settings:
        enforce_2fa: true
      domains:
        - domain: acme.example
      roster:
        people:
          - email: jane@example.com
            level: admin
"""

RETURN = r"""
organization:
  description: The organization as PostHog returns it after the task (in check mode, as it would be).
  returned: always
  type: dict
  sample:
    id: 0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f
    name: Acme
project_id:
  description:
    - The project the document's batch exports and event definitions go to unless an item names its own
      (the document's C(project_id), else the organization's first project). None when the organization
      does not exist (check mode) or was deleted.
  returned: always
  type: str
  sample: "12345"
dns_records:
  description:
    - The DNS TXT records of the document's domains that are not verified yet. PostHog verifies a domain
      by such a record, which you publish with your DNS provider's module; then set the domain's
      C(state) to V(verified).
  returned: always
  type: list
  elements: dict
  sample:
    - record_type: TXT
      name: _posthog-challenge.acme.example
      value: ph_verify_1a2b3c
cname_records:
  description:
    - The DNS CNAME records of the document's proxy records that are not live yet (PostHog serves a
      proxy once its domain points at the record's target).
  returned: always
  type: list
  elements: dict
  sample:
    - record_type: CNAME
      name: t.acme.example
      value: 0190a3f4.proxy-us.posthog.com
scim_bearer_tokens:
  description:
    - The SCIM bearer tokens PostHog made in this run, by identity provider configuration name (when an
      item turned SCIM on or regenerated its token). PostHog answers a token once, so this is the only
      place it appears; give it to your identity provider or a vault in the same play, and run such a
      task with C(no_log) where its output is kept.
  returned: when a SCIM token was made
  type: dict
  sample:
    Okta: phs_8f1c2d3e4a5b6c7d8e9f
sections:
  description:
    - What the task did, part by part - C(organization) and each part the document has. Each is a
      dict with C(changed) and, by what was done (C(created), C(updated), C(deleted), C(paused),
      C(resumed), C(verified), C(invited), C(removed), C(unchanged), C(skipped)...), the objects it was
      done to.
  returned: always
  type: dict
  sample:
    organization:
      changed: false
      unchanged: [organization]
    domains:
      changed: true
      created: ["domains[1] (domain 'login.acme.example')"]
      unchanged: ["domains[0] (domain 'acme.example')"]
plan:
  description:
    - Every action of the plan, in the order the real run takes them - the part (C(section)), what is
      done (C(action) - C(created), C(updated), C(deleted), C(members changed), C(invited), C(removed)...)
      and to which item (C(item), named as in RV(sections)); C(owner=true) on a roster action that makes,
      lowers or removes an owner. Empty when nothing would change.
    - "Each action is one request, as the real run sends it - C(id) (V(a1), V(a2)...), C(method), C(path)
      and C(body) (secrets masked) - with C(decided_on), the fingerprint of the object as read when the
      plan decided it (V(absent) for one to create), C(waits_for) (the ids of actions whose answers it
      uses; their values show as C((known after apply: a1.id ~...))), and C(limits) (the O(limits) it counts
      against). A real run sends exactly these requests, in this order, and no other write."
    - In check mode, what a real run would do; in a real run, what it did.
  returned: success, and when the plan is refused
  type: list
  elements: dict
  sample:
    - {id: a1, section: roles, action: created, item: "roles[1] (role 'Viewers')", method: POST,
       path: /api/organizations/0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f/roles/, body: {name: Viewers},
       decided_on: absent}
    - {id: a2, section: domains, action: deleted, item: "domains (domain 'old.acme.example', not in the document)",
       method: DELETE, path: /api/organizations/0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f/domains/7f1c.../,
       decided_on: 3f9a0c1b2d4e5f60}
pending:
  description:
    - What the plan cannot do yet and why - C(section), C(item), C(pending) (what waits) and C(reason) - such
      as a role or an access rule for someone invited who has not joined. The rest of the plan is applied; run
      the task again once the reason is gone.
  returned: when something waits
  type: list
  elements: dict
  sample:
    - {section: roles, item: "roles[0] (role 'Analysts')", pending: "members bob@acme.example",
       reason: "bob@acme.example is invited but not a member yet, and only members can hold a role; run this again once they have joined"}
plan_file:
  description: The plan file saved (check mode) or applied (a real run), when O(plan_file) is set.
  returned: when O(plan_file) is set
  type: str
  sample: acme.plan.json
done:
  description: When a write fails, the actions of the plan carried out before it (as in RV(plan)).
  returned: when a write fails
  type: list
  elements: dict
not_attempted:
  description: When a write fails, the actions of the plan not attempted (as in RV(plan)); run the task again.
  returned: when a write fails
  type: list
  elements: dict
uncertain:
  description:
    - When a write fails after it was sent (a lost answer, a 5xx such as a gateway's 504, a timeout), that action
      (as in RV(plan)), which PostHog may have done all the same. The next run reads what it did. Empty otherwise.
  returned: when a write fails
  type: list
  elements: dict
diff:
  description: One before/after per changed object, headed with its part and item.
  returned: when diff mode is on
  type: list
  elements: dict
"""

from ansible_collections.posthog.admin.plugins.module_utils._module import run_task
from ansible_collections.posthog.admin.plugins.module_utils._state import (
    STATE_ARGUMENT_SPEC,
    STATE_MODULE_OPTIONS,
    converge_state,
)


def main():
    run_task(STATE_ARGUMENT_SPEC, converge_state, **STATE_MODULE_OPTIONS)


if __name__ == "__main__":
    main()
