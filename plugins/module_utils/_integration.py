# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Integrations of a project: the credentials batch exports write with. The Resource behind
posthog.admin.integration, integration_info's read, and the document's ``integrations`` section.

PostHog's rules (``posthog/api/integration.py``, ``posthog/models/integration/``; docs/posthog_facts.md §16.1):

* ``POST /api/projects/<id>/integrations/`` with ``kind`` and ``config`` makes the credential kinds
  (:data:`KINDS`); PostHog splits ``config`` into what it shows and ``sensitive_config``, which it
  never answers. Every other kind is an OAuth connection made in PostHog's web app.
* The viewset has no update. A kind the user **names** (``aws-s3``, ``s3-compatible``,
  ``snowflake``, a Redshift role or AWS keys) is created once: a second one of that name is refused,
  so it cannot change in place (delete it and create it again, or give the new one another name).
  The other kinds are kept by their **connection** (a Databricks host, a PostgreSQL or Redshift login,
  a service account, an Azure storage account): posting the same connection again replaces its
  settings and secrets in place (same id), which needs a project admin.
* Deleting an integration a batch export uses is refused (400); the module refuses it first.

Every integration has a ``name`` here: the one given to a named kind (``config.name``), else the
connection PostHog keeps it by (:func:`integration_name`): what ``batch_export``'s
``destination.integration`` names it by.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import re

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._common import list_or_get, project_id_of
from ansible_collections.posthog.admin.plugins.module_utils._resource import (
    SECRET_MASK,
    Failure,
    Field,
    Resource,
    Scope,
    mask,
    options_of,
    unknown,
    values_match,
)
from ansible_collections.posthog.admin.plugins.module_utils._section import Section, options_from

PLACE = "Project settings > Integrations"
PUBLIC, SECRET = "public", "secret"


class Kind:
    """One credential kind: the config keys it takes (``public`` ones PostHog shows, ``secret`` ones
    it never returns), those it needs to be created (``required``), whether the user names it, and
    what PostHog shows of it (``shown``: the public keys read back and compared)."""

    def __init__(self, label, public=(), secret=(), required=(), named=True, shown=None, defaults=None):
        self.label = label
        self.public = tuple(public)
        self.secret = tuple(secret)
        self.required = tuple(required)
        self.named = named
        self.shown = tuple(self.public if shown is None else shown)
        self.defaults = defaults or {}

    @property
    def keys(self):
        return self.public + self.secret


AWS_KEYS = ("aws_access_key_id", "aws_secret_access_key")
LOGIN = ("host", "port", "user", "ssl_mode", "ssl_root_cert")
REDSHIFT_EXTRA = ("user", "groups", "auto_create", "workgroup_arn")
GCP_KEY = ("private_key", "private_key_id", "token_uri")

#: The kinds PostHog's API creates from credentials (``IntegrationSerializer._build_integration``).
KINDS = {
    "aws-s3": Kind("AWS S3", public=("aws_role_arn",), secret=AWS_KEYS),
    "s3-compatible": Kind("S3-compatible storage", public=("endpoint_url",), secret=AWS_KEYS,
                          required=("endpoint_url",) + AWS_KEYS),
    "snowflake": Kind("Snowflake", public=("account", "user", "authentication_type"),
                      secret=("password", "private_key", "private_key_passphrase"), required=("account", "user"),
                      defaults=dict(authentication_type="password")),
    "aws-redshift": Kind("Redshift", public=("aws_role_arn", "workgroup_arn", "groups", "auto_create") + LOGIN,
                         secret=AWS_KEYS + ("password",), required=("user",)),
    "postgresql": Kind("PostgreSQL", public=LOGIN, secret=("password",), required=("host", "port", "user", "password"),
                       named=False, shown=("ssl_mode", "ssl_root_cert"), defaults=dict(ssl_mode="require")),
    "databricks": Kind("Databricks", public=("server_hostname",), secret=("client_id", "client_secret"),
                       required=("server_hostname", "client_id", "client_secret"), named=False, shown=()),
    "google-cloud-service-account": Kind("Google Cloud service account", public=("service_account_email", "project_id"),
                                         secret=GCP_KEY, required=("service_account_email", "project_id"),
                                         named=False, shown=("project_id",)),
    "azure-blob": Kind("Azure Blob Storage", secret=("connection_string",), required=("connection_string",),
                       named=False, shown=()),
}
#: Kinds connected by an OAuth flow (or an upload) in PostHog's web app, never by the API with a key.
WEB_APP_KINDS = ("slack", "github", "gitlab", "hubspot", "salesforce", "google-ads", "google-sheets", "linkedin-ads",
                 "linear", "jira", "intercom", "twilio", "email", "apns", "firebase", "google-pubsub",
                 "google-cloud-storage", "meta-ads", "reddit-ads", "tiktok-ads", "stripe", "vercel", "clickup")
