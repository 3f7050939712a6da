# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.hog_function through main() against a live emulator: check mode of a play whose
earlier task creates the function a later task changes."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import hog_function

CREATE = dict(project_id="1", name="Customer.io", template_id="template-customerio", enabled=True,
              inputs=dict(site_id="a1b2c3", host="track-eu.customer.io"),
              secret_inputs=dict(token="example-customerio-api-key-1"))
ROTATE = dict(project_id="1", name="Customer.io", secret_inputs=dict(token="example-customerio-api-key-2"),
              update_secrets="always")


pytestmark = pytest.mark.usefixtures("module_side")


def test_check_mode_assumes_an_earlier_task_creates_the_function_a_task_changes(run_live, live):
    """The module's own example: one task makes Customer.io from PostHog's template, the next rotates its
    token. In check mode the first only predicts, so the second meets no function: it says what it
    assumes and predicts the change, as the real run (which fails if nothing made the function) cannot."""
    for args in (CREATE, ROTATE):
        result = run_live(hog_function, args, check=True)
        assert not result["failed"], result["msg"]
        assert result["changed"] is True
        assert "example-customerio-api-key" not in repr(result)
    assert [w for w in result["warnings"] if "does not exist yet" in w and "earlier task" in w], result["warnings"]
    assert live.requests == []
    alone = run_live(hog_function, ROTATE)
    assert alone["failed"] and "give template_id or hog" in alone["msg"], alone
    for args in (CREATE, ROTATE):
        result = run_live(hog_function, args)
        assert not result["failed"], result["msg"]
        assert result["changed"] is True and not [w for w in result["warnings"] if "does not exist yet" in w]
