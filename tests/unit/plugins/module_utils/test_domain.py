# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Domain rules: name checks, the verification record, the verify loop and the state flows."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogClient, PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._domain import (
    Domain,
    domain_problem,
    is_api_key_refusal,
    normalise_domain,
    settings_problems,
    unsupported_saml,
    verification_record,
    wait_for_verification,
    with_verification,
)

CHALLENGE = "c" * 43
DOMAINS = "/api/organizations/@current/domains/"


class Failed(Exception):
    def __init__(self, msg, extra):
        super(Failed, self).__init__(msg)
        self.extra = extra


class Exited(Exception):
    def __init__(self, result):
        super(Exited, self).__init__("exit")
        self.result = result


class TaskStub:
    def __init__(self, server, params, check_mode=False):
        self.client = PostHogClient(host=server.url, api_key="phx_k", sleep=lambda s: None)
        self.params = params
        self.check_mode = check_mode
        self.diff_mode = True

    def org_path(self, *parts):
        return "/api/organizations/@current/%s/" % "/".join(parts)

    def fail(self, msg, **extra):
        raise Failed(str(msg), extra)

    def exit(self, **result):
        raise Exited(result)


class Clock:
    """A fake monotonic clock that sleeping moves forward."""

    def __init__(self):
        self.now = 100.0
        self.sleeps = []

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.sleeps.append(seconds)
        self.now += seconds


def page(*items):
    return {"count": len(items), "next": None, "previous": None, "results": list(items)}


def domain_obj(verified=False, **fields):
    obj = dict(id="d1", domain="example.com", is_verified=verified, verified_at="2026-01-01T00:00:00Z" if verified else None,
               verification_challenge=CHALLENGE, jit_provisioning_enabled=False, sso_enforcement="", has_saml=False,
               saml_entity_id=None, saml_acs_url=None, saml_x509_cert=None)
    obj.update(fields)
    return obj


def make(server, check_mode=False, clock=None, **params):
    base = dict(state="present", id=None, domain="example.com", jit_provisioning_enabled=None, sso_enforcement=None,
                saml_entity_id=None, saml_acs_url=None, saml_x509_cert=None, verify_timeout=60, verify_interval=5)
    base.update(params)
    clock = clock or Clock()
    return Domain(TaskStub(server, base, check_mode=check_mode), clock=clock, sleep=clock.sleep)


def run(resource):
    with pytest.raises(Exited) as info:
        resource.run()
    return info.value.result


def fail(resource):
    with pytest.raises(Failed) as info:
        resource.run()
    return info.value


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
    assert verification_record(domain_obj()) == dict(record_type="TXT", name="_posthog-challenge.example.com",
                                                     value=CHALLENGE)
    assert verification_record({"domain": "new.example.com"})["value"] is None
    shaped = with_verification(domain_obj())
    assert shaped["verification"]["name"] == "_posthog-challenge.example.com"
    assert with_verification({}) == {}


def test_is_api_key_refusal():
    assert is_api_key_refusal(PostHogError("x", status=403, detail="This action does not support Personal API Key access"))
    assert is_api_key_refusal(PostHogError("x", status=403, detail="This action does not support personal API key access"))
    assert not is_api_key_refusal(PostHogError("x", status=403, detail="Your organization access level is insufficient."))
    assert not is_api_key_refusal(PostHogError("x", status=400, detail="personal API key access"))


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


# ------------------------------------------------------------------------ state flows


def test_create_sends_domain_and_saml_only(server):
    server.script((200, page()), (201, domain_obj(saml_entity_id="e")))
    result = run(make(server, saml_entity_id="e"))
    assert result["changed"] is True
    assert [r["method"] for r in server.requests] == ["GET", "POST"]
    assert json.loads(server.requests[1]["body"]) == {"domain": "example.com", "saml_entity_id": "e"}
    assert result["domain"]["verification"]["value"] == CHALLENGE


def test_check_mode_create_predicts_the_whole_object(server):
    server.script((200, page()))
    result = run(make(server, check_mode=True, saml_entity_id="e"))
    assert result["changed"] is True and result["domain"]["is_verified"] is False
    assert result["domain"]["verification"] == dict(record_type="TXT", name="_posthog-challenge.example.com", value=None)
    assert [r["method"] for r in server.requests] == ["GET"]


