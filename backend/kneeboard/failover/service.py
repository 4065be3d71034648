"""A point's stored outcomes and their failover summary (the analysis is analysis/failover.py's pure functions)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from kneeboard.analysis import failover
from kneeboard.campaigns.models import Point
from kneeboard.errors import Conflict, NotFound


def point_outcomes(point_id: int, *, session: Session) -> dict:
    """The point's outcomes per 10 ms and their summary; NotFound, or Conflict saying why it has none."""
    point = session.get(Point, point_id)
    if point is None:
        raise NotFound("point", point_id)
    stored = (point.extra or {}).get("outcomes")
    if not stored:
        raise Conflict(f"point {point_id} has no request outcomes per 10 ms: only kbhttp points record them "
                       "(with params.outcomes or params.count_header)")
    o = failover.Outcomes.from_stored(stored)
    summary = {"failed_by_class": failover.failed_by_class(o), "error_window": failover.error_window(o),
               "longest_gap": failover.longest_gap(o), "spread": failover.spread(o), "persistence": failover.persistence(o)}
    return {"point_id": point_id, "outcomes": stored, "summary": summary}
