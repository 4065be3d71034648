"""Stored CPU profiles: written once a point is stored, read as folded stacks, top functions and a differential."""

from __future__ import annotations

from sqlalchemy.orm import Session

from kneeboard.campaigns.models import Point
from kneeboard.errors import Conflict, NotFound
from kneeboard.profiling import analysis
from kneeboard.profiling.models import CpuProfile


def store(point_id: int, row: dict, *, session: Session) -> None:
    """Write (or replace) a point's CPU profile row, in the caller's transaction."""
    existing = session.get(CpuProfile, point_id)
    if existing is not None:
        session.delete(existing)
        session.flush()
    session.add(CpuProfile(point_id=point_id, **row))


def _loaded(point_id: int, session: Session) -> tuple[Point, CpuProfile]:
    point = session.get(Point, point_id)
    if point is None:
        raise NotFound("point", point_id)
    profile = session.get(CpuProfile, point_id)
    if profile is None:
        why = next((w for w in point.warnings or [] if w.startswith("CPU profile")), None)
        asked = (point.campaign.plan or {}).get("cpu_profile")
        raise Conflict(f"point {point_id} has no stored CPU profile: "
                       + (why or ("its plan asks for none (cpu_profile)" if not asked else f"it is {point.status}")))
    return point, profile


def _requests(point: Point, profile: CpuProfile) -> float | None:
    """Requests completed in the profile's window: the point's completed count over the share of its duration."""
    completed = (point.metrics or {}).get("completed")
    if not completed or not point.duration_s:
        return None
    return float(completed) * min(1.0, profile.window_s / point.duration_s)


def _summary(point: Point, profile: CpuProfile) -> dict:
    requests = _requests(point, profile)
    return {"point_id": point.id, "process": profile.process, "frequency_hz": profile.frequency_hz,
            "window_s": profile.window_s, "samples": profile.samples, "all_samples": profile.all_samples,
            "cpu_pct": 100.0 * profile.samples / profile.frequency_hz / profile.window_s if profile.window_s else None,
            "requests": requests, "per_1k": 1000.0 * profile.samples / requests if requests else None,
            "stack_depth": profile.stack_depth, "stacks": profile.stacks, "dropped_stacks": profile.dropped_stacks,
            "dropped_samples": profile.dropped_samples}  # fmt: skip


def folded(point_id: int, *, session: Session) -> dict:
    """The point's CPU profile with its folded stacks."""
    point, profile = _loaded(point_id, session)
    return {**_summary(point, profile), "folded": profile.folded}


def top(point_id: int, *, session: Session, limit: int, by: str) -> dict:
    """The point's top functions by self or total samples."""
    point, profile = _loaded(point_id, session)
    summary = _summary(point, profile)
    return {"profile": summary, "by": by,
            "functions": analysis.top_functions(analysis.parse_folded(profile.folded), summary["requests"], limit, by)}


def diff(a_id: int, b_id: int, *, session: Session, limit: int) -> dict:
    """Point B's CPU profile against point A's (Conflict when either has no request count to normalise by)."""
    loaded = [_loaded(point_id, session) for point_id in (a_id, b_id)]
    summaries = [_summary(point, profile) for point, profile in loaded]
    for summary in summaries:
        if not summary["requests"]:
            raise Conflict(f"point {summary['point_id']} has no completed request count to compare its CPU profile per 1,000 requests")
    (_, pa), (_, pb) = loaded
    changed = analysis.differential(analysis.parse_folded(pa.folded), summaries[0]["requests"],
                                    analysis.parse_folded(pb.folded), summaries[1]["requests"], limit)
    return {"a": summaries[0], "b": summaries[1], **{k: changed[k] for k in ("sign", "ranked_by", "functions", "functions_by_total",
                                                                            "frames", "stacks")}}
