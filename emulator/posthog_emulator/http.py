"""JSON in and out of plain Django views (not DRF): the control API and the Django-level error pages.

Neither the ``/api/`` layer nor the control layer owns this module; both, and :mod:`errors`, may use
it. It knows nothing about either API's error shape: :func:`json_object` raises :class:`BodyError`
and the caller decides what answer that becomes.
"""

import json

from django.http import JsonResponse


def json_response(data, status: int = 200) -> JsonResponse:
    """A compact JSON response, formatted like DRF's JSON renderer output."""
    return JsonResponse(data, status=status, safe=False, json_dumps_params={"separators": (",", ":")})


class BodyError(ValueError):
    """A request body that is not a JSON object: ``detail`` says why, ``code`` is the error code."""

    def __init__(self, detail: str, code: str = "invalid_input"):
        super().__init__(detail)
        self.detail, self.code = detail, code


def json_object(body: bytes) -> dict:
    """``body`` parsed as a JSON object (``{}`` when empty); :class:`BodyError` otherwise."""
    if not body:
        return {}
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise BodyError(f"JSON parse error - {error}", code="parse_error")
    if not isinstance(data, dict):
        raise BodyError("Expected a JSON object.")
    return data
