"""Control endpoints of the people area: the emulator clock and the invitees' side of invites.

``/_emulator/clock`` reads and moves the clock invites are stamped and expired by;
``/_emulator/invites/<id>/age`` moves one invite back in time; ``/_emulator/invites/accept`` and
``/_emulator/invites/<id>/accept`` let the person behind an invite join the organization;
``/_emulator/users/<email|uuid>`` sets what the members list reports of a user's logins
(``is_2fa_enabled``, ``has_social_auth``, ``last_login``).
"""

from datetime import timedelta
from datetime import timezone as dt_timezone
from uuid import UUID

from django.db import transaction
from django.urls import re_path
from django.utils.dateparse import parse_datetime

from posthog_emulator.control.base import (
    ControlError,
    control_view,
    find_organization,
    json_response,
    organization_summary,
    parse_string,
    read_json,
    user_summary,
)
from posthog_emulator.models import (
    OrganizationInvite,
    OrganizationMembership,
    User,
    assign_default_role,
    clock_offset,
    emulator_now,
    move_clock,
)


def invite_summary(invite: OrganizationInvite) -> dict:
    return {
        "id": str(invite.id),
        "target_email": invite.target_email,
        "first_name": invite.first_name,
        "level": invite.level,
        "organization": str(invite.organization_id),
        "created_at": invite.created_at.isoformat().replace("+00:00", "Z"),
        "is_expired": invite.is_expired,
    }


def _number(data: dict, name: str):
    value = data.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ControlError("Expected a number.", name)
    return value


def _clock_body() -> dict:
    return {
        "now": emulator_now().isoformat().replace("+00:00", "Z"),
        "offset_seconds": clock_offset().total_seconds(),
    }


@control_view("GET", "POST", "DELETE")
def clock(request):
    """Read (GET), move (POST ``advance_days`` / ``advance_seconds`` / ``offset_seconds``) or reset (DELETE)."""
    if request.method == "DELETE":
        move_clock(offset_seconds=0)
    elif request.method == "POST":
        data = read_json(request)
        days, seconds, offset = (_number(data, n) for n in ("advance_days", "advance_seconds", "offset_seconds"))
        if days is None and seconds is None and offset is None:
            raise ControlError("Give advance_days, advance_seconds or offset_seconds.", "advance_days")
        if offset is not None:
            move_clock(offset_seconds=offset)
        move_clock((days or 0) * 86400 + (seconds or 0))
    return json_response(_clock_body())


def _invite_or_404(invite_id: str) -> OrganizationInvite:
    try:
        invite = OrganizationInvite.objects.select_related("organization").filter(id=UUID(invite_id)).first()
    except ValueError:
        invite = None
    if invite is None:
        raise ControlError("Invite not found.", status=404, code="not_found")
    return invite


@control_view("POST")
def age_invite(request, invite_id):
    """Move an invite's ``created_at`` back by ``days`` (default 4, enough to expire it)."""
    data = read_json(request)
    days = _number(data, "days")
    invite = _invite_or_404(invite_id)
    invite.created_at = invite.created_at - timedelta(days=4 if days is None else days)
    invite.save(update_fields=["created_at"])
    return json_response(invite_summary(invite))


def accept(invite: OrganizationInvite, first_name: str | None = None, last_name: str | None = None) -> dict:
    """The person behind ``invite`` joins: a user (created if needed) becomes a member at its level
    and, like PostHog's ``User.join``, gets the organization's default role when it has one."""
    if invite.is_expired:
        raise ControlError("This invite has expired. Please ask your admin for a new one.", "invite")
    organization = invite.organization
    user, created = User.objects.get_or_create_user(
        invite.target_email, first_name if first_name is not None else invite.first_name, last_name or ""
    )
    if OrganizationMembership.objects.filter(organization=organization, user=user).exists():
        raise ControlError(f"{user.email} already belongs to the organization.", "email")
    membership = OrganizationMembership.objects.create(organization=organization, user=user, level=invite.level)
    role_membership = assign_default_role(membership)  # User.join: the organization's default role
    OrganizationInvite.objects.filter(organization=organization, target_email__iexact=invite.target_email).delete()
    if user.current_organization_id is None:
        user.switch_to(organization)
    return {
        "user": user_summary(user),
        "user_created": created,
        "organization": organization_summary(organization),
        "level": membership.level,
        "membership_id": str(membership.id),
        "default_role": str(role_membership.role_id) if role_membership else None,
    }