SECRET_KEYS = tuple(sorted(set(k for kind in KINDS.values() for k in kind.secret)))
PUBLIC_KEYS = tuple(sorted(set(k for kind in KINDS.values() for k in kind.public)))
SSL_MODES = ("require", "verify-ca", "verify-full")
AWS_ROLE_ARN_RE = re.compile(r"^arn:aws(-[a-z-]+)?:iam::\d{12}:role/.+")
WORKGROUP_ARN_RE = re.compile(r"^arn:aws(-[a-z-]+)?:redshift-serverless:[a-z0-9-]+:\d{12}:workgroup/.+")
SNOWFLAKE_ACCOUNT_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")
# posthog/security/url_validation.py: names refused before any lookup
INTERNAL_SUFFIXES = (".local", ".internal", ".svc.cluster.local", ".cluster.local", ".consul", ".lan", ".home",
                     ".corp", ".localdomain", ".home.arpa", ".intranet", ".priv")
_TYPES = dict(port=dict(type="int"), groups=dict(type="list", elements="str"), auto_create=dict(type="bool"),
              ssl_mode=dict(type="str", choices=list(SSL_MODES)),
              authentication_type=dict(type="str", choices=["password", "keypair"]))

#: Every key of ``config``, of every kind, described once: its option (the secret ones ``no_log``), and
#: which are secret: masked in results, diffs, plans and their files, never compared by value (PostHog
#: keeps them in ``sensitive_config``, which it never answers) and never exported.
CONFIG_FIELDS = tuple(Field(key, secret=key in SECRET_KEYS, option=dict(_TYPES.get(key, {}), no_log=key in SECRET_KEYS))
                      for key in PUBLIC_KEYS + SECRET_KEYS)


# ------------------------------------------------------------------------ names
def account_name(connection_string):
    """The storage account of an Azure connection string (``AccountName=``), or None."""
    for part in str(connection_string or "").split(";"):
        part = part.strip()
        if part.startswith("AccountName="):
            return part.split("=", 1)[1] or None
    return None


def login_name(config):
    return "%s@%s:%s" % (config.get("user"), config.get("host"), config.get("port"))


def named(kind, config):
    """Whether an integration of ``kind`` with ``config`` is one the user names (a Redshift login is
    not: PostHog keeps it by the login, as PostgreSQL)."""
    if kind == "aws-redshift":
        return any(config.get(k) not in (None, "") for k in ("aws_role_arn",) + AWS_KEYS)
    return KINDS[kind].named if kind in KINDS else True


def connection_name(kind, config):
    """The name of an integration PostHog keeps by its connection, from the user's ``config`` (None
    when the config does not say)."""
    config = config or {}
    if kind in ("postgresql", "aws-redshift"):
        return login_name(config) if all(config.get(k) not in (None, "") for k in ("user", "host", "port")) else None
    if kind == "databricks":
        return config.get("server_hostname")
    if kind == "google-cloud-service-account":
        return config.get("service_account_email")
    if kind == "azure-blob":
        return account_name(config.get("connection_string"))
    return None


