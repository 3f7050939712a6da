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
from ansible_collections.posthog.admin.plugins.module_utils._common import list_or_get
from ansible_collections.posthog.admin.plugins.module_utils._resource import (
    SECRET_MASK,
    UPDATE,
    Failure,
    Field,
    Resource,
    Scope,
    Step,
    mask,
    options_of,
    values_match,
)
from ansible_collections.posthog.admin.plugins.module_utils._section import Section, options_from

# posthog/batch_exports/models.py and service.py (docs/posthog_facts.md §5, "Destination types and config keys"),
# and the newest products/batch_exports/backend/presentation/views/batch_export/ (docs/posthog_facts.md §10.1).
# Every type also accepts exclude_events and include_events. ``integration``: the kind of
# integration that holds the credentials in PostHog's newest code; ``with_integration``: what a new
# export needs besides the integration.
DESTINATION_TYPES = {
    "S3": dict(
        required=("bucket_name", "region", "prefix"),
        optional=("aws_access_key_id", "aws_secret_access_key", "compression", "encryption", "kms_key_id",
                  "endpoint_url", "file_format", "max_file_size_mb", "use_virtual_style_addressing"),
        secret=("aws_access_key_id", "aws_secret_access_key"),
    ),
    "AwsS3": dict(
        required=("bucket_name", "region", "prefix"),
        optional=("compression", "encryption", "kms_key_id", "file_format", "max_file_size_mb"),
        secret=(), integration="aws-s3", integration_required=True,
    ),
    "S3Compatible": dict(
        required=("bucket_name", "region", "prefix"),
        optional=("compression", "file_format", "max_file_size_mb", "use_virtual_style_addressing"),
        secret=(), integration="s3-compatible", integration_required=True,
    ),
    "AzureBlob": dict(
        required=("container_name",),
        optional=("prefix", "compression", "file_format", "max_file_size_mb"),
        secret=(), integration="azure-blob", integration_required=True,
    ),
    "Snowflake": dict(
        required=("account", "user", "database", "warehouse", "schema"),
        optional=("table_name", "authentication_type", "password", "private_key", "private_key_passphrase", "role"),
        secret=("user", "password", "private_key", "private_key_passphrase"),
        integration="snowflake", with_integration=("database", "warehouse", "schema"),
    ),
    "Postgres": dict(
        required=("user", "password", "host", "database"),
        optional=("schema", "table_name", "port", "has_self_signed_cert"),
        secret=("user", "password"),
        integration="postgresql", with_integration=("database",),
    ),
    "Redshift": dict(
        required=("user", "password", "host", "database"),
        optional=("schema", "table_name", "port", "properties_data_type", "mode", "copy_inputs"),
        # copy_inputs carries AWS credentials; the module treats it as write-only as a whole.
        secret=("user", "password", "copy_inputs"),
        integration="aws-redshift", with_integration=("database",),
    ),
    "BigQuery": dict(
        required=("project_id", "dataset_id", "private_key", "private_key_id", "token_uri", "client_email"),
        optional=("table_id", "use_json_type"),
        secret=("private_key", "private_key_id", "client_email", "token_uri"),
        integration="google-cloud-service-account", with_integration=("dataset_id",),
    ),
    "Databricks": dict(
        required=("http_path", "catalog", "schema", "table_name"),
        optional=("use_variant_type", "use_automatic_schema_evolution"),
        secret=(), integration="databricks", integration_required=True,
    ),
    "HTTP": dict(required=("url", "token"), optional=(), secret=("token",)),
    "NoOp": dict(required=(), optional=("arg",), secret=()),
}
COMMON_KEYS = ("exclude_events", "include_events")

INTERVALS = ["hour", "day", "week", "every 5 minutes", "every 15 minutes"]
MODELS = ["events", "persons", "sessions", "hogql"]
#: Where PostHog's web app creates integrations, and how the API does (kinds with a credentials form).
INTEGRATIONS_PLACE = "Project settings > Integrations, or posthog.admin.integration"
INTEGRATION_FORMS = {
    "aws-s3": "aws_access_key_id and aws_secret_access_key, or aws_role_arn; and a name",
    "s3-compatible": "endpoint_url, aws_access_key_id, aws_secret_access_key; and a name",
    "snowflake": "account, user, authentication_type, password or private_key; and a name",
    "postgresql": "host, port, user, password",
    "aws-redshift": "host, port, user, password (or aws_role_arn or AWS keys with user, and a name)",
    "google-cloud-service-account": "service_account_email, project_id, private_key, private_key_id, token_uri",
    "databricks": "server_hostname, client_id, client_secret",
    "azure-blob": "connection_string",
}

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
            integration=dict(type="str"),
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
        message = ("destination.config has key(s) that destinations of type %s do not take: %s; they take %s"
                   % (destination_type, ", ".join(unknown), ", ".join(sorted(allowed))))
        credentials = [k for k in unknown if k in ("aws_access_key_id", "aws_secret_access_key", "endpoint_url")]
        if credentials and spec.get("integration"):
            message += ". " + integration_advice(destination_type)
        return message
    return None


