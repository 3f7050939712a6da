"""A PostHog client nobody here wrote, pointed at the emulator: the runner of ``test_real_client.py``.

The client is the PyPI package ``arcade-posthog-api`` (pinned in ``requirements-test.txt``): one
async function ("tool") per operation of PostHog's OpenAPI schema, generated from that schema, each
described by a JSON file in the package's ``wrapper_tools/`` (its URL, method and which argument is
a path parameter, a query parameter or the body). The runner calls the tools by name, with the
parameters PostHog's schema names (``organization_id``, ``limit``...), translated to each tool's own
argument names through that JSON.

The scenario and what PostHog's code answers to each call are in
``data/real_client_expectations.yaml``: a list of steps, each one of

* ``call: <tool name>`` with ``args`` (schema parameter names; ``"{name}"`` in a value is replaced by
  a value saved earlier), optional ``body``, optional ``as`` (the name of a key made by a ``key``
  step; else the bootstrap key, scopes ``*``), ``save`` (``{name: field}``: keep a field of the answer,
  ``results.0.id`` style paths), and ``expect``: ``status``, ``shape`` and ``source`` (the PostHog
  file the answer was read from; see :func:`shape_problem` for shapes);
* ``control: <path>`` with ``method`` and ``body``: a request to the control API (``/_emulator/``),
  which sets up what the API cannot (a run, an integration, a feature), with optional ``save``;
* ``key: <name>`` with ``scopes``: a personal API key of the bootstrap user with those scopes.

``python -m tests.real_client`` (from ``emulator/``) runs the scenario against a fresh emulator and
prints every call with what it got and what is expected; the test asserts there is no difference.
"""

from __future__ import annotations

import asyncio
import functools
import importlib.resources
import inspect
import json
import re
import sys
import tempfile
from pathlib import Path

import yaml

EXPECTATIONS = Path(__file__).parent / "data" / "real_client_expectations.yaml"
PACKAGE = "arcade_posthog_api"
KEY = "phx_" + "r" * 40
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


# ------------------------------------------------------------------------------------ the package
@functools.lru_cache(maxsize=None)
def tool_definitions() -> dict:
    """Tool name -> its JSON definition (``wrapper_tools/<name>.json`` of the package)."""
    folder = importlib.resources.files(PACKAGE) / "wrapper_tools"
    definitions = {}
    for entry in folder.iterdir():
        if entry.name.endswith(".json"):
            definition = json.loads(entry.read_text())
            definitions[definition["name"]] = definition
    return definitions


@functools.lru_cache(maxsize=None)
def tool_functions() -> dict:
    """Tool name -> the package's async function."""
    module = importlib.import_module(f"{PACKAGE}.tools")
    return {f.__tool_name__: f for f in vars(module).values() if callable(f) and hasattr(f, "__tool_name__")}


def openapi_document() -> dict:
    """PostHog's OpenAPI schema as the package ships it (``moar/openapi.json``)."""
    return json.loads((importlib.resources.files(PACKAGE) / "moar" / "openapi.json").read_text())


def endpoint(name: str) -> tuple[str, str]:
    """``(method, path)`` of a tool, the path as PostHog's schema writes it."""
    http = tool_definitions()[name]["http_endpoint"]
    return http["http_method"], http["url"].replace("{posthog_server_url}", "")


def tool_arguments(name: str, args: dict, body) -> dict:
    """The keyword arguments of the tool's function for schema parameters ``args`` and ``body``."""
    http = tool_definitions()[name]["http_endpoint"]
    by_http_name = {p["name"]: p for p in http["parameters"]}
    function = tool_functions()[name]
    accepted = inspect.signature(function).parameters
    kwargs = {}
    for http_name, value in args.items():
        parameter = by_http_name.get(http_name)
        if parameter is None or parameter["accepted_as"] == "body":
            raise KeyError(f"{name} has no path or query parameter {http_name!r}")
        kwargs[parameter["tool_parameter_name"]] = value
    if http["use_request_body_schema_mode"]:
        kwargs["mode"] = "execute"
        kwargs["request_body"] = json.dumps(body if body is not None else {})
    elif body is not None:
        raise KeyError(f"{name} takes no body")
    unknown = set(kwargs) - set(accepted)
    if unknown:
        raise KeyError(f"{name} has no argument(s) {sorted(unknown)}")
    return kwargs


