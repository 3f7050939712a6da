"""Hog functions and their templates (``/api/projects/<id>/hog_functions``, ``…/hog_function_templates``).

Behaviour read in PostHog's ``products/cdp/backend/api/hog_function.py`` (``HogFunctionSerializer``,
``HogFunctionViewSet``, ``ForbidDestroyModel``) and ``posthog/cdp/validation.py``
(``InputsSerializer.run_child_validation``); templates in ``posthog/cdp/templates/``. No OpenAPI
schema of ours has these paths, so these tests cite the code.
"""

import pytest

from posthog_emulator import profiles
from posthog_emulator.models import HogFunction
from tests.conftest import error

CUSTOMERIO = {"template_id": "template-customerio", "type": "destination", "name": "CIO",
              "inputs": {"site_id": {"value": "site-1"}, "token": {"value": "cio-secret-token"}}}


@pytest.fixture(autouse=True)
def _posthog(db):
    profiles.set_profile("posthog")


def url(boot, suffix="", root="projects"):
    return f"/api/{root}/{boot.project.id}/hog_functions/{suffix}"


def create(api, boot, body=None, **extra):
    response = api.post(url(boot), {**(body or CUSTOMERIO), **extra}, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def test_spec_profile_has_no_hog_functions(api, boot):
    profiles.set_profile("spec")
    response = api.get(url(boot))
    assert response.status_code == 404 and error(response)["detail"] == "Endpoint not found."


def test_create_from_template_fills_from_it_and_never_shows_the_secret(api, boot):
    body = create(api, boot)
    assert body["type"] == "destination" and body["name"] == "CIO"
    assert body["template"]["id"] == "template-customerio" and "template_id" not in body
    assert body["hog"].startswith("let action") and body["bytecode"]
    assert body["inputs"]["token"] == {"secret": True}
    assert body["inputs"]["site_id"]["value"] == "site-1"
    assert body["inputs"]["host"]["value"] == "track.customer.io"  # required, filled from the default
    assert body["status"] == {"state": 0, "tokens": 0} and body["enabled"] is False
    assert body["filters"]["bytecode"] and body["version"] == 1
    for answer in (api.get(url(boot, body["id"] + "/")), api.get(url(boot), {"full": "true"})):
        assert "cio-secret-token" not in answer.content.decode()
    assert HogFunction.objects.get(id=body["id"]).encrypted_inputs["token"]["value"] == "cio-secret-token"


def test_inputs_outside_the_schema_are_dropped_and_secrets_kept_when_omitted(api, boot):
    body = create(api, boot, inputs={**CUSTOMERIO["inputs"], "nope": {"value": 1}})
    assert "nope" not in body["inputs"]
    patched = api.patch(url(boot, body["id"] + "/"), {"inputs": {"site_id": {"value": "site-2"}}}, format="json")
    assert patched.status_code == 200 and patched.json()["inputs"]["token"] == {"secret": True}
    assert HogFunction.objects.get(id=body["id"]).encrypted_inputs["token"]["value"] == "cio-secret-token"
    marker = api.patch(url(boot, body["id"] + "/"), {"inputs": {"site_id": {"value": "s"}, "token": {"secret": True}}},
                       format="json")
    assert marker.status_code == 200
    rotated = api.patch(url(boot, body["id"] + "/"), {"inputs": {"site_id": {"value": "s"}, "token": {"value": "new"}}},
                        format="json")
    assert rotated.status_code == 200
    assert HogFunction.objects.get(id=body["id"]).encrypted_inputs["token"]["value"] == "new"


def test_secret_marker_with_nothing_stored_and_missing_required_input(api, boot):
    marker = api.post(url(boot), {**CUSTOMERIO, "inputs": {"site_id": {"value": "s"}, "token": {"secret": True}}},
                      format="json")
    assert marker.status_code == 400 and "No value is saved for this secret input" in marker.content.decode()
    missing = api.post(url(boot), {**CUSTOMERIO, "inputs": {"token": {"value": "t"}}}, format="json")
    assert missing.status_code == 400 and "This field is required." in missing.content.decode()


def test_type_and_template_are_kept_from_creation(api, boot):
    body = create(api, boot)
    response = api.patch(url(boot, body["id"] + "/"), {"type": "site_app"}, format="json")
    assert response.status_code == 400
    assert error(response)["detail"] == "Cannot modify the type of an existing function"
    other = api.patch(url(boot, body["id"] + "/"), {"template_id": "template-sendgrid", "name": "x"}, format="json")
    assert other.status_code == 200 and other.json()["template"]["id"] == "template-customerio"
    unknown = api.post(url(boot), {**CUSTOMERIO, "template_id": "template-nope"}, format="json")
    assert unknown.status_code == 400 and error(unknown)["detail"] == "No template found for id 'template-nope'"
    no_hog = api.post(url(boot), {"type": "destination", "name": "bare"}, format="json")
    assert no_hog.status_code == 400 and error(no_hog)["attr"] == "hog"


def test_delete_is_refused_and_soft_delete_hides_then_restores(api, boot):
    body = create(api, boot)
    refused = api.delete(url(boot, body["id"] + "/"))
    assert refused.status_code == 405 and not refused.content
    assert api.patch(url(boot, body["id"] + "/"), {"deleted": True}, format="json").status_code == 200
    assert api.get(url(boot, body["id"] + "/")).status_code == 404
    assert api.get(url(boot)).json()["results"] == []
    restored = api.patch(url(boot, body["id"] + "/"), {"deleted": False}, format="json")
    assert restored.status_code == 200 and api.get(url(boot, body["id"] + "/")).status_code == 200


def test_transformations_ordered_capped_and_rearranged(api, boot):
    geo = {"type": "transformation", "template_id": "template-geoip"}
    first = create(api, boot, geo, name="one", enabled=True)
    second = create(api, boot, geo, name="two", enabled=True)
    assert (first["execution_order"], second["execution_order"]) == (1, 2)
    listed = api.get(url(boot), {"type": "transformation"}).json()["results"]
    assert [f["name"] for f in listed] == ["one", "two"] and "inputs" not in listed[0]  # minimal serializer
    answer = api.patch(url(boot, "rearrange/"), {"orders": {first["id"]: 2, second["id"]: 1}}, format="json")
    assert answer.status_code == 200 and [f["name"] for f in answer.json()] == ["two", "one"]
    bad = api.patch(url(boot, "rearrange/"), {"orders": {}}, format="json")
    assert bad.status_code == 400
    for index in range(18):
        create(api, boot, geo, name=f"t{index}", enabled=True)
    capped = api.post(url(boot), {**geo, "name": "too many", "enabled": True}, format="json")
    assert capped.status_code == 400 and error(capped)["attr"] == "type"
    assert error(capped)["detail"].startswith("Maximum of 20 enabled transformation functions allowed per team.")
    assert api.post(url(boot), {**geo, "name": "disabled is fine"}, format="json").status_code == 201


def test_mappings_only_for_destinations_and_masking_compiled(api, boot):
    geo = {"type": "transformation", "template_id": "template-geoip", "mappings": [{"name": "m"}]}
    response = api.post(url(boot), geo, format="json")
    assert response.status_code == 400 and error(response)["detail"] == "Mappings are only allowed for destinations."
    body = create(api, boot, masking={"ttl": 3600, "hash": "{person.id}"})
    assert body["masking"]["ttl"] == 3600 and body["masking"]["bytecode"]


def test_version_and_stale_base_updated_at(api, boot):
    body = create(api, boot)
    updated = api.patch(url(boot, body["id"] + "/"), {"name": "renamed", "base_updated_at": body["updated_at"]},
                        format="json")
    assert updated.status_code == 200 and updated.json()["version"] == 2
    stale = api.patch(url(boot, body["id"] + "/"), {"name": "again", "base_updated_at": body["updated_at"]},
                      format="json")
    assert stale.status_code == 409 and error(stale)["code"] == "stale_update"
    same = api.patch(url(boot, body["id"] + "/"), {"name": "renamed"}, format="json")
    assert same.json()["version"] == 2  # nothing changed


def test_templates_list_and_retrieve(api, boot):
    listed = api.get(f"/api/projects/{boot.project.id}/hog_function_templates/").json()["results"]
    ids = {t["id"] for t in listed}
    assert {"template-customerio", "template-sendgrid"} <= ids and "template-geoip" not in ids
    assert all(t["type"] == "destination" for t in listed)
    geo = api.get(f"/api/projects/{boot.project.id}/hog_function_templates/", {"type": "transformation"}).json()
    assert [t["id"] for t in geo["results"]] == ["template-geoip"]
    one = api.get(f"/api/projects/{boot.project.id}/hog_function_templates/template-sendgrid/")
    assert one.status_code == 200 and any(i["secret"] for i in one.json()["inputs_schema"])
    assert api.get(f"/api/projects/{boot.project.id}/hog_function_templates/template-nope/").status_code == 404


def test_environments_route_is_not_served_but_integrations_are(api, boot):
    # products/cdp/backend/routes.py registers hog_functions and hog_function_templates on
    # routers.projects only, as products/batch_exports/backend/routes.py does batch exports;
    # integrations keep their dual route (posthog/api/__init__.py,
    # register_legacy_dual_route_team_nested_viewset); event definitions never had one.
    body = create(api, boot)
    for path in (f"hog_functions/{body['id']}/", "hog_functions/", "hog_function_templates/", "batch_exports/",
                 "event_definitions/"):
        response = api.get(f"/api/environments/{boot.project.id}/{path}")
        assert response.status_code == 404 and error(response)["detail"] == "Endpoint not found.", path
    assert api.get(f"/api/environments/{boot.project.id}/integrations/").status_code == 200


def test_filters_are_stored_as_posthog_stores_them(api, boot):
    # HogFunctionFiltersSerializer (posthog/cdp/validation.py): source defaults to "events", keys it
    # does not declare are dropped, a source outside its choices is 400.
    body = create(api, boot, filters={"events": [{"id": "$pageview", "type": "events"}], "unknown": 1})
    assert body["filters"]["source"] == "events" and "unknown" not in body["filters"]
    assert body["filters"]["events"] == [{"id": "$pageview", "type": "events"}] and "bytecode" in body["filters"]
    kept = api.patch(url(boot, body["id"] + "/"), {"filters": {"source": "person-updates"}}, format="json")
    assert kept.status_code == 200 and kept.json()["filters"]["source"] == "person-updates"
    bad = api.patch(url(boot, body["id"] + "/"), {"filters": {"source": "nope"}}, format="json")
    assert bad.status_code == 400 and error(bad)["attr"] == "filters__source"


def test_read_actions_answer_and_the_unscoped_ones_refuse_a_personal_api_key(api, boot):
    # HogFunctionViewSet: logs, metrics, metrics_totals are read actions, invocations a write action;
    # icon, icons and broadcast have no scope (APIScopePermission, posthog/permissions.py).
    body = create(api, boot)
    base = url(boot, body["id"] + "/")
    assert api.get(base + "logs/").json() == {"results": []}
    assert api.get(base + "metrics/").json() == {"labels": [], "series": []}
    assert api.get(base + "metrics/totals/").json() == {"totals": {}}
    assert api.post(base + "invocations/", {}, format="json").json()["status"] == "success"
    for response in (api.get(url(boot, "icon/")), api.get(url(boot, "icons/")), api.post(base + "broadcast/", {})):
        assert response.status_code == 403
        assert error(response)["detail"] == "This action does not support Personal API Key access"

def test_scopes(boot, make_key):
    from tests.conftest import authed
    reader = authed(make_key(boot.user.email, scopes=["hog_function:read"])[0])
    assert reader.get(url(boot)).status_code == 200
    refused = reader.post(url(boot), CUSTOMERIO, format="json")
    assert refused.status_code == 403 and "hog_function:write" in error(refused)["detail"]
