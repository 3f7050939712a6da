# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.integration_info through main()."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules import integration_info
from ansible_collections.posthog.admin.tests.unit.conftest import page

AWS = {"id": 7, "kind": "aws-s3", "config": {"name": "acme-aws", "aws_account_id": "123456789012"},
       "display_name": "acme-aws (AWS account 123456789012)", "errors": "", "created_at": "2026-01-31T08:00:00Z"}
SLACK = {"id": 8, "kind": "slack", "config": {"team": {"name": "Acme"}}, "display_name": "Acme", "errors": ""}


def test_lists_a_projects_integrations_with_their_names(server, run_module):
    server.script((200, page(AWS, SLACK)))
    result = run_module(integration_info, dict(project_id="12"))
    assert not result["failed"] and result["changed"] is False
    assert run_module.calls[0].startswith("GET /api/projects/12/integrations/")
    assert [(i["id"], i["name"]) for i in result["integrations"]] == [(7, "acme-aws"), (8, "Acme")]


def test_kind_is_asked_of_posthog_and_name_matches_name_or_display_name(server, run_module):
    server.script((200, page(AWS)), (200, page(AWS)), (200, page(AWS)))
    result = run_module(integration_info, dict(kind="aws-s3", name="acme-aws"))
    assert "kind=aws-s3" in run_module.calls[0] and "/api/projects/@current/integrations/" in run_module.calls[0]
    assert [i["id"] for i in result["integrations"]] == [7]
    assert run_module(integration_info, dict(name="acme-aws (AWS account 123456789012)"))["integrations"][0]["id"] == 7
    assert run_module(integration_info, dict(name="other"))["integrations"] == []


def test_by_id_is_one_get_and_unknown_is_empty(server, run_module):
    server.script((200, AWS), (404, {"type": "invalid_request", "code": "not_found", "detail": "Not found."}))
    assert run_module(integration_info, dict(id="7"))["integrations"][0]["kind"] == "aws-s3"
    assert run_module(integration_info, dict(id="9"))["integrations"] == []
    assert run_module.calls == ["GET /api/projects/@current/integrations/7/", "GET /api/projects/@current/integrations/9/"]


def test_missing_scope_says_which(server, run_module):
    server.script((403, {"type": "authentication_error", "code": "permission_denied",
                         "detail": "API key missing required scope 'integration:read'"}))
    result = run_module(integration_info, dict())
    assert result["failed"] and "integration:read" in result["msg"]


def test_malformed_project_id_fails_without_a_request(server, run_module):
    result = run_module(integration_info, dict(project_id="first"))
    assert result["failed"] and "project_id must be a project's numeric id" in result["msg"]
    assert server.requests == []
