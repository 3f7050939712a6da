# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""organization_state and organization_state_info through main(): one read per collection, the
document checked before any request, secrets in the document never printed, export -> apply."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json

import yaml

from ansible_collections.posthog.admin.plugins.modules import organization_state, organization_state_info
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import CHALLENGE, batch_export, domain, invite, member

ORG_ID = "0190a3f4-7b1e-7c3a-9d2f-00000000000a"
ORG = dict(id=ORG_ID, name="Acme", slug="acme", enforce_2fa=True, is_member_join_email_enabled=False,
           projects=[dict(id=7, name="Default project")])
BASE = "/api/organizations/%s/" % ORG_ID
SECRET = "a-secret-that-must-never-show"
S3 = dict(type="S3", config=dict(bucket_name="b", region="eu-west-1", prefix="p/"))


def document(**parts):
    doc = dict(name="Acme", settings=dict(enforce_2fa=True))
    doc.update(parts)
    return doc


def test_an_unchanged_document_reads_each_collection_once(server, run_module):
    server.script((200, page(ORG)), (200, page(domain())), (200, page(member("a@acme.example", 15))),
                  (200, page()), (200, page(batch_export(destination=S3))))
    owner = dict(email="a@acme.example", level="owner")
    doc = document(domains=[dict(domain="example.com")], roster=dict(people=[owner]),
                   batch_exports=[dict(name="Nightly", interval="day", destination=S3)])
    result = run_module(organization_state, dict(definition=doc))
    assert not result["failed"], result["msg"]
    assert result["changed"] is False and result["diff"] == []
    assert run_module.calls == ["GET /api/organizations/?limit=500", "GET %sdomains/?limit=500" % BASE,
                                "GET %smembers/?limit=500" % BASE, "GET %sinvites/?limit=500" % BASE,
                                "GET /api/projects/7/batch_exports/?limit=500"]
    assert result["sections"]["domains"] == dict(changed=False, unchanged=["domains[0] (domain 'example.com')"])
    # what the role's facts are made of: the default project, the TXT record still to publish
    assert result["project_id"] == "7" and result["cname_records"] == []
    assert result["dns_records"] == [dict(record_type="TXT", name="_posthog-challenge.example.com", value=CHALLENGE)]


def test_a_bad_document_fails_before_any_request_naming_every_problem(server, run_module):
    doc = document(colour="blue", domains=[dict(domain="a@b.c")], batch_exports=[
        dict(name="X", interval="fortnightly", destination=dict(type="Postgres", config=dict(password=SECRET)))])
    result = run_module(organization_state, dict(definition=doc))
    assert result["failed"] and server.requests == []
    assert "unknown key(s) colour" in result["msg"]
    assert "domains[0] (domain 'a@b.c'): domain 'a@b.c' looks like an e-mail address" in result["msg"]
    assert "batch_exports[0] (batch export 'X'): value of interval must be one of" in result["msg"]
    assert SECRET not in json.dumps(result)


def test_a_secret_echoed_by_posthog_is_masked(server, run_module):
    echo = {"type": "validation_error", "code": "invalid_input", "attr": "destination",
            "detail": "Invalid destination: {\"password\": \"%s\"}" % SECRET}
    server.script((200, page(ORG)), (200, page()), (400, echo))
    doc = document(batch_exports=[dict(name="New", interval="day", destination=dict(
        type="Postgres", config=dict(user="u", password=SECRET, host="h", database="d")))])
    result = run_module(organization_state, dict(definition=doc))
    assert result["failed"] and "batch_exports[0] (batch export 'New')" in result["msg"]
    assert SECRET not in json.dumps(result)


def test_prune_removes_what_the_document_does_not_list(server, run_module):
    other = domain(id="d2", domain="old.example.com")
    server.script((200, page(ORG)), (200, page(domain(), other)), (200, other), (204, None))
    result = run_module(organization_state, dict(definition=document(domains=[dict(domain="example.com")]),
                                                 prune=True))
    assert not result["failed"], result["msg"]
    assert result["sections"]["domains"]["deleted"] == ["domains (domain 'old.example.com', not in the document)"]
    assert run_module.calls[-1] == "DELETE %sdomains/d2/" % BASE


