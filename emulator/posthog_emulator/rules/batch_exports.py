"""Rules of batch exports (docs/posthog_facts.md §5): destination configs, HogQL queries, filters and backfills.

* :data:`DESTINATIONS`: per type, the required and optional config keys with their types and the
  secret keys (never returned). :func:`validate_config` merges, converts and checks a config as
  PostHog's serializer does; the per-type checks follow it.
* :func:`hogql_schema`: a small stand-in for PostHog's HogQL parser, giving the ``schema`` a query
  becomes, with PostHog's messages.
* Backfills: :func:`parse_backfill_input`, :func:`check_backfill_range` and :func:`workflow_id`.

Every refusal is a :class:`~posthog_emulator.rules.RuleError` (Databricks: a
:class:`~posthog_emulator.rules.Forbidden`) with the message PostHog gives.
"""

from __future__ import annotations

import datetime as dt
import re

from posthog_emulator.rules import Forbidden, RuleError

# --------------------------------------------------------------------------------------------
# Destinations (docs/posthog_facts.md §5, "Destination types and config keys")
# --------------------------------------------------------------------------------------------

#: Keys every destination accepts, with their types.
COMMON_KEYS = {"exclude_events": list, "include_events": list}

#: type -> required keys, optional keys (both with types) and secret keys (never returned).
DESTINATIONS = {
    "S3": {
        "required": {"bucket_name": str, "region": str, "prefix": str},
        "optional": {
            "aws_access_key_id": str, "aws_secret_access_key": str, "compression": str, "encryption": str,
            "kms_key_id": str, "endpoint_url": str, "file_format": str, "max_file_size_mb": int,
            "use_virtual_style_addressing": bool,
        },
        "secret": ("aws_access_key_id", "aws_secret_access_key"),
    },
    "Snowflake": {
        "required": {"account": str, "user": str, "database": str, "warehouse": str, "schema": str},
        "optional": {
            "table_name": str, "authentication_type": str, "password": str, "private_key": str,
            "private_key_passphrase": str, "role": str,
        },
        "secret": ("user", "password", "private_key", "private_key_passphrase"),
    },
    "Postgres": {
        "required": {"user": str, "password": str, "host": str, "database": str},
        "optional": {"schema": str, "table_name": str, "port": int, "has_self_signed_cert": bool},
        "secret": ("user", "password"),
    },
    "Redshift": {
        "required": {"user": str, "password": str, "host": str, "database": str},
        "optional": {
            "schema": str, "table_name": str, "port": int, "properties_data_type": str, "mode": str,
            "copy_inputs": dict,
        },
        # The newest code strips secrets recursively, which reaches the AWS keys inside copy_inputs.
        "secret": ("user", "password", "aws_access_key_id", "aws_secret_access_key"),
    },
    "BigQuery": {
        "required": {
            "project_id": str, "dataset_id": str, "private_key": str, "private_key_id": str, "token_uri": str,
            "client_email": str,
        },
        "optional": {"table_id": str, "use_json_type": bool},
        "secret": ("private_key", "private_key_id", "client_email", "token_uri"),
    },
    "Databricks": {
        "required": {"http_path": str, "catalog": str, "schema": str, "table_name": str},
        "optional": {"use_variant_type": bool, "use_automatic_schema_evolution": bool},
        "secret": (),
    },
    "HTTP": {
        "required": {"url": str, "token": str},
        "optional": {},
        "secret": ("token",),
    },
    "NoOp": {
        "required": {},
        "optional": {"arg": str},
        "secret": (),
    },
}  # fmt: skip

HTTP_URLS = ("https://us.i.posthog.com/batch/", "https://eu.i.posthog.com/batch/")
S3_FILE_FORMATS = {"JSONLines": ("gzip", "brotli"), "Parquet": ("zstd", "lz4", "snappy", "gzip", "brotli")}
TYPE_NAMES = {str: "str", int: "int", bool: "bool", list: "list", dict: "dict"}


def secret_keys(destination_type: str) -> tuple:
    return DESTINATIONS.get(destination_type, {}).get("secret", ())


def strip_secrets(value, secrets: tuple):
    """``value`` without the ``secrets`` keys, at any depth."""
    if isinstance(value, dict):
        return {k: strip_secrets(v, secrets) for k, v in value.items() if k not in secrets}
    if isinstance(value, list):
        return [strip_secrets(v, secrets) for v in value]
    return value