def integration_advice(destination_type, project_id=None):
    """How to give a destination its credentials through an integration (PostHog's newest code)."""
    spec = DESTINATION_TYPES.get(destination_type) or {}
    kind = spec.get("integration") or "aws-s3"
    return ("PostHog keeps the credentials of a %s destination in an integration of kind %s: create one with "
            "posthog.admin.integration (kind: %s, config: %s) in project %s, and give its name or id as "
            "destination.integration"
            % (destination_type, kind, kind, INTEGRATION_FORMS.get(kind, "..."), project_id or "<project_id>"))


def missing_required(destination_type, config, integration=None):
    """The keys a new export of this type still needs (fewer when an integration holds the credentials)."""
    spec = DESTINATION_TYPES[destination_type]
    required = spec.get("with_integration", spec["required"]) if integration else spec["required"]
    return [k for k in required if k not in config]


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
                "hogql_query", "hogql_modifiers", "filters", "timezone", "offset_day", "offset_hour", "project_id",
                "incremental_mode", "primary_key", "version_key")
#: How a ``hogql`` export's runs land (``BatchExport.IncrementalMode`` in PostHog's newest code).
INCREMENTAL_MODES = ["APPEND", "MERGE"]
#: Fields only PostHog's newest API has (an older PostHog ignores them: the task fails instead).
NEWEST_FIELDS = ("incremental_mode", "primary_key", "version_key")


def same_query(wanted, current):
    """Whether two HogQL queries are the same, whitespace aside."""
    return normalize_query(wanted) == normalize_query(current)


def same_timezone(wanted, current):
    """PostHog answers no timezone for an export scheduled in UTC."""
    return wanted == (current or "UTC")


def wanted_destination(destination):
    """``destination`` as the task wants it: its type and the config keys given (as PostHog stores
    them); the integration, named by id or name, is resolved by :meth:`BatchExport.desired`."""
    config = dict((k, normalize_config_value(k, v)) for k, v in given_config(destination).items())
    return {"type": destination["type"], "config": config}


def destination_change(wanted, now, rotate=False):
    """The ``destination`` to PATCH onto the server's destination ``now`` for ``wanted`` (its
    ``type``, ``config`` and, when the task names one, ``integration``), or None when it has it.
    PostHog never answers a secret, so secrets are sent only with a new type or when ``rotate``
    (update_secrets: always)."""
    now = now or {}
    if now.get("type") != wanted["type"]:
        return dict(wanted, config=dict(wanted["config"]))
    public, secret = split_config(wanted["type"], wanted["config"])
    stored = now.get("config") or {}
    config = dict((k, v) for k, v in public.items() if not values_match(v, stored.get(k)))
    if rotate:
        config.update(secret)
    change = {"type": wanted["type"], "config": config}
    if "integration" in wanted and now.get("integration") != wanted["integration"]:
        change["integration"] = wanted["integration"]
    if not config and "integration" not in change:
        return None
    if "integration" not in change and now.get("integration") is not None:
        # PostHog's newest code reads the integration of a Databricks, BigQuery, Azure Blob or
        # Redshift destination from the request alone: a PATCH without it is refused.
        change["integration"] = now["integration"]
    return change


#: The settings of an export, each described once: the module's options, what the engine sends and
#: compares, and what organization_state_info exports (in this order) come from here.
FIELDS = (
    Field("name", export=False),  # a setting with an id (a rename); organization_state_info writes it first
    Field("model", option=dict(choices=MODELS)),
    Field("interval", option=dict(choices=INTERVALS)),
    Field("start_at", compare=same_instant),
    Field("end_at", compare=same_instant),
    Field("timezone", compare=same_timezone),
    Field("offset_day", "int"),
    Field("offset_hour", "int"),
    Field("filters", "list", elements="dict"),
    Field("hogql_modifiers", "dict"),
    Field("hogql_query", compare=same_query, locate=lambda obj, resource: current_query(obj)),
    # secret keys are no_log suboptions; the export writes the public half (export_item)
    Field("destination", "dict", option=dict(options=destination_argument_spec()["options"]),
          to_api=wanted_destination, compare=lambda wanted, current: destination_change(wanted, current) is None,
          export=False),
    Field("incremental_mode", choices=INCREMENTAL_MODES, export=False),
    Field("primary_key", "list", elements="str", option=dict(no_log=False), export=False),
    Field("version_key", "list", elements="str", option=dict(no_log=False), export=False),
)

