# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Identity provider configurations: the resource behind identity_provider_config and its _info.

PostHog's newest API (``posthog/api/identity_provider_config.py``, docs/posthog_facts.md §10.2) keeps SAML, OIDC,
SCIM and ID-JAG settings in configurations of the organization, each applied to some of its
domains (``organization_domain_ids``) or to all verified ones (``domain_scope: all``):

* admins write, members read (scope ``organization``);
* ``oidc_client_secret`` is write-only (``has_oidc_client_secret`` says whether one is saved);
* ``scim_enabled: true`` generates a SCIM bearer token, answered once (``scim_bearer_token``);
  ``POST …/scim/token/`` regenerates it, but has no API key scope, so PostHog refuses it to
  personal API keys: the module then turns SCIM off and on again, which also makes a new token;
* two fully configured SAML (or OIDC) configurations may not share a verified domain;
* a configuration without ``config_scope`` cannot be deleted.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy

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
    name_problem,
    options_of,
)
from ansible_collections.posthog.admin.plugins.module_utils._section import Section, options_from

CONFIG_SCOPES = ["saml", "oidc", "scim", "xaa"]
DOMAIN_SCOPES = ["selected", "all"]
SAML_FIELDS = ("saml_entity_id", "saml_acs_url", "saml_x509_cert")
OIDC_FIELDS = ("oidc_issuer_url", "oidc_client_id")
NAME_MAX_LENGTH = 255
ROUTE_GONE = "Endpoint not found."
DOMAIN_MODULE_WAY = ("older PostHog keeps SAML on the domain itself: set saml_entity_id, saml_acs_url and "
                     "saml_x509_cert with posthog.admin.domain")


def same_domain_scope(wanted, current):
    """PostHog answers no ``domain_scope`` for a configuration of selected domains (its default)."""
    return wanted == ("selected" if current is None else current)


def same_ids(wanted, current):
    """Domain ids, in any order (PostHog answers UUIDs as strings)."""
    return sorted(str(i) for i in wanted) == sorted(str(i) for i in current or [])


def saved_flag(field):
    """What PostHog answers for a write-only Field: ``has_<field>``, whether one is saved."""
    return "has_%s" % field.api


#: A configuration's fields, each described once (PostHog's names). The OIDC client secret is
#: write-only (PostHog answers only has_oidc_client_secret); the domains are given by name and sent as
#: PostHog's ids (organization_domain_ids), exported by name beside the fields. The scopes' choices keep
#: PostHog's order (the option's error message lists them so).
FIELDS = (
    Field("name"),
    Field("config_scope", option=dict(choices=CONFIG_SCOPES)),
    Field("domain_scope", option=dict(choices=DOMAIN_SCOPES), compare=same_domain_scope),
    Field("saml_entity_id"),
    Field("saml_acs_url"),
    Field("saml_x509_cert"),
    Field("oidc_issuer_url"),
    Field("oidc_client_id"),
    Field("oidc_client_secret", secret=True),
    Field("scim_enabled", "bool"),
    Field("id_jag_issuer_url"),
    Field("id_jag_jwks_url"),
    Field("id_jag_allowed_clients", "list", elements="str", unordered=True),
    Field("domains", "list", elements="str", api="organization_domain_ids", compare=same_ids, export=False),
)

ARGUMENT_SPEC = dict(
    state=dict(type="str", default="present", choices=["present", "absent"]),
    id=dict(type="str"),
)
ARGUMENT_SPEC.update(options_of(FIELDS))
ARGUMENT_SPEC.update(
    update_secrets=dict(type="str", default="on_create", choices=["on_create", "always"], no_log=False),
    regenerate_scim_token=dict(type="bool", default=False),
)

INFO_ARGUMENT_SPEC = dict(
    id=dict(type="str"),
    name=dict(type="str"),
    config_scope=dict(type="str", choices=CONFIG_SCOPES),
    domain=dict(type="str"),
)


def no_configurations(error):
    """The message for a PostHog without identity provider configurations."""
    return error.reword("%s. This PostHog has no identity provider configurations (they came with its newest "
                        "API); %s" % (error.message.rstrip("."), DOMAIN_MODULE_WAY))


