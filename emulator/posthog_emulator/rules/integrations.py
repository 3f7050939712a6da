"""Rules of integrations (``posthog/api/integration.py``, ``posthog/models/integration/``).

* :data:`API_KINDS`: the kinds a ``POST …/integrations`` creates from a credentials form (the
  others come from an OAuth flow in the web app; the control API creates any kind). Each turns the
  body's ``config`` into a :class:`Built` (``integration_id``, ``config``, ``sensitive_config``,
  whether the user named it) with PostHog's checks and messages (:func:`build`), as the newest
  ``posthog/models/integration/`` files do (``aws.py``, ``snowflake.py``, ``databricks.py``,
  ``postgres.py``, ``google_cloud.py``, ``azure_blob.py``; docs/posthog_facts.md §16).
* :func:`display_name`: PostHog's ``Integration.display_name``.
* :data:`EXPORT_KINDS`: the kind each batch export destination type needs.
"""

from __future__ import annotations

import re

from posthog_emulator.rules import RuleError
from posthog_emulator.rules.identity_providers import url_not_allowed_reason

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
AWS_ROLE_ARN_RE = re.compile(r"^arn:aws(-[a-z-]+)?:iam::\d{12}:role/.+")
WORKGROUP_ARN_RE = re.compile(r"^arn:aws(-[a-z-]+)?:redshift-serverless:[a-z0-9-]+:\d{12}:workgroup/.+")
SSL_MODES = ("require", "verify-ca", "verify-full")
#: What the emulator records as the AWS account of keys (PostHog asks AWS STS ``GetCallerIdentity``).
MADE_UP_ACCOUNT = "123456789012"


class Built:
    """A new integration as PostHog's ``integration_from_config`` makes it: ``integration_id`` (its
    identifier in the project), the ``config`` shown and the ``sensitive_config`` never shown, and
    ``named``: created from a name the user chose, so a second one of that name is refused (400)
    instead of overwriting (upsert) the first."""

    def __init__(self, integration_id: str, config: dict, sensitive: dict, named: bool):
        self.integration_id, self.config, self.sensitive, self.named = integration_id, config, sensitive, named


def _required(config: dict, key: str, friendly: str, kind: str) -> str:
    """PostHog's ``common._return_non_empty_str_from_config``."""
    value = config.get(key)
    if isinstance(value, str) and value:
        return value
    raise RuleError(f"{friendly} is required for {kind} integration")


def _redshift_extra(config: dict) -> dict:
    """``aws._return_extra_redshift_configuration``: the database user, and optional groups,
    auto_create and Redshift Serverless workgroup."""
    extra = {"user": _required(config, "user", "Username", "AWS")}
    groups = config.get("groups")
    if groups is not None:
        if not isinstance(groups, list) or not groups or any(not isinstance(g, str) for g in groups):
            raise RuleError("Groups must be a list of at least one string")
        extra["groups"] = groups
    auto_create = config.get("auto_create")
    if auto_create is not None:
        if not isinstance(auto_create, bool):
            raise RuleError("Auto create can only be True or False")
        extra["auto_create"] = auto_create
    workgroup = config.get("workgroup_arn")
    if workgroup is not None:
        if not isinstance(workgroup, str) or not WORKGROUP_ARN_RE.match(workgroup):
            raise RuleError("Workgroup ARN must be a valid Redshift Serverless workgroup ARN")
        extra["workgroup_arn"] = workgroup
    return extra


def _aws_role(config: dict, redshift: bool) -> Built:
    """``AWSRoleBasedIntegration.integration_from_config`` (S3 and Redshift). PostHog then asks AWS
    STS to assume the role (and checks the role requires PostHog's external id); the emulator checks
    the ARN's shape only."""
    name = _required(config, "name", "A name", "AWS")
    role = _required(config, "aws_role_arn", "A valid role ARN", "AWS")
    extra = _redshift_extra(config) if redshift else {}
    if not AWS_ROLE_ARN_RE.match(role):
        raise RuleError("AWS role ARN is not valid")
    return Built(name, {"name": name, "aws_role_arn": role, **extra}, {}, True)


def _aws_keys(config: dict, redshift: bool) -> Built:
    """``AWSCredentialsIntegration.integration_from_config``: the keys are checked with AWS STS,
    which answers the account id shown in the config (the emulator makes one up)."""
    name = _required(config, "name", "A name", "AWS")
    key_id = _required(config, "aws_access_key_id", "Access key ID", "AWS")
    secret = _required(config, "aws_secret_access_key", "Secret access key", "AWS")
    extra = _redshift_extra(config) if redshift else {}
    return Built(name, {"name": name, "aws_account_id": MADE_UP_ACCOUNT, **extra},
                 {"aws_access_key_id": key_id, "aws_secret_access_key": secret}, True)


def _aws_s3(config: dict, team_id: int) -> Built:
    return _aws_role(config, False) if "aws_role_arn" in config else _aws_keys(config, False)


