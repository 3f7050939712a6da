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
import re

from ansible_collections.posthog.admin.plugins.module_utils._base import Failure
from ansible_collections.posthog.admin.plugins.module_utils._client import MAX_DEPTH, deeper_than
from ansible_collections.posthog.admin.plugins.module_utils._document import read_regular
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


#: The largest plan file read back (a plan of 10,000 changes with their diffs is some tens of MiB).
MAX_PLAN_BYTES = 256 * 1024 * 1024

#: What a saved plan holds at its top: key -> (types, what it is).
SHAPE = dict(format=((str,), "text"), host=((str,), "text"), created_at=((str,), "text"),
             document_sha256=((str,), "text"), nonce=((str,), "text"), organization=((dict,), "an object"),
             states=((dict,), "an object"), plan=((list,), "a list"), pending=((list,), "a list"),
             sections=((dict,), "an object"), diff=((list,), "a list"))


def load(path):
    """The plan saved at ``path``, checked before it is believed: a regular file of bounded size, JSON of
    bounded depth, in this version's format, each part of the type it is saved as."""
    text = read_regular(path, "plan_file", MAX_PLAN_BYTES)
    try:
        data = json.loads(text)
    except RecursionError:
        raise Failure("plan_file %s is not a saved plan (JSON nested deeper than posthog.admin reads)" % path)
    except ValueError as exc:
        raise Failure("plan_file %s is not a saved plan (not JSON: %s)" % (path, exc))
    if deeper_than(data, MAX_DEPTH):
        raise Failure("plan_file %s is not a saved plan (JSON nested deeper than %d levels)" % (path, MAX_DEPTH))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Failure("plan_file %s is not a plan saved by posthog.admin.organization_state (format %r, expected %r)"
                      % (path, data.get("format") if isinstance(data, dict) else None, FORMAT))
    problems = shape_problems(data)
    if problems:
        raise Failure("plan_file %s is not a plan saved by posthog.admin.organization_state: %s"
                      % (path, "; ".join(problems[:5])))
    return data