def integration_name(integration):
    """The name of PostHog's ``integration``: the name it was given (``config.name``), else the connection
    PostHog keeps it by (a Databricks host, ``user@host:port``, a service account, an Azure storage
    account), else its display name."""
    config = integration.get("config") if isinstance(integration.get("config"), dict) else {}
    if config.get("name"):
        return config["name"]
    kind = integration.get("kind")
    if kind == "azure-blob":
        display = str(integration.get("display_name") or "")
        return display[len("ID: "):] if display.startswith("ID: ") else display or None
    return connection_name(kind, config) or integration.get("display_name")


def matches_name(integration, name):
    display = str(integration.get("display_name") or "")
    return name in (integration_name(integration), display) or display.startswith(name + " (")


# ------------------------------------------------------------------------ checks
def _blank(value):
    return value is None or (isinstance(value, str) and not value)


def host_problem(host):
    """Why PostHog's SSRF guard refuses ``host`` without resolving it (loopback, metadata, internal
    names, private addresses), or None."""
    import ipaddress
    name = str(host).strip().lower().rstrip(".")
    if name in ("localhost", "169.254.169.254", "metadata.google.internal") or name.endswith(INTERNAL_SUFFIXES):
        return "an internal or loopback host"
    try:
        address = ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return None
    if address.is_private or address.is_loopback or address.is_link_local or address.is_reserved or \
            address.is_multicast or address.is_unspecified:
        return "a private address"
    return None


def config_problems(kind, config, creating):
    """PostHog's checks of ``config`` for ``kind`` (posthog/models/integration/), with its messages,
    found without any request; ``creating``: the keys a new one needs are checked too."""
    spec = KINDS[kind]
    problems = []
    unknown_keys = sorted(k for k in config if k not in spec.keys)
    if unknown_keys:
        problems.append("config has key(s) integrations of kind %s do not take: %s; they take %s" % (
            kind, ", ".join(unknown_keys), ", ".join(sorted(spec.keys))))
    role, keys = config.get("aws_role_arn"), [config.get(k) for k in AWS_KEYS]
    if kind in ("aws-s3", "aws-redshift") and role is not None and any(k is not None for k in keys):
        problems.append("config takes aws_role_arn or aws_access_key_id and aws_secret_access_key, not both")
    if role is not None and not AWS_ROLE_ARN_RE.match(role):
        problems.append("config.aws_role_arn: AWS role ARN is not valid (PostHog takes arn:aws:iam::<12 digits>:role/<name>)")
    workgroup = config.get("workgroup_arn")
    if workgroup is not None and not WORKGROUP_ARN_RE.match(workgroup):
        problems.append("config.workgroup_arn: Workgroup ARN must be a valid Redshift Serverless workgroup ARN")
    if config.get("groups") is not None and (not config["groups"] or not all(config["groups"])):
        problems.append("config.groups: Groups must be a list of at least one string")
    if kind == "snowflake" and config.get("account") and not SNOWFLAKE_ACCOUNT_RE.match(config["account"]):
        problems.append("config.account: Snowflake integration is not valid: invalid account identifier '%s'"
                        % config["account"])
    endpoint = config.get("endpoint_url")
    if endpoint is not None:
        match = re.match(r"^https?://([^/:?#]+)", endpoint)
        if not match or host_problem(match.group(1)):
            problems.append("config.endpoint_url: Invalid endpoint URL: PostHog takes an http(s) URL of a public host, "
                            "got %r" % endpoint)
    hostname = config.get("server_hostname")
    if hostname is not None:
        if hostname.startswith("http"):
            problems.append("config.server_hostname: Databricks integration is not valid: 'server_hostname' should "
                            "not be a full URL")
        elif host_problem(hostname):
            problems.append("config.server_hostname: Databricks integration error: could not validate hostname '%s'"
                            % hostname)
    if config.get("host") is not None and host_problem(config["host"]):
        problems.append("config.host: Provided host '%s' is not valid (%s)" % (config["host"], host_problem(config["host"])))
    if config.get("port") is not None and not 0 <= config["port"] <= 65535:
        problems.append("config.port: A valid port is required for an %s integration" % kind)
    if config.get("ssl_mode") in ("verify-ca", "verify-full") and not config.get("ssl_root_cert"):
        problems.append("config.ssl_root_cert: SSL root certificate must be provided when verifying server certificates")
    if kind == "google-cloud-service-account":
        given = [k for k in GCP_KEY if config.get(k) is not None]
        if given and len(given) != len(GCP_KEY):
            problems.append("config: a key file's private_key, private_key_id and token_uri go together (none of them: "
                            "PostHog impersonates the service account); got only %s" % ", ".join(given))
    if kind == "azure-blob" and config.get("connection_string") is not None:
        text = config["connection_string"]
        if not account_name(text):
            problems.append("config.connection_string: Could not extract AccountName from connection string. Ensure it "
                            "contains 'AccountName=<your-account-name>;'")
        elif "defaultendpointsprotocol=http;" in text.lower().replace(" ", "") + ";":
            problems.append("config.connection_string: 'DefaultEndpointsProtocol' must be 'https'")
    if kind == "snowflake":
        auth = config.get("authentication_type") or "password"
        need = "password" if auth == "password" else "private_key"
        if creating and _blank(config.get(need)):
            problems.append("config.%s: %s is required for %s authentication" % (
                need, "Password" if need == "password" else "Private key",
                "password" if auth == "password" else "key-pair"))
    if creating:
        problems.extend(missing_keys(kind, config))
    return problems


