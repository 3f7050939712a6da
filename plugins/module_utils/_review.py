# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Reviewed plans: organization_state's plan saved for review (``plan_file`` in check mode), applied
only while it is still what was reviewed (``plan_file`` in a real run), and limits on what a plan may
do (``limits``).

A saved plan holds every action, the diff of each change (secrets masked as in the module's diff),
a fingerprint of the document and of every answer the plan was decided from (SHA-256 of each GET's
answer, keyed by the request's path and query), and when, against which host and which organization
it was made. Applying it plans again from fresh reads and refuses, before any write, when the host,
the organization or the document differ, when any answer the saved plan read has changed (naming
it), or when the new plan's actions are not the saved ones: so what is applied is exactly what was
reviewed, and of two plans made from the same state only the first applies.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import hashlib
import json

from ansible_collections.posthog.admin.plugins.module_utils._plan import REMOVING
from ansible_collections.posthog.admin.plugins.module_utils._resource import Failure

FORMAT = "posthog.admin.organization_state/plan-1"

#: What ``limits`` may forbid, and which actions each covers.
LIMIT_OPTIONS = dict(
    max_deletes=dict(type="int"),
    remove_people=dict(type="bool", default=True),
    change_sso=dict(type="bool", default=True),
    change_owners=dict(type="bool", default=True),
)
SSO_SECTIONS = ("domains", "identity_provider_configs")


def fingerprint(value):
    """SHA-256 of ``value`` as canonical JSON (a JSON text is hashed as it is)."""
    text = value if isinstance(value, str) else json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


#: Fields PostHog changes by itself, not by a person: leaving them out of a fingerprint keeps a plan of
#: a busy organization from going stale at every ingested event or export run.
VOLATILE = frozenset(("last_seen_at", "last_calculated_at", "volume_30_day", "query_usage_30_day", "latest_runs",
                      "last_login", "is_calculating", "ingested_event", "last_run_at"))


def _steady(value):
    if isinstance(value, dict):
        return dict((k, _steady(v)) for k, v in value.items() if k not in VOLATILE)
    if isinstance(value, list):
        return [_steady(v) for v in value]
    return value


def reads_of(client):
    """``{path and query: fingerprint}`` of every answer the client remembers (the plan's reads), without
    the fields PostHog changes by itself (:data:`VOLATILE`)."""
    return dict((client._path_of(url), fingerprint(_steady(json.loads(text))))
                for url, text in (client.memo or {}).items())


def saved(task, org, document, result, reads):
    """The plan file's content: actions, diffs (masked as the module's), fingerprints, provenance."""
    return dict(
        format=FORMAT,
        created_at=datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat(),
        host=task.client.base_url,
        organization=dict(id=org.get("id"), name=org.get("name")),
        document_sha256=fingerprint(document),
        reads=reads,
        plan=result.get("plan") or [],
        sections=result.get("sections") or {},
        diff=result.get("diff") or [],
    )


def load(path):
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
    return data


def stale(reviewed, task, org, document, plan, reads):
    """Why the saved plan ``reviewed`` is not what applying now would do (sentences); empty when it is."""
    problems = []
    if reviewed.get("host") != task.client.base_url:
        problems.append("it was made against %s, not %s" % (reviewed.get("host"), task.client.base_url))
    if (reviewed.get("organization") or {}).get("id") != org.get("id"):
        problems.append("it was made for organization %s (%s), not %s (%s)" % (
            (reviewed.get("organization") or {}).get("name"), (reviewed.get("organization") or {}).get("id"),
            org.get("name"), org.get("id")))
    if reviewed.get("document_sha256") != fingerprint(document):
        problems.append("the document differs from the one the plan was made from")
    changed = sorted(path for path, digest in (reviewed.get("reads") or {}).items()
                     if path in reads and reads[path] != digest)
    if changed:
        problems.append("what it read has changed on the server since: %s" % ", ".join("GET %s" % p for p in changed))
    if not problems and (reviewed.get("plan") or []) != plan:
        problems.append("planning again gives other actions (%d now, %d reviewed)" % (
            len(plan), len(reviewed.get("plan") or [])))
    return problems


def over_limits(actions, limits):
    """The actions (``plan`` entries) beyond ``limits``, as sentences; empty when within them."""
    if not limits:
        return []
    problems = []
    removing = [a for a in actions if a["action"] in REMOVING]
    if limits.get("max_deletes") is not None and len(removing) > limits["max_deletes"]:
        problems.append("%d deletes, more than max_deletes (%d): %s" % (
            len(removing), limits["max_deletes"], describe(removing)))
    if limits.get("remove_people") is False:
        people = [a for a in removing if a["section"] == "roster"]
        if people:
            problems.append("people removed, which remove_people: false forbids: %s" % describe(people))
    if limits.get("change_sso") is False:
        sso = [a for a in actions if a["section"] in SSO_SECTIONS]
        if sso:
            problems.append("changes to SSO (domains, identity provider configurations), which change_sso: false "
                            "forbids: %s" % describe(sso))
    if limits.get("change_owners") is False:
        owners = [a for a in actions if a["section"] == "roster" and a.get("owner")]
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
