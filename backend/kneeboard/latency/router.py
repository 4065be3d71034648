"""Latency distribution routes (reads: the viewer role, like every GET)."""

from __future__ import annotations

from fastapi import APIRouter, Query

from kneeboard.analysis.hdr import MAX_BUCKETS
from kneeboard.deps import SessionDep
from kneeboard.latency import service
from kneeboard.latency.schemas import Histogram, Window

router = APIRouter(tags=["latency"])


@router.get("/points/{point_id}/histogram", response_model=Histogram)
def point_histogram(
    session: SessionDep,
    point_id: int,
    window: Window = Query(default="all", description="all: the whole run; steady: the intervals after the warm-up"),
    buckets: int = Query(default=MAX_BUCKETS, ge=10, le=MAX_BUCKETS, description="at most this many log-spaced buckets"),
):
    """A point's latency histogram (HDR, 3 significant digits) as log-spaced buckets with the percentile table.

    409 when the point stored none (capture off, a tool that records none, an imported point). A sync route:
    decoding runs in the thread pool, off the event loop.
    """
    return service.point_histogram(point_id, session=session, window=window, max_buckets=buckets)