def org_admin_tools() -> list:
    """Every tool of the package whose path is one the table covers (:data:`COVERED`)."""
    return sorted(name for name in tool_definitions()
                  if COVERED.match(endpoint(name)[1]) and not (endpoint(name)[1].startswith("/api/users/")
                                                               and endpoint(name)[0] != "GET"))


#: The organization-administration paths of the package: organizations and everything under them,
#: the project's batch exports, integrations, event definitions, hog functions (and their
#: ``/api/environments/`` twins), the project's property definitions (issue 34), the project's
#: environments, and the user's own record (read only:
#: changing or deleting one's account is not organization administration).
COVERED = re.compile(
    r"^/api/(organizations/"
    r"|(projects|environments)/\{project_id\}/(batch_exports|integrations|event_definitions|hog_functions)/"
    r"|projects/\{project_id\}/property_definitions/"
    r"|projects/\{project_id\}/environments/"
    r"|users/\{uuid\}/$)"
)


# ------------------------------------------------------------------------------------ calling
async def call_tool(name: str, url: str, key: str, args: dict, body) -> tuple[int, object]:
    """Call a tool against ``url``: ``(status, decoded body)``. The package raises on an error
    status (httpx's ``HTTPStatusError``, wrapped in the toolkit's error for 400 and 422): the
    answer is read from the exception."""
    import httpx
    from arcade_tdk import ToolContext
    from arcade_core.schema import ToolSecretItem

    context = ToolContext(secrets=[ToolSecretItem(key="POSTHOG_SERVER_URL", value=url),
                                   ToolSecretItem(key="POSTHOG_PERSONAL_API_KEY", value=key)])  # fmt: skip
    try:
        result = await tool_functions()[name](context, **tool_arguments(name, args, body))
    except Exception as error:  # the package's own error types
        cause = error
        while cause is not None and not isinstance(cause, httpx.HTTPStatusError):
            cause = cause.__cause__
        if cause is None:
            raise
        return cause.response.status_code, _decode(cause.response)
    # A success: the package answers {"response_json": ...} (or response_text), not the status.
    return _last_status[-1], result.get("response_json", result.get("response_text"))


_last_status: list = []


def _decode(response):
    if not response.content:
        return None
    try:
        return response.json()
    except ValueError:
        return response.text


def _record_status(response):
    _last_status.append(response.status_code)


def _substitute(value, saved: dict):
    if isinstance(value, str):
        whole = _PLACEHOLDER.fullmatch(value)
        if whole:
            return saved[whole.group(1)]
        return _PLACEHOLDER.sub(lambda m: str(saved[m.group(1)]), value)
    if isinstance(value, list):
        return [_substitute(item, saved) for item in value]
    if isinstance(value, dict):
        return {k: _substitute(v, saved) for k, v in value.items()}
    return value


def _pick(body, path: str):
    for part in path.split("."):
        body = body[int(part)] if isinstance(body, list) else body[part]
    return body


# ------------------------------------------------------------------------------------ shapes
def shape_problem(body, shape) -> str | None:
    """What is wrong with ``body`` for ``shape`` (None: nothing). Shapes:

    * ``none``: no body (204);
    * ``{object: [keys]}``: a JSON object with at least these keys;
    * ``{page: [keys]}``: DRF's limit/offset envelope ``{count, next, previous, results}``, each
      result with at least these keys;
    * ``{cursor: [keys]}``: a cursor page ``{next, previous, results}`` (no ``count``);
    * ``{list: [keys]}``: a JSON array, each element with at least these keys;
    * ``{error: code}``: PostHog's error body ``{type, code, detail, attr}`` with that code, and
      ``detail`` (exact) when the shape gives one.
    """
    if shape == "none":
        return None if body in (None, "") else f"expected no body, got {str(body)[:200]}"
    (kind, spec), = shape.items() if len(shape) == 1 or "error" not in shape else [("error", shape["error"])]
    if kind == "error":
        if not isinstance(body, dict) or set(body) != {"type", "code", "detail", "attr"}:
            return f"expected an error body, got {str(body)[:300]}"
        if body["code"] != spec:
            return f"expected error code {spec!r}, got {body['code']!r} ({body['detail']!r})"
        if "detail" in shape and body["detail"] != shape["detail"]:
            return f"expected detail {shape['detail']!r}, got {body['detail']!r}"
        return None
    if kind == "object":
        return _missing(body, spec, "object")
    if kind in ("page", "cursor"):
        envelope = ["next", "previous", "results"] + (["count"] if kind == "page" else [])
        problem = _missing(body, envelope, kind)
        if problem:
            return problem
        if kind == "cursor" and "count" in body:
            return "a cursor page has no count"
        items = body["results"]
    elif kind == "list":
        items = body
        if not isinstance(items, list):
            return f"expected a list, got {str(body)[:200]}"
    else:
        raise ValueError(f"unknown shape {shape!r}")
    for item in items:
        problem = _missing(item, spec, "element")
        if problem:
            return problem
    return None


