"""Invites, members, ``/api/users/@me`` and the people control endpoints (spec 2.5-2.7, 3.4, 4.4, 4.5;
docs/posthog_facts.md §3, §4)."""

from datetime import timedelta

import pytest

from posthog_emulator import profiles
from posthog_emulator.models import Organization, OrganizationInvite, OrganizationMembership, User
from tests.conftest import authed, error

INVITE_FIELDS = {
    "id", "target_email", "first_name", "emailing_attempt_made", "level", "is_expired", "created_by",
    "created_at", "updated_at", "message", "private_project_access",
}  # fmt: skip
MEMBER_FIELDS = {
    "id", "user", "level", "joined_at", "updated_at", "is_2fa_enabled", "has_social_auth", "last_login", "is_guest",
    "guest_grant_count",
}  # fmt: skip


def invites_url(boot, suffix=""):
    return f"/api/organizations/{boot.organization.id}/invites/{suffix}"


def members_url(boot, suffix=""):
    return f"/api/organizations/{boot.organization.id}/members/{suffix}"


def member_key(make_key, email, level):
    key, body = make_key(email, level=level)
    return authed(key), body["user"]["uuid"]


# -------------------------------------------------------------------------------------- invites


def test_create_invite_shape_and_domain_lowercased(api, boot):
    response = api.post(
        invites_url(boot),
        {"target_email": "Jane.Doe@Example.COM", "first_name": "Jane", "level": 8, "message": "hi"},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert set(body) == INVITE_FIELDS
    assert body["target_email"] == "Jane.Doe@example.com"
    assert body["level"] == 8 and body["first_name"] == "Jane" and body["message"] == "hi"
    assert body["is_expired"] is False and body["emailing_attempt_made"] is True
    assert body["created_by"]["email"] == "admin@example.com"
    assert body["private_project_access"] == []
    assert "send_email" not in body and "combine_pending_invites" not in body


def test_invite_defaults_and_send_email_false(api, boot):
    body = api.post(invites_url(boot), {"target_email": "a@x.com", "send_email": False}, format="json").json()
    assert body["level"] == 1 and body["first_name"] == "" and body["message"] is None
    assert body["emailing_attempt_made"] is False


def test_missing_and_invalid_email(api, boot):
    missing = api.post(invites_url(boot), {"level": 1}, format="json")
    assert missing.status_code == 400
    assert error(missing) == {
        "type": "validation_error", "code": "required", "detail": "This field is required.", "attr": "target_email"
    }  # fmt: skip
    invalid = api.post(invites_url(boot), {"target_email": "nope"}, format="json")
    assert invalid.status_code == 400 and error(invalid)["attr"] == "target_email"
    assert error(invalid)["code"] == "invalid_input"


def test_first_name_max_30(api, boot):
    response = api.post(invites_url(boot), {"target_email": "a@x.com", "first_name": "x" * 31}, format="json")
    assert response.status_code == 400 and error(response)["attr"] == "first_name"


def test_invalid_level_is_invalid_choice(api, boot):
    response = api.post(invites_url(boot), {"target_email": "a@x.com", "level": 5}, format="json")
    assert response.status_code == 400
    assert error(response) == {
        "type": "validation_error", "code": "invalid_choice", "detail": '"5" is not a valid choice.', "attr": "level"
    }  # fmt: skip


def test_new_invite_replaces_older_ones_including_expired(api, boot):
    first = api.post(invites_url(boot), {"target_email": "a@x.com"}, format="json").json()
    OrganizationInvite.objects.filter(id=first["id"]).update(created_at=first_created(first) - timedelta(days=5))
    api.post(invites_url(boot), {"target_email": "a@x.com", "level": 8}, format="json")
    third = api.post(invites_url(boot), {"target_email": "a@X.com", "level": 1}, format="json").json()
    listed = api.get(invites_url(boot)).json()
    assert listed["count"] == 1 and listed["results"][0]["id"] == third["id"]


def first_created(body):
    return OrganizationInvite.objects.get(id=body["id"]).created_at


def test_combine_pending_invites_keeps_highest_level(api, boot):
    api.post(invites_url(boot), {"target_email": "a@x.com", "level": 8}, format="json")
    combined = api.post(
        invites_url(boot), {"target_email": "a@x.com", "level": 1, "combine_pending_invites": True}, format="json"
    ).json()
    assert combined["level"] == 8
    assert OrganizationInvite.objects.filter(target_email="a@x.com").count() == 1


@pytest.mark.parametrize("pending, new, combined", [
    ("admin", "member", "admin"),  # alphabetically "member" > "admin": the pending admin invite was downgraded
    ("member", "admin", "admin"),
    ("member", "member", "member"),
])
def test_combine_pending_invites_keeps_the_higher_project_access(api, boot, pending, new, combined):
    access = lambda level: [{"id": boot.project.id, "level": level}]  # noqa: E731
    api.post(invites_url(boot), {"target_email": "p@x.com", "private_project_access": access(pending)}, format="json")
    response = api.post(invites_url(boot), {"target_email": "p@x.com", "private_project_access": access(new),
                                            "combine_pending_invites": True}, format="json")
    assert response.status_code == 201
    assert response.json()["private_project_access"] == access(combined)


def test_private_project_access(api, boot):
    ok = api.post(
        invites_url(boot),
        {"target_email": "a@x.com", "private_project_access": [{"id": boot.project.id, "level": "admin"}]},
        format="json",
    )
    assert ok.status_code == 201
    assert ok.json()["private_project_access"] == [{"id": boot.project.id, "level": "admin"}]
    bad = api.post(
        invites_url(boot),
        {"target_email": "b@x.com", "private_project_access": [{"id": 999, "level": "member"}]},
        format="json",
    )
    assert bad.status_code == 400 and error(bad)["attr"] == "private_project_access"
    assert "Project does not exist on this organization" in error(bad)["detail"]


def test_inviting_a_member_is_refused(api, boot, make_key):
    make_key("member@example.com")
    response = api.post(invites_url(boot), {"target_email": "member@example.com"}, format="json")
    assert response.status_code == 400
    assert error(response) == {
        "type": "validation_error",
        "code": "invalid_input",
        "detail": "A user with this email address already belongs to the organization.",
        "attr": None,
    }


@pytest.mark.parametrize("inviter,level", [("member", 8), ("member", 15), ("admin", 15)])
def test_cannot_invite_above_own_level(make_key, boot, inviter, level):
    client, _ = member_key(make_key, f"{inviter}@example.com", inviter)
    response = client.post(invites_url(boot), {"target_email": "a@x.com", "level": level}, format="json")
    assert response.status_code == 403
    assert error(response)["detail"] == "You cannot invite a user with a higher permission level than your own."
    assert not OrganizationInvite.objects.exists()


def test_level_check_wins_over_missing_email(make_key, boot):
    client, _ = member_key(make_key, "m@example.com", "member")
    response = client.post(invites_url(boot), {"level": 8}, format="json")
    assert response.status_code == 403


@pytest.mark.parametrize("inviter,level", [("member", 1), ("admin", 8), ("admin", 1)])
def test_equal_or_lower_level_is_allowed(make_key, boot, inviter, level):
    client, _ = member_key(make_key, f"{inviter}@example.com", inviter)
    response = client.post(invites_url(boot), {"target_email": "a@x.com", "level": level}, format="json")
    assert response.status_code == 201


def test_members_cannot_invite_when_the_paid_setting_forbids_it(make_key, boot):
    organization = boot.organization
    organization.available_product_features = [{"key": "organization_invite_settings", "name": "Invite settings"}]
    organization.members_can_invite = False
    organization.save()
    member, _ = member_key(make_key, "m@example.com", "member")
    admin, _ = member_key(make_key, "a@example.com", "admin")
    refused = member.post(invites_url(boot), {"target_email": "x@x.com"}, format="json")
    assert refused.status_code == 403 and error(refused)["code"] == "permission_denied"
    assert member.post(invites_url(boot, "bulk/"), [{"target_email": "x@x.com"}], format="json").status_code == 403
    assert admin.post(invites_url(boot), {"target_email": "x@x.com"}, format="json").status_code == 201
    # without the feature, the flag is not honoured (PostHog's UserCanInvitePermission)
    organization.available_product_features = []
    organization.save()
    assert member.post(invites_url(boot), {"target_email": "y@x.com"}, format="json").status_code == 201


def test_list_newest_first_with_expired_flag(api, boot):
    old = api.post(invites_url(boot), {"target_email": "old@x.com"}, format="json").json()
    OrganizationInvite.objects.filter(id=old["id"]).update(created_at=first_created(old) - timedelta(days=4))
    new = api.post(invites_url(boot), {"target_email": "new@x.com"}, format="json").json()
    listed = api.get(invites_url(boot)).json()
    assert [i["id"] for i in listed["results"]] == [new["id"], old["id"]]
    assert [i["is_expired"] for i in listed["results"]] == [False, True]
    assert listed["count"] == 2 and listed["next"] is None


def test_list_is_paginated(api, boot):
    api.post(invites_url(boot, "bulk/"), [{"target_email": f"p{i}@x.com"} for i in range(5)], format="json")
    page = api.get(invites_url(boot), {"limit": 2}).json()
    assert page["count"] == 5 and len(page["results"]) == 2 and "offset=2" in page["next"]


def test_no_retrieve_or_update(api, boot):
    invite = api.post(invites_url(boot), {"target_email": "a@x.com"}, format="json").json()
    assert api.get(invites_url(boot, f"{invite['id']}/")).status_code == 405
    assert api.patch(invites_url(boot, f"{invite['id']}/"), {"level": 8}, format="json").status_code == 405


def test_delete_needs_admin(api, boot, make_key):
    invite = api.post(invites_url(boot), {"target_email": "a@x.com"}, format="json").json()
    member, _ = member_key(make_key, "m@example.com", "member")
    refused = member.delete(invites_url(boot, f"{invite['id']}/"))
    assert refused.status_code == 403
    assert error(refused)["detail"] == "Your organization access level is insufficient."
    admin, _ = member_key(make_key, "a@example.com", "admin")
    assert admin.delete(invites_url(boot, f"{invite['id']}/")).status_code == 204
    assert admin.delete(invites_url(boot, f"{invite['id']}/")).status_code == 404
    assert api.delete(invites_url(boot, "not-a-uuid/")).status_code == 404


def test_invite_of_another_organization_is_404(api, boot):
    other = api.post("/api/organizations/", {"name": "Other"}, format="json").json()
    invite = api.post(f"/api/organizations/{other['id']}/invites/", {"target_email": "a@x.com"}, format="json").json()
    assert api.delete(invites_url(boot, f"{invite['id']}/")).status_code == 404


def test_foreign_organization_is_403(boot, make_key, api):
    outsider_key, _ = make_key("out@example.com", organization="Elsewhere")
    response = authed(outsider_key).get(invites_url(boot))
    assert response.status_code == 403


# ----------------------------------------------------------------------------------------- bulk


def test_bulk_spec_profile_answers_200_with_the_list(api, boot):
    response = api.post(
        invites_url(boot, "bulk/"),
        [{"target_email": "a@x.com", "level": 8}, {"target_email": "b@x.com", "first_name": "Bee"}],
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert [i["target_email"] for i in body] == ["a@x.com", "b@x.com"]
    assert all(set(i) == INVITE_FIELDS for i in body)


def test_bulk_posthog_profile_answers_201(api, boot):
    profiles.set_profile("posthog")
    response = api.post(invites_url(boot, "bulk"), [{"target_email": "a@x.com"}], format="json")
    assert response.status_code == 201 and response.json()[0]["target_email"] == "a@x.com"


def test_bulk_needs_an_array(api, boot):
    response = api.post(invites_url(boot, "bulk/"), {"target_email": "a@x.com"}, format="json")
    assert response.status_code == 400
    assert error(response) == {
        "type": "validation_error",
        "code": "invalid_input",
        "detail": "This endpoint needs an array of data for bulk invite creation.",
        "attr": None,
    }


def test_bulk_at_most_20(api, boot):
    response = api.post(invites_url(boot, "bulk/"), [{"target_email": f"u{i}@x.com"} for i in range(21)], format="json")
    assert response.status_code == 400
    assert error(response) == {
        "type": "validation_error",
        "code": "max_length",
        "detail": "A maximum of 20 invites can be sent in a single request.",
        "attr": None,
    }
    assert not OrganizationInvite.objects.exists()
    ok = api.post(invites_url(boot, "bulk/"), [{"target_email": f"u{i}@x.com"} for i in range(20)], format="json")
    assert ok.status_code == 200 and len(ok.json()) == 20


def test_bulk_is_all_or_nothing(api, boot, make_key):
    invalid = api.post(invites_url(boot, "bulk/"), [{"target_email": "a@x.com"}, {"target_email": "bad"}], format="json")
    assert invalid.status_code == 400 and error(invalid)["attr"] == "1__target_email"
    make_key("member@example.com")
    member = api.post(
        invites_url(boot, "bulk/"), [{"target_email": "a@x.com"}, {"target_email": "member@example.com"}], format="json"
    )
    assert member.status_code == 400
    assert error(member)["detail"] == "A user with this email address already belongs to the organization."
    assert not OrganizationInvite.objects.exists()


def test_bulk_level_above_own_is_403_and_creates_nothing(make_key, boot):
    client, _ = member_key(make_key, "m@example.com", "member")
    response = client.post(
        invites_url(boot, "bulk/"), [{"target_email": "a@x.com"}, {"target_email": "b@x.com", "level": 8}], format="json"
    )
    assert response.status_code == 403
    assert not OrganizationInvite.objects.exists()


# --------------------------------------------------------------------------------------- scopes


def test_invite_scopes(boot, make_key):
    reader_key, _ = make_key("r@example.com", level="owner", scopes=["organization_member:read"])
    reader = authed(reader_key)
    assert reader.get(invites_url(boot)).status_code == 200
    refused = reader.post(invites_url(boot, "bulk/"), [{"target_email": "a@x.com"}], format="json")
    assert refused.status_code == 403
    assert error(refused)["detail"] == "API key missing required scope 'organization_member:write'"
    # spec: create needs organization_member:write
    create = reader.post(invites_url(boot), {"target_email": "a@x.com"}, format="json")
    assert create.status_code == 403 and "organization_member:write" in error(create)["detail"]
    # posthog: PostHog's create drops the scope check
    profiles.set_profile("posthog")
    assert reader.post(invites_url(boot), {"target_email": "a@x.com"}, format="json").status_code == 201
    other_key, _ = make_key("o@example.com", level="owner", scopes=["organization:write"])
    assert authed(other_key).get(invites_url(boot)).status_code == 403


# -------------------------------------------------------------------------------------- members


def test_member_list_shape_and_filters(api, boot, make_key):
    make_key("bob@example.com", first_name="Bob", level="admin")
    make_key("carol@example.com", first_name="Carol")
    make_key("bot@posthogbot.user")
    gone, _ = User.objects.get_or_create_user("gone@example.com")
    gone.is_active = False
    gone.save()
    OrganizationMembership.objects.create(organization=boot.organization, user=gone)
    listed = api.get(members_url(boot)).json()
    assert listed["count"] == 3
    assert set(listed["results"][0]) == MEMBER_FIELDS
    emails = [m["user"]["email"] for m in listed["results"]]
    assert emails == ["carol@example.com", "bob@example.com", "admin@example.com"]  # -joined_at
    oldest_first = api.get(members_url(boot), {"order": "joined_at"}).json()["results"]
    assert [m["user"]["email"] for m in oldest_first] == list(reversed(emails))
    fallback = api.get(members_url(boot), {"order": "email"}).json()["results"]
    assert [m["user"]["email"] for m in fallback] == emails
    by_email = api.get(members_url(boot), {"email": "bob@example.com"}).json()
    assert by_email["count"] == 1 and by_email["results"][0]["level"] == 8
    assert api.get(members_url(boot), {"email": "BOB@example.com"}).json()["count"] == 0  # exact match
    assert [m["user"]["email"] for m in api.get(members_url(boot), {"search": "car"}).json()["results"]] == [
        "carol@example.com"
    ]
    too_long = api.get(members_url(boot), {"search": "x" * 201})
    assert too_long.status_code == 400 and error(too_long)["attr"] == "search"


def test_member_detail_get_is_405_and_no_create(api, boot):
    assert api.get(members_url(boot, "@me/")).status_code == 405
    assert api.post(members_url(boot), {"level": 1}, format="json").status_code == 405


def test_member_detail_get_posthog_profile_refuses_the_key(api, boot):
    profiles.set_profile("posthog")
    response = api.get(members_url(boot, "@me/"))
    assert response.status_code == 403
    assert "Personal API Key access" in error(response)["detail"]


def test_foreign_organization_member_routes_are_403(boot, make_key):
    outsider_key, _ = make_key("out@example.com", organization="Elsewhere")
    outsider = authed(outsider_key)
    assert outsider.get(members_url(boot)).status_code == 403
    assert outsider.get(members_url(boot, "@me/")).status_code == 403


def test_owner_changes_levels(api, boot, make_key):
    _, body = make_key("bob@example.com")
    uuid = body["user"]["uuid"]
    response = api.patch(members_url(boot, f"{uuid}/"), {"level": 8}, format="json")
    assert response.status_code == 200 and response.json()["level"] == 8
    assert set(response.json()) == MEMBER_FIELDS
    put = api.put(members_url(boot, f"{uuid}/"), {"level": 15}, format="json")
    assert put.status_code == 200 and put.json()["level"] == 15  # several owners may coexist
    # an owner may demote another owner
    assert api.patch(members_url(boot, f"{uuid}/"), {"level": 1}, format="json").json()["level"] == 1


def test_invalid_level(api, boot, make_key):
    _, body = make_key("bob@example.com")
    response = api.patch(members_url(boot, f"{body['user']['uuid']}/"), {"level": 7}, format="json")
    assert response.status_code == 400
    assert error(response)["code"] == "invalid_choice" and error(response)["attr"] == "level"


@pytest.mark.parametrize(
    "requester,target,new_level,detail",
    [
        ("member", "member", 1, "You can only edit others if you are an admin."),
        ("admin", "owner", 1, "You can only edit others with level lower or equal to you."),
        ("admin", "member", 15, "You can only make another member owner if you're this organization's owner."),
    ],
)
def test_level_rules_for_others(make_key, boot, requester, target, new_level, detail):
    client, _ = member_key(make_key, "requester@example.com", requester)
    _, target_body = make_key("target@example.com", level=target)
    response = client.patch(members_url(boot, f"{target_body['user']['uuid']}/"), {"level": new_level}, format="json")
    assert response.status_code == 403
    assert error(response)["detail"] == detail


def test_edit_others_check_comes_before_own_level_rules(make_key, boot):
    # a member raising another member to admin: the admin check (object permission) answers first
    client, _ = member_key(make_key, "requester@example.com", "member")
    _, target = make_key("target@example.com")
    response = client.patch(members_url(boot, f"{target['user']['uuid']}/"), {"level": 8}, format="json")
    assert error(response)["detail"] == "You can only edit others if you are an admin."


def test_above_own_level_message_when_not_owner_level(make_key, boot, api):
    # the "lower or equal to your current one" rule: only reachable for levels between admin and owner,
    # which PostHog does not have; validate_update itself is checked directly
    from posthog_emulator.api.members import validate_update
    from rest_framework.exceptions import PermissionDenied

    _, target = make_key("target@example.com")
    requester = OrganizationMembership(id=None, organization=boot.organization, level=1)
    membership = OrganizationMembership.objects.get(user__email="target@example.com")
    with pytest.raises(PermissionDenied, match="lower or equal to your current one"):
        validate_update(requester, membership, 8)


def test_nobody_changes_their_own_level(api, boot, make_key):
    client, uuid = member_key(make_key, "admin2@example.com", "admin")
    for who in ("@me", uuid):
        response = client.patch(members_url(boot, f"{who}/"), {"level": 1}, format="json")
        assert response.status_code == 403
        assert error(response)["detail"] == "You can't change your own access level."
    assert api.patch(members_url(boot, "@me/"), {"level": 8}, format="json").status_code == 403


def test_admin_edits_member_and_admin(make_key, boot):
    client, _ = member_key(make_key, "requester@example.com", "admin")
    _, member = make_key("m@example.com")
    _, admin = make_key("a@example.com", level="admin")
    assert client.patch(members_url(boot, f"{member['user']['uuid']}/"), {"level": 8}, format="json").status_code == 200
    assert client.patch(members_url(boot, f"{admin['user']['uuid']}/"), {"level": 1}, format="json").status_code == 200


def test_owner_cannot_be_removed(api, boot, make_key):
    response = api.delete(members_url(boot, "@me/"))
    assert response.status_code == 400
    assert error(response) == {
        "type": "validation_error",
        "code": "invalid_input",
        "detail": "Cannot leave the organization as its owner!",
        "attr": None,
    }
    _, other = make_key("owner2@example.com", level="owner")
    assert api.delete(members_url(boot, f"{other['user']['uuid']}/")).status_code == 400


def test_member_may_leave_and_current_organization_moves(boot, make_key, api):
    client, _ = member_key(make_key, "m@example.com", "member")
    user = User.objects.get(email="m@example.com")
    assert user.current_organization_id == boot.organization.id
    assert client.delete(members_url(boot, "@me/")).status_code == 204
    user.refresh_from_db()
    assert user.current_organization_id is None and user.current_team_id is None
    assert not OrganizationMembership.objects.filter(user=user, organization=boot.organization).exists()


def test_removal_rules_for_others(make_key, boot, api):
    member, _ = member_key(make_key, "m@example.com", "member")
    admin, _ = member_key(make_key, "a@example.com", "admin")
    _, target = make_key("t@example.com")
    refused = member.delete(members_url(boot, f"{target['user']['uuid']}/"))
    assert refused.status_code == 403 and error(refused)["detail"] == "You can only edit others if you are an admin."
    _, owner2 = make_key("o2@example.com", level="owner")
    above = admin.delete(members_url(boot, f"{owner2['user']['uuid']}/"))
    assert above.status_code == 403
    assert error(above)["detail"] == "You can only edit others with level lower or equal to you."
    assert admin.delete(members_url(boot, f"{target['user']['uuid']}/")).status_code == 204
    assert api.delete(members_url(boot, f"{target['user']['uuid']}/")).status_code == 404
    assert api.delete(members_url(boot, "not-a-uuid/")).status_code == 404


def test_member_count_follows_memberships(api, boot, client, make_key):
    def count():
        return api.get(f"/api/organizations/{boot.organization.id}/").json()["member_count"]

    assert count() == 1
    invite = api.post(invites_url(boot), {"target_email": "new@x.com"}, format="json").json()
    assert count() == 1  # an invite is not a member
    client.post(f"/_emulator/invites/{invite['id']}/accept", {}, format="json")
    assert count() == 2
    uuid = User.objects.get(email="new@x.com").uuid
    api.delete(members_url(boot, f"{uuid}/"))
    assert count() == 1


def test_member_scopes(boot, make_key):
    reader_key, _ = make_key("r@example.com", level="owner", scopes=["organization_member:read"])
    reader = authed(reader_key)
    assert reader.get(members_url(boot)).status_code == 200
    refused = reader.patch(members_url(boot, "@me/"), {"level": 1}, format="json")
    assert refused.status_code == 403 and "organization_member:write" in error(refused)["detail"]


# ---------------------------------------------------------------------------------------- users


def test_users_me(boot, make_key, api):
    body = api.get("/api/users/@me/").json()
    assert body["email"] == "admin@example.com" and body["uuid"] == str(boot.user.uuid)
    assert body["organization"]["id"] == str(boot.organization.id)
    assert body["organization"]["membership_level"] == 15
    assert [o["id"] for o in body["organizations"]] == [str(boot.organization.id)]
    assert body["team"]["id"] == boot.project.id
    assert api.get(f"/api/users/{boot.user.uuid}/").status_code == 404
    assert api.get("/api/users/@me").status_code == 200  # optional slash


def test_users_me_scope(make_key):
    key, _ = make_key("r@example.com", scopes=["organization_member:read"])
    refused = authed(key).get("/api/users/@me/")
    assert refused.status_code == 403 and error(refused)["detail"] == "API key missing required scope 'user:read'"
    key, _ = make_key("u@example.com", scopes=["user:read"])
    assert authed(key).get("/api/users/@me/").json()["email"] == "u@example.com"


# ------------------------------------------------------------------------------------- control


def test_accept_invite_creates_the_member(api, boot, client):
    invite = api.post(invites_url(boot), {"target_email": "New@Example.com", "first_name": "Nia", "level": 8}, format="json").json()
    response = client.post(f"/_emulator/invites/{invite['id']}/accept", {}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["level"] == 8 and body["user_created"] is True
    assert body["user"]["email"] == "New@example.com" and body["user"]["first_name"] == "Nia"
    assert not OrganizationInvite.objects.exists()
    members = api.get(members_url(boot), {"email": "New@example.com"}).json()["results"]
    assert members[0]["level"] == 8
    user = User.objects.get(email="New@example.com")
    assert user.current_organization_id == boot.organization.id


def test_accept_by_email_and_all(api, boot, client):
    api.post(invites_url(boot, "bulk/"), [{"target_email": f"p{i}@x.com"} for i in range(3)], format="json")
    one = client.post("/_emulator/invites/accept", {"email": "P0@x.com"}, format="json")
    assert one.status_code == 200 and one.json()["user"]["email"] == "p0@x.com"
    expired = api.post(invites_url(boot), {"target_email": "late@x.com"}, format="json").json()
    client.post(f"/_emulator/invites/{expired['id']}/age", {"days": 4}, format="json")
    everyone = client.post("/_emulator/invites/accept", {"all": True, "organization": "emulator-org"}, format="json")
    assert [a["user"]["email"] for a in everyone.json()["accepted"]] == ["p1@x.com", "p2@x.com"]
    assert api.get(f"/api/organizations/{boot.organization.id}/").json()["member_count"] == 4
    assert list(OrganizationInvite.objects.values_list("target_email", flat=True)) == ["late@x.com"]
    missing = client.post("/_emulator/invites/accept", {"email": "nobody@x.com"}, format="json")
    assert missing.status_code == 404
    assert client.post("/_emulator/invites/accept", {}, format="json").status_code == 400


def test_expired_invite_cannot_be_accepted(api, boot, client):
    invite = api.post(invites_url(boot), {"target_email": "a@x.com"}, format="json").json()
    aged = client.post(f"/_emulator/invites/{invite['id']}/age", {"days": 4}, format="json")
    assert aged.status_code == 200 and aged.json()["is_expired"] is True
    response = client.post(f"/_emulator/invites/{invite['id']}/accept", {}, format="json")
    assert response.status_code == 400 and "expired" in error(response)["detail"]
    assert not OrganizationMembership.objects.filter(user__email="a@x.com").exists()
    assert client.post("/_emulator/invites/not-a-uuid/accept", {}, format="json").status_code == 404


def test_existing_user_accepts_into_a_second_organization(api, boot, client, make_key):
    make_key("dev@example.com", organization="Elsewhere")
    invite = api.post(invites_url(boot), {"target_email": "dev@example.com"}, format="json").json()
    body = client.post(f"/_emulator/invites/{invite['id']}/accept", {}, format="json").json()
    assert body["user_created"] is False
    user = User.objects.get(email="dev@example.com")
    assert user.current_organization == Organization.objects.get(name="Elsewhere")  # unchanged


def test_clock_expires_invites_and_new_ones_are_fresh(api, boot, client):
    api.post(invites_url(boot), {"target_email": "a@x.com"}, format="json")
    assert client.get("/_emulator/clock").json()["offset_seconds"] == 0
    moved = client.post("/_emulator/clock", {"advance_days": 4}, format="json")
    assert moved.status_code == 200 and moved.json()["offset_seconds"] == 4 * 86400
    assert api.get(invites_url(boot)).json()["results"][0]["is_expired"] is True
    fresh = api.post(invites_url(boot), {"target_email": "b@x.com"}, format="json").json()
    assert fresh["is_expired"] is False
    client.post("/_emulator/clock", {"advance_days": 2}, format="json")
    listed = {i["target_email"]: i["is_expired"] for i in api.get(invites_url(boot)).json()["results"]}
    assert listed == {"a@x.com": True, "b@x.com": False}
    assert client.delete("/_emulator/clock").json()["offset_seconds"] == 0
    bad = client.post("/_emulator/clock", {"advance_days": "four"}, format="json")
    assert bad.status_code == 400 and error(bad)["attr"] == "advance_days"
    assert client.post("/_emulator/clock", {}, format="json").status_code == 400


def test_reset_puts_the_clock_back(boot, client):
    client.post("/_emulator/clock", {"advance_days": 4}, format="json")
    client.post("/_emulator/reset", {}, format="json")
    assert client.get("/_emulator/clock").json()["offset_seconds"] == 0


@pytest.mark.parametrize("profile", ["spec", "posthog"])
def test_member_and_invite_checks_match_the_address_exactly(api, boot, client, profile):
    """Issue 27.6: PostHog's ``OrganizationInviteSerializer.create`` (``posthog/api/organization_invite.py``)
    refuses an address with ``OrganizationMembership.objects.filter(..., user__email=target_email)``
    and replaces older invites with ``OrganizationInvite.objects.filter(..., target_email=...)``: both
    exact (older PostHog used the same exact ``user__email=`` lookup). Only the domain is lower-cased."""
    profiles.set_profile(profile)
    url = "/api/organizations/@current/invites/"
    response = api.post(url, {"target_email": "Admin@EXAMPLE.com"}, format="json")
    assert response.status_code == 201, response.content  # not the member admin@example.com
    assert response.json()["target_email"] == "Admin@example.com"
    assert error(api.post(url, {"target_email": "admin@EXAMPLE.COM"}, format="json"))["detail"] == (
        "A user with this email address already belongs to the organization.")
    first = api.post(url, {"target_email": "ann@example.com"}, format="json").json()
    second = api.post(url, {"target_email": "Ann@example.com"}, format="json").json()
    listed = {invite["id"] for invite in api.get(url).json()["results"]}
    assert {first["id"], second["id"]} <= listed  # side by side: neither replaced the other
    third = api.post(url, {"target_email": "ann@Example.com"}, format="json").json()
    listed = {invite["id"] for invite in api.get(url).json()["results"]}
    assert first["id"] not in listed and {second["id"], third["id"]} <= listed  # same address: replaced


def test_private_project_access_as_posthog_checks_it(api, boot, make_key):
    """Issue 27.7: ``validate_private_project_access`` (``posthog/api/organization_invite.py``) looks
    the project up among the organization's teams and, for an inviter below admin, refuses a private
    project (``team.access_control``) they hold no explicit membership of; the level is stored as
    given (``"level": 8`` is PostHog's own ``ExplicitTeamMembership.Level.ADMIN``)."""
    url = invites_url(boot)
    numeric = api.post(url, {"target_email": "n@x.com", "private_project_access": [{"id": boot.project.id, "level": 8}]},
                       format="json")
    assert numeric.status_code == 201, numeric.content
    assert numeric.json()["private_project_access"] == [{"id": boot.project.id, "level": 8}]
    member = authed(make_key("member@example.com")[0])
    body = {"target_email": "m@x.com", "private_project_access": [{"id": boot.project.id, "level": 1}]}
    assert member.post(url, body, format="json").status_code == 201  # an open project
    api.patch(f"/api/projects/{boot.project.id}/", {"access_control": True}, format="json")
    refused = member.post(url, {**body, "target_email": "m2@x.com"}, format="json")
    assert refused.status_code == 400 and error(refused)["detail"].startswith("Project does not exist")
    assert api.post(url, {**body, "target_email": "m3@x.com"}, format="json").status_code == 201  # admins may


def test_control_api_sets_what_members_report_of_logins(api, boot, client):
    """Issue 27.10: PostHog's ``OrganizationMemberSerializer`` derives ``is_2fa_enabled`` (confirmed
    TOTP devices or WebAuthn keys), ``has_social_auth`` (social-auth records) and ``last_login``
    (``F("user__last_login")``; see ``ee/api/rbac/role.py``, which warms the same prefetches). The
    emulator has none of those; ``PATCH /_emulator/users/<email|uuid>`` sets them."""
    members = "/api/organizations/@current/members/"
    first = api.get(members).json()["results"][0]
    assert (first["is_2fa_enabled"], first["has_social_auth"], first["last_login"]) == (False, False, None)
    response = client.patch("/_emulator/users/ADMIN@example.com", {"is_2fa_enabled": True, "has_social_auth": True,
                                                                   "last_login": "2026-11-01T09:30:00Z"}, format="json")
    assert response.status_code == 200, response.content
    assert response.json()["is_2fa_enabled"] is True and response.json()["last_login"] == "2026-11-01T09:30:00Z"
    first = api.get(members).json()["results"][0]
    assert (first["is_2fa_enabled"], first["has_social_auth"], first["last_login"]) == (True, True,
                                                                                        "2026-11-01T09:30:00Z")
    by_uuid = client.patch(f"/_emulator/users/{first['user']['uuid']}", {"last_login": None}, format="json")
    assert by_uuid.json()["last_login"] is None
    assert client.patch("/_emulator/users/admin@example.com", {"is_2fa_enabled": "yes"},
                        format="json").status_code == 400
    assert client.patch("/_emulator/users/admin@example.com", {"is_staff": True}, format="json").status_code == 400
    assert client.patch("/_emulator/users/nobody@example.com", {}, format="json").status_code == 404
