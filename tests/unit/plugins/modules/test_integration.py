# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.integration through main() against a live emulator (profile posthog): credentials
created once and never read back, named kinds that cannot change, connection kinds replaced in place,
PostHog's checks made before any request, and deletions an export depends on refused first."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import batch_export, integration

KEYS = dict(aws_access_key_id="AKIAUNITTESTKEY00001", aws_secret_access_key="unit-test-secret-0001")
LOGIN = dict(host="warehouse.acme.example", port=5432, user="posthog_export", password="warehouse-pass-0001")


pytestmark = pytest.mark.usefixtures("module_side")


def integrations(live):
    return live.api("GET", "/api/projects/1/integrations/")["results"]


def test_aws_keys_are_created_once_never_returned_and_never_compared(run_live, live):
    args = dict(project_id="1", kind="aws-s3", name="acme-aws", config=KEYS)
    check = run_live(integration, args, check=True)
    assert not check["failed"], check["msg"]
    assert check["changed"] is True and live.requests == []
    assert check["integration"]["name"] == "acme-aws" and check["integration"]["id"] is None
    real = run_live(integration, args)
    assert not real["failed"], real["msg"]
    assert real["changed"] is True and live.requests == ["POST /api/projects/1/integrations/"]
    assert real["integration"]["display_name"] == "acme-aws (AWS account 123456789012)"
    assert real["diff"]["after"]["config"] == dict((k, "VALUE_SPECIFIED_IN_NO_LOG_PARAMETER") for k in KEYS)
    stored = live.control("GET", "integrations/%s" % real["integration"]["id"])
    assert stored["sensitive_config"] == KEYS  # the secrets arrived
    live.forget()
    again = run_live(integration, dict(args, config=dict(KEYS, aws_secret_access_key="another")))
    assert again["changed"] is False and live.requests == []
    for result in (check, real, again):
        assert "unit-test-secret-0001" not in repr(result) and "AKIAUNITTESTKEY00001" not in repr(result)


def test_a_named_kind_cannot_change_and_cannot_rotate(run_live, live):
    run_live(integration, dict(project_id="1", kind="s3-compatible", name="r2", config=dict(
        KEYS, endpoint_url="https://r2.acme.example")))
    live.forget()
    moved = run_live(integration, dict(project_id="1", kind="s3-compatible", name="r2", config=dict(
        endpoint_url="https://r2-eu.acme.example")))
    assert moved["failed"] and "endpoint_url cannot be changed" in moved["msg"] and live.requests == []
    rotate = run_live(integration, dict(project_id="1", kind="s3-compatible", name="r2", config=KEYS,
                                        update_secrets="always"))
    assert rotate["failed"] and "create a new integration under another name" in rotate["msg"]
    assert live.requests == []


def test_a_login_is_named_by_its_connection_and_replaced_in_place(run_live, live):
    """posthog/models/integration/postgres.py: kept by the login, posted again to change it (same id)."""
    created = run_live(integration, dict(project_id="1", kind="postgresql", config=LOGIN))
    assert not created["failed"], created["msg"]
    assert created["integration"]["name"] == "posthog_export@warehouse.acme.example:5432"
    live.forget()
    same = run_live(integration, dict(project_id="1", kind="postgresql", config=dict(LOGIN, password="other")))
    assert same["changed"] is False and live.requests == []
    tighter = dict(LOGIN, ssl_mode="verify-full", ssl_root_cert="-----BEGIN CERTIFICATE-----")
    changed = run_live(integration, dict(project_id="1", kind="postgresql", config=tighter))
    assert not changed["failed"], changed["msg"]
    assert changed["changed"] and live.requests == ["POST /api/projects/1/integrations/"]
    assert changed["integration"]["id"] == created["integration"]["id"]
    assert changed["diff"]["before"]["config"]["ssl_mode"] == "require"
    assert changed["diff"]["after"]["config"]["ssl_mode"] == "verify-full"
    without = dict(tighter, ssl_mode="require")
    without.pop("password")
    refused = run_live(integration, dict(project_id="1", kind="postgresql", config=without))
    assert refused["failed"] and "give config.password too" in refused["msg"]
    live.forget()
    rotated = run_live(integration, dict(project_id="1", kind="postgresql", config=tighter, update_secrets="always"))
    assert rotated["changed"] and live.requests == ["POST /api/projects/1/integrations/"]
    assert live.control("GET", "integrations/%s" % created["integration"]["id"])["sensitive_config"] == {
        "password": "warehouse-pass-0001"}
    assert "warehouse-pass-0001" not in repr(rotated)


