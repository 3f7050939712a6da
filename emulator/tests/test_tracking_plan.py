"""The tracking plan past event definitions (docs/posthog_facts.md §16): property definitions, property
groups and the groups an event definition carries, as PostHog's newest code answers."""

import pytest

from posthog_emulator import profiles
from tests.conftest import authed, error


def ingest(client, boot, *events):
    response = client.post(f"/_emulator/projects/{boot.project.id}/events", {"events": list(events)}, format="json")
    assert response.status_code == 200, response.content
    return response.json()["results"]


def props(boot, suffix=""):
    return f"/api/projects/{boot.project.id}/property_definitions/{suffix}"


def groups(boot, suffix=""):
    return f"/api/projects/{boot.project.id}/schema_property_groups/{suffix}"


def schemas(boot, suffix=""):
    return f"/api/projects/{boot.project.id}/event_schemas/{suffix}"


# ------------------------------------------------------------------------ property definitions
def test_ingestion_defines_typed_properties_and_the_list_filters_by_type(api, boot, client):
    """posthog/api/property_definition.py (PropertyDefinitionQuerySerializer: type event by default,
    ALWAYS_EXCLUDED_EVENT_PROPERTIES never listed); posthog/models/property_definition.py (PropertyType)."""
    ingest(client, boot, {"name": "purchase", "properties": {"amount": 12.5, "plan": "pro", "paid": True,
                                                            "at": "2026-01-31T08:00:00Z", "distinct_id": "x"},
                          "person_properties": {"email": "a@x.example"}})
    listed = api.get(props(boot)).json()
    assert listed["count"] == 4 and [p["name"] for p in listed["results"]] == ["amount", "at", "paid", "plan"]
    assert dict((p["name"], p["property_type"]) for p in listed["results"]) == {
        "amount": "Numeric", "at": "DateTime", "paid": "Boolean", "plan": "String"}
    assert [p["name"] for p in api.get(props(boot), {"type": "person"}).json()["results"]] == ["email"]
    assert [p["name"] for p in api.get(props(boot), {"properties": "plan,paid"}).json()["results"]] == ["paid", "plan"]
    assert api.get(props(boot), {"type": "group"}).status_code == 400
    response = api.get(props(boot), {"type": "nope"})
    assert response.status_code == 400 and error(response)["attr"] == "type"
    assert api.get(props(boot, "seen_together/"), {"event_names": ["purchase", "signup"],
                                                   "property_name": "plan"}).json() == {"purchase": True,
                                                                                        "signup": False}


def test_the_enterprise_serializer_documents_a_property_as_posthog(api, boot, client):
    """products/enterprise/backend/api/ee_property_definition.py: hidden and verified at once is 400; verifying
    records who; hiding unverifies; property_type Numeric sets is_numerical. No create: the viewset has
    list/retrieve/update/destroy mixins only (posthog/api/property_definition.py)."""
    ingest(client, boot, {"name": "purchase", "properties": {"plan": "pro"}})
    plan = api.get(props(boot)).json()["results"][0]
    path = props(boot, f"{plan['id']}/")
    both = api.patch(path, {"hidden": True, "verified": True}, format="json")
    assert both.status_code == 400 and error(both)["detail"] == "A property cannot be both hidden and verified"
    verified = api.patch(path, {"description": "The plan", "tags": ["Billing", "billing "], "verified": True,
                                "property_type": "Numeric"}, format="json").json()
    assert verified["description"] == "The plan" and verified["tags"] == ["billing"] and verified["is_numerical"]
    assert verified["verified"] and verified["verified_by"]["email"] == boot.user.email
    hidden = api.patch(path, {"hidden": True}, format="json").json()
    assert hidden["hidden"] and not hidden["verified"] and hidden["verified_by"] is None
    assert api.post(props(boot), {"name": "new"}, format="json").status_code == 405
    assert api.delete(path).status_code == 204 and api.get(path).status_code == 404


def test_a_free_organization_may_only_change_the_type(api, boot, client):
    """The open-source PropertyDefinitionSerializer.update: a change of property_type alone is allowed,
    anything else needs ingestion_taxonomy (402)."""
    ingest(client, boot, {"name": "purchase", "properties": {"plan": "pro"}})
    client.put(f"/_emulator/organizations/{boot.organization.id}/taxonomy", {"ingestion_taxonomy": False},
               format="json")
    path = props(boot, f"{api.get(props(boot)).json()['results'][0]['id']}/")
    assert api.patch(path, {"property_type": "Numeric"}, format="json").json()["is_numerical"] is True
    assert api.patch(path, {"description": "x"}, format="json").status_code == 402


# ------------------------------------------------------------------------ property groups
CHECKOUT = {"name": "Checkout", "description": "Checkout events",
            "properties": [{"name": "cart_value", "property_type": "Numeric", "is_required": True},
                           {"name": " currency ", "property_type": "String",
                            "validation_rules": {"enum": ["EUR", "USD"]}}]}


