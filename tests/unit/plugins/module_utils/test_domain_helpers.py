# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Domain rules as pure functions: name checks, the verification record, the verify loop, SAML
support. The state flows run through the module: tests/unit/plugins/modules/test_domain.py."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._domain import (
    domain_problem,
    normalise_domain,
    settings_problems,
    unsupported_saml,
    verification_record,
    wait_for_verification,
    with_verification,
)
from ansible_collections.posthog.admin.tests.unit.conftest import Clock
from ansible_collections.posthog.admin.tests.unit.objects import CHALLENGE, domain, newest_domain

# ------------------------------------------------------------------------ pure helpers


@pytest.mark.parametrize("given, expected", [
    ("Example.COM", "example.com"), (" login.example.com. ", "login.example.com"), (None, None),
])
def test_normalise_domain(given, expected):
    assert normalise_domain(given) == expected


@pytest.mark.parametrize("value", ["example.com", "a-b.example.co.uk", "x1.io"])
def test_domain_problem_accepts_valid_names(value):
    assert domain_problem(value) is None


@pytest.mark.parametrize("value, words", [
    ("", "empty"),
    ("admin@example.com", "e-mail address"),
    ("one.two.c", "not a domain name"),
    ("--alpha.com", "not a domain name"),
    ("nodot", "not a domain name"),
    ("a" * 125 + ".com", "at most 128"),
    ("ex_ample.com", "not a domain name"),
])
def test_domain_problem_explains(value, words):
    assert words in domain_problem(value)


def test_settings_problems():
    assert settings_problems(dict(sso_enforcement="google-oauth2", saml_entity_id="x")) == []
    problems = settings_problems(dict(sso_enforcement="x" * 29, saml_acs_url="u" * 513))
    assert len(problems) == 2 and "28 characters" in problems[0] and "saml_acs_url" in problems[1]


def test_verification_record_and_shape():
    assert verification_record(domain()) == dict(
        record_type="TXT", name="_posthog-challenge.example.com", value=CHALLENGE)
    assert verification_record({"domain": "new.example.com"})["value"] is None
    shaped = with_verification(domain())
    assert shaped["verification"]["name"] == "_posthog-challenge.example.com"
    assert with_verification({}) == {}


@pytest.mark.parametrize("status, detail, refuses", [
    (403, "This action does not support Personal API Key access", True),
    (403, "This action does not support personal API key access", True),
    (403, "Your organization access level is insufficient.", False),
    (400, "personal API key access", False),
    (403, None, False),
])
def test_refuses_api_keys(status, detail, refuses):
    assert PostHogError("x", status=status, detail=detail).refuses_api_keys is refuses


def test_wait_stops_as_soon_as_verified():
    clock = Clock()
    answers = iter([{"is_verified": False}, {"is_verified": False}, {"is_verified": True}])
    obj, attempts, _seconds = wait_for_verification(lambda: next(answers), 60, 5, clock=clock, sleep=clock.sleep)
    assert obj["is_verified"] is True and attempts == 3 and clock.sleeps == [5, 5]


def test_wait_is_bounded_by_the_timeout():
    clock = Clock()
    obj, attempts, seconds = wait_for_verification(lambda: {"is_verified": False}, 12, 5, clock=clock, sleep=clock.sleep)
    assert obj["is_verified"] is False
    assert attempts == 3 and clock.sleeps == [5, 5] and seconds == 10  # a third sleep would end past 12 s


def test_wait_with_zero_timeout_tries_once():
    clock = Clock()
    _obj, attempts, _seconds = wait_for_verification(lambda: {"is_verified": False}, 0, 5, clock=clock, sleep=clock.sleep)
    assert attempts == 1 and clock.sleeps == []


# ---------------------------------------------------- the newest PostHog: no SAML on the domain


def test_unsupported_saml_names_only_the_asked_fields_the_domain_lacks():
    assert unsupported_saml(newest_domain(), {"saml_acs_url": "u", "sso_enforcement": "saml"}) == ["saml_acs_url"]
    assert unsupported_saml(newest_domain(), {"sso_enforcement": "saml"}) == []
    assert unsupported_saml(domain(), {"saml_acs_url": "u", "saml_entity_id": ""}) == []
    assert unsupported_saml(None, {"saml_acs_url": "u"}) == []
