"""Permission classes shared by every viewset, mirroring ``posthog/permissions.py``
(docs/posthog_facts.md §0.6, §0.8).

Viewsets declare what they need with attributes; nothing here knows about a particular resource:

``scope_object``
    Required. The scope object of the resource, e.g. ``"organization"``, or ``"INTERNAL"`` when
    personal API keys must never reach it.
``scope_object_read_actions`` / ``scope_object_write_actions``
    Optional. Replace (not extend) the default action lists ``["list", "retrieve"]`` and
    ``["create", "update", "partial_update", "patch", "destroy"]``, exactly as in PostHog.
``required_scopes``
    Optional, usually per custom action (``@action(..., required_scopes=["batch_export:write"])``).

The membership permissions need the view to expose ``organization`` (an ``Organization``) or
``team`` (a ``Team``); the mixins in :mod:`posthog_emulator.routing` provide both.
"""

from django.core.exceptions import ImproperlyConfigured
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import SAFE_METHODS, BasePermission

from posthog_emulator import profiles
from posthog_emulator.auth import personal_api_key_of
from posthog_emulator.models import Organization, OrganizationMembership

#: Scope objects of ``posthog/scopes.py`` (docs/posthog_facts.md §0.6). Keys may only carry ``*`` or
#: ``<object>:read`` / ``<object>:write`` with one of these objects.
API_SCOPE_OBJECTS = (
    "action", "access_control", "activity_log", "annotation", "batch_export", "batch_import", "cohort",
    "dashboard", "dashboard_template", "early_access_feature", "error_tracking", "event_definition",
    "experiment", "export", "feature_flag", "file_system", "file_system_shortcut", "group", "hog_function", "integration",
    "insight", "link", "notebook", "organization", "organization_member", "person", "persisted_folder",
    "plugin", "project", "property_definition", "query", "session_recording", "session_recording_playlist",
    "sharing_configuration", "subscription", "survey", "user", "webhook", "warehouse_view",
    "warehouse_table", "logs", "organization_integration",
)  # fmt: skip
API_SCOPE_ACTIONS = ("read", "write")


def is_valid_scope(scope) -> bool:
    """Whether ``scope`` is ``*`` or ``<known object>:<read|write>``."""
    if scope == "*":
        return True
    if not isinstance(scope, str) or scope.count(":") != 1:
        return False
    scope_object, action = scope.split(":")
    return scope_object in API_SCOPE_OBJECTS and action in API_SCOPE_ACTIONS


MESSAGE_NO_PAK_SUPPORT = "This action does not support Personal API Key access"
MESSAGE_LEVEL_INSUFFICIENT = "Your organization access level is insufficient."
MESSAGE_SCOPED_PROJECTS_ONLY = "API keys with scoped projects are only supported on project-based endpoints."
MESSAGE_NO_PROJECT_ACCESS = "You don't have access to the project."


def get_organization_from_view(view) -> Organization:
    """The organization a view acts on: ``view.organization``, else ``view.team.organization``.

    Raises ``ValueError`` when the view is not organization-based (e.g. a list of organizations).
    ``NotFound`` raised while resolving propagates, as in PostHog.
    """
    try:
        organization = view.organization
        if isinstance(organization, Organization):
            return organization
    except (KeyError, AttributeError, AssertionError):
        pass
    try:
        organization = view.team.organization
        if isinstance(organization, Organization):
            return organization
    except (KeyError, AttributeError, AssertionError):
        pass
    raise ValueError("View not compatible with organization-based permissions!")


def extract_organization(obj) -> Organization:
    """The organization an object belongs to (itself, ``.organization`` or ``.team.organization``)."""
    if isinstance(obj, Organization):
        return obj
    for path in (("organization",), ("team", "organization")):
        value = obj
        try:
            for attribute in path:
                value = getattr(value, attribute)
        except AttributeError:
            continue
        if isinstance(value, Organization):
            return value
    raise ValueError("Object not compatible with organization-based permissions!")


def membership_level(user, organization: Organization) -> int | None:
    """The user's level in the organization, or ``None`` when not a member.

    Answered from the memberships authentication loaded (:mod:`posthog_emulator.cache`) while no
    membership was written since; otherwise from the database.
    """
    cached = getattr(user, "_emulator_memberships", None)
    if cached is not None and cached.memberships_current():
        return cached.memberships.get(organization.id)
    return (
        OrganizationMembership.objects.filter(user=user, organization=organization)
        .values_list("level", flat=True)
        .first()
    )


