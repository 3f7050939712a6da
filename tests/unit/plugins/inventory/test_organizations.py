# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The organizations inventory plugin: the host variables it builds, and the hosts and groups it makes
(with and without the constructed options) when ansible-core loads it against a scripted server."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import json
import os
import subprocess
import sys

import pytest

from ansible_collections.posthog.admin.plugins.inventory.organizations import InventoryModule

HERE = os.path.dirname(os.path.abspath(__file__))
KEY = "phx_unit_test_key_0123456789abcdefghijklmnopqrstuv"

# Child-process scripts start so, and ansible-core loads the plugin through its own collection loader.
PRELUDE = r"""
import json, sys
from ansible.parsing.dataloader import DataLoader
try:
    from ansible.plugins.loader import init_plugin_loader
except ImportError:
    init_plugin_loader = None
if init_plugin_loader is not None:
    init_plugin_loader()
"""

DUMP = PRELUDE + r"""
from ansible.inventory.manager import InventoryManager
inventory = InventoryManager(loader=DataLoader(), sources=[sys.argv[1]])
groups = dict((name, sorted(h.name for h in group.get_hosts())) for name, group in inventory.groups.items())
hostvars = dict((host.name, dict((k, v) for k, v in host.vars.items() if not k.startswith("inventory_")))
                for host in inventory.get_hosts())
print(json.dumps({"groups": groups, "hostvars": hostvars, "parsed": inventory._inventory.processed_sources != []}))
"""


def org(number, **extra):
    value = {
        "id": "0000000%d-0000-0000-0000-000000000000" % number,
        "name": "Org %d" % number,
        "slug": "org-%d" % number,
        "membership_level": 15,
        "member_count": 3,
        "enforce_2fa": number == 1,
        "plugins_access_level": 3,
        "created_at": "2026-01-0%dT00:00:00Z" % number,
        "teams": [{"id": number, "name": "ignored, projects win"}],
        "projects": [{"id": number, "name": "Default project", "organization_id": "x"}],
        "metadata": {"instance_tag": "none"},
    }
    value.update(extra)
    return value


def page(server, items, more=None):
    return {"count": len(items), "next": more and server.url + more, "previous": None, "results": items}


def collections_root():
    parts = HERE.split(os.sep)
    if "ansible_collections" not in parts:
        return None
    return os.sep.join(parts[:parts.index("ansible_collections")])


def run_child(script, tmp_path, source):
    """Writes the inventory ``source`` and runs ``script`` (PRELUDE + ...) on it in a child process, as
    ansible-core would load the plugin; returns the JSON of its last line, and the finished process."""
    root = collections_root()
    if root is None:
        pytest.skip("run from a built collection copy (make units)")
    path = tmp_path / "unit.posthog.yml"
    path.write_text(source)
    env = dict(os.environ, ANSIBLE_COLLECTIONS_PATH=root, ANSIBLE_INVENTORY_UNPARSED_WARNING="false",
               ANSIBLE_LOCALHOST_WARNING="false")
    env.pop("PYTHONPATH", None)
    done = subprocess.run([sys.executable, "-c", script, str(path)], env=env, capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1]), done


def build(server, tmp_path, config):
    result, done = run_child(DUMP, tmp_path, "plugin: posthog.admin.organizations\nhost: %s\napi_key: %s\n%s"
                             % (server.url, KEY, config))
    return result, " ".join(done.stderr.split())  # ansible-core 2.16 wraps a warning at the terminal's width


def test_hostvars_maps_the_api_fields():
    values = InventoryModule.hostvars(org(1, member_count="7", membership_level=8))
    assert values == {
        "posthog_id": "00000001-0000-0000-0000-000000000000",
        "posthog_name": "Org 1",
        "posthog_slug": "org-1",
        "posthog_membership_level": "admin",
        "posthog_membership_level_number": 8,
        "posthog_member_count": 7,
        "posthog_projects": [{"id": 1, "name": "Default project"}],
        "posthog_enforce_2fa": True,
        "posthog_plugins_access_level": 3,
        "posthog_created_at": "2026-01-01T00:00:00Z",
    }


def test_hostvars_falls_back_to_teams_and_tolerates_missing_fields():
    values = InventoryModule.hostvars({"id": "x", "teams": [{"id": 4, "name": "T", "api_token": "phc_no"}],
                                       "member_count": "many"})
    assert values["posthog_projects"] == [{"id": 4, "name": "T"}]
    assert values["posthog_member_count"] == "many"
    assert values["posthog_membership_level"] is None
    assert values["posthog_name"] is None


