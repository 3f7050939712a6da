"""Data model of the emulator: Django's ``models`` module of the ``posthog_emulator`` app.

Django imports this package when the app registry is populated; importing the area modules here
registers their models with the app, and there is no migrations package: the tables are created
with ``migrate --run-syncdb`` at startup (:func:`posthog_emulator.bootstrap.migrate`).

Layout:

* :mod:`~posthog_emulator.models.core`: users, organizations, projects (teams), memberships,
  personal API keys, ``EmulatorState``; it uses (and passes on) the identifier helpers of
  :mod:`~posthog_emulator.models.ids` (``uuidt``, key values and hashes ...), which hold no models.
* one module per area, each importing only from ``core``: :mod:`~posthog_emulator.models.domains`,
  :mod:`~posthog_emulator.models.people`, :mod:`~posthog_emulator.models.batch_exports`,
  :mod:`~posthog_emulator.models.plugins`, :mod:`~posthog_emulator.models.event_definitions`,
  :mod:`~posthog_emulator.models.projects`, :mod:`~posthog_emulator.models.roles`,
  :mod:`~posthog_emulator.models.proxy_records`,
  :mod:`~posthog_emulator.models.integrations`, :mod:`~posthog_emulator.models.media`.

The rest of the emulator imports models from here (``from posthog_emulator.models import
Organization``); constants that belong to one area are imported from that area's module. A new
resource adds a module beside the others and imports its models below (``core`` first, so the
tables keep their order).
"""

from posthog_emulator.models.ids import (
    BASE62,
    generate_distinct_id,
    generate_key_id,
    generate_personal_api_key,
    generate_project_api_token,
    generate_random_short_suffix,
    hash_key_value,
    mask_key_value,
    random_token,
    uuidt,
)
from posthog_emulator.models.core import (
    INTERNAL_BOT_EMAIL_SUFFIX,
    MAX_SLUG_LENGTH,
    CachedOrganization,
    EmulatorState,
    FeatureFlags,
    Organization,
    OrganizationManager,
    OrganizationMembership,
    PersonalAPIKey,
    PersonalAPIKeyManager,
    Team,
    User,
    UserManager,
    create_with_slug,
)
from posthog_emulator.models.domains import DNSRecord, IdentityProviderConfig, OrganizationDomain
from posthog_emulator.models.people import (
    INVITE_DAYS_VALIDITY,
    OrganizationInvite,
    clock_offset,
    emulator_now,
    move_clock,
)
from posthog_emulator.models.batch_exports import (
    BatchExport,
    BatchExportBackfill,
    BatchExportDestination,
    BatchExportRun,
)
from posthog_emulator.models.plugins import Plugin, PluginActivity, PluginArchive, PluginConfig, PluginSourceFile
from posthog_emulator.models.event_definitions import (
    EventDefinition,
    EventProperty,
    EventSchema,
    PropertyDefinition,
    SchemaPropertyGroup,
    SchemaPropertyGroupProperty,
    TaxonomySettings,
)
from posthog_emulator.models.projects import SETTING_DEFAULTS, ProjectSettings
from posthog_emulator.models.roles import Role, RoleMembership, assign_default_role
from posthog_emulator.models.proxy_records import ProxyRecord
from posthog_emulator.models.integrations import Integration
from posthog_emulator.models.media import UploadedMedia
from posthog_emulator.models.hog_functions import HogFunction
from posthog_emulator.models.access_control import AccessControl, TeamAccessControlConfig

__all__ = [
    "AccessControl",
    "BASE62",
    "INTERNAL_BOT_EMAIL_SUFFIX",
    "INVITE_DAYS_VALIDITY",
    "MAX_SLUG_LENGTH",
    "BatchExport",
    "BatchExportBackfill",
    "BatchExportDestination",
    "BatchExportRun",
    "CachedOrganization",
    "DNSRecord",
    "EmulatorState",
    "EventDefinition",
    "EventProperty",
    "EventSchema",
    "FeatureFlags",
    "HogFunction",
    "IdentityProviderConfig",
    "Integration",
    "Organization",
    "OrganizationDomain",
    "OrganizationInvite",
    "OrganizationManager",
    "OrganizationMembership",
    "PersonalAPIKey",
    "PersonalAPIKeyManager",
    "Plugin",
    "PluginActivity",
    "PluginArchive",
    "PluginConfig",
    "PluginSourceFile",
    "ProjectSettings",
    "PropertyDefinition",
    "ProxyRecord",
    "Role",
    "RoleMembership",
    "SETTING_DEFAULTS",
    "SchemaPropertyGroup",
    "SchemaPropertyGroupProperty",
    "TaxonomySettings",
    "TeamAccessControlConfig",
    "Team",
    "UploadedMedia",
    "User",
    "UserManager",
    "assign_default_role",
    "clock_offset",
    "create_with_slug",
    "emulator_now",
    "generate_distinct_id",
    "generate_key_id",
    "generate_personal_api_key",
    "generate_project_api_token",
    "generate_random_short_suffix",
    "hash_key_value",
    "mask_key_value",
    "move_clock",
    "random_token",
    "uuidt",
]
