"""docs/architecture.md names only files that exist, and its "Where does it go" table names every registration line
of backend/kneeboard/extensions.py."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "backend" / "kneeboard"
FROM_ROOT = ("frontend/", "docs/", "tests/", "migrations/", "backend/", "simulator/", "scripts/")  # else under backend/kneeboard/
IN_CODE = re.compile(r"[A-Za-z_][\w./-]*\.(?:py|tsx?|ya?ml|json|md)\b")


def _named_paths(text: str) -> set[str]:
    """The file and folder paths the document names: `backticked` ones with a slash or ending in .py, and the files in
    its drawings; a pattern (`*/router.py`, `tools/<name>/`, `/shared/{token}/…`) is no path."""
    found = set()
    for token in re.findall(r"`([^`\n]+)`", text):
        if (("/" in token or token.endswith(".py")) and not token.startswith("/")
                and not any(c in token for c in " <>{}*…:(=")):
            found.add(token)
    for block in re.findall(r"```\n(.*?)```", text, re.S):
        found.update(m for m in IN_CODE.findall(block) if "/" in m or m.endswith(".py"))
    return found


def _where(path: str) -> Path:
    return ROOT / path if path.startswith(FROM_ROOT) else PACKAGE / path


def test_every_file_the_document_names_exists():
    """A moved or renamed file is caught here (the document says where it went)."""
    named = _named_paths(DOC.read_text())
    assert len(named) > 40, sorted(named)  # the reading found the document's paths (about 90 today)
    assert not sorted(p for p in named if not _where(p).exists())


def test_the_reading_catches_a_missing_file():
    """The same reading on a line that names a file that is not there."""
    named = _named_paths("a hook in `trends/settled_nowhere.py`, drawn as runs/nowhere.py:\n```\nruns/nowhere.py\n```\n")
    assert {p for p in named if not _where(p).exists()} == {"trends/settled_nowhere.py", "runs/nowhere.py"}


def test_the_table_names_every_registration_line():
    """Each call in extensions.register_all is written in the "Where does it go" table, as the document spells it."""
    tree = ast.parse((PACKAGE / "extensions.py").read_text())
    body = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "register_all").body
    calls = [ast.unparse(statement.value.func) for statement in body if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)]
    table = DOC.read_text().split("## Where does it go", 1)[1].split("\n## ", 1)[0]
    assert len(calls) >= 6
    assert not [c for c in calls if c not in table]
