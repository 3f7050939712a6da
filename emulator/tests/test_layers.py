"""Housekeeping: no helper left behind by a refactor."""

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parent.parent / "posthog_emulator"
SOURCES = {path: path.read_text() for path in PACKAGE.rglob("*.py")}


def names_used(tree) -> set[str]:
    """Every identifier a module refers to (names, attributes, imported names)."""
    used = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            used.add(node.id)
        elif isinstance(node, ast.Attribute):
            used.add(node.attr)
        elif isinstance(node, ast.alias):
            used.add(node.name.rsplit(".", 1)[-1])
    return used


@pytest.mark.parametrize("module", ["errors.py", "http.py", "guard.py", "limits.py", "cache.py", "responses.py"])
def test_every_public_function_of_the_shared_modules_is_used(module):
    path = PACKAGE / module
    tree = ast.parse(SOURCES[path])
    public = [node.name for node in tree.body if isinstance(node, ast.FunctionDef) and not node.name.startswith("_")]
    elsewhere = set()
    for other, text in SOURCES.items():
        if other != path:
            elsewhere |= names_used(ast.parse(text))
    own_calls = [n.func for n in ast.walk(tree) if isinstance(n, ast.Call)]
    own = {f.id for f in own_calls if isinstance(f, ast.Name)} | {f.attr for f in own_calls if isinstance(f, ast.Attribute)}
    dotted = SOURCES[PACKAGE / "settings.py"] + SOURCES[PACKAGE / "urls.py"]  # "posthog_emulator.x.name"
    unused = [name for name in public
              if name not in elsewhere and name not in own and f"{path.stem}.{name}" not in dotted]
    assert unused == [], f"unused in {module}: {unused}"
