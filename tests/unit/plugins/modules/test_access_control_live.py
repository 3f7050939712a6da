# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.access_control through main() against a live emulator (PostHog's newest access
control API): what a purge reports, and whose roles and members a rule names."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import access_control


pytestmark = pytest.mark.usefixtures("module_side")


def org_path(live):
    return "/api/organizations/%s/" % live.info["organization"]["id"]


def member_id(live, email):
    members = live.api("GET", org_path(live) + "members/")["results"]
    return next(m["id"] for m in members if m["user"]["email"] == email)


def test_a_purge_names_the_rules_it_removes_by_email_and_role_name(run_live, live):
    """The rules a purge removes are reported as a person wrote them: a member by email, a role by
    name (PostHog keys them by membership id and role id)."""
    org = live.info["organization"]["id"]
    live.control("PUT", "organizations/%s/features" % org, {"features": ["role_based_access"]})
    live.control("POST", "keys", {"email": "ann@acme.example", "organization": org, "scopes": ["*"]})
    role = live.api("POST", org_path(live) + "roles/", {"name": "Data"})
    live.api("PUT", "/api/projects/1/access_controls/",
             {"organization_member": member_id(live, "ann@acme.example"), "access_level": "admin"})
    live.api("PUT", "/api/projects/1/resource_access_controls/",
             {"role": role["id"], "resource": "insight", "access_level": "editor"})
    result = run_live(access_control, dict(project_id="1", purge=True, rules=[dict(access_level="member")]))
    assert not result["failed"], result["msg"]
    assert [d["before_header"] for d in result["diff"][1:]] == [
        "purged (project for member ann@acme.example)", "purged (insight for role 'Data')"]
    assert [d["before"]["target"] for d in result["diff"][1:]] == [
        "project for member ann@acme.example", "insight for role 'Data'"]


def test_roles_and_members_are_those_of_the_projects_organization(run_live, live):
    """A rule's role and member are looked up in the organization the project belongs to, not in the
    key user's current organization (which creating another organization has just changed)."""
    org = live.info["organization"]["id"]
    live.control("PUT", "organizations/%s/features" % org, {"features": ["role_based_access"]})
    live.control("POST", "keys", {"email": "ann@acme.example", "organization": org, "scopes": ["*"]})
    live.api("POST", org_path(live) + "roles/", {"name": "Data"})
    other = live.api("POST", "/api/organizations/", {"name": "Other"})
    assert live.api("GET", "/api/organizations/@current/")["id"] == other["id"]
    rules = [dict(role="Data", access_level="member"), dict(member="ann@acme.example", access_level="admin")]
    check = run_live(access_control, dict(project_id="1", rules=rules), check=True)
    assert not check["failed"] and check["changed"], check
    result = run_live(access_control, dict(project_id="1", rules=rules))
    assert not result["failed"], result["msg"]
    assert [r.get("role_name") or r.get("member_email") for r in result["rules"]] == ["Data", "ann@acme.example"]
    again = run_live(access_control, dict(project_id="1", rules=rules))
    assert not again["failed"] and not again["changed"], again