def missing_keys(kind, config):
    """What a new integration of ``kind`` still needs, in PostHog's words."""
    spec = KINDS[kind]
    required = list(spec.required)
    if kind == "aws-s3" and config.get("aws_role_arn") is None:
        required = list(AWS_KEYS)
    if kind == "aws-redshift":
        if config.get("aws_role_arn") is None and all(config.get(k) is None for k in AWS_KEYS):
            if not any(config.get(k) is not None for k in ("host", "port", "user", "password")):
                return ["config: Missing required inputs (a Redshift integration takes aws_role_arn, or "
                        "aws_access_key_id and aws_secret_access_key, or host, port, user and password)"]
            required = ["host", "port", "user", "password"]
        elif config.get("aws_role_arn") is None:
            required = list(AWS_KEYS) + ["user"]
    return ["config.%s is required to create an integration of kind %s" % (key, kind)
            for key in required if _blank(config.get(key))]


def stored_config(kind, name, config):
    """What PostHog shows of a new integration's ``config`` (its ``sensitive_config`` left out)."""
    spec = KINDS[kind]
    shown = dict((k, config[k]) for k in spec.public if config.get(k) is not None)
    for key, value in spec.defaults.items():
        shown.setdefault(key, value)
    if kind in ("postgresql", "aws-redshift") and not named(kind, config):
        shown = dict((k, config.get(k)) for k in LOGIN)
        shown["ssl_mode"] = shown.get("ssl_mode") or "require"
    if kind == "azure-blob":
        shown = {}
    if named(kind, config):
        shown = dict(name=name, **shown)
    return shown


# ------------------------------------------------------------------------ the resource
#: The name is the one given to a named kind, else the connection PostHog keeps it by (read, never sent:
#: it is part of ``config``); ``kind`` is part of what names an integration (sent on create, never
#: changed); ``config`` is compared key by key for the kind (:meth:`Integration.changed_keys`): its
#: secret keys (:data:`CONFIG_FIELDS`) are write-only.
FIELDS = (
    Field("name", sent=False, locate=lambda obj, resource: resource.name_of(obj)),
    Field("kind", frozen=True, sent=False),
    Field("config", "dict", option=dict(options=options_of(CONFIG_FIELDS))),
)
ITEM_OPTIONS = ("state", "name", "id", "kind", "config", "update_secrets")
ARGUMENT_SPEC = dict(
    state=dict(type="str", default="present", choices=["present", "absent"]),
    name=dict(type="str"),
    id=dict(type="str"),
    update_secrets=dict(type="str", default="on_create", choices=["on_create", "always"], no_log=False),
)
ARGUMENT_SPEC.update(options_of(FIELDS))

