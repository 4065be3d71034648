"""The document the renderer draws (frontend/export/document.ts): a report or a comparison with every sample its
charts would fetch, so that the file needs no network. Pure reads; services never commit."""

from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy.orm import Session

from kneeboard import __version__
from kneeboard.campaigns import service as campaigns
from kneeboard.campaigns.featured import cpu_profile_points, featured_points
from kneeboard.campaigns.models import Campaign, Point
from kneeboard.campaigns.schemas import CampaignOut, PointOut
from kneeboard.compare.schemas import Comparison
from kneeboard.compare.service import build as build_comparison
from kneeboard.errors import Conflict, DomainError, NotFound
from kneeboard.failover.service import point_outcomes
from kneeboard.profiling import service as cpu_profiles
from kneeboard.profiling.analysis import parse_folded
from kneeboard.profiling.folding import cap
from kneeboard.shares import service as shares
from kneeboard.shares.public import public

TIMELINE_MAX_SAMPLES = 600  # what the report's timeline asks per point (CampaignTimeline.tsx)
CHART_MAX_SAMPLES = 2000  # what the stability and monitor charts ask (api/points.ts MAX_SAMPLES)
PROFILE_MAX_BYTES = 262_144  # a CPU profile's folded stacks in a file (a quarter of what is stored: the heaviest stacks)
TOP_FUNCTIONS = 15  # what the report's top-functions table asks (api/cpuProfiles.ts TOP_FUNCTIONS)


def _samples(campaign: Campaign, *, session: Session) -> tuple[list[dict], list[int]]:
    """The samples the report's charts read, keyed as they ask for them, and the points whose monitors are shown."""
    asks: dict[tuple[int, str | None, int], None] = {}
    if campaign.source == "live":
        asks.update({(p.id, "point", TIMELINE_MAX_SAMPLES): None for p in campaign.points if p.status != "pending"})
    featured = featured_points(campaign.points)
    asks.update({(p.id, "point", CHART_MAX_SAMPLES): None for p in featured.values() if p.phase == "stability"})
    monitored = [p.id for p in featured.values()] if (campaign.plan or {}).get("monitors") else []
    asks.update({(pid, None, CHART_MAX_SAMPLES): None for pid in monitored})
    entries = [{"point_id": pid, "series": series, "max_points": cap,
                "data": campaigns.point_samples(pid, series=series, max_points=cap, session=session)} for pid, series, cap in asks]  # fmt: skip
    return entries, monitored


def _outcomes(campaign: Campaign, *, session: Session) -> list[dict]:
    """The request outcomes the report's outcomes chart draws (OutcomesCard.tsx): per variant, its longest completed
    stability point's (the stability chart's), when that point stored them."""
    longest: dict[str | None, Point] = {}
    for p in campaign.points:
        if p.phase == "stability" and p.status == "completed" and p.duration_s > getattr(longest.get(p.variant), "duration_s", -1):
            longest[p.variant] = p
    return [{"point_id": p.id, "data": point_outcomes(p.id, session=session)} for p in longest.values() if (p.extra or {}).get("outcomes")]


def _cpu_profiles(campaign: Campaign, *, session: Session) -> list[dict]:
    """The CPU profiles the file shows (cpu_profile_points), each with its top functions, the folded stacks cut to
    PROFILE_MAX_BYTES (the lightest left out, counted as dropped); a point without one carries the reason instead."""
    out = []
    for point_id in cpu_profile_points(campaign):
        try:
            profile = cpu_profiles.folded(point_id, session=session)
            top = cpu_profiles.top(point_id, session=session, limit=TOP_FUNCTIONS, by="self")
        except Conflict as exc:
            out.append({"point_id": point_id, "missing": str(exc)})
            continue
        kept = cap(parse_folded(profile["folded"]), PROFILE_MAX_BYTES)
        profile.update(folded=kept.text, stacks=kept.stacks, dropped_stacks=profile["dropped_stacks"] + kept.dropped_stacks,
                       dropped_samples=profile["dropped_samples"] + kept.dropped_samples)  # fmt: skip
        out.append({"point_id": point_id, "profile": profile, "functions": top})
    return out


def _matched_point(points: list[dict], row: dict) -> int | None:
    """The first completed point of `points` at a matched load's phase, concurrency and offered rate (its id)."""
    return next((p["id"] for p in points if p["status"] == "completed" and p["phase"] == row["phase"]
                 and p["concurrency"] == row["concurrency"] and p.get("offered_rate") == row["offered_rate"]), None)  # fmt: skip


