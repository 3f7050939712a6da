# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.domain through main(): create, SSO settings, the verify flow (retries, refusals,
lost answers), PostHog's newest domain API without SAML, and the domains list."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.module_utils._domain import Domain
from ansible_collections.posthog.admin.plugins.modules import domain
from ansible_collections.posthog.admin.tests.unit.conftest import Clock, page
from ansible_collections.posthog.admin.tests.unit.objects import CHALLENGE, ORG, newest_domain, refusal
from ansible_collections.posthog.admin.tests.unit.objects import domain as domain_obj

DOMAINS = ORG + "domains/"
LIST = "GET %s?limit=500" % DOMAINS
VERIFY = "POST %sd1/verify/" % DOMAINS
RECORD = "_posthog-challenge.example.com"


@pytest.fixture
def clock(monkeypatch):
    """The verify loop's clock and sleep, faked: sleeping moves the clock, nothing waits."""
    fake = Clock()
    monkeypatch.setattr(Domain, "clock", staticmethod(fake))
    monkeypatch.setattr(Domain, "sleep", staticmethod(fake.sleep))
    return fake


def verified(**fields):
    return domain_obj(verified=True, **fields)


# ------------------------------------------------------------------------------ present / absent
def test_create_sends_the_domain_and_saml_only(server, run_module):
    server.script((200, page()), (201, domain_obj(saml_entity_id="e")))
    result = run_module(domain, dict(domain="Example.COM.", saml_entity_id="e"))
    assert result["changed"] is True and not result["failed"]
    assert run_module.calls == [LIST, "POST " + DOMAINS]
    assert run_module.bodies("POST") == [{"domain": "example.com", "saml_entity_id": "e"}]
    assert result["domain"]["verification"] == dict(record_type="TXT", name=RECORD, value=CHALLENGE)
    assert result["diff"] == {"before": {}, "after": {"domain": "example.com", "saml_entity_id": "e"}}


def test_check_mode_create_predicts_the_whole_object(server, run_module):
    server.script((200, page()))
    result = run_module(domain, dict(domain="example.com", saml_entity_id="e"), check=True)
    assert result["changed"] is True and run_module.calls == [LIST]
    assert result["domain"]["is_verified"] is False and result["domain"]["saml_entity_id"] == "e"
    assert result["domain"]["verification"] == dict(record_type="TXT", name=RECORD, value=None)
    assert result["diff"]["after"] == {"domain": "example.com", "saml_entity_id": "e"}


@pytest.mark.parametrize("answer, args", [
    (domain_obj(), dict(sso_enforcement="", jit_provisioning_enabled=False)),  # the defaults need no verification
    (newest_domain(), dict()),                                                 # no SAML fields: nothing to compare
    (verified(sso_enforcement="saml"), dict(state="verified", sso_enforcement="saml")),
])
def test_a_converged_domain_is_one_request(server, run_module, answer, args):
    server.script((200, page(answer)))
    result = run_module(domain, dict(args, domain="example.com"))
    assert result["changed"] is False and len(server.requests) == 1


def test_absent_deletes_then_finds_nothing(server, run_module):
    server.script((200, page(domain_obj())), (204, None), (200, page()))
    result = run_module(domain, dict(domain="example.com", state="absent"))
    assert result["changed"] is True and result["domain"] == {}
    assert result["diff"]["before"] == {"domain": "example.com"}
    assert run_module(domain, dict(domain="example.com", state="absent"))["changed"] is False
    assert run_module.calls == [LIST, "DELETE %sd1/" % DOMAINS, LIST]


@pytest.mark.parametrize("args, words", [
    (dict(domain="admin@example.com"), "looks like an e-mail address; give only the part after the @"),
    (dict(domain="nodot"), "is not a domain name PostHog accepts"),
    (dict(domain="example.com", sso_enforcement="x" * 29), "sso_enforcement is at most 28 characters"),
    (dict(domain="example.com", verify_timeout=-1), "verify_timeout must be 0 or more seconds"),
    (dict(domain="example.com", verify_interval=0), "verify_interval must be at least 1 second"),
])
def test_bad_options_fail_before_any_request(run_module, args, words):
    assert words in run_module.refuses(domain, args)


def test_an_unknown_sso_provider_warns(server, run_module):
    server.script((200, page(verified())), (200, verified(sso_enforcement="okta")))
    result = run_module(domain, dict(domain="example.com", sso_enforcement="okta"))
    assert result["changed"] is True and run_module.bodies("PATCH") == [{"sso_enforcement": "okta"}]
    assert "'okta' is not a login method PostHog knows" in result["warnings"][0]


