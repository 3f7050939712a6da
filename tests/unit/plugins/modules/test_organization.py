# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.organization through main()."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules import organization
from ansible_collections.posthog.admin.tests.unit.conftest import page

ACME = {"id": "0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f", "name": "Acme", "slug": "acme", "enforce_2fa": False}


def test_creates_with_the_settings_set(server, run_module):
    server.script((200, page()), (201, dict(ACME, enforce_2fa=True)))
    result = run_module(organization, dict(name="Acme", enforce_2fa=True))
    assert result["changed"] is True and not result["failed"]
    assert run_module.calls == ["GET /api/organizations/?limit=500", "POST /api/organizations/"]
    assert run_module.bodies("POST") == [{"name": "Acme", "enforce_2fa": True}]
    assert result["diff"] == {"before": {}, "after": {"name": "Acme", "enforce_2fa": True}}


def test_check_mode_reads_only_and_predicts(server, run_module):
    server.script((200, page(ACME)))
    result = run_module(organization, dict(name="Acme", enforce_2fa=True), check=True)
    assert result["changed"] is True
    assert run_module.calls == ["GET /api/organizations/?limit=500"]
    assert result["organization"]["enforce_2fa"] is True
    assert result["diff"]["before"] == {"name": "Acme", "enforce_2fa": False}


def test_idempotent_run_is_one_request(server, run_module):
    server.script((200, page(ACME)))
    result = run_module(organization, dict(name="Acme", enforce_2fa=False))
    assert result["changed"] is False
    assert len(server.requests) == 1


def test_rename_by_id_patches_only_what_differs(server, run_module):
    server.script((200, ACME), (200, dict(ACME, name="Acme Corp")))
    result = run_module(organization, dict(id=ACME["id"], name="Acme Corp", enforce_2fa=False))
    assert result["changed"] is True
    assert run_module.calls == ["GET /api/organizations/%s/" % ACME["id"], "PATCH /api/organizations/%s/" % ACME["id"]]
    assert run_module.bodies("PATCH") == [{"name": "Acme Corp"}]


def test_missing_id_is_not_created(server, run_module):
    server.script((404, {"type": "invalid_request", "code": "not_found", "detail": "Not found."}))
    result = run_module(organization, dict(id=ACME["id"], name="Acme"))
    assert result["failed"] and "not found; omit id" in result["msg"]
    assert run_module.calls == ["GET /api/organizations/%s/" % ACME["id"]]


def test_ambiguous_name_fails_before_writing(server, run_module):
    server.script((200, page(ACME, dict(ACME, id="0190a3f4-0000-7000-8000-000000000002"))))
    result = run_module(organization, dict(name="Acme", state="absent"))
    assert result["failed"] and "ambiguous" in result["msg"] and ACME["id"] in result["msg"]
    assert len(server.requests) == 1


def test_delete_and_delete_again(server, run_module):
    server.script((200, page(ACME)), (204, None))
    result = run_module(organization, dict(name="Acme", state="absent"))
    assert result["changed"] is True and result["organization"] == {}
    assert run_module.calls[-1] == "DELETE /api/organizations/%s/" % ACME["id"]
    server.script((200, page()))
    assert run_module(organization, dict(name="Acme", state="absent"))["changed"] is False


def test_garbage_create_answer_fails_saying_it_may_exist(server, run_module):
    server.script((200, page()), (201, "<html>ok</html>"))
    result = run_module(organization, dict(name="Acme"))
    assert result["failed"] and "unexpected answer to POST /api/organizations/ (HTTP 201" in result["msg"]
    assert "may have been created" in result["msg"] and "<html>" not in result["msg"]


def test_blank_name_fails_without_a_request(server, run_module):
    result = run_module(organization, dict(name="  "))
    assert result["failed"] and "1 to 64 characters" in result["msg"]
    assert server.requests == []
