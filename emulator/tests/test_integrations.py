"""Integrations (``/api/projects/<id>/integrations``) and their control endpoint."""

import pytest

from posthog_emulator import profiles
from tests.conftest import authed, error

AWS = {"name": "acme-aws", "aws_access_key_id": "AKIA-INTEGRATION-KEY", "aws_secret_access_key": "integration-secret"}


def url(boot, suffix=""):
    return f"/api/projects/{boot.project.id}/integrations/{suffix}"


def test_create_aws_s3_never_shows_the_keys(api, boot, client):
    response = api.post(url(boot), {"kind": "aws-s3", "config": AWS}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert set(body) == {"id", "kind", "config", "created_at", "created_by", "errors", "display_name"}
    assert isinstance(body["id"], int) and body["kind"] == "aws-s3"
    assert body["config"] == {"name": "acme-aws", "aws_account_id": "123456789012"}
    assert body["display_name"] == "acme-aws (AWS account 123456789012)"
    assert body["created_by"]["email"] == "admin@example.com"
    for answer in (response, api.get(url(boot)), api.get(url(boot, f"{body['id']}/"))):
        assert "integration-secret" not in answer.content.decode() and "AKIA-INTEGRATION" not in answer.content.decode()
    stored = client.get(f"/_emulator/integrations/{body['id']}").json()
    assert stored["sensitive_config"] == {"aws_access_key_id": "AKIA-INTEGRATION-KEY",
                                          "aws_secret_access_key": "integration-secret"}


@pytest.mark.parametrize("kind, config, message", [
    ("aws-s3", {"aws_access_key_id": "a", "aws_secret_access_key": "b"}, "A name is required for AWS integration"),
    ("aws-s3", {"name": "x", "aws_secret_access_key": "b"}, "Access key ID is required for AWS integration"),
    ("s3-compatible", {"name": "r2", "aws_access_key_id": "a", "aws_secret_access_key": "b"},
     "Endpoint URL is required for S3-compatible integration"),
    ("snowflake", {"name": "sf", "account": "acme", "user": "u"}, "Password is required for password authentication"),
    ("snowflake", {"name": "sf", "account": "https://acme", "user": "u", "password": "p"},
     "Snowflake integration is not valid: invalid account identifier 'https://acme'"),
    ("slack", {}, "Kind not supported"),
])  # fmt: skip
def test_create_validates_as_posthog(api, boot, kind, config, message):
    response = api.post(url(boot), {"kind": kind, "config": config}, format="json")
    assert response.status_code == 400 and error(response)["detail"] == message


def test_named_kinds_refuse_a_second_of_the_same_name(api, boot):
    assert api.post(url(boot), {"kind": "aws-s3", "config": AWS}, format="json").status_code == 201
    response = api.post(url(boot), {"kind": "aws-s3", "config": AWS}, format="json")
    assert response.status_code == 400 and error(response)["detail"] == "An integration named 'acme-aws' already exists"


def test_list_is_oldest_first_and_filters_by_kind(api, boot, client):
    client.post(f"/_emulator/projects/{boot.project.id}/integrations",
                {"kind": "slack", "integration_id": "T123", "config": {"name": "Acme Slack"}}, format="json")
    api.post(url(boot), {"kind": "snowflake", "config": {"name": "sf", "account": "acme-xy12345", "user": "loader",
                                                        "password": "pw"}}, format="json")
    page = api.get(url(boot)).json()
    assert page["count"] == 2 and [i["kind"] for i in page["results"]] == ["slack", "snowflake"]
    assert page["results"][1]["display_name"] == "sf (account: acme-xy12345, password auth)"
    assert [i["kind"] for i in api.get(url(boot), {"kind": "snowflake"}).json()["results"]] == ["snowflake"]


def test_delete_refused_while_an_export_uses_it(api, boot):
    profiles.set_profile("posthog")
    integration = api.post(url(boot), {"kind": "aws-s3", "config": AWS}, format="json").json()
    export = api.post(f"/api/projects/{boot.project.id}/batch_exports/", {
        "name": "To S3", "interval": "hour", "destination": {
            "type": "AwsS3", "integration": integration["id"],
            "config": {"bucket_name": "b", "region": "eu-west-1", "prefix": "p/"}}}, format="json")
    assert export.status_code == 201, export.content
    response = api.delete(url(boot, f"{integration['id']}/"))
    assert response.status_code == 400
    assert error(response)["detail"] == ("This integration is used by batch exports: To S3. Update them to use a "
                                         "different integration before disconnecting it.")
    api.delete(f"/api/projects/{boot.project.id}/batch_exports/{export.json()['id']}/")
    assert api.delete(url(boot, f"{integration['id']}/")).status_code == 204
    assert api.get(url(boot, f"{integration['id']}/")).status_code == 404


def test_members_create_but_only_admins_or_the_creator_delete(api, boot, make_key):
    member = authed(make_key("member@example.com", level="member")[0])
    other = authed(make_key("other@example.com", level="member")[0])
    mine = member.post(url(boot), {"kind": "aws-s3", "config": AWS}, format="json")
    assert mine.status_code == 201
    assert other.delete(url(boot, f"{mine.json()['id']}/")).status_code == 403
    assert member.delete(url(boot, f"{mine.json()['id']}/")).status_code == 204
    admins = api.post(url(boot), {"kind": "aws-s3", "config": AWS}, format="json").json()
    assert member.delete(url(boot, f"{admins['id']}/")).status_code == 403


def test_scope_object_is_integration(boot, make_key):
    reader = authed(make_key("reader@example.com", scopes=["integration:read"])[0])
    assert reader.get(url(boot)).status_code == 200
    response = reader.post(url(boot), {"kind": "aws-s3", "config": AWS}, format="json")
    assert response.status_code == 403 and error(response)["detail"] == "API key missing required scope 'integration:write'"


def test_no_update(api, boot):
    created = api.post(url(boot), {"kind": "aws-s3", "config": AWS}, format="json").json()
    assert api.patch(url(boot, f"{created['id']}/"), {"config": {}}, format="json").status_code == 405


def test_control_creates_any_kind_and_updates_an_existing_one(boot, client, api):
    path = f"/_emulator/projects/{boot.project.id}/integrations"
    body = {"kind": "s3-compatible", "config": {"name": "r2", "endpoint_url": "https://r2.example.com"},
            "sensitive_config": {"aws_access_key_id": "k", "aws_secret_access_key": "s"}}
    first = client.post(path, body, format="json")
    assert first.status_code == 201 and first.json()["integration_id"] == "r2"
    assert first.json()["sensitive_config_keys"] == ["aws_access_key_id", "aws_secret_access_key"]
    again = client.post(path, body, format="json")
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    listed = api.get(url(boot)).json()["results"]
    assert listed[0]["display_name"] == "r2 (access key, https://r2.example.com)"
    assert client.post(path, {"kind": "ftp"}, format="json").status_code == 400
    assert client.post("/_emulator/projects/999/integrations", {"kind": "slack"}, format="json").status_code == 404


# ---------------------------------------------------------------- the newest kinds (docs/posthog_facts.md §16.1)
PG = {"host": "warehouse.acme.example", "port": 5432, "user": "posthog", "password": "pg-secret"}


def test_postgresql_is_kept_by_its_login_and_a_second_post_overwrites_it(api, boot, client):
    """posthog/models/integration/postgres.py: no name; update_or_create keyed "<team>-<host>-<port>-<user>",
    config host/port/user/ssl_mode/ssl_root_cert, the password in sensitive_config; display_name "ID: <id>"
    (posthog/models/integration/model.py)."""
    first = api.post(url(boot), {"kind": "postgresql", "config": PG}, format="json")
    assert first.status_code == 201, first.content
    body = first.json()
    assert body["config"] == {"host": "warehouse.acme.example", "port": 5432, "user": "posthog", "ssl_mode": "require",
                              "ssl_root_cert": None}
    assert body["display_name"] == f"ID: {boot.project.id}-warehouse.acme.example-5432-posthog"
    again = api.post(url(boot), {"kind": "postgresql", "config": dict(PG, password="rotated", ssl_mode="verify-full",
                                                                       ssl_root_cert="-----BEGIN CERT-----")},
                     format="json")
    assert again.status_code == 201 and again.json()["id"] == body["id"]
    assert again.json()["config"]["ssl_mode"] == "verify-full"
    assert client.get(f"/_emulator/integrations/{body['id']}").json()["sensitive_config"] == {"password": "rotated"}


def test_overwriting_an_integration_needs_a_project_admin(api, boot, make_key):
    """IntegrationSerializer.create (posthog/api/integration.py): an upsert of an existing integration id by
    someone without management access is 403 "Editing an existing integration requires project admin access."."""
    assert api.post(url(boot), {"kind": "postgresql", "config": PG}, format="json").status_code == 201
    member = authed(make_key("member@example.com", level="member")[0])
    response = member.post(url(boot), {"kind": "postgresql", "config": PG}, format="json")
    assert response.status_code == 403
    assert error(response)["detail"] == "Editing an existing integration requires project admin access."


@pytest.mark.parametrize("kind, config, message", [
    ("postgresql", dict(PG, port="x"), "Port must be an integer"),
    ("postgresql", dict(PG, port=70000), "A valid port is required for an postgresql integration"),
    ("postgresql", dict(PG, host="10.0.0.5"), "Provided host '10.0.0.5' is not valid"),
    ("postgresql", {"host": "db.acme.example", "port": 5432, "user": "u"}, "A password is required for postgresql integration"),
    ("postgresql", dict(PG, ssl_mode="prefer"), "SSL mode must be one of: require, verify-ca, verify-full"),
    ("postgresql", dict(PG, ssl_mode="verify-ca"), "SSL root certificate must be provided when verifying server certificates"),
    ("databricks", {"server_hostname": "https://dbc.cloud.databricks.com", "client_id": "c", "client_secret": "s"},
     "Databricks integration is not valid: 'server_hostname' should not be a full URL"),
    ("databricks", {"server_hostname": "localhost", "client_id": "c", "client_secret": "s"},
     "Databricks integration error: could not validate hostname 'localhost'"),
    ("aws-s3", {"name": "r", "aws_role_arn": "arn:aws:iam::12:role/x"}, "AWS role ARN is not valid"),
    ("aws-redshift", {"name": "rs", "aws_role_arn": "arn:aws:iam::123456789012:role/export"},
     "Username is required for AWS integration"),
    ("aws-redshift", {"name": "rs", "aws_access_key_id": "k", "aws_secret_access_key": "s", "user": "u",
                      "groups": []}, "Groups must be a list of at least one string"),
    ("aws-redshift", {"name": "rs"}, "Missing required inputs"),
    ("s3-compatible", {"name": "r2", "aws_access_key_id": "k", "aws_secret_access_key": "s",
                       "endpoint_url": "http://169.254.169.254"}, "Invalid endpoint URL: Local/metadata host"),
    ("azure-blob", {"connection_string": "DefaultEndpointsProtocol=https;AccountKey=k"},
     "Could not extract AccountName from connection string. Ensure it contains 'AccountName=<your-account-name>;'"),
    ("azure-blob", {"connection_string": "DefaultEndpointsProtocol=http;AccountName=acme;AccountKey=k"},
     "'DefaultEndpointsProtocol' must be 'https'"),
    ("google-cloud-service-account", {"service_account_email": "sa@p.iam.gserviceaccount.com"},
     "Service account email and project ID must be provided"),
])  # fmt: skip
def test_newest_kinds_validate_as_posthog(api, boot, kind, config, message):
    """posthog/models/integration/{postgres,databricks,aws,azure_blob,google_cloud}.py and the serializer's
    _build_integration (posthog/api/integration.py), newest versions."""
    response = api.post(url(boot), {"kind": kind, "config": config}, format="json")
    assert response.status_code == 400, response.content
    assert error(response)["detail"] == message


@pytest.mark.parametrize("kind, config, shown, secret, display", [
    ("databricks", {"server_hostname": "dbc-1.cloud.databricks.com", "client_id": "cid", "client_secret": "cs"},
     {"server_hostname": "dbc-1.cloud.databricks.com"}, {"client_id": "cid", "client_secret": "cs"},
     "dbc-1.cloud.databricks.com"),
    ("azure-blob", {"connection_string": "DefaultEndpointsProtocol=https;AccountName=acmelake;AccountKey=k;"
                                         "EndpointSuffix=core.windows.net"},
     {}, {"connection_string": "DefaultEndpointsProtocol=https;AccountName=acmelake;AccountKey=k;"
                               "EndpointSuffix=core.windows.net"}, "ID: acmelake"),
    ("google-cloud-service-account", {"service_account_email": "sa@acme.iam.gserviceaccount.com", "project_id": "acme",
                                      "private_key": "pk", "private_key_id": "pkid",
                                      "token_uri": "https://oauth2.googleapis.com/token"},
     {"project_id": "acme", "service_account_email": "sa@acme.iam.gserviceaccount.com"},
     {"private_key": "pk", "private_key_id": "pkid", "token_uri": "https://oauth2.googleapis.com/token"},
     "ID: sa@acme.iam.gserviceaccount.com-{project}-key-file"),
    ("aws-redshift", {"name": "rs", "aws_role_arn": "arn:aws:iam::123456789012:role/export", "user": "loader",
                      "groups": ["etl"], "auto_create": True},
     {"name": "rs", "aws_role_arn": "arn:aws:iam::123456789012:role/export", "user": "loader", "groups": ["etl"],
      "auto_create": True}, {}, "rs (AWS role 'arn:aws:iam::123456789012:role/export')"),
])  # fmt: skip
def test_what_each_newest_kind_shows_and_keeps_secret(api, boot, client, kind, config, shown, secret, display):
    """databricks.py (client id and secret both in sensitive_config), azure_blob.py (config {}, kept by the
    account name), google_cloud.py (kept by "<email>-<team>-<variant>"), aws.py (a Redshift role)."""
    response = api.post(url(boot), {"kind": kind, "config": config}, format="json")
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["config"] == shown and body["display_name"] == display.format(project=boot.project.id)
    assert client.get(f"/_emulator/integrations/{body['id']}").json()["sensitive_config"] == secret
    for value in secret.values():
        assert value not in api.get(url(boot)).content.decode()
