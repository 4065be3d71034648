"""The layers, checked on the code's own imports (imports inside functions included): the import-linter contract in
backend/pyproject.toml, no import cycle between any two modules or packages of kneeboard, and no service that opens a
session or commits beyond the contract's named session owners."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[2]
BACKEND = ROOT / "backend"
PACKAGE = BACKEND / "kneeboard"
CONTRACT = BACKEND / "pyproject.toml"


def _graph() -> grimp.ImportGraph:
    return grimp.build_graph("kneeboard", cache_dir=None)


def _cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every strongly connected group of two modules or more."""
    return _strongly_connected({m: sorted(graph.find_modules_directly_imported_by(m)) for m in graph.modules})


def _package_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Every strongly connected group of two top-level packages or more (kneeboard.X: a module's package, or itself)."""
    edges: dict[str, set[str]] = {}
    for module in graph.modules:
        package = ".".join(module.split(".")[:2])
        edges.setdefault(package, set()).update(".".join(m.split(".")[:2]) for m in graph.find_modules_directly_imported_by(module))
    return _strongly_connected({package: sorted(imported - {package}) for package, imported in edges.items()})


def _strongly_connected(edges: dict[str, list[str]]) -> list[list[str]]:
    """Every strongly connected group of two nodes or more (Tarjan's algorithm, iterative)."""
    edges = {node: [c for c in children if c in edges] for node, children in edges.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(edges[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(edges[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_the_import_contract_is_kept():
    """lint-imports on backend/pyproject.toml: the pure layers, services, models/schemas/db, routers, the top and the
    observer's side each import only downwards (its output says which contract broke, and through which imports)."""
    done = subprocess.run([str(Path(sys.executable).with_name("lint-imports")), "--no-cache", str(CONTRACT)], cwd=BACKEND,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


def test_the_graph_reads_imports_inside_functions():
    """The graph the checks read holds an import made inside a function (campaigns/router.py's _import takes
    targets.service there), so a cycle closed that way is seen."""
    details = _graph().get_import_details(importer="kneeboard.campaigns.router", imported="kneeboard.targets.service")
    assert details, "no import of targets.service found in campaigns/router.py: pick another import inside a function"


def test_no_import_cycle_between_modules():
    """No two modules of kneeboard import each other, directly or round a loop, wherever in a file the import is."""
    cycles = _cycles(_graph())
    assert not cycles, "import cycles:\n" + "\n".join(" ↔ ".join(group) for group in cycles)


def _opens_or_commits(path: Path) -> list[str]:
    """Where the module calls session_scope() or something's .commit()."""
    said = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name in ("session_scope", "commit"):
                said.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {name}()")
    return said


def test_services_never_open_a_session_nor_commit():
    """Every */service.py works in its caller's transaction, but the contract's named session owners, each of which
    still needs its exception (a stale exception fails too)."""
    owners = tomllib.loads(CONTRACT.read_text())["tool"]["kneeboard"]["layers"]["session_owners"]
    assert len(owners) <= 3, "at most three services may own a session"
    found = {str(p.relative_to(PACKAGE)): _opens_or_commits(p) for p in sorted(PACKAGE.glob("*/service.py"))}
    assert not [line for name, lines in found.items() if name not in owners for line in lines]
    assert all(found.get(name) for name in owners), {name: found.get(name) for name in owners}


def test_no_import_cycle_between_packages():
    """No two of kneeboard's packages (kneeboard.X: a module's package, or itself) import each other, directly or round
    a loop, wherever in a file the import is: a lower package that must ask a higher one takes a registration
    (extensions.py)."""
    cycles = _package_cycles(_graph())
    assert not cycles, "package cycles:\n" + "\n".join(" ↔ ".join(group) for group in cycles)
