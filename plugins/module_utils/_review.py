# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Reviewed plans: organization_state's plan saved for review (``plan_file`` in check mode), applied
only while it still holds (``plan_file`` in a real run), and limits on what a plan may do (``limits``).

A saved plan holds every action (its request, the body masked as in the module's diff, and the
fingerprint of the state of the object it was decided on), the states of every object the plan
decided on (changed or not), the diff of each change, a fingerprint of the document with its
secrets masked (nothing in the file lets its reader test a guess of a secret), and when, against which
host and which organization it was made. Applying it plans again from fresh reads and refuses, before
any write, when the host, the organization or the document differ, when the state of any object the
fresh plan decided on is not the saved one (changed since, naming it) or is missing from the file,
or when the fresh actions are not the saved ones (edited): so what is applied is exactly what was
reviewed, and of two plans made from the same state only the first applies.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import json

from ansible_collections.posthog.admin.plugins.module_utils._base import Failure
from ansible_collections.posthog.admin.plugins.module_utils._plan import REMOVING, fingerprint

FORMAT = "posthog.admin.organization_state/plan-2"

#: What ``limits`` may forbid.
LIMIT_OPTIONS = dict(
    max_deletes=dict(type="int"),
    remove_people=dict(type="bool", default=True),
    change_sso=dict(type="bool", default=True),
    change_owners=dict(type="bool", default=True),
)


def saved(task, org, document, result, plan):
    """The plan file's content: actions, states, diffs (masked as the module's), provenance."""
    return dict(
        format=FORMAT,
        created_at=datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
        host=task.client.base_url,
        organization=dict(id=org.get("id") if not plan.is_unknown(org.get("id")) else None, name=org.get("name")),
        document_sha256=fingerprint(document),
        nonce=plan.nonce,
        states=dict(plan.states),
        plan=result.get("plan") or [],
        pending=result.get("pending") or [],
        sections=result.get("sections") or {},
        diff=result.get("diff") or [],
    )


def load(path):
    import json
    try:
        with open(path) as handle:
            data = json.load(handle)
    except (IOError, OSError) as exc:
        raise Failure("plan_file %s cannot be read: %s" % (path, exc.strerror or exc))
    except ValueError as exc:
        raise Failure("plan_file %s is not a saved plan (not JSON: %s)" % (path, exc))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Failure("plan_file %s is not a plan saved by posthog.admin.organization_state (format %r, expected %r)"
                      % (path, data.get("format") if isinstance(data, dict) else None, FORMAT))
    for key, kind in (("states", dict), ("plan", list), ("nonce", str)):
        if not isinstance(data.get(key), kind):
            raise Failure("plan_file %s is not a plan saved by posthog.admin.organization_state (%s is missing or not "
                          "a %s)" % (path, key, kind.__name__))
    return data


def stale(reviewed, task, org, document, plan):
    """Why the saved plan ``reviewed`` does not hold now, given the fresh ``plan`` (sentences); empty
    when it does. Only what the plan depends on counts: the objects it decided on."""
    problems = []
    if reviewed.get("host") != task.client.base_url:
        problems.append("it was made against %s, not %s" % (reviewed.get("host"), task.client.base_url))
    made_for = reviewed.get("organization") or {}
    if made_for.get("id") != (org.get("id") if not plan.is_unknown(org.get("id")) else None):
        problems.append("it was made for organization %s (%s), not %s (%s)" % (
            made_for.get("name"), made_for.get("id"), org.get("name"), org.get("id")))
    if reviewed.get("document_sha256") != fingerprint(document):
        problems.append("the document differs from the one the plan was made from")
    states = reviewed.get("states") or {}
    changed = sorted(key for key, state in plan.states.items() if key in states and states[key] != state)
    if changed:
        problems.append("the plan no longer holds for %s: changed on the server since the plan was made"
                        % ", ".join(changed))
    unknown = sorted(key for key in plan.states if key not in states)
    if unknown:
        problems.append("the plan file lacks the state of %s, which the plan depends on" % ", ".join(unknown))
    if not problems and (reviewed.get("plan") or []) != plan.as_list(task.secrets):
        problems.append("its actions are not the ones planning again gives (%d now, %d in the file): the file was "
                        "edited, or made by another version of posthog.admin" % (
                            len(plan.as_list(task.secrets)), len(reviewed.get("plan") or [])))
    return problems


