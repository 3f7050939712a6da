# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""organization_state's document as a file: written as commented YAML a person keeps in git (private
from its first byte, renamed into place, template-looking values tagged ``!unsafe``), and read back as
data (``definition_file``: nothing in it is ever evaluated as a template)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.module_utils._base import Failure

SETTINGS_COMMENT = "Organization settings (posthog.admin.organization). Settings left out are not managed."


def _comment(text, indent=""):
    """``text`` as comment lines of at most ~100 characters, broken at spaces only: a word longer than
    the line stays whole, and a DNS record's name or value (PostHog's challenge has ``-`` and ``_``) is
    never cut at a hyphen, so a person copying it from one line copies all of it."""
    import textwrap
    return [indent + "# " + line for line in textwrap.wrap(text, 100 - len(indent), break_long_words=False,
                                                           break_on_hyphens=False)]


def to_yaml(document, parts, notes, comments, org, host):
    """The document as YAML a person can read and keep: its ``parts`` (``(key, comment)``, in the order
    the role takes them) each under its comment, an item's comment right above it."""
    import yaml  # only here: PyYAML ships with ansible-core on the controller, where dest is written

    class Dumper(yaml.SafeDumper):
        pass

    def text(dumper, value):
        style = "|" if "\n" in value else None
        # A value that looks like a template ({{ lookup('pipe', ...) }} as a project's name) is tagged
        # !unsafe: include_vars and from_yaml then never evaluate it on the controller.
        tag = "!unsafe" if looks_templated(value) else "tag:yaml.org,2002:str"
        return dumper.represent_scalar(tag, value, style=style)

    Dumper.add_representer(str, text)

    def dump(value):
        return yaml.dump(value, Dumper=Dumper, default_flow_style=False, sort_keys=False, allow_unicode=True,
                         width=120)

    lines = ["---",
             "# The PostHog organization %s (id %s) on %s, exported by posthog.admin.organization_state_info."
             % (org.get("name"), org.get("id"), host),
             "# Apply it with posthog.admin.organization_state (definition: this document) or the",
             "# posthog.admin.organization_as_code role (organization_as_code_organization: this document)."]
    for note in notes:
        lines.extend(_comment("NOTE: " + note))
    lines.append(dump(dict(name=document["name"])).rstrip())
    for key, comment in [("settings", SETTINGS_COMMENT)] + list(parts):
        if key not in document:
            continue
        lines.append("")
        lines.extend(_comment(comment))
        value = document[key]
        if not isinstance(value, list) or not value:
            lines.append(dump({key: value}).rstrip())
            continue
        lines.append("%s:" % key)
        for item in value:  # item by item, so a comment can stand right above the item it is about
            about = comments.get(key, {}).get(item.get("name") or item.get("domain")) if isinstance(item, dict) else None
            if about:
                lines.extend(_comment(about, "  "))
            lines.extend("  " + line for line in dump([item]).rstrip().splitlines())
    return "\n".join(lines) + "\n"


TEMPLATE_MARKS = ("{{", "{%", "{#")


def looks_templated(value):
    return isinstance(value, str) and any(mark in value for mark in TEMPLATE_MARKS)


def write_private(path, text, option="dest"):
    """Write ``text`` to ``path`` as a file only its owner reads, from the first byte: a new file made
    by mkstemp (0600, O_EXCL: never one planted there, never through a symlink) in the destination's
    directory, flushed, then renamed over ``path`` (a reader sees the old file or the new, whole)."""
    import os
    import tempfile
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise Failure("%s %s: the directory %s does not exist; create it first" % (option, path, directory))
    handle, temporary = tempfile.mkstemp(prefix=".%s." % os.path.basename(path), suffix=".tmp", dir=directory)
    try:
        with os.fdopen(handle, "w") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def read_definition(path):
    """The document in the YAML file ``path``, read as data: no value is ever evaluated as a template
    (``!unsafe`` values are plain strings here), whatever it holds."""
    import yaml

    class Loader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # libyaml's, as Ansible's own loader, when there
        pass

    Loader.add_constructor("!unsafe", lambda loader, node: loader.construct_scalar(node))
    try:
        with open(path) as handle:
            return yaml.load(handle, Loader=Loader)  # nosec: a SafeLoader (plus the !unsafe tag)
    except (IOError, OSError) as exc:
        raise Failure("definition_file %s cannot be read: %s" % (path, exc.strerror or exc))
    except yaml.YAMLError as exc:
        raise Failure("definition_file %s is not valid YAML: %s" % (path, exc))
