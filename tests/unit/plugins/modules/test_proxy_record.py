# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.proxy_record and proxy_record_info through main(), against the scripted server."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.module_utils import _proxy_record
from ansible_collections.posthog.admin.plugins.modules import proxy_record, proxy_record_info

RECORDS = "/api/organizations/@current/proxy_records/"
RID = "0190a3f4-0000-7000-8000-0000000000c1"
WAITING = {"id": RID, "domain": "e.acme.example", "target_cname": "abc.proxy.example", "status": "waiting",
           "message": None}


def listed(*records):
    return {"results": list(records), "max_proxy_records": 2}


def test_create_returns_the_cname_to_publish(server, run_module):
    server.script((200, listed()), (201, WAITING))
    result = run_module(proxy_record, dict(domain="E.Acme.Example."))
    assert not result["failed"], result["msg"]
    assert result["changed"] is True
    assert run_module.bodies("POST") == [{"domain": "e.acme.example"}]
    assert result["proxy_record"]["dns_record"] == dict(record_type="CNAME", name="e.acme.example",
                                                        value="abc.proxy.example")


def test_unchanged_is_one_request_and_waiting_for_a_valid_record_reads_nothing_more(server, run_module):
    server.script((200, listed(dict(WAITING, status="valid", message=""))))
    result = run_module(proxy_record, dict(domain="e.acme.example", wait=True))
    assert result["changed"] is False and result["proxy_record"]["status"] == "valid"
    assert len(server.requests) == 1


def test_wait_reads_until_valid_and_is_not_a_change(server, run_module):
    server.script((200, listed(WAITING)), (200, dict(WAITING, status="issuing")), (200, dict(WAITING, status="valid")))
    sleeps = []
    real = _proxy_record.ProxyRecord.sleep
    _proxy_record.ProxyRecord.sleep = staticmethod(sleeps.append)
    try:
        result = run_module(proxy_record, dict(domain="e.acme.example", wait=True, wait_interval=2))
    finally:
        _proxy_record.ProxyRecord.sleep = real
    assert not result["failed"], result["msg"]
    assert result["changed"] is False and result["proxy_record"]["status"] == "valid"
    assert run_module.calls == ["GET %s?limit=500" % RECORDS, "GET %s%s/" % (RECORDS, RID), "GET %s%s/" % (RECORDS, RID)]
    assert sleeps == [2]


def test_wait_fails_with_posthogs_status_and_message(server, run_module):
    server.script((200, listed(WAITING)), (200, dict(WAITING, status="erroring", message="create_managed_proxy: boom")))
    result = run_module(proxy_record, dict(domain="e.acme.example", wait=True))
    assert result["failed"] and "is erroring" in result["msg"] and "create_managed_proxy: boom" in result["msg"]
    assert result["proxy_record"]["status"] == "erroring" and result["dns_record"]["value"] == "abc.proxy.example"


def test_wait_times_out_naming_the_cname(server, run_module):
    server.script((200, listed(WAITING)), (200, WAITING))
    result = run_module(proxy_record, dict(domain="e.acme.example", wait=True, wait_timeout=0))
    assert result["failed"] and "still waiting" in result["msg"]
    assert "e.acme.example" in result["msg"] and "abc.proxy.example" in result["msg"]


def test_a_record_being_deleted_counts_as_absent(server, run_module):
    server.script((200, listed(dict(WAITING, status="deleting"))))
    result = run_module(proxy_record, dict(domain="e.acme.example", state="absent"))
    assert result["changed"] is False and len(server.requests) == 1
    server.script((200, listed(dict(WAITING, status="deleting"))))
    result = run_module(proxy_record, dict(domain="e.acme.example"))
    assert result["failed"] and "still being deleted" in result["msg"]
    assert [c.split()[0] for c in run_module.calls] == ["GET", "GET"]
    server.script((200, dict(WAITING, status="deleting")))
    result = run_module(proxy_record, dict(id=RID, state="absent"))
    assert result["changed"] is False


def test_delete_answers_200_with_a_body(server, run_module):
    server.script((200, listed(dict(WAITING, status="valid"))), (200, {"success": True}))
    result = run_module(proxy_record, dict(domain="e.acme.example", state="absent"))
    assert result["changed"] is True and result["proxy_record"] == {}
    assert run_module.calls[-1] == "DELETE %s%s/" % (RECORDS, RID)


def test_limit_is_explained_and_bad_domains_fail_first(server, run_module):
    server.script((200, listed()), (400, {"detail": "Maximum of 2 proxy records per organization."}))
    result = run_module(proxy_record, dict(domain="f.acme.example"))
    assert result["failed"] and "managed_reverse_proxy" in result["msg"]
    before = len(server.requests)
    for domain in ("https://e.acme.example", "e" * 70 + ".example", "no spaces.example", ""):
        result = run_module(proxy_record, dict(domain=domain))
        assert result["failed"], domain
    assert len(server.requests) == before


def test_info_filters_by_domain(server, run_module):
    other = dict(WAITING, id="0190a3f4-0000-7000-8000-0000000000c2", domain="f.acme.example")
    server.script((200, listed(WAITING, other)))
    result = run_module(proxy_record_info, dict(domain="F.acme.example"))
    assert [r["domain"] for r in result["proxy_records"]] == ["f.acme.example"]
    assert result["proxy_records"][0]["dns_record"]["name"] == "f.acme.example"
