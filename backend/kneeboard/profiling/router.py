"""CPU profile routes (reads: the viewer role, like every point GET)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query

from kneeboard.deps import SessionDep
from kneeboard.profiling import service
from kneeboard.profiling.schemas import CpuProfileDiff, FoldedProfile, TopFunctions
from kneeboard.routes import Limit

router = APIRouter(tags=["cpu profiles"])


@router.get("/points/{point_id}/cpu-profile", response_model=FoldedProfile)
def point_cpu_profile(session: SessionDep, point_id: int):
    """A point's CPU profile: the folded stacks of the plan's process over its steady window. 409 saying why when the
    point has none."""
    return service.folded(point_id, session=session)


@router.get("/points/{point_id}/cpu-profile/functions", response_model=TopFunctions)
def point_cpu_profile_functions(session: SessionDep, point_id: int, limit: int = Limit,
                                by: Literal["self", "total"] = Query(default="self", description="rank by self or total samples")):
    """A point's top functions: self and total share of samples, and samples per 1,000 requests."""
    return service.top(point_id, session=session, limit=limit, by=by)


@router.get("/points/{point_id}/cpu-profile/diff/{other_id}", response_model=CpuProfileDiff)
def point_cpu_profile_diff(session: SessionDep, point_id: int, other_id: int, limit: int = Limit):
    """What changed from this point's CPU profile (A) to the other's (B): functions and flame-graph frames that grew or
    shrank, per 1,000 requests and as a share of samples, largest change first; and every stack's pair."""
    return service.diff(point_id, other_id, session=session, limit=limit)