def test_sso_on_an_unverified_domain_fails_with_the_record_before_writing(server, run_module):
    server.script((200, page(domain_obj())))
    result = run_module(domain, dict(domain="example.com", sso_enforcement="saml", saml_entity_id="e"))
    assert result["failed"] and "can only be set once the domain is verified" in result["msg"]
    assert "publish the DNS TXT record %s with the value %s" % (RECORD, CHALLENGE) in result["msg"]
    assert result["domain"]["verification"]["value"] == CHALLENGE and run_module.calls == [LIST]


def test_sso_on_a_new_domain_says_to_verify_it_first(server, run_module):
    server.script((200, page()))
    result = run_module(domain, dict(domain="example.com", jit_provisioning_enabled=True))
    assert result["failed"] and "run with state=verified: it creates the domain" in result["msg"]
    assert result["domain"] == {} and run_module.calls == [LIST]


@pytest.mark.parametrize("state", [
    "verified",
    "absent",
])
def test_an_id_with_another_domain_name_fails(server, run_module, state):
    server.script((200, verified()), (204, None))
    result = run_module(domain, dict(id="d1", domain="other.com", state=state))
    assert result["failed"] and "domain 'other.com'" in result["msg"]
    assert run_module.calls == ["GET %sd1/" % DOMAINS]


# ------------------------------------------------------------------------------------ verifying
def test_verified_verifies_then_patches_the_sso_settings(server, run_module, clock):
    server.script((200, page(domain_obj())), (200, verified()), (200, verified(sso_enforcement="saml")))
    result = run_module(domain, dict(domain="example.com", state="verified", sso_enforcement="saml"))
    assert result["changed"] is True and clock.sleeps == []
    assert run_module.calls == [LIST, VERIFY, "PATCH %sd1/" % DOMAINS]
    assert run_module.bodies("PATCH") == [{"sso_enforcement": "saml"}]
    assert result["diff"]["before"]["is_verified"] is False and result["diff"]["after"]["is_verified"] is True


def test_verified_in_check_mode_does_not_ask_posthog_to_verify(server, run_module):
    server.script((200, page(domain_obj())))
    result = run_module(domain, dict(domain="example.com", state="verified", jit_provisioning_enabled=True),
                        check=True)
    assert result["changed"] is True and run_module.calls == [LIST]
    assert result["domain"]["is_verified"] is True and result["domain"]["jit_provisioning_enabled"] is True
    assert result["diff"]["after"] == {"domain": "example.com", "jit_provisioning_enabled": True, "is_verified": True}


def test_verify_is_asked_again_until_the_record_is_seen(server, run_module, clock):
    server.script((200, page(domain_obj())), (200, domain_obj()), (200, domain_obj()), (200, verified()))
    result = run_module(domain, dict(domain="example.com", state="verified"))
    assert result["changed"] is True and result["domain"]["is_verified"] is True
    assert clock.sleeps == [5, 5] and run_module.calls == [LIST] + [VERIFY] * 3


def test_verify_gives_up_within_verify_timeout_with_the_record(server, run_module, clock):
    server.script(*([(200, page(domain_obj()))] + [(200, domain_obj())] * 3))
    result = run_module(domain, dict(domain="example.com", state="verified", verify_timeout=10, verify_interval=5))
    assert result["failed"] and "did not find the record after 3 attempts in 10 s" in result["msg"]
    assert "Publish the DNS TXT record %s with the value %s" % (RECORD, CHALLENGE) in result["msg"]
    assert result["verification"]["value"] == CHALLENGE and clock.sleeps == [5, 5]
    assert "changed" not in result


def test_a_new_domain_is_verified_once_and_the_failure_says_it_was_created(server, run_module, clock):
    server.script((200, page()), (201, domain_obj()), (200, domain_obj()))
    result = run_module(domain, dict(domain="example.com", state="verified"))
    assert result["failed"] and result["changed"] is True and result["msg"].startswith("Created domain 'example.com'")
    assert "it was just created, so its TXT record cannot be published yet" in result["msg"]
    assert run_module.calls == [LIST, "POST " + DOMAINS, VERIFY] and clock.sleeps == []


@pytest.mark.parametrize("answer", [(200, domain_obj()),
                                    (403, refusal("This action does not support Personal API Key access"))])
def test_the_failure_after_creating_reads_as_a_sentence(server, run_module, clock, answer):
    server.script((200, page()), (201, domain_obj()), answer)
    result = run_module(domain, dict(domain="example.com", state="verified"))
    assert result["msg"].startswith("Created domain 'example.com'; it is not verified")


