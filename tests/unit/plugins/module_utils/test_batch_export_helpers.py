# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Batch export helpers: destination keys and secrets, the config argument spec, timestamps. The
resource (pause, backfill and their lost answers) runs through the modules: test_batch_export*.py
in tests/unit/plugins/modules."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import datetime

import pytest

from ansible.module_utils.common.arg_spec import ArgumentSpecValidator

from ansible_collections.posthog.admin.plugins.module_utils._batch_export import (
    DESTINATION_TYPES,
    all_secret_keys,
    check_config_keys,
    check_timestamp,
    config_argument_spec,
    current_query,
    destination_argument_spec,
    given_config,
    missing_required,
    normalize_config_value,
    normalize_query,
    parse_timestamp,
    same_instant,
    split_config,
)


def test_every_secret_key_is_no_log_and_nothing_else_is():
    spec = config_argument_spec()
    secrets = all_secret_keys()
    assert secrets == {
        "aws_access_key_id", "aws_secret_access_key", "user", "password", "private_key", "private_key_passphrase",
        "copy_inputs", "private_key_id", "client_email", "token_uri", "token",
    }  # fmt: skip
    for key, option in spec.items():
        assert option["no_log"] is (key in secrets), key
    assert spec["port"]["type"] == "int"
    assert spec["include_events"] == dict(type="list", elements="str", no_log=False)


def test_every_documented_key_of_every_type_is_in_the_spec():
    spec = config_argument_spec()
    for destination in DESTINATION_TYPES.values():
        for key in destination["required"] + destination["optional"] + destination["secret"]:
            assert key in spec


def test_ansible_collects_the_secret_values_for_masking():
    validator = ArgumentSpecValidator(dict(destination=destination_argument_spec()))
    result = validator.validate(dict(destination=dict(type="S3", config=dict(
        bucket_name="public-bucket", aws_secret_access_key="s3cr3t-value", port="5432"))))
    assert result.error_messages == []
    assert "s3cr3t-value" in result._no_log_values
    assert "public-bucket" not in result._no_log_values
    config = result.validated_parameters["destination"]["config"]
    assert config["port"] == 5432 and config["region"] is None


def test_given_config_drops_unset_suboptions():
    assert given_config(dict(type="S3", config=dict(bucket_name="b", region=None))) == {"bucket_name": "b"}
    assert given_config(dict(type="NoOp", config=None)) == {}
    assert given_config(None) == {}


def test_check_config_keys():
    assert check_config_keys("S3", {"bucket_name": "b", "include_events": ["$pageview"]}) is None
    message = check_config_keys("S3", {"password": "x", "host": "h"})
    assert "host, password" in message and "type S3" in message and "bucket_name" in message
    assert check_config_keys("NoOp", {"arg": "x"}) is None


def test_missing_required_and_split():
    assert missing_required("S3", {"region": "r"}) == ["bucket_name", "prefix"]
    assert missing_required("NoOp", {}) == []
    public, secret = split_config("Postgres", {"host": "h", "user": "u", "password": "p", "port": 5432})
    assert public == {"host": "h", "port": 5432}
    assert secret == {"user": "u", "password": "p"}


def test_normalize_config_value():
    assert normalize_config_value("endpoint_url", "") is None
    assert normalize_config_value("endpoint_url", "https://minio") == "https://minio"
    assert normalize_config_value("prefix", "") == ""


@pytest.mark.parametrize("value, expected, zoned", [
    ("2026-01-01T00:00:00Z", datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc), True),
    ("2026-01-01T01:30:00+01:30", datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc), True),
    ("2026-01-01 00:00:00.5-0000", datetime.datetime(2026, 1, 1, 0, 0, 0, 500000, tzinfo=datetime.timezone.utc), True),
    ("2026-01-01T00:00", datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc), False),
])
def test_parse_timestamp(value, expected, zoned):
    assert parse_timestamp(value) == (expected, zoned)


def test_parse_timestamp_rejects_garbage():
    with pytest.raises(ValueError):
        parse_timestamp("yesterday")


def test_same_instant():
    assert same_instant("2026-01-01T00:00:00Z", "2026-01-01T00:00:00+00:00")
    assert same_instant("2026-01-01T02:00:00+02:00", "2026-01-01T00:00:00Z")
    assert not same_instant("2026-01-01T00:00:01Z", "2026-01-01T00:00:00Z")
    assert same_instant(None, None) and same_instant("", None)
    assert not same_instant("2026-01-01T00:00:00Z", None)
    assert not same_instant("junk", "2026-01-01T00:00:00Z")


def test_check_timestamp():
    assert check_timestamp("start_at", None) is None
    assert check_timestamp("start_at", "2026-01-01T00:00:00Z") is None
    assert "no timezone" in check_timestamp("start_at", "2026-01-01T00:00:00")
    assert "ISO-8601" in check_timestamp("end_at", "soon")


def test_queries():
    assert normalize_query(" SELECT  event\nFROM events ") == "SELECT event FROM events"
    assert normalize_query(None) is None
    assert current_query({"hogql_query": "SELECT 1 FROM events", "schema": None}) == "SELECT 1 FROM events"
    assert current_query({"schema": {"hogql_query": "SELECT 2 FROM events"}}) == "SELECT 2 FROM events"
    assert current_query({"schema": None}) is None