ARGUMENT_SPEC = dict(
    state=dict(type="str", default="present", choices=["present", "paused", "absent"]),
    id=dict(type="str"),
    update_secrets=dict(type="str", default="on_create", choices=["on_create", "always"], no_log=False),
    project_id=dict(type="str"),
)
ARGUMENT_SPEC.update(options_of(FIELDS))

BACKFILL_ARGUMENT_SPEC = dict(
    id=dict(type="str"),
    name=dict(type="str"),
    start_at=dict(type="str", required=True),
    end_at=dict(type="str", required=True),
    project_id=dict(type="str"),
)

INFO_ARGUMENT_SPEC = dict(id=dict(type="str"), name=dict(type="str"), paused=dict(type="bool"),
                          runs=dict(type="bool", default=False), backfills=dict(type="bool", default=False),
                          project_id=dict(type="str"))

_DATE_RE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
ROUTE_GONE = "Endpoint not found."


def window_problems(params, dates=False):
    """Problems with ``start_at``/``end_at``: ISO-8601 with a timezone, start before end. With
    ``dates``, a date (``2026-01-31``) also does (PostHog's newest code backfills daily and weekly
    exports by dates), as long as both are dates."""
    given = [o for o in ("start_at", "end_at") if params.get(o)]
    as_dates = [o for o in given if dates and _DATE_RE.match(params[o])]
    problems = [problem for problem in (check_timestamp(option, params.get(option))
                                        for option in ("start_at", "end_at") if option not in as_dates) if problem]
    if as_dates and len(as_dates) != len(given):
        return ["start_at and end_at must both be dates (2026-01-31) or both date-times"]
    if not problems and len(given) == 2:
        start, end = params["start_at"], params["end_at"]
        later = start >= end if as_dates else parse_timestamp(start)[0] >= parse_timestamp(end)[0]
        if later:
            problems.append("start_at (%s) must be before end_at (%s)" % (start, end))
    return problems


def project_problem(project_id):
    if project_id is not None and not (str(project_id).strip().isdigit() or str(project_id).strip() == "@current"):
        return "project_id must be a project's numeric id or '@current', got %r" % project_id
    return None


def given_project(params):
    """The ``project_id`` of ``params`` (trimmed), or None when not given."""
    value = params.get("project_id")
    return str(value).strip() if value is not None and str(value).strip() else None


def is_route_gone(error):
    """Whether PostHog answered that it routes no such path (its catch-all 404)."""
    return getattr(error, "status", None) == 404 and (getattr(error, "detail", None) or "") == ROUTE_GONE


def no_organization_route(error):
    """The message for PostHog's newest API, which serves batch exports under projects only."""
    return error.reword(
        "%s. This PostHog has no organization route for batch exports (its newest API serves them under "
        "projects only, /api/projects/<project_id>/batch_exports/): set project_id (the numeric id of the "
        "project the exports belong to, or @current), for example once for the whole group in module_defaults"
        % error.message.rstrip("."))


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

    def requests(self, resource, result, plan):
        return [dict(method="POST", path="%s%s/" % (resource.path_of(result.obj), plan), body={},
                     sets=dict(paused=plan == "pause"),
                     note="%s %s" % ("pausing" if plan == "pause" else "resuming", resource.identity()))]

    def recover(self, resource, action):
        """A lost answer: both actions are no-ops on an export already in that state (docs/posthog_facts.md
        §5, "Actions"), so the export as it is when it is already as wanted, else None (asked again)."""
        detail = resource.planned.resolve(action.path).rsplit("/", 2)[0] + "/"
        obj = resource.client.get_or_none(detail, context="reading %s" % resource.identity())
        if isinstance(obj, dict) and bool(obj.get("paused")) == action.sets["paused"]:
            return obj
        return None


PAUSE = Pause()


