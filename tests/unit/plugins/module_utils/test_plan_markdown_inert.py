# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Issue 33: plan_markdown renders untrusted text inertly, checked by rendering it as GitHub and GitLab would.

Two renderers: cmarkgfm (GitHub's own fork of cmark, its GFM extensions on: autolinks, tables,
strikethrough; raw HTML passed through, so that any HTML the Markdown held would show as a tag) and
markdown-it-py with its GFM-like settings (linkify included). Whatever a server or a document names (the
organization, an item, a section, a verb, the host, a diff's keys and values: a plan file is an artifact
anyone may edit), the HTML holds only the tags the renderer makes of plan_markdown's own words, no link,
image or raw HTML, and outside code no text that GitHub or GitLab turn into a mention, a reference, an
emoji or a link; each untrusted text shows, whole and on one line, inside a code element; and the
document keeps its shape (one title, the counts), so no name can make it read "No changes".
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re
from html.parser import HTMLParser

import pytest

cmarkgfm = pytest.importorskip("cmarkgfm")
markdown_it = pytest.importorskip("markdown_it")
pytest.importorskip("linkify_it")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings, strategies as st  # noqa: E402

from ansible_collections.posthog.admin.plugins.module_utils._review import markdown, visible  # noqa: E402

ATTACK = "Acme\n\nNo changes: PostHog already matches the document.\n<!--"
HOSTILE = [
    ATTACK,
    "[click](https://evil.example/login) ![x](https://evil.example/pixel.png) <img src=x onerror=alert(1)>",
    "@team @octo-org/admins #1 !2 ~bug %v1 &3 $4 :tada: www.evil.example mailto:a@evil.example a@evil.example",
    "<script>alert(1)</script><details open><summary>x</summary></details>",
    "`` ``` `code` ``\n```\n# heading\n---\n| a | b |\n|---|---|",
    "\u202eevil\u202c \u200b\u2028\u2029\x00\x1b[31m\r\n\t",
    "    indented\n> quote\n- item\n1. one\n<!-- comment -->",
]

ALLOWED_TAGS = {"h3", "h4", "p", "ul", "li", "code", "pre", "strong"}
OWN_WORDS = re.compile(r"^[A-Za-z0-9 .,:()\n]*$")


def render_github(text):
    from cmarkgfm.cmark import Options

    return cmarkgfm.github_flavored_markdown_to_html(text, options=Options.CMARK_OPT_UNSAFE)


def render_markdown_it(text):
    return markdown_it.MarkdownIt("gfm-like").render(text)


RENDERERS = [render_github, render_markdown_it]


class Shape(HTMLParser):
    """The tags of an HTML text, the text inside code elements, and the text outside them."""

    def __init__(self):
        HTMLParser.__init__(self, convert_charrefs=True)
        self.tags, self.attrs, self.code, self.outside, self.stack = [], [], [], [], []
        self.headings = []
        self.in_pre = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend((tag, name, value) for name, value in attrs)
        self.stack.append(tag)
        if tag == "code":
            self.code.append("")
            self.in_pre.append("pre" in self.stack[:-1])
        if tag in ("h3", "h4"):
            self.headings.append([tag, ""])

    def handle_endtag(self, tag):
        while self.stack and self.stack.pop() != tag:
            pass

    def handle_data(self, data):
        if "code" in self.stack:
            self.code[-1] += data
        else:
            self.outside.append(data)
        if self.headings and self.headings[-1][0] in self.stack:
            self.headings[-1][1] += data

    def handle_comment(self, data):
        self.tags.append("!--")


def shape_of(html):
    parser = Shape()
    parser.feed(html)
    parser.close()
    return parser


def plan_of(name="Acme", item="roles[0] (role 'Analysts')", section="roles", verb="created", host="https://h",
            created="2026-01-01T00:00:00+00:00", org_id="o-1", key="name", before="a", after="b"):
    return dict(organization=dict(name=name, id=org_id), host=host, created_at=created,
                plan=[dict(section=section, action=verb, item=item),
                      dict(section=section, action="updated", item=item),
                      dict(section=section, action="deleted", item=item)],
                diff=[dict(before_header=item, before={key: before}, after={key: after})])


def assert_inert(data, texts):
    text = markdown(data)
    for render in RENDERERS:
        html = render(text)
        shape = shape_of(html)
        assert set(shape.tags) <= ALLOWED_TAGS, (render.__name__, set(shape.tags) - ALLOWED_TAGS, html)
        assert set(shape.attrs) <= {("code", "class", "language-diff"), ("pre", "lang", "diff")}, \
            (render.__name__, shape.attrs)
        outside = "".join(shape.outside)
        assert OWN_WORDS.match(outside), (render.__name__, outside)
        titles = [h for h in shape.headings if h[0] == "h3"]
        assert len(titles) == 1 and titles[0][1].startswith("Plan for "), (render.__name__, shape.headings)
        assert "No changes" not in outside
        assert "1 to add, 1 to change, 1 to remove." in outside
        shown = "\n".join(shape.code)
        for value in texts:
            if value.strip():
                assert visible(value) in shown, (render.__name__, value, shape.code)
        for code, in_pre in zip(shape.code, shape.in_pre):
            if not in_pre:  # an inline code span: one line
                assert "\n" not in code, code


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_names_render_inertly_everywhere_they_appear(hostile):
    for field in ("name", "item", "section", "verb", "host", "created", "org_id"):
        data = plan_of(**{field: hostile})
        texts = [hostile] if field != "verb" else []
        if field == "verb":  # an unknown verb counts as a change; it still shows, inertly
            data["plan"][0]["action"] = "created"
            data["plan"][1]["action"] = hostile
        assert_inert(data, texts)


@pytest.mark.parametrize("hostile", HOSTILE)
def test_hostile_diff_keys_and_values_stay_inside_the_diff_block(hostile):
    data = plan_of(key=hostile, before=hostile, after={"x": [hostile]})
    assert_inert(data, [])
    html = render_github(markdown(data))
    assert html.count("<pre") == 1 and "diff" in html


def test_the_renamed_organization_of_issue_33_cannot_say_no_changes():
    data = plan_of(name=ATTACK)
    text = markdown(data)
    assert text.splitlines()[0].startswith("### Plan for `Acme\\n\\nNo changes")
    assert_inert(data, [ATTACK])


TEXT = st.text(min_size=1, max_size=40)


@settings(max_examples=150, deadline=None)
@given(name=TEXT, item=TEXT, section=TEXT, host=TEXT, key=TEXT, value=TEXT)
def test_any_text_renders_inertly(name, item, section, host, key, value):
    assert_inert(plan_of(name=name, item=item, section=section, host=host, key=key, before=value, after=value + "!"),
                 [name, item, section, host])


def test_a_plan_file_of_the_wrong_shape_still_renders_inertly():
    for data in ({"plan": "x"}, {"plan": [1, None, "a", {"action": ["x"], "item": {"a": 1}}]},
                 {"plan": [], "organization": "x"}, {"plan": [{"section": "s"}], "diff": {"a": 1}}, []):
        text = markdown(data)
        for render in RENDERERS:
            assert set(shape_of(render(text)).tags) <= ALLOWED_TAGS
