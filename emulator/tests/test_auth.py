"""Authentication with personal API keys (docs/posthog_facts.md §0.4, §0.5)."""

from django.utils import timezone

from posthog_emulator.models import PersonalAPIKey, hash_key_value
from tests.conftest import authed, error


def test_missing_credentials_is_401_not_authenticated(boot, client):
    response = client.get("/api/organizations/")
    assert response.status_code == 401
    assert error(response) == {
        "type": "authentication_error",
        "code": "not_authenticated",
        "detail": "Authentication credentials were not provided.",
        "attr": None,
    }
    # The hog-handler does not copy DRF's WWW-Authenticate header (faithful to PostHog).
    assert "WWW-Authenticate" not in response.headers


def test_invalid_key_is_401_authentication_failed(boot):
    response = authed("phx_unknown").get("/api/organizations/")
    assert response.status_code == 401
    assert error(response) == {
        "type": "authentication_error",
        "code": "authentication_failed",
        "detail": "Personal API key found in request Authorization header is invalid.",
        "attr": None,
    }


def test_non_bearer_authorization_header_counts_as_missing(boot, client):
    response = client.get("/api/organizations/", HTTP_AUTHORIZATION=f"Token {boot.key}")
    assert response.status_code == 401
    assert error(response)["code"] == "not_authenticated"


def test_key_in_query_string_and_body(boot, client):
    assert client.get(f"/api/organizations/?personal_api_key={boot.key}").status_code == 200
    response = client.get("/api/organizations/?personal_api_key=phx_nope")
    assert error(response)["detail"] == "Personal API key found in request query string is invalid."
    response = client.post("/api/organizations/", {"personal_api_key": "phx_nope", "name": "x"}, format="json")
    assert response.status_code == 401
    assert error(response)["detail"] == "Personal API key found in request body is invalid."
    response = client.post("/api/organizations/", {"personal_api_key": boot.key, "name": "Via body"}, format="json")
    assert response.status_code == 201


def test_header_wins_over_query_string(boot, client):
    response = client.get("/api/organizations/?personal_api_key=phx_nope", HTTP_AUTHORIZATION=f"Bearer {boot.key}")
    assert response.status_code == 200


def test_key_of_inactive_user_is_invalid(boot, api):
    boot.user.is_active = False
    boot.user.save()
    response = api.get("/api/organizations/")
    assert response.status_code == 401
    assert error(response)["code"] == "authentication_failed"


def test_keys_are_stored_hashed_and_last_used_is_recorded(boot, api):
    key = PersonalAPIKey.objects.get(secure_value=hash_key_value(boot.key))
    assert key.secure_value.startswith("sha256$") and boot.key not in key.secure_value
    assert key.mask_value == f"{boot.key[:4]}...{boot.key[-4:]}"
    assert key.last_used_at is None
    api.get("/api/organizations/")
    key.refresh_from_db()
    assert key.last_used_at is not None and key.last_used_at <= timezone.now()
