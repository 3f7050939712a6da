# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fixtures: one emulator per test session (per xdist worker), an HTTPS one with a test CA, and a
reset (database, fault rules, request log) before every test."""

import os
import subprocess
import sys

import pytest

import harness


def pytest_configure(config):
    marker = os.path.join(harness.build_dir(), "ansible_collections", "posthog", "admin", "galaxy.yml")
    if not os.path.exists(marker):
        raise pytest.UsageError("no collection under %s: run `make collection BUILD=%s` first (BUILD selects "
                                "the build directory)" % (harness.build_dir(), os.environ.get("BUILD", "build")))


# The one test that runs for minutes (every module three times in one play, over TLS) goes first:
# under `pytest -n 2` one worker plays it while the other takes the rest, and neither waits for it
# alone at the end. Every worker sorts the same way, as xdist requires.
FIRST = ("test_tls_validation_ca_path_and_opt_out",)


def pytest_collection_modifyitems(items):
    items.sort(key=lambda item: item.name not in FIRST)  # stable: the rest keep their order


@pytest.fixture(scope="session", autouse=True)
def runners():
    """The worker's long-lived ansible-playbook processes (harness.Runner), stopped at the end."""
    yield
    harness.stop_runners()


@pytest.fixture(scope="session")
def emulator(tmp_path_factory):
    server = harness.Emulator(str(tmp_path_factory.mktemp("emulator")))
    yield server
    server.stop()


@pytest.fixture(scope="session")
def test_ca(tmp_path_factory):
    directory = str(tmp_path_factory.mktemp("ca"))
    subprocess.run([sys.executable, "-m", "posthog_emulator", "make-test-ca", directory], check=True,
                   capture_output=True)
    return {name: os.path.join(directory, name) for name in ("ca.pem", "server.pem", "server.key")}


@pytest.fixture(scope="session")
def tls_emulator(tmp_path_factory, test_ca):
    server = harness.Emulator(str(tmp_path_factory.mktemp("tls-emulator")),
                              tls=(test_ca["server.pem"], test_ca["server.key"], test_ca["ca.pem"]))
    yield server
    server.stop()


@pytest.fixture(autouse=True)
def fresh(emulator):
    emulator.api.reset()
    yield
