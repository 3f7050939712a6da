"""Rules of the proxy records area (``posthog/api/proxy_record.py``, the ``create-proxy`` and
``delete-proxy`` workflows of ``posthog/temporal/proxy_service/``; docs/posthog_facts.md §10.6).

* The target is ``<first 20 hex digits of sha256(organization id + domain)>.<base>``
  (``generate_target_cname``); PostHog's base is a setting, the emulator's is
  :data:`PROXY_BASE_CNAME`.
* An organization has at most ``DEFAULT_MAX_PROXY_RECORDS`` records, or the ``limit`` of its
  ``managed_reverse_proxy`` feature.
* The pretend workflow (:func:`advance`) takes one step each time the record is read:
  ``waiting`` becomes ``issuing`` once the domain's CNAME points at the target (PostHog's
  ``wait_for_dns_records``; a CNAME elsewhere keeps it waiting, as PostHog retries), and
  ``timed_out`` after 7 days without it; ``issuing`` becomes ``valid`` (message ``""``); a record
  ``deleting`` is gone (the delete workflow finished). ``warning``, ``erroring`` and ``timed_out``
  stay until a retry or a control call moves them.
* Deleting a record that is ``waiting``, ``erroring`` or ``timed_out`` removes it at once; any
  other is marked ``deleting``. A retry needs ``erroring`` or ``timed_out``.
"""

import hashlib
from datetime import timedelta

from posthog_emulator.rules import RuleError

PROXY_BASE_CNAME = "proxy.posthog-emulator.test"
DEFAULT_MAX_PROXY_RECORDS = 2
DNS_WAIT = timedelta(days=7)  # schedule_to_close_timeout of wait_for_dns_records

WAITING, ISSUING, VALID, WARNING, ERRORING, DELETING, TIMED_OUT = (
    "waiting", "issuing", "valid", "warning", "erroring", "deleting", "timed_out",
)  # fmt: skip
STATUSES = (WAITING, ISSUING, VALID, WARNING, ERRORING, DELETING, TIMED_OUT)
DELETED_AT_ONCE = (WAITING, ERRORING, TIMED_OUT)
RETRYABLE = (ERRORING, TIMED_OUT)
GONE = "gone"


def target_cname(organization_id, domain: str, base: str = PROXY_BASE_CNAME) -> str:
    digest = hashlib.sha256()
    digest.update(f"{organization_id}".encode())
    digest.update(domain.encode())
    return f"{digest.hexdigest()[:20]}.{base}"


def max_records(feature: dict | None) -> int:
    if feature is None or feature.get("limit") is None:
        return DEFAULT_MAX_PROXY_RECORDS
    return feature["limit"]


def limit_message(limit: int) -> str:
    return f"Maximum of {limit} proxy records per organization."


def advance(status: str, cname: str | None, target: str, age: timedelta,
            deleting_seen: bool = False) -> tuple[str, str | None] | None:
    """The next ``(status, message)`` of a record read now, :data:`GONE` as the status when the
    delete workflow removed it, or None when it stays as it is. ``cname`` is where the domain's
    CNAME points (None: no CNAME); ``age`` how long ago the record was created; ``deleting_seen``
    whether a read showed it ``deleting`` already."""
    if status == WAITING:
        if cname is not None and cname.rstrip(".").lower() == target.lower():
            return ISSUING, None
        if age >= DNS_WAIT:
            return TIMED_OUT, None
        return None
    if status == ISSUING:
        return VALID, ""
    if status == DELETING and deleting_seen:
        return GONE, None
    return None


def check_retry(status: str) -> None:
    if status not in RETRYABLE:
        raise RuleError(f"Cannot retry proxy in {status} state.")


def check_status(value) -> str:
    """A status a control call may set."""
    if value not in STATUSES:
        raise RuleError(f'"{value}" is not a valid choice.', code="invalid_choice", attr="status")
    return value
