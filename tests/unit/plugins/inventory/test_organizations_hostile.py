# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The organizations inventory plugin against a hostile or broken server and a bad API key: it fails
with the client's clear message, never shows the key, and never sends it anywhere else."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import re
import subprocess
import sys

import pytest

from ansible_collections.posthog.admin.plugins.inventory.organizations import InventoryModule
from ansible_collections.posthog.admin.tests.unit.plugins.inventory.test_organizations import (
    KEY,
    PRELUDE,
    collections_root,
    run_child,
)

# Runs in a child process (PRELUDE: ansible-core's own collection loader); prints the hosts, or the class
# and text of what the plugin raised.
PARSE = PRELUDE + r"""
from ansible.inventory.data import InventoryData
from ansible.plugins.loader import inventory_loader
plugin = inventory_loader.get("posthog.admin.organizations")
inventory = InventoryData()
try:
    plugin.parse(inventory, DataLoader(), sys.argv[1], cache=False)
    print(json.dumps({"hosts": sorted(inventory.hosts)}))
except Exception as exc:
    print(json.dumps({"error": type(exc).__name__, "message": str(exc)}))
"""


def parse(server, tmp_path, api_key_yaml=None, extra=""):
    key = api_key_yaml if api_key_yaml is not None else "api_key: %s\n" % KEY
    result, done = run_child(PARSE, tmp_path, "plugin: posthog.admin.organizations\nhost: %s\nretries: 0\n%s%s"
                             % (server.url, key, extra))
    assert KEY not in done.stdout + done.stderr
    return result


def test_api_key_from_a_block_scalar_fails_and_is_never_shown(server, tmp_path):
    result = parse(server, tmp_path, api_key_yaml="api_key: |\n  %s\n" % KEY)
    assert result["error"] == "AnsibleError"
    assert result["message"].startswith("posthog.admin.organizations: api_key contains whitespace or control "
                                        "characters (it ends with a newline); ")
    assert server.requests == []


def test_backslash_next_link_is_refused_and_the_other_host_gets_nothing(server, other_server, tmp_path):
    other_port = int(other_server.url.rsplit(":", 1)[1])
    port = int(server.url.rsplit(":", 1)[1])
    server.script((200, {"count": 2, "next": "http://127.0.0.1:%d\\@127.0.0.1:%d/api/organizations/?offset=1"
                         % (other_port, port), "results": [{"id": "o1", "slug": "o1"}]}))
    result = parse(server, tmp_path)
    assert result["error"] == "AnsibleError"
    assert result["message"] == (
        "posthog.admin.organizations: listing organizations for the inventory: Refusing to follow a pagination "
        "link that holds a backslash (HTTP libraries disagree on which host such a link names); the API key is "
        "only ever sent to %s" % server.url)
    assert other_server.requests == []


def test_repeating_next_link_fails(server, tmp_path):
    server.script(*[(200, {"count": 9, "next": server.url + "/api/organizations/?limit=500",
                           "results": [{"id": "o1", "slug": "o1"}]})] * 3)
    result = parse(server, tmp_path)
    assert "pagination did not end: page 2 repeats page 1" in result["message"]
    assert len(server.requests) == 1


def test_results_that_are_not_objects_fail(server, tmp_path):
    server.script((200, {"count": 4, "next": None, "results": ["o", "o", "p", "s"]}))
    result = parse(server, tmp_path)
    assert result["message"] == (
        "posthog.admin.organizations: listing organizations for the inventory: GET /api/organizations/?limit=500 "
        "answered a list page whose 'results' holds a string at index 0, not an object; check that host points "
        "at PostHog's API")


def test_trickling_server_is_cut_at_the_timeout(server, tmp_path):
    server.script((200, server.Trickle(interval=0.2, size=200)))
    result = parse(server, tmp_path, extra="timeout: 1\n")
    assert result["message"] == ("posthog.admin.organizations: GET /api/organizations/?limit=500 failed: no "
                                 "complete answer within timeout (1 s)")