def test_plain_configuration_makes_one_host_per_organization_and_nothing_else(server, tmp_path):
    server.script((200, page(server, [org(1), org(2)], "/api/organizations/?limit=2&offset=2")),
                  (200, page(server, [org(3)])))
    result, dummy = build(server, tmp_path, "page_size: 2\n")
    assert [r["path"] for r in server.requests] == ["/api/organizations/?limit=2", "/api/organizations/?limit=2&offset=2"]
    assert result["groups"]["posthog_organizations"] == ["org-1", "org-2", "org-3"]
    assert set(result["groups"]) == {"all", "ungrouped", "posthog_organizations"}
    assert result["hostvars"]["org-2"] == InventoryModule.hostvars(org(2))


def test_constructed_options_compose_group_and_key(server, tmp_path):
    server.script((200, page(server, [org(1), org(2, membership_level=1)])))
    config = ("hostname: id\ngroup: orgs\n"
              "compose:\n  project_count: posthog_projects | length\n  ansible_connection: \"'local'\"\n"
              "groups:\n  strict_2fa: posthog_enforce_2fa | default(false)\n"
              "keyed_groups:\n  - key: posthog_membership_level\n    prefix: level\n")
    result, dummy = build(server, tmp_path, config)
    first, second = org(1)["id"], org(2)["id"]
    assert result["groups"]["orgs"] == sorted([first, second])
    assert result["groups"]["strict_2fa"] == [first]
    assert result["groups"]["level_owner"] == [first]
    assert result["groups"]["level_member"] == [second]
    for host in (first, second):
        assert int(result["hostvars"][host]["project_count"]) == 1
        assert result["hostvars"][host]["ansible_connection"] == "local"
        assert set(result["hostvars"][host]) == set(InventoryModule.hostvars(org(1))) | {"project_count", "ansible_connection"}


def test_duplicate_and_missing_host_names_are_skipped(server, tmp_path):
    server.script((200, page(server, [org(1), org(2, name="Org 1"), org(3, name=None)])))
    result, stderr = build(server, tmp_path, "hostname: name\n")
    assert result["groups"]["posthog_organizations"] == ["Org_1"]  # a host name safe everywhere (issue 33)
    assert result["hostvars"]["Org_1"]["posthog_slug"] == "org-1"
    assert result["hostvars"]["Org_1"]["posthog_name"] == "Org 1"
    assert "two organizations have the host name 'Org_1' (their name)" in stderr


def guide_block(marker):
    """The YAML code block of docs/docsite/rst/guide_fleet.rst that starts with the comment `marker`."""
    root = collections_root()
    guide = os.path.join(root, "ansible_collections", "posthog", "admin", "docs", "docsite", "rst", "guide_fleet.rst")
    with open(guide) as handle:
        text = handle.read()
    start = text.index("    " + marker + "\n")
    block = []
    for line in text[start:].splitlines():
        if line and not line.startswith("    "):
            break
        block.append(line[4:])
    return "\n".join(block).strip() + "\n"


def test_fleet_guide_keyed_groups_pick_a_unit_or_a_shard(server, tmp_path):
    """The fleet guide's subset example, loaded as the guide shows it: groups per business unit (the slug's
    first part) and per shard (the id's last hexadecimal digit), beside the plain group."""
    if collections_root() is None:
        pytest.skip("run from a built collection copy (make units)")
    config = guide_block("# inventory/fleet.posthog.yml")
    assert config.startswith("# inventory/fleet.posthog.yml\nplugin: posthog.admin.organizations\n")
    config = config.replace("plugin: posthog.admin.organizations\n", "")  # build() writes it, with host and api_key
    orgs = [org(1, slug="acme-eu", id="0000000a-0000-0000-0000-00000000000a"),
            org(2, slug="acme-us", id="0000000b-0000-0000-0000-00000000000b"),
            org(3, slug="globex-main", id="0000000c-0000-0000-0000-00000000000a")]
    server.script((200, page(server, orgs)))
    result, dummy = build(server, tmp_path, config)
    groups = result["groups"]
    assert groups["posthog_organizations"] == ["acme-eu", "acme-us", "globex-main"]
    assert groups["unit_acme"] == ["acme-eu", "acme-us"]
    assert groups["unit_globex"] == ["globex-main"]
    assert groups["shard_a"] == ["acme-eu", "globex-main"]
    assert groups["shard_b"] == ["acme-us"]
    assert groups["strict_2fa"] == ["acme-eu"]  # org(1) enforces 2FA
    assert set(groups) == {"all", "ungrouped", "posthog_organizations", "unit_acme", "unit_globex", "shard_a",
                           "shard_b", "strict_2fa"}