def _convert(value, expected):
    """``value`` as ``expected`` where PostHog converts it (strings to bool/int), else raise."""
    if value is None or expected is None:
        return value
    if expected is bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
    elif expected is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if isinstance(value, str) and re.fullmatch(r"-?\d+", value.strip()):
            return int(value)
    elif isinstance(value, expected):
        return value
    raise RuleError(
        f"Configuration has invalid type: got '{type(value).__name__}', expected '{TYPE_NAMES[expected]}'"
    )


def validate_config(destination_type: str, sent: dict, stored: dict | None, check_required: bool) -> dict:
    """The config to store: ``sent`` merged into ``stored`` (when given), checked by the type's rules."""
    spec = DESTINATIONS[destination_type]
    if not isinstance(sent, dict):
        raise RuleError("Configuration must be an object.")
    known = {**spec["required"], **spec["optional"], **COMMON_KEYS}
    unknown = [key for key in sent if key not in known]
    if unknown:
        raise RuleError("Configuration has unknown field/s: " + ", ".join(f"'{key}'" for key in unknown))
    if check_required:
        for key in spec["required"]:
            if key not in sent:
                raise RuleError(f"Configuration missing required field: '{key}'")
    converted = {key: _convert(value, known[key]) for key, value in sent.items()}
    for key in COMMON_KEYS:
        if converted.get(key) is not None and not all(isinstance(item, str) for item in converted[key]):
            raise RuleError(f"Configuration has invalid type: '{key}' must be a list of event names")
    config = {**(stored or {}), **converted}
    check = DESTINATION_CHECKS.get(destination_type)
    if check is not None:
        check(config)
    return config


def _check_s3(config: dict) -> None:
    file_format = config.get("file_format") or "JSONLines"
    if file_format not in S3_FILE_FORMATS:
        raise RuleError(f"File format {file_format} is not supported. Supported: JSONLines, Parquet.")
    compression = config.get("compression")
    if compression and compression not in S3_FILE_FORMATS[file_format]:
        raise RuleError(
            f"Compression {compression} is not supported for file format {file_format}. "
            f"Supported: {', '.join(S3_FILE_FORMATS[file_format])}."
        )
    keys = ("bucket_name", "region", "prefix", "aws_access_key_id", "aws_secret_access_key")
    empty = [key for key in keys if key in config and isinstance(config[key], str) and not config[key].strip()]
    if empty:
        raise RuleError(f"The following inputs are empty: {empty}")
    if config.get("endpoint_url") == "":
        config["endpoint_url"] = None


def _check_snowflake(config: dict) -> None:
    authentication = config.get("authentication_type") or "password"
    if authentication not in ("password", "keypair"):
        raise RuleError(f"Unsupported authentication type: '{authentication}'")
    if authentication == "password" and not config.get("password"):
        raise RuleError("Password is required if authentication type is password")
    if authentication == "keypair" and not config.get("private_key"):
        raise RuleError("Private key is required if authentication type is key pair")


def _check_redshift(config: dict) -> None:
    mode = config.get("mode") or "INSERT"
    if mode not in ("INSERT", "COPY"):
        raise RuleError(f"Unsupported Redshift mode: '{mode}'")
    if mode == "COPY":
        copy_inputs = config.get("copy_inputs")
        if not isinstance(copy_inputs, dict):
            raise RuleError("Redshift COPY mode requires 'copy_inputs'")
        for key in ("s3_bucket", "region_name", "authorization", "bucket_credentials"):
            if not copy_inputs.get(key):
                raise RuleError(f"Redshift COPY mode requires 'copy_inputs.{key}'")


def _check_http(config: dict) -> None:
    if config.get("url") not in HTTP_URLS:
        raise RuleError(f"Invalid destination URL: {config.get('url')}")


DESTINATION_CHECKS = {"S3": _check_s3, "Snowflake": _check_snowflake, "Redshift": _check_redshift, "HTTP": _check_http}


# --------------------------------------------------------------------------------------------
# HogQL (a small stand-in for PostHog's parser: SELECT <fields> FROM events [WHERE ...])
# --------------------------------------------------------------------------------------------

_SELECT_RE = re.compile(r"^\s*select\s+(?P<fields>.+?)\s+from\s+(?P<table>[A-Za-z_][\w.]*)(?P<rest>.*)$", re.I | re.S)