@pytest.mark.parametrize("args, words", [
    (dict(kind="slack", name="Acme"), "in its web app (Project settings > Integrations)"),
    (dict(kind="snowflake", name="sf", config=dict(account="https://acme", user="u", password="p")),
     "invalid account identifier 'https://acme'"),
    (dict(kind="aws-s3", name="role", config=dict(aws_role_arn="arn:aws:iam::1:role/x")), "AWS role ARN is not valid"),
    (dict(kind="postgresql", config=dict(LOGIN, host="127.0.0.1")), "Provided host '127.0.0.1' is not valid"),
    (dict(kind="databricks", config=dict(server_hostname="https://dbc.cloud.databricks.com", client_id="c",
                                         client_secret="s")), "should not be a full URL"),
    (dict(kind="aws-s3", name="x", config=dict(KEYS, endpoint_url="https://s3.example")),
     "config has key(s) integrations of kind aws-s3 do not take: endpoint_url"),
    (dict(name="nameless"), "kind is required"),
])  # fmt: skip
def test_posthog_checks_are_made_before_any_request(run_live, live, args, words):
    result = run_live(integration, dict(args, project_id="1"))
    assert result["failed"] and words in result["msg"], result
    assert live.all_requests == []


def test_create_needs_what_posthog_needs(run_live, live):
    result = run_live(integration, dict(project_id="1", kind="snowflake", name="sf", config=dict(account="acme-eu")))
    assert result["failed"] and "Password is required for password authentication" in result["msg"]
    assert "config.user is required" in result["msg"] and live.requests == []


def test_deleting_keys_an_export_uses_is_refused_before_any_write(run_live, live):
    live.control("PUT", "profile", {"profile": "posthog"})
    keys = run_live(integration, dict(project_id="1", kind="aws-s3", name="acme-aws", config=KEYS))
    export = run_live(batch_export, dict(project_id="1", name="To S3", interval="hour", destination=dict(
        type="AwsS3", integration="acme-aws", config=dict(bucket_name="b", region="eu-west-1", prefix="e/"))))
    assert not export["failed"], export["msg"]
    assert export["batch_export"]["destination"]["integration"] == keys["integration"]["id"]
    live.forget()
    refused = run_live(integration, dict(project_id="1", kind="aws-s3", name="acme-aws", state="absent"))
    assert refused["failed"] and "This integration is used by batch exports: To S3" in refused["msg"]
    assert live.requests == []
    run_live(batch_export, dict(project_id="1", name="To S3", state="absent"))
    gone = run_live(integration, dict(project_id="1", kind="aws-s3", name="acme-aws", state="absent"))
    assert not gone["failed"] and gone["changed"] and integrations(live) == []


def test_many_integrations_in_one_list(run_live, live):
    items = [dict(kind="aws-s3", name="acme-aws", config=KEYS), dict(kind="postgresql", config=LOGIN),
             dict(kind="databricks", config=dict(server_hostname="dbc-1.cloud.databricks.com", client_id="cid",
                                                 client_secret="csecret"))]
    first = run_live(integration, dict(project_id="1", integrations=items))
    assert not first["failed"], first["msg"]
    assert [i["name"] for i in first["integrations"]] == [
        "acme-aws", "posthog_export@warehouse.acme.example:5432", "dbc-1.cloud.databricks.com"]
    live.forget()
    again = run_live(integration, dict(project_id="1", integrations=items))
    assert again["changed"] is False and live.requests == []
    assert [r["path"] for r in live.all_requests] == ["/api/projects/1/integrations/"]
    twice = run_live(integration, dict(project_id="1", integrations=[items[0], dict(items[0])]))
    assert twice["failed"] and "name the same object" in twice["msg"]
