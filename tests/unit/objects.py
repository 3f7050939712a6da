# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""PostHog's objects as its API answers them, for the tests to script: one factory per kind, each
taking the fields a test changes."""

from __future__ import absolute_import, division, print_function

__metaclass__ = type

import uuid

ORG = "/api/organizations/@current/"
CHALLENGE = "c" * 43
DEFINITION_ID = "0190a3f4-7b1e-7c3a-9d2f-1a2b3c4d5e6f"
EXPORT_ID = "0190a3f4-0000-7000-8000-0000000000e1"
PLUGIN_URL = "https://github.com/acme/posthog-hello"
NOT_FOUND = {"type": "invalid_request", "code": "not_found", "detail": "Not found.", "attr": None}


def refusal(detail, code="permission_denied"):
    """PostHog's 403 body."""
    return {"type": "authentication_error", "code": code, "detail": detail, "attr": None}


def domain(verified=False, **fields):
    obj = dict(id="d1", domain="example.com", is_verified=verified,
               verified_at="2026-01-01T00:00:00Z" if verified else None, verification_challenge=CHALLENGE,
               jit_provisioning_enabled=False, sso_enforcement="", has_saml=False, saml_entity_id=None,
               saml_acs_url=None, saml_x509_cert=None)
    obj.update(fields)
    return obj


def newest_domain(**fields):
    """A domain as PostHog's newest domain API answers: no SAML columns, SCIM and an identity provider instead."""
    obj = domain(**fields)
    for name in ("saml_entity_id", "saml_acs_url", "saml_x509_cert"):
        obj.pop(name, None)
    obj.update(has_scim=False, scim_base_url=None, has_id_jag=False, identity_provider_config=None)
    return obj


def user_uuid(email):
    """A stable UUID for the user with this address."""
    return str(uuid.uuid5(uuid.NAMESPACE_URL, "mailto:" + email.lower()))


def member(email, level=1, uuid_=None):
    return {"id": "m-" + email, "level": level, "joined_at": "2026-01-01T00:00:00Z",
            "user": {"email": email, "uuid": uuid_ or user_uuid(email), "first_name": email.split("@")[0]}}


def invite(email, level=1, expired=False, created="2026-01-01T00:00:00Z", invite_id=None):
    return {"id": invite_id or "i-" + email + created, "target_email": email, "level": level,
            "is_expired": expired, "created_at": created}


def batch_export(**fields):
    obj = {"id": EXPORT_ID, "name": "Nightly", "model": "events", "interval": "day", "paused": False,
           "destination": {"type": "NoOp", "config": {}}}
    obj.update(fields)
    return obj


def plugin(**fields):
    obj = {"id": 7, "name": "Hello", "url": PLUGIN_URL, "plugin_type": "custom", "tag": "v1", "is_global": False,
           "description": "", "capabilities": {"methods": ["onEvent"]}}
    obj.update(fields)
    return obj


def definition(**fields):
    obj = dict(id=DEFINITION_ID, name="signed_up", description="", tags=[], owner=None, verified=False,
               verified_at=None, verified_by=None, hidden=False, is_action=False)
    obj.update(fields)
    return obj