def _split_top_level(text: str) -> list[str]:
    parts, depth, current, quote = [], 0, "", None
    for char in text:
        if quote:
            quote = None if char == quote else quote
        elif char in "'\"`":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
            continue
        current += char
    if current.strip():
        parts.append(current.strip())
    return parts


def hogql_schema(query: str) -> dict:
    """The ``schema`` PostHog derives from a batch export's HogQL query, with its messages."""
    if not isinstance(query, str) or not query.strip():
        raise RuleError("Failed to parse query")
    if re.search(r"\bunion\b", query, re.I):
        raise RuleError("UNIONs are not supported")
    match = _SELECT_RE.match(query)
    if match is None:
        if re.match(r"^\s*select\b", query, re.I) and not re.search(r"\bfrom\b", query, re.I):
            raise RuleError("Query must SELECT FROM events")
        raise RuleError("Failed to parse query")
    if match["table"] != "events":
        raise RuleError("Query must only SELECT FROM events")
    if re.search(r"\bjoin\b", match["rest"], re.I):
        raise RuleError("JOINs are not supported")
    if re.search(r"\(\s*select\b", query, re.I):
        raise RuleError("Query must only SELECT FROM events")
    fields = []
    for part in _split_top_level(match["fields"]):
        alias_match = re.match(r"^(?P<expr>.+?)\s+as\s+(?P<alias>[A-Za-z_]\w*)$", part, re.I | re.S)
        if alias_match:
            fields.append({"expression": alias_match["expr"].strip(), "alias": alias_match["alias"]})
        else:
            fields.append({"expression": part, "alias": part})
    return {"fields": fields, "values": {}, "hogql_query": query.strip()}


def check_destination_type(destination_type: str) -> None:
    """Databricks needs a feature flag and an integration the emulator does not have."""
    if destination_type == "Databricks":
        raise Forbidden("Databricks batch exports are not enabled for this team.")


def check_model(destination_type: str | None, model: str) -> None:
    """HTTP exports carry events only."""
    if destination_type == "HTTP" and model != "events":
        raise RuleError("HTTP batch exports only support the events model.", attr="model")


def check_filters(value):
    """``filters``: a list (or null) that does not reference the data interval."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise RuleError("Filters must be a list.")
    for item in value:
        if isinstance(item, dict) and item.get("key") in ("data_interval_start", "data_interval_end"):
            raise RuleError("Filters may not reference 'data_interval_start' or 'data_interval_end'.")
    return value


# --------------------------------------------------------------------------------------------
# Backfills
# --------------------------------------------------------------------------------------------


def parse_backfill_input(value, name: str):
    """PostHog's ``validate_date_input``: ISO-8601 with a timezone, else 400 (docs/posthog_facts.md §5)."""
    if value is None:
        return None
    try:
        parsed = dt.datetime.fromisoformat(value)
    except (TypeError, ValueError):
        raise RuleError(f"Input {value} is not a valid ISO formatted datetime.")
    if parsed.tzinfo is None:
        raise RuleError(f"Input {value} is naive.")
    return parsed


def workflow_id(batch_export_id, start_at, end_at) -> str:
    """PostHog's backfill workflow id: ``<id>-Backfill-<start UTC iso|START>-<end UTC iso|END>``."""
    start = start_at.astimezone(dt.timezone.utc).isoformat() if start_at else "START"
    end = end_at.astimezone(dt.timezone.utc).isoformat() if end_at else "END"
    return f"{batch_export_id}-Backfill-{start}-{end}"


def check_backfill_range(start_at, end_at, latest_end) -> None:
    """``start_at`` before ``end_at``, and ``end_at`` no later than ``latest_end`` (one interval from now)."""
    if start_at is not None and end_at is not None:
        if start_at >= end_at:
            raise RuleError("The initial backfill datetime 'start_at' happens after 'end_at'")
        if end_at > latest_end:
            raise RuleError(
                f"The provided 'end_at' ({end_at.isoformat()}) is too far into the future. "
                "Cannot backfill beyond 1 batch period into the future."
            )


#: Intervals behind PostHog's ``high-frequency-batch-exports`` feature flag (every interval but
#: ``hour``, ``day`` and ``week``).
HIGH_FREQUENCY_FLAG = "high-frequency-batch-exports"
MESSAGE_HIGH_FREQUENCY = "Higher frequency batch exports are not enabled for this team."


