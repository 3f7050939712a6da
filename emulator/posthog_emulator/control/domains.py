"""Control endpoints of the domains area: ``/_emulator/dns``, the emulator's pretend DNS.

Publish, list and withdraw the TXT records that domain verification
(``POST /api/organizations/<id>/domains/<id>/verify``) reads instead of real DNS lookups.
"""

from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.urls import re_path

from posthog_emulator.control.base import ControlError, control_view, json_response, read_json
from posthog_emulator.models import DNSRecord
from posthog_emulator.models.domains import normalise_record_name


def record_summary(record: DNSRecord) -> dict:
    return {"name": record.name, "type": "TXT", "value": record.value}


def parse_record(data: dict, value_required: bool = True) -> tuple[str | None, str | None]:
    name, value = data.get("name"), data.get("value")
    record_type = data.get("type", "TXT")
    if record_type is None or str(record_type).upper() != "TXT":
        raise ControlError("Only TXT records are emulated.", "type", code="invalid_choice")
    if name is not None and (not isinstance(name, str) or not normalise_record_name(name)):
        raise ControlError("Expected a DNS name such as _posthog-challenge.example.com.", "name")
    if value is not None and not isinstance(value, str):
        raise ControlError("Expected a string.", "value")
    if value_required and (name is None or value is None):
        missing = "name" if name is None else "value"
        raise ControlError("This field is required.", missing, code="required")
    return (normalise_record_name(name) if name is not None else None), value


@control_view("GET", "POST", "DELETE")
def dns(request):
    """``POST`` publishes a TXT record ``{"name", "value"}`` (201; 200 when it already exists);
    ``GET`` lists records (``?name=`` narrows); ``DELETE`` withdraws records: all of them without a
    body, those of ``name`` (and ``value``, when given) otherwise. 204."""
    if request.method == "GET":
        records = DNSRecord.objects.all()
        if request.GET.get("name"):
            records = records.filter(name=normalise_record_name(request.GET["name"]))
        return json_response([record_summary(r) for r in records])
    data = read_json(request)
    if request.method == "POST":
        name, value = parse_record(data)
        try:
            with transaction.atomic():
                record = DNSRecord.objects.create(name=name, value=value)
            status = 201
        except IntegrityError:
            record = DNSRecord.objects.get(name=name, value=value)
            status = 200
        return json_response(record_summary(record), status=status)
    name, value = parse_record(data, value_required=False)
    if name is None and request.GET.get("name"):
        name = normalise_record_name(request.GET["name"])
    records = DNSRecord.objects.all()
    if name is not None:
        records = records.filter(name=name)
    if value is not None:
        records = records.filter(value=value)
    records.delete()
    return HttpResponse(status=204)


urlpatterns = [re_path(r"^dns/?$", dns)]
