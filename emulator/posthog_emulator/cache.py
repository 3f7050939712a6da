"""Caches of the rows nearly every request reads, invalidated exactly by the writes themselves.

Every ``/api/`` request used to read the same three rows before its view ran: the personal API
key (with its user), the requester's membership, and the organization of ``@current``. This module
keeps them in process memory:

* :func:`key_entry`: a key's hash -> the key's and its user's column values and the user's
  memberships (``{organization id: level}``);
* :func:`organization`: an organization by ID.

**Invalidation is driven by SQL, not by call sites.** An execute wrapper, installed on every
database connection (:func:`install`), looks at each statement the connection runs; an
``INSERT``, ``UPDATE``, ``DELETE`` or ``REPLACE`` that names a watched table bumps that table's
version, once when the statement runs and again when its transaction commits (a reader that
loaded the old rows between the two then stores them under a version that is already stale). So a
queryset ``update()``, a cascade, ``flush`` (the control API's reset) or raw SQL invalidate as
surely as ``save()``; nothing depends on Django's model signals. A cached entry remembers the
versions of the tables it was read from and is used only while they are unchanged: a revoked key,
a removed membership or changed scopes take effect on the very next request.

Entries hold plain column values, never model instances: every request gets fresh instances
(:meth:`django.db.models.Model.from_db`), so nothing a view does to its objects can leak into
another request.
"""

from __future__ import annotations

from django.db.backends.signals import connection_created

from posthog_emulator import tables as _tables
from posthog_emulator.tables import (  # noqa: F401 (the request recording API, used through this module)
    _ROW_TRACKED,
    MAX_ENTRIES,
    ROWS,
    Recording,
    _local,
    _lock,
    _on_connection,
    _versions,
    authenticated_with,
    depend_on,
    start_recording,
    stop_recording,
    uncacheable,
    versions,
    watch,
)

_keys: dict[str, tuple] = {}
_organizations: dict = {}


def install() -> None:
    """Watch every table of the app on every connection, current and future (called once, at app
    start)."""
    from django.apps import apps
    from django.db import connections

    from posthog_emulator.models import Organization

    watch(*apps.get_app_config("posthog_emulator").get_models())
    _ROW_TRACKED.add(Organization._meta.db_table)
    _versions[Organization._meta.db_table + ROWS] = 0
    connection_created.connect(_on_connection, dispatch_uid="posthog_emulator.cache")
    for connection in connections.all(initialized_only=True):
        _on_connection(None, connection)


def clear() -> None:
    """Forget every entry (the versions already make stale entries unusable; this frees memory)."""
    with _lock:
        _keys.clear()
        _organizations.clear()
    _tables.forget()


# --------------------------------------------------------------------------------------------
# Keys
# --------------------------------------------------------------------------------------------

_KEY_TABLES: tuple = ()


def _key_tables() -> tuple:
    global _KEY_TABLES
    if not _KEY_TABLES:
        from posthog_emulator.models import OrganizationMembership, PersonalAPIKey, User

        _KEY_TABLES = tuple(m._meta.db_table for m in (PersonalAPIKey, User, OrganizationMembership))
    return _KEY_TABLES


class KeyEntry:
    """What authentication needs, as fresh instances: ``key`` (its ``user`` attached) and the
    user's memberships, valid while :attr:`membership_version` is current."""

    __slots__ = ("key", "memberships", "membership_version")

    def __init__(self, key, memberships: dict, membership_version: int):
        self.key, self.memberships, self.membership_version = key, memberships, membership_version

    def memberships_current(self) -> bool:
        return _versions[_key_tables()[2]] == self.membership_version


def key_entry(secure_value: str) -> KeyEntry | None:
    """The active user's key with this hash, or ``None`` (unknown key, or an inactive user)."""
    from posthog_emulator.models import OrganizationMembership, PersonalAPIKey, User

    tables = _key_tables()
    depend_on(tables)
    stamp = versions(tables)
    cached = _keys.get(secure_value)
    if cached is None or cached[0] != stamp:
        key = (
            PersonalAPIKey.objects.select_related("user")
            .filter(user__is_active=True, secure_value=secure_value)
            .first()
        )
        if key is None:
            values = None
        else:
            memberships = dict(
                OrganizationMembership.objects.filter(user_id=key.user_id).values_list("organization_id", "level")
            )
            values = (_values(key), _values(key.user), memberships)
        with _lock:
            if len(_keys) >= MAX_ENTRIES:
                _keys.clear()
            _keys[secure_value] = cached = (stamp, values)
    values = cached[1]
    if values is None:
        return None
    key = _instance(PersonalAPIKey, values[0])
    key.user = _instance(User, values[1])
    return KeyEntry(key, dict(values[2]), stamp[2])


# --------------------------------------------------------------------------------------------
# Organizations
# --------------------------------------------------------------------------------------------


def organization(organization_id):
    """A fresh organization instance for this ID (a UUID), or ``None`` when there is none.

    The instance is a :class:`~posthog_emulator.models.CachedOrganization`: the current request
    depends on the organization's existence (``<table>#rows``, moved by INSERT and DELETE only) and,
    once it reads any column besides ``id``, on the organization table itself. The query that
    refreshes a stale entry is not counted as a read of the request (it decides existence, which
    is what the request depends on so far).
    """
    from posthog_emulator.models import CachedOrganization, Organization

    table = Organization._meta.db_table
    depend_on((table + ROWS,))
    stamp = _versions[table]
    cached = _organizations.get(organization_id)
    if cached is None or cached[0] != stamp:
        recording = getattr(_local, "recording", None)
        _local.recording = None
        try:
            # A raw query: the ORM's compilation of filter().first() costs ten times the lookup.
            rows = list(Organization.objects.raw(f'SELECT * FROM "{table}" WHERE "id" = %s', [organization_id.hex]))
            row = rows[0] if rows else None
        finally:
            _local.recording = recording
        with _lock:
            if len(_organizations) >= MAX_ENTRIES:
                _organizations.clear()
            _organizations[organization_id] = cached = (stamp, _values(row) if row is not None else None)
    return _instance(CachedOrganization, cached[1]) if cached[1] is not None else None


# --------------------------------------------------------------------------------------------
# Column values <-> instances
# --------------------------------------------------------------------------------------------


def _values(instance) -> tuple:
    """The instance's column values, in ``concrete_fields`` order (JSON columns copied deeply by
    :func:`_instance` on the way out, so no request can change the cached ones)."""
    return tuple(getattr(instance, field.attname) for field in instance._meta.concrete_fields)


def _instance(model, values: tuple):
    import copy

    fields = model._meta.concrete_fields
    values = tuple(
        copy.deepcopy(value) if isinstance(value, (list, dict)) else value for value in values
    )
    return model.from_db("default", [field.attname for field in fields], values)


# --------------------------------------------------------------------------------------------
# Memoised reads
# --------------------------------------------------------------------------------------------

def memo(key, models, compute):
    """``compute()``, remembered under ``key`` while no table of ``models`` was written.

    The current request depends on those tables. ``compute`` must return plain values (tuples,
    numbers, strings), never model instances; the caller gets a deep copy.
    """
    import copy

    return copy.deepcopy(_tables.versioned(("memo", key), tuple(model._meta.db_table for model in models), compute))


def instances(model, rows) -> list:
    """Fresh instances of ``model`` from column-value tuples (see :func:`values_of`)."""
    return [_instance(model, row) for row in rows]


def values_of(instance) -> tuple:
    return _values(instance)
