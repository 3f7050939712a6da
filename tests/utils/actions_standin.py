# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""A stand-in for GitHub Actions, enough to run a guide's workflow the way GitHub would: a pull request
is opened, then merged.

Each job whose ``on:`` and ``if:`` match the event runs in a fresh clone of the repository, its ``run``
steps in bash from the clone's root with the job's ``env``; the actions a step ``uses`` do what their
documentation says, for the inputs they document (anything else fails the run, so a workflow cannot
rely on an input the action does not have):

* ``actions/checkout@v4``: the commit of the event (the pull request's head; ``ref`` when given).
* ``actions/upload-artifact@v4`` (``name``, ``path``, ``if-no-files-found``): the files under ``path``,
  a directory's contents at the artifact's root, kept with the run.
* ``actions/download-artifact@v4`` (``name``, ``path``, ``pattern``, ``merge-multiple``, ``run-id``,
  ``github-token``, ``repository``): with ``name``, that artifact extracted into ``path``; without,
  every artifact (matching ``pattern``) into ``path/<artifact name>/``, or all into ``path`` with
  ``merge-multiple: true``.
* ``dawidd6/action-download-artifact`` (``workflow``, ``pr``, ``commit``, ``name``, ``name_is_regexp``,
  ``path``, ``merge_multiple``, ``workflow_conclusion``...): the artifacts of the newest run of
  ``workflow`` with that conclusion (``success``) for the pull request's head commit (``pr``) or
  ``commit``; extracted into ``path`` when ``name`` is given and not a regular expression (or with
  ``merge_multiple``), else into ``path/<artifact name>/`` (its main.js: ``dir = name && (!nameIsRegExp
  || mergeMultiple) ? path : pathname.join(path, artifact.name)``).
* ``marocchino/sticky-pull-request-comment@v2`` (``path`` or ``message``, ``header``...): the comment,
  which must not be empty.
"""
import fnmatch
import json
import os
import re
import shutil
import subprocess

import yaml


class WorkflowError(Exception):
    pass


# ------------------------------------------------------------------ expressions: ${{ ... }}
TOKEN = re.compile(r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<num>\d+(?:\.\d+)?)|(?P<op>==|!=|&&|\|\||!|\(|\))|"
                   r"(?P<name>[A-Za-z_][\w-]*(?:\.[A-Za-z_*][\w-]*)*))")


def evaluate(expression, context):
    """A GitHub Actions expression of literals, context properties, ``! == != && ||`` and parentheses."""
    tokens = []
    position = 0
    expression = expression.strip()
    while position < len(expression):
        match = TOKEN.match(expression, position)
        if not match or match.end() == position:
            raise WorkflowError("cannot evaluate %r (the stand-in knows literals, properties, ! == != && ||)"
                                % expression)
        tokens.append(match)
        position = match.end()
    stream = list(tokens)

    def peek():
        return stream[0] if stream else None

    def take():
        return stream.pop(0)

    def primary():
        token = take()
        if token.group("op") == "(":
            value = disjunction()
            take()
            return value
        if token.group("op") == "!":
            return not truthy(primary())
        if token.group("str") is not None:
            return token.group("str")[1:-1].replace("''", "'")
        if token.group("num") is not None:
            return float(token.group("num"))
        name = token.group("name")
        if name in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[name]
        value = context
        for part in name.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        return value

    def comparison():
        left = primary()
        while peek() is not None and peek().group("op") in ("==", "!="):
            op = take().group("op")
            right = primary()
            left = (loose(left) == loose(right)) if op == "==" else (loose(left) != loose(right))
        return left

    def conjunction():
        left = comparison()
        while peek() is not None and peek().group("op") == "&&":
            take()
            right = comparison()
            left = right if truthy(left) else left
        return left

    def disjunction():
        left = conjunction()
        while peek() is not None and peek().group("op") == "||":
            take()
            right = conjunction()
            left = left if truthy(left) else right
        return left

    value = disjunction()
    if stream:
        raise WorkflowError("cannot evaluate %r" % expression)
    return value


def loose(value):
    return value.lower() if isinstance(value, str) else value


def truthy(value):
    return value not in (None, False, 0, "", 0.0)


def interpolate(value, context):
    """``value`` with every ``${{ ... }}`` replaced (recursively in lists and dicts)."""
    if isinstance(value, dict):
        return dict((k, interpolate(v, context)) for k, v in value.items())
    if isinstance(value, list):
        return [interpolate(v, context) for v in value]
    if not isinstance(value, str):
        return value

    def one(match):
        result = evaluate(match.group(1), context)
        if result is None:
            return ""
        if isinstance(result, bool):
            return "true" if result else "false"
        if isinstance(result, float) and result.is_integer():
            return str(int(result))
        return str(result)

    return re.sub(r"\$\{\{(.*?)\}\}", one, value)


def condition(expression, context):
    """A job's or step's ``if:`` (``${{ }}`` optional, as GitHub allows)."""
    if expression is None:
        return True
    text = str(expression).strip()
    match = re.match(r"^\$\{\{(.*)\}\}$", text, re.S)
    return truthy(evaluate(match.group(1) if match else text, context))


# ------------------------------------------------------------------ the run
class Run:
    def __init__(self, run_id, workflow, head_sha):
        self.id = run_id
        self.workflow = workflow
        self.head_sha = head_sha
        self.conclusion = None
        self.artifacts = {}  # name -> directory of its files
        self.comments = []


class GitHub:
    """Runs a workflow file for events, keeping every run's artifacts (as GitHub keeps them)."""

    def __init__(self, repository, work, run_step, log):
        """:param repository: a git repository (the user's, with a main branch)
        :param run_step: ``run_step(command, cwd, env)`` runs a shell step (the guide test's way, with its
            substitutions); returns its output, raises on failure.
        :param log: ``log(text)``."""
        self.repository = repository
        self.work = work
        self.run_step = run_step
        self.log = log
        self.runs = []

    def run_workflow(self, workflow_path, event):
        """Run the jobs of the workflow at ``workflow_path`` (relative to the repository) for ``event``
        (``{"name": "pull_request", "payload": {...}, "sha": commit}``)."""
        with open(os.path.join(self.repository, workflow_path)) as handle:
            workflow = yaml.safe_load(handle)
        triggers = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as true
        if isinstance(triggers, str):
            triggers = {triggers: None}
        elif isinstance(triggers, list):
            triggers = dict((t, None) for t in triggers)
        if event["name"] not in (triggers or {}):
            self.log("  workflow %s: not triggered by %s" % (workflow_path, event["name"]))
            return None
        wanted = (triggers[event["name"]] or {}).get("types")
        if wanted and event["payload"].get("action") not in wanted:
            self.log("  workflow %s: %s %s is not one of its types %s" % (
                workflow_path, event["name"], event["payload"].get("action"), wanted))
            return None
        run = Run(len(self.runs) + 1, os.path.basename(workflow_path), event["head_sha"])
        self.runs.append(run)
        context = {"github": {"event_name": event["name"], "event": event["payload"], "sha": event["sha"],
                              "repository": "acme/posthog-config", "token": "ghs_standin", "run_id": run.id,
                              "workspace": None},
                   "secrets": event.get("secrets") or {}, "vars": {}, "env": {}}
        ran = []
        try:
            for name, job in (workflow.get("jobs") or {}).items():
                if not condition(job.get("if"), context):
                    self.log("  job %s: skipped (if: %s)" % (name, job.get("if")))
                    continue
                self.log("  job %s (run %d, %s %s)" % (name, run.id, event["name"], event["payload"].get("action")))
                self.run_job(run, name, job, dict(context), event)
                ran.append(name)
        except Exception:
            run.conclusion = "failure"
            raise
        run.conclusion = "success"
        return ran

    def run_job(self, run, name, job, context, event):
        workspace = os.path.join(self.work, "run%d-%s" % (run.id, name))
        os.makedirs(workspace)
        context["github"] = dict(context["github"], workspace=workspace)
        env = dict((k, interpolate(v, context)) for k, v in (job.get("env") or {}).items())
        context["env"] = env
        context["steps"] = {}
        for index, step in enumerate(job.get("steps") or []):
            label = step.get("name") or step.get("uses") or step.get("run", "").splitlines()[0]
            if not condition(step.get("if"), context):
                self.log("    step %d (%s): skipped" % (index + 1, label))
                continue
            step_env = dict(env, **dict((k, interpolate(v, context)) for k, v in (step.get("env") or {}).items()))
            if "run" in step:
                command = interpolate(step["run"], context)
                self.log("    step %d: run: %s" % (index + 1, command.strip()))
                self.run_step(command, workspace, step_env)
            elif "uses" in step:
                # inputs are strings (a YAML true is "true"), as the runner hands them to the action
                inputs = dict((k, interpolate(v if isinstance(v, str) else json.dumps(v) if isinstance(v, bool)
                                              else str(v), context)) for k, v in (step.get("with") or {}).items())
                self.log("    step %d: uses %s %s" % (index + 1, step["uses"], json.dumps(inputs, sort_keys=True)))
                outputs = self.use(step["uses"], inputs, workspace, run, event)
                if step.get("id"):
                    context["steps"][step["id"]] = {"outputs": outputs or {}}
            else:
                raise WorkflowError("job %s, step %d: neither run nor uses" % (name, index + 1))

    # ------------------------------------------------------------------ actions
    def use(self, action, inputs, workspace, run, event):
        name, dummy, version = action.partition("@")
        handlers = {
            "actions/checkout": (("v4",), ("ref", "fetch-depth", "path", "token", "repository"), self.checkout),
            "actions/upload-artifact": (("v4",), ("name", "path", "if-no-files-found", "retention-days",
                                                  "compression-level", "overwrite", "include-hidden-files"),
                                        self.upload),
            "actions/download-artifact": (("v4",), ("name", "path", "pattern", "merge-multiple", "github-token",
                                                    "repository", "run-id"), self.download),
            "dawidd6/action-download-artifact": (("v6", "v7", "v8", "v9", "v10", "v11"), (
                "github_token", "workflow", "workflow_search", "workflow_conclusion", "repo", "pr", "commit",
                "branch", "ref", "event", "run_id", "run_number", "name", "name_is_regexp", "path", "allow_forks",
                "check_artifacts", "search_artifacts", "skip_unpack", "dry_run", "if_no_artifact_found",
                "use_unzip", "merge_multiple"), self.download_other_run),
            "marocchino/sticky-pull-request-comment": (("v2",), (
                "header", "append", "recreate", "delete", "hide", "hide_and_recreate", "hide_classify",
                "hide_details", "only_create", "only_update", "skip_unchanged", "ignore_empty", "message", "path",
                "number", "owner", "repo", "GITHUB_TOKEN", "number_force"), self.comment),
        }
        if name not in handlers:
            raise WorkflowError("the guide's workflow uses %s, which the stand-in for GitHub Actions does not know" % action)
        versions, documented, handler = handlers[name]
        if version not in versions:
            raise WorkflowError("%s: the stand-in knows %s, not %s" % (name, ", ".join(versions), version))
        unknown = sorted(set(inputs) - set(documented))
        if unknown:
            raise WorkflowError("%s has no input %s (its documented inputs: %s)"
                                % (action, ", ".join(unknown), ", ".join(documented)))
        return handler(inputs, workspace, run, event)

    def checkout(self, inputs, workspace, run, event):
        ref = inputs.get("ref") or event["checkout"]
        subprocess.run(["git", "clone", "-q", self.repository, workspace + ".git-tmp"], check=True)
        subprocess.run(["git", "-C", workspace + ".git-tmp", "checkout", "-q", ref], check=True)
        for entry in os.listdir(workspace + ".git-tmp"):
            shutil.move(os.path.join(workspace + ".git-tmp", entry), os.path.join(workspace, entry))
        os.rmdir(workspace + ".git-tmp")

    def upload(self, inputs, workspace, run, event):
        name = inputs.get("name") or "artifact"
        paths = [p.strip() for p in str(inputs.get("path") or "").splitlines() if p.strip()]
        if not paths:
            raise WorkflowError("actions/upload-artifact: path is required")
        files = []
        for pattern in paths:
            full = os.path.join(workspace, pattern)
            if os.path.isdir(full):
                for base, dummy, names in os.walk(full):
                    files.extend(os.path.join(base, n) for n in names)
            else:
                files.extend(f for f in _glob(workspace, pattern) if os.path.isfile(f))
        if not files:
            how = inputs.get("if-no-files-found") or "warn"
            message = "actions/upload-artifact: no files found at %s" % ", ".join(paths)
            if how == "error":
                raise WorkflowError(message)
            self.log("    warning: %s (artifact not uploaded)" % message)
            return {}
        if name in run.artifacts:
            raise WorkflowError("actions/upload-artifact: an artifact named %r exists already in this run" % name)
        root = os.path.commonpath([os.path.dirname(f) for f in files])
        stored = os.path.join(self.work, "artifacts", "run%d" % run.id, name)
        for path in files:
            target = os.path.join(stored, os.path.relpath(path, root))
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copyfile(path, target)  # permissions are not kept (upload-artifact's documented limitation)
        run.artifacts[name] = stored
        self.log("    artifact %r: %s" % (name, ", ".join(sorted(os.path.relpath(f, root) for f in files))))
        return {"artifact-id": "%d-%s" % (run.id, name)}

    def _extract(self, artifacts, path, into_subdirectories, workspace):
        target = os.path.join(workspace, path or ".")
        for name, stored in artifacts:
            directory = os.path.join(target, name) if into_subdirectories else target
            for base, dummy, names in os.walk(stored):
                for filename in names:
                    source = os.path.join(base, filename)
                    destination = os.path.join(directory, os.path.relpath(source, stored))
                    os.makedirs(os.path.dirname(destination), exist_ok=True)
                    shutil.copyfile(source, destination)
            self.log("    extracted artifact %r into %s" % (name, os.path.relpath(directory, workspace)))

    def download(self, inputs, workspace, run, event):
        source = run
        if inputs.get("run-id"):
            source = next((r for r in self.runs if str(r.id) == str(inputs["run-id"])), None)
            if source is None:
                raise WorkflowError("actions/download-artifact: no run %s" % inputs["run-id"])
        name = inputs.get("name")
        if name:
            if name not in source.artifacts:
                raise WorkflowError("actions/download-artifact: run %d has no artifact %r" % (source.id, name))
            self._extract([(name, source.artifacts[name])], inputs.get("path"), False, workspace)
            return {}
        chosen = [(n, d) for n, d in sorted(source.artifacts.items())
                  if not inputs.get("pattern") or fnmatch.fnmatch(n, inputs["pattern"])]
        merge = str(inputs.get("merge-multiple", "false")).lower() == "true"
        self._extract(chosen, inputs.get("path"), not merge, workspace)
        return {}

    def download_other_run(self, inputs, workspace, run, event):
        given = [k for k in ("pr", "commit", "branch", "ref", "run_id") if inputs.get(k)]
        if len(given) > 1:
            raise WorkflowError("dawidd6/action-download-artifact: the following inputs cannot be used together: %s"
                                % ", ".join(given))
        sha = inputs.get("commit")
        if inputs.get("pr"):
            if str(inputs["pr"]) != str(event["payload"]["pull_request"]["number"]):
                raise WorkflowError("dawidd6/action-download-artifact: the stand-in knows pull request %s only"
                                    % event["payload"]["pull_request"]["number"])
            sha = event["payload"]["pull_request"]["head"]["sha"]
        conclusion = inputs.get("workflow_conclusion", "success")
        workflow = inputs.get("workflow") or run.workflow
        candidates = [r for r in reversed(self.runs) if r.workflow == workflow and (not sha or r.head_sha == sha)
                      and (not conclusion or r.conclusion == conclusion)]
        if not candidates:
            raise WorkflowError("dawidd6/action-download-artifact: no matching workflow run found (workflow %s, "
                                "commit %s, conclusion %s)" % (workflow, sha, conclusion))
        source = candidates[0]
        name = inputs.get("name")
        regexp = str(inputs.get("name_is_regexp", "false")).lower() == "true"
        artifacts = sorted(source.artifacts.items())
        if name:
            artifacts = [(n, d) for n, d in artifacts if (re.search(name, n) if regexp else n == name)]
        if not artifacts:
            raise WorkflowError("dawidd6/action-download-artifact: no artifact %r in run %d" % (name, source.id))
        merge = str(inputs.get("merge_multiple", "false")).lower() == "true"
        self._extract(artifacts, inputs.get("path", "./"), not (name and (not regexp or merge)), workspace)
        return {"found_artifact": "true"}

    def comment(self, inputs, workspace, run, event):
        if inputs.get("path"):
            path = os.path.join(workspace, inputs["path"])
            if not os.path.isfile(path):
                raise WorkflowError("marocchino/sticky-pull-request-comment: no file %s" % inputs["path"])
            with open(path) as handle:
                text = handle.read()
        else:
            text = inputs.get("message") or ""
        if not text.strip():
            raise WorkflowError("marocchino/sticky-pull-request-comment: the comment is empty")
        run.comments.append(text)
        self.log("    pull request comment: %d lines, starting %r" % (len(text.splitlines()), text.splitlines()[0]))
        return {}


def _glob(root, pattern):
    import glob
    return glob.glob(os.path.join(root, pattern), recursive=True)