def shape_problems(data):
    """How a plan file's content differs from what :func:`saved` writes (sentences; empty when it does not)."""
    problems = []
    for key, (types, words) in sorted(SHAPE.items()):
        value = data.get(key)
        required = key in ("states", "plan", "nonce")
        if value is None and not required:
            continue
        if not isinstance(value, types):
            problems.append("%s is missing or not %s" % (key, words) if required else "%s is not %s" % (key, words))
    if problems:
        return problems
    if not re.match(r"^[0-9a-f]{12}$", data["nonce"]):
        problems.append("nonce is not 12 hexadecimal digits")
    organization = data.get("organization") or {}
    for key in ("id", "name"):
        if organization.get(key) is not None and not isinstance(organization[key], str):
            problems.append("organization.%s is not text" % key)
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in data["states"].items()):
        problems.append("states must map text to text")
    for index, action in enumerate(data["plan"]):
        if not isinstance(action, dict) or not all(isinstance(action.get(k), str)
                                                   for k in ("action", "method", "path")):
            problems.append("plan[%d] is not an action (an object with text action, method and path)" % index)
            break
    for key in ("pending", "diff"):
        if not all(isinstance(item, dict) for item in data.get(key) or []):
            problems.append("%s must hold objects" % key)
    return problems


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
    Secrets never show: the diffs are the module's, masked.

    Every text that comes from the plan (a server's names, a document's labels, even the verbs and the
    host: a plan file is a CI artifact anyone may have edited) renders inertly on GitHub and GitLab: as
    an inline code span (:func:`inert`), where neither renders HTML, links, images, mentions, references
    or emoji, on one line; the diffs' keys and values as JSON inside a fenced block. Only this function's
    own words are Markdown."""
    data = data if isinstance(data, dict) else {}
    plan = [a if isinstance(a, dict) else {} for a in data.get("plan") or []] \
        if isinstance(data.get("plan"), list) else []
    lines = []
    org = data.get("organization") if isinstance(data.get("organization"), dict) else {}
    title = "Plan for %s" % (inert(org["name"]) if org.get("name") else "the organization")
    lines.append("### %s" % title)
    if data.get("host") or data.get("created_at"):
        lines.append("")
        where = " (organization %s)" % inert(org["id"]) if org.get("id") else ""
        lines.append("Made %s against %s%s." % (inert(data.get("created_at") or ""), inert(data.get("host") or ""),
                                                where))
    lines.append("")
    if not plan:
        lines.append("No changes: PostHog already matches the document.")
        return "\n".join(lines) + "\n"
    counts = dict(added=0, changed=0, removed=0)
    for action in plan:
        counts[kind_of(action)] += 1
    lines.append("**%d to add, %d to change, %d to remove.**" % (counts["added"], counts["changed"], counts["removed"]))
    diffs = dict((_key(d.get("before_header")), d) for d in data.get("diff") or [] if isinstance(d, dict)) \
        if isinstance(data.get("diff"), list) else {}
    for section in _ordered(plan):
        lines.append("")
        lines.append("#### %s" % inert(section))
        lines.append("")
        for action in [a for a in plan if _key(a.get("section")) == section]:
            mark = dict(added="+", changed="~", removed="-")[kind_of(action)]
            lines.append("- `%s` %s %s" % (mark, _verb(action.get("action")), inert(action.get("item"))))
            diff = diffs.get(_key(action.get("item")))
            if diff and kind_of(action) == "changed" and (diff.get("before") or diff.get("after")):
                lines.extend(_diff_lines(diff))
    return "\n".join(lines) + "\n"


def kind_of(action):
    verb = action.get("action") if isinstance(action, dict) else None
    if verb in REMOVING:
        return "removed"
    if verb in ("created", "invited"):
        return "added"
    return "changed"


def _verb(value):
    """An action's verb as written (``created``, ``waited for``): plain when it is lower-case words only,
    which no renderer turns into anything; else :func:`inert`."""
    return value if isinstance(value, str) and re.match(r"^[a-z]{1,30}( [a-z]{1,30}){0,3}$", value) else inert(value)


def _key(value):
    """A value of the plan as a key: text as it is, anything else as JSON (a plan file may hold anything)."""
    return value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str)


def _ordered(plan):
    seen = []
    for action in plan:
        section = _key(action.get("section"))
        if section not in seen:
            seen.append(section)
    return seen


def visible(text):
    """``text`` on one line, every character that is not plainly visible written as an escape: line breaks
    and other controls, the format characters that reorder or hide text (bidirectional overrides,
    zero-width joiners), separators and unassigned code points."""
    import unicodedata

    out = []
    for char in text:
        if char == "\\":
            out.append(char)
        elif char in _NAMED:
            out.append(_NAMED[char])
        elif unicodedata.category(char) in ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp") or (
                char.isspace() and char != " "):
            out.append("\\u%04x" % ord(char) if ord(char) < 0x10000 else "\\U%08x" % ord(char))
        else:
            out.append(char)
    return "".join(out)


_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def inert(value):
    """``value`` as Markdown that shows it as it is and does nothing: an inline code span (GitHub and
    GitLab render no HTML, link, image, mention, reference or emoji inside one), on one line
    (:func:`visible`), fenced with more backticks than any run inside it. Not text: its JSON."""
    text = visible(value if isinstance(value, str) else json.dumps(value, sort_keys=True, default=str))
    if not text.strip():
        text = json.dumps(text)  # an empty or blank text shows as its quotes
    runs = re.findall("`+", text)
    fence = "`" * (max(len(run) for run in runs) + 1 if runs else 1)
    pad = " " if text[0] in "` " or text[-1] in "` " else ""
    return "%s%s%s%s%s" % (fence, pad, text, pad, fence)


def _diff_lines(diff):
    before = diff.get("before") if isinstance(diff.get("before"), dict) else {}
    after = diff.get("after") if isinstance(diff.get("after"), dict) else {}
    lines = ["", "  ```diff"]
    for key in sorted(set(before) | set(after), key=_key):
        if before.get(key) != after.get(key):
            # JSON on one line (ensure_ascii: no control or direction character survives), inside the fence
            name = key if isinstance(key, str) and key.isidentifier() else json.dumps(key, default=str)
            lines.append("  - %s: %s" % (name, json.dumps(before.get(key), sort_keys=True, default=str)))
            lines.append("  + %s: %s" % (name, json.dumps(after.get(key), sort_keys=True, default=str)))
    lines.append("  ```")
    lines.append("")
    return lines
