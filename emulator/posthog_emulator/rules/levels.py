"""Level rules: membership levels (member 1, admin 8, owner 15; docs/posthog_facts.md §0.8, §3 and §4) and an
organization's plugins access level (none 0, config 3, install 6, root 9; docs/posthog_facts.md §6).

The functions take levels (integers) or memberships and answer booleans or raise
:class:`~posthog_emulator.rules.Forbidden` / :class:`~posthog_emulator.rules.RuleError` with
PostHog's messages; who the requester is and which organization is meant is the caller's business.
"""

from posthog_emulator.models import Organization, OrganizationMembership
from posthog_emulator.rules import Forbidden, RuleError

Level = OrganizationMembership.Level
PluginsAccessLevel = Organization.PluginsAccessLevel

# --------------------------------------------------------------------------------------------
# Membership levels
# --------------------------------------------------------------------------------------------

#: Names the control API accepts for a level, besides the numbers.
LEVEL_NAMES = {
    "member": Level.MEMBER,
    "admin": Level.ADMIN,
    "administrator": Level.ADMIN,
    "owner": Level.OWNER,
}

MESSAGE_HIGHER_INVITE_LEVEL = "You cannot invite a user with a higher permission level than your own."
MESSAGE_OWNER_CANNOT_LEAVE = "Cannot leave the organization as its owner!"


def level_from(value) -> int:
    """A level given by name (``member``, ``admin``/``administrator``, ``owner``) or number (1, 8,
    15); ``None`` is member."""
    if value is None:
        return Level.MEMBER
    if isinstance(value, str) and value.lower() in LEVEL_NAMES:
        return LEVEL_NAMES[value.lower()]
    if isinstance(value, (int, str)) and not isinstance(value, bool) and str(value) in {"1", "8", "15"}:
        return int(value)
    raise RuleError(f'"{value}" is not a valid level; use member, admin or owner (or 1, 8, 15).', attr="level")


def is_admin(level: int | None) -> bool:
    """Admin or owner (``None``: not a member)."""
    return level is not None and level >= Level.ADMIN


def check_membership_update(requester, target, new_level=None) -> None:
    """``OrganizationMembership.validate_update``: may ``requester`` edit ``target`` (and give it
    ``new_level``)? Both are memberships (``id``, ``organization_id``, ``level``)."""
    if new_level is not None:
        if target.id == requester.id:
            raise Forbidden("You can't change your own access level.")
        if new_level == Level.OWNER:
            if requester.level != Level.OWNER:
                raise Forbidden("You can only make another member owner if you're this organization's owner.")
        elif new_level > requester.level:
            raise Forbidden("You can only change access level of others to lower or equal to your current one.")
    if target.id != requester.id:
        if target.organization_id != requester.organization_id:
            raise Forbidden("You both need to belong to the same organization.")
        if requester.level < Level.ADMIN:
            raise Forbidden("You can only edit others if you are an admin.")
        if target.level > requester.level:
            raise Forbidden("You can only edit others with level lower or equal to you.")


def check_can_leave(level: int) -> None:
    """``User.leave``: an owner never leaves (nor is removed)."""
    if level == Level.OWNER:
        raise RuleError(MESSAGE_OWNER_CANNOT_LEAVE)


def check_invite_level(own_level: int, level: int) -> None:
    """Nobody invites at a level above their own."""
    if level > own_level:
        raise Forbidden(MESSAGE_HIGHER_INVITE_LEVEL)


def may_invite(level: int, members_can_invite) -> bool:
    """``UserCanInvitePermission`` with the invite-settings feature: admins always, members only
    when the organization lets them."""
    return level >= Level.ADMIN or bool(members_can_invite)


# --------------------------------------------------------------------------------------------
# Plugins access levels
# --------------------------------------------------------------------------------------------

#: Names the control API accepts for a plugins access level, besides the numbers.
PLUGINS_ACCESS_LEVEL_NAMES = {"none": 0, "config": 3, "install": 6, "root": 9}

MESSAGE_PLUGINS_ACCESS_LEVEL = "Your organization's plugin access level is insufficient."
MESSAGE_GLOBAL_PLUGINS = "This organization can't manage global plugins!"


def plugins_access_level_from(value) -> int:
    """A plugins access level given by number (0, 3, 6, 9) or name (none, config, install, root)."""
    if isinstance(value, str) and value.lower() in PLUGINS_ACCESS_LEVEL_NAMES:
        value = PLUGINS_ACCESS_LEVEL_NAMES[value.lower()]
    # Integers only: 3.0 == 3 in Python, but a float is not a level (it was stored and echoed as 3.0).
    if not isinstance(value, int) or isinstance(value, bool) or value not in PLUGINS_ACCESS_LEVEL_NAMES.values():
        raise RuleError(
            f'"{value}" is not a valid plugins access level; use 0, 3, 6, 9 (none, config, install, root).',
            code="invalid_choice",
            attr="plugins_access_level",
        )
    return value


def plugins_readable(level: int) -> bool:
    """Plugins are visible from ``config`` (3) up."""
    return level >= PluginsAccessLevel.CONFIG


def plugins_writable(level: int) -> bool:
    """Plugins are installed, changed and removed from ``install`` (6) up."""
    return level >= PluginsAccessLevel.INSTALL


def check_plugin_action(level: int, reason: str) -> None:
    """``check_for_updates``, ``source``, ``update_source``, ``upgrade`` need ``install`` (6)."""
    if not plugins_writable(level):
        raise Forbidden(f"Plugin {reason} is not available for the current organization!")


def check_global_plugins(level: int) -> None:
    """Making a plugin global (or changing ``is_global`` at all) needs ``root`` (9)."""
    if level < PluginsAccessLevel.ROOT:
        raise Forbidden(MESSAGE_GLOBAL_PLUGINS)
