"""The ``/api/`` resources: one module per resource.

Each module listed in :data:`RESOURCE_MODULES` exposes ``register(router)``, which registers its
viewsets on the shared :class:`~posthog_emulator.routing.OptionalSlashRouter`. A module may also
expose ``control_urlpatterns`` (Django URL patterns), mounted under ``/_emulator/`` for
resource-specific test helpers (for example, accepting an invite). Adding a resource means adding
a module and its name here; nothing else in the core changes. See "Adding a resource" in the
README.
"""

from importlib import import_module

from posthog_emulator.routing import OptionalSlashRouter

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
    "seed",
]


def resource_modules():
    return [import_module(f"{__name__}.{name}") for name in RESOURCE_MODULES]


def build_router() -> OptionalSlashRouter:
    router = OptionalSlashRouter()
    for module in resource_modules():
        module.register(router)
    return router


def control_urlpatterns() -> list:
    patterns = []
    for module in resource_modules():
        patterns.extend(getattr(module, "control_urlpatterns", []))
    return patterns