def find_integration(task, project_id, value, kind=None):
    """The id of the integration ``value`` names in the project: an id as is, else the one whose
    name (:func:`~._integration.integration_name`: the name it was given, or the connection PostHog
    keeps it by) or display name is ``value``. In organization_state, the project's integrations as
    its ``integrations`` section left them (one the plan creates has the token of its id: the export
    waits for it); else one list of the project's integrations (of ``kind``) per task. A Failure naming
    what there is otherwise (in check mode of a single task, a warning and a placeholder: an earlier
    task may create it)."""
    from ansible_collections.posthog.admin.plugins.module_utils._integration import Integration, matches_name

    value = str(value).strip()
    if value.isdigit():
        return int(value)
    path = Integration.SCOPE.path(task, dict(project_id=project_id))
    if task.missing_parent and task.known(path) is None:
        return None  # check mode: the parent (and its integrations) would be created by an earlier task
    known = task.known(path)  # organization_state: what its integrations section created, updated, deleted
    if known is not None:
        integrations = [i for i in known if isinstance(i, dict) and (kind is None or i.get("kind") == kind)]
    else:
        key = ("integrations", project_id, kind)
        if key not in task.cache:
            task.cache[key] = task.client.list_all(path, params=dict(kind=kind) if kind else None,
                                                   context="looking up integration %r" % value)
        integrations = [i for i in task.cache[key] if isinstance(i, dict)]
    matches = [i for i in integrations if matches_name(i, value)]
    if len(matches) == 1:
        return matches[0]["id"]
    if len(matches) > 1:
        ids = ", ".join(str(m.get("id")) for m in matches)
        raise Failure("integration %r is ambiguous in project %s: %d integrations match (ids %s); give its id as "
                      "destination.integration" % (value, project_id, len(matches), ids))
    there = ", ".join("%s (id %s)" % (i.get("display_name") or i.get("kind"), i.get("id")) for i in integrations) or "none"
    if task.assumes_earlier_tasks:
        # As for a missing parent or default role: an earlier task of the play may be about to create it.
        task.warn("integration %r does not exist yet in project %s (there: %s); check mode assumes an earlier task "
                  "creates it (a real run fails if it still does not exist)" % (value, project_id, there))
        return "(the id of integration %r)" % value
    raise Failure("no integration%s named %r in project %s (there: %s); create it with posthog.admin.integration (in "
                  "organization_state, in its integrations section), or give destination.integration as an id"
                  % (" of kind %s" % kind if kind else "", value, project_id, there))