def test_prune_covers_the_batch_exports_of_every_project(server, run_module):
    """The document's exports go through each project's route (PostHog's newest API has no other):
    prune lists each project once, keeps what the document names, and removes the rest."""
    org = dict(ORG, projects=[dict(id=7, name="Default project"), dict(id=9, name="Other")])
    kept = batch_export(team_id=7)
    stray = batch_export(id="0190a3f4-7b1e-7c3a-9d2f-0000000000e9", name="Stray", team_id=9)
    server.script((200, page(org)), (200, page(kept)), (200, page(stray)), (200, stray))
    result = run_module(organization_state, dict(definition=document(batch_exports=[
        dict(name="Nightly", interval="day", destination=dict(type="NoOp"))]), prune=True), check=True)
    assert not result["failed"], result["msg"]
    assert result["changed"] is True
    assert result["sections"]["batch_exports"]["unchanged"] == ["batch_exports[0] (batch export 'Nightly')"]
    assert result["sections"]["batch_exports"]["deleted"] == [
        "batch_exports (batch export 'Stray', not in the document)"]
    assert [c for c in run_module.calls if "batch_exports" in c] == [
        "GET /api/projects/7/batch_exports/?limit=500", "GET /api/projects/9/batch_exports/?limit=500",
        "GET /api/projects/9/batch_exports/%s/" % stray["id"]]


def test_a_document_for_a_new_organization_in_check_mode_predicts_everything(server, run_module):
    # the organization list, and the key's own user: PostHog makes them the new organization's owner
    me = dict(uuid="0190a3f4-0000-7000-8000-000000000009", email="me@new.example")
    server.script((200, page()), (200, me))
    doc = document(name="New org", domains=[dict(domain="example.com")],
                   roster=dict(people=[dict(email="a@new.example"), dict(email="me@new.example", level="owner")]))
    result = run_module(organization_state, dict(definition=doc), check=True)
    assert not result.get("failed"), result.get("msg")
    assert result["changed"] is True and [r["path"] for r in server.requests] == [
        "/api/organizations/?limit=500", "/api/users/@me/"]
    assert result["sections"]["domains"]["created"] == ["domains[0] (domain 'example.com')"]
    assert result["sections"]["roster"]["invited"] == ["a@new.example"]  # not its owner, who is a member already


def test_export_writes_commented_yaml_that_reads_back_as_the_document(server, run_module, tmp_path):
    exports = [batch_export(destination=S3)]
    viewers = dict(id="r1", name="Viewers", members=[dict(user=dict(email="a@acme.example"))])
    server.script((200, dict(ORG, default_role_id="r1")), (200, page(dict(id=7, name="Default project"))),
                  (200, dict(id=7, name="Default project", timezone="UTC", anonymize_ips=False,
                             slack_incoming_webhook="https://hooks.example/secret")),
                  (200, page(viewers)), (200, page(domain(verified=True), domain(id="d2", domain="new.example"))),
                  (200, page(dict(id="i1", name="Okta", config_scope="oidc", domain_scope="selected",
                                  organization_domain_ids=["d1"], oidc_issuer_url="https://acme.okta.example",
                                  oidc_client_id="posthog", has_oidc_client_secret=True, scim_enabled=False,
                                  saml_entity_id=None, id_jag_allowed_clients=[]))),
                  (200, page(member("a@acme.example", 15), member("bot@posthogbot.user"))),
                  (200, page(invite("b@acme.example", 8))),
                  (200, dict(access_controls=[])), (200, dict(access_controls=[])),  # project 7's two lists
                  (200, page(dict(id="p1", domain="t.acme.example", status="valid"),
                             dict(id="p2", domain="e.acme.example", status="waiting", target_cname="p2.proxy.example"))),
                  (200, page()),  # integrations
                  (200, page(*exports)), (200, page()),  # hog functions
                  (200, page()), (200, page()), (200, page()), (200, page()),
                  (200, page()),  # property groups
                  (200, page(dict(id="e1", name="signed_up", description="A sign-up", tags=[]),
                             dict(id="e2", name="noise"))),
                  (200, page()), (200, page()))  # event and person property definitions
    dest = tmp_path / "acme.yml"
    result = run_module(organization_state_info, dict(organization=ORG_ID, dest=str(dest)))
    assert not result["failed"], result["msg"]
    doc = result["definition"]
    assert doc["roster"]["people"] == [dict(email="a@acme.example", level="owner"),
                                       dict(email="b@acme.example", level="admin")]
    assert doc["domains"] == [dict(domain="example.com", state="verified", jit_provisioning_enabled=False),
                              dict(domain="new.example", state="present")]  # SSO settings wait for verification
    assert doc["identity_provider_configs"] == [dict(
        name="Okta", config_scope="oidc", domain_scope="selected", domains=["example.com"],
        oidc_issuer_url="https://acme.okta.example", oidc_client_id="posthog", scim_enabled=False)]
    assert doc["batch_exports"][0]["destination"] == S3
    assert doc["event_definitions"] == [dict(name="signed_up", description="A sign-up")]  # the first project: no project_id
    assert doc["projects"] == [dict(name="Default project", timezone="UTC", anonymize_ips=False)]
    assert doc["roles"] == [dict(name="Viewers", members=["a@acme.example"], purge=True)] and doc["default_role"] == "Viewers"
    assert doc["proxy_records"] == [dict(domain="t.acme.example"), dict(domain="e.acme.example")]
    assert "hooks.example" not in json.dumps(result)
    text = dest.read_text()
    assert yaml.safe_load(text) == doc and result["changed"] is True
    assert "# destination.config also takes aws_access_key_id, aws_secret_access_key" in text
    assert "# slack_incoming_webhook is set; it is a secret" in text
    # what a person must do by hand: publish DNS records, add the secrets PostHog never returns
    comments = " ".join(line.strip()[2:] for line in text.splitlines() if line.strip().startswith("# "))
    assert "not verified yet: publish the TXT record _posthog-challenge.new.example = %s" % CHALLENGE in comments
    assert "not live yet (waiting): publish the CNAME record e.acme.example -> p2.proxy.example" in comments
    assert "  # oidc_client_secret is set; PostHog never returns it" in text
    assert any("domain 'new.example': not verified yet" in note for note in result["notes"])


