# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Private to the posthog.admin collection: not a public API, may change without notice.

"""AnsibleModule glue shared by every posthog.admin module.

The shared argument spec (with the environment variables PostHog's Terraform provider uses),
turning PostHogError into fail_json, membership levels by name, and resolving the
``organization`` option (UUID, slug, name or ``@current``) once per task.
"""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import re

from ansible.module_utils.basic import AnsibleModule, env_fallback, missing_required_lib

from ansible_collections.posthog.admin.plugins.module_utils._client import (
    DEFAULT_HOST,
    DEFAULT_RETRIES,
    DEFAULT_RETRY_MAX_DELAY,
    DEFAULT_TIMEOUT,
    HAS_REQUESTS,
    REQUESTS_IMPORT_ERROR,
    PostHogClient,
    PostHogError,
)

UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$")

# PostHog's OrganizationMembership.Level (posthog/models/organization.py)
LEVELS = {"member": 1, "admin": 8, "owner": 15}
LEVEL_NAMES = dict((number, name) for name, number in LEVELS.items())


def level_number(name):
    return LEVELS[name]


def level_name(number):
    """'member', 'admin' or 'owner' for 1, 8 or 15; the number as text for anything else."""
    if number is None:
        return None
    return LEVEL_NAMES.get(int(number), str(number))


def connection_argument_spec():
    return dict(
        host=dict(type="str", default=DEFAULT_HOST, fallback=(env_fallback, ["POSTHOG_HOST"])),
        api_key=dict(type="str", required=True, no_log=True, fallback=(env_fallback, ["POSTHOG_API_KEY"])),
        validate_certs=dict(type="bool", default=True, fallback=(env_fallback, ["POSTHOG_VALIDATE_CERTS"])),
        ca_path=dict(type="path", fallback=(env_fallback, ["POSTHOG_CA_PATH"])),
        timeout=dict(type="float", default=DEFAULT_TIMEOUT, fallback=(env_fallback, ["POSTHOG_TIMEOUT"])),
        retries=dict(type="int", default=DEFAULT_RETRIES, fallback=(env_fallback, ["POSTHOG_RETRIES"])),
        retry_max_delay=dict(type="float", default=DEFAULT_RETRY_MAX_DELAY,
                             fallback=(env_fallback, ["POSTHOG_RETRY_MAX_DELAY"])),
    )


def organization_argument_spec():
    return dict(
        organization=dict(type="str", default="@current", fallback=(env_fallback, ["POSTHOG_ORGANIZATION_ID"])),
    )


def project_argument_spec():
    return dict(
        project_id=dict(type="str", default="@current", fallback=(env_fallback, ["POSTHOG_PROJECT_ID"])),
    )


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


def resolve_organization(client, value):
    """The id to put in ``/api/organizations/<id>/...`` for a UUID, slug, name or ``@current``.

    A UUID and ``@current`` cost no request: PostHog takes both in the path. A slug or name costs
    one list request (slugs are unique; a name shared by several organizations fails).
    """
    value = (value or "@current").strip()
    if value == "@current" or UUID_RE.match(value):
        return value
    organizations = client.list_all("/api/organizations/", context="looking up organization %r" % value)
    by_slug = [o for o in organizations if o.get("slug") == value]
    if by_slug:
        return by_slug[0]["id"]
    by_name = [o for o in organizations if o.get("name") == value]
    if len(by_name) == 1:
        return by_name[0]["id"]
    if len(by_name) > 1:
        raise PostHogError(
            "organization %r is ambiguous: %d organizations have that name (%s); give its id or slug instead"
            % (value, len(by_name), ", ".join("%s (slug %s)" % (o["id"], o.get("slug")) for o in by_name)))
    raise PostHogError(
        "organization %r not found: none of the %d organizations this API key can see has that slug or name"
        % (value, len(organizations)))


class PostHogModule:
    """An AnsibleModule with a PostHog client and the shared options."""

    def __init__(self, argument_spec=None, organization=False, project=False, **kwargs):
        spec = connection_argument_spec()
        if organization:
            spec.update(organization_argument_spec())
        if project:
            spec.update(project_argument_spec())
        spec.update(argument_spec or {})
        self.module = AnsibleModule(argument_spec=spec, **kwargs)
        self.params = self.module.params
        self.check_mode = self.module.check_mode
        self.diff_mode = self.module._diff
        if not HAS_REQUESTS:
            self.module.fail_json(msg=missing_required_lib("requests"), exception=REQUESTS_IMPORT_ERROR)
        try:
            self.client = client_from_params(self.params)
            self.client.add_secrets(self.module.no_log_values)
        except PostHogError as exc:
            self.fail(exc)
        self._organization_id = None

    # -------------------------------------------------------------- failures
    def fail(self, error, **extra):
        """Fail the task; a PostHogError also returns its fields as ``error``."""
        if isinstance(error, PostHogError):
            extra.setdefault("error", error.to_dict())
            self.module.fail_json(msg=error.message, **extra)
        self.module.fail_json(msg=str(error), **extra)

    def exit(self, **result):
        if self.client is not None and self.client.retry_log:
            for line in self.client.retry_log:
                self.module.warn("Retried: %s" % line)
        self.module.exit_json(**result)

    # ---------------------------------------------------------- organization
    @property
    def organization_id(self):
        if self._organization_id is None:
            self._organization_id = resolve_organization(self.client, self.params.get("organization"))
        return self._organization_id

    def org_path(self, *parts):
        """``/api/organizations/<org>/<parts...>/``"""
        tail = "/".join(str(p).strip("/") for p in parts if p not in (None, ""))
        return "/api/organizations/%s/%s" % (self.organization_id, tail + "/" if tail else "")

    @property
    def project_id(self):
        value = str(self.params.get("project_id") or "@current").strip()
        if value != "@current" and not value.isdigit():
            self.fail("project_id must be a project's numeric id or '@current', got %r" % value)
        return value

    def run(self, main):
        """Call ``main(self)`` and turn any PostHogError into a failed task."""
        try:
            main(self)
        except PostHogError as exc:
            self.fail(exc)
