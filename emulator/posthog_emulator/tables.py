"""Table versions and what a request read: the layer under the caches, free of model imports.

An execute wrapper on every database connection (installed by :func:`posthog_emulator.cache.install`)
looks at each statement: an ``INSERT``, ``UPDATE``, ``DELETE`` or ``REPLACE`` naming a watched table
bumps that table's version, once when the statement runs and again when its transaction commits.
A request's :class:`Recording` collects the tables it read, whether it wrote, and whether its
answer depends on something besides the database (the clock). Models use :func:`depend_on`,
:func:`uncacheable` and :func:`versioned` from here; :mod:`posthog_emulator.cache` (which reads
models) builds the key, organization and memo caches on top.
"""

from __future__ import annotations

import threading

_lock = threading.Lock()
#: table name -> version; bumped by every write that names the table.
_versions: dict[str, int] = {}
#: the quoted table names (as Django writes them in SQL) -> the table name.
_watched: dict[str, str] = {}
_WRITES = ("INSERT", "UPDATE", "DELETE", "REPLAC")
#: Tables whose set of rows is versioned apart from their content: ``<table>#rows`` moves only
#: with an INSERT, DELETE or REPLACE (see :func:`organization`).
_ROW_TRACKED: set[str] = set()
ROWS = "#rows"
MAX_ENTRIES = 10000  # a test suite issuing more keys than this just starts over


def watch(*models) -> None:
    """Track writes to the tables of these models."""
    for model in models:
        table = model._meta.db_table
        _watched[f'"{table}"'] = table
        _versions.setdefault(table, 0)


def _bump(tables) -> None:
    with _lock:
        for table in tables:
            _versions[table] += 1


def versions(tables) -> tuple:
    return tuple(_versions[table] for table in tables)


def _watcher(execute, sql, params, many, context):
    head = sql.lstrip()[:6].upper()
    recording = getattr(_local, "recording", None)
    if head not in _WRITES:
        if recording is not None:
            recording.tables.update(table for quoted, table in _watched.items() if quoted in sql)
        return execute(sql, params, many, context)
    if recording is not None:
        recording.wrote = True
    tables = [table for quoted, table in _watched.items() if quoted in sql]
    if not tables:
        return execute(sql, params, many, context)
    if head != "UPDATE":
        tables += [table + ROWS for table in tables if table in _ROW_TRACKED]
    _bump(tables)
    try:
        return execute(sql, params, many, context)
    finally:
        _bump(tables)
        connection = context["connection"]
        if connection.in_atomic_block:
            connection.on_commit(lambda: _bump(tables))


def _on_connection(sender, connection, **kwargs):
    if _watcher not in connection.execute_wrappers:
        connection.execute_wrappers.append(_watcher)


# --------------------------------------------------------------------------------------------
# Recording what a request read (for posthog_emulator.responses)
# --------------------------------------------------------------------------------------------

_local = threading.local()


class Recording:
    """What one request read: ``tables``; whether it ``wrote``; whether its answer depends on
    something that is not in the database (``uncacheable``); the hash of its key."""

    __slots__ = ("tables", "wrote", "uncacheable", "secure_value", "_start")

    def __init__(self):
        self.tables: set[str] = set()
        self.wrote = False
        self.uncacheable = False
        self.secure_value: str | None = None
        self._start = dict(_versions)

    def versions(self, tables) -> tuple:
        """The versions the tables had when the request started (a write by another thread
        since then makes the stored answer stale at once)."""
        return tuple(self._start.get(table, -1) for table in tables)


def start_recording() -> Recording:
    _local.recording = recording = Recording()
    return recording


def stop_recording() -> None:
    _local.recording = None


def depend_on(tables) -> None:
    """The current request's answer depends on these tables (read from a cache, not by SQL)."""
    recording = getattr(_local, "recording", None)
    if recording is not None:
        recording.tables.update(tables)


def uncacheable() -> None:
    """The current request's answer depends on something besides the database (the clock)."""
    recording = getattr(_local, "recording", None)
    if recording is not None:
        recording.uncacheable = True


def authenticated_with(secure_value: str) -> None:
    recording = getattr(_local, "recording", None)
    if recording is not None:
        recording.secure_value = secure_value


# --------------------------------------------------------------------------------------------
# Values remembered per table version (EmulatorState rows: the clock offset is read by every
# invite written or shown)
# --------------------------------------------------------------------------------------------

_remembered: dict = {}


def versioned(key, tables: tuple, load):
    """``load()``, remembered under ``key`` while no table of ``tables`` was written; the current
    request depends on them. ``load`` returns plain values (tuples, numbers, strings, never model
    instances); the caller copies what it hands out."""
    depend_on(tables)
    stamp = versions(tables)
    cached = _remembered.get(key)
    if cached is None or cached[0] != stamp:
        value = load()
        with _lock:
            if len(_remembered) >= MAX_ENTRIES:
                _remembered.clear()
            _remembered[key] = cached = (stamp, value)
    return cached[1]


def forget() -> None:
    """Drop every remembered value (the versions already make stale ones unusable)."""
    with _lock:
        _remembered.clear()