def _missing(body, keys, what):
    if not isinstance(body, dict):
        return f"expected an {what}, got {str(body)[:200]}"
    absent = [key for key in keys or [] if key not in body]
    return f"{what} lacks {absent} (has {sorted(body)[:40]})" if absent else None


# ------------------------------------------------------------------------------------ running
def load_steps(path: Path = EXPECTATIONS) -> list:
    return yaml.safe_load(path.read_text())["steps"]


class Outcome:
    def __init__(self, step, status, body, problem):
        self.step, self.status, self.body, self.problem = step, status, body, problem

    @property
    def name(self):
        return self.step["call"]

    def line(self) -> str:
        expected = self.step["expect"]
        mark = "ok  " if self.problem is None else "DIFF"
        text = f"{mark} {self.name} {expected['status']}"
        if self.problem:
            text += f": got {self.status}; {self.problem}"
        return text


async def run_steps(live, steps: list) -> list:
    """Run the scenario against a :class:`tests.live.Live`; one :class:`Outcome` per call step."""
    import httpx

    from arcade_posthog_api import tools

    # The package's own client (tools.HTTP_CLIENT), made anew inside this event loop, with a hook that
    # notes each answer's status: a tool answers only the body of a success.
    tools.HTTP_CLIENT = httpx.AsyncClient(
        timeout=httpx.Timeout(60.0, connect=10.0), limits=httpx.Limits(max_keepalive_connections=20, max_connections=100),
        transport=httpx.AsyncHTTPTransport(retries=3), http2=True, follow_redirects=True,
        event_hooks={"response": [_async_record_status]},
    )
    saved, keys, outcomes = {"url": live.url}, {}, []
    try:
        for step in steps:
            if "key" in step:
                status, body = live.call("/_emulator/keys", "POST", {"email": "admin@example.com", "scopes": step["scopes"]})
                assert status == 201, body
                keys[step["key"]] = body["key"]
                continue
            if "control" in step:
                status, body = live.call("/_emulator/" + _substitute(step["control"], saved), step.get("method", "POST"),
                                         _substitute(step.get("body"), saved))  # fmt: skip
                assert status < 300, (step, status, body)
            else:
                key = keys[step["as"]] if "as" in step else live.key
                _last_status.clear()
                status, body = await call_tool(step["call"], live.url, key, _substitute(step.get("args", {}), saved),
                                               _substitute(step.get("body"), saved))  # fmt: skip
                expected = step["expect"]
                problem = None
                if status != expected["status"]:
                    problem = f"status {status}, body {str(body)[:300]}"
                else:
                    problem = shape_problem(body, expected["shape"])
                outcomes.append(Outcome(step, status, body, problem))
            for name, field in (step.get("save") or {}).items():
                try:
                    saved[name] = _pick(body, field)
                except (KeyError, IndexError, TypeError):
                    saved[name] = None
    finally:
        await tools.HTTP_CLIENT.aclose()
    return outcomes


async def _async_record_status(response):
    _record_status(response)


def run(live, steps=None) -> list:
    return asyncio.run(run_steps(live, load_steps() if steps is None else steps))


def main(argv=None) -> int:
    from tests.live import live_server

    argv = sys.argv[1:] if argv is None else argv
    steps = load_steps(Path(argv[0])) if argv else None
    with tempfile.TemporaryDirectory() as folder, live_server(Path(folder) / "db.sqlite3", KEY, "--profile", "posthog") as live:
        outcomes = run(live, steps)
    for outcome in outcomes:
        print(outcome.line())
    differing = sum(outcome.problem is not None for outcome in outcomes)
    print(f"{len(outcomes)} calls, {len(outcomes) - differing} as PostHog, {differing} differing")
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
