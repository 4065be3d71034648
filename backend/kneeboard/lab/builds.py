"""Servers the install step builds into .cache/servers/NAME-VERSION/ (scripts/install-deps.sh): found, or why not."""

from __future__ import annotations

import os
from pathlib import Path


def built(binary: Path) -> str | None:
    """The built binary's path, None when it is not built."""
    return str(binary) if binary.is_file() and os.access(binary, os.X_OK) else None


def missing_reason(what: str, build_dir: Path, go: str) -> str:
    """Why the lab has no `what`: the install step's recorded build error (build-error.txt), or that it was not built."""
    try:
        why = (build_dir / "build-error.txt").read_text().strip()
    except OSError:
        why = ""
    return f"{what} not built: {why or f'run scripts/install-deps.sh (it builds it with Go >= {go})'}"
