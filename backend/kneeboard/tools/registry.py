"""Which adapter module serves which tool name, and which tools an agent can find."""

from __future__ import annotations

import importlib
import shutil
import subprocess
from types import ModuleType

TOOLS = ("dnsperf", "wrk", "iperf3", "devsim")


def adapter(tool: str) -> ModuleType:
    """The adapter module of a tool (build, parse, parse_line, parse_version, VERSION_ARGV)."""
    if tool not in TOOLS:
        raise KeyError(f"unknown tool {tool!r}")
    return importlib.import_module(f"kneeboard.tools.{tool}")


MONITORS = ("mpstat", "ping")


def monitor_adapter(kind: str) -> ModuleType:
    """The adapter module of a monitor (mpstat, ping)."""
    if kind not in MONITORS:
        raise KeyError(f"unknown monitor {kind!r}")
    return importlib.import_module(f"kneeboard.tools.{kind}")


def probe_versions(binaries: dict[str, str] | None = None) -> dict[str, str | None]:
    """Each tool found on this host with its version (None when absent or unreadable)."""
    found: dict[str, str | None] = {}
    for tool in TOOLS + MONITORS:
        try:
            module = importlib.import_module(f"kneeboard.tools.{tool}")
        except ImportError:
            continue
        argv = list(module.VERSION_ARGV)
        argv[0] = (binaries or {}).get(tool, argv[0])
        if shutil.which(argv[0]) is None:
            continue
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=5)
            found[tool] = module.parse_version(done.stdout + done.stderr)
        except (OSError, subprocess.TimeoutExpired):
            found[tool] = None
    return found
