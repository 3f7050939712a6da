"""The emulator's single middleware: one lock, the request log, and the request-hook point.

0. **Guard** (:mod:`posthog_emulator.guard`, :mod:`posthog_emulator.limits`): foreign ``Host``
   names, cross-site control requests and bodies over the size limit are refused before anything
   else (an ``/api/`` one is logged with its 400/413).
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
2. **A readers-writer lock**: ``GET``, ``HEAD`` and ``OPTIONS`` under ``/api/`` run side by side
   (each server thread has its own SQLite connection; WAL mode lets readers read while nothing
   writes); every other request, and every control request, runs alone. So writes are committed
   one at a time, in a definite order, and no reader sees half of one.
3. **Request log**: every ``/api/`` request is recorded with its final status
   (see :mod:`posthog_emulator.requestlog`), while the lock is still held: the log lists the
   requests in the order the server committed them.
4. **Response cache** for ``GET`` (:mod:`posthog_emulator.responses`).
5. **Content-Length** on every response, so HTTP keep-alive works (clients reuse connections
   across pages, as they do against PostHog).
"""

import threading
from collections.abc import Callable
from contextlib import contextmanager

from django.http import HttpRequest, HttpResponse

from posthog_emulator import cache, faults, guard, limits, requestlog, responses

RequestHook = Callable[[HttpRequest], "HttpResponse | None"]

_request_hooks: list[RequestHook] = []
_hooks_lock = threading.Lock()


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


class ReadWriteLock:
    """Many readers or one writer; a waiting writer goes before readers that arrive after it.

    Readers and writers wait on separate conditions and only those who can proceed are woken: the
    last reader out wakes one writer, a writer leaving wakes the next writer or else every waiting
    reader. (One condition with ``notify_all`` woke all eight server threads on every release;
    under a read/write mix those wake-ups cost more CPU than the requests.)
    """

    def __init__(self):
        self._mutex = threading.Lock()
        self._readers_ok = threading.Condition(self._mutex)
        self._writer_ok = threading.Condition(self._mutex)
        self._readers = 0
        self._writer = False
        self._writers_waiting = 0
        self._readers_waiting = 0

    @contextmanager
    def reading(self):
        with self._mutex:
            if self._writer or self._writers_waiting:
                self._readers_waiting += 1
                try:
                    while self._writer or self._writers_waiting:
                        self._readers_ok.wait()
                finally:
                    self._readers_waiting -= 1
            self._readers += 1
        try:
            yield
        finally:
            with self._mutex:
                self._readers -= 1
                if not self._readers and self._writers_waiting:
                    self._writer_ok.notify()

    @contextmanager
    def writing(self):
        with self._mutex:
            if self._writer or self._readers:
                self._writers_waiting += 1
                try:
                    while self._writer or self._readers:
                        self._writer_ok.wait()
                finally:
                    self._writers_waiting -= 1
            self._writer = True
        try:
            yield
        finally:
            with self._mutex:
                self._writer = False
                if self._writers_waiting:
                    self._writer_ok.notify()
                elif self._readers_waiting:
                    self._readers_ok.notify_all()


_db_lock = ReadWriteLock()
_SHARED_METHODS = frozenset(("GET", "HEAD", "OPTIONS"))


def database_lock() -> ReadWriteLock:
    """The lock requests hold while they touch the database (``reading()`` / ``writing()``)."""
    return _db_lock


class EmulatorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        from posthog_emulator import bootstrap  # imports the models: only once the apps are ready

        add_request_hook(faults.hook)
        bootstrap.on_reset(faults.clear)
        bootstrap.on_reset(cache.clear)
        bootstrap.on_reset(responses.clear)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refused = guard.check(request)  # foreign Host names, cross-site control calls
        if refused is None and limits.body_too_large(request):
            refused = limits.payload_too_large_response()  # before a byte of the body is read
        is_api = request.path.startswith("/api/")
        if refused is not None:
            self._finish(refused)
            if is_api:
                self._log(request, refused)
            return refused
        response = None
        if is_api:
            for hook in request_hooks():
                response = hook(request)
                if response is not None:
                    break
        if response is not None:  # answered by a hook: the view does not run, nothing is committed
            self._finish(response)
            if is_api:
                self._log(request, response)
            return response
        shared = is_api and request.method in _SHARED_METHODS
        with _db_lock.reading() if shared else _db_lock.writing():
            response = responses.serve(request, self.get_response) if shared else self.get_response(request)
            if is_api:
                response = faults.after_view(request, response)
            self._finish(response)
            if is_api:
                # Logged before the lock is released: the log's order is the order in which the
                # writes were committed (reads in between are logged between them).
                self._log(request, response)
        return response

    @staticmethod
    def _finish(response: HttpResponse) -> None:
        if not response.streaming and not response.has_header("Content-Length"):
            # Lets the threaded server keep connections alive (it closes those without a length).
            response.headers["Content-Length"] = str(len(response.content))

    @staticmethod
    def _log(request: HttpRequest, response: HttpResponse) -> None:
        query = request.META.get("QUERY_STRING", "")
        fault = getattr(response, faults.FAULT_ATTR, None)
        if request.META.get(faults.DROP_KEY):
            requestlog.record(request.method, request.path, query, 0, fault="dropped",
                              committed_status=response.status_code)
        elif fault == "commit_then_status":
            requestlog.record(request.method, request.path, query, response.status_code, fault=fault,
                              committed_status=getattr(response, faults.COMMITTED_ATTR))
        elif fault:
            requestlog.record(request.method, request.path, query, response.status_code, fault=fault)
        else:
            requestlog.record(request.method, request.path, query, response.status_code)
