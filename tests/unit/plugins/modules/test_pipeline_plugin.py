# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""posthog.admin.pipeline_plugin through main(): installs from a URL or source (a lost answer never
installs twice), settings, source files, upgrades (and their lost answers), absent, and lists."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

from ansible_collections.posthog.admin.plugins.modules import pipeline_plugin
from ansible_collections.posthog.admin.tests.unit.conftest import page
from ansible_collections.posthog.admin.tests.unit.objects import NOT_FOUND, ORG, PLUGIN_URL, plugin, refusal

DESTINATIONS = ORG + "pipeline_destinations/"
LIST = "GET %s?limit=500" % DESTINATIONS
DETAIL = DESTINATIONS + "7/"
SOURCE = plugin(id=9, name="Mine", url=None, plugin_type="source", tag=None)
FILES = {"plugin.json": '{"name": "Mine"}', "index.ts": "old", "site.ts": "s"}
NO_API_KEYS = refusal("This action does not support Personal API Key access")


def run(run_module, check=False, **args):
    return run_module(pipeline_plugin, dict(args, family=args.get("family", "destination")), check=check)


# ---------------------------------------------------------------------------------------- installs
def test_an_install_from_a_url_then_applies_the_settings_given(server, run_module):
    # PostHog fills a URL plugin from its plugin.json, so what the task sets goes in after the install.
    server.script((200, page()), (201, plugin()), (200, plugin(description="Ours")))
    result = run(run_module, url=PLUGIN_URL + "/?private_token=t", description="Ours")
    assert result["changed"] is True and result["plugin"]["description"] == "Ours"
    assert run_module.calls == [LIST, "POST " + DESTINATIONS, "PATCH " + DETAIL]
    assert run_module.bodies() == [None, {"description": "Ours", "plugin_type": "custom",
                                          "url": PLUGIN_URL + "/?private_token=t"}, {"description": "Ours"}]


@pytest.mark.parametrize("lost, after, made, args", [
    # the install is committed but its answer lost: the plugin is found by its URL, not installed again
    ((502, "bad gateway"), [(200, page(plugin()))], plugin(), dict(url=PLUGIN_URL + "/")),
    # the install did not arrive: it is sent again
    ((503, {"detail": "Service temporarily unavailable."}), [(200, page()), (201, plugin())], plugin(),
     dict(url=PLUGIN_URL)),
    # a source plugin, found by its name
    ((500, {"detail": "A server error occurred."}), [(200, page(SOURCE))], SOURCE, dict(name="Mine")),
])
def test_a_lost_install_answer_never_installs_twice(server, run_module, lost, after, made, args):
    server.script(*[(200, page()), lost] + after)
    result = run(run_module, **args)
    assert result["changed"] is True and result["plugin"]["id"] == made["id"], result.get("msg")
    assert run_module.calls == [LIST, "POST " + DESTINATIONS, LIST] + ["POST " + DESTINATIONS] * (len(after) - 1)


def test_a_new_source_plugin_gets_capabilities_of_its_family(server, run_module):
    server.script((200, page()), (201, SOURCE))
    run(run_module, name="Mine")
    assert run_module.bodies("POST") == [{"name": "Mine", "plugin_type": "source",
                                          "capabilities": {"methods": ["onEvent"]}}]


def test_an_install_landing_in_another_family_fails_saying_what_was_installed(server, run_module):
    server.script((200, page()), (201, plugin(capabilities={"scheduled_tasks": ["runEveryMinute"]})))
    result = run(run_module, url=PLUGIN_URL)
    assert result["failed"] and result["changed"] is True and result["plugin"]["id"] == 7
    assert "was installed (id 7), but its capabilities" in result["msg"] and "family=import_app" in result["msg"]


# -------------------------------------------------------------------------- settings and absent
def test_check_mode_predicts_the_settings(server, run_module):
    server.script((200, page(plugin())))
    result = run(run_module, check=True, name="Hello", description="Ours", is_global=True)
    assert result["changed"] is True and run_module.calls == [LIST]
    assert result["plugin"]["description"] == "Ours" and result["plugin"]["is_global"] is True
    assert result["diff"] == {"before": {"name": "Hello", "description": "", "is_global": False},
                              "after": {"name": "Hello", "description": "Ours", "is_global": True}}


@pytest.mark.parametrize("args", [dict(url=PLUGIN_URL + "/?private_token=t", description=""),
                                  dict(name="Hello", capabilities={"methods": ["onEvent"]}), dict(id=7)])
