# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Verified domains and their SSO settings: the rules behind posthog.admin.domain and domain_info.

PostHog's rules (``posthog/api/organization_domain.py``):

* a domain is lower case and matches ``DOMAIN_RE``; it cannot be changed after creation;
* it is verified by publishing the DNS TXT record ``_posthog-challenge.<domain>`` with the
  domain's ``verification_challenge`` and calling ``POST .../domains/<id>/verify``, which answers
  the domain either way (the caller reads ``is_verified``);
* ``jit_provisioning_enabled`` and ``sso_enforcement`` are ignored on create and refused on update
  until the domain is verified (even when the value sent is the default);
* ``verify`` has no personal API key scope, so real PostHog refuses it to API keys (403).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import re
import time

from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogError
from ansible_collections.posthog.admin.plugins.module_utils._common import list_or_get
from ansible_collections.posthog.admin.plugins.module_utils._resource import UPDATE, Failure, Resource, Scope, Step
from ansible_collections.posthog.admin.plugins.module_utils._resource import Field, options_of
from ansible_collections.posthog.admin.plugins.module_utils._section import Section, options_from

DOMAIN_RE = re.compile(r"^([a-z0-9]+(-[a-z0-9]+)*\.)+[a-z]{2,}$")
DOMAIN_MAX_LENGTH = 128
CHALLENGE_PREFIX = "_posthog-challenge."
SSO_PROVIDERS = ("google-oauth2", "github", "gitlab", "saml")
SSO_ENFORCEMENT_MAX_LENGTH = 28
SAML_MAX_LENGTH = 512
SSO_SETTINGS = ("jit_provisioning_enabled", "sso_enforcement")
SAML_SETTINGS = ("saml_entity_id", "saml_acs_url", "saml_x509_cert")
# What PostHog stores for a new domain (SSO settings are ignored on create).
NEW_DOMAIN_DEFAULTS = dict(jit_provisioning_enabled=False, sso_enforcement="", saml_entity_id=None,
                           saml_acs_url=None, saml_x509_cert=None)
WEB_APP_PLACE = "Settings > Organization > Authentication domains"
SAML_MOVED = ("newer PostHog keeps SAML in an identity provider configuration linked to the domain "
              "(identity_provider_config), managed with posthog.admin.identity_provider_config")


def saml_way_forward(domain, desired):
    """The identity_provider_config task that sets the SAML options a domain task gave."""
    settings = "".join(", %s: %s" % (name, "..." if name == "saml_x509_cert" else desired[name])
                       for name in SAML_SETTINGS if desired.get(name))
    return ("For example: posthog.admin.identity_provider_config with name: <a name>, config_scope: saml, "
            "domains: [%s]%s (it applies once the domain is verified)" % (domain or "<domain>", settings))


def normalise_domain(value):
    """``Example.COM.`` -> ``example.com``: DNS names are case-insensitive; PostHog takes lower case only."""
    if value is None:
        return None
    return value.strip().rstrip(".").lower()


def domain_problem(value):
    """Why ``value`` (already normalised) is not a domain PostHog accepts, or None."""
    if not value:
        return "domain must not be empty"
    if "@" in value:
        return ("domain %r looks like an e-mail address; give only the part after the @ (for example %s)"
                % (value, value.rsplit("@", 1)[-1]))
    if len(value) > DOMAIN_MAX_LENGTH:
        return "domain is %d characters long; PostHog accepts at most %d" % (len(value), DOMAIN_MAX_LENGTH)
    if not DOMAIN_RE.match(value):
        return ("domain %r is not a domain name PostHog accepts: labels of letters and digits joined by "
                "single inner hyphens, separated by dots, ending in a top-level domain of at least two "
                "letters (for example example.com or login.example.co.uk)" % value)
    return None


def settings_problems(params):
    """Messages for SSO/SAML option values PostHog would refuse (checked before any request)."""
    problems = []
    sso = params.get("sso_enforcement")
    if sso is not None and len(sso) > SSO_ENFORCEMENT_MAX_LENGTH:
        problems.append("sso_enforcement is at most %d characters; use one of %s, or an empty string for none"
                        % (SSO_ENFORCEMENT_MAX_LENGTH, ", ".join(SSO_PROVIDERS)))
    for name in ("saml_entity_id", "saml_acs_url"):
        value = params.get(name)
        if value is not None and len(value) > SAML_MAX_LENGTH:
            problems.append("%s is at most %d characters, got %d" % (name, SAML_MAX_LENGTH, len(value)))
    return problems