INFO_ARGUMENT_SPEC = dict(
    id=dict(type="str"),
    kind=dict(type="str"),
    name=dict(type="str"),
)


class Integration(Resource):
    """A credential integration of a project, found by id or by kind and name."""

    kind = "integration"
    return_key = "integration"
    SCOPE = Scope("project", "integrations")
    list_option = "integrations"
    item_options = ITEM_OPTIONS
    lookups = ("id", "name")
    named_by = "name or id"
    FIELDS = FIELDS
    # the secret keys of ``config`` (a Field describes an option: the engine derives top-level paths only)
    secret_paths = tuple("config.%s" % f.name for f in CONFIG_FIELDS if f.secret)

    def __init__(self, task, params, listing=None):
        super(Integration, self).__init__(task, params, listing)
        self.integration_kind = params.get("kind")
        self.config = dict((k, v) for k, v in (params.get("config") or {}).items() if v is not None)
        self.sending_secrets = False
        by_connection = self.integration_kind in KINDS and not named(self.integration_kind, self.config)
        if params.get("name") is None and by_connection:
            params["name"] = connection_name(self.integration_kind, self.config)

    @property
    def spec(self):
        return KINDS.get(self.integration_kind)

    def identity(self):
        option, value = self.lookup()
        if option == "name":
            return "integration %r%s" % (value, " (%s)" % self.integration_kind if self.integration_kind else "")
        return super(Integration, self).identity()

    def identities(self):
        return [(option, (self.integration_kind, value)) for option, value in super(Integration, self).identities()]

    # ------------------------------------------------------------- checking
    def validate(self):
        params = self.params
        kind = self.integration_kind
        problems = []
        if params.get("id") is not None and not str(params["id"]).strip().isdigit():
            problems.append("id must be an integration's numeric id, got %r" % params["id"])
        if params.get("name") is not None and not params["name"].strip():
            problems.append("name must not be blank")
        if kind is None:
            if params.get("id") is None:
                problems.append("kind is required (a name is the name of an integration of a kind): one of %s"
                                % ", ".join(sorted(KINDS)))
            return problems
        if kind in WEB_APP_KINDS or kind not in KINDS:
            return problems + [kind_problem(kind)]
        problems.extend(config_problems(kind, self.config, creating=False))
        derived = connection_name(kind, self.config)
        if not named(kind, self.config) and params.get("name") and derived and params["name"] != derived:
            problems.append("name: PostHog keeps an integration of kind %s by its connection, %r here; give that as "
                            "its name, or leave name out" % (kind, derived))
        if named(kind, self.config) and params.get("update_secrets") == "always" and params.get("state") != "absent":
            problems.append("update_secrets: always cannot be done for an integration of kind %s that has a name: "
                            "PostHog has no update for it and refuses a second one of the same name. To rotate its "
                            "secrets, create a new integration under another name, point the exports at it, then "
                            "delete this one" % kind)
        return problems

    def missing(self):
        if self.params.get("id"):
            return "%s not found in project %s; omit id to create a new one" % (self.identity(), project_id_of(self.params))
        problems = config_problems(self.integration_kind, self.config, creating=True)
        if named(self.integration_kind, self.config) and not self.params.get("name"):
            problems.insert(0, "name is required to create an integration of kind %s" % self.integration_kind)
        if problems:
            return "%s does not exist; to create it: %s" % (self.identity(), "; ".join(problems))
        return None

    def guard(self, current):
        """Before any write: an integration a batch export uses is not deleted (PostHog refuses it); a
        named kind cannot change in place; a connection kind changes only with its secrets given."""
        if current is None:
            return
        if self.integration_kind and current.get("kind") != self.integration_kind:
            raise Failure("%s is of kind %s, not %s; PostHog cannot change an integration's kind" % (
                self.identity(), current.get("kind"), self.integration_kind))
        if self.params.get("state") == "absent":
            users = exports_using(self.task, project_id_of(self.params), current.get("id"))
            if users:
                raise Failure(
                    "%s: PostHog refuses to delete it: This integration is used by batch exports: %s. Update them "
                    "to use a different integration before disconnecting it (organization_state converges "
                    "integrations before batch exports, so a run that re-points or deletes those exports must come "
                    "first)." % (self.identity(), ", ".join(sorted(users))))
            return
        changed = self.changed_keys(current.get("config"))
        if not changed:
            return
        if named(self.integration_kind, self.config):
            raise Failure(
                "%s: config %s cannot be changed: PostHog has no update for an integration of kind %s and refuses "
                "a second one of the same name. Delete it and create it again (state: absent, then present), or "
                "create one under another name" % (self.identity(), ", ".join(changed), self.integration_kind))
        missing = [k for k in self.spec.required if _blank(self.config.get(k))]
        if missing:
            raise Failure(
                "%s: changing config %s sends the integration whole (PostHog replaces an integration of kind %s "
                "with what is posted): give config.%s too" % (
                    self.identity(), ", ".join(changed), self.integration_kind, ", config.".join(missing)))

    # ------------------------------------------------------------- comparing
    def name_of(self, obj):
        """The name of PostHog's ``obj`` among the integrations of the task's kind (None: another kind)."""
        if self.integration_kind and obj.get("kind") not in (None, self.integration_kind):
            return None  # a name is a name among the integrations of a kind
        return integration_name(obj)

    def manageable(self, obj):
        return isinstance(obj, dict) and obj.get("kind") in KINDS

    def list_query(self, option=None):
        return dict(kind=self.integration_kind) if option is not None and self.integration_kind else None

    def changed_keys(self, stored):
        """The shown config keys the task sets that PostHog's ``stored`` config has otherwise (and the
        secrets, with update_secrets=always)."""
        stored = stored if isinstance(stored, dict) else {}
        kind = self.spec
        if kind is None:
            return []
        changed = [k for k in kind.shown if k in self.config and not values_match(self.config[k], stored.get(k))]
        if self.params.get("update_secrets") == "always":
            changed.extend(k for k in kind.secret if k in self.config)
        return changed

    def equal(self, field, wanted, current):
        if field == "config":
            return not self.changed_keys(current)
        return super(Integration, self).equal(field, wanted, current)

    def view(self, obj, desired):
        if obj is None:
            return {}
        view = dict(name=self.read(obj, "name"), kind=obj.get("kind"))
        if self.params.get("config") is not None and self.spec is not None:
            stored = obj.get("config") or {}
            shown = dict((k, stored.get(k)) for k in self.spec.shown if k in self.config)
            # Secrets are never read back: they appear (masked) only where they are being sent.
            shown.update(dict((k, SECRET_MASK) for k in self.spec.secret if k in self.config and self.sending_secrets))
            view["config"] = shown
        return view

    def shape(self, obj):
        if not obj:
            return obj
        shaped = mask(copy.deepcopy(obj), self.secret_paths)
        shaped["name"] = integration_name(shaped)
        return shaped

    # --------------------------------------------------------------- writing
    def body(self):
        config = dict(self.config)
        if named(self.integration_kind, self.config):
            config["name"] = self.params["name"]
        self.sending_secrets = any(k in config for k in self.spec.secret)
        return dict(kind=self.integration_kind, config=config)

    def create_payload(self, desired):
        return self.body()

    def predict_create(self, payload):
        config = payload["config"]
        shown = stored_config(self.integration_kind, self.params.get("name"), config)
        return dict(id=None, kind=self.integration_kind, config=shown, errors="", created_by=None, created_at=None,
                    display_name=predicted_display_name(self.integration_kind, self.params.get("name"), shown))

    def update_payload(self, current, changes):
        return self.body()

    def update_request(self, current, payload):
        """PostHog has no update: posting the same connection again replaces it in place (same id)."""
        return dict(method="POST", path=self.collection_path(), body=payload, answers="object",
                    note="replacing the settings and secrets of %s" % self.identity())

    def predict_update(self, current, changes):
        after = copy.deepcopy(current)
        after["config"] = stored_config(self.integration_kind, self.params.get("name"), self.config)
        return after

    def absorb(self, action, answer):
        obj = super(Integration, self).absorb(action, answer)
        if action.verb == "updated" and isinstance(obj, dict) and self.found and \
                str(obj.get("id")) != str(self.found.get("id")):
            raise Failure("%s: PostHog answered the replacement with another integration (id %s, not %s)" % (
                self.identity(), obj.get("id"), self.found.get("id")))
        return obj

    def explain(self, error):
        detail = error.detail or ""
        if "Editing an existing integration requires project admin access" in detail:
            return error.append("Replacing the settings or secrets of an integration of kind %s needs the admin level "
                                "in the project." % self.integration_kind)
        if "is used by" in detail:
            return error.append("Point those at another integration first, then delete this one.")
        if "already exists" in detail:
            return error.append("An integration of kind %s with that name exists already: manage it (give its id), "
                                "or choose another name." % self.integration_kind)
        return error


