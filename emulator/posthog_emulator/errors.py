"""Error bodies outside DRF views, in PostHog's ``{type, code, detail, attr}`` shape (docs/posthog_facts.md §0.4).

DRF views get their error bodies from ``exceptions_hog.exception_handler`` (set in settings).
This module covers what that handler never sees: Django-level 404/500 responses (unknown paths)
and the plain Django views of the control API.
"""

import logging

from django.http import JsonResponse
from rest_framework.exceptions import APIException

from posthog_emulator.http import json_response

logger = logging.getLogger("posthog_emulator")


def error_body(type_: str, code: str, detail: str, attr: str | None = None) -> dict:
    """The flat error object PostHog's hog-handler produces."""
    return {"type": type_, "code": code, "detail": detail, "attr": attr}


def error_response(status: int, type_: str, code: str, detail: str, attr: str | None = None) -> JsonResponse:
    return json_response(error_body(type_, code, detail, attr), status=status)


def not_found(detail: str = "Not found.") -> JsonResponse:
    return error_response(404, "invalid_request", "not_found", detail)


def handler404(request, exception=None):
    """Unknown path. PostHog's catch-all answers "Endpoint not found." (docs/posthog_facts.md §0.2)."""
    return not_found("Endpoint not found.")


def handler500(request):
    """Crash outside DRF: same body the hog-handler gives for non-DRF exceptions."""
    return error_response(500, "server_error", "error", "A server error occurred.")


def report_exception(exc, context=None):
    """``EXCEPTIONS_HOG.EXCEPTION_REPORTING`` hook: log unexpected (non-DRF) errors with traceback.

    Returns ``None`` so no ``error_event_id`` is added to the body, as on PostHog without Sentry.
    """
    if not isinstance(exc, APIException):
        logger.error("Unhandled exception in API view", exc_info=(type(exc), exc, exc.__traceback__))
    return None
