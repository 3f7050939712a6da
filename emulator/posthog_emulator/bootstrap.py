"""The data a fresh database starts with, and the reset that returns to it.

On an empty database :func:`ensure_bootstrap` creates:

* the user ``admin@example.com`` (Ada Admin),
* the organization "Emulator Org" (slug ``emulator-org``) with the user as owner (level 15),
* its project "Default project", current for the user,
* a personal API key with scopes ``["*"]`` for the user: the given raw value, or a generated
  ``phx_`` key.

The bootstrap organization and project IDs are remembered in :class:`EmulatorState`, so the
control API can report them even after other organizations were created.
"""

import threading

from django.core.management import call_command
from django.db import transaction

from posthog_emulator.models import (
    EmulatorState,
    Organization,
    PersonalAPIKey,
    Team,
    User,
    hash_key_value,
)

BOOTSTRAP_EMAIL = "admin@example.com"
BOOTSTRAP_FIRST_NAME = "Ada"
BOOTSTRAP_LAST_NAME = "Admin"
BOOTSTRAP_ORGANIZATION_NAME = "Emulator Org"
BOOTSTRAP_PROJECT_NAME = "Default project"
BOOTSTRAP_KEY_LABEL = "bootstrap"

_state_lock = threading.Lock()
_bootstrap_key: str | None = None  # raw value, kept in process memory only (the DB has the hash)
_reset_callbacks: list = []


def on_reset(callback) -> None:
    """Call ``callback()`` after every :func:`reset`, once the database is bootstrapped again.

    The extension point for features that keep state outside the database (fault rules,
    published DNS records, ...) and must forget it on reset.
    """
    with _state_lock:
        if callback not in _reset_callbacks:
            _reset_callbacks.append(callback)


def bootstrap_key() -> str | None:
    """The raw bootstrap key known to this process, if any."""
    return _bootstrap_key


def _remember_key(raw: str | None) -> None:
    global _bootstrap_key
    with _state_lock:
        _bootstrap_key = raw


def migrate() -> None:
    """Create any missing table (there are no migration files; see :mod:`posthog_emulator.models`).

    What ``migrate --run-syncdb`` does for an app without migrations, without its cost: the
    command first renders the whole project state three times (a third of the start-up) only to
    find that there is nothing to migrate. Tables are created with the schema editor, in one
    transaction, foreign keys and indexes included; existing tables are left as they are.
    """
    from django.apps import apps
    from django.db import connection

    existing = set(connection.introspection.table_names())
    models = [
        model
        for model in apps.get_app_config("posthog_emulator").get_models()
        if model._meta.managed and not model._meta.proxy and model._meta.db_table not in existing
    ]
    if not models:
        return
    with connection.schema_editor() as editor:
        for model in models:
            editor.create_model(model)


def ensure_bootstrap(api_key: str | None = None) -> tuple[str | None, bool]:
    """Bootstrap an empty database; make sure ``api_key`` works on a non-empty one.

    Returns ``(raw_key, created)``. ``created`` is True when the database was empty. On a
    non-empty database a given ``api_key`` that is not stored yet is added for the bootstrap user
    (scopes ``["*"]``); without ``api_key`` the raw key is ``None`` (only hashes are stored).
    """
    with transaction.atomic():
        if not User.objects.exists() and not Organization.objects.exists():
            _, raw = _create_bootstrap(api_key)
            _remember_key(raw)
            return raw, True
        if api_key:
            if not PersonalAPIKey.objects.filter(secure_value=hash_key_value(api_key)).exists():
                user, _ = User.objects.get_or_create_user(
                    BOOTSTRAP_EMAIL, first_name=BOOTSTRAP_FIRST_NAME, last_name=BOOTSTRAP_LAST_NAME
                )
                PersonalAPIKey.objects.issue(user, raw_value=api_key, label=BOOTSTRAP_KEY_LABEL, scopes=["*"])
            _remember_key(api_key)
        return api_key, False


def _create_bootstrap(api_key: str | None) -> tuple[User, str]:
    user = User.objects.create(email=BOOTSTRAP_EMAIL, first_name=BOOTSTRAP_FIRST_NAME, last_name=BOOTSTRAP_LAST_NAME)
    organization, _, team = Organization.objects.bootstrap(
        user, name=BOOTSTRAP_ORGANIZATION_NAME, team_name=BOOTSTRAP_PROJECT_NAME
    )
    _, raw = PersonalAPIKey.objects.issue(user, raw_value=api_key, label=BOOTSTRAP_KEY_LABEL, scopes=["*"])
    EmulatorState.put("bootstrap_organization_id", str(organization.id))
    EmulatorState.put("bootstrap_project_id", team.id)
    return user, raw


def reset(api_key: str | None = None) -> str:
    """Wipe every table and bootstrap again with ``api_key``, else the previous bootstrap key.

    When neither is known (a server restarted on an existing database without ``--api-key``),
    a new key is generated. Returns the raw bootstrap key.
    """
    api_key = api_key or bootstrap_key()
    call_command("flush", interactive=False, verbosity=0)
    raw, _ = ensure_bootstrap(api_key)
    with _state_lock:
        callbacks = list(_reset_callbacks)
    for callback in callbacks:
        callback()
    return raw


def bootstrap_organization() -> Organization | None:
    organization_id = EmulatorState.get("bootstrap_organization_id")
    return Organization.objects.filter(id=organization_id).first() if organization_id else None


def bootstrap_project() -> Team | None:
    project_id = EmulatorState.get("bootstrap_project_id")
    return Team.objects.filter(id=project_id).first() if project_id else None
