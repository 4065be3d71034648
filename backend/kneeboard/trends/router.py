"""Trend route: GET /api/v1/trends."""

from __future__ import annotations

from datetime import datetime

from fastapi import APIRouter, Query, Response
from pydantic_core import to_json

from kneeboard.deps import SessionDep
from kneeboard.inputs import MAX_ID
from kneeboard.trends import changes, service
from kneeboard.trends.schemas import Metric, Trend

router = APIRouter(tags=["trends"])


@router.get("/trends", response_model=Trend)
def trend(session: SessionDep,
          plan_id: int | None = Query(default=None, ge=1, le=MAX_ID, description="a plan's campaigns"),
          target_id: int | None = Query(default=None, ge=1, le=MAX_ID, description="a target's campaigns of one `tool`"),
          tool: str | None = Query(default=None, min_length=1, max_length=20),
          tag: str | None = Query(default=None, min_length=1, max_length=200, description="the campaigns with this tag"),
          metric: Metric = Query(default="capacity_at_slo", description="whose change points to show"),
          since: datetime | None = Query(default=None, description="only campaigns that ended at or after this time"),
          limit: int = Query(default=1000, ge=2, le=service.MAX_SERIES, description="the newest this many campaigns")):  # fmt: skip
    """The headline figures of every completed campaign of a plan, a target with a tool, or a tag, and where they changed."""
    scope = service.Scope.of(plan_id=plan_id, target_id=target_id, tool=tool, tag=tag)
    trend = changes.describe(scope, metric=metric, since=since, limit=limit, session=session)
    # our own rows in Trend's shape, written to JSON at once (pydantic_core): a fifth of FastAPI's validate, dump and
    # json.dumps for 1,000 campaigns (tests check the shape against the schema)
    return Response(to_json(trend), media_type="application/json")
