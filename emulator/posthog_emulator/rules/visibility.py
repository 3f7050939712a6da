"""Who a member may see when the organization restricts its member list (issue 27.5).

Mirrors ``restricted_visible_membership_ids`` and ``get_project_scoped_visible_membership_ids``
(``products/access_control/backend/facade/subject_access_control.py`` in PostHog's newest code),
which the members list and the roles endpoints (``ee/api/rbac/role.py``: a role's ``members``, its
``created_by``, the role memberships list) apply:

* everyone is visible while ``members_can_see_org_members`` is on, to admins and owners, and in an
  organization without the ``access_control`` feature (PostHog ignores stale project rules then);
* otherwise a member sees themselves, and the members who have access to a project the member has
  access to, not counting the organization-admin bypass. A project with no rule is open to every
  member; a private project (the emulator's ``Team.access_control``, PostHog's default rule of
  level ``none``) only to those a rule grants it. When the member reaches one open project,
  everybody is visible.

The emulator has no per-member or per-role project rules of its own; ``grants`` (membership id ->
project ids a rule opens to that member) is where they would come in.
"""

from __future__ import annotations

ACCESS_CONTROL_FEATURE = "access_control"
ADMIN = 8


def visible_membership_ids(*, restricted: bool, requester_id: str | None, requester_level: int | None,
                           has_access_control: bool, projects: dict, grants: dict | None = None) -> set | None:
    """Membership ids (strings) the requester may see, or None when every member is visible.

    ``restricted``: ``members_can_see_org_members`` is off; ``projects``: project id -> whether the
    project is open to every member (no private default rule)."""
    if not restricted:
        return None
    if requester_id is None:
        return set()
    if requester_level is not None and requester_level >= ADMIN:
        return None
    if not has_access_control:
        return None
    grants = grants or {}

    def has_access(project_id, membership_id) -> bool:
        return projects[project_id] or project_id in grants.get(membership_id, ())

    accessible = [project_id for project_id in projects if has_access(project_id, requester_id)]
    if any(projects[project_id] for project_id in accessible):
        return None  # an open project: everybody reaches it (no rule here hides anyone)
    visible = {requester_id}
    for membership_id in grants:
        if any(has_access(project_id, membership_id) for project_id in accessible):
            visible.add(membership_id)
    return visible