def test_a_group_is_created_with_its_properties_by_name(api, boot):
    """posthog/api/schema_property_group.py (newest): names trimmed, properties answered by name, events
    empty; a second group of the name is 400 attr name."""
    response = api.post(groups(boot), CHECKOUT, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert [p["name"] for p in body["properties"]] == ["cart_value", "currency"] and body["events"] == []
    assert body["properties"][0]["is_required"] and not body["properties"][1]["is_optional_in_types"]
    assert body["created_by"]["email"] == boot.user.email
    again = api.post(groups(boot), CHECKOUT, format="json")
    assert again.status_code == 400 and error(again) == {
        "type": "validation_error", "code": "invalid_input", "attr": "name",
        "detail": "A property group with this name already exists for this team"}


@pytest.mark.parametrize("prop, attr, message", [
    # DRF trims the name and refuses a blank one before validate_name is called
    ({"name": " ", "property_type": "String"}, "properties__0__name", "This field may not be blank."),
    ({"name": "x" * 201, "property_type": "String"}, "properties__0__name", "Property name must be 200 characters or less"),
    ({"name": "a", "property_type": "Text"}, "properties__0__property_type", '"Text" is not a valid choice.'),
    ({"name": "a", "property_type": "Boolean", "validation_rules": {"enum": ["x"]}}, "properties__0__validation_rules",
     "Validation rules are not supported for Boolean properties"),
    ({"name": "a", "property_type": "Numeric", "validation_rules": {"minimum": 5, "maximum": 1}},
     "properties__0__validation_rules", "Lower bound (minimum=5) must be less than upper bound (maximum=1)"),
])  # fmt: skip
def test_properties_are_validated_as_posthog(api, boot, prop, attr, message):
    """SchemaPropertyGroupPropertySerializer.validate_name and validate_validation_rules (newest)."""
    response = api.post(groups(boot), {"name": "G", "properties": [prop]}, format="json")
    assert response.status_code == 400 and error(response)["attr"] == attr and error(response)["detail"] == message


def test_an_update_replaces_the_properties_keeping_those_sent_with_their_id(api, boot):
    """SchemaPropertyGroupSerializer.update: a property with its id is changed in place, one without is
    created, one left out is deleted; a name twice is 400 attr properties."""
    group = api.post(groups(boot), CHECKOUT, format="json").json()
    cart = group["properties"][0]
    changed = api.patch(groups(boot, f"{group['id']}/"), {"properties": [
        dict(id=cart["id"], name="cart_value", property_type="Numeric", is_required=False),
        dict(name="coupon", property_type="String")]}, format="json").json()
    assert [(p["name"], p["is_required"]) for p in changed["properties"]] == [("cart_value", False), ("coupon", False)]
    assert changed["properties"][0]["id"] == cart["id"]
    twice = api.patch(groups(boot, f"{group['id']}/"), {"properties": [
        dict(name="a", property_type="String"), dict(name="a", property_type="String")]}, format="json")
    assert twice.status_code == 400 and error(twice) == {
        "type": "validation_error", "code": "invalid_input", "attr": "properties",
        "detail": "A property named 'a' already exists in this group"}
    assert [p["name"] for p in api.get(groups(boot, f"{group['id']}/")).json()["properties"]] == ["cart_value", "coupon"]


# ------------------------------------------------------------------------ event schemas
def test_an_event_carries_groups_once_and_deleting_a_group_detaches_it(api, boot, client):
    """posthog/api/event_schema.py: create with event_definition and the write-only property_group_id; the
    pair twice is 400; list by ?event_definition=; no retrieve (405); posthog/models/schema.py cascades."""
    purchase = ingest(client, boot, "purchase")[0]["id"]
    group = api.post(groups(boot), CHECKOUT, format="json").json()
    created = api.post(schemas(boot), {"event_definition": purchase, "property_group_id": group["id"]}, format="json")
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["event_definition"] == purchase and body["property_group"]["name"] == "Checkout"
    assert "property_group_id" not in body
    twice = api.post(schemas(boot), {"event_definition": purchase, "property_group_id": group["id"]}, format="json")
    # 400 either way: DRF (3.15 and newer) checks the model's unique constraint before the serializer's
    # validate() could answer "Property group 'Checkout' is already added to this event schema"
    assert twice.status_code == 400
    assert [s["id"] for s in api.get(schemas(boot), {"event_definition": purchase}).json()["results"]] == [body["id"]]
    assert api.get(schemas(boot, f"{body['id']}/")).status_code == 405
    assert api.get(groups(boot, f"{group['id']}/")).json()["events"] == [{"id": purchase, "name": "purchase"}]
    assert api.delete(groups(boot, f"{group['id']}/")).status_code == 204
    assert api.get(schemas(boot)).json()["results"] == []


def test_a_group_of_another_project_is_no_choice(api, boot, client):
    purchase = ingest(client, boot, "purchase")[0]["id"]
    response = api.post(schemas(boot), {"event_definition": purchase,
                                        "property_group_id": "0190a3f4-0000-7000-8000-0000000000aa"}, format="json")
    assert response.status_code == 400 and error(response)["attr"] == "property_group_id"


@pytest.mark.parametrize("profile", ["spec", "posthog"])
def test_scopes_are_event_definitions(boot, make_key, profile):
    """schema_property_group.py (newest): scope_object "event_definition"; the emulator serves event schemas
    with the same scope (see api/event_schemas.py: the one stored event_schema.py says INTERNAL)."""
    profiles.set_profile(profile)
    reader = authed(make_key("reader@example.com", scopes=["event_definition:read"])[0])
    assert reader.get(groups(boot)).status_code == 200 and reader.get(schemas(boot)).status_code == 200
    response = reader.post(groups(boot), CHECKOUT, format="json")
    assert response.status_code == 403
    assert error(response)["detail"] == "API key missing required scope 'event_definition:write'"
