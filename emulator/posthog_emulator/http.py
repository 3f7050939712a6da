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

    def __init__(self, detail: str, code: str = "invalid_input", attr: str | None = None):
        super().__init__(detail)
        self.detail, self.code, self.attr = detail, code, attr


def json_object(body: bytes) -> dict:
    """``body`` parsed as a JSON object (``{}`` when empty); :class:`BodyError` otherwise."""
    if not body:
        return {}
    try:
        data = json.loads(body)
    except (ValueError, UnicodeDecodeError) as error:
        raise BodyError(f"JSON parse error - {error}", code="parse_error")
    except RecursionError:
        raise BodyError("JSON parse error - nesting too deep", code="parse_error")
    if not isinstance(data, dict):
        raise BodyError("Expected a JSON object.")
    null_at = find_null_character(data)
    if null_at is not None:
        raise BodyError("Null characters are not allowed.", code="null_characters_not_allowed", attr=null_at)
    return data


def find_null_character(value, path: str = ""):
    """The ``attr`` path (``events__0__name``) of the first string or key holding NUL, else None."""
    if isinstance(value, str):
        return (path or "non_field_errors") if "\x00" in value else None
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return None
    for key, item in items:
        here = f"{path}__{key}" if path else str(key)
        if isinstance(key, str) and "\x00" in key:
            return path or "non_field_errors"
        found = find_null_character(item, here)
        if found is not None:
            return found
    return None
