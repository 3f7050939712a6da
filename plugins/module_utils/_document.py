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

import re

from ansible_collections.posthog.admin.plugins.module_utils._base import Failure
from ansible_collections.posthog.admin.plugins.module_utils._client import MAX_DEPTH

#: The largest document read from ``definition_file`` (an organization of 10,000 items is a few MiB).
MAX_DEFINITION_BYTES = 32 * 1024 * 1024
#: How many values a document may hold once its YAML aliases are expanded: a bound against an "alias
#: bomb" (a few hundred bytes whose aliases of aliases expand to billions of values).
MAX_DEFINITION_VALUES = 2000000

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
    directory, flushed, then renamed over ``path`` (a reader sees the old file or the new, whole).
    ``path`` must name a file: a directory, a FIFO or a device there is refused, never replaced."""
    import os
    import stat
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise Failure("%s %s: cannot write it, the directory %s does not exist; create it first"
                      % (option, path, directory))
    try:
        mode = os.stat(path).st_mode
    except OSError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        raise Failure("%s %s is %s, not a file; give the path of a file to write" % (option, path, file_kind(mode)))
    handle, temporary = tempfile_in(directory, path, option)
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


def tempfile_in(directory, path, option):
    import os
    import tempfile
    try:
        return tempfile.mkstemp(prefix=".%s." % os.path.basename(path), suffix=".tmp", dir=directory)
    except OSError as exc:
        raise Failure("%s %s: cannot write in %s: %s" % (option, path, directory, exc.strerror or exc))


def file_kind(mode):
    """What a file that is not a regular one is, in words."""
    import stat
    for test, words in ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
                        (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
                        (stat.S_ISBLK, "a block device")):
        if test(mode):
            return words
    return "not a regular file"


def read_regular(path, option, limit):
    """The text of the file ``path``, read only when it is a regular file of at most ``limit`` bytes: a
    directory, a FIFO (which would block the task forever), a device or a socket is refused, and so is a
    file that grows past the bound while it is read."""
    import os
    import stat
    try:
        info = os.stat(path)
    except OSError as exc:
        raise Failure("%s %s cannot be read: %s" % (option, path, exc.strerror or exc))
    if not stat.S_ISREG(info.st_mode):
        raise Failure("%s %s is %s, not a file; give the path of a file" % (option, path, file_kind(info.st_mode)))
    if info.st_size > limit:
        raise Failure("%s %s is %d bytes, more than the %d bytes posthog.admin reads"
                      % (option, path, info.st_size, limit))
    try:
        # O_NONBLOCK: should a FIFO be put there after the check, opening it does not wait for a writer
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise Failure("%s %s cannot be read: %s" % (option, path, exc.strerror or exc))
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise Failure("%s %s is %s, not a file; give the path of a file" % (
                option, path, file_kind(os.fstat(descriptor).st_mode)))
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(descriptor, min(1024 * 1024, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise Failure("%s %s cannot be read: %s" % (option, path, exc.strerror or exc))
    finally:
        os.close(descriptor)
    if size > limit:
        raise Failure("%s %s is more than the %d bytes posthog.admin reads" % (option, path, limit))
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise Failure("%s %s is not UTF-8 text (%s at byte %d)" % (option, path, exc.reason, exc.start))


def may_nest_deep(text):
    """Whether YAML ``text`` may nest deeper than MAX_DEPTH: flow brackets open that deep (counted over the
    brackets alone, quoted ones too: a false alarm only costs the slower loader), or a line indented
    further (a block level takes at least one space)."""
    depth = deepest = 0
    for bracket in re.sub(r"[^\[\]{}]+", "", text):
        depth = depth + 1 if bracket in "[{" else max(depth - 1, 0)
        deepest = max(deepest, depth)
    if deepest > MAX_DEPTH:
        return True
    return any(len(line) - len(line.lstrip(" ")) > MAX_DEPTH for line in text.splitlines())


def read_definition(path):
    """The document in the YAML file ``path``, read as data: no value is ever evaluated as a template
    (``!unsafe`` values are plain strings here), whatever it holds. The file must be a regular file of
    at most :data:`MAX_DEFINITION_BYTES`; its aliases may not expand it past :data:`MAX_DEFINITION_VALUES`
    values, nor may it nest deeper than :data:`~._http_errors.MAX_DEPTH`."""
    import yaml

    text = read_regular(path, "definition_file", MAX_DEFINITION_BYTES)
    # libyaml's loader (as Ansible's own, when there) composes nodes recursively in C: a document nested
    # tens of thousands deep overflows the process's stack (a crash, no message). One that may nest
    # deeper than MAX_DEPTH is read by PyYAML's Python loader, which raises RecursionError instead.
    base = yaml.SafeLoader if may_nest_deep(text) else getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):
        pass

    Loader.add_constructor("!unsafe", lambda loader, node: loader.construct_scalar(node))
    loader = Loader(text)
    try:
        node = loader.get_single_node()  # the document's nodes: aliases are references, nothing expanded yet
        if node is None:
            return None
        problem = node_problem(node)
        if problem:
            raise Failure("definition_file %s %s" % (path, problem))
        return loader.construct_document(node)  # nosec: a SafeLoader (plus the !unsafe tag)
    except yaml.YAMLError as exc:
        raise Failure("definition_file %s is not valid YAML: %s" % (path, exc))
    except RecursionError:
        raise Failure("definition_file %s nests deeper than posthog.admin reads (%d levels)" % (path, MAX_DEPTH))
    finally:
        loader.dispose()


def node_problem(root):
    """Why a YAML document (its composed ``root`` node) is refused, or None: more values than
    :data:`MAX_DEFINITION_VALUES` once every alias is expanded, or deeper than :data:`~._http_errors.MAX_DEPTH`.
    Counted over the node graph (an alias is the node it names), each node once: linear in the file."""
    sizes, depths = {}, {}
    stack = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if key in sizes and not done:
            continue
        children = _children(node)
        if not done:
            sizes[key] = None  # in progress: on the path from the root
            if any(id(child) in sizes and sizes[id(child)] is None for child in children):
                return "holds an alias inside the value it names (a value that contains itself)"
            stack.append((node, True))
            stack.extend((child, False) for child in children if id(child) not in sizes)
            continue
        size = 1 + sum(sizes.get(id(child)) or 0 for child in children)
        depth = 1 + max([depths.get(id(child)) or 0 for child in children] or [0])
        sizes[key], depths[key] = size, depth
        if size > MAX_DEFINITION_VALUES:
            return ("holds more than %d values once its aliases are expanded (an alias bomb?); posthog.admin "
                    "reads no larger document" % MAX_DEFINITION_VALUES)
        if depth > MAX_DEPTH:
            return "nests deeper than posthog.admin reads (%d levels)" % MAX_DEPTH
    return None


def _children(node):
    value = getattr(node, "value", None)
    if not isinstance(value, list):
        return []
    found = []
    for item in value:
        found.extend(item if isinstance(item, tuple) else (item,))
    return found