def check_interval_allowed(interval: str, high_frequency_enabled: bool) -> None:
    """``validate_interval`` of PostHog's ``BatchExportSerializer``: a sub-hour interval needs the
    team's ``high-frequency-batch-exports`` flag, else 403, on create and on update alike."""
    if interval not in ("hour", "day", "week") and not high_frequency_enabled:
        raise Forbidden(MESSAGE_HIGH_FREQUENCY)


# --------------------------------------------------------------------------------------------
# The newest generation (``products/batch_exports/backend/presentation/views/batch_export/``)
# --------------------------------------------------------------------------------------------

#: Destination types of the newest code, their keys and secrets. The credentials of the
#: integration-backed types live in an integration; ``AwsS3`` and ``S3Compatible`` do not even
#: declare them (``aws_access_key_id`` … are unknown fields there). Postgres, Redshift, Snowflake
#: and BigQuery still declare their legacy inline keys, as optional ones.
NEWEST_DESTINATIONS = {
    "AwsS3": {
        "required": {"bucket_name": str, "region": str, "prefix": str},
        "optional": {"compression": str, "file_format": str, "max_file_size_mb": int, "encryption": str,
                     "kms_key_id": str},
        "secret": ("aws_access_key_id", "aws_secret_access_key"),
    },
    "S3Compatible": {
        "required": {"bucket_name": str, "region": str, "prefix": str},
        "optional": {"compression": str, "file_format": str, "max_file_size_mb": int,
                     "use_virtual_style_addressing": bool},
        "secret": ("aws_access_key_id", "aws_secret_access_key"),
    },
    "Snowflake": {
        "required": {"database": str, "warehouse": str, "schema": str},
        "optional": {"table_name": str, "role": str, "account": str, "user": str, "authentication_type": str,
                     "password": str, "private_key": str, "private_key_passphrase": str},
        "secret": ("user", "password", "private_key", "private_key_passphrase"),
    },
    "Postgres": {
        "required": {"database": str},
        "optional": {"schema": str, "table_name": str, "has_self_signed_cert": bool, "user": str, "password": str,
                     "host": str, "port": int},
        "secret": ("user", "password"),
    },
    "Redshift": {
        "required": {"database": str},
        "optional": {"host": str, "schema": str, "table_name": str, "port": int, "properties_data_type": str,
                     "mode": str, "copy_inputs": dict, "user": str, "password": str},
        "secret": ("user", "password", "aws_access_key_id", "aws_secret_access_key"),
    },
    "BigQuery": {
        "required": {"dataset_id": str},
        "optional": {"table_id": str, "use_json_type": bool, "project_id": str, "private_key": str,
                     "private_key_id": str, "token_uri": str, "client_email": str},
        "secret": ("private_key", "private_key_id", "client_email", "token_uri"),
    },
    "Databricks": DESTINATIONS["Databricks"],
    "AzureBlob": {
        "required": {"container_name": str},
        "optional": {"prefix": str, "compression": str, "file_format": str, "max_file_size_mb": int},
        "secret": (),
    },
    "HTTP": DESTINATIONS["HTTP"],
    "NoOp": DESTINATIONS["NoOp"],
    # Backfills into Workflows: PostHog's own, behind a feature flag (the API refuses them, the
    # list hides them); the emulator makes them through the control API only.
    "Workflows": {"required": {}, "optional": {}, "secret": ()},
    # Kept so that old rows keep reading; every write is refused (check_newest_destination_type).
    "S3": DESTINATIONS["S3"],
}  # fmt: skip

