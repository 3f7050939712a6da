"""The emulator's single middleware: one lock, the request log, and the request-hook point.

1. **Request hooks** (the extension point for fault injection, added by a later feature). A hook
   is a callable ``hook(request) -> HttpResponse | None``, registered with :func:`add_request_hook`.
   Hooks run in registration order for every request whose path starts with ``/api/``, before the
   view and *outside* the database lock (a hook may sleep to simulate latency without stalling
   other requests; it must be thread-safe). The first hook that returns a response short-circuits:
   that response is sent (and logged) and the view does not run. Returning ``None`` lets the
   request through. A hook may also ask the server to drop the connection after the view ran
   (``request.META[faults.DROP_KEY]``); the request is then logged with status 0, ``"fault":
   "dropped"`` and the view's ``"committed_status"``. The fault-injection hook
   (:func:`posthog_emulator.faults.hook`) is installed when the middleware is created; it does
   nothing until a rule is set through ``/_emulator/faults``.
2. **One global lock** serialises the view work of all requests (SQLite with several writer
   threads would otherwise fail with "database is locked").
3. **Request log**: every ``/api/`` request is recorded with its final status
   (see :mod:`posthog_emulator.requestlog`).
4. **Content-Length** on every response, so HTTP keep-alive works (clients reuse connections
   across pages, as they do against PostHog).
"""

import threading
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from posthog_emulator import faults, requestlog

RequestHook = Callable[[HttpRequest], "HttpResponse | None"]

_request_hooks: list[RequestHook] = []
_hooks_lock = threading.Lock()
_db_lock = threading.RLock()


def add_request_hook(hook: RequestHook) -> None:
    """Run ``hook`` before every ``/api/`` request (see the module docstring)."""
    with _hooks_lock:
        if hook not in _request_hooks:
            _request_hooks.append(hook)


def remove_request_hook(hook: RequestHook) -> None:
    with _hooks_lock:
        if hook in _request_hooks:
            _request_hooks.remove(hook)


def request_hooks() -> list[RequestHook]:
    with _hooks_lock:
        return list(_request_hooks)


def database_lock() -> threading.RLock:
    """The lock held while a request touches the database (for background work, if any)."""
    return _db_lock


class EmulatorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        from posthog_emulator import bootstrap  # imports the models: only once the apps are ready

        add_request_hook(faults.hook)
        bootstrap.on_reset(faults.clear)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        is_api = request.path.startswith("/api/")
        response = None
        if is_api:
            for hook in request_hooks():
                response = hook(request)
                if response is not None:
                    break
        if response is None:
            with _db_lock:
                response = self.get_response(request)
        if not response.streaming and not response.has_header("Content-Length"):
            # Lets the threaded server keep connections alive (it closes those without a length).
            response.headers["Content-Length"] = str(len(response.content))
        if is_api:
            query = request.META.get("QUERY_STRING", "")
            if request.META.get(faults.DROP_KEY):
                requestlog.record(request.method, request.path, query, 0, fault="dropped",
                                  committed_status=response.status_code)
            elif getattr(response, faults.FAULT_ATTR, None):
                requestlog.record(request.method, request.path, query, response.status_code,
                                  fault=getattr(response, faults.FAULT_ATTR))
            else:
                requestlog.record(request.method, request.path, query, response.status_code)
        return response
