# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The reliability harness's calls to the emulator between tasks (fault rules, request log, marks),
made in the playbook's own process: as ansible.builtin.uri did them, without a module process each.

    lookup('reliability_control', {"method": "PUT", "url": ..., "body": {...}, "ca": path or None,
                                   "status": [200, 201, 204]}, api_key=...)

``api_key`` (optional) goes in an Authorization header. An unexpected status or a failed request
fails the task, so the play ends as it did when the uri task failed. Returns the status.
"""

from __future__ import annotations

DOCUMENTATION = r"""
name: reliability_control
short_description: The reliability harness's control calls to the emulator (tests only)
description: One HTTP request to the emulator; fails on an unexpected status.
options:
  _terms:
    description: The request (method, url, body, ca, status).
    required: true
  api_key:
    description: Sent as a bearer token when given.
    type: str
"""

import json
import ssl
import urllib.error
import urllib.request

from ansible.errors import AnsibleError
from ansible.plugins.lookup import LookupBase


class LookupModule(LookupBase):
    def run(self, terms, variables=None, **kwargs):
        return [str(self._call(json.loads(json.dumps(term)), kwargs.get("api_key"))) for term in terms]

    @staticmethod
    def _call(request, api_key):
        method, url = request["method"], request["url"]
        headers = {}
        data = None
        if request.get("body") is not None:
            data = json.dumps(request["body"]).encode()
            headers["Content-Type"] = "application/json"
        if api_key:
            headers["Authorization"] = "Bearer %s" % api_key
        handlers = [urllib.request.ProxyHandler({})]  # loopback: never through a proxy
        if url.startswith("https:"):
            handlers.append(urllib.request.HTTPSHandler(context=ssl.create_default_context(cafile=request.get("ca"))))
        opener = urllib.request.build_opener(*handlers)
        try:
            with opener.open(urllib.request.Request(url, data=data, headers=headers, method=method), timeout=30) as answer:
                status = answer.status
        except urllib.error.HTTPError as error:
            status = error.code
        except (OSError, ValueError) as error:
            raise AnsibleError("%s %s failed: %s" % (method, url, error)) from None
        if status not in request.get("status", [200, 201, 204]):
            raise AnsibleError("%s %s answered HTTP %s" % (method, url, status))
        return status
