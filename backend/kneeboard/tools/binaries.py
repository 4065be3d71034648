"""Where Kneeboard's own compiled tools (built from simulator/ by scripts/install-deps.sh) are found."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

SIMULATOR_BIN = Path(__file__).resolve().parents[3] / "simulator" / "bin"


def find(name: str, env_var: str) -> str | None:
    """$env_var, else the checkout's simulator/bin/<name>, else <name> on PATH; None when none is there."""
    if os.environ.get(env_var):
        return os.environ[env_var]
    built = SIMULATOR_BIN / name
    return str(built) if built.exists() else shutil.which(name)
