"""Rules of batch exports (facts 5): destination configs, HogQL queries, filters and backfills.

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
# Destinations (facts 5, "Destination types and config keys")
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
    """PostHog's ``validate_date_input``: ISO-8601 with a timezone, else 400 (facts 5)."""
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
