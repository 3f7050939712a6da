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

import copy
import datetime
import re

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._module import list_or_get
from ansible_collections.posthog.admin.plugins.module_utils._resource import (
    SECRET_MASK,
    UPDATE,
    Failure,
    Resource,
    Step,
    values_match,
)

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


# ------------------------------------------------------------------------------ the resource
ITEM_OPTIONS = ("state", "id", "name", "model", "interval", "destination", "update_secrets", "start_at", "end_at",
                "hogql_query", "project_id")

ARGUMENT_SPEC = dict(
    state=dict(type="str", default="present", choices=["present", "paused", "absent"]),
    id=dict(type="str"),
    name=dict(type="str"),
    model=dict(type="str", choices=MODELS),
    interval=dict(type="str", choices=INTERVALS),
    destination=destination_argument_spec(),
    update_secrets=dict(type="str", default="on_create", choices=["on_create", "always"], no_log=False),
    start_at=dict(type="str"),
    end_at=dict(type="str"),
    hogql_query=dict(type="str"),
    project_id=dict(type="str"),
)

BACKFILL_ARGUMENT_SPEC = dict(
    id=dict(type="str"),
    name=dict(type="str"),
    start_at=dict(type="str", required=True),
    end_at=dict(type="str", required=True),
)

INFO_ARGUMENT_SPEC = dict(id=dict(type="str"), name=dict(type="str"), paused=dict(type="bool"))


def window_problems(params):
    """Problems with ``start_at``/``end_at``: ISO-8601 with a timezone, start before end."""
    problems = [problem for problem in (check_timestamp(option, params.get(option))
                                        for option in ("start_at", "end_at")) if problem]
    if not problems and params.get("start_at") and params.get("end_at") and \
            parse_timestamp(params["start_at"])[0] >= parse_timestamp(params["end_at"])[0]:
        problems.append("start_at (%s) must be before end_at (%s)" % (params["start_at"], params["end_at"]))
    return problems


class Pause(Step):
    """Pause or resume the export (``state=paused`` / ``present``)."""

    def describe(self, plan):
        return "paused" if plan == "pause" else "resumed"

    def plan(self, resource, result):
        if bool(result.obj.get("paused")) == resource.want_paused:
            return None
        return "pause" if resource.want_paused else "unpause"

    def predict(self, resource, result, plan):
        return dict(result.obj, paused=resource.want_paused)

    def apply(self, resource, result, plan):
        current = result.obj
        detail = resource.detail_path(current["id"])
        answer = resource.client.post(
            "%s%s/" % (detail, plan), {},
            context="%s %s" % ("pausing" if plan == "pause" else "resuming", resource.identity()),
            recover=pause_recover(resource.client, detail, plan == "pause", context="reading %s" % resource.identity()))
        if isinstance(answer, dict) and answer.get("id"):
            return answer  # the spec's answer: the record
        # PostHog answers {"paused": ...}: read the export once to return it.
        return resource.client.get(detail, context="reading %s" % resource.identity())


PAUSE = Pause()


