# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The modules of PostHog's newest API, on an older PostHog (the emulator's spec profile, which routes
none of them): each says that this PostHog has no such API, never a bare 404. (integration_info is not
one of them: PostHog's integrations API is older than the spec's version.)"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import (
    access_control,
    access_control_info,
    hog_function,
    hog_function_info,
    identity_provider_config,
    identity_provider_config_info,
)

CASES = [
    (access_control_info, dict(project_id="1"), "serves no access control"),
    (access_control, dict(project_id="1", access_level="member"), "serves no access control"),
    (hog_function_info, dict(project_id="1"), "serves no hog functions API"),
    (hog_function_info, dict(project_id="1", templates=True), "serves no hog functions API"),
    (hog_function, dict(project_id="1", name="Webhook", hog="return event"), "serves no hog functions API"),
    (identity_provider_config_info, dict(), "identity provider"),
    (identity_provider_config, dict(name="Okta", config_scope="oidc", domain_scope="all",
                                    oidc_issuer_url="https://okta.example", oidc_client_id="x"), "identity provider"),
]


pytestmark = pytest.mark.usefixtures("module_side")


IDS = ["%s %s" % (c[0].__name__.rsplit(".", 1)[-1], sorted(c[1])) for c in CASES]


@pytest.mark.parametrize("module, args, says", CASES, ids=IDS)
def test_a_newest_only_module_explains_an_older_posthog(run_live, live, module, args, says):
    live.control("PUT", "profile", {"profile": "spec"})
    try:
        result = run_live(module, args)
    finally:
        live.control("PUT", "profile", {"profile": "posthog"})
    assert result["failed"], result
    assert "404" in result["msg"] and says in result["msg"], result["msg"]
    assert result["msg"].split(": ")[-1] != "Endpoint not found.", result["msg"]
