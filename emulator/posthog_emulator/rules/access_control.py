"""Rules of access control (PostHog's role-based access control), as PostHog's newest code has them:
``products/access_control/backend/presentation/access_control.py`` (``AccessControlSerializer``,
``apply_access_control_rule``), ``products/access_control/backend/facade/user_access_control.py``
(levels) and ``ee/api/rbac/access_control_management.py`` (the Terraform lock).

Levels: ``project`` and ``organization`` take ``none`` < ``member`` < ``admin``; every other resource
``none`` < ``viewer`` < ``editor`` < ``manager``, with ``action`` no lower than ``viewer`` and
``activity_log`` and ``toolbar`` no higher than ``viewer``. A rule names a member or a role or
neither (the default for everyone), never both. Role rules need the organization's
``role_based_access`` feature. A rule Terraform wrote (``managed_by``) cannot be changed or removed by
anyone else while the project's lock is on.
"""

from posthog_emulator.rules import Forbidden, RuleError

LEVELS_MEMBER = ("none", "member", "admin")
LEVELS_RESOURCE = ("none", "viewer", "editor", "manager")
#: ``AvailableFeature.ROLE_BASED_ACCESS``
ROLE_BASED_ACCESS = "role_based_access"
#: The requests PostHog counts as Terraform's (``get_event_source``: its provider's User-Agent).
TERRAFORM_USER_AGENT = "posthog/terraform-provider"
TERRAFORM = "terraform"

MESSAGE_BOTH = "You can not scope an access control to both a member and a role."
MESSAGE_ROLE_FEATURE = "Role-based access controls require the Role-based access feature."
MESSAGE_ROLE_ORGANIZATION = "The role must belong to the same organization as this project."
MESSAGE_MEMBER_ORGANIZATION = "The member must belong to the same organization as this project."
MESSAGE_MEMBER_ID = ("Invalid organization member id. Use the 'id' field from the "
                     "/api/organizations/<organization_id>/members/ endpoint.")
MESSAGE_PROJECT_WIDE = "Must be an Organization admin to modify project-wide permissions."
MESSAGE_URL_TARGET = "Cannot modify access controls for a resource different from the URL target."
MESSAGE_LOCKED = ("Terraform manages this access control rule. Change it in your Terraform configuration, "
                  "or turn off the Terraform lock in project settings.")
MESSAGE_MANAGE = "Must be an Organization admin to manage access control ownership."
MESSAGE_NO_RULE = "No access control rule matches that target."


def ordered_levels(resource: str) -> tuple:
    return LEVELS_MEMBER if resource in ("project", "organization") else LEVELS_RESOURCE


def default_level(resource: str) -> str:
    if resource == "project":
        return "admin"
    if resource == "organization":
        return "member"
    if resource in ("activity_log", "toolbar"):
        return "viewer"
    return "editor"


def minimum_level(resource: str) -> str:
    return "viewer" if resource == "action" else "none"


def highest_level(resource: str) -> str:
    if resource in ("activity_log", "toolbar"):
        return "viewer"
    return ordered_levels(resource)[-1]


def check_resource(resource, allowed: tuple) -> str:
    """``validate_resource``: a scope object that is not internal."""
    if resource not in allowed:
        raise RuleError("Invalid resource. Must be one of: {}".format(allowed), attr="resource")
    return resource


def check_level(resource: str, level):
    """``validate_access_level``: null (remove the rule), or a level of the resource in its range."""
    if level is None:
        return None
    levels = ordered_levels(resource)
    if level not in levels:
        raise RuleError(f"Invalid access level. Must be one of: {', '.join(levels)}", attr="access_level")
    low, high = minimum_level(resource), highest_level(resource)
    if levels.index(level) < levels.index(low):
        raise RuleError(f"Access level cannot be set below the minimum '{low}' for {resource}.", attr="access_level")
    if levels.index(level) > levels.index(high):
        raise RuleError(f"Access level cannot be set above the maximum '{high}' for {resource}.", attr="access_level")
    return level


def check_subject(member, role, role_feature: bool) -> None:
    """A member or a role, not both; a role only with the paid feature (a 403)."""
    if member is not None and role is not None:
        raise RuleError(MESSAGE_BOTH)
    if role is not None and not role_feature:
        raise Forbidden(MESSAGE_ROLE_FEATURE)


def is_terraform(user_agent: str | None) -> bool:
    return (user_agent or "").startswith(TERRAFORM_USER_AGENT)


def check_editable(managed_by: str | None, caller_is_terraform: bool, locked: bool) -> None:
    """``assert_rule_is_editable``: a rule Terraform manages changes only through Terraform while the
    project's lock is on (creating a rule for a new subject is never refused)."""
    if not managed_by or (caller_is_terraform and managed_by == TERRAFORM) or not locked:
        return
    raise Forbidden(MESSAGE_LOCKED)


def resolve_level(resource: str, member_rule, role_rules: list, default_rule, is_org_admin: bool):
    """(level, source) of a member for ``resource``: an organization admin has the highest level;
    otherwise their own rule, else the highest of their roles' rules, else the project's default
    rule, else PostHog's default."""
    levels = ordered_levels(resource)
    if is_org_admin:
        return levels[-1], "organization_admin"
    if member_rule is not None:
        return member_rule, "explicit_member"
    if role_rules:
        return max(role_rules, key=levels.index), "explicit_role"
    if default_rule is not None:
        return default_rule, "default"
    return default_level(resource), "default"
