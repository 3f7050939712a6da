# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.role and role_info, and organization's default_role, through main()."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import organization, role, role_info
from ansible_collections.posthog.admin.tests.unit.conftest import page

ROLES = "/api/organizations/@current/roles/"
MEMBERS = "/api/organizations/@current/members/"
INVITES = "/api/organizations/@current/invites/"
RID = "0190a3f4-0000-7000-8000-0000000000r1".replace("r", "a")


pytestmark = pytest.mark.usefixtures("module_side")


def person(email, number):
    return {"id": "0190a3f4-0000-7000-8000-%012d" % number, "level": 1,
            "user": {"email": email, "uuid": "0190a3f4-0000-7000-9000-%012d" % number}}


ANN = person("ann@acme.example", 1)
BOB = person("bob@acme.example", 2)


def holding(member, number):
    return {"id": "0190a3f4-0000-7000-a000-%012d" % number, "role_id": RID, "user": member["user"],
            "organization_member": {"id": member["id"]}}


def eng(*holders):
    return {"id": RID, "name": "Engineering", "is_default": False, "members": list(holders)}


def test_unchanged_role_with_members_is_one_request(server, run_module):
    server.script((200, page(eng(holding(ANN, 1), holding(BOB, 2)))))
    result = run_module(role, dict(name="engineering", members=["BOB@acme.example", "ann@acme.example"], purge=True))
    assert not result["failed"], result["msg"]
    assert result["changed"] is False and result["role"]["member_emails"] == ["ann@acme.example", "bob@acme.example"]
    assert len(server.requests) == 1


def test_create_then_add_members_in_few_requests(server, run_module):
    server.script((200, page()), (200, page(ANN, BOB)), (201, eng()), (201, holding(ANN, 1)), (201, holding(BOB, 2)))
    result = run_module(role, dict(name="Engineering", members=["ann@acme.example", "bob@acme.example"]))
    assert not result["failed"], result["msg"]
    assert run_module.calls == ["GET %s?limit=500" % ROLES, "GET %s?limit=500" % MEMBERS, "POST %s" % ROLES,
                                "POST %s%s/role_memberships/" % (ROLES, RID), "POST %s%s/role_memberships/" % (ROLES, RID)]
    assert run_module.bodies("POST")[1:] == [{"user_uuid": ANN["user"]["uuid"]}, {"user_uuid": BOB["user"]["uuid"]}]
    assert result["role"]["member_emails"] == ["ann@acme.example", "bob@acme.example"]
    assert result["diff"]["after"]["members"] == ["ann@acme.example", "bob@acme.example"]


def test_purge_removes_who_is_not_listed_and_without_purge_nobody(server, run_module):
    server.script((200, page(eng(holding(ANN, 1), holding(BOB, 2)))), (204, None))
    result = run_module(role, dict(name="Engineering", members=["ann@acme.example"], purge=True))
    assert result["changed"] is True and result["role"]["member_emails"] == ["ann@acme.example"]
    assert run_module.calls[-1] == "DELETE %s%s/role_memberships/%s/" % (ROLES, RID, holding(BOB, 2)["id"])
    server.script((200, page(eng(holding(ANN, 1), holding(BOB, 2)))))
    result = run_module(role, dict(name="Engineering", members=["ann@acme.example"]))
    assert result["changed"] is False


def test_strangers_fail_before_any_write_and_invited_people_wait(server, run_module):
    pending = {"id": "i1", "target_email": "cy@acme.example", "is_expired": False, "level": 1}
    server.script((200, page(eng())), (200, page(ANN)), (200, page(pending)))
    result = run_module(role, dict(name="Engineering", members=["ann@acme.example", "cy@acme.example",
                                                                "zed@acme.example"]))
    assert result["failed"] and "zed@acme.example is not a member of the organization and not invited" in result["msg"]
    assert [c.split()[0] for c in run_module.calls] == ["GET", "GET", "GET"]
    server.script((200, page(eng())), (200, page(ANN)), (200, page(pending)), (201, holding(ANN, 1)))
    result = run_module(role, dict(name="Engineering", members=["ann@acme.example", "cy@acme.example"]))
    assert not result["failed"] and result["role"]["member_emails"] == ["ann@acme.example"]
    assert any("cy@acme.example is invited but not a member yet" in w for w in result["warnings"])