def test_hostvars_tolerate_odd_projects_and_levels():
    values = InventoryModule.hostvars({"id": "x", "membership_level": "boss", "projects": ["p", {"id": 2}, None]})
    assert values["posthog_projects"] == [{"id": 2, "name": None}]
    assert values["posthog_membership_level"] == "boss"
    assert values["posthog_membership_level_number"] == "boss"


# ---------------------------------------------------------------- host names safe for every use (issue 33)
HOSTILE_NAMES = ["../../x", "..", ".hidden", "-e", "a/b\\c", "x:y,z[0]!&*", "caf\u00e9 \u202eevil", "ok-name.1",
                 "l" * 300, "l" * 301]


def test_host_names_are_safe_for_every_use_ansible_core_makes_of_them():
    from ansible_collections.posthog.admin.plugins.inventory.organizations import MAX_HOSTNAME, safe_hostname

    made = [safe_hostname(name) for name in HOSTILE_NAMES]
    assert made[:8] == ["___.._x", "__", "_hidden", "_e", "a_b_c", "x_y_z_0____", "caf___evil", "ok-name.1"]
    for name in made:
        assert len(name) <= MAX_HOSTNAME and name[0] not in ".-" and all(c.isalnum() or c in "_.-" for c in name)
        assert name.isascii() and "/" not in name
    assert made[8] != made[9], "two long names must stay two hosts"


def test_an_organization_named_like_a_path_never_writes_outside_the_fact_cache(server, tmp_path):
    """hostname: name, and a play that caches a fact for each host (the jsonfile cache joins the host name to
    its directory): every file lands in the cache directory, under a safe name (on 2.16 an organization
    named ../../x wrote to ../../x from there)."""
    root = collections_root()
    if root is None:
        pytest.skip("run from a built collection copy (make units)")
    names = ["../../x", "..", ".hidden", "ok"]
    server.script((200, {"count": len(names), "next": None, "previous": None, "results": [
        dict(id="0190a3f4-0000-7000-8000-%012d" % n, name=name, slug="org-%d" % n, membership_level=8)
        for n, name in enumerate(names)]}))
    work = tmp_path / "a" / "b"
    cache = work / "cache" / "facts"
    cache.mkdir(parents=True)
    source = work / "inventory.posthog.yml"
    source.write_text("plugin: posthog.admin.organizations\nhost: %s\napi_key: %s\nretries: 0\nhostname: name\n"
                      % (server.url, KEY))
    play = work / "play.yml"
    play.write_text("- hosts: posthog_organizations\n  connection: local\n  gather_facts: false\n  tasks:\n"
                    "    - ansible.builtin.set_fact:\n        seen: true\n        cacheable: true\n")
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=root, ANSIBLE_CACHE_PLUGIN="jsonfile",
               ANSIBLE_CACHE_PLUGIN_CONNECTION=str(cache), ANSIBLE_LOCALHOST_WARNING="false",
               ANSIBLE_INVENTORY_UNPARSED_WARNING="false", ANSIBLE_NOCOLOR="1",
               ANSIBLE_PYTHON_INTERPRETER=sys.executable)
    env.pop("PYTHONPATH", None)
    before = set(p for p in tmp_path.rglob("*"))
    done = subprocess.run([os.path.join(os.path.dirname(sys.executable), "ansible-playbook"), "-i", str(source),
                           str(play)], cwd=str(work), env=env, capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    made = set(p for p in tmp_path.rglob("*")) - before
    outside = [str(p) for p in made if cache not in p.parents]
    assert outside == [], outside
    # (ansible-core 2.19 and later start the file's name with its serialization's version: s1_)
    assert sorted(re.sub(r"^s\d+_", "", p.name) for p in cache.iterdir()) == ["__", "___.._x", "_hidden", "ok"]
    assert KEY not in done.stdout + done.stderr
