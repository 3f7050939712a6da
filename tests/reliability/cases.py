# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The table of the reliability suite: one row per module (MODULES) and per inventory config.

Adding a module means adding a ``ModuleCase`` row; every test in test_reliability.py then runs
for it:

* ``converge``: the task args (in order) that bring the server to the wanted end state; a later
  task may refer to an earlier result as ``{{ r0.<key>... }}``. Run once under 30 % transient
  faults, then again (still under faults) where every task must report ``changed=false``.
* ``verify(api, results)``: asserts the end state on the server, including that nothing was
  created twice. ``results`` holds the registered results ``r0``, ``r1``, ...
* ``create_path``: regex of the path of the POST that creates the object (None for info
  modules): the "committed but the answer was lost" test drops the first answer there.
* ``bad_input``: ``BadInput(args, message_regex)`` rows; each must fail with a message matching
  the regex (searched in ``msg``) and the request log must show no write.
* ``secrets``: values (besides the API key) that must never appear in any output or log at -vvvv,
  e.g. a batch export's destination credentials given in ``converge``.
* ``setup(api)``: prepares the server after each reset (an invite accepted, events ingested, ...).
* ``rate_limits``: run the 429 tests through this module's first task (they exercise the shared
  client, so a few modules are enough).
"""

from dataclasses import dataclass, field
from typing import Callable, Optional

ORG_NAME = "Reliability Org"
ORG_KEY = "organization"


@dataclass
class BadInput:
    args: dict
    message: str
    id: str = ""


@dataclass
class ModuleCase:
    module: str
    converge: list
    verify: Callable
    create_path: Optional[str] = None
    bad_input: list = field(default_factory=list)
    secrets: tuple = ()
    setup: Optional[Callable] = None
    rate_limits: bool = False

    @property
    def id(self):
        return self.module.rsplit(".", 1)[-1]


# ------------------------------------------------------------------------------ organization
def verify_organization(api, results):
    named = [o for o in api.list_all("/api/organizations/") if o["name"] == ORG_NAME]
    assert len(named) == 1, "expected exactly one organization named %r, found %d" % (ORG_NAME, len(named))
    org = named[0]
    assert org["id"] == results["r0"]["organization"]["id"] == results["r1"]["organization"]["id"]
    assert org["enforce_2fa"] is True
    assert org["default_experiment_stats_method"] == "frequentist"
    assert org["members_can_invite"] is False
    assert results["r1"]["organization"]["members_can_invite"] is False


ORGANIZATION = ModuleCase(
    module="posthog.admin.organization",
    converge=[
        {"name": ORG_NAME, "enforce_2fa": True, "default_experiment_stats_method": "frequentist"},
        {"id": "{{ r0.organization.id }}", "name": ORG_NAME, "members_can_invite": False},
    ],
    verify=verify_organization,
    create_path=r"/api/organizations/?$",
    rate_limits=True,
    bad_input=[
        BadInput({"name": ""}, r"name must be 1 to 64 characters, not blank", "empty name"),
        BadInput({"name": "   "}, r"name must be 1 to 64 characters, not blank", "blank name"),
        BadInput({"name": "x" * 65}, r"name must be 1 to 64 characters.*got 65", "name too long"),
        BadInput({"name": ORG_NAME, "default_experiment_stats_method": "sometimes"},
                 r"default_experiment_stats_method must be one of: bayesian, frequentist", "unknown choice"),
        BadInput({"name": ORG_NAME, "state": "gone"}, r"state must be one of: present, absent", "unknown state"),
        BadInput({"name": ORG_NAME, "enforce_2fa": "maybe"}, r"enforce_2fa.*unable to convert to bool", "not a bool"),
        BadInput({"name": ORG_NAME, "retries": "many"}, r"retries.*unable to convert to int", "not an int"),
        BadInput({"enforce_2fa": True}, r"one of the following is required: id, name", "no id or name"),
        BadInput({"name": ORG_NAME, "colour": "red"}, r"Unsupported parameters.*colour", "unknown option"),
        BadInput({"id": "not-a-uuid", "name": ORG_NAME}, r"organization with id not-a-uuid not found; omit id",
                 "malformed id"),
        BadInput({"id": "0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f", "name": ORG_NAME, "enforce_2fa": True},
                 r"not found; omit id to create a new one", "unknown id"),
        BadInput({"name": ORG_NAME, "host": "ftp://example.com"}, r"host must be an http\(s\) URL", "bad host"),
    ],
)


# ------------------------------------------------------------------------- organization_info
def verify_organization_info(api, results):
    assert [o["name"] for o in results["r0"]["organizations"]] == ["Emulator Org"]
    everything = api.list_all("/api/organizations/")
    assert sorted(o["id"] for o in results["r1"]["organizations"]) == sorted(o["id"] for o in everything)


ORGANIZATION_INFO = ModuleCase(
    module="posthog.admin.organization_info",
    converge=[{"name": "Emulator Org"}, {}],
    verify=verify_organization_info,
    bad_input=[
        BadInput({"validate_certs": "perhaps"}, r"validate_certs.*unable to convert to bool", "not a bool"),
        BadInput({"colour": "red"}, r"Unsupported parameters.*colour", "unknown option"),
        BadInput({"timeout": "soon"}, r"timeout.*unable to convert to float", "not a float"),
    ],
)


MODULES = [ORGANIZATION, ORGANIZATION_INFO]


# --------------------------------------------------------------------------- inventory plugin
def verify_inventory(api, inventory):
    hosts = inventory.get("posthog_organizations", {}).get("hosts", [])
    slugs = sorted(o["slug"] for o in api.list_all("/api/organizations/"))
    assert sorted(hosts) == slugs, (hosts, slugs)


@dataclass
class InventoryCase:
    id: str
    config: dict
    verify: Callable
    secrets: tuple = ()
    setup: Optional[Callable] = None


def make_organizations(api, count=5):
    for number in range(count):
        api.call("POST", "/api/organizations/", {"name": "Inventory %d" % number})


INVENTORIES = [
    InventoryCase("organizations", {"page_size": 2}, verify_inventory, setup=make_organizations),
]
