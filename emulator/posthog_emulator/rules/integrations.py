"""Rules of integrations (``posthog/api/integration.py``, ``posthog/models/integration/``).

* :data:`API_KINDS`: the kinds a ``POST …/integrations`` creates from a credentials form (the
  others come from an OAuth flow in the web app; the control API creates any kind). Each turns the
  body's ``config`` into ``(integration_id, config, sensitive_config)`` with PostHog's checks and
  messages (:func:`build`).
* :func:`display_name`: PostHog's ``Integration.display_name``.
* :data:`EXPORT_KINDS`: the kind each batch export destination type needs.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from posthog_emulator.rules import RuleError

#: Batch export destination type -> the integration kind it needs (newest generation).
EXPORT_KINDS = {
    "AwsS3": "aws-s3",
    "S3Compatible": "s3-compatible",
    "Snowflake": "snowflake",
    "Postgres": "postgresql",
    "Redshift": "aws-redshift",
    "BigQuery": "google-cloud-service-account",
    "Databricks": "databricks",
    "AzureBlob": "azure-blob",
}

#: Every kind of ``Integration.IntegrationKind`` (the control API accepts these).
ALL_KINDS = (
    "anthropic", "apns", "aws-redshift", "aws-s3", "azure-blob", "bing-ads", "clickup", "customerio-app",
    "customerio-track", "customerio-webhook", "databricks", "ebay", "email", "firebase", "github", "gitlab",
    "google-ads", "google-analytics", "google-calendar", "google-cloud-service-account", "google-cloud-storage",
    "google-pubsub", "google-search-console", "google-sheets", "hubspot", "instagram", "intercom", "jira",
    "linear", "linkedin-ads", "meta-ads", "pardot", "pinterest-ads", "postgresql", "posthog", "reddit-ads",
    "resend", "s3-compatible", "salesforce", "slack", "snapchat", "snowflake", "stripe", "tiktok-ads", "twilio",
    "vercel", "youtube-analytics",
)  # fmt: skip

_SNOWFLAKE_ACCOUNT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


def _required(config: dict, key: str, friendly: str, kind: str) -> str:
    """PostHog's ``_return_non_empty_str_from_config``."""
    value = config.get(key)
    if isinstance(value, str) and value:
        return value
    raise RuleError(f"{friendly} is required for {kind} integration")


def _aws_s3(config: dict):
    name = _required(config, "name", "A name", "AWS")
    if "aws_role_arn" in config:
        role = _required(config, "aws_role_arn", "A valid role ARN", "AWS")
        if not re.match(r"^arn:aws(-[a-z-]+)?:iam::\d{12}:role/.+", role):
            raise RuleError("AWS role ARN is not valid")
        return name, {"name": name, "aws_role_arn": role}, {}
    key_id = _required(config, "aws_access_key_id", "Access key ID", "AWS")
    secret = _required(config, "aws_secret_access_key", "Secret access key", "AWS")
    # PostHog asks AWS STS who the keys belong to; the emulator makes an account id up.
    return name, {"name": name, "aws_account_id": "123456789012"}, {"aws_access_key_id": key_id,
                                                                    "aws_secret_access_key": secret}


def _s3_compatible(config: dict):
    name = _required(config, "name", "A name", "S3-compatible")
    key_id = _required(config, "aws_access_key_id", "Access key ID", "S3-compatible")
    secret = _required(config, "aws_secret_access_key", "Secret access key", "S3-compatible")
    endpoint = _required(config, "endpoint_url", "Endpoint URL", "S3-compatible")
    parts = urlsplit(endpoint)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise RuleError("Invalid endpoint URL: Invalid URL")
    return name, {"name": name, "endpoint_url": endpoint}, {"aws_access_key_id": key_id,
                                                            "aws_secret_access_key": secret}


def _snowflake(config: dict):
    name, account, user = config.get("name"), config.get("account"), config.get("user")
    authentication_type = config.get("authentication_type", "password")
    if not (name and account and user):
        raise RuleError("Name, account, and user must be provided")
    if not all(isinstance(v, str) for v in (name, account, user, authentication_type)):
        raise RuleError("Name, account, user, and authentication type must be strings")
    if not _SNOWFLAKE_ACCOUNT_RE.fullmatch(account):
        raise RuleError(f"Snowflake integration is not valid: invalid account identifier '{account}'")
    sensitive = {}
    if authentication_type == "password":
        if not config.get("password"):
            raise RuleError("Password is required for password authentication")
        sensitive["password"] = config["password"]
    elif authentication_type == "keypair":
        if not config.get("private_key"):
            raise RuleError("Private key is required for key-pair authentication")
        sensitive["private_key"] = config["private_key"]
        if config.get("private_key_passphrase"):
            sensitive["private_key_passphrase"] = config["private_key_passphrase"]
    else:
        raise RuleError(f"Invalid authentication type: {authentication_type}")
    return name, {"name": name, "account": account, "user": user, "authentication_type": authentication_type}, sensitive


