"""The rules of the emulated API as plain functions: no DRF, no request objects, no HTTP.

One module per area (``batch_exports``, ``plugins``, ``domains``, ``levels``, ``invites``,
``event_definitions``). A rule takes plain values (dicts, strings, numbers, model instances where a
rule is about one) and answers plain values; most never touch the database. A rule that says no
raises :class:`RuleError` (a 400 on the API) or :class:`Forbidden` (a 403), with the exact text
PostHog answers; the caller turns it into its own error: the ``/api/`` layer with
:func:`posthog_emulator.api.shared.rule_errors`, the control layer with its ``ControlError``.
"""


from uuid import UUID


def parse_uuid(value) -> UUID | None:
    """An id from a URL or body as a UUID; None when it is not one (then no object has it)."""
    try:
        return UUID(str(value))
    except ValueError:
        return None


class RuleError(ValueError):
    """A request a rule refuses: ``detail`` is the message, ``code`` the error code (``None``: the
    caller's default), ``attr`` the field it is about (``None``: the request as a whole)."""

    def __init__(self, detail: str, code: str | None = None, attr: str | None = None):
        super().__init__(detail)
        self.detail, self.code, self.attr = detail, code, attr


class Forbidden(RuleError):
    """A request the requester is not allowed to make (403 rather than 400)."""
