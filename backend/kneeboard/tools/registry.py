"""The registry: tool names to adapters. Adding a tool is one `register` line here."""

from __future__ import annotations

import shutil
import subprocess

from kneeboard.tools import devsim, dnsperf, iperf3, kbhttp, mpstat, node, ping, wrk
from kneeboard.tools.exporter import adapter as exporter
from kneeboard.tools.process import adapter as process
from kneeboard.tools.contract import Role, ToolAdapter

_ADAPTERS: dict[str, ToolAdapter] = {}


def register(tool: ToolAdapter) -> None:
    """Make a tool known to plans, the worker and the API."""
    if tool.name in _ADAPTERS:
        raise ValueError(f"tool {tool.name!r} is registered twice")
    _ADAPTERS[tool.name] = tool


register(dnsperf.ADAPTER)
register(wrk.ADAPTER)
register(kbhttp.ADAPTER)
register(iperf3.ADAPTER)
register(devsim.ADAPTER)
register(mpstat.ADAPTER)
register(ping.ADAPTER)
register(node.ADAPTER)
register(exporter.ADAPTER)
register(process.ADAPTER)


def all_tools() -> list[ToolAdapter]:
    """Every registered tool, load tools first, in registration order."""
    return sorted(_ADAPTERS.values(), key=lambda t: t.role is not Role.LOAD)


def load_tools() -> list[ToolAdapter]:
    """The tools that generate load (what a plan's `tool` names)."""
    return [t for t in _ADAPTERS.values() if t.role is Role.LOAD]


def monitors() -> list[ToolAdapter]:
    """The tools that watch beside a point (what a plan's `monitors[].kind` names)."""
    return [t for t in _ADAPTERS.values() if t.role is Role.MONITOR]


def adapter(name: str) -> ToolAdapter:
    """A registered tool by name; KeyError when there is none."""
    try:
        return _ADAPTERS[name]
    except KeyError:
        raise KeyError(f"unknown tool {name!r}") from None


def probe_versions(binaries: dict[str, str] | None = None) -> dict[str, str | None]:
    """Each registered tool found on this host with its version (None when absent or unreadable)."""
    found: dict[str, str | None] = {}
    for tool in _ADAPTERS.values():
        argv = list(tool.version_argv)
        if not argv:
            continue
        argv[0] = (binaries or {}).get(tool.name, argv[0])
        if shutil.which(argv[0]) is None:
            continue
        try:
            done = subprocess.run(argv, capture_output=True, text=True, timeout=5)
            found[tool.name] = tool.parse_version(done.stdout + done.stderr)
        except (OSError, subprocess.TimeoutExpired):
            found[tool.name] = None
    return found
