# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The code blocks of the documentation (reStructuredText guides, Markdown READMEs), as a reader sees
them, for the tests that run them (guides.py, readme_commands.py, awx_job.py).

A block is what a reader copies: its language, its text (dedented), where it stands (line, section), and
the guide test's note about it, if any: an rst comment ``.. guide-test: ...`` (or, in Markdown, an
HTML comment ``<!-- guide-test: ... -->``) on the line(s) right before the block. Readers never see the
note; it only says why the guide test leaves a block out, or which test runs it.
"""
import collections
import re

Block = collections.namedtuple("Block", "lang body line section note")
Step = collections.namedtuple("Step", "command comment output")

NOTE = "guide-test:"
# A file a reader creates: the block's first line is a comment naming it, e.g. "# inventory/posthog.yml"
# or "# plan.yml: plans on a pull request".
FILE_NAME = re.compile(r"^#\s*(?P<path>\.?[\w./-]*[\w-]\.(?:ya?ml|json|cfg|ini|txt|md|sh|py)|\.gitignore)\b"
                       r"(?P<rest>.*)$")


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _dedent(lines):
    while lines and not lines[-1].strip():
        lines.pop()
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        return ""
    indent = min(len(b) - len(b.lstrip()) for b in lines if b.strip())
    return "\n".join(b[indent:] for b in lines) + "\n"


def rst_blocks(path):
    """The ``.. code-block::`` directives of an rst file, in order."""
    lines = read(path).splitlines()
    blocks = []
    section = None
    for index, line in enumerate(lines):
        if index + 1 < len(lines) and line.strip() and re.match(r"^(-{3,}|={3,}|~{3,})$", lines[index + 1]) and \
                len(lines[index + 1]) >= len(line.rstrip()):
            section = line.strip()
        match = re.match(r"^\.\. code-block:: *(\S+)", line)
        if not match:
            continue
        body = []
        for following in lines[index + 1:]:
            if following.strip() and not following.startswith(" "):
                break
            body.append(following)
        note = None
        before = index - 1
        while before >= 0 and not lines[before].strip():
            before -= 1
        comment = []  # the note's lines: ".. guide-test: ..." and its indented continuation lines
        while before >= 0 and lines[before].startswith("   ") and lines[before].strip():
            comment.insert(0, lines[before])
            before -= 1
        if before >= 0 and lines[before].startswith(".. %s" % NOTE):
            comment.insert(0, lines[before])
            note = " ".join(c.strip() for c in comment)[len(".. %s" % NOTE):].strip()
        blocks.append(Block(match.group(1), _dedent(body), index + 1, section, note))
    return blocks


def md_sections(path):
    """``{heading: text}`` of a Markdown file's ``## `` sections (None: the text before the first)."""
    text = read(path)
    parts = re.split(r"^(## .*)$", text, flags=re.M)
    sections = {None: parts[0]}
    for heading, body in zip(parts[1::2], parts[2::2]):
        sections[heading] = heading + body
    return sections


def md_blocks(text, start_line=1):
    """The fenced code blocks of a Markdown text, in order (a fence without a language is ``text``)."""
    blocks = []
    section = None
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        fence = re.match(r"^```(\w*)\s*$", line)
        if not fence:
            index += 1
            continue
        end = index + 1
        while end < len(lines) and lines[end].rstrip() != "```":
            end += 1
        note = None
        before = index - 1
        while before >= 0 and not lines[before].strip():
            before -= 1
        if before >= 0:
            comment = re.match(r"^<!--\s*%s(.*?)-->\s*$" % re.escape(NOTE), lines[before])
            if comment:
                note = comment.group(1).strip()
        blocks.append(Block(fence.group(1) or "text", _dedent(lines[index + 1:end]), start_line + index, section, note))
        index = end + 1
    return blocks


def file_name(block):
    """The path a block is a file at (its first line names it), or None."""
    first = block.body.splitlines()[0] if block.body.strip() else ""
    match = FILE_NAME.match(first)
    return match.group("path") if match else None


def named(blocks, name):
    """The block that is the file ``name``, or None."""
    return next((b for b in blocks if file_name(b) == name), None)


def console_steps(block):
    """The commands of a shell block, each with its trailing comment and the output shown after it.

    In an rst ``console`` block, commands start with ``$ `` and the lines after one are what it
    prints; in a Markdown ``sh`` block every line is a command. Backslash continuations are joined;
    comment lines are dropped."""
    prompt = block.lang == "console"
    steps = []
    pending = None
    for raw in block.body.splitlines():
        line = raw.rstrip()
        if pending is not None:
            pending += " " + line.strip().rstrip("\\").strip()
            if not line.endswith("\\"):
                steps.append(_step(pending))
                pending = None
            continue
        if prompt and not line.startswith("$ "):
            if steps and line.strip():
                steps[-1].output.append(line.strip())
            continue
        command = line[2:] if prompt else line
        if not command.strip() or command.lstrip().startswith("#"):
            continue
        if command.endswith("\\"):
            pending = command[:-1].strip()
            continue
        steps.append(_step(command.strip()))
    return steps


def _step(command):
    """A command and its trailing ``# comment`` (outside quotes)."""
    quote = None
    for index, char in enumerate(command):
        if quote:
            if char == quote:
                quote = None
        elif char in "'\"":
            quote = char
        elif char == "#" and index and command[index - 1] in " \t":
            return Step(command[:index].strip(), command[index + 1:].strip(), [])
    return Step(command, "", [])
