#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
module: roster
short_description: Declare the whole set of people in a PostHog organization
version_added: 0.1.0
description:
  - Converges the people of an organization to a list, in one task and a handful of requests.
  - Listed people who are not members are invited (PostHog's bulk endpoint, 20 to a request). A
    pending invite at the listed level counts as present, so nobody is invited twice. A pending
    invite at another level is replaced by a new one (PostHog cannot change an invite).
  - Listed members at another level get their level changed.
  - With O(purge=true), members who are not listed are removed and invites of people who are not
    listed are revoked; without it they are reported in RV(kept) and left alone.
  - The API key's own user is never removed, and owners are only removed with
    O(purge_owners=true) (PostHog never removes an owner, so the module first lowers them to
    member, then removes them).
  - Before the first write, the whole plan is checked against PostHog's level rules (who may invite
    at which level, who may change or remove whom); a plan PostHog would refuse fails with
    PostHog's own words and changes nothing.
  - People join by accepting their invite; PostHog has no way to add a member directly.
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - posthog.admin.posthog
  - posthog.admin.posthog.organization
  - posthog.admin.posthog.attributes
options:
  people:
    description:
      - Everyone who should belong to the organization. Each email address may appear once;
        addresses are matched case-insensitively.
    type: list
    elements: dict
    required: true
    suboptions:
      email:
        description: The person's email address.
        type: str
        required: true
      level:
        description: The person's level.
        type: str
        choices: [member, admin, owner]
        default: member
      first_name:
        description:
          - The person's first name, used in the invite email (at most 30 characters).
          - Only used when an invite is sent; PostHog does not let anyone change another user's name.
        type: str
  purge:
    description:
      - Whether to remove members who are not listed and revoke invites of people who are not
        listed (pending or expired).
    type: bool
    default: false
  purge_owners:
    description:
      - With O(purge), whether owners who are not listed are removed too (lowered to member, then
        removed). Only an owner's API key can do that.
    type: bool
    default: false
  resend_expired:
    description:
      - Whether listed people whose invites have all expired get a new invite. Otherwise they are
        reported in RV(expired).
    type: bool
    default: false
  send_email:
    description:
      - Whether PostHog emails new invites.
    type: bool
    default: true
  invite_message:
    description:
      - A personal message added to every invite email this task sends (PostHog's C(message) field).
    type: str
notes:
  - Needs the scopes C(organization_member:read) and C(organization_member:write), and C(user:read)
    when the task changes or removes members, revokes invites or invites above the member level
    (it reads C(/api/users/@me/) to recognise the key's own membership and level).
  - Changing levels, removing members and revoking invites needs the admin level; making owners and
    removing owners needs the owner level; nobody can change their own level.
  - "Requests: one list of members and one list of invites (500 per page); then, only when
    something changes, one read of the key's user, one request per 20 invites, one PATCH per level
    change and one DELETE per removal (two for an owner) or revoked invite. A run that changes nothing
    makes two requests."
  - PostHog answers the bulk invite endpoint with HTTP 201; the spec documents 200. Both are accepted.
seealso:
  - module: posthog.admin.invite
  - module: posthog.admin.member
  - module: posthog.admin.member_info
"""

EXAMPLES = r"""
- name: The people of Acme, and nobody else
  posthog.admin.roster:
    organization: Acme
    purge: true
    people:
      - email: ada@example.com
        level: owner
      - email: jane@example.com
        level: admin
        first_name: Jane
      - email: bob@example.com
      - email: cy@example.com
        first_name: Cy
  register: acme_people

- name: Show what happened
  ansible.builtin.debug:
    msg: "invited {{ acme_people.invited }}, updated {{ acme_people.updated }}, removed {{ acme_people.removed }}"

- name: Load the list from a file and preview the plan
  posthog.admin.roster:
    organization: Acme
    people: "{{ lookup('ansible.builtin.file', 'people.json') | from_json }}"
    purge: true
  check_mode: true
  diff: true
"""

RETURN = r"""
invited:
  description: Listed people invited by this task (no invite before, an invite at another level, or an expired one re-sent).
  returned: always
  type: list
  elements: str
  sample: [cy@example.com]
updated:
  description: Members whose level this task changed.
  returned: always
  type: list
  elements: dict
  sample:
    - email: jane@example.com
      before: member
      after: admin
removed:
  description: Members this task removed (O(purge)).
  returned: always
  type: list
  elements: str
  sample: [old@example.com]
revoked:
  description: People not listed whose invites this task deleted (O(purge)).
  returned: always
  type: list
  elements: str
  sample: [never-joined@example.com]
unchanged:
  description: Listed people already right, members at their level or people with a pending invite at it.
  returned: always
  type: list
  elements: str
  sample: [ada@example.com, bob@example.com]
expired:
  description: Listed people whose invites have all expired and were not re-sent (see O(resend_expired)).
  returned: always
  type: list
  elements: str
  sample: []
kept:
  description: People not listed who were left in place, with the reason.
  returned: always
  type: list
  elements: dict
  sample:
    - email: admin@example.com
      reason: the API key's own user
roster:
  description:
    - Everyone involved after the task (in check mode, as it would be), by email address. A member
      shows as their level, others as C(invited as <level>), C(invite expired (<level>)),
      C(removed) or C(invite revoked).
  returned: always
  type: dict
  sample:
    ada@example.com: owner
    jane@example.com: admin
    cy@example.com: invited as member
diff:
  description: The same view as RV(roster), before and after, in diff mode.
  returned: when diff mode is on
  type: dict
  sample:
    before:
      jane@example.com: member
    after:
      jane@example.com: admin
"""

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._module import PostHogModule
from ansible_collections.posthog.admin.plugins.module_utils import _people as people_utils


class Applied:
    """What the task has written so far, to say so if a later write fails."""

    def __init__(self):
        self.invited, self.updated, self.removed, self.revoked = [], [], [], []

    def summary(self):
        parts = []
        for name in ("invited", "updated", "removed", "revoked"):
            items = getattr(self, name)
            if items:
                parts.append("%s %s" % (name, ", ".join(i["email"] if isinstance(i, dict) else i for i in items)))
        return "; ".join(parts)


def apply(ph, plan, applied):
    params = ph.params
    payloads = [people_utils.invite_payload(p, params["send_email"]) for p in plan["invite"]]
    if payloads:
        try:
            people_utils.send_invites(ph, payloads)
        except PostHogError as exc:
            applied.invited.extend(c.get("target_email") for c in getattr(exc, "sent", []))
            raise
        applied.invited.extend(p["email"] for p in plan["invite"])
    for change in plan["update"]:
        email = people_utils.member_email(change["member"])
        before, after = people_utils.level_name(change["before"]), people_utils.level_name(change["after"])
        try:
            ph.client.patch(people_utils.members_path(ph, change["member"]["user"]["uuid"]), dict(level=change["after"]),
                            context="changing the level of %s from %s to %s" % (email, before, after))
        except PostHogError as exc:
            raise people_utils.explain(exc, "")
        applied.updated.append(dict(email=email, before=before, after=after))
    for removal in plan["remove"]:
        path = people_utils.members_path(ph, removal["member"]["user"]["uuid"])
        try:
            if removal["demote"]:
                ph.client.patch(path, dict(level=people_utils.MEMBER),
                                context="lowering owner %s to member before removing them" % removal["email"])
            ph.client.delete(path, context="removing %s" % removal["email"])
        except PostHogError as exc:
            raise people_utils.explain(exc, "")
        applied.removed.append(removal["email"])
    for revoke in plan["revoke"]:
        for invite in revoke["invites"]:
            try:
                ph.client.delete(people_utils.invites_path(ph, invite["id"]),
                                 context="revoking the invite of %s" % revoke["email"])
            except PostHogError as exc:
                raise people_utils.explain(exc, "")
        applied.revoked.append(revoke["email"])


def run(ph):
    params = ph.params
    try:
        people = people_utils.desired_people(params["people"], "email", default_level="member",
                                             defaults=dict(message=params.get("invite_message")))
    except ValueError as exc:
        ph.fail(str(exc))
    members = people_utils.list_members(ph)
    invites = people_utils.list_invites(ph)
    options = dict(purge=params["purge"], purge_owners=params["purge_owners"],
                   resend_expired=params["resend_expired"])
    plan = people_utils.plan_roster(people, members, invites, **options)
    if people_utils.roster_needs_caller(plan):
        me = people_utils.caller_identity(ph)
        caller_key = (me.get("email") or "").lower()
        plan = people_utils.plan_roster(people, members, invites, caller_key=caller_key, **options)
        caller = people_utils.index_members(members).get(caller_key)
        if caller is not None:
            refusals = people_utils.roster_refusals(plan, caller_key, caller.get("level"))
            if refusals:
                ph.fail("PostHog would refuse part of this roster, so nothing was changed (the API key acts as %s, "
                        "level %s): %s" % (me.get("email"), people_utils.level_name(caller.get("level")),
                                           "; ".join("%s %s" % (r, people_utils.advice_for(r)) for r in refusals)),
                        refusals=refusals)

    changed = bool(plan["invite"] or plan["update"] or plan["remove"] or plan["revoke"])
    if changed and not ph.check_mode:
        applied = Applied()
        try:
            apply(ph, plan, applied)
        except PostHogError as exc:
            done = applied.summary()
            if done:
                exc.message += " Applied before this failure: %s." % done
                exc.args = (exc.message,)
            ph.fail(exc, invited=applied.invited, updated=applied.updated, removed=applied.removed,
                    revoked=applied.revoked)

    result = dict(
        changed=changed,
        invited=[p["email"] for p in plan["invite"]],
        updated=[dict(email=people_utils.member_email(c["member"]), before=people_utils.level_name(c["before"]),
                      after=people_utils.level_name(c["after"])) for c in plan["update"]],
        removed=[r["email"] for r in plan["remove"]],
        revoked=[r["email"] for r in plan["revoke"]],
        unchanged=[p["email"] for p in plan["unchanged"]],
        expired=[p["email"] for p in plan["expired"]],
        kept=plan["kept"],
        roster=plan["after"],
    )
    if ph.diff_mode:
        changed_emails = [e for e in plan["after"] if plan["before"].get(e) != plan["after"][e]]
        result["diff"] = dict(before=dict((e, plan["before"].get(e)) for e in changed_emails),
                              after=dict((e, plan["after"][e]) for e in changed_emails))
    ph.exit(**result)


def main():
    ph = PostHogModule(
        argument_spec=dict(
            people=dict(
                type="list",
                elements="dict",
                required=True,
                options=dict(
                    email=dict(type="str", required=True),
                    level=dict(type="str", default="member", choices=["member", "admin", "owner"]),
                    first_name=dict(type="str"),
                ),
            ),
            purge=dict(type="bool", default=False),
            purge_owners=dict(type="bool", default=False),
            resend_expired=dict(type="bool", default=False),
            send_email=dict(type="bool", default=True),
            invite_message=dict(type="str"),
        ),
        organization=True,
        supports_check_mode=True,
    )
    ph.run(run)


if __name__ == "__main__":
    main()
