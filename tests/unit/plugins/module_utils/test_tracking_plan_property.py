# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Properties of the integration and tracking plan helpers that hold for any input (Hypothesis): a
group's properties compare as a set whatever their order and absent defaults; the name the module
derives from an integration's config is the name it reads back from what PostHog keeps of it; and no
export names a key the kind does not take as a secret."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import pytest

hypothesis = pytest.importorskip("hypothesis")  # in requirements-dev.txt (the main test run), not the compat runs
from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

QUICK = settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])

from ansible_collections.posthog.admin.plugins.module_utils._integration import (  # noqa: E402
    KINDS,
    connection_name,
    exported_secrets,
    integration_name,
    named,
    stored_config,
)
from ansible_collections.posthog.admin.plugins.module_utils._property_group import (  # noqa: E402
    PROPERTY_TYPES,
    normalise_properties,
    same_properties,
)

NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_0123456789", min_size=1, max_size=12)
PROPERTY = st.fixed_dictionaries(
    dict(name=NAMES, property_type=st.sampled_from(PROPERTY_TYPES)),
    optional=dict(is_required=st.booleans(), is_optional_in_types=st.booleans(), description=st.text(max_size=8)))


@QUICK
@given(st.lists(PROPERTY, unique_by=lambda p: p["name"], max_size=6), st.randoms())
def test_properties_compare_as_a_set_with_their_defaults(props, rnd):
    shuffled = list(props)
    rnd.shuffle(shuffled)
    # as PostHog answers them: every key present, defaults filled in, ids and times added
    answered = [dict(dict(is_required=False, is_optional_in_types=False, description="", validation_rules=None),
                     id="x%d" % i, created_at="t", **p) for i, p in enumerate(shuffled)]
    assert same_properties(props, answered)
    assert normalise_properties(props) == normalise_properties(answered)
    if props:
        changed = [dict(props[0], is_required=not props[0].get("is_required", False))] + props[1:]
        assert not same_properties(changed, answered)


HOSTS = st.from_regex(r"\A[a-z][a-z0-9]{1,10}\.(acme|example-corp)\.com\Z")
CONFIGS = st.one_of(
    st.fixed_dictionaries(dict(host=HOSTS, port=st.integers(1, 65535), user=NAMES, password=NAMES)).map(
        lambda c: ("postgresql", c)),
    st.fixed_dictionaries(dict(host=HOSTS, port=st.integers(1, 65535), user=NAMES, password=NAMES)).map(
        lambda c: ("aws-redshift", c)),
    st.fixed_dictionaries(dict(server_hostname=HOSTS, client_id=NAMES, client_secret=NAMES)).map(
        lambda c: ("databricks", c)),
    st.fixed_dictionaries(dict(service_account_email=NAMES.map(lambda n: n + "@p.iam.gserviceaccount.com"),
                               project_id=NAMES)).map(lambda c: ("google-cloud-service-account", c)),
    st.fixed_dictionaries(dict(account=NAMES, user=NAMES, password=NAMES)).map(lambda c: ("snowflake", c)),
    st.fixed_dictionaries(dict(aws_access_key_id=NAMES, aws_secret_access_key=NAMES)).map(lambda c: ("aws-s3", c)),
)


@QUICK
@given(CONFIGS, NAMES)
def test_the_name_derived_from_a_config_is_the_name_read_back(kind_config, given_name):
    kind, config = kind_config
    name = given_name if named(kind, config) else connection_name(kind, config)
    stored = dict(kind=kind, config=stored_config(kind, name, config), display_name="ID: whatever")
    assert integration_name(stored) == name
    # the export names as secret only keys the kind takes as secrets, never one of the shown config
    secrets = exported_secrets(stored)
    assert set(secrets) <= set(KINDS[kind].secret)
    assert not set(secrets) & set(stored["config"])
