"""``/api/projects/<project_id>/integrations`` (``posthog/api/integration.py``; docs/posthog_facts.md §10.1).

Where batch export credentials live in PostHog's newest code. As PostHog's ``IntegrationViewSet``:

* Scope object ``integration``. Any member of the project's organization lists, retrieves and
  creates; deleting needs an admin (>= 8) or the integration's creator, else 403 "You do not have
  permission to perform this action.".
* Fields ``id`` (an integer), ``kind``, ``config``, ``created_at``, ``created_by`` (nested user),
  ``errors``, ``display_name``. ``sensitive_config`` (keys, passwords) is **never returned**.
* List: oldest first (``created_at``, ``id``), limit/offset pages, ``?kind=`` narrows to one kind.
* Create (201) from a credentials form, for the kinds of
  :data:`posthog_emulator.rules.integrations.API_KINDS` (``aws-s3``, ``s3-compatible``,
  ``snowflake``, ``databricks``, ``postgresql``, ``aws-redshift``, ``google-cloud-service-account``,
  ``azure-blob``), with PostHog's messages; the kinds named by the user (``aws-s3``,
  ``s3-compatible``, ``snowflake``, a Redshift role or AWS keys) refuse a second one of the same name
  (400 "An integration named 'x' already exists"), the others (kept by their connection: Databricks
  host, PostgreSQL or Redshift login, service account, Azure storage account) overwrite (upsert) the
  existing one with the same external id, keeping its id; overwriting needs a project admin (403
  "Editing an existing integration requires project admin access."). Other kinds are OAuth
  connections made in the web app:
  400 "Kind not supported" (the control API ``POST /_emulator/projects/<id>/integrations`` makes
  any kind). PostHog validates AWS keys with STS; the emulator records a made-up account id.
* Delete (204), refused while a batch export uses it: 400 "This integration is used by batch
  exports: <names>. Update them to use a different integration before disconnecting it.".
* No update (405), as PostHog.
* The helper actions (``authorize``, ``channels``, ``clickup_*``, ``email/verify``,
  ``github_repos``, ``google_*``, ``linear_teams``, ``linkedin_ads_*``, ``twilio_phone_numbers``)
  are routed; they declare no scope for a personal API key, so they answer 403 "This action does
  not support Personal API Key access" (docs/posthog_facts.md §14.6).
"""

from django.db import IntegrityError, transaction
from rest_framework import mixins, serializers, viewsets
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError

from posthog_emulator.api.shared import UserBasicSerializer, refused_action, rule_errors
from posthog_emulator.models import Integration, OrganizationMembership
from posthog_emulator.permissions import membership_level
from posthog_emulator.routing import ProjectNestedMixin, project_prefix
from posthog_emulator.rules.integrations import (
    ALL_KINDS,
    MESSAGE_OVERWRITE,
    build,
    display_name,
    duplicate_name,
    in_use_message,
)


class IntegrationSerializer(serializers.ModelSerializer):
    created_by = UserBasicSerializer(read_only=True)
    display_name = serializers.SerializerMethodField()
    kind = serializers.ChoiceField(choices=ALL_KINDS)
    config = serializers.JSONField(required=False, default=dict)

    class Meta:
        model = Integration
        fields = ["id", "kind", "config", "created_at", "created_by", "errors", "display_name"]
        read_only_fields = ["id", "created_at", "created_by", "errors", "display_name"]

    def get_display_name(self, integration: Integration) -> str:
        return display_name(integration.kind, integration.integration_id, integration.config)

    def create(self, validated_data):
        team = self.context["get_team"]()
        kind = validated_data["kind"]
        with rule_errors():
            built = build(kind, validated_data.get("config") or {}, team.id)
        user = self.context["request"].user
        existing = Integration.objects.filter(team=team, kind=kind, integration_id=built.integration_id).first()
        if existing is not None:
            if built.named:
                raise ValidationError(duplicate_name(built.integration_id).detail)
            # an upsert of another's integration: a project admin only (IntegrationSerializer.create)
            level = membership_level(user, team.organization) or 0
            if level < OrganizationMembership.Level.ADMIN:
                raise PermissionDenied(MESSAGE_OVERWRITE)
            existing.config, existing.sensitive_config, existing.errors = built.config, built.sensitive, ""
            existing.save(update_fields=["config", "sensitive_config", "errors"])
            return existing
        try:
            with transaction.atomic():
                return Integration.objects.create(team=team, kind=kind, integration_id=built.integration_id,
                                                  config=built.config, sensitive_config=built.sensitive, created_by=user)
        except IntegrityError:
            raise ValidationError(duplicate_name(built.integration_id).detail)


class IntegrationViewSet(
    ProjectNestedMixin, mixins.CreateModelMixin, mixins.RetrieveModelMixin, mixins.ListModelMixin,
    mixins.DestroyModelMixin, viewsets.GenericViewSet,
):  # fmt: skip
    scope_object = "integration"
    served_on_environments = True  # and /api/environments/<id>/integrations (posthog/api/__init__.py)
    serializer_class = IntegrationSerializer
    queryset = Integration.objects.select_related("created_by").order_by("created_at", "id")
    lookup_value_regex = r"[^/]+"

    def safely_get_queryset(self, queryset):
        kind = self.request.query_params.get("kind")
        return queryset.filter(kind=kind) if kind else queryset

    def get_object(self):
        if not str(self.kwargs.get(self.lookup_field, "")).isdigit():
            raise NotFound()
        return super().get_object()

    def perform_destroy(self, integration: Integration) -> None:
        level = membership_level(self.request.user, self.organization) or 0
        if level < OrganizationMembership.Level.ADMIN and integration.created_by_id != self.request.user.id:
            raise PermissionDenied()
        names = [destination.batch_exports.filter(deleted=False).values_list("name", flat=True)
                 for destination in integration.destinations.all()]
        in_use = [name for group in names for name in group]
        if in_use:
            raise ValidationError(in_use_message(in_use))
        integration.delete()


#: (name, detail route, method, url path) of the helper actions of ``IntegrationViewSet``.
HELPER_ACTIONS = [("authorize", False, "GET", "authorize"), ("channels", True, "GET", "channels"),
                  ("clickup_lists", True, "GET", "clickup_lists"), ("clickup_spaces", True, "GET", "clickup_spaces"),
                  ("clickup_workspaces", True, "GET", "clickup_workspaces"),
                  ("email_verify", True, "POST", "email/verify"), ("github_repos", True, "GET", "github_repos"),
                  ("google_accessible_accounts", True, "GET", "google_accessible_accounts"),
                  ("google_conversion_actions", True, "GET", "google_conversion_actions"),
                  ("linear_teams", True, "GET", "linear_teams"), ("linkedin_ads_accounts", True, "GET", "linkedin_ads_accounts"),
                  ("linkedin_ads_conversion_rules", True, "GET", "linkedin_ads_conversion_rules"),
                  ("twilio_phone_numbers", True, "GET", "twilio_phone_numbers")]  # fmt: skip

for _name, _detail, _method, _path in HELPER_ACTIONS:
    setattr(IntegrationViewSet, _name, refused_action(_name, _method, detail=_detail, url_path=_path))


def register(router) -> None:
    router.register(project_prefix("integrations"), IntegrationViewSet, basename="project_integrations")
