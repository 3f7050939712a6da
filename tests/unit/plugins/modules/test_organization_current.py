# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Creating an organization makes it the API key user's current one (PostHog's
OrganizationManager.bootstrap, posthog/models/organization.py: user.current_organization and
user.current_team are the new organization and its first project): the task says so, as creating a
project does."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules import organization


def test_creating_an_organization_warns_that_it_became_the_current_one(run_live, live):
    before = live.api("GET", "/api/organizations/@current/")["id"]
    check = run_live(organization, dict(name="Acme"), check=True)
    assert check["changed"] and not [w for w in check["warnings"] if "current organization" in w]
    result = run_live(organization, dict(name="Acme"))
    assert not result["failed"], result["msg"]
    now = live.api("GET", "/api/organizations/@current/")
    assert now["id"] == result["organization"]["id"] != before  # what the warning is about
    assert [w for w in result["warnings"] if "current organization" in w and "@current" in w], result["warnings"]
    again = run_live(organization, dict(name="Acme"))
    assert not again["changed"] and not [w for w in again["warnings"] if "current organization" in w]
