"""Rules of organization invites (docs/posthog_facts.md §3): addresses, private project access, combining pending
invites, bulk requests.

Mirrors ``posthog/api/organization_invite.py``; who may invite at which level is in
:mod:`posthog_emulator.rules.levels`.
"""

from posthog_emulator.rules import RuleError

MAX_BULK_INVITES = 20
MESSAGE_NOT_AN_ARRAY = "This endpoint needs an array of data for bulk invite creation."
MESSAGE_TOO_MANY = "A maximum of 20 invites can be sent in a single request."
MESSAGE_NO_PROJECT = "Project does not exist on this organization, or it is private and you do not have access to it."
MESSAGE_PROJECT_ACCESS_SHAPE = "Expected a list of {\"id\": <project id>, \"level\": <level>}."
#: PostHog's order of project access levels (``ExplicitTeamMembership.Level``: member 1, admin 8).
PROJECT_ACCESS_RANK = {"member": 1, "admin": 8}


def lowercase_email_domain(email: str) -> str:
    """``local@Domain.COM`` -> ``local@domain.com``; the local part keeps its case (RFC 5321)."""
    local_part, _, domain = email.rpartition("@")
    return f"{local_part}@{domain.lower()}"


def private_project_access(value, team_ids, private_team_ids=(), inviter_is_admin=True) -> list[dict]:
    """A non-empty ``private_project_access`` list, checked as PostHog's
    ``validate_private_project_access`` checks it (issue 27.7): each project must be one of the
    organization's (``team_ids``), else 400 :data:`MESSAGE_NO_PROJECT`; an inviter below admin may
    not name a private project (``private_team_ids``: the emulator has no explicit project
    memberships, so no such inviter has access to one). The ``level`` of an item is not checked
    (PostHog stores what it is given). A value PostHog could not even read (not a list of objects
    with an integer ``id``: PostHog answers 500) is a 400 here."""
    if not isinstance(value, list):
        raise RuleError(MESSAGE_PROJECT_ACCESS_SHAPE)
    for item in value:
        if not isinstance(item, dict) or not isinstance(item.get("id"), int) or isinstance(item.get("id"), bool):
            raise RuleError(MESSAGE_PROJECT_ACCESS_SHAPE)
        if item["id"] not in team_ids:
            raise RuleError(MESSAGE_NO_PROJECT)
        if not inviter_is_admin and item["id"] in private_team_ids:
            raise RuleError(MESSAGE_NO_PROJECT)
    return [{"id": item["id"], "level": item.get("level")} for item in value]


def combine_pending(level: int, access: list | None, pending: list) -> tuple[int, list[dict]]:
    """``combine_pending_invites``: the highest level of the new invite and the ``pending`` ones
    (non-expired invites of the address, each with ``level`` and ``private_project_access``), and
    their project access merged into the new invite's (a project keeps the higher level, in
    PostHog's order: ``admin`` above ``member``, not the alphabet's)."""
    level = max([invite.level for invite in pending] + [level])
    combined = {item["id"]: item["level"] for item in access or []}
    for invite in pending:
        for item in invite.private_project_access or []:
            if item["id"] not in combined or _rank(item["level"]) > _rank(combined[item["id"]]):
                combined[item["id"]] = item["level"]
    return level, [{"id": k, "level": v} for k, v in combined.items()]


def _rank(level) -> int:
    """A level's order: PostHog compares the stored values (``ExplicitTeamMembership.Level``
    integers, 1 and 8); the names ``member`` and ``admin`` rank as those."""
    if isinstance(level, int) and not isinstance(level, bool):
        return level
    return PROJECT_ACCESS_RANK.get(level, 0)


def check_bulk(data) -> None:
    """A bulk request: a JSON array of at most :data:`MAX_BULK_INVITES` invites."""
    if not isinstance(data, list):
        raise RuleError(MESSAGE_NOT_AN_ARRAY)
    if len(data) > MAX_BULK_INVITES:
        raise RuleError(MESSAGE_TOO_MANY, code="max_length")
