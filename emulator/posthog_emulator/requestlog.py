"""In-memory log of the requests served under ``/api/`` (read with ``GET /_emulator/requests``).

Each entry is ``{"method", "path", "query", "status"}``: the HTTP method, the path without the
query string, the raw query string (``""`` when none), and the response status. A request a fault
rule acted on (:mod:`posthog_emulator.faults`) also has ``"fault"``: ``"respond"`` (the status is
the injected one) or ``"dropped"`` (status ``0``: the view ran and committed, its answer, recorded as
``"committed_status"``, was never sent). Headers and bodies
are never recorded, so no API key can end up in the log. Thread-safe; bounded by the setting
``EMULATOR_REQUEST_LOG_MAX`` (oldest entries dropped first).
"""

import threading
from collections import deque

from django.conf import settings

_lock = threading.Lock()
_entries: deque | None = None


def _log() -> deque:
    global _entries
    if _entries is None:
        _entries = deque(maxlen=getattr(settings, "EMULATOR_REQUEST_LOG_MAX", 100000))
    return _entries


def record(method: str, path: str, query: str, status: int, **extra) -> None:
    entry = {"method": method, "path": path, "query": query, "status": status, **extra}
    with _lock:
        _log().append(entry)


def entries() -> list[dict]:
    """A copy of the log, oldest first."""
    with _lock:
        return [dict(entry) for entry in _log()]


def clear() -> None:
    with _lock:
        _log().clear()