def _s3_compatible(config: dict, team_id: int) -> Built:
    """``S3CompatibleIntegration.integration_from_config``: the endpoint must pass PostHog's SSRF
    guard (``is_url_allowed``)."""
    name = _required(config, "name", "A name", "S3-compatible")
    key_id = _required(config, "aws_access_key_id", "Access key ID", "S3-compatible")
    secret = _required(config, "aws_secret_access_key", "Secret access key", "S3-compatible")
    endpoint = _required(config, "endpoint_url", "Endpoint URL", "S3-compatible")
    reason = url_not_allowed_reason(endpoint)
    if reason is not None:
        raise RuleError(f"Invalid endpoint URL: {reason}")
    return Built(name, {"name": name, "endpoint_url": endpoint},
                 {"aws_access_key_id": key_id, "aws_secret_access_key": secret}, True)


def _snowflake(config: dict, team_id: int) -> Built:
    """``SnowflakeIntegration.integration_from_config`` (``posthog/models/integration/snowflake.py``)."""
    name, account, user = config.get("name"), config.get("account"), config.get("user")
    authentication_type = config.get("authentication_type", "password")
    if not (name and account and user):
        raise RuleError("Name, account, and user must be provided")
    if not all(isinstance(v, str) for v in (name, account, user, authentication_type)):
        raise RuleError("Name, account, user, and authentication type must be strings")
    secrets = [config.get(k) for k in ("password", "private_key", "private_key_passphrase")]
    if not all(v is None or isinstance(v, str) for v in secrets):
        raise RuleError("Password, private key, and private key passphrase must be strings")
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
    return Built(name, {"name": name, "account": account, "user": user, "authentication_type": authentication_type},
                 sensitive, True)


def _databricks(config: dict, team_id: int) -> Built:
    """``IntegrationSerializer._build_integration`` and ``DatabricksIntegration.integration_from_config``:
    kept by its server hostname (an upsert); the client id is a secret too."""
    values = [config.get(k) for k in ("server_hostname", "client_id", "client_secret")]
    if not all(values):
        raise RuleError("Server hostname, client ID, and client secret must be provided")
    if not all(isinstance(v, str) for v in values):
        raise RuleError("Server hostname, client ID, and client secret must be strings")
    host = values[0]
    if host.startswith("http"):
        raise RuleError("Databricks integration is not valid: 'server_hostname' should not be a full URL")
    if url_not_allowed_reason(f"https://{host}") is not None:
        raise RuleError(f"Databricks integration error: could not validate hostname '{host}'")
    return Built(host, {"server_hostname": host}, {"client_id": values[1], "client_secret": values[2]}, False)


def _postgres_server(config: dict, team_id: int, kind: str) -> Built:
    """``PostgreSQLServerIntegration.integration_from_config`` (``posthog/models/integration/postgres.py``):
    kept by ``<team>-<host>-<port>-<user>`` (an upsert). PostHog resolves the host and refuses
    internal addresses; the emulator refuses what it can tell without resolving."""
    host = _required(config, "host", "Host", kind)
    if url_not_allowed_reason(f"https://{host}") is not None:
        raise RuleError(f"Provided host '{host}' is not valid")
    port = config.get("port")
    try:
        port = int(port)
    except (TypeError, ValueError):
        raise RuleError("Port must be an integer")
    if port > 65535 or port < 0:
        raise RuleError(f"A valid port is required for an {kind} integration")
    user = _required(config, "user", "A username", kind)
    password = _required(config, "password", "A password", kind)
    ssl_mode = config.get("ssl_mode", "require")
    if ssl_mode not in SSL_MODES:
        raise RuleError("SSL mode must be one of: require, verify-ca, verify-full")
    root_cert = config.get("ssl_root_cert")
    if ssl_mode in ("verify-ca", "verify-full"):
        if not root_cert:
            raise RuleError("SSL root certificate must be provided when verifying server certificates")
        if not isinstance(root_cert, str):
            raise RuleError("SSL root certificate must be a string")
    return Built(f"{team_id}-{host}-{port}-{user}",
                 {"host": host, "port": port, "user": user, "ssl_mode": ssl_mode, "ssl_root_cert": root_cert},
                 {"password": password}, False)


def _postgresql(config: dict, team_id: int) -> Built:
    return _postgres_server(config, team_id, "postgresql")


def _aws_redshift(config: dict, team_id: int) -> Built:
    """``IntegrationSerializer._build_integration``'s three Redshift variants: an AWS role, AWS keys
    (both named), or a database login (kept by host, port and user, as PostgreSQL)."""
    if "aws_role_arn" in config:
        return _aws_role(config, True)
    if any(key in config for key in ("aws_access_key_id", "aws_secret_access_key")):
        return _aws_keys(config, True)
    if any(key in config for key in ("host", "port", "user", "password")):
        return _postgres_server(config, team_id, "aws-redshift")
    raise RuleError("Missing required inputs")