def test_export_names_the_integration_an_export_writes_with(server, run_module):
    """PostHog's newest API keeps credentials in an integration: the export names it (by its name,
    which finds it in any organization) and carries the newest settings; nothing secret is needed."""
    newest = batch_export(destination=dict(type="AwsS3", integration=41, config=dict(
        bucket_name="b", region="eu-west-1", prefix="p/")), timezone="Europe/Berlin", offset_hour=2, filters=[])
    server.script((200, ORG), (200, page()), (200, page()), (200, page()), (200, page()), (200, page()),
                  (200, page()), (200, dict(access_controls=[])), (200, dict(access_controls=[])),
                  (200, page()),
                  (200, page(dict(id=41, kind="aws-s3", config=dict(name="acme-aws")),
                             dict(id=42, kind="aws-s3", config=dict(name="other")))),
                  (200, page(newest)),  # the integrations were read already (one request)
                  (200, page()),  # hog functions
                  (200, page()), (200, page()), (200, page()), (200, page()), (200, page()), (200, page()),
                  (200, page()), (200, page()))
    result = run_module(organization_state_info, dict(organization=ORG_ID))
    assert not result["failed"], result["msg"]
    assert run_module.calls.count("GET /api/projects/7/integrations/?limit=500") == 1
    assert result["definition"]["integrations"] == [dict(kind="aws-s3", name="acme-aws"), dict(kind="aws-s3", name="other")]
    assert result["definition"]["batch_exports"] == [dict(
        name="Nightly", state="present", model="events", interval="day", timezone="Europe/Berlin", offset_hour=2,
        destination=dict(type="AwsS3", integration="acme-aws",
                         config=dict(bucket_name="b", prefix="p/", region="eu-west-1")))]
    assert not any("batch export" in note for note in result["notes"])


def test_the_export_leaves_out_every_destination_secret_a_server_echoes(server, run_module):
    echoed = batch_export(name="Leaky", destination=dict(type="S3", config=dict(
        bucket_name="b", region="eu-west-1", prefix="p/", aws_access_key_id="AKIA-ECHOED",
        aws_secret_access_key=SECRET, password=SECRET, private_key=SECRET, token=SECRET)))
    server.script((200, ORG), (200, page()), (200, page()), (200, page()), (200, page()), (200, page()),
                  (200, page()), (200, dict(access_controls=[])), (200, dict(access_controls=[])),
                  (200, page()), (200, page()), (200, page(echoed)), (200, page()),  # then hog functions, plugins
                  (200, page()), (200, page()), (200, page()),
                  (200, page()), (200, page()), (200, page()), (200, page()), (200, page()))
    result = run_module(organization_state_info, dict(organization=ORG_ID))
    assert not result["failed"], result["msg"]
    assert result["definition"]["batch_exports"][0]["destination"]["config"] == dict(
        bucket_name="b", region="eu-west-1", prefix="p/")
    assert SECRET not in json.dumps(result["definition"]) and "AKIA-ECHOED" not in json.dumps(result["definition"])