def test_a_converged_plugin_is_one_request(server, run_module, args):
    server.script((200, plugin() if "id" in args else page(plugin(id=8, name="Other", url=None), plugin())))
    result = run(run_module, **args)
    assert result["changed"] is False and len(server.requests) == 1


def test_absent_uninstalls_but_not_a_global_plugin(server, run_module):
    server.script((200, page(plugin())), (204, None), (200, page(plugin(is_global=True))))
    assert run(run_module, url=PLUGIN_URL, state="absent")["changed"] is True
    result = run(run_module, url=PLUGIN_URL, state="absent")
    assert result["failed"] and "PostHog refuses to uninstall a global plugin: set is_global=false" in result["msg"]
    assert run_module.calls == [LIST, "DELETE " + DETAIL, LIST]


def test_a_plugin_of_that_id_from_another_url_is_not_touched(server, run_module):
    server.script((200, plugin()))
    result = run(run_module, id=7, url="https://github.com/acme/other")
    assert result["failed"] and "was installed from %s; url cannot be changed" % PLUGIN_URL in result["msg"]
    assert len(server.requests) == 1


# ------------------------------------------------------------------------------------ source files
def test_source_files_write_only_what_differs(server, run_module):
    written = dict(FILES, **{"index.ts": "new"})
    del written["site.ts"]
    server.script((200, page(SOURCE)), (200, FILES), (200, written))
    result = run(run_module, name="Mine", source_files={"index.ts": "new", "plugin.json": FILES["plugin.json"]},
                 purge_source_files=True)
    assert result["changed"] is True and result["changed_files"] == ["index.ts", "site.ts"]
    assert run_module.calls == [LIST, "GET %s9/source/" % DESTINATIONS, "PATCH %s9/update_source/" % DESTINATIONS]
    assert run_module.bodies("PATCH") == [{"index.ts": "new", "site.ts": None}]
    assert result["diff"]["before"]["source_files"] == {"index.ts": "old", "site.ts": "s"}
    assert result["diff"]["after"]["source_files"] == {"index.ts": "new"}


def test_source_files_the_server_cannot_show_are_all_sent_with_a_warning(server, run_module):
    server.script((200, page(SOURCE)), (200, SOURCE), (200, SOURCE))  # the spec's answer: the plugin record
    result = run(run_module, name="Mine", source_files={"index.ts": "x"})
    assert result["changed"] is True and run_module.bodies("PATCH") == [{"index.ts": "x"}]
    assert "cannot be compared: every listed file was sent" in result["warnings"][0]


def test_a_new_source_plugin_with_files_checks_api_keys_may_write_them_first(server, run_module):
    server.script((200, page()), (403, NO_API_KEYS))
    result = run(run_module, name="Mine", source_files={"index.ts": "x"})
    assert result["failed"] and "Cannot create pipeline destination 'Mine' with source_files" in result["msg"]
    assert run_module.calls == [LIST, "GET %sunused/" % DESTINATIONS]


# ---------------------------------------------------------------------------------------- upgrades
CHECK = "GET %scheck_for_updates/" % DETAIL
UPGRADE = "POST %supgrade/" % DETAIL


def test_latest_upgrades_to_the_newest_tag(server, run_module):
    server.script((200, page(plugin())), (200, {"plugin": plugin(latest_tag="v2")}), (200, plugin(tag="v2")))
    result = run(run_module, url=PLUGIN_URL, state="latest")
    assert result["changed"] is True and result["plugin"]["tag"] == "v2" and result["latest_tag"] == "v2"
    assert run_module.calls == [LIST, CHECK, UPGRADE]
    assert result["diff"] == {"before": {"url": PLUGIN_URL, "tag": "v1"}, "after": {"url": PLUGIN_URL, "tag": "v2"}}


def test_latest_at_the_newest_tag_is_two_requests(server, run_module):
    server.script((200, page(plugin())), (200, plugin(latest_tag="v1")))
    assert run(run_module, url=PLUGIN_URL, state="latest")["changed"] is False
    assert run_module.calls == [LIST, CHECK]


