# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""What every kind needs of the task it runs in, without AnsibleModule: the :class:`Task` (client, check and
diff mode, the ``organization`` resolved once per task, the project), the client built from the shared
connection options, how an organization and a project are named (:data:`UUID_RE`,
:func:`resolve_organization`, :func:`project_id_of`) and an info module's read (:func:`list_or_get`).

Kind files (``_<kind>.py``), the engine and the plugins import these from here; only ``_module.py`` (the
AnsibleModule glue) and the modules' ``main()`` deal with AnsibleModule.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import copy
import re

from ansible_collections.posthog.admin.plugins.module_utils._base import unknown
from ansible_collections.posthog.admin.plugins.module_utils._client import PostHogClient
from ansible_collections.posthog.admin.plugins.module_utils._base import Failure

UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$")


def client_from_params(params, on_retry=None):
    """A PostHogClient built from the shared connection options (modules and plugins alike)."""
    return PostHogClient(
        host=params.get("host"),
        api_key=params.get("api_key"),
        validate_certs=params.get("validate_certs", True),
        ca_path=params.get("ca_path"),
        timeout=params.get("timeout"),
        retries=params.get("retries"),
        retry_max_delay=params.get("retry_max_delay"),
        on_retry=on_retry,
    )


#: How a person names an organization in the ``organization`` option besides its UUID: a unique field
#: (PostHog keeps slugs unique), then one organizations may share (a name shared by several fails).
ORGANIZATION_NAMES = ("slug", "name")


def resolve_organization(client, value):
    """The id to put in ``/api/organizations/<id>/...`` for a UUID, slug, name or ``@current``.

    A UUID and ``@current`` cost no request: PostHog takes both in the path. A slug or name costs
    one list request (slugs are unique; a name shared by several organizations fails).
    """
    value = (value or "@current").strip()
    if value == "@current" or UUID_RE.match(value):
        return value
    organizations = client.list_all("/api/organizations/", context="looking up organization %r" % value)
    unique, shared = ORGANIZATION_NAMES
    by_slug = [o for o in organizations if o.get(unique) == value]
    if by_slug:
        return by_slug[0]["id"]
    by_name = [o for o in organizations if o.get(shared) == value]
    if len(by_name) == 1:
        return by_name[0]["id"]
    if len(by_name) > 1:
        raise Failure(
            "organization %r is ambiguous: %d organizations have that name (%s); give its id or slug instead"
            % (value, len(by_name), ", ".join("%s (slug %s)" % (o["id"], o.get("slug")) for o in by_name)))
    raise OrganizationNotFound(
        "organization %r not found: none of the %d organizations this API key can see has that slug or name"
        % (value, len(organizations)))


class OrganizationNotFound(Failure):
    """The ``organization`` option names no organization the key can see."""


class Task:
    """What a resource needs of the task running it: the client, check and diff mode, warnings,
    the organization (resolved once) and the project, and a cache the items of a list share."""

    def __init__(self, client, params, check_mode=False, diff_mode=False):
        self.client = client
        self.params = params
        self.check_mode = check_mode
        self.diff_mode = diff_mode
        self.warnings = []
        self.deprecations = []
        self.cache = {}
        self._organization_id = None
        self.missing_parent = None  # check mode: what does not exist yet (an earlier task would create it)
        self.secrets = set()
        self.listing = None  # organization_state: the Listing every section's items share (collections by path)
        self.planning = False  # organization_state's plan of a real run: check mode that assumes no earlier task
        self.plan = None  # the Plan the task's objects plan in (paths resolve its unknowns once answered)

    @property
    def assumes_earlier_tasks(self):
        """Check mode, where an earlier task of the play may create what is missing (then warned, not
        failed); not while organization_state plans a real run, whose own earlier parts it has followed."""
        return self.check_mode and not self.planning

    def scoped(self, **params):
        """The same task (client, mode, organization, warnings, listing) with some params changed: an
        item of organization_state that lives in another project than the document's."""
        other = copy.copy(self)
        other.params = dict(self.params, **params)
        return other

    def known(self, path):
        """The objects of the collection at ``path`` as this run keeps them (read and converged by
        an earlier section), or None when the run has not read it."""
        return self.listing.collection(path) if self.listing is not None else None

    def add_secrets(self, values):
        """Secrets found inside an option (a document): masked by the client and in the module's output."""
        values = set(v for v in values if v)
        self.secrets.update(values)
        self.client.add_secrets(values)

    def warn(self, message):
        if message not in self.warnings:
            self.warnings.append(message)

    def deprecate(self, message, version):
        """A deprecation Ansible shows (and returns under ``deprecations``), once per task."""
        if (message, version) not in self.deprecations:
            self.deprecations.append((message, version))

    @property
    def organization_id(self):
        if self._organization_id is None:
            try:
                self._organization_id = resolve_organization(self.client, self.params.get("organization"))
            except OrganizationNotFound:
                if not self.check_mode:
                    raise
                # In check mode an earlier task of the play may be about to create it: predict as if
                # it existed, empty, and say so (a real run fails here if it still does not exist).
                self.missing_parent = "organization %r" % self.params.get("organization")
                self.warn("%s does not exist yet; check mode assumes an earlier task creates it, so everything "
                          "in it would be created (a real run fails if it still does not exist)"
                          % self.missing_parent)
                self._organization_id = self.params.get("organization")
        return self._organization_id

    def org_path(self, *parts):
        """``/api/organizations/<org>/<parts...>/``"""
        tail = "/".join(str(p).strip("/") for p in parts if p not in (None, ""))
        return self.known_path("/api/organizations/%s/%s" % (self.organization_id, tail + "/" if tail else ""))

    def known_path(self, path):
        """``path`` as it is known now: the unknowns of the plan this task plans in (the id of an organization
        it creates) replaced once the plan has applied the action that answers them."""
        return self.plan.known_path(path) if self.plan is not None else path

    @property
    def project_id(self):
        return project_id_of(self.params)


def project_id_of(params):
    """The project of ``params``: a numeric id or ``@current``; a Failure for anything else."""
    value = str(params.get("project_id") or "@current").strip()
    if value != "@current" and not value.isdigit() and not unknown(value):  # a project the plan creates
        raise Failure("project_id must be a project's numeric id or '@current', got %r" % value)
    return value


def list_or_get(task, path, obj_id=None, params=None, what="objects", filters=None):
    """An info module's read: the object ``obj_id`` (one GET; empty when PostHog answers 404) or
    every object of the list at ``path`` (with the list ``params``), then only those whose fields
    equal ``filters`` (None values ignored)."""
    if task.missing_parent:
        return []  # check mode: the parent would be created by an earlier task
    if obj_id is not None and str(obj_id).strip() != "":
        found = task.client.get_or_none("%s%s/" % (path, str(obj_id).strip()), context="reading %s %s" % (what, obj_id))
        objects = [found] if found else []
    else:
        objects = task.client.list_all(path, params=params, context="listing %ss" % what)
    for key, value in (filters or {}).items():
        if value is not None:
            objects = [o for o in objects if o.get(key) == value]
    return objects