def test_sso_on_unverified_domain_fails_before_writing(server):
    server.script((200, page(domain_obj())))
    failure = fail(make(server, sso_enforcement="saml", saml_entity_id="e"))
    assert "verified" in str(failure) and CHALLENGE in str(failure)
    assert failure.extra["domain"]["verification"]["value"] == CHALLENGE
    assert [r["method"] for r in server.requests] == ["GET"]


def test_sso_defaults_on_unverified_domain_are_fine(server):
    server.script((200, page(domain_obj())))
    assert run(make(server, sso_enforcement="", jit_provisioning_enabled=False))["changed"] is False


def test_verified_flow_verifies_then_patches(server):
    server.script((200, page(domain_obj())), (200, domain_obj(verified=True)),
                  (200, domain_obj(verified=True, sso_enforcement="saml")))
    result = run(make(server, state="verified", sso_enforcement="saml"))
    assert result["changed"] is True
    assert [(r["method"], r["path"]) for r in server.requests] == [
        ("GET", DOMAINS + "?limit=500"), ("POST", DOMAINS + "d1/verify/"), ("PATCH", DOMAINS + "d1/")]
    assert json.loads(server.requests[2]["body"]) == {"sso_enforcement": "saml"}
    assert result["diff"]["before"]["is_verified"] is False and result["diff"]["after"]["is_verified"] is True


def test_verified_flow_retries_until_the_record_is_seen(server):
    server.script((200, page(domain_obj())), (200, domain_obj()), (200, domain_obj()), (200, domain_obj(verified=True)))
    clock = Clock()
    result = run(make(server, state="verified", clock=clock))
    assert result["changed"] is True and clock.sleeps == [5, 5]


def test_verified_flow_fails_with_the_record(server):
    server.script(*([(200, page(domain_obj()))] + [(200, domain_obj())] * 3))
    failure = fail(make(server, state="verified", verify_timeout=10, verify_interval=5))
    assert "3 attempts" in str(failure) and "_posthog-challenge.example.com" in str(failure)
    assert failure.extra["verification"]["value"] == CHALLENGE


def test_verified_flow_on_a_new_domain_tries_once(server):
    server.script((200, page()), (201, domain_obj()), (200, domain_obj()))
    failure = fail(make(server, state="verified"))
    assert "Created domain" in str(failure) and "just created" in str(failure)
    assert [r["method"] for r in server.requests] == ["GET", "POST", "POST"]


def test_verified_flow_explains_the_api_key_refusal(server):
    refusal = {"type": "authentication_error", "code": "permission_denied",
               "detail": "This action does not support Personal API Key access", "attr": None}
    server.script((200, page(domain_obj())), (403, refusal))
    failure = fail(make(server, state="verified"))
    assert "web app" in str(failure) and CHALLENGE in str(failure)
    assert len(server.requests) == 2  # not retried


def test_verified_meanwhile_is_read_back(server):
    already = {"type": "validation_error", "code": "already_verified",
               "detail": "This domain has already been verified.", "attr": None}
    server.script((200, page(domain_obj())), (400, already), (200, domain_obj(verified=True)))
    assert run(make(server, state="verified"))["changed"] is True
    assert [r["method"] for r in server.requests] == ["GET", "POST", "GET"]


def test_verify_answer_lost_after_success_is_read_back_not_failed(server):
    # 502 on the verify POST: PostHog may have verified it. The module reads the domain instead of failing.
    server.script((200, page(domain_obj())), (502, "bad gateway"), (200, domain_obj(verified=True)),
                  (200, domain_obj(verified=True, sso_enforcement="saml")))
    result = run(make(server, state="verified", sso_enforcement="saml"))
    assert result["changed"] is True and result["domain"]["is_verified"] is True
    assert [(r["method"], r["path"]) for r in server.requests] == [
        ("GET", DOMAINS + "?limit=500"), ("POST", DOMAINS + "d1/verify/"), ("GET", DOMAINS + "d1/"),
        ("PATCH", DOMAINS + "d1/")]


