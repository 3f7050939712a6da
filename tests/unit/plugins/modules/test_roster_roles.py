# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.roster's roles per person, through main()."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules import roster
from ansible_collections.posthog.admin.tests.unit.conftest import page

ORG = "/api/organizations/@current/"
ME = {"uuid": "0190a3f4-0000-7000-9000-000000000009", "email": "admin@acme.example"}


def member(email, number, level=1):
    return {"id": "0190a3f4-0000-7000-8000-%012d" % number, "level": level,
            "user": {"email": email, "uuid": "0190a3f4-0000-7000-9000-%012d" % number}}


ADMIN = member("admin@acme.example", 9, 15)
ANN = member("ann@acme.example", 1)
BOB = member("bob@acme.example", 2)


def role(name, number, *holders):
    return {"id": "0190a3f4-0000-7000-b000-%012d" % number, "name": name,
            "members": [{"id": "0190a3f4-0000-7000-a000-%03d%09d" % (number, i), "user": h["user"]}
                        for i, h in enumerate(holders)]}


ENG = role("Engineering", 1, ANN)
OPS = role("Ops", 2, ANN, BOB)
PEOPLE = [dict(email="admin@acme.example", level="owner"), dict(email="ann@acme.example", roles=["engineering"]),
          dict(email="bob@acme.example", roles=["Ops"])]


def test_unchanged_roster_with_roles_is_three_requests(server, run_module):
    server.script((200, page(ADMIN, ANN, BOB)), (200, page()), (200, page(ENG, role("Ops", 2, BOB))))
    result = run_module(roster, dict(people=PEOPLE))
    assert not result["failed"], result["msg"]
    assert result["changed"] is False and len(server.requests) == 3
    assert result["roles"] == {"ann@acme.example": ["Engineering"], "bob@acme.example": ["Ops"]}
    assert result["roles_changed"] == [] and result["roles_pending"] == []


def test_roles_are_given_and_taken_in_the_same_task(server, run_module):
    server.script((200, page(ADMIN, ANN, BOB)), (200, page()), (200, page(ENG, OPS)), (200, ME),
                  (204, None), (201, {"id": "x"}))
    people = [dict(email="admin@acme.example", level="owner"), dict(email="ann@acme.example", roles=["Engineering"]),
              dict(email="bob@acme.example", roles=["Ops", "Engineering"])]
    result = run_module(roster, dict(people=people), diff=True)
    assert not result["failed"], result["msg"]
    assert run_module.calls[3:] == ["GET /api/users/@me/",
                                    "DELETE %sroles/%s/role_memberships/%s/" % (ORG, OPS["id"], OPS["members"][0]["id"]),
                                    "POST %sroles/%s/role_memberships/" % (ORG, ENG["id"])]
    assert run_module.bodies("POST") == [{"user_uuid": BOB["user"]["uuid"]}]
    assert result["roles_changed"] == [{"email": "ann@acme.example", "added": [], "removed": ["Ops"]},
                                       {"email": "bob@acme.example", "added": ["Engineering"], "removed": []}]
    assert result["diff"]["after"]["bob@acme.example roles"] == "Engineering, Ops"


def test_unknown_roles_fail_before_writing_and_invitees_wait(server, run_module):
    server.script((200, page(ADMIN, ANN)), (200, page()), (200, page(ENG)))
    result = run_module(roster, dict(people=[dict(email="admin@acme.example", level="owner"),
                                             dict(email="ann@acme.example", roles=["Designers"])]))
    assert result["failed"] and "'Designers' does not exist" in result["msg"]
    assert all(c.startswith("GET") for c in run_module.calls)
    server.script((200, page(ADMIN)), (200, page()), (200, page(ENG)), (201, {"id": "i", "target_email": "cy@acme.example"}))
    result = run_module(roster, dict(people=[dict(email="admin@acme.example", level="owner"),
                                             dict(email="cy@acme.example", roles=["Engineering"])]))
    assert not result["failed"], result["msg"]
    assert result["invited"] == ["cy@acme.example"]
    assert result["roles_pending"] == [{"email": "cy@acme.example", "roles": ["Engineering"]}]


def test_check_mode_assumes_missing_roles_are_created_earlier(server, run_module):
    server.script((200, page(ADMIN, ANN)), (200, page()), (200, page()), (200, ME))
    result = run_module(roster, dict(people=[dict(email="admin@acme.example", level="owner"),
                                             dict(email="ann@acme.example", roles=["Designers"])]), check=True)
    assert not result["failed"], result["msg"]
    assert result["changed"] is True and result["roles"] == {"ann@acme.example": ["Designers"]}
    assert all(c.startswith("GET") for c in run_module.calls)


def test_a_member_key_cannot_change_roles(server, run_module):
    me = member("ann@acme.example", 1)
    server.script((200, page(ADMIN, me, BOB)), (200, page()), (200, page(ENG)), (200, me["user"]))
    result = run_module(roster, dict(people=[dict(email="admin@acme.example", level="owner"),
                                             dict(email="ann@acme.example"),
                                             dict(email="bob@acme.example", roles=["Engineering"])]))
    assert result["failed"] and "access level is insufficient" in result["msg"]
    assert all(c.startswith("GET") for c in run_module.calls)
