"""The emulator's layers: models (with the table versions under them), pure rules, the /api/ views
and the control API apart, and no import cycle between its modules, lazy imports included."""

import ast
import pathlib

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "posthog_emulator"


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports() -> dict:
    """module -> the posthog_emulator modules it imports anywhere in its body."""
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {}
    for name, path in modules.items():
        found = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                # `from posthog_emulator import cache` names a module; `from ...models import X` a name
                targets = [f"{node.module}.{alias.name}" for alias in node.names
                           if f"{node.module}.{alias.name}" in modules] or [node.module]
            found.update(t for t in targets if t.startswith("posthog_emulator") and t in modules and t != name)
        graph[name] = found
    return graph


def cycles(graph: dict) -> list:
    """The strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, result, counter = {}, {}, [], set(), [], [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                result.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return result


def test_no_import_cycles():
    assert cycles(imports()) == []


def test_models_import_only_models_rules_and_table_versions():
    allowed = ("posthog_emulator.models", "posthog_emulator.rules", "posthog_emulator.tables",
               "posthog_emulator.generations")
    wrong = {name: sorted(t for t in targets if not t.startswith(allowed))
             for name, targets in imports().items() if name.startswith("posthog_emulator.models")}
    assert {k: v for k, v in wrong.items() if v} == {}


def test_rules_know_nothing_of_http():
    wrong = {name: sorted(t for t in targets if t.startswith(("posthog_emulator.api", "posthog_emulator.control",
                                                               "posthog_emulator.responses", "posthog_emulator.cache")))
             for name, targets in imports().items() if name.startswith("posthog_emulator.rules")}
    assert {k: v for k, v in wrong.items() if v} == {}


def test_api_views_do_not_reach_into_the_control_api():
    wrong = {name: sorted(t for t in targets if t.startswith("posthog_emulator.control"))
             for name, targets in imports().items() if name.startswith("posthog_emulator.api")}
    assert {k: v for k, v in wrong.items() if v} == {}


def test_view_files_stay_readable():
    long = {module_name(p): n for p in (PACKAGE / "api").glob("*.py")
            if (n := len(p.read_text().splitlines())) > 450}  # ~400 lines a view file
    assert long == {}
