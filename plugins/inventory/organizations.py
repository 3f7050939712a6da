# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import absolute_import, division, print_function

__metaclass__ = type

DOCUMENTATION = r"""
name: organizations
short_description: PostHog organizations as inventory hosts
version_added: 0.1.0
description:
  - Makes one host per PostHog organization the API key's user belongs to, so a play can loop
    over organizations with C(hosts:) and per-organization variables.
  - Host variables are prefixed C(posthog_). Every string that comes from the API is marked unsafe,
    so an organization named C({{ lookup('pipe', 'id') }}) stays text and is never templated.
  - The configuration file must end in C(posthog.yml) or C(posthog.yaml).
author:
  - posthog.admin contributors (@posthog-admin)
extends_documentation_fragment:
  - constructed
  - inventory_cache
  - posthog.admin.posthog.plugins
options:
  plugin:
    description: Marks this file as a configuration of this plugin.
    type: str
    required: true
    choices: [posthog.admin.organizations]
  hostname:
    description:
      - Which field names the host.
      - V(slug) is short and unique; V(id) never changes; V(name) reads best but two organizations
        may share it, and then the later one is skipped with a warning.
      - Whichever field, the host name is made safe for every use ansible-core makes of it (the fact
        cache's file names, C(host_vars/) files, C(--limit) patterns) - every character but ASCII letters,
        digits, C(_), C(.) and C(-) becomes C(_), as does a leading C(.) or C(-), and a name longer than
        120 characters is cut and ends in a hash of the whole. An organization named C(../../x) is the host
        C(___.._x) and its C(posthog_name) stays C(../../x).
    type: str
    choices: [slug, id, name]
    default: slug
  group:
    description: A group every organization host joins.
    type: str
    default: posthog_organizations
  page_size:
    description: How many organizations to ask for per request.
    type: int
    default: 500
notes:
  - Needs the scope C(organization:read).
  - The cache stores the API's answer, not the built inventory, and is not rewritten when the
    inventory was served from it.
"""

EXAMPLES = r"""
# File: inventory/posthog.yml
plugin: posthog.admin.organizations
# host and api_key come from POSTHOG_HOST and POSTHOG_API_KEY when not set here.
keyed_groups:
  - key: posthog_membership_level
    prefix: level
groups:
  enforces_2fa: posthog_enforce_2fa | default(false)

---
# File: inventory/group_vars/posthog_organizations.yml (host variables, not an inventory source).
# The hosts are organizations, not machines: their tasks run on the controller, in the Python that
# runs Ansible (it has requests). Without the interpreter line, interpreter discovery takes the first
# python3.x on PATH (a pyenv shim, a Python without requests) and every task fails. Setting it in
# compose does not work: compose is evaluated before a play sets ansible_playbook_python.
ansible_connection: local
ansible_python_interpreter: "{{ ansible_playbook_python }}"

---
# File: organizations.yml, a play over every organization (the same settings, in the play)
- name: The same policy in every organization
  hosts: posthog_organizations
  connection: local
  gather_facts: false
  vars:
    ansible_python_interpreter: "{{ ansible_playbook_python }}"
  module_defaults:
    group/posthog.admin.posthog:
      organization: "{{ posthog_id }}"
  tasks:
    - name: Members of this organization
      posthog.admin.member_info:
      register: members

---
# File: inventory/emulator.posthog.yml, against the local emulator, with caching
plugin: posthog.admin.organizations
host: http://127.0.0.1:8010
hostname: id
cache: true
cache_plugin: ansible.builtin.jsonfile
cache_connection: /tmp/posthog-inventory-cache
cache_timeout: 300
"""

import hashlib
import re

from ansible.errors import AnsibleError, AnsibleParserError
from ansible.plugins.inventory import BaseInventoryPlugin, Cacheable, Constructable

from ansible_collections.posthog.admin.plugins.module_utils._client import (
    HAS_REQUESTS,
    PostHogError,
)
from ansible_collections.posthog.admin.plugins.module_utils._common import client_from_params
from ansible_collections.posthog.admin.plugins.module_utils._people import level_name

try:
    from ansible.template import trust_as_template
except ImportError:  # ansible-core < 2.19 templates plain strings
    trust_as_template = None

try:
    from ansible.utils.unsafe_proxy import wrap_var as _wrap_var
except ImportError:  # pragma: no cover - removed in some future ansible-core
    _wrap_var = None


def make_unsafe(value):
    """Mark API data so it is never templated.

    ansible-core 2.19 and later never template a string that was not explicitly trusted, and
    wrapping there would leak ``__ansible_unsafe`` markers into ``ansible-inventory --list``;
    older cores template plain strings, so there the data is wrapped.
    """
    if trust_as_template is not None or _wrap_var is None:
        return value
    return _wrap_var(value)


OPTIONS = ("host", "api_key", "validate_certs", "ca_path", "timeout", "retries", "retry_max_delay")

MAX_HOSTNAME = 120
_NOT_SAFE = re.compile(r"[^A-Za-z0-9_.-]")
_LEADING = re.compile(r"^[.-]+")


