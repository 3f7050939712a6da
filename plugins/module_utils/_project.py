# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Projects of an organization: the Resource behind posthog.admin.project, and project_info's read.

PostHog's rules (``posthog/api/project.py``, ``posthog/permissions.py``):

* ``/api/organizations/<id>/projects/`` lists projects in a short shape (name, timezone ...); one
  GET of a project answers all its settings, so a look-up by name reads the list, then the match.
* Creating needs an admin (members only where the plan lets them) and a plan that allows another
  project (``organizations_projects``); PostHog makes the new project the key user's current one.
* Members may change a few settings (session recording, surveys, exception and web vitals
  capture); the rest, the name included, needs a project admin.
* A name is unique within the organization regardless of case (409 otherwise).
* Deleting a project deletes all its data: the module deletes by id, or by name only with
  ``confirm_delete``.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.module_utils._common import list_or_get
from ansible_collections.posthog.admin.plugins.module_utils._resource import (
    Failure,
    Field,
    Resource,
    Scope,
    fold,
    mask,
    name_problem,
    options_of,
)
from ansible_collections.posthog.admin.plugins.module_utils._section import Section, options_from

NAME_MAX_LENGTH = 200
MAX_RECORDING_DURATION = 30000
WEEK_DAYS = {"sunday": 0, "monday": 1}
WEEK_DAY_NAMES = dict((number, name) for name, number in WEEK_DAYS.items())

#: What PostHog answers about a project that is a secret (docs/posthog_facts.md §10.5): masked in
#: project's results and diffs and in project_info's, so reading one never prints it.
SECRET_FIELDS = ("slack_incoming_webhook", "secret_api_token", "secret_api_token_backup")


def clean_list(values):
    """``app_urls`` / ``recording_domains`` as PostHog stores them: empty entries dropped."""
    return [value for value in values or [] if value]


def trimmed(value):
    """A name as it is compared and exported: trimmed."""
    return value.strip() if isinstance(value, str) else value


def sample_rate(value):
    """``session_recording_sample_rate`` as a number (PostHog answers a decimal string: ``"0.50"``)."""
    if value is None or value == "":
        return None
    try:
        return round(float(value), 2)
    except (TypeError, ValueError):
        return value


#: The fields of a project, each described once (PostHog's field names): the module's options, what
#: the engine sends and compares, and what organization_state_info exports all come from here. The
#: name finds the project (regardless of case); given with an id, it renames it.
FIELDS = (
    Field("name", from_api=trimmed),
    Field("product_description"),
    Field("timezone"),
    Field("anonymize_ips", "bool"),
    Field("app_urls", "list", elements="str", to_api=clean_list, from_api=clean_list, unordered=True),
    Field("recording_domains", "list", elements="str", to_api=clean_list, from_api=clean_list, unordered=True),
    Field("test_account_filters", "list", elements="dict"),
    Field("test_account_filters_default_checked", "bool"),
    Field("path_cleaning_filters", "list", elements="dict"),
    Field("data_attributes", "list", elements="str"),
    Field("person_display_name_properties", "list", elements="str"),
    Field("autocapture_opt_out", "bool"),
    Field("autocapture_exceptions_opt_in", "bool"),
    Field("autocapture_web_vitals_opt_in", "bool"),
    Field("capture_console_log_opt_in", "bool"),
    Field("capture_performance_opt_in", "bool"),
    Field("session_recording_opt_in", "bool"),
    Field("session_recording_sample_rate", "float", from_api=sample_rate),
    Field("session_recording_minimum_duration_milliseconds", "int"),
    Field("surveys_opt_in", "bool"),
    Field("heatmaps_opt_in", "bool"),
    Field("inject_web_apps", "bool"),
    Field("flags_persistence_default", "bool"),
    Field("week_start_day", choices=WEEK_DAYS, to_api=WEEK_DAYS.get, to_user=WEEK_DAY_NAMES.get),
    Field("slack_incoming_webhook", secret=True),  # masked in results and diffs, never exported
)

ARGUMENT_SPEC = dict(
    state=dict(type="str", default="present", choices=["present", "absent"]),
    id=dict(type="str"),
    confirm_delete=dict(type="bool", default=False),
)
ARGUMENT_SPEC.update(options_of(FIELDS))

INFO_ARGUMENT_SPEC = dict(id=dict(type="str"), name=dict(type="str"))

MSG_PLAN = ("This organization's plan allows no more projects (PostHog's organizations_projects feature): upgrade "
            "the plan, or delete a project first.")
PLAN_FEATURE = "organizations_projects"
MAX_PROJECTS = 2000  # PostHog's MAX_ALLOWED_PROJECTS_PER_ORG, with the feature and no limit
MSG_NAME_TAKEN = "PostHog compares project names regardless of case: choose another name, or manage that project."
MSG_CURRENT = ("Like the PostHog web app, creating a project made it the API key user's current project: later tasks "
               "with project_id @current act on it.")


