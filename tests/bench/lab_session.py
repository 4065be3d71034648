"""The lab for a bench or a capture script run as root: taken from the tests' `lab` fixture in turn (the same lock
file), brought up when it is down and taken down again after, so neither pulls the lab from under the other."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager

from kneeboard.lab import namespace
from tests.support.labs import LOCK_FILE


@contextmanager
def held_lab() -> Iterator[namespace.LabStatus]:
    """Hold the lab lock while the block runs, with the lab up; SystemExit when this machine cannot hold it."""
    if reason := namespace.missing_prerequisite():
        raise SystemExit(f"the lab: {reason}")
    with open(LOCK_FILE, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        brought_up = not namespace.status(probe=False).present
        try:
            yield namespace.up() if brought_up else namespace.status()
        finally:
            if brought_up:
                namespace.down()