#: Integration kind per type, and the message a wrong kind gets.
NEWEST_INTEGRATION_KINDS = {
    "AwsS3": ("aws-s3", None), "S3Compatible": ("s3-compatible", None),
    "Snowflake": ("snowflake", "Integration is not a Snowflake integration."),
    "Postgres": ("postgresql", "Integration is not a PostgreSQL integration."),
    "Redshift": ("aws-redshift", "Integration is not a Redshift integration."),
    "BigQuery": ("google-cloud-service-account", "Integration is not a Google Cloud service account integration."),
    "Databricks": ("databricks", "Integration is not a Databricks integration."),
    "AzureBlob": ("azure-blob", "Integration is not an Azure Blob integration."),
}  # fmt: skip
#: Types that need an integration on every write, and those that need one only to be created
#: (exports made before integrations keep their inline credentials).
INTEGRATION_ALWAYS = ("AwsS3", "S3Compatible", "Snowflake", "BigQuery", "Databricks", "AzureBlob")
INTEGRATION_ON_CREATE = ("Postgres", "Redshift")
S3_FAMILY = ("AwsS3", "S3Compatible")
SUPPORTED_FILTER_TYPES = ("event", "hogql", "person")
#: Names of PostHog's ``HogQLQueryModifiers`` (``posthog/schema.py``) a ``hogql`` export may set.
HOGQL_MODIFIERS = (
    "bounceRateDurationSeconds", "bounceRatePageViewMode", "convertToProjectTimezone", "customChannelTypeRules",
    "dataWarehouseEventsModifiers", "debug", "formatCsvAllowDoubleQuotes", "inCohortVia", "materializationMode",
    "optimizeJoinedFilters", "optimizeProjections", "personsArgMaxVersion", "personsJoinMode", "personsOnEventsMode",
    "propertyGroupsMode", "s3TableUseInvalidColumns", "sessionTableVersion", "sessionsV2JoinMode", "timings",
    "useMaterializedViews", "usePresortedEventsTable", "useWebAnalyticsPreAggregatedTables",
)  # fmt: skip

MESSAGE_S3_DEPRECATED = (
    "The 'S3' destination type is deprecated and can no longer be used. "
    "Use 'AwsS3' for AWS S3, or 'S3Compatible' for S3-compatible storage."
)
MESSAGE_WORKFLOWS = "Backfilling Workflows is not enabled for this team."
INCREMENTAL_MODES = ("APPEND", "MERGE")
MESSAGE_MODEL_SWITCH = "Changing the model to or from 'hogql' is not supported. Create a new batch export instead."


def newest_secret_keys(destination_type: str) -> tuple:
    return NEWEST_DESTINATIONS.get(destination_type, {}).get("secret", ())


def validate_newest_config(destination_type: str, sent: dict, stored: dict | None, check_required: bool) -> dict:
    """The config to store: ``sent`` deep-merged into ``stored`` (``recursive_dict_merge``), with
    the newest code's unknown-field, required-field and type checks."""
    spec = NEWEST_DESTINATIONS[destination_type]
    if not isinstance(sent, dict):
        raise RuleError("Configuration must be an object.")
    known = {**spec["required"], **spec["optional"], **COMMON_KEYS}
    unknown = sorted(key for key in sent if key not in known)
    if unknown:
        raise RuleError("Configuration has unknown field/s: " + ", ".join(f"'{key}'" for key in unknown))
    if check_required:
        for key in spec["required"]:
            if key not in sent:
                raise RuleError(f"Configuration missing required field: '{key}'")
    converted = {key: _convert(value, known[key]) for key, value in sent.items()}
    return recursive_merge(stored or {}, converted)


def recursive_merge(old: dict, new: dict) -> dict:
    """PostHog's ``recursive_dict_merge``: dicts on both sides merge, anything else is replaced."""
    merged = {**old, **new}
    for key, value in merged.items():
        if isinstance(value, dict):
            old_value, new_value = old.get(key), new.get(key)
            merged[key] = recursive_merge(old_value if isinstance(old_value, dict) else {},
                                          new_value if isinstance(new_value, dict) else {})
    return merged


def check_newest_destination_type(destination_type: str, current_type: str | None) -> None:
    """A type change and the legacy ``S3`` type are refused (``validate_destination``)."""
    if current_type is not None and destination_type != current_type:
        raise RuleError(f"Cannot change destination type from '{current_type}' to '{destination_type}'. "
                        "Delete this batch export and create a new one with the new destination type.")
    if destination_type == "S3":
        raise RuleError(MESSAGE_S3_DEPRECATED)
    if destination_type == "Workflows":
        raise Forbidden(MESSAGE_WORKFLOWS)


def check_integration(destination_type: str, integration_kind: str | None, creating: bool) -> None:
    """The integration a destination type needs, of the right kind (``integration_kind`` None: none)."""
    if destination_type not in NEWEST_INTEGRATION_KINDS:
        return
    needed = destination_type in INTEGRATION_ALWAYS or (creating and destination_type in INTEGRATION_ON_CREATE)
    if integration_kind is None:
        if needed:
            name = "Azure Blob" if destination_type == "AzureBlob" else destination_type
            raise RuleError(f"Integration is required for {name} batch exports")
        return
    kind, message = NEWEST_INTEGRATION_KINDS[destination_type]
    if integration_kind != kind:
        if destination_type in S3_FAMILY:
            raise RuleError(f"Integration provided is not an AWS S3 integration (got kind='{integration_kind}')")
        raise RuleError(message)


