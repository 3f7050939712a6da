# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.project and project_info through main(), against the scripted server."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import project, project_info
from ansible_collections.posthog.admin.tests.unit.conftest import page

PROJECTS = "/api/organizations/@current/projects/"
SUMMARY = {"id": 7, "name": "Web", "timezone": "UTC", "is_demo": False}
WEB = dict(SUMMARY, anonymize_ips=False, app_urls=["https://a.example"], recording_domains=[],
           session_recording_sample_rate=None, week_start_day=None, slack_incoming_webhook=None,
           test_account_filters=[])


pytestmark = pytest.mark.usefixtures("module_side")


def test_create_by_name_sends_the_settings_and_warns_about_the_current_project(server, run_module):
    created = dict(WEB, anonymize_ips=True, session_recording_sample_rate="0.25", week_start_day=1)
    # the plan reads the organization's plan features once: a project it has no room for is refused before
    # any write (PostHog's PremiumMultiProjectPermission)
    server.script((200, page()), (200, {"id": "o", "available_product_features": []}), (201, created))
    result = run_module(project, dict(name=" Web ", anonymize_ips=True, session_recording_sample_rate=0.25,
                                      week_start_day="monday", app_urls=["https://a.example", ""]))
    assert not result["failed"], result["msg"]
    assert result["changed"] is True and result["project"]["id"] == 7
    assert run_module.calls == ["GET %s?limit=500" % PROJECTS, "GET /api/organizations/@current/",
                                "POST %s" % PROJECTS]
    assert run_module.bodies("POST") == [{"name": "Web", "anonymize_ips": True, "session_recording_sample_rate": 0.25,
                                          "week_start_day": 1, "app_urls": ["https://a.example"]}]
    assert any("current project" in w for w in result["warnings"])


def test_unchanged_by_name_is_the_list_and_one_get(server, run_module):
    stored = dict(WEB, session_recording_sample_rate="0.50", week_start_day=0)
    server.script((200, page(dict(SUMMARY, name="WEB"))), (200, stored))
    result = run_module(project, dict(name="web", app_urls=["https://a.example"], session_recording_sample_rate=0.5,
                                      week_start_day="sunday", anonymize_ips=False))
    assert not result["failed"] and result["changed"] is False
    assert run_module.calls == ["GET %s?limit=500" % PROJECTS, "GET %s7/" % PROJECTS]


def test_rename_by_id_patches_only_what_differs_and_masks_the_webhook(server, run_module):
    server.script((200, WEB), (200, dict(WEB, name="Website", slack_incoming_webhook="https://hooks.example/x")))
    result = run_module(project, dict(id="7", name="Website", slack_incoming_webhook="https://hooks.example/x",
                                      app_urls=["https://a.example"]))
    assert result["changed"] is True
    assert run_module.calls == ["GET %s7/" % PROJECTS, "PATCH %s7/" % PROJECTS]
    assert run_module.bodies("PATCH") == [{"name": "Website", "slack_incoming_webhook": "https://hooks.example/x"}]
    assert "https://hooks.example/x" not in str(result)
    assert result["diff"]["after"]["name"] == "Website"


def test_check_mode_predicts_without_writing(server, run_module):
    server.script((200, page(SUMMARY)), (200, WEB))
    result = run_module(project, dict(name="Web", timezone="Europe/Paris"), check=True)
    assert result["changed"] is True and result["project"]["timezone"] == "Europe/Paris"
    assert [c.split()[0] for c in run_module.calls] == ["GET", "GET"]


def test_delete_by_name_needs_confirmation_before_any_request(server, run_module):
    result = run_module(project, dict(name="Web", state="absent"))
    assert result["failed"] and "confirm_delete" in result["msg"] and "deletes all its data" in result["msg"]
    assert server.requests == []
    server.script((200, page(SUMMARY)), (200, WEB), (204, None))
    result = run_module(project, dict(name="Web", state="absent", confirm_delete=True))
    assert result["changed"] is True and result["project"] == {}
    assert run_module.calls[-1] == "DELETE %s7/" % PROJECTS


def test_delete_by_id_needs_no_confirmation(server, run_module):
    server.script((200, WEB), (204, None))
    result = run_module(project, dict(id="7", state="absent"))
    assert result["changed"] is True
    assert run_module.calls == ["GET %s7/" % PROJECTS, "DELETE %s7/" % PROJECTS]


