"""Control endpoints of the domains area: ``/_emulator/dns``, the emulator's pretend DNS.

Publish, list and withdraw the records the emulator reads instead of real DNS lookups: TXT records
for domain verification (``POST /api/organizations/<id>/domains/<id>/verify``) and CNAME records
for managed reverse proxies (``/api/organizations/<id>/proxy_records``).
"""

from django.db import IntegrityError, transaction
from django.http import HttpResponse
from django.urls import re_path

from posthog_emulator.control.base import ControlError, control_view, json_response, read_json
from posthog_emulator.models import DNSRecord
from posthog_emulator.models.domains import normalise_record_name


def record_summary(record: DNSRecord) -> dict:
    return {"name": record.name, "type": record.record_type, "value": record.value}


def parse_type(data: dict, default: str | None = "TXT") -> str | None:
    record_type = data.get("type", default)
    if record_type is None:
        return None
    if not isinstance(record_type, str) or record_type.upper() not in DNSRecord.TYPES:
        raise ControlError("Only TXT and CNAME records are emulated.", "type", code="invalid_choice")
    return record_type.upper()


def parse_record(data: dict, value_required: bool = True, default_type: str | None = "TXT"):
    """``(name, type, value)`` of a body; a CNAME's value is normalised like a name."""
    name, value = data.get("name"), data.get("value")
    record_type = parse_type(data, default_type)
    if name is not None and (not isinstance(name, str) or not normalise_record_name(name)):
        raise ControlError("Expected a DNS name such as _posthog-challenge.example.com.", "name")
    if value is not None and (not isinstance(value, str) or (record_type == "CNAME" and not value.strip(" ."))):
        raise ControlError("Expected a string." if record_type != "CNAME" else "Expected a DNS name.", "value")
    if value_required and (name is None or value is None):
        missing = "name" if name is None else "value"
        raise ControlError("This field is required.", missing, code="required")
    if value is not None and record_type == "CNAME":
        value = normalise_record_name(value)
    return (normalise_record_name(name) if name is not None else None), record_type, value


@control_view("GET", "POST", "DELETE")
def dns(request):
    """``POST`` publishes a record ``{"name", "value", "type"}`` (``type`` TXT, the default, or
    CNAME; 201, or 200 when it already exists; a CNAME replaces the name's previous CNAME);
    ``GET`` lists records (``?name=`` and ``?type=`` narrow); ``DELETE`` withdraws records: all
    of them without a body, those of ``name`` (and ``type``, ``value`` when given) otherwise. 204."""
    if request.method == "GET":
        records = DNSRecord.objects.all()
        if request.GET.get("name"):
            records = records.filter(name=normalise_record_name(request.GET["name"]))
        if request.GET.get("type"):
            records = records.filter(record_type=parse_type({"type": request.GET["type"]}))
        return json_response([record_summary(r) for r in records])
    data = read_json(request)
    if request.method == "POST":
        name, record_type, value = parse_record(data)
        with transaction.atomic():
            if record_type == "CNAME":
                DNSRecord.objects.filter(name=name, record_type="CNAME").exclude(value=value).delete()
            try:
                with transaction.atomic():
                    record = DNSRecord.objects.create(name=name, record_type=record_type, value=value)
                status = 201
            except IntegrityError:
                record = DNSRecord.objects.get(name=name, record_type=record_type, value=value)
                status = 200
        return json_response(record_summary(record), status=status)
    name, record_type, value = parse_record(data, value_required=False, default_type=None)
    if name is None and request.GET.get("name"):
        name = normalise_record_name(request.GET["name"])
    records = DNSRecord.objects.all()
    if name is not None:
        records = records.filter(name=name)
    if record_type is not None:
        records = records.filter(record_type=record_type)
    if value is not None:
        records = records.filter(value=value)
    records.delete()
    return HttpResponse(status=204)


urlpatterns = [re_path(r"^dns/?$", dns)]