def kind_problem(kind):
    if kind in WEB_APP_KINDS:
        return ("kind %s: PostHog connects integrations of kind %s in its web app (%s), through an OAuth flow or an "
                "upload its API cannot run with a personal API key; connect it there, then find it with "
                "posthog.admin.integration_info. This module creates the credential kinds: %s"
                % (kind, kind, PLACE, ", ".join(sorted(KINDS))))
    return "kind must be one of %s (the kinds PostHog's API creates), got %r" % (", ".join(sorted(KINDS)), kind)


def predicted_display_name(kind, name, config):
    """PostHog's ``Integration.display_name`` (``posthog/models/integration/model.py``) of a new one."""
    if kind == "aws-s3":
        return "%s (%s)" % (name, "AWS role '%s'" % config["aws_role_arn"] if config.get("aws_role_arn") else
                            "AWS account (known after apply)")
    if kind == "aws-redshift" and named(kind, config):
        return "%s (%s)" % (name, "AWS role '%s'" % config["aws_role_arn"] if config.get("aws_role_arn") else
                            "AWS account (known after apply)")
    if kind == "s3-compatible":
        return "%s (access key, %s)" % (name, config.get("endpoint_url"))
    if kind == "snowflake":
        return "%s (account: %s, %s auth)" % (name, config.get("account"), config.get("authentication_type", "password"))
    if kind == "databricks":
        return name
    return None  # "ID: <PostHog's id for it>", which carries the project's id