def unsupported_saml(obj, desired):
    """The SAML options set in ``desired`` that the server's domain object ``obj`` has no field for.

    PostHog's newest domain API moved the SAML fields off the domain: it ignores them in a request
    and leaves them out of its answers, so their absence from a domain PostHog sent tells.
    """
    if not obj:
        return []
    return [name for name in SAML_SETTINGS if name in desired and name not in obj]


def verification_record(obj):
    """The DNS record that proves ownership of ``obj``'s domain (value None before it exists)."""
    domain = (obj or {}).get("domain")
    return dict(record_type="TXT", name=CHALLENGE_PREFIX + domain if domain else None,
                value=(obj or {}).get("verification_challenge"))


def with_verification(obj):
    """A copy of a domain object with its ``verification`` record added."""
    if not obj:
        return obj
    shaped = copy.deepcopy(obj)
    shaped["verification"] = verification_record(obj)
    return shaped


def wait_for_verification(attempt, timeout, interval, clock=time.monotonic, sleep=time.sleep):
    """Call ``attempt()`` (one verify request, returning the domain) until the domain is verified or
    ``timeout`` seconds have passed; sleep ``interval`` seconds between attempts.

    Returns ``(domain, attempts, seconds)``; the domain's ``is_verified`` says how it ended. The
    first attempt is immediate; there is never a sleep that ends past the deadline.
    """
    started = clock()
    attempts = 0
    while True:
        obj = attempt()
        attempts += 1
        elapsed = clock() - started
        if obj.get("is_verified") or elapsed + interval > timeout:
            return obj, attempts, elapsed
        sleep(interval)


ITEM_OPTIONS = ("state", "domain", "id", "jit_provisioning_enabled", "sso_enforcement", "saml_entity_id",
                "saml_acs_url", "saml_x509_cert")

#: A domain's fields: the domain itself (PostHog keeps it from creation), its SSO settings (SSO_SETTINGS:
#: refused until the domain is verified, ignored on create) and, in older PostHog, its SAML settings
#: (SAML_SETTINGS: newer PostHog keeps them in an identity provider configuration).
FIELDS = (
    Field("domain", frozen=True),
    Field("jit_provisioning_enabled", "bool"),
    Field("sso_enforcement"),
    Field("saml_entity_id"),
    Field("saml_acs_url"),
    Field("saml_x509_cert"),
)

ARGUMENT_SPEC = dict(state=dict(type="str", default="present", choices=["present", "verified", "absent"]))
ARGUMENT_SPEC.update(options_of(FIELDS))
ARGUMENT_SPEC.update(
    id=dict(type="str"),
    verify_timeout=dict(type="int", default=60),
    verify_interval=dict(type="int", default=5),
)

INFO_ARGUMENT_SPEC = dict(domain=dict(type="str"), id=dict(type="str"))


class Verify(Step):
    """Verify the domain (``state=verified``): ask PostHog to look the TXT record up, within
    ``verify_timeout``; fail with the record to publish when it is not found."""

    action = "verified"

    def plan(self, resource, result):
        if result.obj.get("is_verified"):
            return None
        return "just created" if "created" in result.actions else "unverified"

    def predict(self, resource, result, plan):
        return dict(result.obj, is_verified=True)

    def requests(self, resource, result, plan):
        return [dict(method="POST", path=resource.path_of(result.obj) + "verify/", body={},
                     note="verifying %s" % resource.identity())]

    def perform(self, resource, action, send):
        return resource.verify(resource.applied, action.decision == "just created", send)

    def recover(self, resource, action):
        return resource.recover_verified(resource.applied)

    def absorb(self, resource, action, answer):
        return answer


VERIFY = Verify()


