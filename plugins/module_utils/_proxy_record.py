# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""Managed reverse proxies of an organization: the Resource behind posthog.admin.proxy_record, and
proxy_record_info's read.

PostHog's rules (``posthog/api/proxy_record.py`` and the ``create-proxy`` workflow of
``posthog/temporal/proxy_service/``):

* a proxy record is a domain of yours that PostHog serves its ingestion on, once a CNAME from it
  points at the record's ``target_cname`` (which PostHog derives from the organization and domain);
* PostHog's workflow moves ``status`` on by itself: ``waiting`` for the CNAME (up to 7 days, then
  ``timed_out``), ``issuing`` the certificate, ``valid``; or ``erroring`` with a ``message``;
* a record cannot be changed; deleting one that is live marks it ``deleting`` until the workflow
  has removed it; the list is not paginated (``{"results", "max_proxy_records"}``), and an
  organization may hold few records (2 unless its plan says more).
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import re
import time

from ansible_collections.posthog.admin.plugins.module_utils._common import list_or_get
from ansible_collections.posthog.admin.plugins.module_utils._resource import Failure, Field, Resource, Scope, Step
from ansible_collections.posthog.admin.plugins.module_utils._resource import options_of
from ansible_collections.posthog.admin.plugins.module_utils._section import Section, options_from

DOMAIN_MAX_LENGTH = 64
HOST_RE = re.compile(r"^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]*[a-z0-9])?$")
DONE, FAILED, DELETING = ("valid", "warning"), ("erroring", "timed_out"), "deleting"


def normalise_domain(value):
    return None if value is None else value.strip().rstrip(".").lower()


#: A record's one field: its domain, the host PostHog serves on (compared as a host name: trimmed, lower
#: case, no final dot). PostHog keeps it from creation: a record is created, waited for, or deleted.
FIELDS = (Field("domain", from_api=normalise_domain, frozen=True),)

ARGUMENT_SPEC = dict(state=dict(type="str", default="present", choices=["present", "absent"]))
ARGUMENT_SPEC.update(options_of(FIELDS))
ARGUMENT_SPEC.update(
    id=dict(type="str"),
    wait=dict(type="bool", default=False),
    wait_timeout=dict(type="int", default=300),
    wait_interval=dict(type="int", default=10),
)

INFO_ARGUMENT_SPEC = dict(domain=dict(type="str"), id=dict(type="str"))

MSG_LIMIT = ("The organization holds as many proxy records as its plan allows (2 unless the plan's "
             "managed_reverse_proxy feature says more): delete one first, or upgrade the plan.")


def domain_problem(value):
    if not value:
        return "domain must not be empty"
    if "://" in value or "/" in value or "@" in value or ":" in value:
        return ("domain %r is not a host name: give only the host, such as e.example.com (no scheme, path, port or "
                "user)" % value)
    if len(value) > DOMAIN_MAX_LENGTH:
        return "domain is %d characters long; PostHog accepts at most %d" % (len(value), DOMAIN_MAX_LENGTH)
    if not HOST_RE.match(value):
        return ("domain %r is not a host name such as e.example.com: labels of letters, digits and inner hyphens, "
                "separated by dots" % value)
    return None


def dns_record(obj):
    """The CNAME to publish for ``obj``: its domain pointing at its target (value None before it exists)."""
    return dict(record_type="CNAME", name=(obj or {}).get("domain"), value=(obj or {}).get("target_cname"))


def with_dns_record(obj):
    if not obj:
        return obj
    shaped = copy.deepcopy(obj)
    shaped["dns_record"] = dns_record(obj)
    return shaped


def wait_for_status(read, timeout, interval, clock=time.monotonic, sleep=time.sleep):
    """Call ``read()`` (one GET of the record) until its status is done (``valid``/``warning``) or
    failed (``erroring``/``timed_out``), or ``timeout`` seconds have passed; sleep ``interval``
    between reads. Returns ``(record, reads, seconds)``; the first read is immediate and no sleep
    ends past the deadline."""
    started = clock()
    reads = 0
    while True:
        obj = read()
        reads += 1
        elapsed = clock() - started
        if obj is None or obj.get("status") in DONE + FAILED or elapsed + interval > timeout:
            return obj, reads, elapsed
        sleep(interval)


class Wait(Step):
    """``wait``: read the record until PostHog's workflow made it ``valid`` (bounded by
    ``wait_timeout``); fail with PostHog's status and message otherwise. Only watches: it never
    makes the task changed."""

    action = "waited"
    changes = False

    def plan(self, resource, result):
        return resource.params["wait"] and result.obj.get("status") not in DONE

    def predict(self, resource, result, plan):
        return dict(result.obj, status="valid")

    def requests(self, resource, result, plan):
        return [dict(method="GET", path=resource.path_of(result.obj), note="waiting for %s" % resource.identity())]

    def perform(self, resource, action, send):
        return resource.wait(resource.applied)

    def absorb(self, resource, action, answer):
        return answer


WAIT = Wait()


