# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make utils-test`: the pieces of the guide test (guides.py) that decide what a guide means: how its
blocks are read, which guides are covered, and what the stand-in for GitHub Actions does with the inputs
the actions document (a workflow that puts an artifact where the next job does not read it must fail)."""
import os
import subprocess
import sys
import textwrap

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import actions_standin  # noqa: E402
import doc_blocks  # noqa: E402
import guides  # noqa: E402


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as handle:
        handle.write(textwrap.dedent(text))


def test_rst_blocks_with_their_files_notes_and_commands(tmp_path):
    path = str(tmp_path / "guide.rst")
    write(path, """\
        Title
        =====

        A section
        ---------

        .. code-block:: yaml

            # plan.yml: plans on a pull request
            - hosts: localhost

        .. guide-test: not run - builds a container image; make ee-context
           checks what it reads

        .. code-block:: console

            $ ansible-builder build   # a comment
            $ ansible-playbook site.yml --check \\
                --diff     # changed=0: nothing to do
            PLAY RECAP
        """)
    blocks = doc_blocks.rst_blocks(path)
    assert [(b.lang, b.section, b.line) for b in blocks] == [("yaml", "A section", 7), ("console", "A section", 15)]
    assert doc_blocks.file_name(blocks[0]) == "plan.yml" and blocks[0].note is None
    assert blocks[1].note == "not run - builds a container image; make ee-context checks what it reads"
    steps = doc_blocks.console_steps(blocks[1])
    assert [(s.command, s.comment, s.output) for s in steps] == [
        ("ansible-builder build", "a comment", []),
        ("ansible-playbook site.yml --check --diff", "changed=0: nothing to do", ["PLAY RECAP"])]


def test_markdown_sections_blocks_and_notes(tmp_path):
    path = str(tmp_path / "README.md")
    write(path, """\
        # Title

        ```sh
        make demo   # the demo
        ```

        ## Content

        <!-- guide-test: run by plugins/modules/domain.py -->
        ```yaml
        - name: a task
          posthog.admin.domain: {domain: acme.example}
        ```

        ```
        plugins/   the plugins
        ```
        """)
    sections = doc_blocks.md_sections(path)
    assert sorted(sections, key=str) == ["## Content", None]
    first = doc_blocks.md_blocks(sections[None])
    assert [(s.command, s.comment) for s in doc_blocks.console_steps(first[0])] == [("make demo", "the demo")]
    content = doc_blocks.md_blocks(sections["## Content"], 7)
    assert [(b.lang, b.note, b.line) for b in content] == [
        ("yaml", "run by plugins/modules/domain.py", 10), ("text", None, 15)]


def test_a_comment_line_names_a_file_only_when_it_is_a_path():
    def block(first):
        return doc_blocks.Block("yaml", first + "\nx: 1\n", 1, None, None)
    assert doc_blocks.file_name(block("# inventory/posthog.yml (the name must end in posthog.yml)")) == \
        "inventory/posthog.yml"
    assert doc_blocks.file_name(block("# .github/workflows/posthog.yml")) == ".github/workflows/posthog.yml"
    assert doc_blocks.file_name(block("# .gitignore")) == ".gitignore"
    assert doc_blocks.file_name(block("# Input configuration")) is None
    assert doc_blocks.file_name(block("- name: a task")) is None


def test_every_guide_and_readme_section_with_code_is_listed():
    assert guides.uncovered() == []


def test_run_by_compares_tasks_as_data_without_their_names():
    shown = doc_blocks.Block("yaml", "- name: Anything\n  posthog.admin.organization_state_info:\n"
                                     "    organization: Acme\n    dest: organizations/acme.yml\n", 1, None, None)
    assert guides.check_run_by(shown, "docs/docsite/rst/guide_adopt.rst") == 1
    other = doc_blocks.Block("yaml", "- posthog.admin.organization_state_info:\n    organization: Globex\n", 1, None,
                             None)
    with pytest.raises(guides.GuideFailed, match="not in docs/docsite/rst/guide_adopt.rst"):
        guides.check_run_by(other, "docs/docsite/rst/guide_adopt.rst")


# ------------------------------------------------------------------ the stand-in for GitHub Actions
@pytest.mark.parametrize("expression, expected", [
    ("github.event.action != 'closed'", True),
    ("github.event.action == 'closed' && github.event.pull_request.merged", False),
    ("!github.event.pull_request.merged || github.event_name == 'PULL_REQUEST'", True),
    ("(github.event.number == 1)", True),
    ("secrets.MISSING", None),
])
def test_expressions(expression, expected):
    context = {"github": {"event_name": "pull_request", "event": {"action": "opened", "number": 1,
                                                                  "pull_request": {"merged": False}}}, "secrets": {}}
    assert actions_standin.evaluate(expression, context) == expected


def repository(tmp_path, workflow):
    repo = str(tmp_path / "repo")
    write(os.path.join(repo, ".github", "workflows", "ci.yml"), workflow)
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com")
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "x"]):
        subprocess.run(["git", "-C", repo] + args, check=True, env=env)
    sha = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], check=True, stdout=subprocess.PIPE,
                         universal_newlines=True).stdout.strip()
    return repo, sha


def run_pull_request(tmp_path, workflow):
    """A pull request opened, then merged; every ``run`` step's directory and environment recorded."""
    repo, sha = repository(tmp_path, workflow)
    ran = []

    def run_step(command, cwd, env):
        ran.append((command.strip(), cwd))
        subprocess.run(["bash", "-e", "-c", command], cwd=cwd, env=dict(os.environ, **env), check=True)

    hub = actions_standin.GitHub(repo, str(tmp_path / "github"), run_step, lambda text: None)
    pull = {"number": 1, "head": {"sha": sha}, "merged": False, "merge_commit_sha": None}
    opened = {"name": "pull_request", "payload": {"action": "opened", "number": 1, "pull_request": pull}, "sha": sha,
              "head_sha": sha, "checkout": sha, "secrets": {"KEY": "s3cret"}}
    closed = {"name": "pull_request", "payload": {"action": "closed", "number": 1,
                                                  "pull_request": dict(pull, merged=True, merge_commit_sha=sha)},
              "sha": sha, "head_sha": sha, "checkout": sha, "secrets": {}}
    return hub.run_workflow(".github/workflows/ci.yml", opened), hub.run_workflow(".github/workflows/ci.yml", closed), ran


