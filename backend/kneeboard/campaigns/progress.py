"""Progress and headline figures of a campaign, computed from its points.

`store` keeps the counts and the summary on the campaign row whenever points change, so a list never
loads points; `progress` reads them back, and counts live only for the few active campaigns (ETA).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from kneeboard.campaigns.models import Campaign, Point
from kneeboard.campaigns.status import CAMPAIGN_ACTIVE
from kneeboard.db import as_utc, utcnow
from kneeboard.plans.expand import START_OVERHEAD_S
from kneeboard.states import CampaignStatus, PointStatus

DONE = {PointStatus.COMPLETED, PointStatus.FAILED, PointStatus.CANCELLED, PointStatus.CRASHED}


def counts(points: Iterable[Any]) -> dict[str, int]:
    """Points done (ended in any way), total, failed and cancelled; `points` need only a `status`."""
    statuses = [p.status for p in points]
    return {
        "done": sum(s in DONE for s in statuses),
        "total": len(statuses),
        "failed": sum(s == PointStatus.FAILED for s in statuses),
        "cancelled": sum(s in {PointStatus.CANCELLED, PointStatus.CRASHED} for s in statuses),
    }


def store(campaign: Campaign) -> None:
    """Keep the campaign's point counts and summary on its row; call it whenever its points change."""
    points = campaign.points
    tally = counts(points)
    campaign.points_done, campaign.points_total = tally["done"], tally["total"]
    campaign.points_failed, campaign.points_cancelled = tally["failed"], tally["cancelled"]
    campaign.summary = summary(points)


def stored_summary(campaign: Campaign) -> dict:
    """The summary kept on the campaign (computed from its points for a row stored before it was kept)."""
    return campaign.summary if campaign.summary is not None else summary(campaign.points)


def progress(campaign: Campaign, queue_position: int | None, points: Sequence[Any] | None = None) -> dict:
    """Points done/total, elapsed and ETA (remaining durations plus pauses).

    A finished campaign reads its stored counts; an active one counts `points` (default: its own) for the ETA.
    """
    live = campaign.status in CAMPAIGN_ACTIVE or campaign.points_total is None
    points = (campaign.points if points is None else points) if live else ()
    tally = counts(points) if live else {
        "done": campaign.points_done, "total": campaign.points_total,
        "failed": campaign.points_failed, "cancelled": campaign.points_cancelled,
    }  # fmt: skip
    remaining = [p for p in points if p.status not in DONE]
    eta = None
    if campaign.status in {CampaignStatus.QUEUED, CampaignStatus.STARTING, CampaignStatus.RUNNING}:
        pause = float(campaign.plan.get("pause_s", 0))
        eta = sum(p.duration_s + START_OVERHEAD_S for p in remaining) + pause * max(0, len(remaining) - 1)
        running = next((p for p in remaining if p.status == PointStatus.RUNNING and p.started_at), None)
        if running is not None:
            eta -= min(running.duration_s, (utcnow() - as_utc(running.started_at)).total_seconds())
    elapsed = None
    if campaign.started_at is not None:
        end = campaign.ended_at or utcnow()
        elapsed = (as_utc(end) - as_utc(campaign.started_at)).total_seconds()
    return {
        **tally,
        "elapsed_s": elapsed,
        "eta_s": max(0.0, eta) if eta is not None else None,
        "running_point_id": next((p.id for p in points if p.status == PointStatus.RUNNING), None),
        "queue_position": queue_position,
    }


def summary(points: Sequence[Point]) -> dict:
    """Max achieved rate, baseline latency and overall loss of the completed points (`status`, `phase`, `metrics`)."""
    done = [p for p in points if p.status == PointStatus.COMPLETED]
    rates = [p.metrics.get("achieved_rate") for p in done if p.metrics.get("achieved_rate") is not None]
    baseline = [p.metrics.get("latency_avg_ms") for p in done if p.phase == "baseline" and p.metrics.get("latency_avg_ms") is not None]
    sent = sum(p.metrics.get("sent") or 0 for p in done)
    lost = sum(p.metrics.get("lost") or 0 for p in done)
    return {
        "max_achieved_rate": max(rates) if rates else None,
        "baseline_latency_ms": sum(baseline) / len(baseline) if baseline else None,
        "loss_pct": 100.0 * lost / sent if sent else None,
        "points_completed": len(done),
        "points_failed": sum(p.status == PointStatus.FAILED for p in points),
    }
