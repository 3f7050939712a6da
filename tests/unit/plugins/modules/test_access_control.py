# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.access_control and access_control_info, through main(), against a scripted server
that answers as PostHog's newest code (products/access_control/backend/presentation/access_control.py)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import access_control, access_control_info
from ansible_collections.posthog.admin.tests.unit.conftest import page

PROJECT = "/api/projects/7/access_controls/"
RESOURCES = "/api/projects/7/resource_access_controls/"
ORG_ID = "0190a3f4-0000-7000-8000-0000000000cc"
ROLES = "/api/organizations/%s/roles/" % ORG_ID
MEMBERS = "/api/organizations/%s/members/" % ORG_ID
# The key's organizations: the project's is where the roles and members a rule names are (one read, when a
# rule names one).
TEAM = (200, page({"id": "0190a3f4-0000-7000-8000-0000000000dd", "name": "Other", "teams": [{"id": 1}],
                   "projects": [{"id": 1}]},
                  {"id": ORG_ID, "name": "Acme", "teams": [{"id": 7, "name": "Acme Web"}],
                   "projects": [{"id": 7, "name": "Acme Web"}]}))
RID = "0190a3f4-0000-7000-8000-0000000000aa"
MID = "0190a3f4-0000-7000-8000-000000000001"
ANN = {"id": MID, "level": 1, "user": {"email": "ann@acme.example", "uuid": "0190a3f4-0000-7000-9000-000000000001"}}


pytestmark = pytest.mark.usefixtures("module_side")


def rule(level, resource="project", role=None, member=None):
    return {"access_level": level, "resource": resource, "resource_id": "7" if resource == "project" else None,
            "role": role, "organization_member": member, "created_by": 1,
            "created_at": "2026-11-26T10:00:00Z", "updated_at": "2026-11-26T10:00:00Z"}


def rules(*rows):
    return {"access_controls": list(rows), "available_access_levels": ["none", "member", "admin"]}


#: The project's Terraform lock, read once before a change to an existing rule (``assert_rule_is_editable``,
#: ee/api/rbac/access_control_management.py).
UNLOCKED = (200, {"lock_terraform_managed_rules": False, "has_terraform_managed_rules": False})
LOCKED = (200, {"lock_terraform_managed_rules": True, "has_terraform_managed_rules": True})


def test_unchanged_default_is_one_read(server, run_module):
    server.script((200, rules(rule("member"))))
    result = run_module(access_control, dict(project_id="7", access_level="member"))
    assert not result["failed"], result["msg"]
    assert result["changed"] is False and run_module.calls == ["GET %s" % PROJECT]
    assert result["access_control"]["id"] == "project/default"


def test_member_rule_is_created_with_the_membership_id(server, run_module):
    server.script((200, rules()), TEAM, (200, page(ANN)), (200, rule("admin", member=MID)))
    result = run_module(access_control, dict(project_id="7", member="Ann@ACME.example", access_level="admin"))
    assert not result["failed"], result["msg"]
    assert run_module.calls[1:3] == ["GET /api/organizations/?limit=500", "GET %s?limit=500" % MEMBERS]
    assert run_module.calls[-1] == "PUT %s" % PROJECT
    assert run_module.bodies("PUT") == [{"access_level": "admin", "organization_member": MID}]
    assert result["changed"] is True and result["access_control"]["member_email"] == "Ann@acme.example"


ORGANIZATION = "/api/organizations/%s/" % ORG_ID
PLAN = {"id": ORG_ID, "name": "Acme",
        "available_product_features": [{"key": "role_based_access", "name": "Role-based access"}]}


def test_check_mode_predicts_and_writes_nothing(server, run_module):
    server.script((200, rules()), TEAM, (200, PLAN), (200, page({"id": RID, "name": "Data", "members": []})))
    result = run_module(access_control, dict(project_id="7", resource="dashboard", role="data",
                                             access_level="viewer"), check=True)
    assert not result["failed"], result["msg"]
    assert result["changed"] is True and result["access_control"]["role"] == RID
    assert [c.split()[0] for c in run_module.calls] == ["GET", "GET", "GET", "GET"]
    assert run_module.calls[0] == "GET %s" % RESOURCES and run_module.calls[2] == "GET %s" % ORGANIZATION


def test_check_mode_fails_a_role_rule_the_plan_refuses_as_the_real_run_does(server, run_module):
    """PostHog answers 403 to any write naming a role without the role_based_access feature
    (ee/api/rbac/access_control.py, AccessControlSerializer.validate): check mode reads the plan and
    fails alike, instead of predicting a change the real run cannot make (issue 24)."""
    data = (200, page({"id": RID, "name": "Data", "members": []}))
    server.script((200, rules()), TEAM, (200, dict(PLAN, available_product_features=[])))
    result = run_module(access_control, dict(project_id="7", role="Data", access_level="member"), check=True)
    assert result["failed"] and "HTTP 403" in result["msg"] and "paid feature" in result["msg"]
    assert not result.get("changed") and run_module.calls == [
        "GET %s" % PROJECT, "GET /api/organizations/?limit=500", "GET %s" % ORGANIZATION]
    server.script((200, rules(rule("member", role=RID))), TEAM, data)  # nothing to write: no plan read, no failure
    result = run_module(access_control, dict(project_id="7", role="Data", access_level="member"), check=True)
    assert not result["failed"] and result["changed"] is False
    server.script((200, rules()), TEAM, (200, page(ANN)))  # a member's rule needs no paid feature
    result = run_module(access_control, dict(project_id="7", member=ANN["user"]["email"], access_level="admin"),
                        check=True)
    assert not result["failed"] and result["changed"] is True


