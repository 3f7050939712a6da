"""A cache of ``GET /api/`` answers, valid exactly as long as what they were computed from.

A test suite reads the same pages over and over between writes (every Ansible module reads its
collection before it decides). Computing a page costs a few milliseconds of ORM and serializer
work; sending a stored copy costs a few microseconds. An answer is reused only when nothing it
depends on can have changed:

* **The request**: the same path and query string, ``Host``, scheme, ``Accept`` and
  ``Authorization`` header, under the same profile and API generations. Only requests whose key
  comes from an ``Authorization: Bearer`` header and that carry no body are cached (a key in the
  body or the query string, or any body, goes to the view every time).
* **The data**: while the view ran, :mod:`posthog_emulator.cache` recorded every table a statement
  read (and the tables behind the cached key, user, memberships and organization). The stored
  answer remembers each table's version and is used only while none was written since: any
  ``INSERT``/``UPDATE``/``DELETE`` of one of them, committed by any request, the control API
  (including a reset) or raw SQL, retires it.
* **Only pure answers are kept**: a ``200`` whose view wrote nothing and did not read the clock
  (invites' ``is_expired`` depends on the emulator clock; :func:`posthog_emulator.cache.uncacheable`
  marks such requests).

A reused answer is a fresh response with the same status, headers and bytes. Authentication's
bookkeeping still runs on a hit (``last_used_at`` of the key, written at most once an hour, as the
view would), and the request is logged as any other. Fault rules act before the cache is asked.
"""

from __future__ import annotations

import threading

from django.http import HttpResponse

from posthog_emulator import cache, generations, profiles

MAX_ENTRIES = 2000
_lock = threading.Lock()
_entries: dict[tuple, tuple] = {}
#: cache key -> Event of the request computing that answer now; the same request arriving
#: meanwhile waits for it instead of computing the same page again (after a write, every client
#: tends to ask for the page it invalidated at once).
_inflight: dict[tuple, threading.Event] = {}


def _cache_key(request) -> tuple | None:
    meta = request.META
    if request.method != "GET" or meta.get("CONTENT_LENGTH") not in (None, "", "0"):
        return None
    authorization = meta.get("HTTP_AUTHORIZATION", "")
    if not authorization.startswith("Bearer "):
        return None
    return (
        meta.get("PATH_INFO", ""),
        meta.get("QUERY_STRING", ""),
        meta.get("HTTP_HOST", ""),
        meta.get("SERVER_NAME", ""),
        meta.get("SERVER_PORT", ""),
        meta.get("wsgi.url_scheme", ""),
        meta.get("HTTP_ACCEPT", ""),
        authorization,
        profiles.current_profile(),
        tuple(sorted(generations.current().items())),
    )


def serve(request, get_response) -> HttpResponse:
    """The view's answer to ``request``, from the cache when it holds a valid copy."""
    key = _cache_key(request)
    if key is None:
        return get_response(request)
    response = _cached(key)
    if response is not None:
        return response
    with _lock:
        computing = _inflight.get(key)
        if computing is None:
            _inflight[key] = leader = threading.Event()
    if computing is not None:
        computing.wait(30)
        response = _cached(key)
        if response is not None:
            return response
        return get_response(request)  # the answer was not cacheable: compute it here too
    try:
        return _compute(key, request, get_response)
    finally:
        with _lock:
            _inflight.pop(key, None)
        leader.set()


def _cached(key: tuple) -> HttpResponse | None:
    entry = _entries.get(key)
    if entry is None:
        return None
    dependencies, versions, status, headers, content, secure_value = entry
    if cache.versions(dependencies) != versions or not _still_authenticated(secure_value):
        return None
    response = HttpResponse(content, status=status)
    for name, value in headers:
        response.headers[name] = value
    return response


def _compute(key: tuple, request, get_response) -> HttpResponse:
    recording = cache.start_recording()
    try:
        response = get_response(request)
    finally:
        cache.stop_recording()
    if (
        response.status_code == 200
        and not response.streaming
        and not recording.wrote
        and not recording.uncacheable
        and recording.secure_value is not None
    ):
        dependencies = tuple(sorted(recording.tables))
        stored = (dependencies, recording.versions(dependencies), 200, tuple(response.headers.items()),
                  response.content, recording.secure_value)
        with _lock:
            if len(_entries) >= MAX_ENTRIES:
                _entries.clear()
            _entries[key] = stored
    return response


def _still_authenticated(secure_value: str) -> bool:
    """The key is still valid (the table versions say so already) and its use is recorded."""
    from posthog_emulator.auth import note_use

    entry = cache.key_entry(secure_value)
    if entry is None:  # pragma: no cover - a change to the key would have changed the versions
        return False
    note_use(entry.key)
    return True


def clear() -> None:
    with _lock:
        _entries.clear()
