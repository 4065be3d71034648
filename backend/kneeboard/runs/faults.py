"""Fault injection points for crash-safety tests (a failpoint list, as in TiKV's fail-rs).

`KB_INJECT_FAULTS` names stages (comma-separated, e.g. `store,settle`); a run raises `InjectedFault`
at each named stage it reaches. Empty in production: `inject` is then one cached lookup.
"""

from __future__ import annotations

import os

STAGES = ("start", "point", "store", "settle", "gather")


class InjectedFault(RuntimeError):
    """An exception a test asked for, raised where a real bug could raise one."""


def armed() -> frozenset[str]:
    """The stages named in KB_INJECT_FAULTS (read each time, so a test can set it per process)."""
    return frozenset(s.strip() for s in os.environ.get("KB_INJECT_FAULTS", "").split(",") if s.strip())


def inject(stage: str) -> None:
    """Raise InjectedFault when `stage` is armed; otherwise nothing."""
    if stage in armed():
        raise InjectedFault(f"injected fault at stage {stage!r} (KB_INJECT_FAULTS)")
