"""Serializers for nested representations, as in ``posthog/api/shared.py``."""

from rest_framework import serializers

from posthog_emulator.models import Team, User


class UserBasicSerializer(serializers.ModelSerializer):
    """The nested user object (spec 2.5)."""

    class Meta:
        model = User
        fields = [
            "id",
            "uuid",
            "distinct_id",
            "first_name",
            "last_name",
            "email",
            "is_email_verified",
            "hedgehog_config",
        ]
        read_only_fields = fields


class TeamBasicSerializer(serializers.ModelSerializer):
    """A project as listed in an organization's ``teams`` and in ``GET /api/projects/``.

    Same fields as PostHog's ``TeamBasicSerializer`` / ``ProjectBackwardCompatBasicSerializer``.
    """

    project_id = serializers.IntegerField(source="id", read_only=True)

    class Meta:
        model = Team
        fields = [
            "id",
            "uuid",
            "organization",
            "project_id",
            "api_token",
            "name",
            "completed_snippet_onboarding",
            "has_completed_onboarding_for",
            "ingested_event",
            "is_demo",
            "timezone",
            "access_control",
        ]
        read_only_fields = fields


class ProjectBasicSerializer(serializers.ModelSerializer):
    """A project as listed in an organization's ``projects`` (PostHog's ``ProjectBasicSerializer``)."""

    organization_id = serializers.UUIDField(read_only=True)

    class Meta:
        model = Team
        fields = ["id", "organization_id", "name"]
        read_only_fields = fields
