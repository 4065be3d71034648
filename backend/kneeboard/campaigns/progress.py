"""Progress and headline figures of a campaign, computed from its points."""

from __future__ import annotations

from kneeboard.campaigns.models import Campaign, Point
from kneeboard.db import as_utc, utcnow
from kneeboard.plans.expand import START_OVERHEAD_S
from kneeboard.states import CampaignStatus, PointStatus

DONE = {PointStatus.COMPLETED, PointStatus.FAILED, PointStatus.CANCELLED, PointStatus.CRASHED}


def progress(campaign: Campaign, queue_position: int | None) -> dict:
    """Points done/total, elapsed and ETA (remaining durations plus pauses)."""
    points = campaign.points
    remaining = [p for p in points if p.status not in DONE]
    pause = float(campaign.plan.get("pause_s", 0))
    eta = None
    if campaign.status in {CampaignStatus.QUEUED, CampaignStatus.STARTING, CampaignStatus.RUNNING}:
        eta = sum(p.duration_s + START_OVERHEAD_S for p in remaining) + pause * max(0, len(remaining) - 1)
        running = next((p for p in remaining if p.status == PointStatus.RUNNING and p.started_at), None)
        if running is not None:
            eta -= min(running.duration_s, (utcnow() - as_utc(running.started_at)).total_seconds())
    elapsed = None
    if campaign.started_at is not None:
        end = campaign.ended_at or utcnow()
        elapsed = (as_utc(end) - as_utc(campaign.started_at)).total_seconds()
    return {
        "done": len(points) - len(remaining),
        "total": len(points),
        "failed": sum(p.status == PointStatus.FAILED for p in points),
        "cancelled": sum(p.status in {PointStatus.CANCELLED, PointStatus.CRASHED} for p in points),
        "elapsed_s": elapsed,
        "eta_s": max(0.0, eta) if eta is not None else None,
        "running_point_id": next((p.id for p in points if p.status == PointStatus.RUNNING), None),
        "queue_position": queue_position,
    }


def summary(points: list[Point]) -> dict:
    """Max achieved rate, baseline latency and overall loss of the completed points."""
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
