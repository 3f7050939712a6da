"""``/api/organizations/<id>/projects`` (docs/posthog_facts.md §10.5; ``posthog/api/project.py``) and the
features control endpoint that grants more than one project."""

import pytest

from posthog_emulator.models import Team, User
from tests.conftest import authed, error
from tests.reference_schema import assert_matches

LIST = "/api/organizations/{organization_id}/projects/"
DETAIL = "/api/organizations/{organization_id}/projects/{id}/"


def url(suffix=""):
    return f"/api/organizations/@current/projects/{suffix}"


def grant(client, *features, organization="emulator-org"):
    response = client.put(f"/_emulator/organizations/{organization}/features", {"features": list(features)},
                          format="json")  # fmt: skip
    assert response.status_code == 200, response.content
    return response.json()


def create(api, status=201, **fields):
    response = api.post(url(), fields, format="json")
    assert response.status_code == status, response.content
    return response.json()


@pytest.fixture
def paid(boot, client):
    """The bootstrap organization may have up to 6 projects."""
    grant(client, {"key": "organizations_projects", "limit": 6})
    return boot


# ----------------------------------------------------------------------------------- reading


def test_list_and_retrieve_match_the_reference_schema(api, boot):
    listed = assert_matches(api.get(url()).json(), LIST)
    assert [p["id"] for p in listed["results"]] == [boot.project.id]
    body = assert_matches(api.get(url(f"{boot.project.id}/")).json(), DETAIL)
    assert body["name"] == "Default project" and body["timezone"] == "UTC"
    assert body["organization"] == str(boot.organization.id)
    assert body["app_urls"] == [] and body["anonymize_ips"] is False and body["recording_domains"] == []
    assert body["effective_membership_level"] == 15 and body["session_recording_sample_rate"] is None
    assert api.get(url("@current/")).json()["id"] == boot.project.id
    assert api.get("/api/projects/@current/").json()["app_urls"] == []  # the root route shows the same project


def test_unknown_malformed_and_foreign_projects(api, boot):
    from posthog_emulator.models import Organization

    _, _, foreign = Organization.objects.bootstrap(None, name="Foreign")
    assert error(api.get(url("999/")))["detail"] == "Not found."
    assert api.get(url(f"{foreign.id}/")).status_code == 404
    assert error(api.get(url("abc/")))["detail"] == "Field 'id' expected a number but got 'abc'."
    assert api.get(f"/api/organizations/{foreign.organization_id}/projects/").status_code == 403


# ----------------------------------------------------------------------------------- creating


def test_a_free_organization_has_one_project(api, boot, client):
    response = api.post(url(), {"name": "Second"}, format="json")
    assert response.status_code == 403
    assert error(response)["detail"].startswith("You have reached the maximum limit of allowed projects")
    assert api.post(url(), {"name": "Demo", "is_demo": True}, format="json").status_code == 403  # counted too
    grant(client, {"key": "organizations_projects", "limit": 2})
    demo = create(api, name="Demo", is_demo=True)
    assert demo["is_demo"] is True
    assert api.post(url(), {"name": "Demo 2", "is_demo": True}, format="json").status_code == 403  # one demo only
    create(api, name="Second")  # a demo project does not count against the limit


def test_create_with_settings_makes_it_current(api, paid, client):
    body = create(api, name="  Web  ", timezone="Europe/Paris", anonymize_ips=True, app_urls=["https://a.example", ""],
                  recording_domains=["https://a.example", None], week_start_day=1, session_recording_sample_rate="0.5",
                  test_account_filters=[{"key": "email", "value": "@acme.example", "operator": "not_icontains",
                                         "type": "person"}])  # fmt: skip
    assert_matches(body, LIST, "post", "201")
    assert body["name"] == "Web" and body["timezone"] == "Europe/Paris" and body["anonymize_ips"] is True
    assert body["app_urls"] == ["https://a.example"] and body["recording_domains"] == ["https://a.example"]
    assert body["week_start_day"] == 1 and body["session_recording_sample_rate"] == "0.50"
    assert body["test_account_filters"][0]["key"] == "email"
    assert User.objects.get(email="admin@example.com").current_team_id == body["id"]
    assert api.get("/api/projects/@current/").json()["id"] == body["id"]
    unnamed = create(api)
    assert unnamed["name"] == "Default project 2"


def test_plan_limit_counts_non_demo_projects(api, boot, client):
    grant(client, {"key": "organizations_projects", "limit": 2})
    create(api, name="Two")
    assert api.post(url(), {"name": "Three"}, format="json").status_code == 403
    grant(client, "organizations_projects")  # no limit
    create(api, name="Three")


