"""The spool: a point's result written to its workdir before it is stored, removed once stored,
so a database outage longer than the retries never loses a measurement."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from kneeboard.tools.base import PointResult
from kneeboard.tools.runner import RunOutcome

NAME = "result.json"


def keep(workdir: Path, result: PointResult, outcome: RunOutcome | None) -> Path:
    """Write the result (and the run's evidence) beside the point's files; returns the path."""
    path = workdir / NAME
    record = {"result": asdict(result), "outcome": asdict(outcome) if outcome else None}
    path.write_text(json.dumps(record, default=str))
    return path


def stored(workdir: Path) -> None:
    """The result is in the database: drop the spooled copy."""
    (workdir / NAME).unlink(missing_ok=True)