def keeps_integration(destination_type: str) -> bool:
    """Whether a PATCH whose destination leaves the integration out keeps the stored one while it is
    validated: Snowflake and the S3 family do; Databricks, BigQuery and Azure Blob answer
    "Integration is required" (their checks read the request only)."""
    return destination_type == "Snowflake" or destination_type in S3_FAMILY


def check_sticky_integration(destination_type: str, stored_integration, integration) -> None:
    """A Redshift export that uses an integration cannot drop back to inline credentials."""
    if destination_type == "Redshift" and stored_integration is not None and integration is None:
        raise RuleError("Cannot remove the integration from a Redshift batch export that uses one. "
                        "Re-send its `integration` to keep it (or a different one to swap).")


def check_newest_config(destination_type: str, config: dict, sent: dict) -> None:
    """The per-type checks of ``validate_destination`` on the merged config."""
    if destination_type in S3_FAMILY:
        empty = [key for key in ("bucket_name", "region", "prefix")
                 if isinstance(sent.get(key), str) and not sent[key].strip()]
        if empty:
            raise RuleError(f"The following inputs are empty: {empty}")
    if destination_type in S3_FAMILY or destination_type == "AzureBlob":
        file_format = config.get("file_format", "JSONLines")
        if file_format not in S3_FILE_FORMATS:
            raise RuleError(f"File format {file_format} is not supported. Supported file formats are "
                            f"{list(S3_FILE_FORMATS)}")
        compression = config.get("compression")
        if compression and compression not in S3_FILE_FORMATS[file_format]:
            raise RuleError(f"Compression {compression} is not supported for file format {file_format}. "
                            f"Supported compressions are {list(S3_FILE_FORMATS[file_format])}")
    if destination_type == "HTTP":
        _check_http(config)
    if destination_type == "Redshift" and config.get("mode") == "COPY":
        copy_inputs = config.get("copy_inputs") or {}
        if not copy_inputs:
            raise RuleError("Missing required inputs for 'COPY'")
        if {"s3_bucket", "region_name", "authorization", "bucket_credentials"} - set(copy_inputs):
            raise RuleError("Missing required input for 'COPY'")


def check_newest_model(current_model: str | None, model: str) -> None:
    """Switching to or from ``hogql`` is refused."""
    if current_model is not None and model != current_model and "hogql" in (model, current_model):
        raise RuleError(MESSAGE_MODEL_SWITCH, attr="model")


def check_hogql_model(model: str, filters, hogql_query, hogql_modifiers) -> None:
    """``hogql`` needs a query and takes no filters; modifiers belong to ``hogql`` only."""
    if model == "hogql":
        if filters:
            raise RuleError("'filters' are not supported when 'model' is 'hogql'", attr="filters")
        if not hogql_query:
            raise RuleError("'hogql_query' is required when 'model' is 'hogql'", attr="hogql_query")
    elif hogql_modifiers is not None:
        raise RuleError("'hogql_modifiers' are only supported when 'model' is 'hogql'", attr="hogql_modifiers")


def check_hogql_modifiers(value):
    """An object of known modifier names (``HogQLQueryModifiers``); unknown names are refused."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise RuleError("Input should be a valid dictionary or instance of HogQLQueryModifiers")
    unknown = sorted(key for key in value if key not in HOGQL_MODIFIERS)
    if unknown:
        raise RuleError([f"{key}: Extra inputs are not permitted" for key in unknown][0])
    return {key: item for key, item in value.items() if item is not None}


def check_newest_filters(value):
    """``validate_batch_export_filters`` (``products/batch_exports/backend/filters.py``)."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise RuleError("'filters' should be an array of filters")
    for item in value:
        if not isinstance(item, dict):
            raise RuleError("Each filter must be an object")
        if any(key in item for key in ("data_interval_start", "data_interval_end")):
            raise RuleError("'data_interval_start' and 'data_interval_end' are run attributes and not 'filters'. "
                            "Trigger a backfill if you wish to manually control which periods to batch export.")
        if item.get("type") not in SUPPORTED_FILTER_TYPES:
            raise RuleError("Each filter must have a 'type' of one of: "
                            + ", ".join(repr(t) for t in sorted(SUPPORTED_FILTER_TYPES)))
    return value