@pytest.mark.parametrize(
    "fields, attr, detail",
    [({"name": ""}, "name", "This field may not be blank."),
     ({"name": "x" * 201}, "name", "Ensure this field has no more than 200 characters."),
     ({"timezone": "Mars/Olympus"}, "timezone", '"Mars/Olympus" is not a valid choice.'),
     ({"session_recording_sample_rate": "1.5"}, "session_recording_sample_rate",
      "Ensure this value is less than or equal to 1."),
     ({"session_recording_minimum_duration_milliseconds": 40000}, "session_recording_minimum_duration_milliseconds",
      "Ensure this value is less than or equal to 30000."),
     ({"week_start_day": 3}, "week_start_day", '"3" is not a valid choice.'),
     ({"test_account_filters": [{"value": 1}]}, "test_account_filters",
      "Must provide an array of valid property filters. Item 0: 'key' should be a string."),
     ({"path_cleaning_filters": [{"alias": "x"}]}, "path_cleaning_filters",
      "A path cleaning rule needs a regex. Remove the rule or give it one."),
     ({"primary_dashboard": 4}, "primary_dashboard", "Primary dashboard cannot be set on project creation."),
     ({"app_urls": ["x" * 201]}, "app_urls__0", "Ensure this field has no more than 200 characters.")],
)  # fmt: skip
def test_create_validation(api, paid, fields, attr, detail):
    response = api.post(url(), {"name": "Bad", **fields}, format="json")
    assert response.status_code == 400, response.content
    body = error(response)
    assert (body["attr"], body["detail"]) == (attr, detail)
    assert not Team.objects.filter(name="Bad").exists()


def test_names_are_unique_in_the_organization_regardless_of_case(api, paid):
    create(api, name="Web")
    response = api.post(url(), {"name": " WEB "}, format="json")
    assert response.status_code == 409
    assert error(response) == {"type": "server_error", "code": "conflict", "attr": None,
                               "detail": 'There is already a project called "WEB" in this organization. '
                                         "Choose a different name."}  # fmt: skip


def test_members_cannot_create_projects(paid, make_key):
    key, _ = make_key("member@example.com", level="member")
    response = authed(key).post(url(), {"name": "Mine"}, format="json")
    assert response.status_code == 403
    assert error(response)["detail"] == "You need to be an organization admin or above to create new projects."
    admin, _ = make_key("admin2@example.com", level="admin")
    assert authed(admin).post(url(), {"name": "Admins"}, format="json").status_code == 201


def test_project_scope(paid, make_key):
    reader, _ = make_key("reader@example.com", level="admin", scopes=["project:read"])
    assert authed(reader).get(url()).status_code == 200
    response = authed(reader).post(url(), {"name": "Nope"}, format="json")
    assert error(response)["detail"] == "API key missing required scope 'project:write'"
    assert authed(reader).patch(url("@current/"), {"anonymize_ips": True}, format="json").status_code == 403


# ----------------------------------------------------------------------------------- updating


def test_patch_changes_only_what_is_sent_and_merges_modifiers(api, boot):
    api.patch(url(f"{boot.project.id}/"), {"modifiers": {"a": 1}, "timezone": "Asia/Tokyo"}, format="json")
    body = api.patch(url(f"{boot.project.id}/"), {"modifiers": {"b": 2}, "name": "Renamed"}, format="json").json()
    assert_matches(body, DETAIL, "patch")
    assert body["modifiers"] == {"a": 1, "b": 2} and body["timezone"] == "Asia/Tokyo" and body["name"] == "Renamed"
    assert api.get(f"/api/organizations/@current/").json()["projects"][0]["name"] == "Renamed"


def test_members_change_member_settings_only(boot, make_key):
    key, _ = make_key("member@example.com", level="member")
    member = authed(key)
    assert member.patch(url(f"{boot.project.id}/"), {"session_recording_opt_in": True}, format="json").status_code == 200
    response = member.patch(url(f"{boot.project.id}/"), {"name": "Mine", "anonymize_ips": True}, format="json")
    assert response.status_code == 403
    assert error(response)["detail"] == "Only project admins can modify these settings: anonymize_ips, name"


def test_put_is_refused_on_a_free_plan(api, boot):
    response = api.put(url(f"{boot.project.id}/"), {"name": "Whole"}, format="json")
    assert response.status_code == 403 and "maximum limit" in error(response)["detail"]


# ----------------------------------------------------------------------------------- deleting


def test_delete_needs_admin_and_removes_the_project(api, paid, make_key):
    second = create(api, name="Second")
    key, _ = make_key("member@example.com", level="member")
    response = authed(key).delete(url(f"{second['id']}/"))
    assert response.status_code == 403
    assert error(response)["detail"] == "You don't have sufficient permissions in the project."
    assert api.delete(url(f"{second['id']}/")).status_code == 204
    assert api.get(url(f"{second['id']}/")).status_code == 404
    assert not Team.objects.filter(id=second["id"]).exists()
    assert api.get("/api/projects/@current/").json()["id"] == paid.project.id  # current project heals


# ----------------------------------------------------------------------------------- features control


def test_features_control_endpoint(boot, client):
    body = client.get("/_emulator/organizations/emulator-org/features").json()
    assert body["available_product_features"] == []
    body = grant(client, "organizations_projects", {"key": "managed_reverse_proxy", "limit": 5})
    assert [(f["key"], f["limit"]) for f in body["available_product_features"]] == [
        ("organizations_projects", None), ("managed_reverse_proxy", 5)]
    patched = client.patch("/_emulator/organizations/emulator-org/features",
                           {"features": [{"key": "managed_reverse_proxy", "limit": 1}]}, format="json").json()
    assert [(f["key"], f["limit"]) for f in patched["available_product_features"]] == [
        ("organizations_projects", None), ("managed_reverse_proxy", 1)]
    assert client.put("/_emulator/organizations/emulator-org/features", {"features": "x"},
                      format="json").status_code == 400
    assert client.get("/_emulator/organizations/nope/features").status_code == 404