@control_view("POST")
def accept_invite(request, invite_id=None):
    """Accept one invite (by ID in the path, or ``email`` [+ ``organization``]) or ``all`` pending ones."""
    data = read_json(request)
    first_name = parse_string(data, "first_name")
    last_name = parse_string(data, "last_name")
    with transaction.atomic():
        if invite_id is not None:
            return json_response(accept(_invite_or_404(invite_id), first_name, last_name))
        invites = OrganizationInvite.objects.select_related("organization").order_by("created_at", "id")
        reference = data.get("organization")
        if reference is not None:
            organization = find_organization(reference)
            if organization is None:
                raise ControlError(f"Organization {reference!r} not found.", "organization")
            invites = invites.filter(organization=organization)
        if data.get("all"):
            accepted = [accept(invite) for invite in invites if not invite.is_expired]
            return json_response({"accepted": accepted})
        email = parse_string(data, "email")
        if not email:
            raise ControlError("Give the invite's email (or all: true).", "email")
        matching = [invite for invite in invites if invite.target_email.lower() == email.strip().lower()]
        if not matching:
            raise ControlError(f"No invite for {email}.", status=404, code="not_found")
        if len({invite.organization_id for invite in matching}) > 1:
            raise ControlError(f"{email} is invited to several organizations; give organization.", "organization")
        return json_response(accept(matching[-1], first_name, last_name))


def _user_or_404(reference: str) -> User:
    """A user by e-mail address (exact, then regardless of case) or UUID."""
    user = None
    try:
        user = User.objects.filter(uuid=UUID(reference)).first()
    except ValueError:
        user = User.objects.filter(email=reference).first() or User.objects.filter(email__iexact=reference).first()
    if user is None:
        raise ControlError(f"User {reference!r} not found.", status=404, code="not_found")
    return user


def _flag(data: dict, name: str):
    value = data[name]
    if not isinstance(value, bool):
        raise ControlError("Expected true or false.", name)
    return value


@control_view("GET", "PATCH")
def user_security(request, reference):
    """What the members list reports of a user's logins: ``PATCH`` sets any of ``is_2fa_enabled``,
    ``has_social_auth`` (booleans) and ``last_login`` (an ISO 8601 date-time, or null); ``GET``
    reads them. ``reference`` is an e-mail address or a user UUID."""
    user = _user_or_404(reference)
    if request.method == "PATCH":
        data = read_json(request)
        unknown = sorted(set(data) - {"is_2fa_enabled", "has_social_auth", "last_login"})
        if unknown:
            raise ControlError("Only is_2fa_enabled, has_social_auth and last_login can be set.", unknown[0])
        fields = []
        for name in ("is_2fa_enabled", "has_social_auth"):
            if name in data:
                setattr(user, name, _flag(data, name))
                fields.append(name)
        if "last_login" in data:
            value = data["last_login"]
            parsed = parse_datetime(value) if isinstance(value, str) else None
            if value is not None and parsed is None:
                raise ControlError("Expected an ISO 8601 date-time, or null.", "last_login")
            if parsed is not None and parsed.tzinfo is None:
                parsed = parsed.replace(tzinfo=dt_timezone.utc)
            user.last_login = parsed
            fields.append("last_login")
        if fields:
            user.save(update_fields=fields)
    return json_response({
        **user_summary(user),
        "is_2fa_enabled": user.is_2fa_enabled,
        "has_social_auth": user.has_social_auth,
        "last_login": user.last_login.isoformat().replace("+00:00", "Z") if user.last_login else None,
    })


urlpatterns = [
    re_path(r"^users/(?P<reference>[^/]+)/?$", user_security),
    re_path(r"^clock/?$", clock),
    re_path(r"^invites/accept/?$", accept_invite),
    re_path(r"^invites/(?P<invite_id>[^/]+)/accept/?$", accept_invite),
    re_path(r"^invites/(?P<invite_id>[^/]+)/age/?$", age_invite),
]
