# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.domain_info through main(): the list, the domain filter and the GET by id; and the
organization option every organization-scoped module takes (a slug, a name or @current)."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import domain_info
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import CHALLENGE, NOT_FOUND, ORG, domain

DOMAINS = ORG + "domains/"


def test_lists_every_domain_with_its_txt_record(server, run_module):
    server.script((200, page(domain(), domain(id="d2", domain="other.com"))))
    result = run_module(domain_info, dict())
    assert result["changed"] is False and run_module.calls == ["GET %s?limit=500" % DOMAINS]
    assert [(d["domain"], d["verification"]["name"]) for d in result["domains"]] == [
        ("example.com", "_posthog-challenge.example.com"), ("other.com", "_posthog-challenge.other.com")]


def test_the_domain_filter_is_normalised_like_the_domain(server, run_module):
    server.script((200, page(domain(), domain(id="d2", domain="other.com"))))
    result = run_module(domain_info, dict(domain=" Other.COM. "))
    assert [d["id"] for d in result["domains"]] == ["d2"]


def test_an_id_is_one_get_and_a_missing_one_is_an_empty_list(server, run_module):
    server.script((200, domain()), (404, NOT_FOUND))
    result = run_module(domain_info, dict(id="d1"))
    assert result["domains"][0]["verification"]["value"] == CHALLENGE
    assert run_module(domain_info, dict(id="gone"))["domains"] == []
    assert run_module.calls == ["GET %sd1/" % DOMAINS, "GET %sgone/" % DOMAINS]


@pytest.mark.parametrize("organization, found", [("acme", "o1"), ("Beta", "o2"), (" @current ", "@current")])
def test_the_organization_is_a_slug_a_name_or_the_current_one(server, run_module, organization, found):
    orgs = page(dict(id="o1", name="Acme", slug="acme"), dict(id="o2", name="Beta", slug="beta"))
    server.script(*([] if found == "@current" else [(200, orgs)]) + [(200, page(domain()))])
    assert run_module(domain_info, dict(organization=organization))["domains"][0]["id"] == "d1"
    assert run_module.calls[-1] == "GET /api/organizations/%s/domains/?limit=500" % found


@pytest.mark.parametrize("organization, words", [
    ("Acme", "organization 'Acme' is ambiguous: 2 organizations have that name (o1 (slug acme), o2 (slug acme-eu))"),
    ("gone", "organization 'gone' not found: none of the 2 organizations this API key can see has that slug or name"),
])
def test_an_organization_that_names_none_or_several_fails_before_its_own_requests(server, run_module, organization,
                                                                                  words):
    server.script((200, page(dict(id="o1", name="Acme", slug="acme"), dict(id="o2", name="Acme", slug="acme-eu"))))
    result = run_module(domain_info, dict(organization=organization))
    assert result["failed"] and words in result["msg"] and run_module.calls == ["GET /api/organizations/?limit=500"]