def test_check_mode_predicts_members(server, run_module):
    server.script((200, page(eng(holding(BOB, 2)))), (200, page(ANN, BOB)))
    result = run_module(role, dict(name="Engineering", members=["ann@acme.example"], purge=True), check=True)
    assert result["changed"] is True and result["role"]["member_emails"] == ["ann@acme.example"]
    assert result["diff"] == {"before": {"name": "Engineering", "members": ["bob@acme.example"]},
                              "after": {"name": "Engineering", "members": ["ann@acme.example"]}}
    assert all(c.startswith("GET") for c in run_module.calls)


def test_list_of_roles_reads_roles_and_members_once(server, run_module):
    support = dict(eng(), id=RID[:-1] + "2", name="Support")
    server.script((200, page(eng(holding(ANN, 1)), support)), (200, page(ANN, BOB)),
                  (201, holding(BOB, 2)), (204, None))
    result = run_module(role, dict(roles=[dict(name="Engineering", members=["ann@acme.example", "bob@acme.example"]),
                                          dict(name="Support", members=["bob@acme.example"], state="absent")]))
    assert not result["failed"], result["msg"]
    assert run_module.calls == ["GET %s?limit=500" % ROLES, "GET %s?limit=500" % MEMBERS,
                                "POST %s%s/role_memberships/" % (ROLES, RID), "DELETE %s%s/" % (ROLES, support["id"])]
    assert [r.get("name") for r in result["roles"]] == ["Engineering", None]


def test_two_items_naming_one_role_in_two_cases_fail_first(server, run_module):
    result = run_module(role, dict(roles=[dict(name="Engineering"), dict(name="ENGINEERING", state="absent")]))
    assert result["failed"] and "roles[0] and roles[1] name the same object" in result["msg"]
    assert server.requests == []


def test_bad_member_addresses_fail_first(server, run_module):
    result = run_module(role, dict(name="Engineering", members=["ann@acme.example", "ANN@acme.example"]))
    assert result["failed"] and "listed twice" in result["msg"]
    result = run_module(role, dict(name="Engineering", members=["nobody"]))
    assert result["failed"] and "is not an email address" in result["msg"]
    assert server.requests == []


def test_role_info_filters_by_name(server, run_module):
    server.script((200, page(eng(holding(ANN, 1)), dict(eng(), id="x", name="Support"))))
    result = run_module(role_info, dict(name="ENGINEERING"))
    assert [r["name"] for r in result["roles"]] == ["Engineering"]
    assert result["roles"][0]["member_emails"] == ["ann@acme.example"]


ORG = {"id": "0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f", "name": "Acme", "slug": "acme", "default_role_id": None}
ORG_ROLES = "/api/organizations/%s/roles/" % ORG["id"]


def test_default_role_is_resolved_to_its_id(server, run_module):
    server.script((200, page(ORG)), (200, page(eng())), (200, dict(ORG, default_role_id=RID)))
    result = run_module(organization, dict(name="Acme", default_role="engineering"))
    assert not result["failed"], result["msg"]
    assert run_module.calls == ["GET /api/organizations/?limit=500", "GET %s?limit=500" % ORG_ROLES,
                                "PATCH /api/organizations/%s/" % ORG["id"]]
    assert run_module.bodies("PATCH") == [{"default_role_id": RID}]
    server.script((200, page(dict(ORG, default_role_id=RID))), (200, page(eng())))
    assert run_module(organization, dict(name="Acme", default_role="Engineering"))["changed"] is False


def test_default_role_cleared_and_missing(server, run_module):
    # the diff names the default role it clears (one list of the roles), never its UUID
    server.script((200, page(dict(ORG, default_role_id=RID))), (200, page(dict(id=RID, name="Viewers", members=[]))),
                  (200, dict(ORG)))
    result = run_module(organization, dict(name="Acme", default_role=""))
    assert result["changed"] is True and run_module.bodies("PATCH") == [{"default_role_id": None}]
    assert result["diff"]["before"]["default_role"] == "Viewers" and result["diff"]["after"]["default_role"] is None
    server.script((200, page(ORG)), (200, page()))
    result = run_module(organization, dict(name="Acme", default_role="Viewers"))
    assert result["failed"] and "not a role of the organization" in result["msg"]
    server.script((200, page()))
    result = run_module(organization, dict(name="New org", default_role="Viewers"))
    assert result["failed"] and "a new organization has no roles yet" in result["msg"]
    assert [r["method"] for r in server.requests].count("POST") == 0
    server.script((200, page(ORG)), (200, page()))
    result = run_module(organization, dict(name="Acme", default_role="Viewers"), check=True)
    assert result["changed"] is True and any("does not exist yet" in w for w in result["warnings"])
