# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""An info module never prints a value its state module treats as secret, even when a server answers
it (issue 24: project_info printed the project's webhook; batch_export_info, identity_provider_config_info
and hog_function_info printed whatever secret a server echoed). PostHog itself answers none of these
on a read; the answer is untrusted all the same."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._resource import SECRET_MASK
from ansible_collections.posthog.admin.plugins.modules import batch_export_info, hog_function, hog_function_info
from ansible_collections.posthog.admin.plugins.modules import identity_provider_config, identity_provider_config_info
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import batch_export

ORG = "0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f"
FID = "0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f"
SCHEMA = [{"key": "site_id", "type": "string", "secret": False}, {"key": "token", "type": "string", "secret": True},
          {"key": "api_key", "type": "string", "secret": True}]
FUNCTION = {"id": FID, "type": "destination", "name": "CIO", "enabled": True, "inputs_schema": SCHEMA,
            "inputs": {"site_id": {"value": "site-1"}, "token": {"value": "hog-secret-token-1", "order": 1},
                       "api_key": {"secret": True}},
            "encrypted_inputs": "hog-encrypted-blob-1"}
S3 = {"type": "S3", "config": {"bucket_name": "b", "region": "eu", "aws_access_key_id": "AKIAECHOED00001",
                               "aws_secret_access_key": "s3-secret-echoed-1"}}
IDP = {"id": "0190a3f4-0000-7000-8000-0000000000c1", "name": "Okta", "config_scope": "oidc",
       "oidc_client_secret": "oidc-secret-echoed-1", "scim_bearer_token": "scim-token-echoed-1",
       "oidc_client_id": "client-1"}

CASES = [
    (batch_export_info, dict(organization=ORG), page(batch_export(destination=S3)), "batch_exports",
     ["s3-secret-echoed-1", "AKIAECHOED00001"]),
    (identity_provider_config_info, dict(organization=ORG), page(IDP), "identity_provider_configs",
     ["oidc-secret-echoed-1", "scim-token-echoed-1"]),
    (hog_function_info, dict(project_id="7"), page(FUNCTION), "hog_functions",
     ["hog-secret-token-1", "hog-encrypted-blob-1"]),
]


@pytest.mark.parametrize("module, args, answer, key, secrets", CASES, ids=[c[3] for c in CASES])
def test_an_echoed_secret_is_never_printed(server, run_module, module, args, answer, key, secrets):
    server.script((200, answer))
    result = run_module(module, args)
    assert not result.get("failed"), result
    assert len(result[key]) == 1
    for secret in secrets:
        assert secret not in str(result), secret
    assert SECRET_MASK in str(result)


def test_what_is_not_secret_is_shown_as_answered(server, run_module):
    server.script((200, page(FUNCTION)))
    found = run_module(hog_function_info, dict(project_id="7"))["hog_functions"][0]
    assert found["inputs"]["site_id"] == {"value": "site-1"}
    assert found["inputs"]["token"] == {"value": SECRET_MASK, "order": 1}
    assert found["inputs"]["api_key"] == {"secret": True}  # PostHog's own marker, as answered
    server.script((200, page(IDP)))
    config = run_module(identity_provider_config_info, dict(organization=ORG))["identity_provider_configs"][0]
    assert config["oidc_client_id"] == "client-1" and config["oidc_client_secret"] == SECRET_MASK
    server.script((200, page(batch_export(destination=S3))))
    export = run_module(batch_export_info, dict(organization=ORG))["batch_exports"][0]
    assert export["destination"]["config"]["bucket_name"] == "b"


def test_the_state_module_masks_an_echoed_secret_it_was_not_given(server, run_module):
    """hog_function returns the function as read: a stored secret value a server echoed, which the task did
    not give (so no_log cannot know it), is masked as hog_function_info masks it."""
    server.script((200, page(FUNCTION)))
    result = run_module(hog_function, dict(project_id="7", name="CIO"))
    assert not result.get("failed") and result["changed"] is False, result
    assert result["hog_function"]["inputs"]["token"]["value"] == SECRET_MASK
    for secret in ("hog-secret-token-1", "hog-encrypted-blob-1"):
        assert secret not in str(result)


def test_identity_provider_config_masks_an_echoed_client_secret_it_was_not_given(server, run_module):
    server.script((200, page(IDP)))
    result = run_module(identity_provider_config, dict(organization=ORG, name="Okta"))
    assert not result.get("failed") and result["changed"] is False, result
    assert result["identity_provider_config"]["oidc_client_secret"] == SECRET_MASK
    assert "oidc-secret-echoed-1" not in str(result)
