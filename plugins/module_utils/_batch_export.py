# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Batch export helpers shared by batch_export, batch_export_info and batch_export_backfill.

PostHog's destination types with their required, optional and secret (write-only) config keys,
the argument spec of ``destination`` (secret keys are ``no_log`` suboptions, so Ansible masks
their values everywhere, the module invocation log included), timestamp parsing and comparison,
and finding an export by id or name inside an organization.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime
import re

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError

# posthog/batch_exports/models.py and service.py (facts 5, "Destination types and config keys").
# Every type also accepts exclude_events and include_events.
DESTINATION_TYPES = {
    "S3": dict(
        required=("bucket_name", "region", "prefix"),
        optional=("aws_access_key_id", "aws_secret_access_key", "compression", "encryption", "kms_key_id",
                  "endpoint_url", "file_format", "max_file_size_mb", "use_virtual_style_addressing"),
        secret=("aws_access_key_id", "aws_secret_access_key"),
    ),
    "Snowflake": dict(
        required=("account", "user", "database", "warehouse", "schema"),
        optional=("table_name", "authentication_type", "password", "private_key", "private_key_passphrase", "role"),
        secret=("user", "password", "private_key", "private_key_passphrase"),
    ),
    "Postgres": dict(
        required=("user", "password", "host", "database"),
        optional=("schema", "table_name", "port", "has_self_signed_cert"),
        secret=("user", "password"),
    ),
    "Redshift": dict(
        required=("user", "password", "host", "database"),
        optional=("schema", "table_name", "port", "properties_data_type", "mode", "copy_inputs"),
        # copy_inputs carries AWS credentials; the module treats it as write-only as a whole.
        secret=("user", "password", "copy_inputs"),
    ),
    "BigQuery": dict(
        required=("project_id", "dataset_id", "private_key", "private_key_id", "token_uri", "client_email"),
        optional=("table_id", "use_json_type"),
        secret=("private_key", "private_key_id", "client_email", "token_uri"),
    ),
    "Databricks": dict(
        required=("http_path", "catalog", "schema", "table_name"),
        optional=("use_variant_type", "use_automatic_schema_evolution"),
        secret=(),
    ),
    "HTTP": dict(required=("url", "token"), optional=(), secret=("token",)),
    "NoOp": dict(required=(), optional=("arg",), secret=()),
}
COMMON_KEYS = ("exclude_events", "include_events")

INTERVALS = ["hour", "day", "week", "every 5 minutes", "every 15 minutes"]
MODELS = ["events", "persons", "sessions"]

# Types of the config keys that are not strings.
_KEY_TYPES = {
    "max_file_size_mb": dict(type="int"),
    "use_virtual_style_addressing": dict(type="bool"),
    "port": dict(type="int"),
    "has_self_signed_cert": dict(type="bool"),
    "copy_inputs": dict(type="dict"),
    "use_json_type": dict(type="bool"),
    "use_variant_type": dict(type="bool"),
    "use_automatic_schema_evolution": dict(type="bool"),
    "exclude_events": dict(type="list", elements="str"),
    "include_events": dict(type="list", elements="str"),
}


def all_config_keys():
    keys = set(COMMON_KEYS)
    for spec in DESTINATION_TYPES.values():
        keys.update(spec["required"])
        keys.update(spec["optional"])
    return sorted(keys)


def all_secret_keys():
    keys = set()
    for spec in DESTINATION_TYPES.values():
        keys.update(spec["secret"])
    return keys


def config_argument_spec():
    """Suboptions of ``destination.config``: every key of every type; secret keys are ``no_log``."""
    secrets = all_secret_keys()
    options = {}
    for key in all_config_keys():
        option = dict(_KEY_TYPES.get(key, dict(type="str")))
        # no_log is explicit on every key: True for secrets, False for names that only look secret.
        option["no_log"] = key in secrets
        options[key] = option
    return options


def destination_argument_spec():
    return dict(
        type="dict",
        options=dict(
            type=dict(type="str", required=True, choices=sorted(DESTINATION_TYPES)),
            config=dict(type="dict", options=config_argument_spec()),
        ),
    )


def given_config(destination):
    """The config keys the user set (suboptions left out come back as None)."""
    config = (destination or {}).get("config") or {}
    return dict((k, v) for k, v in config.items() if v is not None)


def check_config_keys(destination_type, config):
    """A message when ``config`` has keys the type does not take, else None."""
    spec = DESTINATION_TYPES[destination_type]
    allowed = set(spec["required"]) | set(spec["optional"]) | set(COMMON_KEYS)
    unknown = sorted(k for k in config if k not in allowed)
    if unknown:
        return ("destination.config has key(s) that destinations of type %s do not take: %s; they take %s"
                % (destination_type, ", ".join(unknown), ", ".join(sorted(allowed))))
    return None


def missing_required(destination_type, config):
    return [k for k in DESTINATION_TYPES[destination_type]["required"] if k not in config]


def split_config(destination_type, config):
    """``(public, secret)`` halves of ``config``: PostHog never returns the secret half."""
    secret_names = set(DESTINATION_TYPES[destination_type]["secret"])
    public = dict((k, v) for k, v in config.items() if k not in secret_names)
    secret = dict((k, v) for k, v in config.items() if k in secret_names)
    return public, secret