def test_verify_failing_transiently_is_asked_again(server):
    # 500 and still unverified: asking PostHog to verify again is harmless, so the POST is repeated.
    server.script((200, page(domain_obj())), (500, {"detail": "A server error occurred."}), (200, domain_obj()),
                  (200, domain_obj(verified=True)))
    result = run(make(server, state="verified"))
    assert result["changed"] is True and result["domain"]["is_verified"] is True
    assert [r["method"] for r in server.requests] == ["GET", "POST", "GET", "POST"]


def test_verified_check_mode_does_not_call_verify(server):
    server.script((200, page(domain_obj())))
    result = run(make(server, check_mode=True, state="verified", jit_provisioning_enabled=True))
    assert result["changed"] is True and result["domain"]["jit_provisioning_enabled"] is True
    assert [r["method"] for r in server.requests] == ["GET"]


def test_verified_and_converged_is_one_request(server):
    server.script((200, page(domain_obj(verified=True, sso_enforcement="saml"))))
    assert run(make(server, state="verified", sso_enforcement="saml"))["changed"] is False
    assert len(server.requests) == 1


def test_id_with_another_domain_name_fails(server):
    server.script((200, domain_obj(verified=True)))
    failure = fail(make(server, state="verified", id="d1", domain="other.com"))
    assert "cannot be changed after creation" in str(failure)


# ---------------------------------------------------- the newest PostHog: no SAML on the domain


def newest_obj(**fields):
    """A domain as PostHog's newest domain API answers: no SAML or SCIM columns (facts 2)."""
    obj = domain_obj(**fields)
    for name in ("saml_entity_id", "saml_acs_url", "saml_x509_cert"):
        obj.pop(name, None)
    obj.update(has_scim=False, scim_base_url=None, has_id_jag=False, identity_provider_config=None)
    return obj


def test_unsupported_saml_names_only_the_asked_fields_the_domain_lacks():
    assert unsupported_saml(newest_obj(), {"saml_acs_url": "u", "sso_enforcement": "saml"}) == ["saml_acs_url"]
    assert unsupported_saml(newest_obj(), {"sso_enforcement": "saml"}) == []
    assert unsupported_saml(domain_obj(), {"saml_acs_url": "u", "saml_entity_id": ""}) == []
    assert unsupported_saml(None, {"saml_acs_url": "u"}) == []


def test_newest_api_without_saml_converges_as_before(server):
    server.script((200, page(newest_obj())))
    assert run(make(server))["changed"] is False
    assert len(server.requests) == 1


@pytest.mark.parametrize("state", ["present", "verified"])
def test_newest_api_saml_on_existing_domain_fails_before_writing(server, state):
    server.script((200, page(newest_obj(verified=True))))
    failure = fail(make(server, state=state, saml_entity_id="e", saml_x509_cert="pem"))
    assert "has no saml_entity_id, saml_x509_cert" in str(failure)
    assert "identity_provider_config" in str(failure) and "left as it was" in str(failure)
    assert failure.extra["domain"]["id"] == "d1"
    assert [r["method"] for r in server.requests] == ["GET"]


def test_newest_api_saml_on_new_domain_is_judged_by_the_other_domains(server):
    server.script((200, page(newest_obj(id="d0", domain="other.com"))))
    failure = fail(make(server, saml_acs_url="u"))
    assert "it was not created" in str(failure) and "domain" not in failure.extra
    assert [r["method"] for r in server.requests] == ["GET"]


def test_newest_api_saml_on_the_first_domain_says_what_it_created(server):
    server.script((200, page()), (201, newest_obj()))
    failure = fail(make(server, saml_acs_url="u"))
    assert str(failure).startswith("Created domain 'example.com', but without its SAML settings")
    assert failure.extra["changed"] is True and failure.extra["domain"]["id"] == "d1"
    assert [r["method"] for r in server.requests] == ["GET", "POST"]


def test_a_failure_after_creating_says_it_changed(server):
    server.script((200, page()), (201, domain_obj()), (200, domain_obj()))
    assert fail(make(server, state="verified")).extra["changed"] is True
