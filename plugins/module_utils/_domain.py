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
from ansible_collections.posthog.admin.plugins.module_utils._resource import Resource

DOMAIN_RE = re.compile(r"^([a-z0-9]+(-[a-z0-9]+)*\.)+[a-z]{2,}$")
DOMAIN_MAX_LENGTH = 128
CHALLENGE_PREFIX = "_posthog-challenge."
SSO_PROVIDERS = ("google-oauth2", "github", "gitlab", "saml")
SSO_ENFORCEMENT_MAX_LENGTH = 28
SAML_MAX_LENGTH = 512
SSO_SETTINGS = ("jit_provisioning_enabled", "sso_enforcement")
SAML_SETTINGS = ("saml_entity_id", "saml_acs_url", "saml_x509_cert")
SETTINGS = SSO_SETTINGS + SAML_SETTINGS
# What PostHog stores for a new domain (SSO settings are ignored on create).
NEW_DOMAIN_DEFAULTS = dict(jit_provisioning_enabled=False, sso_enforcement="", saml_entity_id=None,
                           saml_acs_url=None, saml_x509_cert=None)
WEB_APP_PLACE = "Settings > Organization > Authentication domains"
SAML_MOVED = ("newer PostHog keeps SAML in an identity provider configuration linked to the domain "
              "(identity_provider_config), which is set up in the web app (%s)" % WEB_APP_PLACE)


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


def is_api_key_refusal(error):
    """Whether PostHog refused the call because personal API keys may not make it."""
    return error.status == 403 and "personal api key access" in (error.detail or "").lower()


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