class ProxyRecord(Resource):
    """A managed reverse proxy of the organization, by domain or id. Nothing of it can be changed:
    a record is created, waited for, or deleted."""

    kind = "proxy record"
    return_key = "proxy_record"
    SCOPE = Scope("organization", "proxy_records")
    leaving = ("status", DELETING)  # PostHog is removing it: the domain can have a new one once it is gone
    lookups = ("id", "domain")
    named_by = "domain or id"
    FIELDS = FIELDS
    steps = (WAIT,)
    clock = staticmethod(time.monotonic)
    sleep = staticmethod(time.sleep)

    def identity(self):
        if self.params.get("domain") is not None:
            return "proxy record %r" % self.params["domain"]
        return super(ProxyRecord, self).identity()

    @staticmethod
    def validate_task(params):
        problems = []
        if params["wait_timeout"] < 0:
            problems.append("wait_timeout must be 0 or more seconds")
        if params["wait_interval"] < 1:
            problems.append("wait_interval must be at least 1 second")
        return problems

    def validate(self):
        if self.params.get("domain") is None:
            return []
        self.params["domain"] = normalise_domain(self.params["domain"])
        problem = domain_problem(self.params["domain"])
        return [problem] if problem else []

    # ------------------------------------------------------------- comparing
    def view(self, obj, desired):
        view = super(ProxyRecord, self).view(obj, desired)
        if obj:
            view["status"] = obj.get("status")
        return view

    def shape(self, obj):
        return with_dns_record(obj)

    def missing(self):
        if self.departing is not None:
            return ("%s is still being deleted by PostHog (status deleting), and a domain can only have one record; run "
                    "this again once PostHog has removed it" % self.identity())
        return super(ProxyRecord, self).missing()

    # --------------------------------------------------------------- writing
    def predict_create(self, payload):
        return dict(id=None, domain=payload["domain"], target_cname=None, status="waiting", message=None)

    def explain(self, error):
        if error.status == 400 and "proxy records per organization" in (error.detail or ""):
            return error.append(MSG_LIMIT)
        return error

    # --------------------------------------------------------------- waiting
    def wait(self, obj):
        path = self.detail_path(obj["id"])
        obj, reads, seconds = wait_for_status(
            lambda: self.client.get_or_none(path, context="waiting for %s" % self.identity()),
            self.params["wait_timeout"], self.params["wait_interval"], clock=self.clock, sleep=self.sleep)
        if obj is None:
            raise Failure("%s disappeared while the task waited for it (deleted elsewhere?)" % self.identity())
        status, message = obj.get("status"), obj.get("message")
        said = " PostHog says: %s%s" % (message, "" if message.rstrip().endswith(".") else ".") if message else ""
        if status == "warning":
            self.task.warn("%s is live with a warning.%s" % (self.identity(), said))
            return obj
        if status in DONE:
            return obj
        record = dns_record(obj)
        if status in FAILED:
            raise Failure("%s is %s.%s Retry it in PostHog's web app (Settings > Environment > Managed reverse "
                          "proxy), or delete it and create it again." % (self.identity(), status, said),
                          proxy_record=self.shape(obj), dns_record=record)
        raise Failure("%s is still %s after %d seconds (%d reads).%s PostHog is %s: check that the CNAME record %s "
                      "points at %s, then run again (or raise wait_timeout)."
                      % (self.identity(), status, int(seconds), reads, said,
                         "waiting for the CNAME" if status == "waiting" else "issuing its certificate",
                         record["name"], record["value"]),
                      proxy_record=self.shape(obj), dns_record=record)


def read_proxy_records(task, params):
    """proxy_record_info: the organization's proxy records (newest first), or one by id or domain,
    each with its ``dns_record``."""
    records = list_or_get(task, ProxyRecord.SCOPE.path(task, params), params.get("id"), what="proxy record")
    domain = normalise_domain(params.get("domain"))
    if domain is not None:
        records = [r for r in records if normalise_domain(r.get("domain")) == domain]
    return dict(proxy_records=[with_dns_record(r) for r in records])


# ---------------------------------------------------------------------------------- exporting
def export_items(ctx):
    """organization_state_info: the proxy records (not those being deleted), each not live yet with a
    comment naming its CNAME record; None where PostHog refuses the list."""
    path = ProxyRecord.SCOPE.path(ctx.task, {})
    proxies = ctx.quietly("proxy records", lambda: ctx.client.list_all(path, context="listing proxy records"))
    if proxies is None:
        return None
    for obj in proxies:
        if isinstance(obj, dict) and obj.get("status") not in DONE + (DELETING,):
            record = dns_record(obj)
            ctx.comment("proxy_records", obj.get("domain"), "not live yet (%s): publish the CNAME record %s -> %s" % (
                obj.get("status"), record.get("name"), record.get("value")))
    reader = ProxyRecord.reader()
    return [reader.export(p) for p in proxies if isinstance(p, dict) and p.get("status") != DELETING]


# ---------------------------------------------------------------------------------- the document
SECTION = Section(
    "proxy_records", ProxyRecord, options_from(ARGUMENT_SPEC, tuple(ARGUMENT_SPEC)), "proxy record",
    required_one_of=[("domain", "id")], export=export_items,
    outputs=dict(cname_records=lambda records: [dns_record(p) for p in records
                                                if p.get("status") not in DONE and p.get("target_cname")]),
    comment="Managed reverse proxies (posthog.admin.proxy_record); each needs its CNAME record published.")
