"""Paid features of an organization (``Organization.available_product_features``): what billing
grants on PostHog Cloud, what a licence grants on self-hosted PostHog.

An entry is ``{"key": "<feature>", "name": "...", "limit": <int or null>, ...}``; ``limit`` caps
something countable (projects, proxy records) and ``null`` means no cap. Emulator organizations
start with none; a test grants them with ``PUT /_emulator/organizations/<org>/features``.
"""

from posthog_emulator.rules import RuleError

ORGANIZATIONS_PROJECTS = "organizations_projects"
MANAGED_REVERSE_PROXY = "managed_reverse_proxy"
ORGANIZATION_INVITE_SETTINGS = "organization_invite_settings"


def available_feature(organization, key: str) -> dict | None:
    """``Organization.get_available_feature``: the entry of ``key``, or None when not granted."""
    for item in organization.available_product_features or []:
        if isinstance(item, dict) and item.get("key") == key:
            return item
    return None


def parse_features(value, attr: str = "available_product_features") -> list[dict]:
    """Entries for ``available_product_features`` from a control body: each a feature key, or an
    object with ``key`` (and ``limit``, ``name`` ...)."""
    if not isinstance(value, list):
        raise RuleError("Expected a list of features: keys, or objects with a key and a limit.", attr=attr)
    features = []
    for index, item in enumerate(value):
        if isinstance(item, str) and item:
            item = {"key": item}
        if not isinstance(item, dict) or not isinstance(item.get("key"), str) or not item["key"]:
            raise RuleError("Each feature is a key or an object with a key.", attr=f"{attr}__{index}")
        limit = item.get("limit")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
            raise RuleError("A limit is a whole number of 0 or more, or null for none.", attr=f"{attr}__{index}")
        features.append({"name": item["key"].replace("_", " ").capitalize(), **item, "limit": limit})
    return features
