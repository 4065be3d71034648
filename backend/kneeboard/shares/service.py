"""Share links: create (token shown once, stored as SHA-256), list, revoke, and read what a token shows.

Services never commit: the caller owns the transaction.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from kneeboard.auth.credentials import digest
from kneeboard.campaigns.featured import cpu_profile_points
from kneeboard.campaigns.models import Campaign, Point
from kneeboard.campaigns.schemas import PointOut
from kneeboard.campaigns.service import describe, get_campaign, point_samples, refresh_analysis
from kneeboard.compare.service import build as build_comparison
from kneeboard.config import get_settings
from kneeboard.db import as_utc, utcnow
from kneeboard.errors import Gone, NotFound, invalid
from kneeboard.latency.service import point_histogram
from kneeboard.profiling import service as cpu_profiles
from kneeboard.promql.models import PrometheusServer
from kneeboard.shares.models import Share, ShareCampaign
from kneeboard.shares.public import public, refused_values
from kneeboard.tools.registry import adapter

TOKEN_BYTES = 32  # 256 bits; the URL holds it, the database only its digest
SHARED_PATH = "/s/"


def analysis_version(analysis: dict | None) -> str:
    """A short fingerprint of an analysis: equal analyses have equal versions ("none" when there is none)."""
    if analysis is None:
        return "none"
    canonical = json.dumps(analysis, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def _pin(campaign: Campaign, position: int) -> ShareCampaign:
    """A campaign as a share names it, with its analysis as it is now."""
    analysis = refresh_analysis(campaign).analysis
    return ShareCampaign(position=position, campaign_id=campaign.id, campaign_name=campaign.name,
                         analysis=analysis, analysis_version=analysis_version(analysis))  # fmt: skip


def _campaigns_for(campaign_ids: list[int], *, session: Session) -> list[Campaign]:
    """The campaigns of a comparison share: distinct, existing, and comparable."""
    if len(set(campaign_ids)) < len(campaign_ids):
        raise invalid(("campaign_ids",), "the same campaign is named twice")
    campaigns = []
    for i, campaign_id in enumerate(campaign_ids):
        campaign = session.get(Campaign, campaign_id)
        if campaign is None:
            raise invalid(("campaign_ids", i), f"campaign {campaign_id} not found")
        campaigns.append(campaign)
    build_comparison([str(c.id) for c in campaigns], session=session)  # refuses what the compare page would refuse
    return campaigns


def create(campaign_ids: list[int], expires_in_s: int, *, created_by: str, session: Session, comparison: bool) -> tuple[Share, str]:
    """A new share of one campaign (`comparison` False) or of 2–10; returns it and its token (never stored)."""
    if comparison:
        campaigns = _campaigns_for(campaign_ids, session=session)
    else:
        campaigns = [get_campaign(campaign_ids[0], session=session)]
    token = secrets.token_urlsafe(TOKEN_BYTES)
    share = Share(token_hash=digest(token), kind="comparison" if comparison else "campaign", created_by=created_by[:200],
                  expires_at=utcnow() + timedelta(seconds=expires_in_s),
                  campaigns=[_pin(c, i) for i, c in enumerate(campaigns)])  # fmt: skip
    session.add(share)
    session.flush()
    return share, token


def url_of(base_url: str, token: str) -> str:
    """The page a token opens, on the site at `base_url`."""
    return base_url.rstrip("/") + SHARED_PATH + token


def label(share: Share) -> str:
    """The share's campaigns by name, for the audit log."""
    return " vs ".join(c.campaign_name for c in share.campaigns)


def expired(share: Share) -> bool:
    """Whether the link's lifetime is over."""
    return as_utc(share.expires_at) <= utcnow()


def describe_share(share: Share) -> dict:
    """A share as listed (never its token)."""
    return {"id": share.id, "kind": share.kind, "campaign_ids": [c.campaign_id for c in share.campaigns],
            "campaign_names": [c.campaign_name for c in share.campaigns], "created_by": share.created_by,
            "created_at": share.created_at, "expires_at": share.expires_at, "expired": expired(share)}  # fmt: skip


def list_shares(campaign_ids: list[int], *, session: Session, limit: int = 200) -> list[Share]:
    """Links not revoked, newest first; with `campaign_ids`, those naming every one of them."""
    query = select(Share).where(Share.revoked_at.is_(None)).order_by(Share.id.desc())
    for campaign_id in campaign_ids:
        query = query.where(Share.campaigns.any(ShareCampaign.campaign_id == campaign_id))
    return list(session.scalars(query.limit(limit)))


def revoke(share_id: int, *, session: Session) -> Share:
    """Revoke a link at once (its URL then answers 410); NotFound when there is none or it is already revoked."""
    share = session.get(Share, share_id)
    if share is None or share.revoked_at is not None:
        raise NotFound("share", share_id)
    share.revoked_at = utcnow()
    session.flush()
    return share


