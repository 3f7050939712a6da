"""Managed reverse proxies: ``/api/organizations/<id|@current>/proxy_records`` (docs/posthog_facts.md
§10.6). Mirrors ``ProxyRecordViewset`` in ``posthog/api/proxy_record.py``; the workflow that
moves a record's ``status`` is pretend (:mod:`posthog_emulator.rules.proxy_records`).

* Scope object ``organization``; members read, admins (>= 8) create, retry and delete (403 "Your
  organization access level is insufficient.").
* **List**: not paginated, newest first: ``{"results": [...], "max_proxy_records": <n>}`` (the
  April 2026 schema documents a paginated list; PostHog's code overrides it). Reading advances the
  pretend workflow one step (see the rules module) for every record listed.
* **Retrieve**: one record (advanced the same way); unknown or malformed id → 404 "Not found.".
* **Create** ``{"domain"}`` → 201: ``domain`` is required, at most 64 characters and unique across
  every organization (400 ``unique`` "proxy record with this domain already exists."; PostHog does
  not check what it looks like). The newest ``create`` validates through the serializer
  (``serializer.is_valid(raise_exception=True)``: the model's ``unique=True`` and ``max_length=64``
  make DRF's validators), so these are clean 400s there too; older code handed the raw domain to
  ``queryset.create`` and failed in the database with a 500 (docs/posthog_facts.md §14.10). Past the organization's maximum (2, or the ``limit`` of its
  ``managed_reverse_proxy`` feature): 400 with the plain body ``{"detail": "Maximum of <n> proxy
  records per organization."}``, not PostHog's usual error shape. The record starts ``waiting``
  with ``target_cname`` ``<hash>.proxy.posthog-emulator.test`` and ``message`` null.
* **Delete** → 200 ``{"success": true}`` (not 204): a record ``waiting``, ``erroring`` or
  ``timed_out`` goes at once; any other becomes ``deleting`` and goes on its next read.
* **Retry** (``POST .../<id>/retry``): ``erroring`` or ``timed_out`` → ``waiting`` (message null),
  200 with the record; other states 400 ``{"detail": "Cannot retry proxy in <status> state."}``.
* No update: PATCH and PUT are 405 (newer PostHog serves only GET, POST and DELETE).
"""

from django.utils import timezone
from rest_framework import serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound
from rest_framework.response import Response

from posthog_emulator.models import DNSRecord, ProxyRecord, emulator_now
from posthog_emulator.permissions import OrganizationAdminWritePermissions
from posthog_emulator.routing import OrganizationNestedMixin, organization_prefix
from posthog_emulator.rules import RuleError, parse_uuid
from posthog_emulator.rules.features import MANAGED_REVERSE_PROXY, available_feature
from posthog_emulator.rules.proxy_records import (
    DELETED_AT_ONCE,
    DELETING,
    GONE,
    advance,
    check_retry,
    limit_message,
    max_records,
    target_cname,
)


class ProxyRecordSerializer(serializers.ModelSerializer):
    class Meta:
        model = ProxyRecord
        fields = ["id", "domain", "target_cname", "status", "message", "created_at", "updated_at", "created_by"]
        read_only_fields = ["target_cname", "created_at", "created_by", "status", "message"]


def observe(record: ProxyRecord) -> ProxyRecord | None:
    """The record after one step of the pretend workflow; None when the delete workflow removed it."""
    moved = advance(record.status, DNSRecord.cname_of(record.domain), record.target_cname,
                    emulator_now() - record.created_at, record.deleting_seen)  # fmt: skip
    if moved is None:
        if record.status == DELETING and not record.deleting_seen:
            record.deleting_seen = True
            record.save(update_fields=["deleting_seen"])
        return record
    new_status, message = moved
    if new_status == GONE:
        record.delete()
        return None
    record.status, record.message, record.updated_at = new_status, message, timezone.now()
    record.save(update_fields=["status", "message", "updated_at"])
    return record


class ProxyRecordViewSet(OrganizationNestedMixin, viewsets.ModelViewSet):
    scope_object = "organization"
    serializer_class = ProxyRecordSerializer
    permission_classes = [OrganizationAdminWritePermissions]
    queryset = ProxyRecord.objects.all()
    http_method_names = ["get", "post", "delete", "head", "options"]
    pagination_class = None

    @property
    def max_proxy_records(self) -> int:
        return max_records(available_feature(self.organization, MANAGED_REVERSE_PROXY))

    def _record(self, pk) -> ProxyRecord:
        record_id = parse_uuid(pk)  # any UUID; a malformed one names no record
        record = self.get_queryset().filter(id=record_id).first() if record_id else None
        if record is None:
            raise NotFound()
        self.check_object_permissions(self.request, record)
        return record

    def list(self, request, *args, **kwargs):
        records = [observe(r) for r in self.get_queryset().order_by("-created_at", "id")]
        data = self.get_serializer([r for r in records if r is not None], many=True).data
        return Response({"results": data, "max_proxy_records": self.max_proxy_records})

    def retrieve(self, request, *args, pk=None, **kwargs):
        record = observe(self._record(pk))
        if record is None:
            raise NotFound()
        return Response(self.get_serializer(record).data)

    def create(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        domain = serializer.validated_data["domain"]
        limit = self.max_proxy_records
        if ProxyRecord.objects.filter(organization=self.organization).count() >= limit:
            return Response({"detail": limit_message(limit)}, status=status.HTTP_400_BAD_REQUEST)
        record = ProxyRecord.objects.create(
            organization=self.organization,
            created_by=request.user,
            domain=domain,
            target_cname=target_cname(self.organization.id, domain),
        )
        return Response(self.get_serializer(record).data, status=status.HTTP_201_CREATED)

    def destroy(self, request, *args, pk=None, **kwargs):
        record = self._record(pk)
        if record.status in DELETED_AT_ONCE:
            record.delete()
        else:
            record.status = DELETING
            record.save(update_fields=["status", "updated_at"])
        return Response({"success": True}, status=status.HTTP_200_OK)

    @action(methods=["POST"], detail=True)
    def retry(self, request, *args, pk=None, **kwargs):
        record = self._record(pk)
        try:
            check_retry(record.status)
        except RuleError as error:
            return Response({"detail": error.detail}, status=status.HTTP_400_BAD_REQUEST)
        record.status, record.message = "waiting", None
        record.save(update_fields=["status", "message", "updated_at"])
        return Response(self.get_serializer(record).data)


def register(router) -> None:
    router.register(organization_prefix("proxy_records"), ProxyRecordViewSet, basename="organization_proxy_records")