def normalise_domain(value):
    return (value or "").strip().rstrip(".").lower()


class RegenerateScimToken(Step):
    """A new SCIM bearer token (``regenerate_scim_token``), answered once: an action, always done."""

    action = "SCIM token regenerated"

    def plan(self, resource, result):
        if not resource.params.get("regenerate_scim_token"):
            return None
        turned_on = resource.found is None or not resource.found.get("scim_enabled")
        if turned_on and result.obj.get("scim_enabled"):
            return None  # this run turns SCIM on, which makes a new token already
        return True

    def predict(self, resource, result, plan):
        return dict(result.obj, scim_enabled=True, has_scim=True, scim_bearer_token=None)

    def requests(self, resource, result, plan):
        obj = result.obj
        if not obj.get("scim_enabled"):
            raise Failure("%s: regenerate_scim_token needs SCIM on: set scim_enabled: true" % resource.identity())
        path = resource.path_of(obj)
        when = "PostHog refuses scim/token to personal API keys (the action has no API key scope)"
        return [dict(method="POST", path=path + "scim/token/", body={},
                     note="regenerating the SCIM token of %s" % resource.identity(),
                     fallback=[dict(method="PATCH", path=path, body={"scim_enabled": False}, when=when),
                               dict(method="PATCH", path=path, body={"scim_enabled": True}, when=when)])]

    def perform(self, resource, action, send):
        try:
            return send()
        except PostHogError as exc:
            if not exc.refuses_api_keys:
                raise
        # Turning SCIM off and on makes a new token too (the plan shows it as this action's fallback).
        resource.task.warn("PostHog does not let a personal API key call scim/token, so the module turned SCIM "
                           "off and on again to make a new token (provisioning paused for that moment)")
        path = resource.planned.resolve(action.path)[:-len("scim/token/")]
        resource.client.patch(path, {"scim_enabled": False}, context="turning SCIM off for %s" % resource.identity(),
                              expect="object")
        return resource.client.patch(path, {"scim_enabled": True}, context="turning SCIM on for %s"
                                     % resource.identity(), expect="object")

    def absorb(self, resource, action, answer):
        if not isinstance(answer, dict):
            raise Failure("%s: PostHog answered POST %s without the new token" % (resource.identity(), action.path))
        obj = dict(answer) if answer.get("id") is not None else dict(resource.applied)
        return dict(obj, scim_bearer_token=answer.get("scim_bearer_token"))


REGENERATE = RegenerateScimToken()