class BatchExport(Resource):
    """A batch export of an organization, found by id or name. Destination secrets are write-only:
    PostHog never returns them, so they are sent on create (or every run with update_secrets=always)."""

    kind = "batch export"
    return_key = "batch_export"
    list_option = "batch_exports"
    item_options = ITEM_OPTIONS
    named_by = "name or id"
    fields = ("model", "interval", "start_at", "end_at", "hogql_query")
    secret_paths = tuple("destination.config.%s" % key for key in sorted(all_secret_keys()))
    steps = (UPDATE, PAUSE)

    def __init__(self, task, params, listing=None):
        super(BatchExport, self).__init__(task, params, listing)
        destination = params.get("destination")
        self.dest_type = destination["type"] if destination else None
        self.config = dict((k, normalize_config_value(k, v)) for k, v in given_config(destination).items())
        self.public, self.secret = split_config(self.dest_type, self.config) if self.dest_type else ({}, {})
        self.sent_secrets = False  # whether this run sends the secrets (then the diff shows them, masked)

    @property
    def want_paused(self):
        return self.params.get("state") == "paused"

    def collection_path(self):
        return self.task.org_path("batch_exports")

    def validate(self):
        params = self.params
        problems = []
        if params.get("name") is not None and not params["name"].strip():
            problems.append("name must not be blank")
        if self.dest_type:
            problem = check_config_keys(self.dest_type, self.config)
            if problem:
                problems.append(problem)
        problems.extend(window_problems(params))
        project_id = params.get("project_id")
        if project_id is not None and not (str(project_id).strip().isdigit() or project_id.strip() == "@current"):
            problems.append("project_id must be a project's numeric id or '@current', got %r" % project_id)
        return problems

    # ------------------------------------------------------------- comparing
    def desired(self):
        desired = super(BatchExport, self).desired()
        if self.params.get("id") and self.params.get("name") is not None:
            desired["name"] = self.params["name"]
        if self.dest_type:
            desired["destination"] = {"type": self.dest_type, "config": dict(self.config)}
        return desired

    def read(self, obj, field):
        if field == "hogql_query":
            return current_query(obj or {})
        return super(BatchExport, self).read(obj, field)

    def equal(self, field, wanted, current):
        if field in ("start_at", "end_at"):
            return same_instant(wanted, current)
        if field == "hogql_query":
            return normalize_query(wanted) == normalize_query(current)
        if field == "destination":
            return self.destination_change(current or {}) is None
        return super(BatchExport, self).equal(field, wanted, current)

    def destination_change(self, now):
        """The ``destination`` to PATCH onto the server's destination ``now``, or None when it has it."""
        if now.get("type") != self.dest_type:
            return {"type": self.dest_type, "config": dict(self.config)}
        stored = now.get("config") or {}
        config = dict((k, v) for k, v in self.public.items() if not values_match(v, stored.get(k)))
        if self.params.get("update_secrets") == "always":
            config.update(self.secret)
        return {"type": self.dest_type, "config": config} if config else None

    def view(self, obj, desired):
        if obj is None:
            return {}
        view = super(BatchExport, self).view(obj, dict((k, v) for k, v in desired.items() if k != "destination"))
        if self.dest_type:
            destination = obj.get("destination") or {}
            config = destination.get("config") or {}
            shown = dict((k, config.get(k)) for k in self.public)
            # Secrets are never read back: they appear (masked) only where they are being sent.
            shown.update(dict((k, SECRET_MASK) for k in self.secret if k in config or self.sent_secrets))
            view["destination"] = {"type": destination.get("type"), "config": shown}
        view["paused"] = bool(obj.get("paused"))
        return view

    # --------------------------------------------------------------- writing
    def missing(self):
        if self.params.get("id"):
            return "%s not found in the organization; omit id to create a new one" % self.identity()
        absent = [o for o in ("interval", "destination") if not self.params.get(o)]
        if absent:
            return "%s does not exist; to create it, give %s" % (self.identity(), " and ".join(absent))
        required = missing_required(self.dest_type, self.config)
        if required:
            return ("%s does not exist; to create it, destination.config needs %s (required for type %s)"
                    % (self.identity(), ", ".join(required), self.dest_type))
        return None

    def create_payload(self, desired):
        payload = dict(desired)
        payload["name"] = self.params["name"]
        payload["destination"] = {"type": self.dest_type, "config": dict(self.config)}
        self.sent_secrets = bool(self.secret)
        if self.want_paused:
            payload["paused"] = True
        return payload

    def create(self, payload):
        project_id = self.params.get("project_id")
        path = "/api/projects/%s/batch_exports/" % project_id if project_id else self.collection_path()
        return self.client.post(path, payload, context="creating %s" % self.identity(), recover=self._recover_created,
                                expect="object")

    def update_payload(self, current, changes):
        payload = dict(changes)
        if "destination" in changes:
            now = current.get("destination") or {}
            if now.get("type") != self.dest_type:
                missing = missing_required(self.dest_type, self.config)
                if missing:
                    raise Failure("%s: changing the destination type from %s to %s replaces its config; give every "
                                  "required key of type %s (missing: %s)" % (
                                      self.identity(), now.get("type"), self.dest_type, self.dest_type,
                                      ", ".join(missing)))
            payload["destination"] = self.destination_change(now)
            self.sent_secrets = any(k in payload["destination"]["config"] for k in self.secret)
        return payload

    def predict_update(self, current, changes):
        after = copy.deepcopy(current)
        for field, value in self.update_payload(current, changes).items():
            if field == "destination":
                now = after.get("destination") or {}
                config = dict(now.get("config") or {}) if now.get("type") == value["type"] else {}
                config.update(value["config"])
                after["destination"] = {"type": value["type"], "config": config}
            elif field == "hogql_query":
                after["hogql_query"] = value
                after["schema"] = dict(after.get("schema") or {}, hogql_query=value)
            else:
                after[field] = value
        return after