def _cpu_profile_diffs(comparison: dict, *, session: Session) -> list[dict]:
    """The CPU profiles' differentials the comparison draws (CpuProfileCompare.tsx): each campaign against the
    reference, when both plans ask for profiles, at its default load (the highest matched load with a completed point
    on both sides); a pair without one carries the reason instead."""
    keys, plans = comparison["selectors"], [c.get("plan") or {} for c in comparison["campaigns"]]
    out = []
    for i, key in enumerate(keys[1:], start=1):
        verdicts = comparison["point_verdicts"].get(key)
        if not (plans[0].get("cpu_profile") and plans[i].get("cpu_profile") and verdicts):
            continue
        pairs = [(a, b) for row in verdicts["points"] if (a := _matched_point(comparison["points"][keys[0]], row)) is not None
                 and (b := _matched_point(comparison["points"][key], row)) is not None]  # fmt: skip
        if not pairs:
            continue
        a, b = pairs[-1]
        try:
            out.append({"a": a, "b": b, "diff": cpu_profiles.diff(a, b, session=session, limit=TOP_FUNCTIONS)})
        except Conflict as exc:
            out.append({"a": a, "b": b, "missing": str(exc)})
    return out


def _baseline(campaign: Campaign, *, session: Session) -> dict | None:
    """The campaign against its plan's pinned baseline, as the compare page shows it; None when there is none or they do not compare."""
    baseline = campaigns.pinned_baseline(campaign, session=session)
    if baseline is None:
        return None
    try:
        return Comparison.model_validate(build_comparison([str(baseline), str(campaign.id)], session=session)).model_dump(mode="json")
    except DomainError:
        return None


def _frame(kind: str, link: str, site: str, tools: list[dict]) -> dict:
    """What every document carries: its kind, Kneeboard's version, when, the link back and the tools' descriptions."""
    return {"kind": kind, "version": __version__, "generated_at": datetime.now(timezone.utc).isoformat(), "link": link,
            "site": site.rstrip("/"), "tools": tools}  # fmt: skip


def campaign_document(campaign_id: int, *, site: str, session: Session, link: str | None = None, analysis: dict | None = None,
                      pinned: bool = False) -> dict:  # fmt: skip
    """One campaign's report (with `pinned`, `analysis` replaces the live one: a share's); the link back is its page, or `link`."""
    campaign = campaigns.refresh_analysis(campaigns.get_campaign(campaign_id, session=session))
    described = {**campaigns.describe(campaign, session=session), "baseline_campaign_id": campaigns.pinned_baseline(campaign, session=session)}
    if pinned:
        described["analysis"] = analysis
    samples, monitored = _samples(campaign, session=session)
    return {**_frame("campaign", link or f"{site.rstrip('/')}/campaigns/{campaign.id}", site, shares.tools_for([campaign])),
            "campaign": CampaignOut.model_validate(described).model_dump(mode="json"),
            "points": [PointOut.model_validate(p).model_dump(mode="json") for p in campaign.points],
            "samples": samples, "monitor_points": monitored, "cpu_profiles": _cpu_profiles(campaign, session=session),
            "outcomes": _outcomes(campaign, session=session),
            "baseline": None if pinned else _baseline(campaign, session=session)}  # fmt: skip


def comparison_document(selectors: list[str], *, site: str, session: Session, link: str | None = None,
                        pinned: dict[int, dict | None] | None = None) -> dict:  # fmt: skip
    """A comparison of campaigns or variants, as the compare page shows it (`pinned`: a share's analyses)."""
    comparison = Comparison.model_validate(build_comparison(selectors, session=session, pinned=pinned)).model_dump(mode="json")
    ids = list(dict.fromkeys(int(s.split("@")[0]) for s in selectors))
    query = "&".join(f"c={s}" for s in selectors)
    tools = shares.tools_for([campaigns.get_campaign(i, session=session) for i in ids])
    return {**_frame("comparison", link or f"{site.rstrip('/')}/compare?{query}", site, tools), "comparison": comparison,
            "cpu_profile_diffs": _cpu_profile_diffs(comparison, session=session)}  # fmt: skip


def shared_document(token: str, *, site: str, session: Session, campaign_id: int | None = None) -> dict:
    """What a share link shows, as a document, with the analyses pinned when it was shared, cut to what a public
    document may carry (shares/public.py). `campaign_id`: one of the link's campaigns on its own (any other: NotFound,
    as if it did not exist)."""
    share, listed = shares.open_share(token, session=session)
    pinned = {c.campaign_id: c.analysis for c in share.campaigns}
    link = shares.url_of(site, token)
    if campaign_id is not None and campaign_id not in pinned:
        raise NotFound("campaign", campaign_id)
    if campaign_id is None and share.kind == "comparison":
        document = comparison_document([str(c.id) for c in listed], site=site, session=session, link=link, pinned=pinned)
    else:
        chosen = campaign_id if campaign_id is not None else listed[0].id
        document = campaign_document(chosen, site=site, session=session, link=link, analysis=pinned[chosen], pinned=True)
    return public(document, addresses=shares.team_addresses(listed, session=session))  # what a share link may carry
