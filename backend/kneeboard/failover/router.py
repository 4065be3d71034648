"""Failover routes (reads: the viewer role, like every point GET; a share link's points through its token, no login)."""

from __future__ import annotations

from fastapi import APIRouter

from kneeboard.deps import SessionDep
from kneeboard.failover import service
from kneeboard.failover.schemas import PointOutcomes
from kneeboard.routes import Token
from kneeboard.shares.service import shared_point

router = APIRouter(tags=["failover"])


@router.get("/points/{point_id}/outcomes", response_model=PointOutcomes)
def point_outcomes(session: SessionDep, point_id: int):
    """A kbhttp point's request outcomes per 10 ms of intended send time (success, error classes, the counted header's
    values) and what they say: failures, their window, the longest gap, the spread and persistence. 409 when it has none."""
    return service.point_outcomes(point_id, session=session)


@router.get("/shared/{token}/points/{point_id}/outcomes", response_model=PointOutcomes)
def shared_point_outcomes(session: SessionDep, point_id: int, token: str = Token):
    """Public (no login): the request outcomes of a point of the link's campaigns (any other point answers 404)."""
    shared_point(token, point_id, session=session)
    return service.point_outcomes(point_id, session=session)