class Backfill(Step):
    """Request a backfill of the export over ``start_at``..``end_at`` (an action: always done)."""

    action = "backfill requested"

    def plan(self, resource, result):
        return dict(start_at=resource.params["start_at"], end_at=resource.params["end_at"])

    def predict(self, resource, result, plan):
        result.extra["backfill"] = dict(batch_export_id=result.obj["id"], backfill_id=None, **plan)
        return result.obj

    def apply(self, resource, result, plan):
        export = result.obj
        answer = request_backfill(resource, export, plan)
        result.extra["backfill"] = dict(batch_export_id=export["id"], backfill_id=None, **plan)
        if isinstance(answer, dict):
            result.extra["backfill"]["backfill_id"] = answer.get("backfill_id")
            if answer.get("id") == export["id"]:
                return answer
        return export


class BatchExportBackfill(BatchExport):
    """batch_export_backfill: the export found as batch_export finds it; the one step is the backfill."""

    list_option = None
    fields = ()
    secret_paths = ()
    steps = (Backfill(),)

    def validate(self):
        return window_problems(self.params)

    def desired(self):
        return {}

    def view(self, obj, desired):
        return {}

    def missing(self):
        if not self.task.check_mode or self.params.get("id"):
            return "%s not found in the organization" % self.identity()
        # Check mode: a batch_export task before this one may be about to create it.
        self.task.warn("%s does not exist yet; check mode assumes an earlier task creates it, so a backfill would "
                       "be requested (a real run fails if it still does not exist)" % self.identity())
        return None

    def create_payload(self, desired):
        return dict(id=None, name=self.params.get("name"))  # only ever predicted (check mode), never sent


def request_backfill(resource, export, body):
    """POST the backfill through the export's project; PostHog's answer."""
    client = resource.client
    if export.get("team_id") is not None:
        base = "/api/projects/%s/batch_exports/%s/" % (export["team_id"], export["id"])
    else:
        base = resource.detail_path(export["id"])
    context = "requesting a backfill of batch export %r" % export.get("name")
    recover = None
    if export.get("team_id") is not None:
        # A backfill is not idempotent: note the newest ones first, so that a lost answer can be
        # recognised (the backfill is there now) instead of failing or requesting it twice.
        backfills = base + "backfills/"
        before = backfill_ids(client, backfills, context="reading the backfills of batch export %r" % export.get("name"))
        if before is not None:
            recover = backfill_recover(client, backfills, body["start_at"], body["end_at"], before,
                                       context="looking for the backfill just requested")
    try:
        return client.post(base + "backfill/", body, context=context, recover=recover)
    except PostHogError as exc:
        if exc.status != 404:
            raise
    return client.post(base + "backfills/", body, context=context, recover=recover)


def read_batch_exports(task, params):
    """batch_export_info: the organization's exports (or one by id or name), optionally by paused."""
    exports = list_or_get(task, task.org_path("batch_exports"), params.get("id"), what="batch export",
                          filters=dict(name=params.get("name")))
    if params.get("paused") is not None:
        exports = [e for e in exports if bool(e.get("paused")) == params["paused"]]
    return dict(batch_exports=exports)