class IdentityProviderConfig(Resource):
    """An identity provider configuration of an organization, found by id or name."""

    kind = "identity provider configuration"
    return_key = "identity_provider_config"
    SCOPE = Scope("organization", "identity_provider_configs")
    lookups = ("id", "name")
    FIELDS = FIELDS
    steps = (UPDATE, REGENERATE)

    def __init__(self, task, params, listing=None):
        super(IdentityProviderConfig, self).__init__(task, params, listing)
        self._domain_ids = None  # the ids of the domains named, looked up once (each unverified one warned once)

    def validate(self):
        params = self.params
        problems = []
        problems.extend(p for p in [name_problem(params, NAME_MAX_LENGTH)] if p)
        oidc = [f for f in OIDC_FIELDS + ("oidc_client_secret",) if params.get(f)]
        if oidc and params.get("config_scope") not in (None, "oidc"):
            problems.append("%s: OIDC settings need config_scope: oidc (PostHog refuses them on a %s configuration)"
                            % (", ".join(oidc), params["config_scope"]))
        issuer = params.get("oidc_issuer_url")
        if issuer and (not issuer.startswith("https://") or "?" in issuer or "#" in issuer or "@" in issuer):
            problems.append("oidc_issuer_url must be an HTTPS URL without credentials, a query or a fragment")
        if params.get("domain_scope") == "all" and params.get("domains"):
            problems.append("domains cannot be given with domain_scope: all (it applies to every verified domain)")
        for name_ in params.get("domains") or []:
            if not normalise_domain(name_):
                problems.append("domains must not contain blank entries")
        return problems

    # ------------------------------------------------------------ comparing
    def organization_domains(self, read=True):
        """The organization's domains: as organization_state's domains section left them, else read
        once per task (None when not read and ``read`` is false)."""
        path = self.task.org_path("domains")
        known = self.task.known(path)
        if known is None:
            known = self.task.cache.get(path)
        if known is None and read:
            known = self.task.cache[path] = self.client.list_all(path, context="looking up the organization's domains")
        return known

    def domain_ids(self):
        """The ids of ``domains`` (their names), from one list of the organization's domains."""
        if self.params.get("domains") is None:
            return None
        if self._domain_ids is None:
            known = self.organization_domains(read=not self.task.missing_parent)
            if known is None:  # check mode: an earlier task creates the organization (and its domains)
                self._domain_ids = []
                return self._domain_ids
            by_name = dict((d.get("domain"), d) for d in known if isinstance(d, dict))
            ids, unknown = [], []
            for name in self.params["domains"]:
                domain = by_name.get(normalise_domain(name))
                if domain is None:
                    unknown.append(normalise_domain(name))
                    continue
                ids.append(domain["id"])
                if not domain.get("is_verified"):
                    self.task.warn("domain %r is not verified yet; %s applies to it only once it is (see "
                                   "posthog.admin.domain, state=verified)" % (domain.get("domain"), self.identity()))
            if unknown:
                raise Failure("%s: domain(s) %s are not domains of the organization (it has %s); add them with "
                              "posthog.admin.domain first" % (self.identity(), ", ".join(unknown),
                                                              ", ".join(sorted(by_name)) or "none"))
            self._domain_ids = ids
        return self._domain_ids

    def desired(self):
        """The fields the task sets, its domains as PostHog's ids."""
        desired = super(IdentityProviderConfig, self).desired()
        if "domains" in desired:
            desired["domains"] = self.domain_ids()
        return desired

    def read(self, obj, field):
        """A write-only field as PostHog tells of it: masked when one is saved, else None."""
        described = self.field_map.get(field)
        if described is not None and described.write_only:
            return SECRET_MASK if (obj or {}).get(saved_flag(described)) else None
        return super(IdentityProviderConfig, self).read(obj, field)

    def equal(self, field, wanted, current):
        described = self.field_map.get(field)
        if described is not None and described.write_only:
            # Never readable: sent on create, with update_secrets=always, or when PostHog has none (or
            # has one and an empty string asks to remove it).
            return self.params.get("update_secrets") != "always" and bool(wanted) == bool(current)
        return super(IdentityProviderConfig, self).equal(field, wanted, current)

    def view(self, obj, desired):
        """The managed fields; the domains by name, as the task gives them."""
        view = super(IdentityProviderConfig, self).view(obj, desired)
        if "domains" in view:
            names = dict((d.get("id"), d.get("domain")) for d in self.organization_domains(read=False) or [])
            view["domains"] = sorted(names.get(i, i) for i in view["domains"] or [])
        return view

    # --------------------------------------------------------------- writing
    def missing(self):
        why = super(IdentityProviderConfig, self).missing()
        if why is None and not self.params.get("config_scope"):
            return ("%s does not exist; to create it, give config_scope (saml, oidc, scim or xaa): PostHog cannot "
                    "delete a configuration without one" % self.identity())
        return why

    def create_payload(self, desired):
        payload = dict(desired)
        if payload.get("scim_enabled") is False:
            # A new configuration has SCIM off, and PostHog refuses any scim_enabled value, false
            # included, from an organization whose plan lacks SCIM (an exported document says false).
            del payload["scim_enabled"]
        return payload

    def predicted(self, obj, payload):
        """``obj`` with ``payload`` (by field) as PostHog will answer it: a write-only field as whether one
        is saved."""
        for name, value in payload.items():
            described = self.field_map[name]
            if described.write_only:
                obj[saved_flag(described)] = bool(value)
            else:
                obj[described.api] = value
        if "scim_enabled" in payload:
            obj["has_scim"] = bool(payload["scim_enabled"])
        return obj

    def predict_create(self, payload):
        obj = dict((f.api, None) for f in FIELDS if not f.write_only)
        obj.update(id=None, scim_enabled=False, organization_domain_ids=[], has_saml=False, has_oidc=False,
                   has_scim=False, has_oidc_client_secret=False, scim_bearer_token=None)
        obj = self.predicted(obj, payload)
        obj["has_saml"] = all(obj.get(f) for f in SAML_FIELDS)
        return obj

    def predict_update(self, current, changes):
        return self.predicted(copy.deepcopy(current), changes)

    def explain(self, error):
        if error.status == 404 and (error.detail or "") == ROUTE_GONE:
            return no_configurations(error)
        if "overlaps with another" in (error.detail or ""):
            return error.append("Give each SAML (or OIDC) configuration its own verified domains, or remove the "
                                "domains from the other configuration first.")
        return error


