"""What the emulator refuses before any view runs: foreign ``Host`` names, cross-site control calls.

The control API has no authentication and can wipe the database (``POST /_emulator/reset``), so
it must not be reachable from a web page the tester happens to have open:

* **DNS rebinding**: a page on ``evil.example`` whose name later resolves to 127.0.0.1 talks to
  the emulator with ``Host: evil.example``. Only the names in ``ALLOWED_HOSTS`` are answered: the
  loopback names ``127.0.0.1``, ``localhost`` and ``[::1]`` unless ``serve --allowed-host`` adds
  more. Any other ``Host`` is 400 ``disallowed_host``, on ``/api/`` and ``/_emulator/`` alike.
* **Cross-site requests**: a browser "simple request" (a form post, or ``fetch`` in ``no-cors``
  mode, ``Content-Type: text/plain``) is sent without a CORS preflight. Control requests carrying
  an ``Origin`` whose host is not an allowed name are 403 ``cross_site_request`` (browsers send
  ``Origin`` on every cross-origin request and on every POST/PUT/PATCH/DELETE); and a control
  request that writes (POST, PUT, PATCH, DELETE) with a body must say ``Content-Type:
  application/json``, else 415 ``unsupported_media_type`` (DRF's wording), which no simple
  request can. A body-less write (``DELETE /_emulator/requests``) needs no content type.

``/api/`` itself keeps PostHog's behaviour beyond the ``Host`` check: it is authenticated by a key
in a header, which a cross-site page cannot send without a preflight.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http.request import validate_host

from posthog_emulator.errors import error_response

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WRITE_METHODS = frozenset(("POST", "PUT", "PATCH", "DELETE"))


def _allowed_hosts() -> list[str]:
    return list(settings.ALLOWED_HOSTS)


def check(request):
    """An error response when the request must be refused, else ``None``."""
    try:
        request.get_host()
    except DisallowedHost:
        host = request.META.get("HTTP_HOST", "")
        return error_response(
            400, "invalid_request", "disallowed_host",
            f"Invalid HTTP_HOST header: {host!r}. The emulator answers to {', '.join(_allowed_hosts())} "
            "only; add names with serve --allowed-host.",
        )  # fmt: skip
    if not request.path.startswith("/_emulator/"):
        return None
    origin = request.META.get("HTTP_ORIGIN")
    if origin is not None and not origin_allowed(origin):
        return error_response(
            403, "authentication_error", "cross_site_request",
            f"Control requests from origin {origin!r} are refused: the control API only answers "
            "local clients (use a loopback address, or serve --allowed-host).",
        )  # fmt: skip
    if request.method in WRITE_METHODS and _has_body(request):
        content_type = request.META.get("CONTENT_TYPE", "").split(";", 1)[0].strip().lower()
        if content_type != "application/json":
            return error_response(
                415, "invalid_request", "unsupported_media_type",
                f'Unsupported media type "{content_type}" in request. Control requests with a body '
                "must send Content-Type: application/json.",
            )  # fmt: skip
    return None


def _has_body(request) -> bool:
    length = request.META.get("CONTENT_LENGTH")
    if length not in (None, ""):
        try:
            return int(length) > 0
        except ValueError:
            return True
    return bool(request.META.get("HTTP_TRANSFER_ENCODING"))


def origin_allowed(origin: str) -> bool:
    """Whether an ``Origin`` header names an allowed host (any scheme and port)."""
    try:
        parts = urlsplit(origin)
        hostname = parts.hostname
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not hostname:
        return False  # "null" (sandboxed frames, file: pages) and the like
    if ":" in hostname:
        hostname = f"[{hostname}]"
    return validate_host(hostname, _allowed_hosts())


def is_loopback(address: str) -> bool:
    """Whether a ``--host`` bind address only listens on loopback."""
    import ipaddress

    if address in ("localhost",):
        return True
    try:
        return ipaddress.ip_address(address.strip("[]")).is_loopback
    except ValueError:
        return False
