"""Shared fixtures. Settings come from ``DJANGO_SETTINGS_MODULE`` in pyproject.toml; every test
that uses the database runs in its own transaction, rolled back afterwards (a fresh database)."""

import os
from dataclasses import dataclass

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "posthog_emulator.settings")

import pytest  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from posthog_emulator import bootstrap, cache, generations, profiles, requestlog, responses  # noqa: E402
from posthog_emulator.models import Organization, Team, User  # noqa: E402

BOOTSTRAP_KEY = "phx_" + "b" * 40


@dataclass
class Boot:
    key: str
    user: User
    organization: Organization
    project: Team


@pytest.fixture(autouse=True)
def _clean_process_state():
    """Profile, generations, request log, bootstrap key and the caches live in process memory:
    reset them around each test (a test's rollback writes nothing the caches could see)."""
    _reset_process_state()
    yield
    _reset_process_state()


def _reset_process_state():
    from posthog_emulator.control.batch_exports import restore_settings

    restore_settings()
    profiles.set_profile("spec")
    generations.restore_defaults()
    requestlog.clear()
    cache.clear()
    responses.clear()


@pytest.fixture
def boot(db) -> Boot:
    """The bootstrap data, created with a known key."""
    raw, created = bootstrap.ensure_bootstrap(BOOTSTRAP_KEY)
    assert created and raw == BOOTSTRAP_KEY
    return Boot(
        key=raw,
        user=User.objects.get(email=bootstrap.BOOTSTRAP_EMAIL),
        organization=bootstrap.bootstrap_organization(),
        project=bootstrap.bootstrap_project(),
    )


@pytest.fixture
def client() -> APIClient:
    return APIClient()


@pytest.fixture
def api(boot):
    """An API client authenticated with the bootstrap key (owner of the bootstrap organization)."""
    return authed(boot.key)


def authed(key: str) -> APIClient:
    api_client = APIClient()
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    return api_client


@pytest.fixture
def make_key(boot, client):
    """Issue a key through the control API: ``make_key(email, **fields) -> (key, response json)``."""

    def make(email: str, **fields):
        response = client.post("/_emulator/keys", {"email": email, **fields}, format="json")
        assert response.status_code == 201, response.content
        body = response.json()
        return body["key"], body

    return make


def error(response) -> dict:
    """The error body, checked to have exactly PostHog's four keys."""
    body = response.json()
    assert set(body) == {"type", "code", "detail", "attr"}, body
    return body
