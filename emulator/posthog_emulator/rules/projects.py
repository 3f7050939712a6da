"""Rules of the projects area (``posthog/api/project.py``, ``posthog/api/team.py`` and its
validation helpers, ``posthog/permissions.py``; docs/posthog_facts.md §10.5).

Who may create, change and delete a project, and what a setting may be. The functions take plain
values and raise :class:`~posthog_emulator.rules.RuleError` / :class:`~posthog_emulator.rules.Forbidden`
with PostHog's words.
"""

import json
import re
import zoneinfo

from posthog_emulator.rules import Forbidden, RuleError
from posthog_emulator.rules.features import ORGANIZATION_INVITE_SETTINGS, ORGANIZATIONS_PROJECTS, available_feature

MEMBER, ADMIN = 1, 8
MAX_ALLOWED_PROJECTS_PER_ORG = 2000  # posthog/api/project.py

MESSAGE_PLAN_LIMIT = (
    "You have reached the maximum limit of allowed projects for your current plan. Upgrade your plan to be "
    "able to create and manage more projects."
)
MESSAGE_HARD_LIMIT = (
    f"You have reached the maximum limit of {MAX_ALLOWED_PROJECTS_PER_ORG} projects per organization. Contact "
    "support if you'd like access to more projects."
)
MESSAGE_CREATE_LEVEL = "You need to be an organization admin or above to create new projects."
MESSAGE_PROJECT_LEVEL = "You don't have sufficient permissions in the project."
MESSAGE_ADMIN_SETTINGS = "Only project admins can modify these settings: "
MESSAGE_ADMIN_SETTINGS_ON_CREATE = "Only organization admins can set these settings on project creation: "

#: Settings any member of the project may change (``TEAM_CONFIG_MEMBER_FIELDS``); every other
#: writable field is for admins (``TEAM_CONFIG_ADMIN_FIELDS_SET``: the rest, plus is_demo,
#: app_urls, access_control and name).
MEMBER_FIELDS = frozenset({
    "completed_snippet_onboarding", "has_completed_onboarding_for", "session_recording_opt_in",
    "autocapture_exceptions_opt_in", "autocapture_web_vitals_opt_in", "autocapture_web_vitals_allowed_metrics",
    "surveys_opt_in", "primary_dashboard",
})  # fmt: skip

#: ``pytz.all_timezones`` as the April 2026 schema lists them (the IANA names).
TIMEZONES = sorted(zoneinfo.available_timezones() - {"Factory", "localtime"}) or ["UTC"]

#: Property filter types of ``AnyPropertyFilter`` (``posthog/schema.py``).
PROPERTY_FILTER_TYPES = frozenset({
    "event", "event_metadata", "person", "element", "session", "cohort", "recording", "log_entry", "group",
    "feature", "flag", "hogql", "empty", "data_warehouse", "data_warehouse_person_property", "error_tracking_issue",
    "log", "revenue_analytics", "workflow_variable",
})  # fmt: skip


def check_can_create(organization, level: int, is_demo: bool) -> None:
    """``UserCanCreateProjectPermission`` for a member at ``level`` (the caller answers a non-member
    404 first): admins create projects; members only with the ``organization_invite_settings``
    feature and ``members_can_create_projects`` on. A demo project skips this check."""
    if is_demo or level >= ADMIN:
        return
    if available_feature(organization, ORGANIZATION_INVITE_SETTINGS) and getattr(
        organization, "members_can_create_projects", False
    ):
        return
    raise Forbidden(MESSAGE_CREATE_LEVEL)


def check_plan_allows(organization, is_demo: bool, non_demo_count: int, has_demo: bool, creating: bool) -> None:
    """``PremiumMultiProjectPermission``, which guards ``create`` and ``update`` (a PUT) alike:
    without the ``organizations_projects`` feature an organization has one non-demo project; with
    it, ``limit`` of them (none: up to 2000)."""
    if is_demo and has_demo:
        raise Forbidden(MESSAGE_PLAN_LIMIT)
    feature = available_feature(organization, ORGANIZATIONS_PROJECTS)
    if feature is None:
        if non_demo_count >= 1:
            raise Forbidden(MESSAGE_PLAN_LIMIT)
        return
    limit = feature.get("limit")
    if limit is None:
        if non_demo_count >= MAX_ALLOWED_PROJECTS_PER_ORG and creating:
            raise Forbidden(MESSAGE_HARD_LIMIT)
        return
    if non_demo_count >= limit:
        raise Forbidden(MESSAGE_PLAN_LIMIT)


def check_can_delete(level: int | None) -> None:
    """``TeamMemberLightManagementPermission``: members read and update, admins delete."""
    if level is None or level < ADMIN:
        raise Forbidden(MESSAGE_PROJECT_LEVEL)


def check_admin_fields(fields, level: int | None, creating: bool) -> None:
    """``validate_team_attrs``: a member may only touch :data:`MEMBER_FIELDS` (and, creating, ``name``
    and ``is_demo``)."""
    if level is not None and level >= ADMIN:
        return
    touched = set(fields) - MEMBER_FIELDS - ({"name", "is_demo"} if creating else set())
    if touched:
        lead = MESSAGE_ADMIN_SETTINGS_ON_CREATE if creating else MESSAGE_ADMIN_SETTINGS
        raise Forbidden(lead + ", ".join(sorted(touched)))


def duplicate_name_message(name: str) -> str:
    return f'There is already a project called "{name}" in this organization. Choose a different name.'


def clean_urls(value):
    """``validate_app_urls`` / ``validate_recording_domains``: empty entries are dropped."""
    if value is None:
        return None
    return [url for url in value if url]


def check_test_account_filters(value) -> list:
    """A list of property filters (``list[AnyPropertyFilter]``)."""
    lead = "Must provide an array of valid property filters."
    if not isinstance(value, list):
        raise RuleError(f"{lead} Input should be a valid list.")
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise RuleError(f"{lead} Item {index}: input should be an object.")
        if not isinstance(item.get("key"), str) and item.get("type") not in ("cohort", "hogql", "empty"):
            raise RuleError(f"{lead} Item {index}: 'key' should be a string.")
        if item.get("type") not in PROPERTY_FILTER_TYPES:
            raise RuleError(
                f"{lead} Item {index}: 'type' should be one of {', '.join(sorted(PROPERTY_FILTER_TYPES))}."
            )
    return value


def check_path_cleaning_filters(value):
    """Each rule needs a regex that compiles (PostHog compiles with re2, the emulator with ``re``)."""
    if not value:
        return value
    if not isinstance(value, list):
        raise RuleError("Must provide a list of path cleaning rules.")
    for rule in value:
        if not isinstance(rule, dict):
            continue
        regex = rule.get("regex")
        if not isinstance(regex, str) or not regex:
            raise RuleError("A path cleaning rule needs a regex. Remove the rule or give it one.")
        try:
            re.compile(regex)
        except re.error as error:
            raise RuleError(f"Invalid path cleaning regex '{regex}': {error}")
    return value


def check_errors_to_ignore(value):
    """``autocapture_exceptions_errors_to_ignore``: a short list of strings."""
    if value is None:
        return value
    if not isinstance(value, list):
        raise RuleError("Must provide a list for field: autocapture_exceptions_errors_to_ignore.")
    if any(not isinstance(item, str) for item in value):
        raise RuleError("Must provide a list of strings to field: autocapture_exceptions_errors_to_ignore.")
    if len(json.dumps(value)) > 300:
        raise RuleError(
            "Field autocapture_exceptions_errors_to_ignore must be less than 300 characters. Complex config should be "
            "provided in posthog-js initialization."
        )
    return value