class APIScopePermission(BasePermission):
    """Personal API key scopes (docs/posthog_facts.md §0.6).

    Order of checks, as in PostHog:

    1. A key with an empty scope list (a legacy key) may do anything.
    2. The required scopes come from ``required_scopes`` or from the action: write actions need
       ``<scope_object>:write``, read actions (and OPTIONS) ``<scope_object>:read``. When nothing
       maps, profile ``posthog`` refuses with 403 "This action does not support Personal API Key
       access"; profile ``spec`` (whose tables say "none listed") asks for ``<scope_object>:write``
       on unsafe methods and ``<scope_object>:read`` on safe ones.
    3. Scoped keys: ``scoped_teams`` and ``scoped_organizations`` limits (see
       :meth:`check_team_and_org_permissions`).
    4. ``*`` allows everything; otherwise each required scope must be held, where ``:write``
       also grants ``:read``. Failing: 403 "API key missing required scope '<scope>'".
    """

    message = "You do not have permission to perform this action."
    write_actions = ["create", "update", "partial_update", "patch", "destroy"]
    read_actions = ["list", "retrieve"]

    def has_permission(self, request, view) -> bool:
        scope_object = self.get_scope_object(view)
        key = personal_api_key_of(request)
        if key is None:
            return True
        key_scopes = list(key.scopes or [])
        if not key_scopes:
            return True  # legacy key: no scopes, full access, even to unsupported actions

        required_scopes = self.get_required_scopes(request, view)
        if not required_scopes:
            self.message = MESSAGE_NO_PAK_SUPPORT
            return False

        self.check_team_and_org_permissions(request, view, key)

        if "*" in key_scopes and scope_object != "INTERNAL":
            return True
        for required_scope in required_scopes:
            valid_scopes = [required_scope]
            if required_scope.endswith(":read"):
                valid_scopes.append(required_scope[: -len(":read")] + ":write")
            if not any(scope in key_scopes for scope in valid_scopes):
                self.message = f"API key missing required scope '{required_scope}'"
                return False
        return True

    @staticmethod
    def get_scope_object(view) -> str:
        scope_object = getattr(view, "scope_object", None)
        if not scope_object:
            raise ImproperlyConfigured("APIScopePermission requires the view to define the scope_object attribute.")
        return scope_object

    @staticmethod
    def get_action(request, view) -> str | None:
        # DRF has no action for a non-detail PATCH; PostHog calls it "patch".
        if not view.action and request.method == "PATCH" and not getattr(view, "detail", False):
            return "patch"
        return view.action

    def get_required_scopes(self, request, view) -> list[str] | None:
        if getattr(view, "required_scopes", None):
            return list(view.required_scopes)
        scope_object = self.get_scope_object(view)
        if scope_object == "INTERNAL":
            return None
        action = self.get_action(request, view)
        read_actions = getattr(view, "scope_object_read_actions", self.read_actions)
        write_actions = getattr(view, "scope_object_write_actions", self.write_actions)
        if action in write_actions:
            return [f"{scope_object}:write"]
        if action in read_actions or request.method == "OPTIONS":
            return [f"{scope_object}:read"]
        if profiles.is_spec():
            return [f"{scope_object}:{'read' if request.method in SAFE_METHODS else 'write'}"]
        return None

    def check_team_and_org_permissions(self, request, view, key) -> None:
        """Limits of scoped keys, as ``check_team_and_org_permissions`` in PostHog.

        * ``scoped_teams`` set: the view must be project-based and its project listed, otherwise
          403 "API key does not have access to the requested project: ID <n>." or, on
          organization-based endpoints (including the organizations list), 403 "API keys with
          scoped projects are only supported on project-based endpoints."
        * ``scoped_organizations`` set: an organization-based view for another organization gives
          403 "API key does not have access to the requested organization: ID <uuid>."

        The organization is resolved first in every case, as PostHog's
        ``members_can_use_personal_api_keys`` check does; so an unknown organization answers
        404 before any scope is checked. That setting itself is only enforced by PostHog when the
        organization has the paid ``organization_security_settings`` feature, which emulator
        organizations never have, so it is not enforced here either.
        """
        try:
            get_organization_from_view(view)
        except ValueError:
            pass

        if key.scoped_teams:
            try:
                team = view.team
            except (KeyError, AttributeError):
                raise PermissionDenied(MESSAGE_SCOPED_PROJECTS_ONLY)
            if team.id not in key.scoped_teams:
                raise PermissionDenied(f"API key does not have access to the requested project: ID {team.id}.")

        if key.scoped_organizations:
            try:
                organization = get_organization_from_view(view)
            except ValueError:
                return  # not an organization-based view
            if str(organization.id) not in key.scoped_organizations:
                raise PermissionDenied(
                    f"API key does not have access to the requested organization: ID {organization.id}."
                )


class OrganizationMemberPermissions(BasePermission):
    """The requester must be a member of the organization; otherwise 403 with the generic detail.

    Facts 0.8: a foreign organization gives 403, not 404. On the organizations resource itself
    (basename ``organizations``) detail routes defer to :meth:`has_object_permission`.
    """

    def has_permission(self, request, view) -> bool:
        if getattr(view, "basename", None) == "organizations" and view.action not in ("list", "create"):
            return True
        organization = get_organization_from_view(view)
        return membership_level(request.user, organization) is not None

    def has_object_permission(self, request, view, obj) -> bool:
        return membership_level(request.user, extract_organization(obj)) is not None


class OrganizationAdminWritePermissions(BasePermission):
    """Reads are open to members; writes need level >= 8 (admin), else 403 (docs/posthog_facts.md §0.8).

    Must follow :class:`OrganizationMemberPermissions`. A requester with no membership at all
    gets 404 "Organization not found.", as in PostHog.
    """

    message = MESSAGE_LEVEL_INSUFFICIENT
    minimum_level = OrganizationMembership.Level.ADMIN

    def required_level(self, request, view) -> int:
        return self.minimum_level

    def has_permission(self, request, view) -> bool:
        if request.method in SAFE_METHODS:
            return True
        if getattr(view, "basename", None) == "organizations" and view.action != "create":
            return True  # the organization is the object: decided in has_object_permission
        return self._level_at_least(request, get_organization_from_view(view), self.required_level(request, view))

    def has_object_permission(self, request, view, obj) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return self._level_at_least(request, extract_organization(obj), self.required_level(request, view))

    @staticmethod
    def _level_at_least(request, organization, level: int) -> bool:
        current = membership_level(request.user, organization)
        if current is None:
            raise NotFound("Organization not found.")
        return current >= level


class TeamMemberAccessPermission(BasePermission):
    """Project-based views: the requester must belong to the project's organization.

    PostHog answers 403 "You don't have access to the project." (``TeamMemberAccessPermission``).
    The emulator has no private projects, so organization membership is project membership.
    """

    message = MESSAGE_NO_PROJECT_ACCESS

    def has_permission(self, request, view) -> bool:
        return membership_level(request.user, view.team.organization) is not None