def read_identity_provider_configs(task, params):
    """identity_provider_config_info: the organization's configurations (or one), by name, scope and domain."""
    try:
        configs = list_or_get(task, IdentityProviderConfig.SCOPE.path(task, params), params.get("id"),
                              what="identity provider configuration",
                              filters=dict(name=params.get("name"), config_scope=params.get("config_scope")))
    except PostHogError as exc:
        if exc.status == 404 and (exc.detail or "") == ROUTE_GONE:
            raise Failure.of(no_configurations(exc))
        raise
    if params.get("domain") and configs:  # none to filter (or check mode's missing organization): no look-up
        domains = task.client.list_all(task.org_path("domains"), context="looking up the organization's domains")
        wanted = [d.get("id") for d in domains if d.get("domain") == normalise_domain(params["domain"])]
        configs = [c for c in configs if set(wanted) & set(c.get("organization_domain_ids") or [])
                   or (wanted and c.get("domain_scope") == "all")]
    # the client secret and the SCIM token are never answered on a read; a server that did would not have them
    # printed (identity_provider_config returns the token only in the run that made it)
    hidden = IdentityProviderConfig.secret_paths + ("scim_bearer_token",)
    return dict(identity_provider_configs=[mask(c, hidden) if isinstance(c, dict) else c for c in configs])


# ---------------------------------------------------------------------------------- exporting
def export_item(obj, domain_names):
    item = IdentityProviderConfig.reader().export(obj)
    ids = obj.get("organization_domain_ids") or []
    if ids and obj.get("domain_scope") != "all":
        item["domains"] = sorted(domain_names.get(i, str(i)) for i in ids)
    return item


def export_items(ctx):
    """organization_state_info: the identity provider configurations, their domains by name (the OIDC
    client secret, never returned, named in a comment); None where PostHog has no such API."""
    configs = ctx.quietly("identity provider configurations", lambda: ctx.client.list_all(
        IdentityProviderConfig.SCOPE.path(ctx.task, {}), context="listing identity provider configurations"))
    if configs is None:
        return None
    domains = ctx.client.list_all(ctx.org_path("domains"), context="listing domains")  # read once (remembered)
    names = dict((d.get("id"), d.get("domain")) for d in domains if isinstance(d, dict))
    for obj in configs:
        if isinstance(obj, dict) and obj.get("has_oidc_client_secret"):
            ctx.comment("identity_provider_configs", obj.get("name"), (
                "oidc_client_secret is set; PostHog never returns it, so it is left out: it is only needed to "
                "create this configuration again (add it from your vault)"))
    return [export_item(c, names) for c in configs if isinstance(c, dict)]


# ---------------------------------------------------------------------------------- the document
def _tokens(configs):
    """The SCIM tokens this run's answers carried (answered once: returned, never lost)."""
    tokens = dict((c.get("name"), c["scim_bearer_token"]) for c in configs if c.get("scim_bearer_token"))
    return tokens or None


SECTION = Section(
    "identity_provider_configs", IdentityProviderConfig, options_from(ARGUMENT_SPEC, tuple(ARGUMENT_SPEC)),
    "identity provider configuration", required_one_of=[("name", "id")], export=export_items,
    outputs=dict(scim_bearer_tokens=_tokens),
    guards=("change_sso",),
    comment="SAML, OIDC and SCIM configurations and the domains they apply to "
            "(posthog.admin.identity_provider_config).")