def test_bad_options_fail_before_any_request(server, run_module):
    for args, message in ((dict(id="web", anonymize_ips=True), "id must be a project's numeric id"),
                          (dict(name="   "), "name must be 1 to 200 characters"),
                          (dict(name="Web", session_recording_sample_rate=1.5), "from 0 to 1"),
                          (dict(name="Web", session_recording_sample_rate=0.125), "at most two decimals"),
                          (dict(name="Web", session_recording_minimum_duration_milliseconds=40000), "0 to 30000")):
        result = run_module(project, args)
        assert result["failed"] and message in result["msg"], (args, result["msg"])
    assert server.requests == []


def test_plan_limit_is_explained(server, run_module):
    refusal = {"type": "authentication_error", "code": "permission_denied", "attr": None,
               "detail": "You have reached the maximum limit of allowed projects for your current plan. Upgrade your "
                         "plan to be able to create and manage more projects."}
    server.script((200, page()), (403, refusal))
    result = run_module(project, dict(name="Second"))
    assert result["failed"] and "organizations_projects" in result["msg"]
    assert result["error"]["status"] == 403


def test_info_lists_or_reads_the_match(server, run_module):
    server.script((200, page(SUMMARY, dict(SUMMARY, id=8, name="App"))))
    assert [p["id"] for p in run_module(project_info, {})["projects"]] == [7, 8]
    server.script((200, page(SUMMARY, dict(SUMMARY, id=8, name="App"))), (200, dict(WEB, id=8, name="App")))
    result = run_module(project_info, dict(name="app"))
    assert result["projects"][0]["app_urls"] == ["https://a.example"]
    assert run_module.calls[-1] == "GET %s8/" % PROJECTS
    server.script((404, {"detail": "Not found."}))
    assert run_module(project_info, dict(id="9"))["projects"] == []


@pytest.mark.parametrize("args", [dict(id="7"), dict(name="web")])
def test_info_masks_what_project_treats_as_secret(server, run_module, args):
    """project_info used to return the webhook (and PostHog's secret_api_token) as answered."""
    secret = dict(WEB, slack_incoming_webhook="https://hooks.example/T0/B0/xyz", secret_api_token="phs_0123456789",
                  secret_api_token_backup="phs_backup")
    server.script(*([] if "id" in args else [(200, page(SUMMARY))]) + [(200, secret)])
    result = run_module(project_info, args)
    found = result["projects"][0]
    assert found["slack_incoming_webhook"] == found["secret_api_token"] == found["secret_api_token_backup"]
    assert found["secret_api_token"] != "phs_0123456789" and found["app_urls"] == ["https://a.example"]
    for value in ("hooks.example/T0", "phs_0123456789", "phs_backup"):
        assert value not in str(result)


def test_project_masks_the_secret_api_token(server, run_module):
    server.script((200, dict(WEB, secret_api_token="phs_0123456789")))
    result = run_module(project, dict(id="7"))
    assert result["changed"] is False and "phs_0123456789" not in str(result)


ORG_PATH = "/api/organizations/@current/"


@pytest.mark.parametrize("features, existing, fails", [
    ([], [SUMMARY], True),                                                        # free plan: one project
    ([], [dict(SUMMARY, is_demo=True)], False),                                   # a demo project does not count
    ([{"key": "organizations_projects", "limit": 2}], [SUMMARY], False),
    ([{"key": "organizations_projects", "limit": 2}], [SUMMARY, dict(SUMMARY, id=8, name="App")], True),
    ([{"key": "organizations_projects", "limit": None}], [SUMMARY, dict(SUMMARY, id=8, name="App")], False),
])
def test_check_mode_fails_where_the_plan_has_no_room(server, run_module, features, existing, fails):
    """Check mode used to say "changed" for a project PostHog refuses (403) for real: it now reads the
    organization's available_product_features, as PostHog's PremiumMultiProjectPermission does."""
    server.script((200, page(*existing)), (200, {"id": "o", "available_product_features": features}))
    result = run_module(project, dict(name="Second"), check=True)
    assert run_module.calls == ["GET %s?limit=500" % PROJECTS, "GET " + ORG_PATH]
    if fails:
        lead = "creating project 'Second' would fail: PostHog would answer HTTP 403"
        assert result["failed"] and result["msg"].startswith(lead)
        assert "organizations_projects" in result["msg"]  # the same advice as the real run's
    else:
        assert result["changed"] is True and not result.get("failed")
