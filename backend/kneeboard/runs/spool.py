"""The spool: a point's result written to its workdir before it is stored, removed only once stored,
so a database outage longer than the retries never loses a measurement. Results left behind are
stored again when the worker starts and whenever the database answers again (`recover`); a result
that must never be stored (a later attempt exists) is kept aside, renamed, as evidence."""

from __future__ import annotations

import json
import logging
from dataclasses import asdict
from datetime import datetime
from pathlib import Path

from kneeboard.tools.base import PointResult, Sample
from kneeboard.tools.registry import adapter
from kneeboard.tools.runner import RunOutcome

NAME = "result.json"
_state = {"waiting": True}  # whether the spool may hold results; True at start so a new process looks once
STALE = "result.stale.json"
log = logging.getLogger(__name__)


def keep(workdir: Path, result: PointResult, outcome: RunOutcome | None, *, point_id: int, attempt: int, owner: str,
         tool: str, rate: float | None) -> Path:
    """Write the result (and the run's evidence, its attempt and holder) beside the point's files; returns the path."""
    path = workdir / NAME
    record = {"point_id": point_id, "attempt": attempt, "owner": owner, "tool": tool, "rate": rate,
              "result": asdict(result), "outcome": asdict(outcome) if outcome else None}  # fmt: skip
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(record, default=str))
    tmp.replace(path)
    _state["waiting"] = True
    return path


def stored(workdir: Path) -> None:
    """The result is in the database: drop the spooled copy."""
    (workdir / NAME).unlink(missing_ok=True)


def left(root: Path) -> list[Path]:
    """Every spooled result still waiting under the workdir root."""
    return sorted(root.glob(f"campaign-*/point-*/{NAME}"))


def load(path: Path) -> tuple[dict, PointResult, RunOutcome | None]:
    """A spooled record: its metadata, the result and the run's evidence."""
    record = json.loads(path.read_text())
    raw = record["result"]
    result = PointResult(**{**raw, "samples": [Sample(**s) for s in raw.get("samples", [])]})
    outcome = None
    if record.get("outcome"):
        o = record["outcome"]
        outcome = RunOutcome(**{**o, "started_at": datetime.fromisoformat(o["started_at"]),
                                "ended_at": datetime.fromisoformat(o["ended_at"]) if o.get("ended_at") else None})  # fmt: skip
    return record, result, outcome


def waiting() -> bool:
    """Whether a spooled result may still be waiting (cheap: no file system scan)."""
    return _state["waiting"]


def recover(root: Path, store_recovered) -> list[int]:
    """Store what the spool still holds (`store_recovered` decides per point); returns the points stored."""
    done, paths = [], left(root)
    _state["waiting"] = False
    for path in paths:
        try:
            record, result, outcome = load(path)
            tool = adapter(record["tool"])
        except (OSError, ValueError, KeyError, TypeError) as exc:  # a half-written file of a killed worker
            log.warning("spooled result %s unreadable (%s); kept as it is", path, exc)
            continue
        verdict = store_recovered(record["point_id"], record["attempt"], record.get("rate"), outcome, result, tool)
        if verdict == "stored":
            stored(path.parent)
            done.append(record["point_id"])
            log.info("point %s: spooled result stored", record["point_id"])
        elif verdict == "wait":
            _state["waiting"] = True
        elif verdict == "stale":
            path.replace(path.with_name(STALE))
            log.warning("point %s: spooled result of attempt %s not stored (a later attempt exists); kept as %s",
                        record["point_id"], record["attempt"], STALE)
    return done