class Project(Resource):
    """A project of the organization, found by id or by name (unique within the organization,
    regardless of case). With an id, ``name`` is a setting (a rename)."""

    kind = "project"
    return_key = "project"
    SCOPE = Scope("organization", "projects")
    summary_list = True  # the list answers a summary: a match's settings are read whole
    lookups = ("id", "name")
    named_by = "name or id"
    FIELDS = FIELDS
    folded = ("name",)  # PostHog keeps names unique regardless of case
    secret_paths = SECRET_FIELDS  # the tokens too, which the module never manages

    def validate(self):
        params = self.params
        problems = []
        if params.get("id") is not None and not str(params["id"]).strip().isdigit():
            problems.append("id must be a project's numeric id, got %r" % params["id"])
        problems.extend(p for p in [name_problem(params, NAME_MAX_LENGTH)] if p)
        rate = params.get("session_recording_sample_rate")
        if rate is not None and (not 0 <= rate <= 1 or round(rate, 2) != rate):
            problems.append("session_recording_sample_rate must be a number from 0 to 1 with at most two decimals "
                            "(0.25 records a quarter of sessions), got %r" % rate)
        duration = params.get("session_recording_minimum_duration_milliseconds")
        if duration is not None and not 0 <= duration <= MAX_RECORDING_DURATION:
            problems.append("session_recording_minimum_duration_milliseconds must be 0 to %d, got %d"
                            % (MAX_RECORDING_DURATION, duration))
        if params.get("state") == "absent" and params.get("id") is None and not params.get("confirm_delete"):
            problems.append(
                "deleting a project deletes all its data with it (events, persons, recordings, dashboards): name it "
                "by id, or set confirm_delete: true to delete the project named %r" % params.get("name"))
        return problems

    # --------------------------------------------------------------- writing
    def guard(self, current):
        """Before any write: a project the plan has no room for is refused as PostHog would refuse it
        (``PremiumMultiProjectPermission``, docs/posthog_facts.md §10.5), read from the organization's
        ``available_product_features`` and the projects the look-up listed."""
        if current is not None or self.params.get("state") == "absent":
            return
        if getattr(self.task, "missing_parent", None) or self.params.get("id") is not None:
            return
        organization = self.client.get(self.task.org_path(), context="reading the organization's plan")
        refusal = plan_refusal(organization, self.seen)
        if refusal:
            raise Failure("creating %s would fail: %s %s" % (self.identity(), refusal, MSG_PLAN))

    def after_create(self, obj, payload):
        self.task.warn(MSG_CURRENT)
        return obj

    def explain(self, error):
        if error.status == 403 and "maximum limit" in (error.detail or ""):
            return error.replace_hint(MSG_PLAN)
        if error.status == 409:
            return error.append(MSG_NAME_TAKEN)
        return error


def plan_refusal(organization, projects):
    """PostHog's refusal of one more non-demo project, or None: without the ``organizations_projects``
    feature an organization has one; with it, ``limit`` of them (no limit: up to 2000)."""
    features = (organization or {}).get("available_product_features") if isinstance(organization, dict) else None
    feature = next((f for f in features or [] if isinstance(f, dict) and f.get("key") == PLAN_FEATURE), None)
    count = len([p for p in projects or [] if isinstance(p, dict) and not p.get("is_demo")])
    limit = 1 if feature is None else feature.get("limit")
    if limit is None:
        limit = MAX_PROJECTS
    if isinstance(limit, int) and count >= limit:
        return ("PostHog would answer HTTP 403 \"You have reached the maximum limit of allowed projects for your "
                "current plan\": the organization has %d project%s and its plan allows %d." % (
                    count, "" if count == 1 else "s", limit))
    return None


def read_projects(task, params):
    """project_info: the organization's projects as listed, or (with ``id`` or ``name``) each match
    whole, with its settings."""
    projects = Project(task, params)  # where they live: the kind's scope
    if params.get("id") is not None:
        found = list_or_get(task, projects.collection_path(), params["id"], what="project")
    else:
        found = list_or_get(task, projects.collection_path(), what="project")
        name = params.get("name")
        if name is not None:
            found = [task.client.get(projects.detail_path(p["id"]), context="reading project %s" % p["id"])
                     for p in found if fold(p.get("name") or "") == fold(name)]
    return dict(projects=[mask(p, SECRET_FIELDS) if isinstance(p, dict) else p for p in found])


# ---------------------------------------------------------------------------------- exporting
def export_items(ctx):
    """organization_state_info: the organization's projects as the document's items (each read whole:
    the list answers a summary); None when PostHog refuses the list."""
    reader = Project(ctx.task, {})
    path = reader.collection_path()
    projects = ctx.quietly("projects", lambda: ctx.client.list_all(path, context="listing projects"))
    if projects is None:
        return None
    items = []
    for listed in projects:
        if not isinstance(listed, dict):
            continue
        obj = ctx.client.get(reader.detail_path(listed["id"]), context="reading project %s" % listed.get("id"))
        if obj.get("slack_incoming_webhook"):
            ctx.comment("projects", obj.get("name"), "slack_incoming_webhook is set; it is a secret, so it is left "
                                                     "out: add it from your vault to manage it")
        items.append(reader.export(obj))
    return items


# ---------------------------------------------------------------------------------- the document
def _project_keys(obj, label):
    return [str(obj.get("id"))] if obj and obj.get("id") is not None else []


#: Projects come first (the rest may live in them); deleting one deletes its data, so prune removes
#: projects only with prune_projects as well.
SECTION = Section(
    "projects", Project, options_from(ARGUMENT_SPEC, tuple(ARGUMENT_SPEC)), "project", prunable="prune_projects",
    required_one_of=[("name", "id")], prune_params=dict(confirm_delete=True), keys=_project_keys,
    export=export_items,
    comment="Projects and their settings (posthog.admin.project). prune removes unlisted ones only with "
            "prune_projects: deleting a project deletes its data.")
