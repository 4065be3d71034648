"""Share-link routes: create, list and revoke (signed in), and the public read under /shared/{token}."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Query, Request, Response

from kneeboard.audit.service import record_by
from kneeboard.auth.deps import CurrentUser
from kneeboard.campaigns.schemas import SampleSeries
from kneeboard.deps import SessionDep
from kneeboard.analysis.hdr import MAX_BUCKETS
from kneeboard.inputs import MAX_ID
from kneeboard.latency.schemas import Histogram, Window
from kneeboard.profiling.schemas import CpuProfileDiff, FoldedProfile, TopFunctions
from kneeboard.routes import Limit, Token
from kneeboard.shares import service
from kneeboard.shares.models import Share
from kneeboard.shares.schemas import ComparisonShareCreate, SharedReport, ShareCreate, ShareCreated, ShareOut

router = APIRouter(tags=["shares"])


def _created(request: Request, session, user, share: Share, token: str) -> dict:  # noqa: ANN001
    """Audit the new share and answer its URL (the only time the token is shown)."""
    ids = [c.campaign_id for c in share.campaigns]
    record_by(session, user, "share", "share", share.id, service.label(share), {"campaign_ids": ids, "expires_at": share.expires_at.isoformat()})
    return {"id": share.id, "url": service.url_of(str(request.base_url), token), "expires_at": share.expires_at}


@router.post("/campaigns/{campaign_id}/shares", response_model=ShareCreated, status_code=201)
def share_campaign(session: SessionDep, request: Request, campaign_id: int, body: ShareCreate, user: CurrentUser):
    """A read-only link to this campaign's report, its analysis pinned as it is now."""
    share, token = service.create([campaign_id], body.expires_in_s, created_by=user.actor, session=session, comparison=False)
    return _created(request, session, user, share, token)


@router.post("/shares", response_model=ShareCreated, status_code=201)
def share_comparison(session: SessionDep, request: Request, body: ComparisonShareCreate, user: CurrentUser):
    """A read-only link to a comparison of 2–10 campaigns (the first is the reference)."""
    share, token = service.create(body.campaign_ids, body.expires_in_s, created_by=user.actor, session=session, comparison=True)
    return _created(request, session, user, share, token)


@router.get("/shares", response_model=list[ShareOut])
def list_shares(session: SessionDep, campaign_id: list[int] = Query(default=[], max_length=10, description="only links naming all of these")):
    """Links not revoked (expired ones marked), newest first; never their tokens."""
    if any(not 1 <= c <= MAX_ID for c in campaign_id):
        return []
    return [service.describe_share(s) for s in service.list_shares(campaign_id, session=session)]


@router.delete("/shares/{share_id}", status_code=204)
def revoke_share(session: SessionDep, share_id: int, user: CurrentUser):
    """Revoke a link: its URL answers 410 from now on."""
    share = service.revoke(share_id, session=session)
    record_by(session, user, "revoke", "share", share.id, service.label(share))
    return Response(status_code=204)


@router.get("/shared/{token}", response_model=SharedReport)
def read_shared(session: SessionDep, token: str = Token):
    """Public (no login): the report or comparison a link shows, as it was when shared."""
    return service.shared_report(token, session=session)


@router.get("/shared/{token}/points/{point_id}/samples", response_model=SampleSeries)
def read_shared_samples(
    session: SessionDep,
    point_id: int,
    token: str = Token,
    series: str | None = Query(default=None, max_length=60),
    max_points: int = Query(default=2000, ge=10, le=20000),
):
    """Public (no login): samples of a point of the link's campaigns (any other point answers 404)."""
    return service.shared_samples(token, point_id, series=series, max_points=max_points, session=session)


@router.get("/shared/{token}/points/{point_id}/histogram", response_model=Histogram)
def read_shared_histogram(
    session: SessionDep,
    point_id: int,
    token: str = Token,
    window: Window = Query(default="all"),
    buckets: int = Query(default=MAX_BUCKETS, ge=10, le=MAX_BUCKETS),
):
    """Public (no login): the latency histogram of a point of the link's campaigns (any other point answers 404)."""
    return service.shared_histogram(token, point_id, window=window, max_buckets=buckets, session=session)


@router.get("/shared/{token}/points/{point_id}/cpu-profile", response_model=FoldedProfile)
def read_shared_cpu_profile(session: SessionDep, point_id: int, token: str = Token):
    """Public (no login): the CPU profile of a point of the link's campaigns (409 saying why it has none)."""
    return service.shared_cpu_profile(token, point_id, session=session)


@router.get("/shared/{token}/points/{point_id}/cpu-profile/functions", response_model=TopFunctions)
def read_shared_cpu_functions(session: SessionDep, point_id: int, token: str = Token, limit: int = Limit,
                              by: Literal["self", "total"] = Query(default="self")):  # fmt: skip
    """Public (no login): the top functions of a point of the link's campaigns."""
    return service.shared_cpu_functions(token, point_id, limit=limit, by=by, session=session)


@router.get("/shared/{token}/points/{point_id}/cpu-profile/diff/{other_id}", response_model=CpuProfileDiff)
def read_shared_cpu_diff(session: SessionDep, point_id: int, other_id: int, token: str = Token, limit: int = Limit):
    """Public (no login): point `other_id`'s CPU profile against `point_id`'s, both of the link's campaigns (the
    shared comparison's differential; any other point answers 404)."""
    return service.shared_cpu_diff(token, point_id, other_id, limit=limit, session=session)
