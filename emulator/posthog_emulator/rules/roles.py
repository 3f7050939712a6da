"""Rules of the roles area (``ee/api/rbac/role.py``; docs/posthog_facts.md §10.4).

Role names are unique within an organization regardless of case; a role membership needs an
active member of the role's organization, once per role. ``default_role_id`` on the organization
names one of its roles (or null).
"""

from posthog_emulator.rules import RuleError, parse_uuid

MESSAGE_DUPLICATE_NAME = "There is already a role with this name."
MESSAGE_ROLE_MISSING = "Role does not exist."
MESSAGE_USER_MISSING = "User does not exist."
MESSAGE_ALREADY_IN_ROLE = "User is already part of the role."


def check_role_name(name: str, taken: bool) -> str:
    """``RoleSerializer.validate_name``: ``taken`` says another role of the organization has this
    name in any case. (No ``attr``: the field validator that calls it names the field.)"""
    if taken:
        raise RuleError(MESSAGE_DUPLICATE_NAME, code="unique")
    return name


def check_default_role(value, role_ids) -> str | None:
    """``default_role_id``: null clears it; anything else must be the id of one of ``role_ids`` (the
    organization's roles). PostHog stores the value unchecked and its database refuses an unknown id
    (a 500); the emulator answers 400 the way a related-field lookup does."""
    if value is None:
        return None
    role_id = parse_uuid(value)
    if role_id is None or role_id not in set(role_ids):
        raise RuleError(f'Invalid pk "{value}" - object does not exist.', code="does_not_exist")
    return str(role_id)