class BatchExport(Resource):
    """A batch export, found by id or name among the organization's exports (the spec's route), or
    among a project's when ``project_id`` is set (PostHog's project route, the only one its newest
    API has). Destination secrets are write-only: PostHog never returns them, so they are sent on
    create (or every run with update_secrets=always); PostHog's newest code keeps them in an
    integration the destination names."""

    kind = "batch export"
    return_key = "batch_export"
    # Each project's exports: the route the document's exports converge through (and prune covers), and
    # the only one PostHog's newest API has; without project_id, the spec's organization route.
    SCOPE = Scope("project", "batch_exports", fallback="organization")  # no project_id: the spec's route
    list_option = "batch_exports"
    item_options = ITEM_OPTIONS
    named_by = "name or id"
    FIELDS = FIELDS
    # the destination's secret config keys, whatever its type (derived from the destination types)
    secret_paths = tuple("destination.config.%s" % key for key in sorted(all_secret_keys()))
    steps = (UPDATE, PAUSE)

    def __init__(self, task, params, listing=None):
        super(BatchExport, self).__init__(task, params, listing)
        destination = params.get("destination")
        wanted = wanted_destination(destination) if destination else dict(type=None, config={})
        self.dest_type, self.config = wanted["type"], wanted["config"]
        self.integration_ref = (destination or {}).get("integration")
        self.public, self.secret = split_config(self.dest_type, self.config) if self.dest_type else ({}, {})
        self.sent_secrets = False  # whether this run sends the secrets (then the diff shows them, masked)
        self._integration_id = None

    @property
    def want_paused(self):
        return self.params.get("state") == "paused"

    @property
    def project_id(self):
        return given_project(self.params)

    def validate(self):
        params = self.params
        problems = []
        if params.get("name") is not None and not params["name"].strip():
            problems.append("name must not be blank")
        if self.dest_type:
            problem = check_config_keys(self.dest_type, self.config)
            if problem:
                problems.append(problem)
            if self.integration_ref is not None and not DESTINATION_TYPES[self.dest_type].get("integration"):
                problems.append("destination.integration: destinations of type %s take no integration"
                                % self.dest_type)
        problems.extend(window_problems(params))
        problem = project_problem(params.get("project_id"))
        if problem:
            problems.append(problem)
        for option, low, high in (("offset_day", 0, 6), ("offset_hour", 0, 23)):
            value = params.get(option)
            if value is not None and not low <= value <= high:
                problems.append("%s must be from %d to %d, got %d" % (option, low, high, value))
        if params.get("offset_day") is not None and params.get("interval") not in (None, "week"):
            problems.append("offset_day is only for weekly exports (interval=week)")
        if params.get("offset_hour") is not None and params.get("interval") not in (None, "day", "week"):
            problems.append("offset_hour is only for daily and weekly exports (interval=day or week)")
        if params.get("hogql_modifiers") is not None and params.get("model") not in (None, "hogql"):
            problems.append("hogql_modifiers is only for model=hogql")
        if params.get("model") == "hogql" and params.get("filters"):
            problems.append("filters are not supported with model=hogql; filter in hogql_query instead")
        for option in ("primary_key", "version_key"):
            if params.get(option) is not None and params.get("model") not in (None, "hogql"):
                problems.append("%s is only for model=hogql (the other models have their keys built in)" % option)
            if params.get(option) is not None and not all(str(column).strip() for column in params[option]):
                problems.append("%s: column names must not be blank" % option)
            if params.get(option) == []:
                problems.append("%s must name at least one column of hogql_query (PostHog refuses an empty list)"
                                % option)
        for index, item in enumerate(params.get("filters") or []):
            if item.get("type") not in ("event", "person", "hogql"):
                problems.append("filters[%d]: type must be one of event, person, hogql (PostHog's filter types), got %r"
                                % (index, item.get("type")))
        return problems

    # ------------------------------------------------------------- comparing
    def integration_id(self):
        """The id of ``destination.integration`` (resolved by name once), or None."""
        if self.integration_ref is None:
            return None
        if self._integration_id is None:
            kind = DESTINATION_TYPES[self.dest_type].get("integration") if self.dest_type else None
            self._integration_id = find_integration(self.task, self.project_id or "@current", self.integration_ref,
                                                    kind)
        return self._integration_id

    def desired(self):
        """The Fields' values; the destination's integration, named by id or by name, as its id (one
        read of the project's integrations: no Field can say that)."""
        desired = super(BatchExport, self).desired()
        if "destination" in desired and self.integration_ref is not None:
            desired["destination"]["integration"] = self.integration_id()
        return desired

    @property
    def rotates_secrets(self):
        """update_secrets: always: the destination's secrets are sent every run."""
        return self.params.get("update_secrets") == "always"

    def equal(self, field, wanted, current):
        if field == "destination" and self.rotates_secrets and self.secret:
            return False  # a task option, not the values, decides: no Field compare can say it
        return super(BatchExport, self).equal(field, wanted, current)

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
            if self.integration_ref is not None:
                view["destination"]["integration"] = destination.get("integration")
        view["paused"] = bool(obj.get("paused"))
        return view

    # --------------------------------------------------------------- finding
    def guard(self, current):
        """An older PostHog has no incremental exports: it would ignore the fields, and every run would
        send them again. Said before any write, from the exports the look-up read."""
        given = [f for f in NEWEST_FIELDS if self.params.get(f) is not None]
        known = [obj for obj in ([current] if current else self.seen) if isinstance(obj, dict)]
        if given and known and NEWEST_FIELDS[0] not in known[0]:
            raise Failure("%s: this PostHog has no %s (PostHog's newest API, on the project route, has them); leave "
                          "them out" % (self.identity(), ", ".join(given)))

    def missing(self):
        if self.params.get("id"):
            if not self.project_id and not self.task.missing_parent:
                try:  # a GET by id answers 404 for a route PostHog no longer has, too
                    self.client.get(self.collection_path(), params=dict(limit=1), context="reading the exports")
                except PostHogError as exc:
                    if is_route_gone(exc):
                        return no_organization_route(exc).message
                    raise
            return "%s not found in the %s; omit id to create a new one" % (
                self.identity(), "project" if self.project_id else "organization")
        absent = [o for o in ("interval", "destination") if not self.params.get(o)]
        if absent:
            return "%s does not exist; to create it, give %s" % (self.identity(), " and ".join(absent))
        if self.params.get("incremental_mode") == "MERGE" and not self.params.get("primary_key"):
            return ("%s does not exist; to create it with incremental_mode=MERGE, give primary_key (the columns of "
                    "hogql_query that identify a row)" % self.identity())
        spec = DESTINATION_TYPES[self.dest_type]
        newest = any(isinstance(obj, dict) and "timezone" in obj for obj in self.seen)
        if spec.get("integration") and self.integration_ref is None and newest:
            # The project's exports show PostHog's newest API, which creates every integration-backed
            # type (Snowflake, Postgres, Redshift and BigQuery too) only on an integration.
            return ("%s does not exist, and PostHog's newest API creates %s exports only on an integration (inline "
                    "credentials are refused): give destination.integration. %s"
                    % (self.identity(), self.dest_type, integration_advice(self.dest_type, self.project_id)))
        if spec.get("integration_required") and self.integration_ref is None:
            return ("%s does not exist; to create it, give destination.integration. %s"
                    % (self.identity(), integration_advice(self.dest_type, self.project_id)))
        required = missing_required(self.dest_type, self.config, self.integration_ref)
        if required:
            return ("%s does not exist; to create it, destination.config needs %s (required for type %s%s)"
                    % (self.identity(), ", ".join(required), self.dest_type,
                       " with an integration" if self.integration_ref is not None else ""))
        return None

    # --------------------------------------------------------------- writing
    def create_payload(self, desired):
        payload = copy.deepcopy(desired)  # the name and the whole destination (missing() saw to both), secrets too
        self.sent_secrets = bool(self.secret)
        if self.want_paused:
            payload["paused"] = True
        return payload

    def update_payload(self, current, changes):
        payload = dict(changes)
        if "destination" in changes:
            now = current.get("destination") or {}
            if now.get("type") != self.dest_type:
                missing = missing_required(self.dest_type, self.config, self.integration_ref)
                if missing:
                    raise Failure("%s: changing the destination type from %s to %s replaces its config; give every "
                                  "required key of type %s (missing: %s)" % (
                                      self.identity(), now.get("type"), self.dest_type, self.dest_type,
                                      ", ".join(missing)))
            payload["destination"] = destination_change(changes["destination"], now, self.rotates_secrets)
            self.sent_secrets = any(k in payload["destination"]["config"] for k in self.secret)
        if ("offset_day" in payload or "offset_hour" in payload) and "interval" not in payload:
            # PostHog turns the offsets into its schedule only together with the interval.
            payload["interval"] = self.params.get("interval") or current.get("interval")
        return payload

    def predict_update(self, current, changes):
        after = copy.deepcopy(current)
        for field, value in self.update_payload(current, changes).items():
            if field == "destination":
                now = after.get("destination") or {}
                config = dict(now.get("config") or {}) if now.get("type") == value["type"] else {}
                config.update(value["config"])
                after["destination"] = {"type": value["type"], "config": config}
                if "integration" in value or "integration" in now:
                    after["destination"]["integration"] = value.get("integration", now.get("integration"))
            elif field == "hogql_query":
                after["hogql_query"] = value
                after["schema"] = dict(after.get("schema") or {}, hogql_query=value)
            else:
                after[field] = value
        return after

    def explain(self, error):
        detail = error.detail or ""
        if is_route_gone(error) and "/organizations/" in (error.path or ""):
            return no_organization_route(error)
        if ("Integration is required" in detail or "'S3' destination type is deprecated" in detail
                or ("unknown field" in detail and "aws_" in detail)):
            suggestion = ""
            if self.dest_type == "S3":
                suggestion = "Use destination type AwsS3 (or S3Compatible for other S3 storage). "
            return error.append(suggestion + integration_advice(
                "AwsS3" if self.dest_type == "S3" else self.dest_type, self.project_id))
        if "Cannot change destination type" in detail or "Changing the model to or from 'hogql'" in detail:
            return error.append("Delete the export (state=absent) and create it again with the new settings, "
                                "or give the new one another name.")
        if "Higher frequency batch exports are not enabled" in detail:
            return error.append("Intervals under an hour need PostHog's high-frequency-batch-exports feature for "
                                "the project; ask PostHog support, or use interval=hour.")
        if "HogQL batch exports are not enabled" in detail:
            return error.append("model=hogql needs PostHog's hogql-batch-exports feature for the project.")
        return error