def interval_offset(interval: str, partial: bool, offsets: dict, current_offset):
    """``interval_offset`` (seconds) from ``offset_day``/``offset_hour`` as ``BatchExportSerializer.validate``
    computes it; ``offsets`` holds the offsets the request sent. Returns ``(set, value)``."""
    day_sent, hour_sent = "offset_day" in offsets, "offset_hour" in offsets
    day, hour = offsets.get("offset_day"), offsets.get("offset_hour")
    if interval == "day":
        if day_sent and day is not None:
            raise RuleError("offset_day should not be specified for daily intervals")
        if hour_sent:
            return True, hour * 3600 if hour is not None else None
        return (False, current_offset) if partial else (True, None)
    if interval == "week":
        if day_sent or hour_sent:
            return True, (day or 0) * 86400 + (hour or 0) * 3600
        return (False, current_offset) if partial else (True, None)
    if day_sent and day is not None:
        raise RuleError("offset_day is not applicable for non-daily/weekly intervals")
    if hour_sent and hour is not None:
        raise RuleError("offset_hour is not applicable for non-daily/weekly intervals")
    return True, None


def check_offset_for_interval(name: str, value, interval: str | None):
    """``validate_offset_day`` / ``validate_offset_hour``: against the interval sent, else the export's."""
    if value is None:
        return None
    if name == "offset_day" and interval != "week":
        raise RuleError("offset_day is not applicable for non-weekly intervals")
    if name == "offset_hour" and interval not in ("day", "week"):
        raise RuleError("offset_hour is not applicable for non-daily/weekly intervals")
    return value


def parse_newest_backfill_input(value, interval: str, offset_day: int | None, offset_hour: int | None, tz):
    """The newest ``validate_date_input``: a date (``YYYY-MM-DD``) for daily and weekly exports, on
    the export's week day for weekly ones, else an ISO-8601 date-time with a timezone."""
    if value is None:
        return None
    if interval in ("day", "week"):
        try:
            parsed_date = dt.date.fromisoformat(value)
        except (TypeError, ValueError):
            try:
                dt.datetime.fromisoformat(value)
            except (TypeError, ValueError):
                raise RuleError(f"Input '{value}' is not a valid ISO formatted date.")
            raise RuleError(f"Input '{value}' is not a valid ISO formatted date. Daily or weekly batch export "
                            "backfills expect only the date component, but a time was included.")
        if interval == "week":
            day = parsed_date.isoweekday() % 7
            if day != (offset_day or 0):
                names = ("Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday")
                raise RuleError(f"Input {value} is not on the correct day of the week for this batch export. "
                                f"{value} is a {parsed_date.strftime('%A')} but this batch export is configured to run "
                                f"weekly on {names[offset_day or 0]}.")
        return dt.datetime.combine(parsed_date, dt.time(hour=offset_hour or 0)).replace(tzinfo=tz)
    return parse_backfill_input(value, "")


def check_newest_backfill_range(start_at, end_at, now) -> None:
    """``create_backfill``: a start (backfilling from the beginning of time needs a feature flag the
    emulator's teams do not have), start before end, and an end that is not in the future."""
    if start_at is None:
        raise RuleError("Backfilling from the beginning of time is not enabled for this team.")
    if end_at is None:
        return
    if start_at >= end_at:
        raise RuleError("The initial backfill datetime 'start_at' must be before 'end_at'")
    if end_at > now:
        raise RuleError(f"The provided 'end_at' ({end_at.isoformat()}) is in the future")


def query_columns(query: str) -> set | None:
    """The output columns of a ``hogql`` export's query (its aliases, or the selected names), or
    None when the emulator cannot tell (``*``, or no plain ``SELECT … FROM``)."""
    match = re.match(r"^\s*select\s+(?P<fields>.+?)\s+from\s", query or "", re.I | re.S)
    if match is None:
        return None
    columns = set()
    for part in _split_top_level(match["fields"]):
        alias = re.match(r"^(?P<expr>.+?)\s+as\s+[`\"]?(?P<alias>[A-Za-z_$][\w$]*)[`\"]?$", part, re.I | re.S)
        if alias:
            columns.add(alias["alias"])
        elif part.strip() == "*" or part.strip().endswith(".*"):
            return None
        else:
            columns.add(part.strip().split(".")[-1].strip("`\""))
    return columns


