"""The layout tells the architecture: imports only run downward, and no module imports itself back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: What each package may import from LPS. `tools` (the CLI, dev stack, demo shop) sits above everything.
ALLOWED = {
    "schemas": {"schemas"},
    "infra": {"schemas", "infra"},
    "service": {"schemas", "infra", "service"},
    "actors": {"schemas", "infra", "actors"},
    "tools": {"schemas", "infra", "service", "actors", "tools"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def lps_imports(path: Path) -> set[str]:
    """Every LPS module `path` imports, at module level or inside functions."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {name for name in found if name.split(".")[0] in ALLOWED}


def graph() -> dict[str, set[str]]:
    modules = {module_name(path): path for package in ALLOWED for path in (ROOT / package).rglob("*.py")}
    return {name: {imported for imported in lps_imports(path) if imported in modules} for name, path in modules.items()}


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_packages_import_only_downward(package: str):
    upward = {
        f"{module} -> {imported}"
        for module, imports in graph().items()
        if module.split(".")[0] == package
        for imported in imports
        if imported.split(".")[0] not in ALLOWED[package]
    }
    assert upward == set()


def test_no_module_imports_itself_back_through_others():
    edges = graph()
    cycles = []
    state: dict[str, str] = {}

    def visit(module: str, trail: list[str]) -> None:
        state[module] = "open"
        for imported in sorted(edges[module]):
            if imported == module or imported.startswith(f"{module}."):
                continue  # a package importing its own submodule is not a cycle
            if state.get(imported) == "open":
                cycles.append(" -> ".join([*trail[trail.index(imported) :], imported]))
            elif imported not in state:
                visit(imported, [*trail, imported])
        state[module] = "done"

    for module in sorted(edges):
        if module not in state:
            visit(module, [module])
    assert cycles == []