def normalize_config_value(key, value):
    """What PostHog stores for a value: an empty S3 endpoint_url becomes null."""
    if key == "endpoint_url" and value == "":
        return None
    return value


# ------------------------------------------------------------------------------ timestamps
_ISO_RE = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6})\d*)?)?\s*(Z|[+-]\d{2}:?\d{2})?$", re.I)


def parse_timestamp(value):
    """An aware ``datetime`` for an ISO-8601 string; ``ValueError`` when it is not one.

    Returns ``(datetime, has_timezone)``; a naive value is read as UTC. Written without
    ``fromisoformat`` so every supported Python reads ``Z`` and ``+0000`` alike.
    """
    match = _ISO_RE.match(str(value).strip())
    if not match:
        raise ValueError("%r is not an ISO-8601 date-time such as 2026-01-31T00:00:00Z" % (value,))
    year, month, day, hour, minute, second, fraction, zone = match.groups()
    micro = int((fraction or "0").ljust(6, "0"))
    offset = datetime.timedelta(0)
    if zone and zone.upper() != "Z":
        digits = zone.replace(":", "")
        sign = -1 if digits[0] == "-" else 1
        offset = sign * datetime.timedelta(hours=int(digits[1:3]), minutes=int(digits[3:5]))
    parsed = datetime.datetime(int(year), int(month), int(day), int(hour), int(minute), int(second or 0), micro,
                               tzinfo=datetime.timezone(offset))
    return parsed, zone is not None


def same_instant(wanted, current):
    """Whether two timestamps (strings or None) name the same instant."""
    if wanted in (None, "") or current in (None, ""):
        return wanted in (None, "") and current in (None, "")
    try:
        return parse_timestamp(wanted)[0] == parse_timestamp(current)[0]
    except ValueError:
        return wanted == current


def check_timestamp(name, value):
    """A message when ``value`` is not an ISO-8601 timestamp with a timezone, else None."""
    if value is None:
        return None
    try:
        has_zone = parse_timestamp(value)[1]
    except ValueError as exc:
        return "%s: %s" % (name, exc)
    if not has_zone:
        return ("%s: %r has no timezone; PostHog refuses naive timestamps, add Z or an offset such as +00:00"
                % (name, value))
    return None


def normalize_query(query):
    return " ".join(str(query).split()) if query is not None else None


def current_query(obj):
    """The HogQL query of an export: ``hogql_query`` (spec profile) or ``schema.hogql_query`` (PostHog)."""
    if obj.get("hogql_query"):
        return obj["hogql_query"]
    schema = obj.get("schema") or {}
    return schema.get("hogql_query") if isinstance(schema, dict) else None


# ------------------------------------------------------------------------------- finding
def find_batch_export(ph, collection_path, export_id=None, name=None):
    """The export with ``export_id`` (one GET), or the one named ``name`` (one paged list); None if absent.

    Fails the task when ``name`` matches more than one export.
    """
    if export_id:
        return ph.client.get_or_none("%s%s/" % (collection_path, export_id),
                                     context="reading batch export %s" % export_id)
    matches = [e for e in ph.client.paginate(collection_path, context="looking up batch export %r" % name)
               if e.get("name") == name]
    if len(matches) > 1:
        ph.fail("batch export %r is ambiguous: %d exports have that name (ids %s); set id to pick one"
                % (name, len(matches), ", ".join(str(m.get("id")) for m in matches)))
    return matches[0] if matches else None


# ------------------------------------------------------------------ ambiguous POST failures
def pause_recover(client, detail_path, want_paused, context=None):
    """A ``recover`` for a pause/unpause POST whose answer was lost (5xx, dropped connection).

    Returns the export when it is already as wanted, else None so that the client asks again:
    both actions are no-ops on an export already in that state (facts 5, "Actions").
    """
    def recover():
        obj = client.get_or_none(detail_path, context=context)
        if isinstance(obj, dict) and bool(obj.get("paused")) == want_paused:
            return obj
        return None
    return recover


def _newest_backfills(client, backfills_path, context=None):
    page = client.get(backfills_path, context=context)
    if isinstance(page, dict):
        page = page.get("results")
    return [b for b in page or [] if isinstance(b, dict)]


def backfill_ids(client, backfills_path, context=None):
    """Ids of an export's newest backfills (the first page), or None where the server cannot list them.

    Taken before a backfill is requested, so that a lost answer can be told apart from earlier
    backfills of the same window (:func:`backfill_recover`).
    """
    try:
        return set(b.get("id") for b in _newest_backfills(client, backfills_path, context=context))
    except PostHogError as exc:
        if exc.status in (404, 405):
            return None
        raise


def backfill_recover(client, backfills_path, start_at, end_at, before, context=None):
    """A ``recover`` for a backfill POST whose answer was lost: the backfill of that window that was
    not there before (``before``, from :func:`backfill_ids`), or None when the request did not
    arrive, so that the client asks again. Requesting a backfill is not idempotent: without this,
    a lost answer would either fail the task or start the same backfill twice.
    """
    def recover():
        for backfill in _newest_backfills(client, backfills_path, context=context):
            if backfill.get("id") not in before and same_instant(start_at, backfill.get("start_at")) \
                    and same_instant(end_at, backfill.get("end_at")):
                return backfill
        return None
    return recover
