"""The layout tells the architecture: imports only run downward, no module imports itself back, and the modules that
only decide (the lifecycle, the notification rule, minutes, the schedules) reach no driver."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: What each package may import from LPS (a package, or one module of it). `tools` (the CLI, dev stack, demo shop) sits
#: above everything. The embedded store knows nothing of LPS's schema or services: it is a MongoDB-compatible server,
#: and only stops as every LPS process does (tools.supervisor's stop signals and parent-death signal).
ALLOWED = {
    "schemas": {"schemas"},
    "infra": {"schemas", "infra"},
    "service": {"schemas", "infra", "service"},
    "actors": {"schemas", "infra", "actors"},
    "embedded_store": {"embedded_store", "tools.supervisor"},
    "tools": {"schemas", "infra", "service", "actors", "embedded_store", "tools"},
}


def allowed(package: str, imported: str) -> bool:
    return any(imported == name or imported.startswith(f"{name}.") for name in ALLOWED[package])


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
        if not allowed(package, imported)
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


#: Packages that talk to a server, a broker or a browser.
DRIVERS = frozenset({"pymongo", "motor", "pika", "dramatiq", "aiohttp", "playwright"})
#: Modules that decide without doing I/O (what follows an attempt, whether a watch's result is delivered, minutes
#: since the epoch, when a watch runs next): unit-testable and reusable anywhere, so they must not pull a driver in.
PURE_MODULES = ["infra.lifecycle", "infra.notify", "infra.minutes", "schemas.schedule"]


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and (
        (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
        or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
    )


def runtime_imports(path: Path) -> set[str]:
    """Every module `path` imports when it runs (module level or inside functions; not under `if TYPE_CHECKING:`),
    with `from a import b` as both `a` and `a.b` (b may be a submodule)."""
    found: set[str] = set()
    pending: list[ast.AST] = [ast.parse(path.read_text())]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
        pending.extend(child for child in ast.iter_child_nodes(node) if not _is_type_checking(child))
    return found


def reached_from(module: str) -> set[str]:
    """Every module importing `module` runs, through LPS's own modules (each with its packages' `__init__`); other
    packages are named, not followed."""
    paths = {module_name(path): path for package in ALLOWED for path in (ROOT / package).rglob("*.py")}
    reached: set[str] = set()
    pending = [module]
    while pending:
        name = pending.pop()
        parts = name.split(".")
        for lps_module in (".".join(parts[:length]) for length in range(1, len(parts) + 1)):
            if lps_module in paths and lps_module not in reached:
                reached.add(lps_module)
                pending.extend(runtime_imports(paths[lps_module]))
        if name not in paths:
            reached.add(name)
    return reached


def drivers_reached(module: str) -> set[str]:
    return {name for name in reached_from(module) if name.split(".")[0] in DRIVERS}


@pytest.mark.parametrize("module", PURE_MODULES)
def test_a_module_that_only_decides_reaches_no_driver(module: str):
    assert drivers_reached(module) == set()


def test_the_driver_check_sees_a_driver_reached_through_other_modules():
    # infra.jobs imports pymongo itself; infra.enqueue reaches it through infra.jobs and infra.mongo.
    assert "pymongo" in {name.split(".")[0] for name in drivers_reached("infra.enqueue")}


#: The embedded store's packages: the `embedded` extra, which production images do not install.
EMBEDDED_ONLY = frozenset({"mongoeco", "rpds", "sortedcontainers"})


@pytest.mark.parametrize("package", sorted(set(ALLOWED) - {"embedded_store"}))
def test_only_the_embedded_store_imports_its_own_packages(package: str):
    """The gateway, the workers and the CLI run without `lps[embedded]`: mongoeco and its kin are imported in
    embedded_store/ only (tools starts the store as a process of its own, `lps mongo`)."""
    importing = {
        module_name(path): sorted(name for name in runtime_imports(path) if name.split(".")[0] in EMBEDDED_ONLY)
        for path in (ROOT / package).rglob("*.py")
    }
    assert {module: names for module, names in importing.items() if names} == {}