def _google_cloud_service_account(config: dict, team_id: int) -> Built:
    """``GoogleCloudServiceAccountIntegration.integration_from_service_account``: a key file's parts,
    or none (PostHog impersonates the service account); kept by ``<email>-<team>-<variant>``."""
    email, project = config.get("service_account_email"), config.get("project_id")
    if not (email and project):
        raise RuleError("Service account email and project ID must be provided")
    if not all(isinstance(v, str) for v in (email, project)):
        raise RuleError("Service account email and project ID must be strings")
    parts = [config.get(k) for k in ("private_key", "private_key_id", "token_uri")]
    keyed = all(isinstance(v, str) for v in parts)
    secret = dict(zip(("private_key", "private_key_id", "token_uri"), parts)) if keyed else {}
    variant = "key-file" if keyed else "impersonated"
    return Built(f"{email}-{team_id}-{variant}", {"project_id": project, "service_account_email": email}, secret,
                 False)


def _azure_blob(config: dict, team_id: int) -> Built:
    """``AzureBlobIntegration.integration_from_config`` and ``validate_azure_blob_connection_string``
    (``posthog/models/integration/azure_blob.py``): kept by the storage account's name (an upsert),
    with nothing shown in ``config``."""
    connection_string = config.get("connection_string")
    if not connection_string:
        raise RuleError("Connection string must be provided")
    if not isinstance(connection_string, str):
        raise RuleError("Connection string must be a string")
    account = next((part.strip().split("=", 1)[1] for part in connection_string.split(";")
                    if part.strip().startswith("AccountName=")), None)
    message = "Could not extract AccountName from connection string. Ensure it contains 'AccountName=<your-account-name>;'"
    if not account:
        raise RuleError(message)
    settings = {}
    for part in connection_string.rstrip(";").split(";"):
        key, sep, value = part.partition("=")
        if not sep or key != key.strip():
            raise RuleError("Malformed connection string")
        settings[key.upper()] = value
    if settings.get("USEDEVELOPMENTSTORAGE", "").lower() == "true":
        raise RuleError("Emulator account not supported")
    protocol = settings.get("DEFAULTENDPOINTSPROTOCOL", "https").lower()
    if protocol not in ("http", "https"):
        raise RuleError("'DefaultEndpointsProtocol' must be 'http' or 'https'")
    if protocol != "https":
        raise RuleError("'DefaultEndpointsProtocol' must be 'https'")
    endpoints = [settings[k] for k in ("BLOBENDPOINT", "BLOBSECONDARYENDPOINT", "FILEENDPOINT", "TABLEENDPOINT",
                                       "QUEUEENDPOINT") if k in settings]
    if "BLOBENDPOINT" not in settings:
        suffix = settings.get("ENDPOINTSUFFIX") or "core.windows.net"
        endpoints += [f"{protocol}://{account}.blob.{suffix}", f"https://{account}-secondary.blob.{suffix}"]
    for endpoint in endpoints:
        if not endpoint.lower().startswith("https://"):
            raise RuleError("Endpoints in the connection string must use https")
        reason = url_not_allowed_reason(endpoint)
        if reason is not None:
            raise RuleError(f"Invalid endpoint found in connection string: {reason}")
    return Built(account, {}, {"connection_string": connection_string}, False)


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


def build(kind: str, config, team_id: int) -> Built:
    """A new integration of ``kind`` made over the API (:class:`Built`), with PostHog's checks."""
    if kind not in API_KINDS:
        raise RuleError("Kind not supported")
    if not isinstance(config, dict):
        raise RuleError("Expected an object.", attr="config")
    config = dict((k, v) for k, v in config.items() if k not in ("team_id", "created_by", "organization_id"))
    return API_KINDS[kind](config, team_id)


def duplicate_name(name: str) -> RuleError:
    return RuleError(f"An integration named '{name}' already exists")


#: ``IntegrationSerializer.create``: overwriting (an upsert of an existing integration id) needs a
#: project admin (or the creator, for the kinds a creator may manage).
MESSAGE_OVERWRITE = "Editing an existing integration requires project admin access."


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
    if kind in ("databricks", "gitlab", "google-cloud-storage", "google-pubsub"):
        return integration_id or "unknown ID"
    if kind == "email":
        return config.get("email", integration_id)
    if kind == "apns":
        return config.get("bundle_id", integration_id)
    if kind == "github":
        return (config.get("account") or {}).get("name") or integration_id
    if kind in API_KINDS:  # postgresql, google-cloud-service-account, azure-blob, a Redshift login
        return f"ID: {integration_id}"
    # OAuth kinds: PostHog reads the account's name at the kind's name_path (oauth.py); the control
    # API takes it as config.name
    return config.get("name") or f"ID: {integration_id}"


def in_use_message(export_names) -> str:
    """Why an integration used by batch exports cannot be deleted (``IntegrationViewSet.perform_destroy``)."""
    return (f"This integration is used by batch exports: {', '.join(sorted(export_names))}. "
            "Update them to use a different integration before disconnecting it.")