class Backfill(Step):
    """Request a backfill of the export over ``start_at``..``end_at`` (an action: always done).

    A backfill is not idempotent: the plan notes the export's newest backfills first, so that a lost
    answer can be recognised (the backfill is there now) instead of failing or requesting it twice."""

    action = "backfill requested"

    def plan(self, resource, result):
        export = result.obj
        window = dict(start_at=resource.params["start_at"], end_at=resource.params["end_at"])
        return dict(window=window, base=backfill_base(resource, export), newest="timezone" in export,
                    listed=export.get("team_id") is not None, before=None)

    def predict(self, resource, result, plan):
        result.extra["backfill"] = dict(batch_export_id=result.obj["id"], backfill_id=None, **plan["window"])
        return result.obj

    def requests(self, resource, result, plan):
        # PostHog's newest exports have a timezone, and take backfills at backfills/ (no backfill action).
        route = "backfills/" if plan["newest"] else "backfill/"
        moved = [] if plan["newest"] else [dict(method="POST", path=plan["base"] + "backfills/", body=dict(plan["window"]),
                                                when="PostHog answers 404 (it moved the route)")]
        return [dict(method="POST", path=plan["base"] + route, body=dict(plan["window"]), fallback=moved,
                     note="requesting a backfill of batch export %r" % result.obj.get("name"))]

    def perform(self, resource, action, send):
        """The request; on an older route PostHog answers 404 for, the same backfill on its moved route
        (``backfills/``: nothing was written by the 404). The export's newest backfills are noted first,
        so that a lost answer can be recognised."""
        plan = action.decision
        if plan["listed"]:
            plan["before"] = backfill_ids(resource.client, resource.planned.resolve(plan["base"]) + "backfills/",
                                          context="reading the backfills of batch export %r" % resource.applied.get("name"))
        try:
            return send()
        except PostHogError as exc:
            if exc.status == 404 and action.path.endswith("/backfill/"):
                action.path = action.path[:-len("backfill/")] + "backfills/"
                try:
                    return send()
                except PostHogError as again:
                    exc = again
            if "date component" in (exc.detail or "") or "valid ISO formatted date" in (exc.detail or ""):
                exc.append("PostHog backfills daily and weekly exports by whole days: give start_at and end_at as "
                           "dates (2026-01-31).")
            raise exc

    def can_recover(self, resource, action):
        return action.decision["before"] is not None

    def recover(self, resource, action):
        before = action.decision["before"]
        return backfill_recover(resource.client, resource.planned.resolve(action.decision["base"]) + "backfills/",
                                action.body["start_at"],
                                action.body["end_at"], before, context="looking for the backfill just requested")()

    def absorb(self, resource, action, answer):
        export = resource.applied
        result = resource.result
        result.extra["backfill"] = dict(batch_export_id=export.get("id"), backfill_id=None, **action.body)
        if isinstance(answer, dict):
            result.extra["backfill"]["backfill_id"] = answer.get("backfill_id")
            if answer.get("id") == export.get("id"):
                return answer
        return export