def exports_using(task, project_id, integration_id):
    """The names of the project's batch exports whose destination uses the integration (None where
    PostHog does not list them on the project)."""
    if integration_id is None or unknown(str(integration_id)):
        return []
    from ansible_collections.posthog.admin.plugins.module_utils._batch_export import BatchExport

    path = BatchExport.SCOPE.path(task, dict(project_id=project_id))
    exports = task.known(path)
    if exports is None:
        if task.missing_parent:
            return []
        try:
            exports = task.client.list_all(path, context="reading the batch exports of project %s" % project_id)
        except PostHogError as exc:
            if exc.status in (403, 404, 405):
                return []
            raise
    return [e.get("name") for e in exports if isinstance(e, dict) and
            str((e.get("destination") or {}).get("integration")) == str(integration_id)]


def read_integrations(task, params):
    """integration_info: the project's integrations (or one by id), by kind and name, each with
    ``name`` added (what ``batch_export``'s ``destination.integration`` may name it by)."""
    path = Integration.SCOPE.path(task, params)
    kind = params.get("kind")
    integrations = list_or_get(task, path, params.get("id"), params=dict(kind=kind) if kind else None,
                               what="integration", filters=dict(kind=kind))
    name = params.get("name")
    if name is not None:
        integrations = [i for i in integrations if matches_name(i, name)]
    shaped = []
    for integration in integrations:
        integration = mask(integration, Integration.secret_paths) if isinstance(integration, dict) else integration
        integration["name"] = integration_name(integration)
        shaped.append(integration)
    return dict(integrations=shaped)