def _databricks(config: dict):
    values = [config.get(k) for k in ("server_hostname", "client_id", "client_secret")]
    if not all(values):
        raise RuleError("Server hostname, client ID, and client secret must be provided")
    if not all(isinstance(v, str) for v in values):
        raise RuleError("Server hostname, client ID, and client secret must be strings")
    return values[0], {"server_hostname": values[0], "client_id": values[1]}, {"client_secret": values[2]}


def _postgresql(config: dict):
    name = _required(config, "name", "A name", "PostgreSQL")
    public = {"name": name}
    for key in ("host", "port", "database", "user"):
        if config.get(key) is not None:
            public[key] = config[key]
    return name, public, {"password": config["password"]} if config.get("password") else {}


def _aws_redshift(config: dict):
    if not any(key in config for key in ("aws_role_arn", "aws_access_key_id", "aws_secret_access_key", "host",
                                         "port", "user", "password")):
        raise RuleError("Missing required inputs")
    name = _required(config, "name", "A name", "AWS")
    public = {"name": name}
    for key in ("host", "port", "user", "aws_role_arn", "workgroup_arn", "groups", "auto_create"):
        if config.get(key) is not None:
            public[key] = config[key]
    secret = dict((k, config[k]) for k in ("password", "aws_access_key_id", "aws_secret_access_key") if config.get(k))
    return name, public, secret


def _google_cloud_service_account(config: dict):
    email, project = config.get("service_account_email"), config.get("project_id")
    if not (email and project):
        raise RuleError("Service account email and project ID must be provided")
    if not all(isinstance(v, str) for v in (email, project)):
        raise RuleError("Service account email and project ID must be strings")
    secret = dict((k, config[k]) for k in ("private_key", "private_key_id", "token_uri") if config.get(k))
    return email, {"service_account_email": email, "project_id": project}, secret


def _azure_blob(config: dict):
    connection_string = config.get("connection_string")
    if not connection_string:
        raise RuleError("Connection string must be provided")
    if not isinstance(connection_string, str):
        raise RuleError("Connection string must be a string")
    account = re.search(r"AccountName=([^;]+)", connection_string)
    if not account:
        raise RuleError("Invalid connection string: AccountName is missing")
    return account.group(1), {"account_name": account.group(1)}, {"connection_string": connection_string}


#: Kinds ``POST …/integrations`` creates from credentials (``IntegrationSerializer._build_integration``).
API_KINDS = {
    "aws-s3": _aws_s3,
    "s3-compatible": _s3_compatible,
    "snowflake": _snowflake,
    "databricks": _databricks,
    "postgresql": _postgresql,
    "aws-redshift": _aws_redshift,
    "google-cloud-service-account": _google_cloud_service_account,
    "azure-blob": _azure_blob,
}
#: Kinds named by the user: a second one with the same name is refused instead of overwritten.
NAMED_KINDS = ("aws-s3", "s3-compatible", "snowflake", "postgresql", "aws-redshift")


def build(kind: str, config) -> tuple[str, dict, dict]:
    """``(integration_id, config, sensitive_config)`` of a new integration of ``kind`` made over the API."""
    if kind not in API_KINDS:
        raise RuleError("Kind not supported")
    if not isinstance(config, dict):
        raise RuleError("Expected an object.", attr="config")
    return API_KINDS[kind](dict(config))


def duplicate_name(name: str) -> RuleError:
    return RuleError(f"An integration named '{name}' already exists")


def display_name(kind: str, integration_id, config: dict) -> str:
    """PostHog's ``Integration.display_name`` for the kinds the emulator knows."""
    name = integration_id or "unknown ID"
    config = config or {}
    if kind == "aws-s3":
        if config.get("aws_role_arn"):
            detail = f"AWS role '{config['aws_role_arn']}'"
        elif config.get("aws_account_id"):
            detail = f"AWS account {config['aws_account_id']}"
        else:
            detail = "access key"
        return f"{name} ({detail})"
    if kind == "aws-redshift":
        if config.get("aws_role_arn"):
            detail = f"AWS role '{config['aws_role_arn']}'"
        elif config.get("aws_account_id"):
            detail = f"AWS account {config['aws_account_id']}"
        elif config.get("user") and config.get("host"):
            detail = f"{config['user']}@{config['host']}"
        else:
            detail = "access key"
        return f"{name} ({detail})"
    if kind == "s3-compatible":
        endpoint = config.get("endpoint_url")
        return f"{name} ({'access key, ' + endpoint if endpoint else 'access key'})"
    if kind == "snowflake":
        return f"{name} (account: {config.get('account')}, {config.get('authentication_type', 'password')} auth)"
    if kind in ("databricks", "gitlab", "google-cloud-service-account", "google-cloud-storage", "google-pubsub"):
        return integration_id or "unknown ID"
    if kind == "email":
        return config.get("email", integration_id)
    if kind == "apns":
        return config.get("bundle_id", integration_id)
    if kind == "github":
        return (config.get("account") or {}).get("name") or integration_id
    return config.get("name") or f"ID: {integration_id}"


def in_use_message(export_names) -> str:
    """Why an integration used by batch exports cannot be deleted (``IntegrationViewSet.perform_destroy``)."""
    return (f"This integration is used by batch exports: {', '.join(sorted(export_names))}. "
            "Update them to use a different integration before disconnecting it.")