def open_share(token: str, *, session: Session) -> tuple[Share, list[Campaign]]:
    """The share a token opens and its campaigns: NotFound for an unknown token, Gone when revoked, expired or a campaign is deleted."""
    share = session.scalar(select(Share).where(Share.token_hash == digest(token))) if 0 < len(token) <= 200 else None
    if share is None:
        raise NotFound("share", "link")  # reads "share link not found"
    if share.revoked_at is not None:
        raise Gone("this share link was revoked")
    if expired(share):
        raise Gone("this share link has expired")
    campaigns = [session.get(Campaign, c.campaign_id) if c.campaign_id is not None else None for c in share.campaigns]
    if any(c is None for c in campaigns):
        raise Gone("a campaign this link shows was deleted")
    return share, campaigns


def tools_for(campaigns: list[Campaign]) -> list[dict]:
    """GET /tools entries for the campaigns' load tools and the monitors their plans name."""
    names = dict.fromkeys([c.tool for c in campaigns] + [m.get("kind") for c in campaigns for m in (c.plan or {}).get("monitors") or []])
    found = []
    for name in names:
        try:
            found.append(adapter(str(name)).describe())
        except KeyError:
            continue
    return found


def shared_report(token: str, *, session: Session) -> dict:
    """What a link shows, with the analyses pinned when it was made and whether a newer one exists."""
    share, campaigns = open_share(token, session=session)
    pinned = {c.campaign_id: c.analysis for c in share.campaigns}
    versions = {str(c.campaign_id): c.analysis_version for c in share.campaigns}
    newer = any(analysis_version(c.analysis) != versions[str(c.id)] for c in campaigns)
    report = {"kind": share.kind, "created_at": share.created_at, "expires_at": share.expires_at, "tools": tools_for(campaigns),
              "analysis_versions": versions, "newer_analysis_available": newer}  # fmt: skip
    if share.kind == "comparison":
        report["comparison"] = build_comparison([str(c.id) for c in campaigns], session=session, pinned=pinned)
    else:
        campaign = campaigns[0]
        report.update(campaign={**describe(campaign, session=session), "analysis": pinned[campaign.id]},
                      points=[PointOut.model_validate(p).model_dump(mode="json") for p in campaign.points],
                      cpu_profile_points=cpu_profile_points(campaign))  # fmt: skip
    return public(report, addresses=team_addresses(campaigns, session=session))


def team_addresses(campaigns: list[Campaign], *, session: Session) -> list[str]:
    """The addresses a public document must not show beyond its own REFUSED keys (shares/public.py): the team's Grafana,
    its registered Prometheus servers, and the campaigns' exporter and node_exporter URLs (a comparison carries no target)."""
    servers = session.scalars(select(PrometheusServer.url))
    return [get_settings().grafana_url, *servers, *(v for c in campaigns for v in refused_values(c.target or {}))]


def shared_point(token: str, point_id: int, *, session: Session) -> Point:
    """A point of one of the share's campaigns (any other point: NotFound, as if it did not exist)."""
    _, campaigns = open_share(token, session=session)
    point = session.get(Point, point_id)
    if point is None or point.campaign_id not in {c.id for c in campaigns}:
        raise NotFound("point", point_id)
    return point


def shared_samples(token: str, point_id: int, *, series: str | None, max_points: int, session: Session) -> dict:
    """A point's samples, only when the point belongs to one of the share's campaigns (otherwise NotFound)."""
    shared_point(token, point_id, session=session)
    return point_samples(point_id, series=series, max_points=max_points, session=session)


def shared_histogram(token: str, point_id: int, *, window: str, max_buckets: int, session: Session) -> dict:
    """A point's latency histogram, only when the point belongs to one of the share's campaigns."""
    shared_point(token, point_id, session=session)
    return point_histogram(point_id, session=session, window=window, max_buckets=max_buckets)


def shared_cpu_profile(token: str, point_id: int, *, session: Session) -> dict:
    """A point's CPU profile (folded stacks), only when the point belongs to one of the share's campaigns."""
    shared_point(token, point_id, session=session)
    return cpu_profiles.folded(point_id, session=session)


def shared_cpu_functions(token: str, point_id: int, *, limit: int, by: str, session: Session) -> dict:
    """A point's top functions, only when the point belongs to one of the share's campaigns."""
    shared_point(token, point_id, session=session)
    return cpu_profiles.top(point_id, session=session, limit=limit, by=by)


def shared_cpu_diff(token: str, point_id: int, other_id: int, *, limit: int, session: Session) -> dict:
    """Point `other_id`'s CPU profile against `point_id`'s (the comparison's differential), only when both points
    belong to the share's campaigns."""
    for pid in (point_id, other_id):
        shared_point(token, pid, session=session)
    return cpu_profiles.diff(point_id, other_id, session=session, limit=limit)