@pytest.mark.parametrize("lost, read_back, calls", [
    ((502, "bad gateway"), plugin(tag="v2"), [UPGRADE, "GET " + DETAIL]),                # it upgraded
    ((500, {"detail": "A server error occurred."}), plugin(), [UPGRADE, "GET " + DETAIL, UPGRADE]),  # ask again
])
def test_a_lost_upgrade_answer_is_read_back(server, run_module, lost, read_back, calls):
    server.script((200, page(plugin())), (200, plugin(latest_tag="v2")), lost, (200, read_back), (200, plugin(tag="v2")))
    result = run(run_module, url=PLUGIN_URL, state="latest")
    assert result["changed"] is True and result["plugin"]["tag"] == "v2"
    assert run_module.calls == [LIST, CHECK] + calls


def test_posthog_refusing_api_keys_the_update_check_says_so(server, run_module):
    server.script((200, page(plugin())), (403, NO_API_KEYS))
    result = run(run_module, url=PLUGIN_URL, state="latest")
    assert result["failed"] and result["msg"].startswith(
        "Cannot check it for updates for pipeline destination from %s: PostHog does not allow personal API keys"
        % PLUGIN_URL)


# ------------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("args, words", [
    (dict(url=PLUGIN_URL, tag="v9"), "tag cannot be set for a custom plugin"),
    (dict(url=PLUGIN_URL, source_files={"index.ts": "x"}), "source_files can only be managed for source plugins"),
    (dict(name="x", capabilities={}), "capabilities {} put the plugin in family=frontend_app, not in family=destination"),
    (dict(name="x", purge_source_files=True), "purge_source_files needs source_files (the files to keep)"),
    (dict(name="x", source_files={"plugin.json": "{"}), "source_files['plugin.json'] is not valid JSON"),
    (dict(name="x", source_files={"plugin.json": '{"name": "y"}'}), "differs from the name 'y' in source_files"),
    (dict(name="x", family="import_app", state="latest"), "state=latest cannot be used with family=import_app"),
    (dict(name="x", family="import_app", source_files={}), "source_files cannot be used with family=import_app"),
])
def test_bad_options_fail_before_any_request(run_module, args, words):
    assert words in run_module.refuses(pipeline_plugin, dict(args, family=args.get("family", "destination")))


# ------------------------------------------------------------------------------------------- lists
def test_a_list_reads_the_family_once(server, run_module):
    server.script((200, page(plugin())), (200, plugin(id=8, name="Pinned", url=None)), (201, SOURCE))
    items = [dict(url=PLUGIN_URL + "/"), dict(name="Mine"), dict(id=8)]
    result = run(run_module, plugins=items)
    assert result["changed"] is True and [p["id"] for p in result["plugins"]] == [7, 9, 8]
    # the plan reads first (the family once, the plugin named by id), then writes
    assert run_module.calls == [LIST, "GET %s8/" % DESTINATIONS, "POST " + DESTINATIONS]
    assert [d["before_header"] for d in result["diff"]] == ["plugins[1] (plugin 'Mine')"]


def test_bad_items_fail_before_any_request_naming_each(run_module):
    items = [dict(url=PLUGIN_URL), dict(url=PLUGIN_URL + "/?private_token=x"), dict(id=4, tag="v1", url=PLUGIN_URL),
             dict(description="x")]
    msg = run_module.refuses(pipeline_plugin, dict(family="destination", plugins=items))
    assert "plugins[0] and plugins[1] name the same object (plugin from %s)" % PLUGIN_URL in msg
    assert "plugins[2] (plugin with id 4): tag cannot be set for a custom plugin" in msg
    assert "plugins[3] (no id, url or name given): one of id, url or name is required" in msg


def test_items_take_the_family_of_the_task(run_module):
    items = [dict(name="Nightly", state="latest", source_files={}, purge_source_files=True)]
    msg = run_module.refuses(pipeline_plugin, dict(family="import_app", plugins=items))
    assert msg.startswith("plugins[0] (plugin 'Nightly'): source_files cannot be used with "
                          "family=import_app")
    assert "; plugins[0] (plugin 'Nightly'): state=latest cannot be used with family=import_app" in msg
    msg = run_module.refuses(pipeline_plugin, dict(family="import_app", plugins=[dict(name="x", family="destination")]))
    assert "Unsupported parameters for (basic.py) module: plugins.family" in msg


def test_a_missing_id_is_not_installed(server, run_module):
    server.script((404, NOT_FOUND))
    result = run(run_module, id=7)
    assert result["failed"] and "pipeline destination with id 7 not found; omit id to install a new one" in result["msg"]
    assert run_module.calls == ["GET " + DETAIL]
