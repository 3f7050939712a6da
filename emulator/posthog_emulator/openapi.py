"""The OpenAPI document of ``/api/`` (``GET /_emulator/openapi.json``), made by drf-spectacular.

It is generated from the registered viewsets and serializers, so it covers every resource in
``api.RESOURCE_MODULES`` without listing them here. Its use is testing the emulator itself
(schemathesis, ``tests/test_openapi.py``): it describes what the emulator serves, not PostHog.

* Only ``/api/`` paths (the control API is plain Django views and has no schema).
* The router's optional trailing slash (``/?``) shows as ``/``.
* Security: the personal API key as an HTTP Bearer token (``PersonalAPIKeyAuthentication``).
"""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class PersonalAPIKeyScheme(OpenApiAuthenticationExtension):
    target_class = "posthog_emulator.auth.PersonalAPIKeyAuthentication"
    name = "PersonalAPIKeyAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer", "description": "A personal API key (phx_...)."}


def only_api(endpoints, **kwargs):
    """``PREPROCESSING_HOOKS``: keep the ``/api/`` endpoints only."""
    return [endpoint for endpoint in endpoints if endpoint[0].startswith("/api/")]