def over_limits(actions, limits):
    """The actions (``plan`` entries) beyond ``limits``, as sentences; empty when within them. Which
    actions a limit covers, their sections declare (``guards``)."""
    if not limits:
        return []
    problems = []
    removing = [a for a in actions if a["action"] in REMOVING]
    if limits.get("max_deletes") is not None and len(removing) > limits["max_deletes"]:
        problems.append("%d deletes, more than max_deletes (%d): %s" % (
            len(removing), limits["max_deletes"], describe(removing)))
    if limits.get("remove_people") is False:
        people = [a for a in removing if "remove_people" in (a.get("limits") or ())]
        if people:
            problems.append("people removed, which remove_people: false forbids: %s" % describe(people))
    if limits.get("change_sso") is False:
        sso = [a for a in actions if "change_sso" in (a.get("limits") or ())]
        if sso:
            problems.append("changes to SSO (domains, identity provider configurations), which change_sso: false "
                            "forbids: %s" % describe(sso))
    if limits.get("change_owners") is False:
        owners = [a for a in actions if "change_owners" in (a.get("limits") or ())]
        if owners:
            problems.append("changes to owners, which change_owners: false forbids: %s" % describe(owners))
    return problems


def describe(actions):
    return "; ".join("%s %s" % (a["action"], a["item"]) for a in actions)


# ---------------------------------------------------------------------------------- rendering
def markdown(data):
    """A saved plan (or organization_state's result) as Markdown for a pull request comment or an AWX
    job's artifacts: per section what is added, changed and removed, with the diff of each change.
    Secrets never show: the diffs are the module's, masked."""
    plan = data.get("plan") or []
    lines = []
    org = data.get("organization") or {}
    title = "Plan for %s" % (org.get("name") or "the organization")
    lines.append("### %s" % title)
    if data.get("host") or data.get("created_at"):
        lines.append("")
        where = " (organization %s)" % org["id"] if org.get("id") else ""
        lines.append("Made %s against %s%s." % (data.get("created_at") or "", data.get("host") or "", where))
    lines.append("")
    if not plan:
        lines.append("No changes: PostHog already matches the document.")
        return "\n".join(lines) + "\n"
    counts = dict(added=0, changed=0, removed=0)
    for action in plan:
        counts[kind_of(action)] += 1
    lines.append("**%d to add, %d to change, %d to remove.**" % (counts["added"], counts["changed"], counts["removed"]))
    diffs = dict((d.get("before_header"), d) for d in data.get("diff") or [] if isinstance(d, dict))
    for section in _ordered(plan):
        lines.append("")
        lines.append("#### %s" % section)
        lines.append("")
        for action in [a for a in plan if a["section"] == section]:
            mark = dict(added="+", changed="~", removed="-")[kind_of(action)]
            lines.append("- `%s` %s %s" % (mark, action["action"], action["item"]))
            diff = diffs.get(action["item"])
            if diff and kind_of(action) == "changed" and (diff.get("before") or diff.get("after")):
                lines.extend(_diff_lines(diff))
    return "\n".join(lines) + "\n"


def kind_of(action):
    if action["action"] in REMOVING:
        return "removed"
    if action["action"] in ("created", "invited"):
        return "added"
    return "changed"


def _ordered(plan):
    seen = []
    for action in plan:
        if action["section"] not in seen:
            seen.append(action["section"])
    return seen


def _diff_lines(diff):
    before, after = diff.get("before") or {}, diff.get("after") or {}
    lines = ["", "  ```diff"]
    for key in sorted(set(before) | set(after)):
        if before.get(key) != after.get(key):
            lines.append("  - %s: %s" % (key, json.dumps(before.get(key), sort_keys=True)))
            lines.append("  + %s: %s" % (key, json.dumps(after.get(key), sort_keys=True)))
    lines.append("  ```")
    lines.append("")
    return lines
