"""Limit/offset envelopes (spec 2.1, docs/posthog_facts.md §0.3): DRF's LimitOffsetPagination, page size
100, no cap."""

from urllib.parse import parse_qs, urlsplit

import pytest

from posthog_emulator.models import Organization, OrganizationMembership


@pytest.fixture
def many_orgs(boot):
    """150 organizations in total for the bootstrap user, created cheaply in bulk."""
    orgs = Organization.objects.bulk_create(
        [Organization(name=f"Org {i:03d}", slug=f"org-{i:03d}") for i in range(149)]
    )
    OrganizationMembership.objects.bulk_create(
        [OrganizationMembership(organization=org, user=boot.user, level=1) for org in orgs]
    )
    return 150


def query(url: str) -> dict:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def test_envelope_default_page_of_100_with_absolute_links(api, many_orgs):
    body = api.get("/api/organizations/").json()
    assert list(body) == ["count", "next", "previous", "results"]
    assert body["count"] == many_orgs
    assert len(body["results"]) == 100
    assert body["previous"] is None
    assert body["next"] == "http://testserver/api/organizations/?limit=100&offset=100"

    second = api.get(body["next"]).json()
    assert len(second["results"]) == 50
    assert second["next"] is None
    # previous drops offset entirely when it would be 0
    assert second["previous"] == "http://testserver/api/organizations/?limit=100"
    ids = [o["id"] for o in body["results"] + second["results"]]
    assert len(set(ids)) == many_orgs


def test_limit_and_offset(api, many_orgs):
    body = api.get("/api/organizations/?limit=10&offset=20").json()
    assert len(body["results"]) == 10
    assert query(body["next"]) == {"limit": "10", "offset": "30"}
    assert query(body["previous"]) == {"limit": "10", "offset": "10"}
    everything = api.get("/api/organizations/?limit=1000").json()  # no maximum
    assert len(everything["results"]) == many_orgs and everything["next"] is None


def test_other_query_parameters_are_kept_in_sorted_order(api, many_orgs):
    body = api.get("/api/organizations/?zeta=1&limit=5&alpha=2").json()
    assert body["next"] == "http://testserver/api/organizations/?alpha=2&limit=5&offset=5&zeta=1"


@pytest.mark.parametrize("limit", ["abc", "0", "-5", ""])
def test_invalid_limit_falls_back_to_100(api, many_orgs, limit):
    body = api.get(f"/api/organizations/?limit={limit}").json()
    assert len(body["results"]) == 100


def test_invalid_offset_falls_back_to_0(api, many_orgs):
    first = api.get("/api/organizations/?limit=3").json()["results"]
    assert api.get("/api/organizations/?limit=3&offset=bad").json()["results"] == first


def test_next_link_uses_the_host_the_server_sees(api, many_orgs, settings):
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "emulator.local"]  # serve --allowed-host emulator.local
    body = api.get("/api/organizations/", HTTP_HOST="emulator.local:8010").json()
    assert body["next"].startswith("http://emulator.local:8010/api/organizations/?")
