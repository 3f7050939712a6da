"""Pipeline plugins in three families (spec 2.8 / 4.6, docs/posthog_facts.md §6)."""

import json

import pytest

from posthog_emulator import profiles
from posthog_emulator.models import Organization, Plugin, PluginActivity, PluginSourceFile
from tests.conftest import authed, error

DEST = "pipeline_destinations"
FRONT = "pipeline_frontend_apps"
IMPORT = "pipeline_import_apps"
HELLO_URL = "https://github.com/acme/posthog-hello-plugin"

SPEC_FIELDS = {
    "id", "plugin_type", "name", "description", "url", "icon", "config_schema", "tag", "latest_tag",
    "is_global", "organization_id", "organization_name", "capabilities", "metrics", "public_jobs",
}  # fmt: skip


def base(boot, family=DEST, organization=None):
    return f"/api/organizations/{organization or boot.organization.id}/{family}/"


def set_level(client, organization, level):
    response = client.put(
        f"/_emulator/organizations/{organization}/plugins_access_level",
        {"plugins_access_level": level},
        format="json",
    )
    assert response.status_code == 200, response.content
    return response.json()


def register(client, url=HELLO_URL, tag="v1", name="Hello", capabilities=None, files=None, **extra):
    plugin_json = {"name": name, "description": f"{name} {tag}", "config": [{"key": "greeting", "type": "string"}]}
    plugin_json["capabilities"] = {"methods": ["onEvent"]} if capabilities is None else capabilities
    plugin_json.update(extra.pop("plugin_json", {}))
    body = {"url": url, "tag": tag, "plugin_json": plugin_json, "files": files or {"index.ts": f"// {tag}"}, **extra}
    response = client.post("/_emulator/plugin_archives", body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


@pytest.fixture
def installer(boot, client):
    """The bootstrap organization with plugin installation allowed (level 6)."""
    set_level(client, boot.organization.id, 6)
    return boot


def source_plugin(api, boot, family=DEST, name="My source", capabilities=None, **fields):
    body = {"plugin_type": "source", "name": name, **fields}
    body["capabilities"] = {"methods": ["onEvent"]} if capabilities is None else capabilities
    response = api.post(base(boot, family), body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


# ------------------------------------------------------------------ control API


@pytest.mark.parametrize("value", [3.0, 6.5, "6", True, None, [6]])
def test_access_level_control_takes_integers_only(client, boot, value):
    url = f"/_emulator/organizations/{boot.organization.id}/plugins_access_level"
    response = client.put(url, {"plugins_access_level": value}, format="json")
    assert response.status_code == 400, response.content
    assert error(response)["code"] == "invalid_choice" and error(response)["attr"] == "plugins_access_level"
    assert client.get(url).json()["plugins_access_level"] == 3


def test_access_level_control(client, boot):
    assert set_level(client, boot.organization.id, "root")["plugins_access_level"] == 9
    assert set_level(client, "emulator-org", 0)["plugins_access_level"] == 0
    assert (
        client.get(f"/_emulator/organizations/{boot.organization.id}/plugins_access_level").json()[
            "plugins_access_level"
        ]
        == 0
    )
    bad = client.put(
        f"/_emulator/organizations/{boot.organization.id}/plugins_access_level",
        {"plugins_access_level": 5},
        format="json",
    )
    assert bad.status_code == 400 and error(bad)["attr"] == "plugins_access_level"
    missing = client.put(
        "/_emulator/organizations/nope/plugins_access_level", {"plugins_access_level": 9}, format="json"
    )
    assert missing.status_code == 404


def test_archive_registration_validation(client, boot):
    bad_url = client.post(
        "/_emulator/plugin_archives",
        {"url": "https://example.com/x", "tag": "v1", "plugin_json": {"name": "x"}},
        format="json",
    )
    assert bad_url.status_code == 400
    assert error(bad_url)["detail"] == "Must be a GitHub/GitLab repository or a npm package URL!"
    no_name = client.post(
        "/_emulator/plugin_archives", {"url": HELLO_URL, "tag": "v1", "plugin_json": {}}, format="json"
    )
    assert no_name.status_code == 400 and error(no_name)["attr"] == "plugin_json"
    first = register(client, tag="v1")
    second = register(client, tag="v2")
    assert first["latest"] is True and second["latest"] is True
    listed = client.get("/_emulator/plugin_archives").json()
    assert [(a["tag"], a["latest"]) for a in listed] == [("v1", False), ("v2", True)]


# ------------------------------------------------------------------ access levels


def test_default_level_is_cloud_config(api, boot):
    assert boot.organization.plugins_access_level == 3
    assert api.get(base(boot)).status_code == 200
    response = api.post(base(boot), {"plugin_type": "source", "name": "x"}, format="json")
    assert response.status_code == 403
    assert error(response)["detail"] == "Your organization's plugin access level is insufficient."


def test_level_none_refuses_reads(api, boot, client):
    set_level(client, boot.organization.id, 0)
    response = api.get(base(boot))
    assert response.status_code == 403
    assert error(response)["detail"] == "Your organization's plugin access level is insufficient."


def test_global_needs_root(api, installer, client):
    response = api.post(
        base(installer),
        {"plugin_type": "source", "name": "g", "is_global": True, "capabilities": {"methods": ["onEvent"]}},
        format="json",
    )
    assert response.status_code == 403 and error(response)["detail"] == "This organization can't manage global plugins!"
    plugin = source_plugin(api, installer)
    # Sending is_global at all (even false) needs root on update.
    patch = api.patch(f"{base(installer)}{plugin['id']}/", {"is_global": False}, format="json")
    assert patch.status_code == 403
    set_level(client, installer.organization.id, 9)
    assert api.patch(f"{base(installer)}{plugin['id']}/", {"is_global": True}, format="json").json()["is_global"]
    delete = api.delete(f"{base(installer)}{plugin['id']}/")
    assert delete.status_code == 400
    assert error(delete)["detail"] == "This plugin is marked as global! Make it local before uninstallation"


def test_other_organizations_global_plugin(api, installer, client, make_key):
    set_level(client, installer.organization.id, 9)
    plugin = source_plugin(api, installer, name="Shared")
    api.patch(f"{base(installer)}{plugin['id']}/", {"is_global": True}, format="json")
    other_key, body = make_key("other@example.com", organization="Other Org", level="owner")
    other = authed(other_key)
    other_id = body["organization"]["id"]
    set_level(client, other_id, 6)
    other_base = base(installer, organization=other_id)
    listed = other.get(other_base).json()
    assert [p["id"] for p in listed["results"]] == [plugin["id"]]
    assert listed["results"][0]["organization_name"] == "Emulator Org"
    # Retrieving a global plugin skips the membership check on the object (PostHog's special case).
    assert other.get(f"{other_base}{plugin['id']}/").status_code == 200
    # Writing it: the object's organization is not theirs, so the membership check refuses first.
    patch = other.patch(f"{other_base}{plugin['id']}/", {"name": "x"}, format="json")
    assert patch.status_code == 403
    assert error(patch)["detail"] == "You do not have permission to perform this action."
    # A user in both organizations meets the plugin rule instead.
    make_key("admin@example.com", organization="Other Org", level="owner")
    patch = api.patch(f"{other_base}{plugin['id']}/", {"name": "x"}, format="json")
    assert patch.status_code == 403
    assert error(patch)["detail"] == "This plugin installation is managed by another organization"
    # Custom actions need the plugin to be the organization's own: 404.
    assert api.get(f"{other_base}{plugin['id']}/check_for_updates/").status_code == 404


def test_member_may_write_plugins(installer, make_key):
    key, _ = make_key("member@example.com", level="member")
    response = authed(key).post(
        base(installer), {"plugin_type": "source", "name": "m", "capabilities": {"methods": ["onEvent"]}}, format="json"
    )
    assert response.status_code == 201


def test_scopes(installer, make_key):
    reader, _ = make_key("reader@example.com", scopes=["plugin:read"], level="owner")
    client = authed(reader)
    assert client.get(base(installer)).status_code == 200
    response = client.post(base(installer), {"plugin_type": "source", "name": "x"}, format="json")
    assert response.status_code == 403 and error(response)["detail"] == "API key missing required scope 'plugin:write'"


# ------------------------------------------------------------------ families


def test_family_filters(api, installer):
    destination = source_plugin(api, installer, DEST, "d", {"methods": ["onEvent"]})
    webhook = source_plugin(api, installer, DEST, "w", {"methods": ["composeWebhook"]})
    site_app = source_plugin(api, installer, FRONT, "s", {})
    scheduled = source_plugin(api, installer, IMPORT, "i", {"scheduled_tasks": ["runEveryMinute"]})
    importer = source_plugin(api, installer, IMPORT, "j", {"methods": ["setupPlugin"]})
    transformation = source_plugin(api, installer, DEST, "t", {"methods": ["processEvent"]})
    empty_tasks = source_plugin(api, installer, DEST, "e", {"scheduled_tasks": []})

    def ids(family):
        return [p["id"] for p in api.get(base(installer, family)).json()["results"]]

    assert ids(DEST) == [destination["id"], webhook["id"]]
    assert ids(FRONT) == [site_app["id"]]
    assert ids(IMPORT) == [scheduled["id"], importer["id"]]
    assert transformation["id"] not in ids(DEST) + ids(FRONT) + ids(IMPORT)
    assert empty_tasks["id"] not in ids(DEST) + ids(FRONT) + ids(IMPORT)
    # The fourth family PostHog registers: plugins that process events (a destination may be one too).
    both = source_plugin(api, installer, DEST, "b", {"methods": ["onEvent", "processEvent"]})
    assert ids("pipeline_transformations") == [transformation["id"], both["id"]]
    assert both["id"] in ids(DEST)
    # Detail routes are filtered too.
    assert api.get(f"{base(installer, FRONT)}{destination['id']}/").status_code == 404
    assert api.get(f"{base(installer, DEST)}{destination['id']}/").status_code == 200
    assert api.get(f"{base(installer, DEST)}abc/").status_code == 404


def test_record_shape_per_profile(api, installer):
    plugin = source_plugin(api, installer)
    assert set(plugin) == SPEC_FIELDS
    assert isinstance(plugin["id"], int)
    assert plugin["organization_id"] == str(installer.organization.id)
    assert plugin["organization_name"] == "Emulator Org"
    profiles.set_profile("posthog")
    body = api.get(f"{base(installer)}{plugin['id']}/").json()
    assert set(body) == SPEC_FIELDS | {"hog_function_migration_available"}
    assert body["hog_function_migration_available"] is False


def test_pagination(api, installer):
    for index in range(3):
        source_plugin(api, installer, name=f"p{index}")
    page = api.get(base(installer) + "?limit=2").json()
    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"].endswith("limit=2&offset=2")


# ------------------------------------------------------------------ installs by URL


def test_install_from_url(api, installer, client):
    register(client, tag="v1", files={"index.ts": "// v1", "README.md": "x"})
    register(client, tag="v2", files={"index.ts": "// v2", "frontend.tsx": "export const x = 1"})
    response = api.post(
        base(installer),
        {"plugin_type": "custom", "url": HELLO_URL + "?private_token=abc", "name": "ignored", "tag": "ignored"},
        format="json",
    )
    assert response.status_code == 201, response.content
    plugin = response.json()
    assert plugin["name"] == "Hello" and plugin["description"] == "Hello v2"
    assert plugin["tag"] == "v2" and plugin["latest_tag"] == "v2"
    assert plugin["url"] == HELLO_URL  # the private token is never shown
    assert plugin["plugin_type"] == "custom"
    assert plugin["config_schema"] == [{"key": "greeting", "type": "string"}]
    assert plugin["capabilities"] == {"methods": ["onEvent"]}
    files = {f.filename: f.source for f in PluginSourceFile.objects.filter(plugin_id=plugin["id"])}
    assert set(files) == {"plugin.json", "index.ts", "frontend.tsx"}
    assert json.loads(files["plugin.json"])["name"] == "Hello"

    # The check ignores a private token (PostHog compares the URL without its query).
    again = api.post(base(installer), {"plugin_type": "repository", "url": HELLO_URL}, format="json")
    assert again.status_code == 400
    assert error(again)["detail"] == f'Plugin from URL "{HELLO_URL}" already installed!'


def test_install_pinned_tag_and_errors(api, installer, client):
    register(client, tag="v1")
    register(client, tag="v2")
    pinned = api.post(base(installer), {"plugin_type": "repository", "url": HELLO_URL + "/tree/v1"}, format="json")
    assert pinned.status_code == 201 and pinned.json()["tag"] == "v1" and pinned.json()["plugin_type"] == "repository"
    duplicate = api.post(base(installer), {"url": HELLO_URL + "/tree/v1"}, format="json")
    assert duplicate.status_code == 400
    assert error(duplicate)["detail"] == f'Plugin from URL "{HELLO_URL}/tree/v1" already installed!'

    for url, detail in (
        ("https://example.com/plugin", "Must be a GitHub/GitLab repository or a npm package URL!"),
        (None, "Must be a GitHub/GitLab repository or a npm package URL!"),
        ("https://github.com/acme/unknown", "Could not find plugin.json in the plugin"),
        (HELLO_URL + "/tree/v9", "Could not find plugin.json in the plugin"),
        ("file:/plugins/x", "Could not load plugin.json from: /plugins/x/plugin.json"),
    ):
        response = api.post(base(installer), {"plugin_type": "custom", "url": url}, format="json")
        assert response.status_code == 400, url
        assert error(response)["detail"] == detail
    assert Plugin.objects.count() == 1


def test_stateless_with_config_is_refused(api, installer, client):
    register(client, plugin_json={"stateless": True})
    response = api.post(base(installer), {"url": HELLO_URL}, format="json")
    assert response.status_code == 400 and error(response)["detail"] == "Stateless plugins cannot have a config!"


def test_npm_and_gitlab_urls(api, installer, client):
    register(client, url="https://www.npmjs.com/package/@posthog/geoip-plugin", tag="0.1.0", name="GeoIP")
    register(client, url="https://gitlab.com/acme/tools/hello", tag="main", name="GitLab hello")
    npm = api.post(base(installer), {"url": "https://www.npmjs.com/package/@posthog/geoip-plugin"}, format="json")
    gitlab = api.post(base(installer), {"url": "https://gitlab.com/acme/tools/hello"}, format="json")
    assert npm.status_code == 201 and npm.json()["name"] == "GeoIP"
    assert gitlab.status_code == 201 and gitlab.json()["tag"] == "main"


def test_check_for_updates_and_upgrade(api, installer, client):
    register(client, tag="v1", files={"index.ts": "// v1", "frontend.tsx": "x"})
    plugin = api.post(base(installer), {"plugin_type": "repository", "url": HELLO_URL}, format="json").json()
    register(client, tag="v2", name="Hello 2", files={"index.ts": "// v2"})
    path = f"{base(installer)}{plugin['id']}/"
    checked = api.get(path + "check_for_updates/")
    assert checked.status_code == 200 and checked.json()["latest_tag"] == "v2" and checked.json()["tag"] == "v1"
    upgraded = api.post(path + "upgrade/", {}, format="json")
    assert upgraded.status_code == 200
    body = upgraded.json()
    assert body["tag"] == "v2" and body["name"] == "Hello 2" and body["plugin_type"] == "custom"
    files = {f.filename: f.source for f in PluginSourceFile.objects.filter(plugin_id=plugin["id"])}
    assert files["index.ts"] == "// v2" and "frontend.tsx" not in files

    profiles.set_profile("posthog")
    legacy = authed(make_legacy_key(client))
    wrapped = legacy.get(path + "check_for_updates/").json()
    assert set(wrapped) == {"plugin"} and wrapped["plugin"]["latest_tag"] == "v2"
    assert legacy.post(path + "upgrade/", {}, format="json").json()["id"] == plugin["id"]


def make_legacy_key(client):
    """A key with no scopes (legacy: may do anything, even actions PostHog refuses to scoped keys)."""
    response = client.post(
        "/_emulator/keys", {"email": "legacy@example.com", "scopes": [], "level": "owner"}, format="json"
    )
    assert response.status_code == 201
    return response.json()["key"]


def test_custom_actions_refuse_keys_in_posthog_profile(api, installer):
    plugin = source_plugin(api, installer)
    path = f"{base(installer)}{plugin['id']}/"
    profiles.set_profile("posthog")
    for method, target in (
        ("get", path + "source/"),
        ("get", path + "check_for_updates/"),
        ("patch", path + "update_source/"),
        ("post", path + "upgrade/"),
        ("get", base(installer) + "unused/"),
        ("get", base(installer) + "activity/"),
        ("get", base(installer) + "repository/"),
        ("get", base(installer) + "exports_unsubscribe_configs/"),
    ):
        response = getattr(api, method)(target, {}, format="json") if method != "get" else api.get(target)
        assert response.status_code == 403, target
        assert error(response)["detail"] == "This action does not support Personal API Key access"
    profiles.set_profile("spec")
    assert api.get(path + "source/").status_code == 200


def test_custom_actions_need_install_level(api, installer, client):
    plugin = source_plugin(api, installer)
    set_level(client, installer.organization.id, 3)
    response = api.get(f"{base(installer)}{plugin['id']}/source/")
    assert response.status_code == 403
    assert error(response)["detail"] == "Plugin source editing is not available for the current organization!"
    assert api.get(f"{base(installer)}{plugin['id']}/").status_code == 200


# ------------------------------------------------------------------ source files


def test_source_map_semantics(api, installer, client):
    plugin = source_plugin(api, installer, name="Editor")
    path = f"{base(installer)}{plugin['id']}/"
    profiles.set_profile("posthog")
    legacy = authed(make_legacy_key(client))
    assert legacy.get(path + "source/").json() == {}
    created = legacy.patch(
        path + "update_source/",
        {
            "index.ts": "// one",
            "site.ts": "s",
            "plugin.json": json.dumps({"name": "Renamed", "config": [{"key": "a"}]}),
        },
        format="json",
    )
    assert created.status_code == 200
    assert set(created.json()) == {"index.ts", "site.ts", "plugin.json"}
    record = Plugin.objects.get(id=plugin["id"])
    assert record.name == "Renamed" and record.config_schema == [{"key": "a"}] and record.source == "// one"
    # Files not mentioned are left alone; null deletes.
    updated = legacy.patch(path + "update_source/", {"index.ts": "// two", "site.ts": None}, format="json").json()
    assert updated["index.ts"] == "// two" and "site.ts" not in updated and "plugin.json" in updated
    assert legacy.get(path + "source/").json() == updated
    bad = legacy.patch(path + "update_source/", {"plugin.json": "{not json"}, format="json")
    assert bad.status_code == 400 and error(bad)["attr"] == "plugin.json"
    not_text = legacy.patch(path + "update_source/", {"index.ts": 5}, format="json")
    assert not_text.status_code == 400 and error(not_text)["attr"] == "index.ts"
    # Profile spec answers with the plugin record.
    profiles.set_profile("spec")
    spec = api.patch(path + "update_source/", {"index.ts": "// three"}, format="json").json()
    assert set(spec) == SPEC_FIELDS and spec["name"] == "Renamed"
    assert set(api.get(path + "source/").json()) == SPEC_FIELDS


def test_update_source_null_for_a_new_file_creates_nothing(api, installer, client):
    from posthog_emulator.models import PluginSourceFile

    plugin = source_plugin(api, installer, name="Nothing to delete")
    path = f"{base(installer)}{plugin['id']}/"
    profiles.set_profile("posthog")
    legacy = authed(make_legacy_key(client))
    answer = legacy.patch(path + "update_source/", {"frontend.tsx": None, "index.ts": "// kept"}, format="json")
    assert answer.status_code == 200
    assert answer.json() == {"index.ts": "// kept"}
    assert not PluginSourceFile.objects.filter(plugin_id=plugin["id"], filename="frontend.tsx").exists()
    assert legacy.get(path + "source/").json() == {"index.ts": "// kept"}
    updated_at = Plugin.objects.get(id=plugin["id"]).updated_at
    assert legacy.patch(path + "update_source/", {"site.ts": None}, format="json").json() == {"index.ts": "// kept"}
    assert Plugin.objects.get(id=plugin["id"]).updated_at == updated_at  # nothing changed


# ------------------------------------------------------------------ collection actions


def test_unused_and_exports_unsubscribe_configs(api, installer, client):
    used = source_plugin(api, installer, name="used")
    unused = source_plugin(api, installer, name="unused")
    site_app = source_plugin(api, installer, FRONT, "site", {})
    for plugin in (used, site_app):
        response = client.post(
            "/_emulator/plugin_configs", {"plugin": plugin["id"], "config": {"k": "v"}}, format="json"
        )
        assert response.status_code == 201
    spec_unused = api.get(base(installer) + "unused/").json()
    assert [p["id"] for p in spec_unused] == [unused["id"]]
    spec_configs = api.get(base(installer) + "exports_unsubscribe_configs/").json()
    assert [p["id"] for p in spec_configs] == [used["id"]]  # site apps are left out

    profiles.set_profile("posthog")
    legacy = authed(make_legacy_key(client))
    assert legacy.get(base(installer) + "unused/").json() == [unused["id"]]
    configs = legacy.get(base(installer) + "exports_unsubscribe_configs/").json()
    assert len(configs) == 1 and configs[0]["plugin"] == used["id"] and configs[0]["config"] == {"k": "v"}
    assert configs[0]["plugin_info"]["id"] == used["id"] and configs[0]["name"] == "used"


@pytest.mark.parametrize("capabilities, site_app, transformation_or_site_app", [
    ({}, True, True),
    ({"methods": ["processEvent"]}, False, True),
    ({"methods": ["onEvent"]}, False, False),
    ({"methods": "processEvent"}, False, False),
    ([], False, False),  # not an object: neither (PostHog's JSON lookups find nothing)
    (["processEvent"], False, False),
    ("processEvent", False, False),
    (None, False, False),
])
def test_site_app_and_transformation_agree(capabilities, site_app, transformation_or_site_app):
    from posthog_emulator.rules.plugins import is_site_app, is_transformation_or_site_app

    assert is_site_app(capabilities) is site_app
    assert is_transformation_or_site_app(capabilities) is transformation_or_site_app
    assert not site_app or transformation_or_site_app  # a site app is always in the wider set


def test_exports_unsubscribe_configs_keeps_plugins_with_non_object_capabilities(api, installer, client):
    from posthog_emulator.models import Plugin

    odd = source_plugin(api, installer, name="odd")
    Plugin.objects.filter(id=odd["id"]).update(capabilities=[], is_global=True)
    assert client.post("/_emulator/plugin_configs", {"plugin": odd["id"]}, format="json").status_code == 201
    configs = api.get(base(installer) + "exports_unsubscribe_configs/").json()
    assert [p["id"] for p in configs] == [odd["id"]]  # neither a global transformation nor a site app


def test_config_makes_foreign_plugin_visible(api, installer, client, make_key):
    other_key, body = make_key("foreign@example.com", organization="Foreign Org", level="owner")
    set_level(client, body["organization"]["id"], 6)
    foreign = (
        authed(other_key)
        .post(
            base(installer, organization=body["organization"]["id"]),
            {"plugin_type": "source", "name": "foreign", "capabilities": {"methods": ["onEvent"]}},
            format="json",
        )
        .json()
    )
    assert api.get(base(installer)).json()["count"] == 0
    client.post("/_emulator/plugin_configs", {"plugin": foreign["id"], "project": installer.project.id}, format="json")
    assert [p["id"] for p in api.get(base(installer)).json()["results"]] == [foreign["id"]]


def test_repository(api, installer, client):
    register(client, tag="v1", repository=True)
    register(client, tag="v2", repository=True)
    register(client, url="https://github.com/acme/private", tag="v1")
    spec = api.get(base(installer) + "repository/").json()
    assert len(spec) == 1 and spec[0]["tag"] == "v2" and spec[0]["url"] == HELLO_URL and set(spec[0]) == SPEC_FIELDS
    profiles.set_profile("posthog")
    entries = authed(make_legacy_key(client)).get(base(installer) + "repository/").json()
    assert entries == [
        {
            "name": "Hello",
            "url": HELLO_URL,
            "description": "Hello v2",
            "icon": None,
            "verified": True,
            "maintainer": "official",
        }
    ]


def test_activity(api, installer):
    first = source_plugin(api, installer, name="first")
    source_plugin(api, installer, name="second")
    api.delete(f"{base(installer)}{first['id']}/")
    assert PluginActivity.objects.count() == 3
    page = api.get(base(installer) + "activity/?limit=2").json()
    assert set(page) == {"results", "next", "previous", "total_count"}
    assert page["total_count"] == 3 and page["previous"] is None
    assert page["next"].endswith("activity/?limit=2&page=2")
    assert [e["activity"] for e in page["results"]] == ["uninstalled", "installed"]
    entry = page["results"][0]
    assert entry["user"] == {"first_name": "Ada", "email": "admin@example.com"}
    assert entry["scope"] == "Plugin" and entry["item_id"] == str(first["id"]) and entry["detail"]["name"] == "first"
    second_page = api.get(page["next"]).json()
    assert len(second_page["results"]) == 1 and second_page["next"] is None and second_page["previous"]


def test_import_apps_actions_per_profile(api, installer, client):
    app = source_plugin(api, installer, IMPORT, "importer", {"scheduled_tasks": ["runEveryHour"]})
    path = f"{base(installer, IMPORT)}{app['id']}/"
    assert api.get(path + "check_for_updates/").status_code == 200
    for target in (
        path + "source/",
        base(installer, IMPORT) + "unused/",
        base(installer, IMPORT) + "activity/",
        base(installer, IMPORT) + "repository/",
    ):
        response = api.get(target)
        assert response.status_code == 404 and error(response)["detail"] == "Endpoint not found."
    assert api.post(path + "upgrade/", {}, format="json").status_code == 404
    profiles.set_profile("posthog")
    legacy = authed(make_legacy_key(client))
    assert legacy.get(path + "source/").status_code == 200
    assert legacy.get(base(installer, IMPORT) + "unused/").json() == [app["id"]]


# ------------------------------------------------------------------ CRUD details


def test_source_plugin_crud(api, installer):
    plugin = source_plugin(
        api,
        installer,
        name="crud",
        description="d",
        icon="https://x/i.png",
        tag="0.1",
        config_schema=[{"key": "k"}],
        metrics={"m": 1},
        public_jobs={"j": {}},
    )
    assert plugin["plugin_type"] == "source" and plugin["tag"] == "0.1" and plugin["url"] is None
    assert plugin["config_schema"] == [{"key": "k"}] and plugin["metrics"] == {"m": 1}
    path = f"{base(installer)}{plugin['id']}/"
    patched = api.patch(path, {"description": "new", "tag": "0.2", "url": "https://ignored"}, format="json").json()
    assert patched["description"] == "new" and patched["tag"] == "0.2" and patched["url"] is None
    bad = api.patch(path, {"plugin_type": "magic"}, format="json")
    assert bad.status_code == 400 and error(bad)["attr"] == "plugin_type"
    assert api.delete(path).status_code == 204
    assert api.get(path).status_code == 404
    assert Organization.objects.get(id=installer.organization.id).plugins_access_level == 6
