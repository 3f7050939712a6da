"""URL configuration: ``/api/`` (the emulated API) and ``/_emulator/`` (the control API).

Anything else answers 404 ``{"type": "invalid_request", "code": "not_found", "detail":
"Endpoint not found.", "attr": null}``, like PostHog's catch-all (docs/posthog_facts.md §0.2).
"""

from django.urls import include, re_path

from posthog_emulator import api, control

router = api.build_router()

urlpatterns = [
    re_path(r"^api/", include(router.urls)),
    re_path(r"^_emulator/", include(control.urlpatterns)),
]

handler404 = "posthog_emulator.errors.handler404"
handler500 = "posthog_emulator.errors.handler500"