class Domain(Resource):
    """A domain of an organization; ``state`` is ``present``, ``verified`` or ``absent``.

    ``ph.params["domain"]`` must already be normalised (see :func:`normalise_domain`).
    """

    def __init__(self, ph, clock=time.monotonic, sleep=time.sleep):
        fields = SETTINGS + (("domain",) if ph.params.get("id") else ())
        super(Domain, self).__init__(ph, "domain", "domain", ph.org_path("domains"), fields,
                                     natural_key="domain", create_only=("domain",))
        self.clock = clock
        self.sleep = sleep
        self.sample = None  # a domain PostHog sent in the last look-up: shows which fields it has

    def list_candidates(self):
        found = list(super(Domain, self).list_candidates())
        self.sample = found[0] if found else None
        return found

    # ------------------------------------------------------------ describing
    def shape(self, obj):
        return with_verification(obj)

    def managed_view(self, obj, desired):
        view = super(Domain, self).managed_view(obj, desired)
        if obj is not None and self.params.get("state") == "verified":
            view["is_verified"] = bool(obj.get("is_verified"))
        return view

    def create_payload(self, desired):
        """``domain`` and the SAML fields: PostHog stores those on create and ignores the SSO ones."""
        payload = dict((k, v) for k, v in desired.items() if k in SAML_SETTINGS)
        payload["domain"] = self.params["domain"]
        return payload

    def planned(self, payload):
        """What a create would answer, for check mode (no id or challenge yet)."""
        obj = dict(NEW_DOMAIN_DEFAULTS, id=None, is_verified=False, verified_at=None, verification_challenge=None)
        obj.update(payload)
        obj["has_saml"] = all(obj.get(k) for k in SAML_SETTINGS)
        return obj

    def _create(self, desired):
        result = super(Domain, self)._create(desired)
        if self.ph.check_mode:  # the whole object as PostHog would answer, not just the payload
            result[self.return_key] = self.shape(self.planned(self.create_payload(desired)))
        return result

    # -------------------------------------------------------------- checking
    def pending_sso(self, current):
        """The SSO settings the user asks for that ``current`` (None: a new domain) does not have."""
        base = current if current is not None else NEW_DOMAIN_DEFAULTS
        desired = dict((k, v) for k, v in self.desired().items() if k in SSO_SETTINGS)
        return sorted(self.changes(base, desired))

    def fail_unverified_sso(self, current, pending):
        if current is None:
            how = ("run with state=verified: it creates the domain and returns the TXT record to publish; "
                   "publish it, then run again")
        else:
            record = verification_record(current)
            how = ("publish the DNS TXT record %s with the value %s, then run with state=verified (which "
                   "verifies the domain and then applies these settings)" % (record["name"], record["value"]))
        self.ph.fail("%s: %s can only be set once the domain is verified (PostHog refuses them until then); %s"
                     % (self.identity(), ", ".join(pending), how),
                     domain=self.shape(current) if current else {})

    def check_saml_supported(self, current):
        """Fail before any write when this PostHog has no SAML fields on its domains (judged from
        ``current``, or another domain of the organization when ``current`` is None)."""
        missing = unsupported_saml(current if current is not None else self.sample, self.desired())
        if missing:
            extra = dict(domain=self.shape(current)) if current is not None else {}
            self.ph.fail("%s: this PostHog has no SAML settings on its domains (its domain API has no %s): %s. "
                         "Remove %s from the task and configure SAML there; %s."
                         % (self.identity(), ", ".join(missing), SAML_MOVED, ", ".join(missing),
                            "the domain was left as it was" if current is not None else "it was not created"),
                         **extra)

    def create(self, payload):
        """Create the domain; fail, naming what was created, when PostHog dropped its SAML fields."""
        obj = super(Domain, self).create(payload)
        missing = unsupported_saml(obj, payload)
        if missing:
            self.ph.fail("Created %s, but without its SAML settings: this PostHog has no SAML settings on its "
                         "domains (its domain API has no %s): %s. Remove %s from the task and configure SAML "
                         "there." % (self.identity(), ", ".join(missing), SAML_MOVED, ", ".join(missing)),
                         domain=self.shape(obj), changed=True)
        return obj

    def check_frozen(self, changes):
        frozen = sorted(set(changes) & self.create_only)
        if frozen:
            self.ph.fail("%s: %s cannot be changed after creation (PostHog keeps the first value); "
                         "delete and recreate the object to change it" % (self.identity(), ", ".join(frozen)))

    # ------------------------------------------------------------- verifying
    def recover_verified(self, current):
        """After an ambiguous verify failure: the domain if it is verified now, else None (ask again).

        Asking PostHog to verify is safe to repeat (it only looks the record up again), so the
        client may retry the POST when this finds the domain still unverified.
        """
        obj = self.client.get_or_none(self.detail_path(current["id"]), context="reading %s" % self.identity())
        return obj if obj and obj.get("is_verified") else None

    def verify_once(self, current, created):
        path = self.detail_path(current["id"]) + "verify/"
        try:
            return self.client.post(path, {}, context="verifying %s" % self.identity(),
                                    recover=lambda: self.recover_verified(current))
        except PostHogError as exc:
            if exc.code == "already_verified":  # verified meanwhile (in the web app, or a parallel run)
                return self.client.get(self.detail_path(current["id"]), context="reading %s" % self.identity())
            if is_api_key_refusal(exc):
                record = verification_record(current)
                exc.message = (
                    "%s%s is not verified, and PostHog does not let a personal API key verify a domain (%s: "
                    "%s). Only a logged-in admin can, in the PostHog web app (%s, Verify). Publish the DNS TXT "
                    "record %s with the value %s, have an admin press Verify, then run this task again: once "
                    "the domain is verified, state=verified and the SSO settings work with an API key."
                    % ("Created %s; it " % self.identity() if created else "", self.identity(),
                       "POST %s answered HTTP 403" % exc.path, exc.detail, WEB_APP_PLACE,
                       record["name"], record["value"]))
                exc.args = (exc.message,)
                self.ph.fail(exc, domain=self.shape(current), verification=record, changed=created)
            raise

    def verify(self, current, created):
        """Verify ``current``, retrying within verify_timeout; fail with the record when DNS lacks it."""
        # A domain created a moment ago has a fresh challenge that no DNS can hold yet: one attempt.
        timeout = 0 if created else self.params.get("verify_timeout") or 0
        interval = max(1, self.params.get("verify_interval") or 1)
        obj, attempts, seconds = wait_for_verification(lambda: self.verify_once(current, created), timeout,
                                                       interval, clock=self.clock, sleep=self.sleep)
        if obj.get("is_verified"):
            return obj
        record = verification_record(obj)
        if created:
            why = "it was just created, so its TXT record cannot be published yet"
        else:
            why = "PostHog did not find the record after %d attempt%s in %.0f s" % (
                attempts, "" if attempts == 1 else "s", seconds)
        self.ph.fail(
            "%s%s is not verified: %s. Publish the DNS TXT record %s with the value %s (with any DNS module), "
            "let it propagate, and run again with state=verified (raise verify_timeout to wait longer)."
            % ("Created %s; it " % self.identity() if created else "", self.identity(), why,
               record["name"], record["value"]),
            domain=self.shape(obj), verification=record, changed=created)
        return None

    # ---------------------------------------------------------------- states
    def ensure_domain_present(self):
        current = self.find()
        self.check_saml_supported(current)
        pending = self.pending_sso(current) if current is None or not current.get("is_verified") else []
        if pending:
            self.fail_unverified_sso(current, pending)
        return self.ensure_present(current, found=True)

    def ensure_verified(self):
        current = self.find()
        self.check_saml_supported(current)
        desired = self.desired()
        before = self.managed_view(current, desired) if current is not None else {}
        changed = created = False
        if current is None:
            if self.params.get(self.id_option) is not None:
                self.ph.fail("%s not found; omit %s to create a new one" % (self.identity(), self.id_option))
            payload = self.create_payload(desired)
            current = self.planned(payload) if self.ph.check_mode else self.create(payload)
            changed = created = True
        self.check_frozen(self.changes(current, desired))
        if not current.get("is_verified"):
            changed = True
            if self.ph.check_mode:  # predicted: the verify call is what state=verified makes
                current = dict(current, is_verified=True)
            else:
                current = self.verify(current, created)
        changes = self.changes(current, desired)
        if changes:
            changed = True
            if self.ph.check_mode:
                current = dict(current, **changes)
            else:
                current = self.update(current, changes)
        result = dict(changed=changed)
        result[self.return_key] = self.shape(current)
        if self.ph.diff_mode and changed:
            result["diff"] = dict(before=before, after=self.managed_view(current, desired))
        return result

    def run(self):
        state = self.params.get("state", "present")
        if state == "absent":
            result = self.ensure_absent()
        elif state == "verified":
            result = self.ensure_verified()
        else:
            result = self.ensure_domain_present()
        self.ph.exit(**result)