# ---------------------------------------------------------------------------------- exporting
def export_item(ctx, obj, project_id, first_project):
    kind = obj.get("kind")
    if kind not in KINDS:
        ctx.note("integration %r (%s) is connected in PostHog's web app (%s), which the document cannot do; it is "
                 "left out" % (integration_name(obj), kind, PLACE))
        return None
    stored = obj.get("config") or {}
    name = integration_name(obj)
    item = dict(kind=kind, name=name)
    shown = dict((k, stored[k]) for k in KINDS[kind].public if stored.get(k) not in (None, "", []))
    if kind in ("postgresql", "aws-redshift") and not stored.get("name"):
        shown = dict((k, stored[k]) for k in LOGIN if stored.get(k) not in (None, ""))
    if shown:
        item["config"] = shown
    if project_id != first_project:
        item["project_id"] = str(project_id)
    secrets = exported_secrets(obj)
    if secrets:
        ctx.comment("integrations", name, (
            "config also takes %s: PostHog never returns them, so they are left out; they are needed to create it "
            "again (add them from your vault)" % ", ".join(secrets)))
    return item


def exported_secrets(obj):
    """The secret config keys PostHog keeps for ``obj`` (never returned): what the export names as needed to
    create it again, as far as its shown config tells (a role, an impersonated service account: none)."""
    kind, stored = obj.get("kind"), obj.get("config") or {}
    if stored.get("aws_role_arn"):
        return []
    if kind == "aws-redshift":
        return list(AWS_KEYS) if stored.get("name") else ["password"]
    if kind == "snowflake":
        return ["password"] if stored.get("authentication_type", "password") == "password" else \
            ["private_key", "private_key_passphrase"]
    if kind == "google-cloud-service-account":
        return list(GCP_KEY) if str(obj.get("display_name") or "").endswith("-key-file") else []
    return list(KINDS[kind].secret)


def export_items(ctx):
    """organization_state_info: every project's credential integrations (secrets named, never written)."""
    items = []
    for project_id in ctx.project_ids:
        found = ctx.quietly("integrations of project %s" % project_id, lambda pid=project_id: ctx.client.list_all(
            Integration.SCOPE.path(ctx.task, dict(project_id=pid)), context="listing integrations of project %s" % pid))
        for obj in found or []:
            if isinstance(obj, dict):
                item = export_item(ctx, obj, project_id, ctx.project_ids[0])
                if item:
                    items.append(item)
    return items


# ---------------------------------------------------------------------------------- the document
def _keys(obj, label):
    """What batch exports call an integration: its id and its name (lower-cased)."""
    if not obj:
        return []
    return [str(obj.get("id")), str(integration_name(obj) or "").lower()]


#: Integrations come before the batch exports that name them: one the document creates is created
#: first, its id known after apply in the exports' destinations.
SECTION = Section(
    "integrations", Integration, options_from(ARGUMENT_SPEC, ITEM_OPTIONS + ("project_id",),
                                              project_id=dict(type="str")),
    "integration", refers=(("project_id", "projects"),), keys=_keys, export=export_items,
    comment="Credential integrations, per project (posthog.admin.integration); batch exports name them. Secrets "
            "are never returned: see the notes.")
