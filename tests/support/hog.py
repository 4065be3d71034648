"""A busy host for a test: `stress-ng --cpu N` at normal priority and a few hundred idle processes, each started here
and ended by its PID (issue 48: a CPU profile must be stored on every point of a host this busy)."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def busy_host(cpus: int | None = None, idle: int = 300) -> Iterator[list[subprocess.Popen]]:
    """A CPU hog on `cpus` CPUs (every CPU by default) and `idle` sleeping processes for the block; all ended after it,
    by PID. stress-ng comes from scripts/install-deps.sh test."""
    started = [subprocess.Popen(["stress-ng", "--cpu", str(cpus or os.cpu_count() or 1), "--quiet"], process_group=0)]
    try:
        started += [subprocess.Popen(["sleep", "3600"]) for _ in range(idle)]
        yield started
    finally:
        os.killpg(started[0].pid, 9)  # stress-ng's workers are in its group
        for proc in started[1:]:
            proc.kill()
        for proc in started:
            proc.wait()
