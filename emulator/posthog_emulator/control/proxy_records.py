"""Control endpoints of the proxy records area: ``/_emulator/proxy_records/<id>``.

PostHog's provisioning workflow moves a record on by itself; the emulator's moves on as records
are read (see :mod:`posthog_emulator.rules.proxy_records`) with the CNAME records of
``/_emulator/dns``. This endpoint puts a record in any state, for the paths DNS cannot reach
(``erroring`` with PostHog's message, ``warning``, ``timed_out`` ...).
"""

from django.urls import re_path

from posthog_emulator.control.base import ControlError, control_view, json_response, read_json, rule_errors
from posthog_emulator.models import ProxyRecord
from posthog_emulator.rules import parse_uuid
from posthog_emulator.rules.proxy_records import check_status


def record_summary(record: ProxyRecord) -> dict:
    return {
        "id": str(record.id),
        "organization": str(record.organization_id),
        "domain": record.domain,
        "target_cname": record.target_cname,
        "status": record.status,
        "message": record.message,
    }


@control_view("GET", "PATCH")
def proxy_record(request, record_id):
    """``GET`` a record as stored (no workflow step); ``PATCH`` ``{"status", "message"}`` sets
    either (an unknown status is 400 ``invalid_choice``). Unknown id → 404."""
    uuid = parse_uuid(record_id)
    record = ProxyRecord.objects.filter(id=uuid).first() if uuid else None
    if record is None:
        raise ControlError("Proxy record not found.", status=404, code="not_found")
    if request.method == "PATCH":
        data = read_json(request)
        if "status" in data:
            with rule_errors():
                record.status = check_status(data["status"])
        if "message" in data:
            if data["message"] is not None and not isinstance(data["message"], str):
                raise ControlError("Expected a string or null.", "message")
            record.message = data["message"]
        record.save()
    return json_response(record_summary(record))


urlpatterns = [re_path(r"^proxy_records/(?P<record_id>[^/]+)/?$", proxy_record)]