def safe_hostname(value):
    """A host name for ``value`` (a server's slug, id or name) that ansible-core can use anywhere: as a file
    name (the jsonfile fact cache joins it to its directory; ``host_vars/``), in a pattern, on a command
    line. ASCII letters, digits, ``_``, ``.`` and ``-`` only, never starting with ``.`` or ``-`` (so never
    ``..``, a hidden file or an option), at most :data:`MAX_HOSTNAME` characters (a longer one ends in a
    hash of the whole, so that two long names stay two hosts)."""
    text = value if isinstance(value, str) else str(value)
    name = _LEADING.sub(lambda match: "_" * len(match.group()), _NOT_SAFE.sub("_", text))
    if len(name) > MAX_HOSTNAME:
        digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
        name = "%s_%s" % (name[:MAX_HOSTNAME - 17], digest)
    return name


class InventoryModule(BaseInventoryPlugin, Constructable, Cacheable):
    NAME = "posthog.admin.organizations"

    def verify_file(self, path):
        return super(InventoryModule, self).verify_file(path) and path.endswith(("posthog.yml", "posthog.yaml"))

    def _templated(self, name):
        value = self.get_option(name)
        if isinstance(value, str) and "{{" in value and self.templar is not None:
            if trust_as_template is not None:
                value = trust_as_template(value)
            value = self.templar.template(value)
        return value

    def _fetch(self):
        settings = dict((name, self._templated(name)) for name in OPTIONS)
        try:
            client = client_from_params(settings)
            for note in client.notes:
                self.display.warning("posthog.admin.organizations: %s" % note)
            return client.list_all("/api/organizations/", page_size=self.get_option("page_size"),
                                   context="listing organizations for the inventory")
        except PostHogError as exc:
            raise AnsibleError("posthog.admin.organizations: %s" % exc)

    def parse(self, inventory, loader, path, cache=True):
        super(InventoryModule, self).parse(inventory, loader, path, cache)
        self._read_config_data(path)
        if not HAS_REQUESTS:
            raise AnsibleParserError("posthog.admin.organizations needs the Python library 'requests'")

        cache_key = self.get_cache_key(path)
        use_cache = self.get_option("cache") and cache
        update_cache = self.get_option("cache") and not cache
        organizations = None
        if use_cache:
            try:
                organizations = self._cache[cache_key]
            except KeyError:
                update_cache = True
        if organizations is None:
            organizations = self._fetch()
        if update_cache:
            self._cache[cache_key] = organizations
        self._populate(organizations)

    def _populate(self, organizations):
        inventory = self.inventory
        group = inventory.add_group(self.get_option("group"))
        hostname_key = self.get_option("hostname")
        strict = self.get_option("strict")
        # The constructed features template per host; each helper is a no-op when its option is
        # empty, so they are only called when set (the lookups are hoisted out of the loop).
        compose = self.get_option("compose")
        groups = self.get_option("groups")
        keyed_groups = self.get_option("keyed_groups")
        add_host = inventory.add_host
        set_variable = inventory.set_variable
        hostvars_of = self.hostvars
        seen = set()
        for org in organizations:
            if not isinstance(org, dict) or not org.get(hostname_key):
                continue
            hostname = safe_hostname(org.get(hostname_key))
            if hostname in seen:
                self.display.warning("posthog.admin.organizations: two organizations have the host name %r (their "
                                     "%s); keeping the first, set hostname to slug or id" % (hostname, hostname_key))
                continue
            seen.add(hostname)
            add_host(hostname, group=group)
            hostvars = hostvars_of(org)
            for key, value in hostvars.items():
                set_variable(hostname, key, value)
            if compose:
                self._set_composite_vars(compose, hostvars, hostname, strict=strict)
            if groups:
                self._add_host_to_composed_groups(groups, hostvars, hostname, strict=strict)
            if keyed_groups:
                self._add_host_to_keyed_groups(keyed_groups, hostvars, hostname, strict=strict)

    @staticmethod
    def hostvars(org):
        level = org.get("membership_level")
        try:
            level_text = level_name(level)
        except (TypeError, ValueError):  # not a number: show what the server sent
            level_text = str(level)
        listed = org.get("projects") or org.get("teams") or []
        projects = [dict(id=p.get("id"), name=p.get("name")) for p in (listed if isinstance(listed, list) else [])
                    if isinstance(p, dict)]
        member_count = org.get("member_count")
        try:
            member_count = int(member_count) if member_count is not None else None
        except (TypeError, ValueError):
            pass
        values = {
            "posthog_id": org.get("id"),
            "posthog_name": org.get("name"),
            "posthog_slug": org.get("slug"),
            "posthog_membership_level": level_text,
            "posthog_membership_level_number": level,
            "posthog_member_count": member_count,
            "posthog_projects": projects,
            "posthog_enforce_2fa": org.get("enforce_2fa"),
            "posthog_plugins_access_level": org.get("plugins_access_level"),
            "posthog_created_at": org.get("created_at"),
        }
        return make_unsafe(values)