def backfill_base(resource, export):
    """The export's path through its project (where PostHog takes backfills), else its own."""
    if export.get("team_id") is not None:
        return "%s%s/" % (BatchExport.SCOPE.path(resource.task, dict(project_id=export["team_id"])), export["id"])
    return resource.path_of(export)


class BatchExportBackfill(BatchExport):
    """batch_export_backfill: the export found as batch_export finds it; the one step is the backfill."""

    list_option = None
    FIELDS = ()  # it manages none of the export's fields
    steps = (Backfill(),)

    def validate(self):
        problem = project_problem(self.params.get("project_id"))
        return window_problems(self.params, dates=True) + ([problem] if problem else [])

    def view(self, obj, desired):
        return {}

    def missing(self):
        if not self.task.check_mode or self.params.get("id"):
            why = super(BatchExportBackfill, self).missing() if self.params.get("id") else None
            if why and "no organization route" in why:
                return why
            return "%s not found in the %s" % (self.identity(), "project" if self.project_id else "organization")
        # Check mode: a batch_export task before this one may be about to create it.
        self.task.warn("%s does not exist yet; check mode assumes an earlier task creates it, so a backfill would "
                       "be requested (a real run fails if it still does not exist)" % self.identity())
        return None

    def create_payload(self, desired):
        return dict(id=None, name=self.params.get("name"))  # only ever predicted (check mode), never sent


def read_batch_exports(task, params):
    """batch_export_info: the organization's exports (or a project's, with project_id; or one by id
    or name), optionally by paused, with their runs and backfills read from the project route."""
    project_id = params.get("project_id")
    problem = project_problem(project_id)
    if problem:
        raise Failure(problem)
    path = BatchExport.SCOPE.path(task, params)
    try:
        exports = list_or_get(task, path, params.get("id"), what="batch export", filters=dict(name=params.get("name")))
    except PostHogError as exc:
        if is_route_gone(exc) and not project_id:
            raise Failure.of(no_organization_route(exc))
        raise
    if params.get("paused") is not None:
        exports = [e for e in exports if bool(e.get("paused")) == params["paused"]]
    for export in exports:
        if not (params.get("runs") or params.get("backfills")):
            break
        base = "%s%s/" % (BatchExport.SCOPE.path(task, dict(project_id=export.get("team_id") or project_id)),
                          export["id"])
        for option in ("runs", "backfills"):
            if params.get(option):
                export[option] = first_page(task, base + option + "/", "the %s of batch export %r"
                                            % (option, export.get("name")))
    # PostHog never answers a destination's secrets; a server that did would not have them printed
    return dict(batch_exports=[mask(e, BatchExport.secret_paths) if isinstance(e, dict) else e for e in exports])


