"""Odd input answered as a client error, never a 5xx (issue "Hardening", item 11).

* **Deeply nested JSON** (``[[[[…]]]]`` 100,000 deep): Python's decoder raises ``RecursionError``,
  which DRF's parser does not catch. :class:`JSONParser` answers 400 ``parse_error`` "JSON parse
  error - …", as for any other malformed body; :func:`exception_handler` does the same for a
  ``RecursionError`` raised later (a value deep enough to break a recursive rule).
* **Bodies over 20 MB** (``DATA_UPLOAD_MAX_MEMORY_SIZE``, PostHog's limit): 413
  ``payload_too_large`` (the middleware checks ``Content-Length`` before reading anything; a
  chunked body that grows past the limit meets the same answer from :func:`exception_handler`).
* **Huge ``limit``/``offset``** (``?limit=99999999999999999999999`` overflowed SQLite's 64-bit
  integers): :class:`LimitOffsetPagination` clamps both to :data:`MAX_PAGE` the way DRF clamps
  ``limit`` to ``max_limit``. A billion rows is beyond any emulator database, so the pages are
  the same as with no maximum (PostHog's setting, docs/posthog_facts.md §0.2).
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from rest_framework import pagination, parsers
from rest_framework.exceptions import APIException, ParseError

from posthog_emulator.errors import error_response

#: The largest ``limit`` and ``offset`` taken as given (SQLite integers are 64-bit; a page's end,
#: offset + limit, stays far below).
MAX_PAGE = 1_000_000_000


class PayloadTooLarge(APIException):
    status_code = 413
    default_code = "payload_too_large"


def too_large_detail() -> str:
    megabytes = settings.DATA_UPLOAD_MAX_MEMORY_SIZE // (1024 * 1024)
    return f"Request body exceeded the maximum size of {megabytes} MB."


def payload_too_large_response():
    return error_response(413, "invalid_request", "payload_too_large", too_large_detail())


def body_too_large(request) -> bool:
    """Whether the declared ``Content-Length`` is over the limit (checked before reading)."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    except ValueError:
        return False


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser; nesting too deep for the decoder is a parse error, not a crash."""

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nesting too deep")


class LimitOffsetPagination(pagination.LimitOffsetPagination):
    max_limit = MAX_PAGE

    def get_offset(self, request):
        return min(super().get_offset(request), MAX_PAGE)


def exception_handler(exc, context):
    """``exceptions_hog``'s handler, after turning the crashes odd input causes into client errors."""
    from exceptions_hog import exception_handler as hog_exception_handler  # imports DRF's views

    if isinstance(exc, RecursionError):
        exc = ParseError("JSON parse error - nesting too deep")
    elif isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge(too_large_detail())
    return hog_exception_handler(exc, context)
