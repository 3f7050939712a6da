# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The one watchdog thread that expires every request attempt's total deadline."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import os
import threading
import time

from ansible_collections.posthog.admin.plugins.module_utils._http_transport import Deadline, Watchdog, WATCHDOG


class Conn:
    """Stands in for a urllib3 connection: ``sock`` records being shut down."""

    def __init__(self):
        self.sock = self
        self.shut = threading.Event()

    def shutdown(self, how):
        self.shut.set()


def test_a_deadline_that_passes_shuts_its_connection_and_one_that_ended_is_left_alone():
    finished, running = Conn(), Conn()
    with Deadline(0.2) as ended:
        ended.watch(finished)
    with Deadline(0.3) as deadline:
        deadline.watch(running)
        assert running.shut.wait(5), "the watchdog did not shut the connection at the deadline"
        assert deadline.passed()
    time.sleep(0.1)
    assert not finished.shut.is_set() and not ended.expired


def test_one_thread_serves_every_attempt():
    before = threading.active_count()
    for dummy in range(200):
        with Deadline(30) as deadline:
            deadline.watch(Conn())
    assert threading.active_count() <= before + 1  # the watchdog's, started once if it was not yet


def test_a_later_deadline_does_not_delay_an_earlier_one():
    late, early = Conn(), Conn()
    long_one = Deadline(60)
    long_one.__enter__()
    long_one.watch(late)
    try:
        with Deadline(0.2) as short:
            short.watch(early)
            assert early.shut.wait(5)
    finally:
        long_one.__exit__(None, None, None)
    assert not late.shut.is_set()


def test_a_forked_child_watches_nothing_of_its_parent():
    watchdog = Watchdog()
    deadline = Deadline(60)
    watchdog.watch(deadline)
    deadline.done = True
    watchdog.forked()
    assert watchdog._due == [] and watchdog._pid is None  # pylint: disable=protected-access
    assert WATCHDOG._pid in (None, os.getpid())  # pylint: disable=protected-access
