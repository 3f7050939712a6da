"""The ``/api/`` resources: one module per resource.

Each module listed in :data:`RESOURCE_MODULES` exposes ``register(router)``, which registers its
viewsets on the shared :class:`~posthog_emulator.routing.OptionalSlashRouter`. Adding a resource
means adding a module and its name here; nothing else in the core changes. Test helpers of a
resource under ``/_emulator/`` are not part of this package (see "Adding a resource" in the
README). Modules here never import that layer; rules that are not about HTTP live in
:mod:`posthog_emulator.rules`.
"""

from importlib import import_module

from posthog_emulator.routing import OptionalSlashRouter, add_environment_aliases

RESOURCE_MODULES = [
    "organizations",
    "projects",
    "domains",
    "invites",
    "members",
    "users",
    "batch_exports",
    "pipeline_plugins",
    "event_definitions",
    "property_definitions",
    "event_schemas",
    "roles",
    "proxy_records",
    "integrations",
    "identity_provider_configs",
    "hog_functions",
    "access_control",
]


def resource_modules():
    return [import_module(f"{__name__}.{name}") for name in RESOURCE_MODULES]


def build_router() -> OptionalSlashRouter:
    router = OptionalSlashRouter()
    for module in resource_modules():
        module.register(router)
    add_environment_aliases(router)
    return router
