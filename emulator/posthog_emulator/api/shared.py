"""What several resources share: serializers for nested representations, as in
``posthog/api/shared.py``, :func:`rule_errors`, which turns a refusal of
:mod:`posthog_emulator.rules` into DRF's exception, and :func:`refused_action`, an action PostHog
refuses to a personal API key.
"""

import copy
import threading
from contextlib import contextmanager

from rest_framework import serializers
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError

from posthog_emulator.models import Team, User
from posthog_emulator.permissions import MESSAGE_NO_PAK_SUPPORT
from posthog_emulator.rules import Forbidden, RuleError


_prototypes: dict = {}
_prototypes_lock = threading.Lock()


class ModelSerializer(serializers.ModelSerializer):
    """DRF's ``ModelSerializer``, whose fields are derived from the model once per class.

    ``ModelSerializer.get_fields`` inspects the model and builds every field on each call, i.e. on
    every request (it was a fifth of the CPU of a list request). The result depends only on the
    class (``Meta``, the declared fields, the model), so it is built once and each serializer gets
    a deep copy: new field instances, made the way DRF copies declared fields
    (``Field.__deepcopy__`` re-runs the constructor with the same arguments). Subclasses that
    override ``get_fields`` change their own copy, as before.
    """

    def get_fields(self):
        cls = type(self)
        prototype = _prototypes.get(cls)
        if prototype is None:
            prototype = super().get_fields()
            with _prototypes_lock:
                _prototypes.setdefault(cls, prototype)
        return copy.deepcopy(prototype)


@contextmanager
def rule_errors():
    """Run rules: a :class:`~posthog_emulator.rules.Forbidden` becomes ``PermissionDenied`` (403),
    any other :class:`~posthog_emulator.rules.RuleError` a ``ValidationError`` (400), under its
    ``attr`` when it names one. Inside a serializer's ``validate_<field>``, DRF adds that field."""
    try:
        yield
    except Forbidden as error:
        raise PermissionDenied(error.detail, code=error.code)
    except RuleError as error:
        raise ValidationError({error.attr: error.detail} if error.attr else error.detail, code=error.code)


def refused_action(name: str, method: str, detail: bool = True, url_path: str | None = None):
    """A viewset action of PostHog's that declares no ``required_scopes``: ``APIScopePermission``
    (``posthog/permissions.py``) refuses it to a personal API key, 403 "This action does not support
    Personal API Key access", before its body runs. Every key the emulator knows is one, so the
    body only repeats that refusal. Use as ``name = refused_action("name", "GET")`` in the class."""

    def refused(self, request, *args, **kwargs):
        raise PermissionDenied(MESSAGE_NO_PAK_SUPPORT)

    refused.__name__ = name  # DRF routes an action by its function's name (MethodMapper)
    return action(methods=[method], detail=detail, url_path=url_path)(refused)


class GenerationGateMixin:
    """For a viewset (or some of its actions) that exists only in some generations of a resource
    (:mod:`posthog_emulator.generations`). ``route_absent()`` says whether the current request's
    route is not served; then the answer is the catch-all 404 "Endpoint not found.", before
    authentication, as PostHog answers a path it does not route."""

    def route_absent(self) -> bool:
        return False

    def initial(self, request, *args, **kwargs):
        if self.route_absent():
            raise NotFound("Endpoint not found.")
        super().initial(request, *args, **kwargs)


class UserBasicSerializer(ModelSerializer):
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


class TeamBasicSerializer(ModelSerializer):
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


class ProjectBasicSerializer(ModelSerializer):
    """A project as listed in an organization's ``projects`` (PostHog's ``ProjectBasicSerializer``)."""

    organization_id = serializers.UUIDField(read_only=True)

    class Meta:
        model = Team
        fields = ["id", "organization_id", "name"]
        read_only_fields = fields