def check_incremental(model: str, sent: dict, saved: dict, query: str | None) -> None:
    """``primary_key`` and ``version_key`` belong to the ``hogql`` model; ``MERGE`` needs a primary
    key; both keys name columns of the query (``BatchExportSerializer._validate_hogql_query``)."""
    for name in ("primary_key", "version_key"):
        if sent.get(name) is not None and model != "hogql":
            raise RuleError(f"'{name}' is only supported for 'hogql' not '{model}' model", attr=name)
    if model != "hogql":
        return
    values = {name: sent[name] if name in sent else saved.get(name) for name in
              ("primary_key", "version_key", "incremental_mode")}
    if not values["primary_key"] and values["incremental_mode"] == "MERGE":
        raise RuleError("'primary_key' is required when 'incremental_mode' is 'MERGE'", attr="primary_key")
    columns = query_columns(query)
    if columns is None:
        return
    for name in ("primary_key", "version_key"):
        missing = sorted(set(values[name] or ()) - columns)
        if missing:
            raise RuleError(f"'{name}' contains columns that are not present in the query: {','.join(missing)}",
                            attr=name)


# ------------------------------------------------------------------ newest: runs, backfills, tests
#: ``settings.BATCH_EXPORT_MAX_CONCURRENT_BACKFILLS_PER_TEAM`` (its value is not in the code read;
#: the emulator's default, changed through the control API).
DEFAULT_MAX_CONCURRENT_BACKFILLS = 10
RUN_ORDERINGS = ("created_at", "-created_at", "data_interval_start", "-data_interval_start")


def too_many_backfills_message(limit: int) -> str:
    return (f"This team already has {limit} batch export backfills running. "
            "Wait for some to finish or cancel them before creating more.")


def relative_start(value: str | None, now, tz):
    """``relative_date_parse`` as the run listing uses it: ``-7d`` style (days, hours, weeks) back
    from now, a day unit truncated to the start of that day in the team's timezone, or an
    ISO-8601 date-time. Raises ``ValueError`` for anything else."""
    match = re.fullmatch(r"-(\d+)([hdwm])", value or "-7d")
    if match:
        amount, unit = int(match.group(1)), match.group(2)
        delta = {"h": dt.timedelta(hours=amount), "d": dt.timedelta(days=amount), "w": dt.timedelta(weeks=amount),
                 "m": dt.timedelta(days=30 * amount)}[unit]
        moment = now.astimezone(tz) - delta
        if unit != "h":
            moment = moment.replace(hour=0, minute=0, second=0, microsecond=0)
        return moment
    parsed = dt.datetime.fromisoformat(value)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=tz)


#: What ``GET …/batch_exports/test/?destination=<type>`` describes: the steps of each type's
#: ``DestinationTest`` (``presentation/views/destination_tests/``; ``s3.py`` read, the others named).
DESTINATION_TEST_STEPS = {
    "AwsS3": [("Ensure we can assume provided AWS role",
               "Ensure the configured AWS role ARN exists and that we have the required trust relationship to "
               "assume it."),
              ("Check S3 bucket exists",
               "Ensure the configured S3 bucket exists and that we have the required permissions to access it.")],
    "S3Compatible": [("Check S3 bucket exists",
                      "Ensure the configured S3 bucket exists and that we have the required permissions to access "
                      "it.")],
}
for _other in ("BigQuery", "Snowflake", "Databricks", "AzureBlob"):
    DESTINATION_TEST_STEPS[_other] = [(f"Check {_other} destination", f"Ensure the {_other} destination is reachable.")]


def destination_test(destination_type: str) -> dict | None:
    steps = DESTINATION_TEST_STEPS.get(destination_type)
    if steps is None:
        return None
    return {"steps": [{"name": name, "description": description, "result": None} for name, description in steps]}


def destination_test_step(destination_type: str, step) -> dict:
    """The result of one step: the emulator reaches no destination, so a step that would connect
    fails as PostHog's does when the destination cannot be reached; the AWS role step is skipped
    without a role ARN (``S3AssumeRoleTestStep``)."""
    steps = DESTINATION_TEST_STEPS.get(destination_type) or []
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < len(steps):
        return {"status": "Failed", "message": f"Unknown test step {step!r}."}
    if destination_type == "AwsS3" and step == 0:
        return {"status": "Skipped", "message": "No configured AWS role ARN, skipping test"}
    return {"status": "Failed", "message": "The emulator does not connect to destinations."}
