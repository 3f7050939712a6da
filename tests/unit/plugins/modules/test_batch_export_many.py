# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""batch_export's list option: the checks every item gets before any request, item labels and
identities, and the snapshot following an export created through a project's route."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

from ansible_collections.posthog.admin.plugins.modules.batch_export import (
    BatchExportSnapshot,
    check_params,
    identities,
    label,
)

ORG_EXPORTS = "/api/organizations/org-1/batch_exports/"


class Task:
    def __init__(self, **values):
        self.params = dict(name=None, id=None, destination=None, start_at=None, end_at=None, project_id=None)
        self.params.update(values)


class Client:
    def __init__(self, objects):
        self.objects = objects
        self.lists = 0

    def list_all(self, path, params=None, context=None):
        self.lists += 1
        return [dict(obj) for obj in self.objects]


def test_check_params_accepts_a_good_item():
    task = Task(name="Events", start_at="2026-01-01T00:00:00Z", end_at="2026-02-01T00:00:00+01:00", project_id="2",
                destination=dict(type="S3", config=dict(bucket_name="b", region="r", prefix="p", password=None)))
    assert check_params(task) == []


def test_check_params_needs_name_or_id_and_refuses_a_blank_name():
    assert check_params(Task()) == ["one of name or id is required"]
    assert check_params(Task(id="0190")) == []
    assert check_params(Task(name="  ")) == ["name must not be blank"]


def test_check_params_collects_every_problem():
    task = Task(name="Bad", start_at="2026-01-01T00:00:00", project_id="two",
                destination=dict(type="S3", config=dict(bucket_name="b", password="secret-value")))
    problems = check_params(task)
    assert len(problems) == 3
    assert "do not take: password" in problems[0]
    assert "secret-value" not in problems[0]
    assert "has no timezone" in problems[1]
    assert "numeric id" in problems[2]


def test_check_params_compares_the_window_only_when_both_ends_parse():
    assert check_params(Task(name="x", start_at="2026-02-01T00:00:00Z", end_at="2026-01-01T00:00:00Z")) == [
        "start_at (2026-02-01T00:00:00Z) must be before end_at (2026-01-01T00:00:00Z)"]
    problems = check_params(Task(name="x", start_at="2026-02-01T00:00:00Z", end_at="yesterday"))
    assert len(problems) == 1 and problems[0].startswith("end_at:")


def test_label_and_identities():
    assert label(dict(name="Events")) == "batch export 'Events'"
    assert label(dict(id="0190")) == "batch export with id 0190"
    assert label(dict(name="Events", id="0190")) == "batch export 'Events', id 0190"
    assert label(dict()) == "no name or id given"
    assert identities(dict(name="Events", id="0190")) == [("name", "Events"), ("id", "0190")]
    assert identities(dict(name="Events", id=None)) == [("name", "Events")]


def test_snapshot_follows_a_creation_through_a_project_route():
    client = Client([dict(id="a", name="A")])
    snapshot = BatchExportSnapshot(ORG_EXPORTS)
    snapshot.objects(client)
    snapshot.follow("POST", "/api/projects/2/batch_exports/", dict(id="b", name="B"))
    snapshot.follow("POST", "/api/organizations/org-1/batch_exports/", dict(id="c", name="C"))
    assert [obj["name"] for obj in snapshot.objects(client)] == ["A", "B", "C"]
    assert client.lists == 1


def test_snapshot_reads_again_after_an_action_it_cannot_follow():
    client = Client([dict(id="a", name="A", paused=False)])
    snapshot = BatchExportSnapshot(ORG_EXPORTS)
    snapshot.objects(client)
    snapshot.follow("POST", ORG_EXPORTS + "a/pause/", dict(id="a", name="A", paused=True))  # spec: the record
    assert snapshot.objects(client)[0]["paused"] is True
    assert client.lists == 1
    snapshot.follow("POST", ORG_EXPORTS + "a/unpause/", dict(paused=False))  # PostHog: {"paused": false}
    snapshot.objects(client)
    assert client.lists == 2


def test_snapshot_ignores_other_project_routes():
    client = Client([dict(id="a", name="A")])
    snapshot = BatchExportSnapshot(ORG_EXPORTS)
    snapshot.objects(client)
    snapshot.follow("POST", "/api/projects/2/batch_exports/a/backfill/", dict(backfill_id="x"))
    snapshot.follow("POST", "/api/projects/2/hog_functions/", dict(id="h"))
    assert [obj["id"] for obj in snapshot.objects(client)] == ["a"]
    assert client.lists == 1