def test_update_and_removal_are_puts_with_null_for_removal(server, run_module):
    server.script((200, rules(rule("viewer", "dashboard"))), UNLOCKED, (200, rule("editor", "dashboard")))
    result = run_module(access_control, dict(project_id="7", resource="dashboard", access_level="editor"))
    assert result["changed"] is True and result["diff"]["before"]["access_level"] == "viewer"
    assert run_module.bodies("PUT") == [{"access_level": "editor", "resource": "dashboard"}]
    server.script((200, rules(rule("editor", "dashboard"))), UNLOCKED, (204, None))
    result = run_module(access_control, dict(project_id="7", resource="dashboard", state="absent"))
    assert result["changed"] is True and result["access_control"] == {}
    assert run_module.bodies("PUT")[-1] == {"access_level": None, "resource": "dashboard"}


def test_levels_are_checked_before_any_request(server, run_module):
    result = run_module(access_control, dict(project_id="7", access_level="viewer"))
    assert result["failed"] and "not a level of project" in result["msg"]
    result = run_module(access_control, dict(project_id="7", resource="toolbar", access_level="editor"))
    assert result["failed"] and "cannot be above 'viewer'" in result["msg"]
    result = run_module(access_control, dict(project_id="7", resource="action", access_level="none"))
    assert result["failed"] and "below 'viewer'" in result["msg"]
    result = run_module(access_control, dict(project_id="7", purge=True, access_level="none"))
    assert result["failed"] and "give the list as rules" in result["msg"]
    assert server.requests == []


def test_unknown_role_fails_naming_what_to_do(server, run_module):
    server.script((200, rules(rule("member", role="0190a3f4-0000-7000-8000-0000000000bb"))), TEAM, (200, page()))
    result = run_module(access_control, dict(project_id="7", role="Ghosts", access_level="member"))
    assert result["failed"] and "has no role 'Ghosts'" in result["msg"] and "posthog.admin.role" in result["msg"]


def test_terraform_lock_and_role_feature_are_explained(server, run_module):
    locked = {"type": "authentication_error", "code": "permission_denied", "attr": None,
              "detail": "Terraform manages this access control rule. Change it in your Terraform configuration, "
                        "or turn off the Terraform lock in project settings."}
    server.script((200, rules(rule("viewer", "feature_flag"))), LOCKED)
    result = run_module(access_control, dict(project_id="7", resource="feature_flag", access_level="editor"))
    assert result["failed"] and "Terraform lock is on" in result["msg"] and "nothing was changed" in result["msg"]
    assert [c.split()[0] for c in run_module.calls] == ["GET", "GET"]  # refused in the plan: no PUT
    server.script((200, rules(rule("viewer", "feature_flag"))), UNLOCKED, (403, locked))
    result = run_module(access_control, dict(project_id="7", resource="feature_flag", access_level="editor"))
    assert result["failed"] and "owned by Terraform" in result["msg"] and result["error"]["status"] == 403
    feature = dict(locked, detail="Role-based access controls require the Role-based access feature.")
    server.script((200, rules()), TEAM, (200, PLAN), (200, page({"id": RID, "name": "Data", "members": []})),
                  (403, feature))
    result = run_module(access_control, dict(project_id="7", resource="insight", role="Data", access_level="viewer"))
    assert result["failed"] and "paid feature" in result["msg"]


def test_a_list_with_purge_removes_the_rest(server, run_module):
    stray = rule("viewer", "insight")
    server.script((200, rules(rule("none"))), (200, rules(rule("viewer", "dashboard"), stray)), UNLOCKED, (204, None))
    result = run_module(access_control, dict(project_id="7", purge=True, rules=[
        dict(access_level="none"), dict(resource="dashboard", access_level="viewer")]))
    assert not result["failed"], result["msg"]
    assert result["changed"] is True and result["rules"][-1] == {} and len(result["rules"]) == 3
    assert run_module.bodies("PUT") == [{"access_level": None, "resource": "insight"}]
    assert len(server.requests) == 4  # the two lists, the Terraform lock, and the removal


def test_info_names_roles_and_members(server, run_module):
    server.script((200, rules(rule("admin", member=MID))), (200, rules(rule("viewer", "survey", role=RID))),
                  TEAM, (200, page(ANN)), (200, page({"id": RID, "name": "Data", "members": []})))
    result = run_module(access_control_info, dict(project_id="7"))
    assert not result["failed"], result["msg"]
    assert [r.get("member_email") or r.get("role_name") for r in result["access_controls"]] == [
        "ann@acme.example", "Data"]
    assert run_module.calls[2:] == ["GET /api/organizations/?limit=500", "GET %s?limit=500" % MEMBERS, "GET %s?limit=500" % ROLES]


def test_two_items_naming_one_rule_fail_before_any_request(server, run_module):
    result = run_module(access_control, dict(project_id="7", rules=[
        dict(member="ann@acme.example", access_level="admin"), dict(member="ANN@acme.example", access_level="none")]))
    assert result["failed"] and "name the same object" in result["msg"] and server.requests == []
