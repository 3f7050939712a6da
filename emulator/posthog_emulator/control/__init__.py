"""The control API under ``/_emulator/``: test and demo helpers, never part of ``/api/``.

No authentication (the server is meant for loopback). JSON in and out; errors use the same
``{type, code, detail, attr}`` shape as the API.

* :mod:`~posthog_emulator.control.base`: :func:`~posthog_emulator.control.base.control_view`,
  :class:`~posthog_emulator.control.base.ControlError`,
  :func:`~posthog_emulator.control.base.read_json` and the input helpers and summaries every
  control view uses.
* :mod:`~posthog_emulator.control.core`: keys, request log, reset, info, profile, generations,
  faults, OpenAPI document.
* one module per resource area, each with its ``urlpatterns``: ``domains`` (``/dns``), ``people``
  (``/clock``, ``/invites/...``), ``batch_exports``, ``plugins``, ``event_definitions``, ``seed``,
  ``features`` (``/organizations/<org>/features``), ``proxy_records``, ``integrations`` (integrations of
  any kind, organization media).

This layer may import :mod:`posthog_emulator.api` (serializers, for answers shaped like the API's),
:mod:`posthog_emulator.rules` and :mod:`posthog_emulator.models`; ``api`` never imports it.
Anything under ``/_emulator/`` that matches no pattern answers 404 "Unknown emulator control
endpoint.".
"""

from django.urls import re_path

from posthog_emulator.control import (
    batch_exports, core, domains, event_definitions, features, integrations, people, plugins, proxy_records, seed,
)  # fmt: skip

#: The area modules whose ``urlpatterns`` are mounted after the core ones, in this order.
AREAS = (domains, people, batch_exports, plugins, event_definitions, seed, features, proxy_records, integrations)

urlpatterns = [
    *core.urlpatterns,
    *(pattern for area in AREAS for pattern in area.urlpatterns),
    re_path(r"^(?P<rest>.*)$", core.unknown),
]