def first_page(task, path, what):
    """The newest entries of a cursor-paginated list (runs: 100, backfills: 50), newest first."""
    page = task.client.get(path, context="reading %s" % what)
    if isinstance(page, dict):
        page = page.get("results")
    return [entry for entry in page or [] if isinstance(entry, dict)]


# ---------------------------------------------------------------------------------- exporting
def export_item(ctx, obj, integration_names=None):
    destination = obj.get("destination") or {}
    dest_type = destination.get("type")
    config = dict((k, v) for k, v in (destination.get("config") or {}).items() if v is not None)
    item = dict(name=obj.get("name"), state="paused" if obj.get("paused") else "present")
    item.update(BatchExport.reader().export(obj))
    if dest_type in DESTINATION_TYPES:
        public, dummy = split_config(dest_type, config)
        # A secret key of any destination type is left out, whatever type the export says it is: a
        # server that echoes an AwsS3 secret on another type still never puts it in a file meant for git.
        known = set(all_config_keys()) - set(all_secret_keys())
        item["destination"] = dict(type=dest_type, config=dict((k, v) for k, v in sorted(public.items()) if k in known))
        if destination.get("integration") is not None:  # by name where it has one: it names it in any organization
            item["destination"]["integration"] = (integration_names or {}).get(destination["integration"]) \
                or str(destination["integration"])
        secrets = list(DESTINATION_TYPES[dest_type]["secret"])
        if secrets:
            ctx.comment("batch_exports", obj.get("name"), (
                "destination.config also takes %s: PostHog never returns them, so they are left out; they are only "
                "needed to create this export again (add them from your vault; update_secrets: always rotates them)"
                % ", ".join(secrets)))
    elif dest_type:
        ctx.note("batch export %r: destination type %s is not one the batch_export module manages; it is left "
                 "out" % (obj.get("name"), dest_type))
        return None
    return item


def integration_names(ctx, project_id, exports):
    """``{id: name}`` of the project's integrations (:func:`~._integration.integration_name`), read only
    when one of ``exports`` uses one; a name only where it names a single integration (else the export
    keeps the id)."""
    from ansible_collections.posthog.admin.plugins.module_utils._integration import Integration, integration_name

    if not any(isinstance(e, dict) and (e.get("destination") or {}).get("integration") is not None
               for e in exports or []):
        return {}
    found = ctx.quietly("integrations of project %s" % project_id, lambda: ctx.client.list_all(
        Integration.SCOPE.path(ctx.task, dict(project_id=project_id)),
        context="listing integrations of project %s" % project_id))
    named = [(i.get("id"), integration_name(i)) for i in found or [] if isinstance(i, dict)]
    counts = {}
    for dummy, name in named:
        counts[name] = counts.get(name, 0) + 1
    return dict((obj_id, name) for obj_id, name in named if name and counts[name] == 1)


def export_items(ctx):
    """organization_state_info: every project's batch exports, through each project's route (PostHog's
    newest API has no other); the items of the first project (the document's default) carry no
    project_id."""
    items = []
    for project_id in ctx.project_ids:
        exports = ctx.quietly("batch exports of project %s" % project_id, lambda pid=project_id: ctx.client.list_all(
            BatchExport.SCOPE.path(ctx.task, dict(project_id=pid)), context="listing batch exports of project %s" % pid))
        names = integration_names(ctx, project_id, exports)
        for obj in exports or []:
            item = export_item(ctx, obj, names)
            if item and project_id != ctx.project_ids[0]:
                item["project_id"] = str(project_id)
            if item:
                items.append(item)
    return items


# ---------------------------------------------------------------------------------- the document
SECTION = Section(
    "batch_exports", BatchExport, options_from(ARGUMENT_SPEC, ITEM_OPTIONS), "batch export",
    required_one_of=[("name", "id")], refers=(("project_id", "projects"),), export=export_items,
    comment="Batch exports (posthog.admin.batch_export). Destination secrets are never returned: see the notes.")
