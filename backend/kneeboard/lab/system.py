"""Small argv-only helpers the lab uses: run a command, read and write sysfs, inside a netns or not."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path


class CommandFailed(RuntimeError):
    """A command exited non-zero (or could not start); the message carries argv and stderr."""


def is_root() -> bool:
    """True when running with uid 0 (the lab needs it to create namespaces and links)."""
    return os.geteuid() == 0


def which(tool: str) -> str | None:
    """Path of a tool on PATH or in the sbin directories (Debian keeps ip/ethtool there)."""
    found = shutil.which(tool)
    if found:
        return found
    for folder in ("/usr/sbin", "/sbin", "/usr/local/sbin"):
        candidate = Path(folder) / tool
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def cpu_count() -> int:
    """The number of CPUs this process may use (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def in_netns(netns: str | None, argv: list[str]) -> list[str]:
    """argv prefixed with `ip netns exec NETNS` when a namespace is given."""
    return ["ip", "netns", "exec", netns, *argv] if netns else list(argv)


def run(argv: list[str], *, input_text: str | None = None, timeout_s: float = 10.0, check: bool = True) -> subprocess.CompletedProcess:
    """Run argv (never a shell) and return the completed process; raise CommandFailed if check and rc != 0."""
    try:
        proc = subprocess.run(
            argv,
            input=input_text,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            env={**os.environ, "LC_ALL": "C"},
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise CommandFailed(f"{' '.join(argv)}: {exc}") from exc
    if check and proc.returncode != 0:
        detail = (proc.stderr or proc.stdout).strip()
        raise CommandFailed(f"{' '.join(argv)} exited {proc.returncode}: {detail}")
    return proc


def read_sysfs(path: str, netns: str | None = None) -> str | None:
    """Contents of a sysfs/procfs file (stripped), read inside netns via `cat`; None if unreadable."""
    if netns is None:
        try:
            return Path(path).read_text().strip()
        except OSError:
            return None
    proc = run(in_netns(netns, ["cat", path]), check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def list_sysfs(path: str, netns: str | None = None) -> list[str]:
    """Names in a sysfs directory (sorted), listed inside netns via `ls`; [] if unreadable."""
    if netns is None:
        try:
            return sorted(p.name for p in Path(path).iterdir())
        except OSError:
            return []
    proc = run(in_netns(netns, ["ls", "-1", path]), check=False)
    return sorted(proc.stdout.split()) if proc.returncode == 0 else []


def write_sysfs(path: str, value: str, netns: str | None = None) -> None:
    """Write a value to a sysfs file; inside a netns via `ip netns exec NS tee PATH` with stdin."""
    if netns is None:
        try:
            Path(path).write_text(value + "\n")
        except OSError as exc:
            raise CommandFailed(f"write {value!r} to {path}: {exc.strerror or exc}") from exc
        return
    proc = run(in_netns(netns, ["tee", path]), input_text=value + "\n", check=False)
    if proc.returncode != 0:
        raise CommandFailed(f"write {value!r} to {path} in {netns}: {proc.stderr.strip()}")