def test_posthog_refusing_api_keys_the_verify_is_explained_not_retried(server, run_module, clock):
    server.script((200, page(domain_obj())), (403, refusal("This action does not support Personal API Key access")))
    result = run_module(domain, dict(domain="example.com", state="verified"))
    assert result["failed"] and "PostHog does not let a personal API key verify a domain" in result["msg"]
    assert "Only a logged-in admin can, in the PostHog web app" in result["msg"] and CHALLENGE in result["msg"]
    assert result["verification"]["name"] == RECORD and result["error"]["status"] == 403
    assert run_module.calls == [LIST, VERIFY]


def test_a_domain_verified_meanwhile_is_read_back(server, run_module, clock):
    already = {"type": "validation_error", "code": "already_verified",
               "detail": "This domain has already been verified.", "attr": None}
    server.script((200, page(domain_obj())), (400, already), (200, verified()))
    result = run_module(domain, dict(domain="example.com", state="verified"))
    assert result["changed"] is True and result["domain"]["is_verified"] is True
    assert run_module.calls == [LIST, VERIFY, "GET %sd1/" % DOMAINS]


@pytest.mark.parametrize("lost, calls", [
    # 502: PostHog may have verified it; reading the domain shows it did, so it is not asked again.
    ((502, "bad gateway"), [VERIFY, "GET %sd1/" % DOMAINS]),
    # 500 and still unverified after: asking PostHog to verify again is harmless.
    ((500, {"detail": "A server error occurred."}), [VERIFY, "GET %sd1/" % DOMAINS, VERIFY]),
])
def test_a_lost_verify_answer_is_read_back_not_failed(server, run_module, clock, lost, calls):
    read_back = verified() if lost[0] == 502 else domain_obj()
    server.script((200, page(domain_obj())), lost, (200, read_back), (200, verified()))
    result = run_module(domain, dict(domain="example.com", state="verified"))
    assert result["changed"] is True and result["domain"]["is_verified"] is True, result.get("msg")
    assert run_module.calls == [LIST] + calls


# --------------------------------------------------------------- the newest PostHog: no SAML on domains
@pytest.mark.parametrize("state", ["present", "verified"])
def test_saml_on_an_existing_domain_of_the_newest_api_fails_before_writing(server, run_module, state):
    server.script((200, page(newest_domain(verified=True))))
    result = run_module(domain, dict(domain="example.com", state=state, saml_entity_id="e", saml_x509_cert="pem"))
    assert result["failed"] and "has no saml_entity_id, saml_x509_cert" in result["msg"]
    assert "identity_provider_config" in result["msg"] and "the domain was left as it was" in result["msg"]
    assert result["domain"]["id"] == "d1" and run_module.calls == [LIST]


def test_saml_on_a_new_domain_is_judged_by_the_other_domains(server, run_module):
    server.script((200, page(newest_domain(id="d0", domain="other.com"))))
    result = run_module(domain, dict(domain="example.com", saml_acs_url="u"))
    assert result["failed"] and "it was not created" in result["msg"]
    assert "domain" not in result and run_module.calls == [LIST]


def test_saml_on_the_first_domain_says_what_it_created(server, run_module):
    server.script((200, page()), (201, newest_domain()))
    result = run_module(domain, dict(domain="example.com", saml_acs_url="u"))
    assert result["failed"] and result["changed"] is True and result["domain"]["id"] == "d1"
    assert result["msg"].startswith("Created domain 'example.com', but without its SAML settings")
    assert run_module.calls == [LIST, "POST " + DOMAINS]


# ------------------------------------------------------------------------------------------ list
def test_a_list_reads_the_domains_once_and_verifies_one(server, run_module, clock):
    other = domain_obj(id="d2", domain="other.com")
    server.script((200, page(domain_obj(), other)), (200, verified()), (201, domain_obj(id="d3", domain="new.com")))
    items = [dict(domain="example.com", state="verified"), dict(domain="Other.com"), dict(domain="new.com")]
    result = run_module(domain, dict(domains=items))
    assert result["changed"] is True and not result["failed"]
    assert run_module.calls == [LIST, VERIFY, "POST " + DOMAINS]
    assert [d["id"] for d in result["domains"]] == ["d1", "d2", "d3"]
    assert [d["before_header"] for d in result["diff"]] == [
        "domains[0] (domain 'example.com')", "domains[2] (domain 'new.com')"]