class Domain(Resource):
    """A domain of an organization; ``state`` is ``present``, ``verified`` or ``absent``."""

    kind = "domain"
    return_key = "domain"
    SCOPE = Scope("organization", "domains")
    list_option = "domains"
    item_options = ITEM_OPTIONS
    lookups = ("id", "domain")
    named_by = "domain or id"
    FIELDS = FIELDS
    clock = staticmethod(time.monotonic)
    sleep = staticmethod(time.sleep)

    @property
    def verifying(self):
        return self.params.get("state") == "verified"

    @property
    def steps(self):
        return (VERIFY, UPDATE) if self.verifying else (UPDATE,)

    @property
    def update_after_create(self):
        return self.verifying  # SSO settings go in once the new domain is verified

    # ------------------------------------------------------------ describing

    def identity(self):
        if self.params.get("domain") is not None:
            return "domain %r" % self.params["domain"]
        return super(Domain, self).identity()

    @staticmethod
    def validate_task(params):
        problems = []
        if params["verify_timeout"] < 0:
            problems.append("verify_timeout must be 0 or more seconds")
        if params["verify_interval"] < 1:
            problems.append("verify_interval must be at least 1 second")
        return problems

    def validate(self):
        """Normalises ``domain`` in place; the problems PostHog would refuse."""
        params = self.params
        problems = []
        if params.get("domain") is not None:
            params["domain"] = normalise_domain(params["domain"])
            problem = domain_problem(params["domain"])
            if problem:
                problems.append(problem)
        problems.extend(settings_problems(params))
        sso = params.get("sso_enforcement")
        if sso and sso not in SSO_PROVIDERS:
            self.task.warn("sso_enforcement %r is not a login method PostHog knows (%s); PostHog stores it, but "
                           "enforcement would not match any provider" % (sso, ", ".join(SSO_PROVIDERS)))
        return problems

    def shape(self, obj):
        return with_verification(obj)

    def view(self, obj, desired):
        view = super(Domain, self).view(obj, desired)
        if obj is not None and self.verifying:
            view["is_verified"] = bool(obj.get("is_verified"))
        return view

    # -------------------------------------------------------------- checking
    def guard(self, current):
        if self.params.get("state") == "absent":
            name = self.params.get("domain")
            if current is not None and self.params.get("id") and name is not None and current.get("domain") != name:
                raise Failure("%s: the domain with id %s is %r; refusing to delete it: fix the id or the domain"
                              % (self.identity(), self.params["id"], current.get("domain")))
            return
        self.check_saml_supported(current)
        if not self.verifying and (current is None or not current.get("is_verified")):
            base = current if current is not None else NEW_DOMAIN_DEFAULTS
            wanted = dict((k, v) for k, v in self.desired().items() if k in SSO_SETTINGS)
            pending = sorted(self.changes(base, wanted))
            if pending:
                self.fail_unverified_sso(current, pending)

    def fail_unverified_sso(self, current, pending):
        if current is None:
            how = ("run with state=verified: it creates the domain and returns the TXT record to publish; "
                   "publish it, then run again")
        else:
            record = verification_record(current)
            how = ("publish the DNS TXT record %s with the value %s, then run with state=verified (which "
                   "verifies the domain and then applies these settings)" % (record["name"], record["value"]))
        raise Failure("%s: %s can only be set once the domain is verified (PostHog refuses them until then); %s"
                      % (self.identity(), ", ".join(pending), how),
                      domain=self.shape(current) if current else {})

    def check_saml_supported(self, current):
        """Fail before any write when this PostHog has no SAML fields on its domains (judged from
        ``current``, or another domain of the organization when ``current`` is None)."""
        missing = unsupported_saml(current if current is not None else (self.seen[0] if self.seen else None),
                                   self.desired())
        if missing:
            extra = dict(domain=self.shape(current)) if current is not None else {}
            raise Failure("%s: this PostHog has no SAML settings on its domains (its domain API has no %s): %s. "
                          "Remove %s from the task and configure SAML there; %s. %s."
                          % (self.identity(), ", ".join(missing), SAML_MOVED, ", ".join(missing),
                             "the domain was left as it was" if current is not None else "it was not created",
                             saml_way_forward(self.params.get("domain"), self.desired())),
                          **extra)

    # --------------------------------------------------------------- writing
    def create_payload(self, desired):
        """``domain`` and the SAML fields: PostHog stores those on create and ignores the SSO ones."""
        return dict((k, v) for k, v in desired.items() if k not in SSO_SETTINGS)

    def predict_create(self, payload):
        """What a create would answer, for check mode (no id or challenge yet)."""
        obj = dict(NEW_DOMAIN_DEFAULTS, id=None, is_verified=False, verified_at=None, verification_challenge=None)
        obj.update(payload)
        obj["has_saml"] = all(obj.get(k) for k in SAML_SETTINGS)
        return obj

    def after_create(self, obj, payload):
        """Fail, naming what was created, when PostHog dropped the SAML fields of the create."""
        missing = unsupported_saml(obj, payload)
        if missing:
            raise Failure("Created %s, but without its SAML settings: this PostHog has no SAML settings on its "
                          "domains (its domain API has no %s): %s. Remove %s from the task and configure SAML "
                          "there. %s." % (self.identity(), ", ".join(missing), SAML_MOVED, ", ".join(missing),
                                          saml_way_forward(self.params.get("domain"), payload)))
        return obj

    # ------------------------------------------------------------- verifying
    def recover_verified(self, current):
        """After an ambiguous verify failure: the domain if it is verified now, else None (ask again).

        Asking PostHog to verify is safe to repeat (it only looks the record up again), so the
        client may retry the POST when this finds the domain still unverified.
        """
        obj = self.client.get_or_none(self.detail_path(current["id"]), context="reading %s" % self.identity())
        return obj if obj and obj.get("is_verified") else None

    def subject(self, created):
        """The subject of a verify failure: "domain 'x'", or "Created domain 'x'; it" right after creating it."""
        return "Created %s; it" % self.identity() if created else self.identity()

    def verify_once(self, current, created, send):
        try:
            return send()
        except PostHogError as exc:
            if exc.code == "already_verified":  # verified meanwhile (in the web app, or a parallel run)
                return self.client.get(self.detail_path(current["id"]), context="reading %s" % self.identity())
            if exc.refuses_api_keys:
                record = verification_record(current)
                exc.reword(
                    "%s is not verified, and PostHog does not let a personal API key verify a domain (%s: "
                    "%s). Only a logged-in admin can, in the PostHog web app (%s, Verify). Publish the DNS TXT "
                    "record %s with the value %s, have an admin press Verify, then run this task again: once "
                    "the domain is verified, state=verified and the SSO settings work with an API key."
                    % (self.subject(created), "POST %s answered HTTP 403" % exc.path, exc.detail, WEB_APP_PLACE,
                       record["name"], record["value"]))
                raise Failure.of(exc, domain=self.shape(current), verification=record)
            raise

    def verify(self, current, created, send):
        """Verify ``current``, retrying within verify_timeout; fail with the record when DNS lacks it."""
        # A domain created a moment ago has a fresh challenge that no DNS can hold yet: one attempt.
        timeout = 0 if created else self.params.get("verify_timeout") or 0
        interval = max(1, self.params.get("verify_interval") or 1)
        obj, attempts, seconds = wait_for_verification(lambda: self.verify_once(current, created, send), timeout,
                                                       interval, clock=self.clock, sleep=self.sleep)
        if not isinstance(obj, dict):
            raise Failure("%s: PostHog answered POST %sverify/ without the domain" % (
                self.identity(), self.detail_path(current["id"])))
        if obj.get("is_verified"):
            return obj
        record = verification_record(obj)
        if created:
            why = "it was just created, so its TXT record cannot be published yet"
        else:
            why = "PostHog did not find the record after %d attempt%s in %.0f s" % (
                attempts, "" if attempts == 1 else "s", seconds)
        raise Failure(
            "%s is not verified: %s. Publish the DNS TXT record %s with the value %s (with any DNS module), "
            "let it propagate, and run again with state=verified (raise verify_timeout to wait longer)."
            % (self.subject(created), why, record["name"], record["value"]),
            domain=self.shape(obj), verification=record)


