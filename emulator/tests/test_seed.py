"""``POST /_emulator/seed/organizations``: bulk seeding for load tests and the benchmark."""

import pytest

from posthog_emulator.models import Organization, OrganizationMembership, Team

from .conftest import error

SEED = "/_emulator/seed/organizations"


def test_seeds_organizations_listed_like_created_ones(boot, client, api):
    response = client.post(SEED, {"count": 25, "prefix": "Load org"}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["created"] == 25
    assert body["first"]["name"] == "Load org 0001" and body["first"]["slug"] == "load-org-0001"
    assert body["last"]["name"] == "Load org 0025"
    assert Organization.objects.filter(name__startswith="Load org").count() == 25
    seeded = Organization.objects.get(slug="load-org-0007")
    assert list(seeded.teams.values_list("name", flat=True)) == ["Default project"]
    assert OrganizationMembership.objects.get(organization=seeded, user=boot.user).level == 15
    # The API lists them for the member, with their project and the caller's level.
    listed = api.get("/api/organizations/", {"limit": 100}).json()
    assert listed["count"] == 26
    one = next(org for org in listed["results"] if org["slug"] == "load-org-0007")
    assert one["membership_level"] == 15 and len(one["projects"]) == 1
    # The user's current organization did not move.
    boot.user.refresh_from_db()
    assert boot.user.current_organization_id == boot.organization.id


def test_seed_for_another_user_and_level(boot, client, make_key):
    make_key("dev@example.com")
    response = client.post(SEED, {"count": 3, "prefix": "Dev", "email": "dev@example.com", "level": "member"},
                           format="json")
    assert response.status_code == 201, response.content
    seeded = OrganizationMembership.objects.filter(organization__name__startswith="Dev ")
    levels = seeded.values_list("level", flat=True)
    assert sorted(levels) == [1, 1, 1]
    assert not OrganizationMembership.objects.filter(organization__name__startswith="Dev ", user=boot.user).exists()


@pytest.mark.parametrize(
    "payload, attr",
    [
        ({}, "count"),
        ({"count": 0}, "count"),
        ({"count": 10001}, "count"),
        ({"count": True}, "count"),
        ({"count": "5"}, "count"),
        ({"count": 2, "prefix": " "}, "prefix"),
        ({"count": 2, "prefix": "x" * 70}, "prefix"),
        ({"count": 2, "prefix": 5}, "prefix"),
        ({"count": 2, "email": "nobody@example.com"}, "email"),
        ({"count": 2, "level": "boss"}, "level"),
    ],
)
def test_bad_input_creates_nothing(boot, client, payload, attr):
    response = client.post(SEED, payload, format="json")
    assert response.status_code == 400
    assert error(response)["attr"] == attr
    assert Organization.objects.count() == 1


def test_existing_names_are_refused_as_a_whole(boot, client):
    assert client.post(SEED, {"count": 2, "prefix": "Twice"}, format="json").status_code == 201
    response = client.post(SEED, {"count": 3, "prefix": "Twice"}, format="json")
    assert response.status_code == 400
    assert error(response)["attr"] == "prefix"
    assert Organization.objects.filter(name__startswith="Twice").count() == 2
    assert Team.objects.count() == 3


def test_only_post(boot, client):
    response = client.get(SEED)
    assert response.status_code == 405
    assert response["Allow"] == "POST"


def test_the_default_member_is_the_bootstrap_user(boot, client, monkeypatch):
    """One source for the bootstrap address: seeding follows bootstrap.BOOTSTRAP_EMAIL."""
    from posthog_emulator import bootstrap
    from posthog_emulator.control import seed

    assert not hasattr(seed, "DEFAULT_EMAIL")
    monkeypatch.setattr(seed, "BOOTSTRAP_EMAIL", "someone-else@example.com")
    response = client.post("/_emulator/seed/organizations", {"count": 1}, format="json")
    assert response.status_code == 400 and response.json()["attr"] == "email"  # no such user: it was followed
    monkeypatch.setattr(seed, "BOOTSTRAP_EMAIL", bootstrap.BOOTSTRAP_EMAIL)
    assert client.post("/_emulator/seed/organizations", {"count": 1}, format="json").status_code == 201