PLAN_JOB = """\
    on:
      pull_request:
        types: [opened, closed]
    jobs:
      plan:
        if: github.event.action != 'closed'
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v4
          - run: mkdir -p plans && echo '{}' > plans/acme.json && test "$KEY" = s3cret
            env:
              KEY: ${{ secrets.KEY }}
          - uses: actions/upload-artifact@v4
            with:
              name: plan
              path: plans/
      apply:
        if: github.event.action == 'closed' && github.event.pull_request.merged
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v4
          - uses: %s
            with:
              %s
          - run: test -f plans/acme.json
    """


@pytest.mark.parametrize("action, inputs", [
    ("dawidd6/action-download-artifact@v6", "{workflow: ci.yml, pr: '${{ github.event.pull_request.number }}', "
                                            "name: plan, path: plans/}"),
    ("dawidd6/action-download-artifact@v6", "{workflow: ci.yml, pr: '1', name: 'pl.*', name_is_regexp: true, "
                                            "merge_multiple: true, path: plans/}"),
])
def test_an_artifact_reaches_the_next_run_where_its_inputs_say(tmp_path, action, inputs):
    on_open, on_merge, ran = run_pull_request(tmp_path, PLAN_JOB % (action, inputs))
    assert on_open == ["plan"] and on_merge == ["apply"]
    assert ran[-1][0] == "test -f plans/acme.json"


@pytest.mark.parametrize("action, inputs, error", [
    # a regular expression extracts each artifact into path/<its name>/ (dawidd6's main.js)
    ("dawidd6/action-download-artifact@v6", "{workflow: ci.yml, pr: '1', name: 'plan-.*', name_is_regexp: true, "
                                            "path: plans/}", None),
    # a commit no run was made for (the merge commit, not the pull request's head)
    ("dawidd6/action-download-artifact@v6", "{workflow: ci.yml, commit: '0000000', name: plan, path: plans/}",
     "no matching workflow run"),
    ("dawidd6/action-download-artifact@v6", "{workflow: ci.yml, pr: '1', commit: abc, name: plan}",
     "cannot be used together"),
    # actions/download-artifact reads the current run's artifacts unless given a run-id
    ("actions/download-artifact@v4", "{name: plan, path: plans/}", "has no artifact 'plan'"),
    ("actions/download-artifact@v4", "{name: plan, paths: plans/}", "has no input paths"),
])
def test_an_artifact_that_does_not_reach_the_next_run_fails_it(tmp_path, action, inputs, error):
    workflow = PLAN_JOB % (action, inputs)
    if error is None:  # extracted, but into plans/plan/: the next step does not find plans/acme.json
        workflow = workflow.replace("name: plan\n", "name: plan-1\n")
        with pytest.raises(subprocess.CalledProcessError):
            run_pull_request(tmp_path, workflow)
        return
    with pytest.raises(actions_standin.WorkflowError, match=error):
        run_pull_request(tmp_path, workflow)


def test_an_action_the_stand_in_does_not_know_fails(tmp_path):
    workflow = PLAN_JOB % ("actions/cache@v4", "{path: plans/}")
    with pytest.raises(actions_standin.WorkflowError, match="does not know"):
        run_pull_request(tmp_path, workflow)
