"""Failover routes (reads: the viewer role, like every point GET)."""

from __future__ import annotations

from fastapi import APIRouter

from kneeboard.deps import SessionDep
from kneeboard.failover import service
from kneeboard.failover.schemas import PointOutcomes

router = APIRouter(tags=["failover"])


@router.get("/points/{point_id}/outcomes", response_model=PointOutcomes)
def point_outcomes(session: SessionDep, point_id: int):
    """A kbhttp point's request outcomes per 10 ms of intended send time (success, error classes, the counted header's
    values) and what they say: failures, their window, the longest gap, the spread and persistence. 409 when it has none."""
    return service.point_outcomes(point_id, session=session)
