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
* ``create_path``: regex of the path of the POST by which the first task creates (or, for an
  action, requests) its object; None when the first task creates nothing. The "committed but
  the answer was lost" test drops the first answer there, and the first task must not send that
  POST again (later tasks may POST there for other objects).
* ``bad_input``: ``BadInput(args, message_regex)`` rows; each must fail with a message matching
  the regex (searched in ``msg``) and the request log must show no write.
* ``secrets``: values (besides the API key) that must never appear in any output or log at -vvvv,
  e.g. a batch export's destination credentials given in ``converge``.
* ``setup(api)``: prepares the server after each reset (an invite accepted, events ingested, ...);
  the request log is cleared after it.
* ``rate_limits``: run the 429 tests through this module's first task (they exercise the shared
  client, so a few modules are enough).
* ``writes``: the methods of the requests (POST, PATCH, DELETE, PUT) by which ``converge`` writes,
  from the state ``setup`` leaves. The fault test checks it against the request log of its first
  play; the 5xx-after-commit test runs for the methods it names (no play for a method the module
  never sends). None (info modules, list cases): that test tries every method, skipping the unsent.
* ``task_vars``: the variables of each of its tasks; organization_state (the module with an action
  plugin) has a case with ``harness.WORKER`` (run in the controller's worker) and one with
  ``harness.MODULE_PROCESS`` (``posthog_admin_in_process: false``): every test runs it both ways.
* ``action``: the module performs an action on every run (a backfill), so the second run must
  report ``changed=true`` for every task, and ``verify`` is called as ``verify(api, results,
  runs=n)`` with the number of plays that ran the tasks (each must have acted exactly once).

Setups run after each reset, and in the TLS test all of them on one server before one play of
every module's first task: each case uses its own names (e-mail addresses, URLs, export names)
so that they do not collide there, and the roster (which purges) comes after the other people
modules. A first task (``converge[0]``) never refers to an earlier result.
"""

from dataclasses import dataclass, field, replace
from typing import Callable, Optional

from harness import MODULE_PROCESS, WORKER

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
    action: bool = False
    name: str = ""
    writes: Optional[tuple] = None
    task_vars: Optional[dict] = None

    @property
    def id(self):
        return self.name or self.module.rsplit(".", 1)[-1]


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
    writes=("POST", "PATCH"),
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


# ---------------------------------------------------------------------------- shared helpers
ORG = "/api/organizations/@current"
NO_ORG = "No Such Org"
NO_ORG_MESSAGE = r"organization 'No Such Org' not found: none of the \d+ organizations"
UNKNOWN_UUID = "0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f"


def project_id(api):
    return api.get("/_emulator/info")["project"]["id"]


def by_key(items, key):
    """{value: [items with it]}: duplicates show as lists longer than one."""
    found = {}
    for item in items:
        found.setdefault(key(item), []).append(item)
    return found


def assert_once(found, names, what):
    for name in names:
        assert len(found.get(name, [])) == 1, "expected exactly one %s %r, found %d" % (
            what, name, len(found.get(name, [])))


def invite(api, email, level=1):
    return api.call("POST", ORG + "/invites/", {"target_email": email, "level": level, "send_email": False})


def join(api, email, level=1):
    """``email`` becomes a member at ``level`` (invited, then accepted through the control API)."""
    invite(api, email, level)
    api.call("POST", "/_emulator/invites/accept", {"email": email, "organization": "emulator-org"})


def members_by_email(api):
    return by_key(api.list_all(ORG + "/members/"), lambda m: m["user"]["email"])


def invites_by_email(api):
    return by_key(api.list_all(ORG + "/invites/"), lambda i: i["target_email"])


# ------------------------------------------------------------------------------------ domain
SAML_CERT = "-----BEGIN CERTIFICATE-----\nMIIBreliability\n-----END CERTIFICATE-----"


def setup_domain(api):
    """A domain created earlier whose TXT record is published: state=verified can verify it."""
    made = api.call("POST", ORG + "/domains/", {"domain": "verified.reliability.example"})
    api.call("POST", "/_emulator/dns", {"name": "_posthog-challenge.verified.reliability.example",
                                        "value": made["verification_challenge"]})


def verify_domain(api, results):
    domains = by_key(api.list_all(ORG + "/domains/"), lambda d: d["domain"])
    assert sorted(domains) == ["saml.reliability.example", "verified.reliability.example"], sorted(domains)
    assert_once(domains, domains, "domain")
    saml = domains["saml.reliability.example"][0]
    assert saml["id"] == results["r0"]["domain"]["id"] == results["r1"]["domain"]["id"]
    assert saml["saml_entity_id"] == "https://idp.example.com/entity"
    assert saml["saml_acs_url"] == "https://idp.example.com/sso"
    assert saml["saml_x509_cert"] == SAML_CERT
    assert saml["is_verified"] is False
    verified = domains["verified.reliability.example"][0]
    assert verified["is_verified"] is True
    assert verified["jit_provisioning_enabled"] is True
    assert verified["sso_enforcement"] == "google-oauth2"
    assert results["r2"]["domain"]["is_verified"] is True


DOMAIN = ModuleCase(
    module="posthog.admin.domain",
    setup=setup_domain,
    converge=[
        {"domain": "saml.reliability.example", "saml_entity_id": "https://idp.example.com/entity",
         "saml_acs_url": "https://idp.example.com/sso"},
        {"id": "{{ r0.domain.id }}", "saml_x509_cert": SAML_CERT},
        {"domain": "Verified.Reliability.Example.", "state": "verified", "organization": "emulator-org",
         "jit_provisioning_enabled": True, "sso_enforcement": "google-oauth2", "verify_timeout": 0},
    ],
    verify=verify_domain,
    writes=("POST", "PATCH"),
    create_path=r"/api/organizations/[^/]+/domains/?$",
    bad_input=[
        BadInput({"domain": "example.com", "state": "gone"}, r"state must be one of: present, verified, absent",
                 "unknown state"),
        BadInput({"domain": ""}, r"domain must not be empty", "empty domain"),
        BadInput({"domain": "ann@example.com"}, r"looks like an e-mail address", "an e-mail address"),
        BadInput({"domain": "example.com", "jit_provisioning_enabled": "maybe"},
                 r"jit_provisioning_enabled.*unable to convert to bool", "not a bool"),
        BadInput({"domain": "example.com", "verify_interval": 0}, r"verify_interval must be at least 1 second",
                 "interval zero"),
        BadInput({"id": "not-a-uuid", "saml_acs_url": "https://idp.example.com/sso"},
                 r"domain with id not-a-uuid not found; omit id", "malformed id"),
        BadInput({"domain": "example.com", "organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
        BadInput({"domain": "sso.reliability.example", "sso_enforcement": "saml"},
                 r"sso_enforcement can only be set once the domain is verified", "SSO on an unverified domain"),
    ],
)


# ------------------------------------------------------------------- domain, list option
MANY = "many.reliability.example"


def setup_domains(api):
    """A domain whose TXT record is published, so that an item with state=verified can verify it."""
    made = api.call("POST", ORG + "/domains/", {"domain": "verified." + MANY})
    api.call("POST", "/_emulator/dns", {"name": "_posthog-challenge.verified." + MANY,
                                        "value": made["verification_challenge"]})


def verify_domains(api, results):
    domains = by_key([d for d in api.list_all(ORG + "/domains/") if d["domain"].endswith(MANY)], lambda d: d["domain"])
    names = ["one." + MANY, "two." + MANY, "verified." + MANY]
    assert sorted(domains) == names, sorted(domains)
    assert_once(domains, names, "domain")
    one = domains["one." + MANY][0]
    assert one["saml_acs_url"] == "https://idp.example.com/sso"
    assert one["saml_entity_id"] == "https://idp.example.com/entity"
    assert [d["id"] for d in results["r0"]["domains"]] == [one["id"], domains["verified." + MANY][0]["id"]]
    verified = domains["verified." + MANY][0]
    assert verified["is_verified"] is True and verified["sso_enforcement"] == "google-oauth2"
    assert [d["domain"] for d in results["r1"]["domains"]] == ["one." + MANY, "two." + MANY]


DOMAINS = ModuleCase(
    module="posthog.admin.domain",
    name="domain_list",
    setup=setup_domains,
    converge=[
        {"domains": [{"domain": "one." + MANY, "saml_acs_url": "https://idp.example.com/sso"},
                     {"domain": "Verified.Many.Reliability.Example.", "state": "verified",
                      "sso_enforcement": "google-oauth2"}],
         "verify_timeout": 0},
        {"domains": [{"domain": "one." + MANY, "saml_entity_id": "https://idp.example.com/entity"},
                     {"domain": "two." + MANY}]},
    ],
    verify=verify_domains,
    writes=("POST", "PATCH"),
    create_path=r"/api/organizations/[^/]+/domains/?$",
    bad_input=[
        BadInput({"domains": [{"domain": "dup." + MANY}, {"domain": "DUP." + MANY}]},
                 r"domains\[0\] and domains\[1\] name the same object", "duplicate items"),
        BadInput({"domains": [{"domain": "ok." + MANY}, {"domain": "ann@example.com"}]},
                 r"domains\[1\] \(domain 'ann@example.com'\): .*looks like an e-mail address", "an e-mail address"),
        BadInput({"domains": [{"domain": "ok." + MANY, "colour": "red"}]}, r"Unsupported parameters.*domains.colour",
                 "unknown item option"),
        BadInput({"domains": [{"domain": "ok." + MANY, "state": "gone"}]}, r"state.*must be one of", "unknown state"),
        BadInput({"domains": [{"domain": "ok." + MANY}], "domain": "other." + MANY}, r"mutually exclusive",
                 "list and one domain"),
        BadInput({"domains": [{"saml_acs_url": "https://idp.example.com/sso"}]}, r"one of domain or id is required",
                 "item without domain or id"),
        BadInput({"domains": [{"domain": "ok." + MANY}], "organization": NO_ORG}, NO_ORG_MESSAGE,
                 "unknown organization"),
    ],
)


# ------------------------------------------------------------------------------- domain_info
def setup_domain_info(api):
    for name in ("one.info.example", "two.info.example"):
        api.call("POST", ORG + "/domains/", {"domain": name})


def verify_domain_info(api, results):
    everything = sorted(d["domain"] for d in api.list_all(ORG + "/domains/"))
    assert sorted(d["domain"] for d in results["r0"]["domains"]) == everything
    assert [d["domain"] for d in results["r1"]["domains"]] == ["two.info.example"]
    assert results["r1"]["domains"][0]["verification"]["name"] == "_posthog-challenge.two.info.example"
    assert [d["id"] for d in results["r2"]["domains"]] == [results["r1"]["domains"][0]["id"]]


DOMAIN_INFO = ModuleCase(
    module="posthog.admin.domain_info",
    setup=setup_domain_info,
    converge=[{}, {"domain": "Two.Info.Example", "organization": "Emulator Org"},
              {"id": "{{ r1.domains[0].id }}"}],
    verify=verify_domain_info,
    bad_input=[
        BadInput({"colour": "red"}, r"Unsupported parameters.*colour", "unknown option"),
        BadInput({"organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
        BadInput({"retries": "many"}, r"retries.*unable to convert to int", "not an int"),
    ],
)


# ------------------------------------------------------------------------------------ invite
def setup_invite(api):
    invite(api, "dee@invite.example", 8)


def verify_invite(api, results):
    invites = invites_by_email(api)
    assert sorted(invites) == ["Ann@invite.example", "bob@invite.example", "cy@invite.example"], sorted(invites)
    assert_once(invites, invites, "invite for")
    assert invites["Ann@invite.example"][0]["level"] == 8
    assert invites["Ann@invite.example"][0]["first_name"] == "Ann"
    assert invites["bob@invite.example"][0]["level"] == 1
    assert invites["cy@invite.example"][0]["level"] == 8
    assert results["r0"]["invite"]["target_email"] == "Ann@invite.example"
    assert results["r2"]["removed"] in (["dee@invite.example"], [])


INVITE = ModuleCase(
    module="posthog.admin.invite",
    setup=setup_invite,
    converge=[
        {"target_email": "Ann@INVITE.example", "level": "admin", "first_name": "Ann", "send_email": False},
        {"invites": [{"target_email": "bob@invite.example"}, {"target_email": "cy@invite.example", "level": "admin"}],
         "level": "member", "send_email": False, "organization": "Emulator Org"},
        {"target_email": "dee@invite.example", "state": "absent"},
    ],
    verify=verify_invite,
    writes=("POST", "DELETE"),
    create_path=r"/api/organizations/[^/]+/invites/?$",
    bad_input=[
        BadInput({"target_email": "ann@invite.example", "level": "boss"},
                 r"level must be one of: member, admin, owner", "unknown level"),
        BadInput({"target_email": "not-an-email"}, r"'not-an-email' is not an email address", "not an address"),
        BadInput({"target_email": ""}, r"has no (target_)?email|is not an email address", "empty address"),
        BadInput({"target_email": "ann@invite.example", "invites": [{"target_email": "bob@invite.example"}]},
                 r"mutually exclusive: (target_)?email\|invites", "both forms"),
        BadInput({"invites": [{"target_email": "bob@invite.example"}, {"target_email": "BOB@invite.example"}]},
                 r"(?i)bob@invite.example is listed twice \(items 1 and 2\)", "listed twice"),
        BadInput({"target_email": "ann@invite.example", "first_name": "x" * 31}, r"longer than PostHog's 30",
                 "first name too long"),
        BadInput({"target_email": "ann@invite.example", "send_email": "perhaps"},
                 r"send_email.*unable to convert to bool", "not a bool"),
        BadInput({"target_email": "ann@invite.example", "organization": NO_ORG}, NO_ORG_MESSAGE,
                 "unknown organization"),
    ],
)


# ------------------------------------------------------------------------------- invite_info
def setup_invite_info(api):
    api.call("POST", ORG + "/invites/bulk/", [
        {"target_email": "one@info.example", "level": 1, "send_email": False},
        {"target_email": "Two@info.example", "level": 8, "send_email": False},
    ])


def verify_invite_info(api, results):
    assert sorted(i["target_email"] for i in results["r0"]["invites"]) == sorted(invites_by_email(api))
    assert [(i["target_email"], i["level_name"]) for i in results["r1"]["invites"]] == [("Two@info.example", "admin")]
    assert len(results["r2"]["invites"]) == 2


INVITE_INFO = ModuleCase(
    module="posthog.admin.invite_info",
    setup=setup_invite_info,
    converge=[{}, {"email": "two@INFO.example"}, {"include_expired": False, "organization": "emulator-org"}],
    verify=verify_invite_info,
    bad_input=[
        BadInput({"include_expired": "maybe"}, r"include_expired.*unable to convert to bool", "not a bool"),
        BadInput({"email": "nobody"}, r"'nobody' is not an email address", "not an address"),
        BadInput({"organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
        BadInput({"colour": "red"}, r"Unsupported parameters.*colour", "unknown option"),
    ],
)


# ------------------------------------------------------------------------------------ member
def setup_member(api):
    join(api, "mia@member.example", 1)
    join(api, "max@member.example", 8)


def verify_member(api, results):
    members = members_by_email(api)
    assert "max@member.example" not in members
    assert_once(members, ["admin@example.com", "mia@member.example"], "member")
    assert members["mia@member.example"][0]["level"] == 8
    assert members["admin@example.com"][0]["level"] == 15
    assert results["r0"]["member"]["level_name"] == "admin"
    assert results["r1"]["member"]["user"]["email"] == "mia@member.example"


MEMBER = ModuleCase(
    module="posthog.admin.member",
    setup=setup_member,
    converge=[
        {"email": "Mia@MEMBER.example", "level": "admin"},
        {"user_uuid": "{{ r0.member.user.uuid }}", "level": "admin", "organization": "Emulator Org"},
        {"email": "max@member.example", "state": "absent"},
    ],
    verify=verify_member,
    writes=("PATCH", "DELETE"),
    bad_input=[
        BadInput({"email": "mia@member.example", "level": "boss"}, r"level must be one of: member, admin, owner",
                 "unknown level"),
        BadInput({"email": "nobody"}, r"'nobody' is not an email address", "not an address"),
        BadInput({"user_uuid": "not-a-uuid", "level": "admin"}, r"user_uuid must be a UUID", "malformed uuid"),
        BadInput({"email": "mia@member.example", "user_uuid": UNKNOWN_UUID},
                 r"mutually exclusive: email\|user_uuid", "both forms"),
        BadInput({"email": "ghost@member.example", "level": "admin"},
                 r"ghost@member.example is not a member of the organization.*invite them", "not a member"),
        BadInput({"user_uuid": UNKNOWN_UUID, "level": "admin"}, r"the user %s is not a member" % UNKNOWN_UUID,
                 "unknown uuid"),
        BadInput({"email": "mia@member.example", "organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
    ],
)


# ------------------------------------------------------------------------------- member_info
def setup_member_info(api):
    join(api, "ida@info-member.example", 8)
    join(api, "ivo@info-member.example", 1)


def verify_member_info(api, results):
    assert sorted(m["user"]["email"] for m in results["r0"]["members"]) == sorted(members_by_email(api))
    assert [(m["user"]["email"], m["level_name"]) for m in results["r1"]["members"]] == [
        ("ida@info-member.example", "admin")]
    assert sorted(m["user"]["email"] for m in results["r2"]["members"]) == [
        "ida@info-member.example", "ivo@info-member.example"]


MEMBER_INFO = ModuleCase(
    module="posthog.admin.member_info",
    setup=setup_member_info,
    converge=[{}, {"email": "ida@info-member.example", "level": "admin"},
              {"search": "info-member", "organization": "emulator-org"}],
    verify=verify_member_info,
    bad_input=[
        BadInput({"level": "boss"}, r"level must be one of: member, admin, owner", "unknown level"),
        BadInput({"order": "sideways"}, r"order must be one of: joined_at, -joined_at", "unknown order"),
        BadInput({"search": "x" * 201}, r"search must be at most 200 characters", "search too long"),
        BadInput({"organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
    ],
)


# ------------------------------------------------------------------------------------ roster
def setup_roster(api):
    join(api, "rae@roster.example", 1)
    join(api, "rex@roster.example", 8)
    invite(api, "stale@roster.example", 1)


def verify_roster(api, results):
    members = members_by_email(api)
    invites = invites_by_email(api)
    assert "rex@roster.example" not in members, "an unlisted member was kept"
    assert "stale@roster.example" not in invites, "an unlisted invite was kept"
    assert_once(members, ["admin@example.com", "rae@roster.example"], "member")
    assert members["rae@roster.example"][0]["level"] == 8
    assert members["admin@example.com"][0]["level"] == 15
    assert sorted(invites) == ["new1@roster.example", "new2@roster.example"], sorted(invites)
    assert_once(invites, invites, "invite for")
    assert invites["new1@roster.example"][0]["level"] == 1
    assert invites["new2@roster.example"][0]["level"] == 8


ROSTER = ModuleCase(
    module="posthog.admin.roster",
    setup=setup_roster,
    converge=[
        {"people": [{"email": "admin@example.com", "level": "owner"}, {"email": "Rae@roster.example", "level": "admin"},
                    {"email": "new1@roster.example"}, {"email": "new2@roster.example", "level": "admin"}],
         "purge": True, "send_email": False},
    ],
    verify=verify_roster,
    writes=("POST", "PATCH", "DELETE"),
    create_path=r"/api/organizations/[^/]+/invites/bulk/?$",
    bad_input=[
        BadInput({"people": [{"email": "a@roster.example", "level": "boss"}]},
                 r"level must be one of: member, admin, owner", "unknown level"),
        BadInput({}, r"missing required arguments: people", "no people"),
        BadInput({"people": [{"level": "admin"}]}, r"missing required arguments: email", "person without address"),
        BadInput({"people": [{"email": "nobody"}]}, r"'nobody' is not an email address", "not an address"),
        BadInput({"people": [{"email": "a@roster.example"}, {"email": "A@roster.example"}]},
                 r"(?i)a@roster.example is listed twice \(items 1 and 2\)", "listed twice"),
        BadInput({"people": [{"email": "a@roster.example", "first_name": "x" * 31}]}, r"longer than PostHog's 30",
                 "first name too long"),
        BadInput({"people": [{"email": "a@roster.example"}], "purge": "perhaps"}, r"purge.*unable to convert to bool",
                 "not a bool"),
        BadInput({"people": [{"email": "a@roster.example"}], "organization": NO_ORG}, NO_ORG_MESSAGE,
                 "unknown organization"),
    ],
)


# ------------------------------------------------------------------------------------ role
ROLE_NAME = "Reliability Role"


def grant(api, *features):
    """Add paid features to the bootstrap organization (keeping those other setups granted)."""
    api.call("PATCH", "/_emulator/organizations/emulator-org/features", {"features": list(features)})


def roles_by_name(api):
    return by_key(api.list_all(ORG + "/roles/"), lambda r: r["name"])


def holders(role):
    return sorted(m["user"]["email"] for m in role["members"])


def setup_role(api):
    join(api, "rachel@role.example")
    join(api, "ravi@role.example")


def verify_role(api, results):
    roles = roles_by_name(api)
    assert_once(roles, [ROLE_NAME, "Reliability Extra"], "role")
    role = roles[ROLE_NAME][0]
    assert role["id"] == results["r0"]["role"]["id"] == results["r1"]["role"]["id"]
    assert holders(role) == ["rachel@role.example", "ravi@role.example"], holders(role)
    assert holders(roles["Reliability Extra"][0]) == ["ravi@role.example"]
    assert results["r2"]["roles"][1]["member_emails"] == ["ravi@role.example"]


ROLE = ModuleCase(
    module="posthog.admin.role",
    setup=setup_role,
    converge=[
        {"name": ROLE_NAME, "members": ["Rachel@role.example"]},
        {"id": "{{ r0.role.id }}", "members": ["rachel@role.example", "ravi@role.example"], "purge": True},
        {"roles": [{"name": "reliability role"}, {"name": "Reliability Extra", "members": ["ravi@role.example"]}],
         "organization": "Emulator Org"},
    ],
    verify=verify_role,
    writes=("POST",),
    create_path=r"/api/organizations/[^/]+/roles/?$",
    bad_input=[
        BadInput({"name": ""}, r"name must be 1 to 200 characters", "empty name"),
        BadInput({"name": ROLE_NAME, "members": ["nobody"]}, r"'nobody' is not an email address", "not an address"),
        BadInput({"name": ROLE_NAME, "members": ["a@role.example", "A@role.example"]}, r"listed twice",
                 "listed twice"),
        BadInput({"name": ROLE_NAME, "members": ["stranger@role.example"]},
                 r"stranger@role.example is not a member of the organization and not invited", "a stranger"),
        BadInput({"roles": [{"name": "x"}, {"name": "X"}]}, r"roles\[0\] and roles\[1\] name the same object",
                 "duplicate items"),
        BadInput({"name": ROLE_NAME, "state": "gone"}, r"state must be one of: present, absent", "unknown state"),
        BadInput({"id": UNKNOWN_UUID, "name": ROLE_NAME}, r"not found; omit id", "unknown id"),
        BadInput({"name": ROLE_NAME, "organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
    ],
)


# ------------------------------------------------------------------------------- role_info
def setup_role_info(api):
    role = api.call("POST", ORG + "/roles/", {"name": "Info Role"})
    me = api.get("/api/users/@me/")
    api.call("POST", ORG + "/roles/%s/role_memberships/" % role["id"], {"user_uuid": me["uuid"]})


def verify_role_info(api, results):
    assert sorted(r["name"] for r in results["r0"]["roles"]) == sorted(roles_by_name(api))
    assert [(r["name"], r["member_emails"]) for r in results["r1"]["roles"]] == [("Info Role", ["admin@example.com"])]
    assert [r["id"] for r in results["r2"]["roles"]] == [results["r1"]["roles"][0]["id"]]


ROLE_INFO = ModuleCase(
    module="posthog.admin.role_info",
    setup=setup_role_info,
    converge=[{}, {"name": "info ROLE"}, {"id": "{{ r1.roles[0].id }}", "organization": "emulator-org"}],
    verify=verify_role_info,
    bad_input=[
        BadInput({"colour": "red"}, r"Unsupported parameters.*colour", "unknown option"),
        BadInput({"organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
    ],
)


# ------------------------------------------------------------------------------- roster, roles
def setup_roster_roles(api):
    join(api, "rho@roles-roster.example")
    api.call("POST", ORG + "/roles/", {"name": "Roster Role"})


def verify_roster_roles(api, results):
    roles = roles_by_name(api)
    assert holders(roles["Roster Role"][0]) == ["rho@roles-roster.example"]
    assert results["r0"]["roles"] == {"rho@roles-roster.example": ["Roster Role"]}


ROSTER_ROLES = ModuleCase(
    module="posthog.admin.roster",
    name="roster_roles",
    setup=setup_roster_roles,
    converge=[{"people": [{"email": "admin@example.com", "level": "owner"},
                          {"email": "rho@roles-roster.example", "roles": ["roster role"]}]}],
    verify=verify_roster_roles,
    writes=("POST",),
    create_path=r"/api/organizations/[^/]+/roles/[^/]+/role_memberships/?$",
    bad_input=[
        BadInput({"people": [{"email": "admin@example.com", "level": "owner"},
                             {"email": "rho@roles-roster.example", "roles": ["No Such Role"]}]},
                 r"'No Such Role' does not exist", "unknown role"),
    ],
)


# ------------------------------------------------------------------------------ batch_export
S3_KEY_ID = "AKIARELIABILITYKEY0001"
S3_SECRET = "reliability-s3-secret-access-key-0001"
PG_USER = "reliability_pg_user_0002"
PG_PASSWORD = "reliability-pg-password-0002"
INFO_SECRET = "reliability-info-http-token-0003"
S3 = {"type": "S3", "config": {"bucket_name": "reliability-bucket", "region": "eu-west-1", "prefix": "events/",
                               "aws_access_key_id": S3_KEY_ID, "aws_secret_access_key": S3_SECRET}}


def stored_export(api, export_id):
    return api.get("/_emulator/batch_exports/%s" % export_id)


def http_export(api, name, paused=False):
    return api.call("POST", "/api/projects/%s/batch_exports/" % project_id(api), {
        "name": name, "interval": "hour", "paused": paused,
        "destination": {"type": "HTTP", "config": {"url": "https://eu.i.posthog.com/batch/", "token": INFO_SECRET}}})


def setup_batch_export(api):
    http_export(api, "To pause")


def verify_batch_export(api, results):
    exports = by_key(api.list_all(ORG + "/batch_exports/"), lambda e: e["name"])
    assert sorted(exports) == ["Events to S3", "Persons to Postgres", "To pause"], sorted(exports)
    assert_once(exports, exports, "batch export")
    s3 = exports["Events to S3"][0]
    assert s3["id"] == results["r0"]["batch_export"]["id"] == results["r1"]["batch_export"]["id"]
    assert s3["paused"] is False and s3["interval"] == "hour" and s3["model"] == "events"
    assert s3["end_at"].startswith("2027-01-01T00:00:00"), s3["end_at"]
    assert stored_export(api, s3["id"])["destination"]["config"]["aws_secret_access_key"] == S3_SECRET
    assert exports["To pause"][0]["paused"] is True
    postgres = exports["Persons to Postgres"][0]
    assert postgres["model"] == "persons" and postgres["interval"] == "every 5 minutes" and postgres["paused"] is False
    assert stored_export(api, postgres["id"])["destination"]["config"]["password"] == PG_PASSWORD


BATCH_EXPORT = ModuleCase(
    module="posthog.admin.batch_export",
    setup=setup_batch_export,
    converge=[
        {"name": "Events to S3", "interval": "hour", "model": "events", "start_at": "2026-01-01T00:00:00Z",
         "destination": S3},
        {"id": "{{ r0.batch_export.id }}", "name": "Events to S3", "end_at": "2027-01-01T00:00:00+00:00"},
        {"name": "To pause", "state": "paused"},
        {"name": "Persons to Postgres", "model": "persons", "interval": "every 5 minutes", "organization": "emulator-org",
         "destination": {"type": "Postgres", "config": {"user": PG_USER, "password": PG_PASSWORD,
                                                        "host": "db.reliability.example", "database": "events"}}},
    ],
    verify=verify_batch_export,
    writes=("POST", "PATCH"),
    create_path=r"/api/organizations/[^/]+/batch_exports/?$",
    secrets=(S3_KEY_ID, S3_SECRET, PG_USER, PG_PASSWORD, INFO_SECRET),
    bad_input=[
        BadInput({"name": "Events to S3", "interval": "fortnightly", "destination": S3},
                 r"interval must be one of: hour, day, week", "unknown interval"),
        BadInput({"name": "   ", "interval": "hour", "destination": S3}, r"name must not be blank", "blank name"),
        BadInput({"name": "Events to S3", "interval": "hour", "destination": {"type": "FTP", "config": {}}},
                 r"type must be one of: ", "unknown destination type"),
        BadInput({"name": "Events to S3", "interval": "hour",
                  "destination": {"type": "HTTP", "config": {"url": "https://eu.i.posthog.com/batch/", "token": INFO_SECRET, "bucket_name": "b"}}},
                 r"destination.config has key\(s\) that destinations of type HTTP do not take: bucket_name",
                 "config key of another type"),
        BadInput({"name": "Events to S3", "start_at": "2026-01-01T00:00:00"}, r"start_at: .* has no timezone",
                 "naive timestamp"),
        BadInput({"name": "Events to S3", "start_at": "2026-02-01T00:00:00Z", "end_at": "2026-01-01T00:00:00Z"},
                 r"start_at \(.*\) must be before end_at", "start after end"),
        BadInput({"name": "Events to S3", "project_id": "first"}, r"project_id must be a project's numeric id",
                 "malformed project id"),
        BadInput({"name": "Nowhere", "interval": "hour"}, r"does not exist; to create it, give destination",
                 "create without destination"),
        BadInput({"id": "not-a-uuid", "name": "Events to S3", "interval": "day"},
                 r"batch export with id not-a-uuid not found in the organization; omit id", "malformed id"),
        BadInput({"name": "Events to S3", "organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
    ],
)


# ------------------------------------------------------------------------- batch_export_info
def setup_batch_export_info(api):
    http_export(api, "Info hourly")
    http_export(api, "Info paused", paused=True)


def verify_batch_export_info(api, results):
    everything = sorted(e["name"] for e in api.list_all(ORG + "/batch_exports/"))
    assert sorted(e["name"] for e in results["r0"]["batch_exports"]) == everything
    assert [e["name"] for e in results["r1"]["batch_exports"]] == ["Info paused"]
    assert [e["name"] for e in results["r2"]["batch_exports"]] == ["Info paused"]


BATCH_EXPORT_INFO = ModuleCase(
    module="posthog.admin.batch_export_info",
    setup=setup_batch_export_info,
    converge=[{}, {"paused": True, "name": "Info paused"},
              {"id": "{{ r1.batch_exports[0].id }}", "organization": "Emulator Org"}],
    verify=verify_batch_export_info,
    secrets=(INFO_SECRET,),
    bad_input=[
        BadInput({"paused": "maybe"}, r"paused.*unable to convert to bool", "not a bool"),
        BadInput({"organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
        BadInput({"colour": "red"}, r"Unsupported parameters.*colour", "unknown option"),
    ],
)


# --------------------------------------------------------------------- batch_export_backfill
WINDOWS = (("2026-01-01T00:00:00Z", "2026-01-02T00:00:00Z"), ("2026-01-03T00:00:00+00:00", "2026-01-04T00:00:00+00:00"))


def setup_backfill(api):
    http_export(api, "Backfilled")


def verify_backfill(api, results, runs):
    exports = [e for e in api.list_all(ORG + "/batch_exports/") if e["name"] == "Backfilled"]
    assert len(exports) == 1
    assert results["r0"]["backfill"]["batch_export_id"] == results["r1"]["backfill"]["batch_export_id"] == exports[0]["id"]
    backfills = stored_export(api, exports[0]["id"])["backfills"]
    windows = by_key(backfills, lambda b: (b["start_at"][:19], b["end_at"][:19]))
    assert sorted(windows) == [("2026-01-01T00:00:00", "2026-01-02T00:00:00"),
                               ("2026-01-03T00:00:00", "2026-01-04T00:00:00")], sorted(windows)
    counts = dict((window, len(found)) for window, found in windows.items())
    assert set(counts.values()) == {runs}, "expected %d backfill(s) per window (one per run), found %s" % (runs, counts)


BATCH_EXPORT_BACKFILL = ModuleCase(
    module="posthog.admin.batch_export_backfill",
    setup=setup_backfill,
    action=True,
    converge=[
        {"name": "Backfilled", "start_at": WINDOWS[0][0], "end_at": WINDOWS[0][1]},
        {"id": "{{ r0.backfill.batch_export_id }}", "start_at": WINDOWS[1][0], "end_at": WINDOWS[1][1],
         "organization": "emulator-org"},
    ],
    verify=verify_backfill,
    writes=("POST",),
    create_path=r"/api/projects/\d+/batch_exports/[^/]+/backfills?/?$",
    secrets=(INFO_SECRET,),
    bad_input=[
        BadInput({"name": "Backfilled", "start_at": WINDOWS[0][0]}, r"missing required arguments: end_at", "no end"),
        BadInput({"name": "Backfilled", "start_at": "last week", "end_at": WINDOWS[0][1]},
                 r"start_at: 'last week' is not an ISO-8601", "not a timestamp"),
        BadInput({"name": "Backfilled", "start_at": "2026-01-01T00:00:00", "end_at": WINDOWS[0][1]},
                 r"start_at: .* has no timezone", "naive timestamp"),
        BadInput({"name": "Backfilled", "start_at": WINDOWS[0][1], "end_at": WINDOWS[0][0]},
                 r"start_at \(.*\) must be before end_at", "start after end"),
        BadInput({"name": "Nothing", "start_at": WINDOWS[0][0], "end_at": WINDOWS[0][1]},
                 r"batch export 'Nothing' not found in the organization", "unknown name"),
        BadInput({"id": "not-a-uuid", "start_at": WINDOWS[0][0], "end_at": WINDOWS[0][1]},
                 r"batch export with id not-a-uuid not found", "malformed id"),
        BadInput({"name": "Backfilled", "start_at": WINDOWS[0][0], "end_at": WINDOWS[0][1], "organization": NO_ORG},
                 NO_ORG_MESSAGE, "unknown organization"),
    ],
)


# --------------------------------------------------------------------------- pipeline_plugin
HELLO_URL = "https://github.com/reliability/posthog-hello"
UPGRADE_URL = "https://github.com/reliability/posthog-upgrade"
DESTINATIONS = ORG + "/pipeline_destinations/"


def register_archive(api, url, tag, name, capabilities=None):
    api.call("POST", "/_emulator/plugin_archives", {
        "url": url, "tag": tag, "files": {"index.ts": "// %s" % tag},
        "plugin_json": {"name": name, "description": "%s at %s" % (name, tag),
                        "capabilities": {"methods": ["onEvent"]} if capabilities is None else capabilities}})


def allow_plugins(api):
    api.call("PUT", "/_emulator/organizations/emulator-org/plugins_access_level", {"plugins_access_level": 6})


def setup_pipeline_plugin(api):
    """Hello at v1 to install; Upgrade installed at v1, then v2 published (state=latest upgrades)."""
    allow_plugins(api)
    register_archive(api, HELLO_URL, "v1", "Reliability hello")
    register_archive(api, UPGRADE_URL, "v1", "Reliability upgrade")
    api.call("POST", DESTINATIONS, {"plugin_type": "custom", "url": UPGRADE_URL})
    register_archive(api, UPGRADE_URL, "v2", "Reliability upgrade")


def verify_pipeline_plugin(api, results):
    destinations = by_key(api.list_all(DESTINATIONS), lambda p: p.get("url") or p["name"])
    assert_once(destinations, [HELLO_URL, UPGRADE_URL], "destination from")
    hello = destinations[HELLO_URL][0]
    assert hello["id"] == results["r0"]["plugin"]["id"]
    assert hello["description"] == "Says hello to every event" and hello["tag"] == "v1"
    assert destinations[UPGRADE_URL][0]["tag"] == "v2"
    apps = by_key(api.list_all(ORG + "/pipeline_frontend_apps/"), lambda p: p["name"])
    assert_once(apps, ["Reliability banner"], "frontend app")
    banner = apps["Reliability banner"][0]
    assert banner["plugin_type"] == "source" and banner["description"] == "Shows a banner", banner


PIPELINE_PLUGIN = ModuleCase(
    module="posthog.admin.pipeline_plugin",
    setup=setup_pipeline_plugin,
    converge=[
        {"family": "destination", "url": HELLO_URL, "description": "Says hello to every event"},
        {"family": "destination", "url": UPGRADE_URL, "state": "latest", "organization": "emulator-org"},
        {"family": "frontend_app", "name": "Reliability banner", "description": "Shows a banner"},
    ],
    verify=verify_pipeline_plugin,
    writes=("POST", "PATCH"),
    create_path=r"/api/organizations/[^/]+/pipeline_destinations/?$",
    bad_input=[
        BadInput({"family": "sink", "url": HELLO_URL}, r"family must be one of: destination, frontend_app, import_app",
                 "unknown family"),
        BadInput({"family": "destination", "id": "first"}, r"id.*unable to convert to int", "id not an int"),
        BadInput({"family": "destination", "url": HELLO_URL, "tag": "v1"}, r"tag cannot be set for a custom plugin",
                 "tag with a URL"),
        BadInput({"family": "import_app", "url": HELLO_URL, "state": "latest"},
                 r"state=latest cannot be used with family=import_app", "latest for import apps"),
        BadInput({"family": "destination", "name": "Mixed", "capabilities": {"scheduled_tasks": ["runEveryMinute"]}},
                 r"put the plugin in family=import_app, not in family=destination", "capabilities of another family"),
        BadInput({"family": "destination", "name": "Bad json", "source_files": {"plugin.json": "{nope"}},
                 r"source_files\['plugin.json'\] is not valid JSON", "plugin.json not JSON"),
        BadInput({"family": "destination", "id": 999999, "description": "x"},
                 r"pipeline destination with id 999999 not found; omit id", "unknown id"),
        BadInput({"family": "destination", "url": HELLO_URL, "organization": NO_ORG}, NO_ORG_MESSAGE,
                 "unknown organization"),
    ],
)


# ---------------------------------------------------------------------- pipeline_plugin_info
INFO_URL = "https://github.com/reliability/posthog-info"


def setup_pipeline_plugin_info(api):
    allow_plugins(api)
    register_archive(api, INFO_URL, "1.0.0", "Reliability info")
    api.call("POST", DESTINATIONS, {"plugin_type": "custom", "url": INFO_URL})


def verify_pipeline_plugin_info(api, results):
    everything = sorted(p["id"] for p in api.list_all(DESTINATIONS))
    assert sorted(p["id"] for p in results["r0"]["plugins"]) == everything
    assert [p["name"] for p in results["r1"]["plugins"]] == ["Reliability info"]
    assert results["r1"]["plugins"][0]["id"] in results["r1"]["unused"]
    assert [p["url"] for p in results["r2"]["plugins"]] == [INFO_URL]


PIPELINE_PLUGIN_INFO = ModuleCase(
    module="posthog.admin.pipeline_plugin_info",
    setup=setup_pipeline_plugin_info,
    converge=[{"family": "destination"},
              {"family": "destination", "url": INFO_URL + "/", "unused": True, "organization": "Emulator Org"},
              {"family": "destination", "id": "{{ r1.plugins[0].id }}"}],
    verify=verify_pipeline_plugin_info,
    bad_input=[
        BadInput({"family": "sink"}, r"family must be one of: destination, frontend_app, import_app", "unknown family"),
        BadInput({}, r"missing required arguments: family", "no family"),
        BadInput({"family": "destination", "id": "first"}, r"id.*unable to convert to int", "id not an int"),
        BadInput({"family": "destination", "activity": True, "activity_limit": 0}, r"activity_limit must be at least 1",
                 "limit zero"),
        BadInput({"family": "import_app", "unused": True}, r"unused cannot be used with family=import_app",
                 "action the family lacks"),
        BadInput({"family": "destination", "organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
    ],
)


# -------------------------------------------------------------------------- event_definition
def ingest(api, *names):
    api.call("POST", "/_emulator/projects/%s/events" % project_id(api), {"events": list(names)})


def setup_event_definition(api):
    ingest(api, "rel_signed_up", "rel_purchase", "rel_old_event")


def definitions_by_name(api):
    return by_key(api.list_all("/api/projects/%s/event_definitions/" % project_id(api)), lambda d: d["name"])


def verify_event_definition(api, results):
    definitions = definitions_by_name(api)
    assert "rel_old_event" not in definitions
    assert_once(definitions, ["rel_signed_up", "rel_purchase"], "event definition")
    signed_up = definitions["rel_signed_up"][0]
    assert signed_up["id"] == results["r0"]["event_definition"]["id"]
    assert signed_up["description"] == "A person signed up"
    assert sorted(signed_up["tags"]) == ["core", "growth"], signed_up["tags"]
    assert signed_up["verified"] is True
    assert (signed_up.get("owner") or {}).get("email") == "admin@example.com", signed_up.get("owner")
    assert definitions["rel_purchase"][0]["hidden"] is True


EVENT_DEFINITION = ModuleCase(
    module="posthog.admin.event_definition",
    setup=setup_event_definition,
    converge=[
        {"name": "rel_signed_up", "description": "A person signed up", "tags": ["growth", "core"], "verified": True},
        {"id": "{{ r0.event_definition.id }}", "name": "rel_signed_up", "owner": "admin@example.com"},
        {"name": "rel_old_event", "state": "absent"},
        {"name": "rel_purchase", "hidden": True, "project_id": "@current"},
    ],
    verify=verify_event_definition,
    writes=("PATCH", "DELETE"),
    bad_input=[
        BadInput({"name": "  "}, r"name must not be blank", "blank name"),
        BadInput({"id": "not-a-uuid"}, r"id must be an event definition's UUID, got 'not-a-uuid'", "malformed id"),
        BadInput({"name": "rel_signed_up", "hidden": True, "verified": True}, r"hidden", "hidden and verified"),
        BadInput({"name": "rel_signed_up", "tags": ["ok", " "]}, r"tags must not contain blank entries", "blank tag"),
        BadInput({"name": "rel_signed_up", "owner": "bob"}, r"owner must be the email address of a member", "owner not an address"),
        BadInput({"name": "rel_signed_up", "project_id": "first"}, r"project_id must be a project's numeric id",
                 "malformed project id"),
        # (An event never ingested is not bad input: PostHog's newest API creates it, and the spec's PostHog,
        # which this emulator plays, refuses the POST with 405 - worded plainly, as the event_definition target
        # and test_event_definition.py check.)
        BadInput({"name": "rel_signed_up", "owner": "ghost@example.com"}, r"owner ghost@example.com is not a member",
                 "owner not a member"),
        BadInput({"name": "rel_signed_up", "description": "x", "project_id": "999999"}, r"project 999999|HTTP 40[34]",
                 "unknown project"),
    ],
)


# --------------------------------------------------------------------- event_definition_info
def setup_event_definition_info(api):
    ingest(api, "info_alpha", "info_beta", "info_gamma")


def verify_event_definition_info(api, results):
    assert [d["name"] for d in results["r0"]["event_definitions"]] == ["info_gamma", "info_beta", "info_alpha"]
    assert [d["name"] for d in results["r1"]["event_definitions"]] == ["info_beta"]
    assert [d["id"] for d in results["r2"]["event_definitions"]] == [definitions_by_name(api)["info_beta"][0]["id"]]


EVENT_DEFINITION_INFO = ModuleCase(
    module="posthog.admin.event_definition_info",
    setup=setup_event_definition_info,
    converge=[{"search": "info_", "ordering": ["-name"]}, {"name": "info_beta", "project_id": "@current"},
              {"id": "{{ r1.event_definitions[0].id }}"}],
    verify=verify_event_definition_info,
    bad_input=[
        BadInput({"event_type": "weird"}, r"event_type must be one of: event, all", "unknown event type"),
        BadInput({"ordering": ["random"]}, r"ordering must be one or more of: name, -name", "unknown ordering"),
        BadInput({"id": "not-a-uuid"}, r"id must be an event definition's UUID", "malformed id"),
        BadInput({"project_id": "first"}, r"project_id must be a project's numeric id", "malformed project id"),
        BadInput({"exclude_hidden": "maybe"}, r"exclude_hidden.*unable to convert to bool", "not a bool"),
    ],
)


# ------------------------------------------------------------------------------------ project
WEBHOOK = "https://hooks.slack.example/services/T000/B000/reliability-webhook-secret-0004"


def setup_project(api):
    grant(api, "organizations_projects")


def verify_project(api, results):
    named = by_key(api.list_all(ORG + "/projects/"), lambda p: p["name"])
    assert_once(named, ["Reliability Web"], "project")
    project = api.get(ORG + "/projects/%s/" % named["Reliability Web"][0]["id"])
    assert project["id"] == results["r0"]["project"]["id"] == results["r1"]["project"]["id"]
    assert project["timezone"] == "Europe/Paris" and project["anonymize_ips"] is True
    assert sorted(project["app_urls"]) == ["https://reliability.example", "https://www.reliability.example"]
    assert project["session_recording_sample_rate"] == "0.50"
    assert project["slack_incoming_webhook"] == WEBHOOK


PROJECT = ModuleCase(
    module="posthog.admin.project",
    setup=setup_project,
    converge=[
        {"name": "Reliability Web", "timezone": "Europe/Paris", "anonymize_ips": True,
         "app_urls": ["https://reliability.example", "https://www.reliability.example"],
         "slack_incoming_webhook": WEBHOOK},
        {"id": "{{ r0.project.id }}", "name": "Reliability Web", "session_recording_sample_rate": 0.5,
         "organization": "Emulator Org"},
    ],
    verify=verify_project,
    writes=("POST", "PATCH"),
    create_path=r"/api/organizations/[^/]+/projects/?$",
    secrets=(WEBHOOK,),
    bad_input=[
        BadInput({"name": "Reliability Web", "state": "absent"}, r"set confirm_delete: true", "unconfirmed delete"),
        BadInput({"name": "   "}, r"name must be 1 to 200 characters", "blank name"),
        BadInput({"id": "web", "anonymize_ips": True}, r"id must be a project's numeric id", "malformed id"),
        BadInput({"id": "99999", "anonymize_ips": True}, r"project with id 99999 not found; omit id", "unknown id"),
        BadInput({"name": "Reliability Web", "session_recording_sample_rate": 2}, r"from 0 to 1", "sample rate"),
        BadInput({"name": "Reliability Web", "week_start_day": "friday"}, r"week_start_day must be one of",
                 "unknown week day"),
        BadInput({"name": "Reliability Web", "organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
    ],
)


# ------------------------------------------------------------------------------- project_info
# No setup creates a project: creating one makes it the key's current project, and the TLS test runs
# every setup before the modules that use the @current project.
def verify_project_info(api, results):
    everything = sorted(p["id"] for p in api.list_all(ORG + "/projects/"))
    assert sorted(p["id"] for p in results["r0"]["projects"]) == everything
    assert [(p["name"], p["timezone"]) for p in results["r1"]["projects"]] == [("Default project", "UTC")]
    assert "app_urls" in results["r1"]["projects"][0]  # read whole
    assert [p["id"] for p in results["r2"]["projects"]] == [results["r1"]["projects"][0]["id"]]


PROJECT_INFO = ModuleCase(
    module="posthog.admin.project_info",
    converge=[{}, {"name": "DEFAULT project"}, {"id": "{{ r1.projects[0].id }}"}],
    verify=verify_project_info,
    bad_input=[
        BadInput({"colour": "red"}, r"Unsupported parameters.*colour", "unknown option"),
        BadInput({"organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
    ],
)


# ------------------------------------------------------------------------------- proxy_record
PROXY = "proxy.reliability.example"


def setup_proxy_record(api):
    """A record whose CNAME is published, so waiting for it ends valid."""
    grant(api, {"key": "managed_reverse_proxy", "limit": 10})
    made = api.call("POST", ORG + "/proxy_records/", {"domain": "live." + PROXY})
    api.call("POST", "/_emulator/dns", {"name": "live." + PROXY, "type": "CNAME", "value": made["target_cname"]})


def verify_proxy_record(api, results):
    records = by_key([r for r in api.get(ORG + "/proxy_records/")["results"] if r["domain"].endswith(PROXY)],
                     lambda r: r["domain"])
    assert sorted(records) == ["live." + PROXY, "new." + PROXY], sorted(records)
    assert_once(records, records, "proxy record")
    assert records["new." + PROXY][0]["id"] == results["r0"]["proxy_record"]["id"] == results["r2"]["proxy_record"]["id"]
    assert records["live." + PROXY][0]["status"] == "valid"
    assert results["r1"]["proxy_record"]["status"] == "valid"
    assert results["r0"]["proxy_record"]["dns_record"]["value"] == records["new." + PROXY][0]["target_cname"]


PROXY_RECORD = ModuleCase(
    module="posthog.admin.proxy_record",
    setup=setup_proxy_record,
    converge=[
        {"domain": "new." + PROXY},
        {"domain": "Live.Proxy.Reliability.Example.", "wait": True, "wait_interval": 1, "wait_timeout": 60},
        {"id": "{{ r0.proxy_record.id }}", "organization": "emulator-org"},
    ],
    verify=verify_proxy_record,
    writes=("POST",),
    create_path=r"/api/organizations/[^/]+/proxy_records/?$",
    bad_input=[
        BadInput({"domain": ""}, r"domain must not be empty", "empty domain"),
        BadInput({"domain": "https://x." + PROXY}, r"no scheme, path", "a URL"),
        BadInput({"domain": "x" * 60 + "." + PROXY}, r"PostHog accepts at most 64", "too long"),
        BadInput({"domain": "x." + PROXY, "wait_interval": 0}, r"wait_interval must be at least 1 second",
                 "interval zero"),
        BadInput({"id": "not-a-uuid"}, r"proxy record with id not-a-uuid not found; omit id", "malformed id"),
        BadInput({"domain": "x." + PROXY, "organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
    ],
)


# -------------------------------------------------------------------------- proxy_record_info
def setup_proxy_record_info(api):
    grant(api, {"key": "managed_reverse_proxy", "limit": 10})
    for name in ("a.info-proxy.example", "b.info-proxy.example"):
        api.call("POST", ORG + "/proxy_records/", {"domain": name})


def verify_proxy_record_info(api, results):
    everything = sorted(r["domain"] for r in api.get(ORG + "/proxy_records/")["results"])
    assert sorted(r["domain"] for r in results["r0"]["proxy_records"]) == everything
    assert [r["domain"] for r in results["r1"]["proxy_records"]] == ["a.info-proxy.example"]
    assert results["r1"]["proxy_records"][0]["dns_record"]["record_type"] == "CNAME"
    assert [r["id"] for r in results["r2"]["proxy_records"]] == [results["r1"]["proxy_records"][0]["id"]]


PROXY_RECORD_INFO = ModuleCase(
    module="posthog.admin.proxy_record_info",
    setup=setup_proxy_record_info,
    converge=[{}, {"domain": "A.info-proxy.example."}, {"id": "{{ r1.proxy_records[0].id }}"}],
    verify=verify_proxy_record_info,
    bad_input=[
        BadInput({"colour": "red"}, r"Unsupported parameters.*colour", "unknown option"),
        BadInput({"organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
    ],
)


# ------------------------------------------------------------------------ organization_state
STATE_ORG = "State Org"
STATE_SECRET = "reliability-state-s3-secret-0004"
STATE_DOCUMENT = {
    "name": STATE_ORG,
    "settings": {"enforce_2fa": True},
    "domains": [{"domain": "state.reliability.example"}],
    "roster": {"people": [{"email": "ops@state.reliability.example", "level": "admin"},
                          {"email": "dev@state.reliability.example"}]},
    "batch_exports": [
        {"name": "State to S3", "interval": "hour",
         "destination": {"type": "S3", "config": {"bucket_name": "state", "region": "eu-west-1", "prefix": "e/",
                                                  "aws_access_key_id": S3_KEY_ID,
                                                  "aws_secret_access_key": STATE_SECRET}}},
        {"name": "State paused", "interval": "day", "state": "paused", "destination": {"type": "NoOp"}},
    ],
}


def verify_organization_state(api, results):
    named = [o for o in api.list_all("/api/organizations/") if o["name"] == STATE_ORG]
    assert len(named) == 1, "expected one organization named %r, found %d" % (STATE_ORG, len(named))
    org = "/api/organizations/%s" % named[0]["id"]
    assert named[0]["enforce_2fa"] is True
    assert_once(by_key(api.list_all(org + "/domains/"), lambda d: d["domain"]), ["state.reliability.example"], "domain")
    invites = by_key(api.list_all(org + "/invites/"), lambda i: i["target_email"])
    assert_once(invites, ["ops@state.reliability.example", "dev@state.reliability.example"], "invite")
    exports = by_key(api.list_all(org + "/batch_exports/"), lambda e: e["name"])
    assert_once(exports, ["State to S3", "State paused"], "batch export")
    assert exports["State paused"][0]["paused"] is True
    s3 = stored_export(api, exports["State to S3"][0]["id"])
    assert s3["destination"]["config"]["aws_secret_access_key"] == STATE_SECRET
    assert results["r0"]["organization"]["id"] == named[0]["id"]


ORGANIZATION_STATE = ModuleCase(
    module="posthog.admin.organization_state",
    name="organization_state_in_worker",
    task_vars=WORKER,
    converge=[{"definition": STATE_DOCUMENT}],
    verify=verify_organization_state,
    writes=("POST",),
    create_path=r"/api/organizations/?$",
    secrets=(S3_KEY_ID, STATE_SECRET),
    bad_input=[
        # refused arguments print them as invocation: the document's secrets must be masked there too
        BadInput(dict(definition=STATE_DOCUMENT, prune="maybe"), r"prune.*unable to convert to bool", "prune maybe"),
        BadInput(dict(definition=dict(STATE_DOCUMENT, batch_exports=STATE_DOCUMENT["batch_exports"][0])),
                 r"batch_exports.*cannot be converted to a list", "a section given as a dict"),
        BadInput(dict(definition=STATE_DOCUMENT, definition_file="acme.yml"),
                 r"mutually exclusive: definition\|definition_file", "definition and definition_file"),
        BadInput({"definition": {"name": STATE_ORG, "domains": [{"domain": "a@b.example"}]}},
                 r"domains\[0\] \(domain 'a@b.example'\): domain 'a@b.example' looks like an e-mail", "bad domain"),
        BadInput({"definition": {"name": STATE_ORG, "batch_exports": [{"name": "x", "interval": "fortnightly"}]}},
                 r"batch_exports\[0\] .*interval must be one of", "bad interval"),
        BadInput({"definition": {"settings": {"enforce_2fa": True}}}, r"definition needs the organization's name or id",
                 "no name"),
        BadInput({"definition": {"name": STATE_ORG, "roster": {"people": [{"email": "a@b.example", "level": "boss"}]}}},
                 r"roster: value of level must be one of", "bad level"),
        BadInput({"definition": {"name": STATE_ORG, "colour": "blue"}}, r"unknown key\(s\) colour", "unknown key"),
    ],
)


# The same case as a module process (posthog_admin_in_process: false): each test runs it both ways.
ORGANIZATION_STATE_MODULE_PROCESS = replace(ORGANIZATION_STATE, name="organization_state_module_process",
                                            task_vars=MODULE_PROCESS)


def verify_organization_state_info(api, results):
    definition = results["r0"]["definition"]
    assert definition["name"] == "Emulator Org"
    assert [p["email"] for p in definition["roster"]["people"]] == sorted(
        m["user"]["email"] for m in api.list_all(ORG + "/members/"))


ORGANIZATION_STATE_INFO = ModuleCase(
    module="posthog.admin.organization_state_info",
    converge=[{}],
    verify=verify_organization_state_info,
    bad_input=[
        BadInput({"organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
        BadInput({"dest": "/nonexistent-dir/x.yml"}, r"dest /nonexistent-dir/x.yml: cannot write it, the directory /nonexistent-dir "
                 r"does not exist", "dest in a missing directory"),
    ],
)


# ------------------------------------------------------------- list options (more rows)
# The list option of each state module, besides DOMAINS (in MODULES): run by the commit-then-5xx
# test of test_reliability.py, which needs a create, an update and a delete of each list.
LIST_EXPORT_S3 = {"type": "S3", "config": {"bucket_name": "list-bucket", "region": "eu-west-1", "prefix": "list/",
                                           "aws_access_key_id": S3_KEY_ID, "aws_secret_access_key": S3_SECRET}}


def setup_batch_exports(api):
    http_export(api, "List to pause")
    http_export(api, "List to delete")


def verify_batch_exports(api, results):
    exports = by_key([e for e in api.list_all(ORG + "/batch_exports/") if e["name"].startswith("List ")],
                     lambda e: e["name"])
    assert sorted(exports) == ["List S3", "List to pause"], sorted(exports)
    assert_once(exports, exports, "batch export")
    s3 = exports["List S3"][0]
    assert s3["interval"] == "hour" and s3["paused"] is False and s3["end_at"].startswith("2027-01-01T00:00:00")
    assert exports["List to pause"][0]["paused"] is True


BATCH_EXPORTS = ModuleCase(
    module="posthog.admin.batch_export",
    name="batch_export_list",
    setup=setup_batch_exports,
    converge=[
        {"batch_exports": [{"name": "List S3", "destination": LIST_EXPORT_S3},
                           {"name": "List to pause", "state": "paused"},
                           {"name": "List to delete", "state": "absent"}],
         "interval": "hour"},
        {"batch_exports": [{"name": "List S3", "end_at": "2027-01-01T00:00:00+00:00"}]},
    ],
    verify=verify_batch_exports,
    create_path=r"/api/organizations/[^/]+/batch_exports/?$",
    secrets=(S3_KEY_ID, S3_SECRET, INFO_SECRET),
)

LIST_A_URL = "https://github.com/reliability/list-alpha"
LIST_B_URL = "https://github.com/reliability/list-beta"
LIST_OLD_URL = "https://github.com/reliability/list-old"


def setup_plugins(api):
    allow_plugins(api)
    register_archive(api, LIST_A_URL, "v1", "List alpha")
    register_archive(api, LIST_B_URL, "v1", "List beta")
    register_archive(api, LIST_OLD_URL, "v1", "List old")
    api.call("POST", DESTINATIONS, {"plugin_type": "custom", "url": LIST_OLD_URL})


def verify_plugins(api, results):
    destinations = by_key([p for p in api.list_all(DESTINATIONS) if p["name"].startswith("List ")],
                          lambda p: p["name"])
    assert sorted(destinations) == ["List alpha", "List beta"], sorted(destinations)
    assert_once(destinations, destinations, "destination")
    assert destinations["List alpha"][0]["description"] == "Alpha, described"
    assert destinations["List beta"][0]["url"] == LIST_B_URL


PIPELINE_PLUGINS = ModuleCase(
    module="posthog.admin.pipeline_plugin",
    name="pipeline_plugin_list",
    setup=setup_plugins,
    converge=[
        {"family": "destination", "plugins": [{"url": LIST_A_URL}, {"url": LIST_B_URL},
                                              {"name": "List old", "state": "absent"}]},
        {"family": "destination", "plugins": [{"url": LIST_A_URL, "description": "Alpha, described"}]},
    ],
    verify=verify_plugins,
    create_path=r"/api/organizations/[^/]+/pipeline_destinations/?$",
)


def setup_event_definitions(api):
    ingest(api, "list_alpha", "list_beta", "list_gone")


def verify_event_definitions(api, results):
    definitions = definitions_by_name(api)
    assert "list_gone" not in definitions
    assert_once(definitions, ["list_alpha", "list_beta"], "event definition")
    alpha = definitions["list_alpha"][0]
    assert alpha["description"] == "Alpha happened" and alpha["hidden"] is True
    assert definitions["list_beta"][0]["verified"] is True
    assert sorted(definitions["list_beta"][0]["tags"]) == ["list"]


EVENT_DEFINITIONS = ModuleCase(
    module="posthog.admin.event_definition",
    name="event_definition_list",
    setup=setup_event_definitions,
    converge=[
        {"event_definitions": [{"name": "list_alpha", "description": "Alpha happened"},
                               {"name": "list_beta", "verified": True},
                               {"name": "list_gone", "state": "absent"}],
         "tags": ["list"]},
        {"event_definitions": [{"name": "list_alpha", "hidden": True}]},
    ],
    verify=verify_event_definitions,
)

LIST_CASES = [BATCH_EXPORTS, PIPELINE_PLUGINS, EVENT_DEFINITIONS]


# ------------------------------------------------------------------------ integration_info
INTEGRATION_SECRET = "reliability-integration-secret-0004"


def setup_integration_info(api):
    api.call("POST", "/api/projects/%s/integrations/" % project_id(api), {
        "kind": "aws-s3", "config": {"name": "reliability-aws", "aws_access_key_id": "AKIARELIABILITY0004",
                                     "aws_secret_access_key": INTEGRATION_SECRET}})
    api.call("POST", "/_emulator/projects/%s/integrations" % project_id(api),
             {"kind": "slack", "integration_id": "T-RELIABILITY", "config": {"name": "Reliability Slack"}})


def verify_integration_info(api, results):
    listed = api.list_all("/api/projects/%s/integrations/" % project_id(api))
    assert [i["id"] for i in results["r0"]["integrations"]] == [i["id"] for i in listed]
    assert [i["name"] for i in results["r1"]["integrations"]] == ["reliability-aws"]
    assert [i["kind"] for i in results["r2"]["integrations"]] == ["slack"]


INTEGRATION_INFO = ModuleCase(
    module="posthog.admin.integration_info",
    setup=setup_integration_info,
    converge=[{}, {"kind": "aws-s3", "name": "reliability-aws"}, {"name": "Reliability Slack", "project_id": "@current"}],
    verify=verify_integration_info,
    secrets=(INTEGRATION_SECRET,),
    bad_input=[
        BadInput({"project_id": "first"}, r"project_id must be a project's numeric id", "malformed project id"),
        BadInput({"colour": "red"}, r"Unsupported parameters.*colour", "unknown option"),
    ],
)


# ---------------------------------------------------------------- identity_provider_config
IDP_DOMAIN = "idp.reliability.example"
OIDC_SECRET = "reliability-oidc-client-secret-0005"


def setup_identity_provider_config(api):
    """PostHog's newest identity provider configurations, and a verified domain for them."""
    api.call("PUT", "/_emulator/generations", {"identity_providers": "newest"})
    grant(api, "oidc")  # PostHog gates OIDC by plan (issue 27.3)
    made = api.call("POST", ORG + "/domains/", {"domain": IDP_DOMAIN})
    api.call("POST", "/_emulator/dns", {"name": "_posthog-challenge." + IDP_DOMAIN,
                                        "value": made["verification_challenge"]})
    api.call("POST", ORG + "/domains/%s/verify/" % made["id"], {})


def configs_by_name(api):
    return by_key(api.list_all(ORG + "/identity_provider_configs/"), lambda c: c["name"])


def verify_identity_provider_config(api, results):
    configs = configs_by_name(api)
    assert sorted(configs) == ["Reliability OIDC", "Reliability SAML"], sorted(configs)
    assert_once(configs, configs, "identity provider configuration")
    saml = configs["Reliability SAML"][0]
    assert saml["id"] == results["r0"]["identity_provider_config"]["id"] == results["r1"]["identity_provider_config"]["id"]
    assert saml["has_saml"] is True and len(saml["organization_domain_ids"]) == 1
    oidc = configs["Reliability OIDC"][0]
    assert oidc["has_oidc"] is True and oidc["domain_scope"] == "all"


IDENTITY_PROVIDER_CONFIG = ModuleCase(
    module="posthog.admin.identity_provider_config",
    setup=setup_identity_provider_config,
    converge=[
        {"name": "Reliability SAML", "config_scope": "saml", "domains": [IDP_DOMAIN],
         "saml_entity_id": "https://idp.reliability.example/entity", "saml_acs_url": "https://idp.reliability.example/sso"},
        {"id": "{{ r0.identity_provider_config.id }}", "saml_x509_cert": SAML_CERT},
        {"name": "Reliability OIDC", "config_scope": "oidc", "domain_scope": "all", "organization": "emulator-org",
         "oidc_issuer_url": "https://login.reliability.example", "oidc_client_id": "posthog",
         "oidc_client_secret": OIDC_SECRET},
    ],
    verify=verify_identity_provider_config,
    writes=("POST", "PATCH"),
    create_path=r"/api/organizations/[^/]+/identity_provider_configs/?$",
    secrets=(OIDC_SECRET,),
    bad_input=[
        BadInput({"name": "x", "config_scope": "ldap"}, r"config_scope must be one of: saml, oidc, scim, xaa",
                 "unknown scope"),
        BadInput({"name": "x", "config_scope": "saml", "oidc_client_id": "y"}, r"need config_scope: oidc",
                 "OIDC on a SAML configuration"),
        BadInput({"name": "x", "config_scope": "oidc", "oidc_issuer_url": "http://login.example"},
                 r"oidc_issuer_url must be an HTTPS URL", "plain HTTP issuer"),
        BadInput({"name": "x", "config_scope": "saml", "domains": ["nowhere.reliability.example"]},
                 r"are not domains of the organization", "unknown domain"),
        BadInput({"name": "Nothing"}, r"give config_scope", "create without a scope"),
        BadInput({"name": "x", "domain_scope": "all", "domains": [IDP_DOMAIN]}, r"cannot be given with domain_scope: all",
                 "all and a list"),
        BadInput({"name": "x", "organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
    ],
)


# ----------------------------------------------------------- identity_provider_config_info
def setup_identity_provider_config_info(api):
    api.call("PUT", "/_emulator/generations", {"identity_providers": "newest"})
    for body in ({"name": "Info SAML", "config_scope": "saml"}, {"name": "Info SCIM", "config_scope": "scim"}):
        api.call("POST", ORG + "/identity_provider_configs/", body)


def verify_identity_provider_config_info(api, results):
    everything = [c["name"] for c in api.list_all(ORG + "/identity_provider_configs/")]
    assert [c["name"] for c in results["r0"]["identity_provider_configs"]] == everything
    assert [c["name"] for c in results["r1"]["identity_provider_configs"]] == ["Info SCIM"]


IDENTITY_PROVIDER_CONFIG_INFO = ModuleCase(
    module="posthog.admin.identity_provider_config_info",
    setup=setup_identity_provider_config_info,
    converge=[{}, {"config_scope": "scim", "organization": "Emulator Org"}],
    verify=verify_identity_provider_config_info,
    bad_input=[
        BadInput({"config_scope": "ldap"}, r"config_scope must be one of", "unknown scope"),
        BadInput({"organization": NO_ORG}, NO_ORG_MESSAGE, "unknown organization"),
    ],
)


# ----------------------------------------------------------------------------- hog_function
HOG_SECRET = "reliability-customerio-token-0006"


def setup_hog_functions(api):
    """PostHog's newest hog functions beside the spec's shapes."""
    api.call("PUT", "/_emulator/generations", {"hog_functions": "newest"})


def hog_functions_by_name(api):
    path = "/api/projects/%s/hog_functions/?full=true&type=destination,transformation" % project_id(api)
    return by_key(api.list_all(path), lambda f: f["name"])


def verify_hog_function(api, results):
    functions = hog_functions_by_name(api)
    assert_once(functions, ["Reliability CIO", "Reliability GeoIP"], "hog function")
    cio = functions["Reliability CIO"][0]
    assert cio["id"] == results["r0"]["hog_function"]["id"] == results["r1"]["hog_function"]["id"]
    assert cio["enabled"] is True and cio["inputs"]["token"] == {"secret": True}
    assert cio["inputs"]["site_id"]["value"] == "reliability-site"
    assert functions["Reliability GeoIP"][0]["execution_order"] == 3


HOG_FUNCTION = ModuleCase(
    module="posthog.admin.hog_function",
    setup=setup_hog_functions,
    converge=[
        {"name": "Reliability CIO", "template_id": "template-customerio", "inputs": {"site_id": "reliability-site"},
         "secret_inputs": {"token": HOG_SECRET}},
        {"id": "{{ r0.hog_function.id }}", "enabled": True},
        {"type": "transformation", "hog_functions": [{"name": "Reliability GeoIP", "template_id": "template-geoip",
                                                      "execution_order": 3}]},
    ],
    verify=verify_hog_function,
    writes=("POST", "PATCH"),
    create_path=r"/api/projects/[^/]+/hog_functions/?$",
    secrets=(HOG_SECRET,),
    bad_input=[
        BadInput({"name": "x", "template_id": "template-customerio", "inputs": {"region": "eu"}},
                 r"region are not in the function's inputs schema \(its keys: .*site_id", "input outside the schema"),
        BadInput({"name": "x", "masking": {"ttl": 1, "hash": "h"}}, r"masking.ttl must be a number of seconds",
                 "masking ttl"),
        BadInput({"name": "x"}, r"to create it, give template_id or hog", "neither hog nor template"),
        BadInput({"id": "nope"}, r"id must be a hog function's UUID", "malformed id"),
        BadInput({"name": "x", "type": "plugin"}, r"type must be one of", "unknown type"),
    ],
)


# ------------------------------------------------------------------------------ access_control
AC_EMAIL = "ac@reliability.example"
AC_ROLE = "Reliability AC"


def setup_access_control(api):
    """PostHog's newest access control, role-based access on the plan, a member and a role."""
    api.call("PUT", "/_emulator/generations", {"access_control": "newest"})
    grant(api, "role_based_access")
    join(api, AC_EMAIL)
    api.call("POST", ORG + "/roles/", {"name": AC_ROLE})


def rules_of(api, name):
    return api.call("GET", "/api/projects/%s/%s/" % (project_id(api), name), expect=(200,))["access_controls"]


def verify_access_control(api, results):
    project = rules_of(api, "access_controls")
    member_id = members_by_email(api)[AC_EMAIL][0]["id"]
    assert sorted((r["organization_member"] or "", r["access_level"]) for r in project) == sorted(
        [("", "member"), (member_id, "admin")]), project
    resources = rules_of(api, "resource_access_controls")
    assert sorted((r["resource"], r["access_level"], bool(r["role"])) for r in resources) == [
        ("dashboard", "viewer", True), ("feature_flag", "editor", False)], resources
    assert results["r1"]["access_control"]["resource"] == "feature_flag"


ACCESS_CONTROL = ModuleCase(
    module="posthog.admin.access_control",
    setup=setup_access_control,
    converge=[
        {"rules": [{"access_level": "member"}, {"member": AC_EMAIL, "access_level": "admin"},
                   {"resource": "dashboard", "role": AC_ROLE, "access_level": "viewer"}]},
        {"resource": "feature_flag", "access_level": "editor"},
    ],
    verify=verify_access_control,
    writes=("PUT",),
    bad_input=[
        BadInput({"access_level": "viewer"}, r"not a level of project", "resource level on the project"),
        BadInput({"resource": "toolbar", "access_level": "editor"}, r"cannot be above 'viewer'", "above the maximum"),
        BadInput({"role": AC_ROLE, "member": AC_EMAIL, "access_level": "none"}, r"mutually exclusive",
                 "role and member"),
        BadInput({"member": "nobody@reliability.example", "access_level": "admin"},
                 r"is not a member of the organization", "a stranger"),
        BadInput({"purge": True, "access_level": "none"}, r"give the list as rules", "purge without a list"),
    ],
)


# -------------------------------------------------------------------------- access_control_info
def verify_access_control_info(api, results):
    assert [r["resource"] for r in results["r0"]["access_controls"]] == ["project", "survey"]
    assert results["r1"]["access_controls"][0]["member_email"] == AC_INFO_EMAIL
    assert AC_INFO_EMAIL in [u["email"] for u in results["r1"]["users_with_access"]]


AC_INFO_EMAIL = "ac-info@reliability.example"


def setup_access_control_info(api):
    api.call("PUT", "/_emulator/generations", {"access_control": "newest"})
    join(api, AC_INFO_EMAIL)
    member_id = members_by_email(api)[AC_INFO_EMAIL][0]["id"]
    base = "/api/projects/%s/" % project_id(api)
    api.call("PUT", base + "access_controls/", {"access_level": "admin", "organization_member": member_id})
    api.call("PUT", base + "resource_access_controls/", {"resource": "survey", "access_level": "viewer"})


ACCESS_CONTROL_INFO = ModuleCase(
    module="posthog.admin.access_control_info",
    setup=setup_access_control_info,
    converge=[{}, {"resource": "project", "users_with_access": True}],
    verify=verify_access_control_info,
    bad_input=[
        BadInput({"project_id": "first"}, r"project_id must be a project's numeric id", "malformed project id"),
    ],
)


# The TLS test runs every first task in this order on one server. The roster purges everyone
# unlisted: it comes after the other people modules (roles included: they need their members).
# Creating a project makes it the key's current project, and creating an organization its current
# organization (as in PostHog): project comes after every module that uses the @current project,
# organization last, after every module that uses @current.
MODULES = [DOMAIN, DOMAINS, DOMAIN_INFO, INVITE, INVITE_INFO, MEMBER, MEMBER_INFO, ROLE, ROLE_INFO, ACCESS_CONTROL,
           ACCESS_CONTROL_INFO, ROSTER, ROSTER_ROLES,
           BATCH_EXPORT, BATCH_EXPORT_INFO, BATCH_EXPORT_BACKFILL, PIPELINE_PLUGIN, PIPELINE_PLUGIN_INFO,
           EVENT_DEFINITION, EVENT_DEFINITION_INFO, INTEGRATION_INFO, IDENTITY_PROVIDER_CONFIG,
           IDENTITY_PROVIDER_CONFIG_INFO, HOG_FUNCTION, ORGANIZATION_STATE_INFO, PROJECT_INFO,
           PROJECT, PROXY_RECORD, PROXY_RECORD_INFO, ORGANIZATION_INFO, ORGANIZATION, ORGANIZATION_STATE,
           ORGANIZATION_STATE_MODULE_PROCESS]


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