def read_domains(task, params):
    """domain_info: the organization's domains (or one by id or name), each with its TXT record."""
    name = normalise_domain(params.get("domain"))
    domains = list_or_get(task, Domain.SCOPE.path(task, params), params.get("id"), what="domain",
                          filters=dict(domain=name))
    return dict(domains=[with_verification(d) for d in domains])


# ---------------------------------------------------------------------------------- exporting
def export_item(obj):
    fields = Domain.reader().export(obj)
    item = dict(domain=fields.pop("domain", None), state="verified" if obj.get("is_verified") else "present")
    item.update(fields)
    if not obj.get("is_verified"):  # PostHog refuses SSO settings until the domain is verified
        for key in SSO_SETTINGS:
            item.pop(key, None)
    return item


def export_items(ctx):
    """organization_state_info: the domains, each with a comment when its TXT record is still to publish."""
    domains = ctx.client.list_all(Domain.SCOPE.path(ctx.task, {}), context="listing domains")
    for obj in domains:
        record = verification_record(obj)
        if not obj.get("is_verified") and record.get("value"):
            ctx.comment("domains", obj.get("domain"), "not verified yet: publish the TXT record %s = %s, then set "
                                                      "state: verified" % (record["name"], record["value"]))
    return [export_item(d) for d in domains]


# ---------------------------------------------------------------------------------- the document
SECTION = Section(
    "domains", Domain, options_from(ARGUMENT_SPEC, ITEM_OPTIONS + ("verify_timeout", "verify_interval")), "domain",
    required_one_of=[("domain", "id")], export=export_items,
    outputs=dict(dns_records=lambda domains: [verification_record(d) for d in domains
                                              if not d.get("is_verified") and d.get("verification_challenge")]),
    guards=("change_sso",),
    comment="Domains and single sign-on (posthog.admin.domain). A domain to verify needs its DNS TXT record.")
