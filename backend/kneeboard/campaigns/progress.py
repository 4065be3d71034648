"""Progress and headline figures of a campaign, computed from its points.

`store` keeps the counts and the summary on the campaign row whenever points change, so a list never
loads points; `progress` reads them back, and counts live only for the few active campaigns (ETA).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from kneeboard.analysis.generator import server_judged
from kneeboard.analysis.knee import ceiling
from kneeboard.analysis.points import low_load
from kneeboard.campaigns.models import Campaign, Point
from kneeboard.campaigns.status import CAMPAIGN_ACTIVE
from kneeboard.db import as_utc, utcnow
from kneeboard.search.estimate import START_OVERHEAD_S
from kneeboard.search.report import group_key, search_report
from kneeboard.states import CampaignStatus, PointStatus
from kneeboard.tools.registry import adapter

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
    searching = search_progress(campaign, points) if live else None
    if not _searches_left(campaign, points) and campaign.status in {CampaignStatus.QUEUED, CampaignStatus.STARTING, CampaignStatus.RUNNING}:
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
        "search": searching,
    }


def _searches_left(campaign: Campaign, points: Sequence[Any]) -> bool:
    """Whether a search may still add trials: then the campaign has no ETA (its points are made as it goes; the preview
    gives the range), and its total of points grows."""
    if not any(phase.get("kind") == "search" for phase in campaign.plan.get("phases") or []):
        return False
    return any(getattr(p, "phase", "search") == "search" and p.status not in DONE for p in points)  # a list's rows carry no phase


def search_progress(campaign: Campaign, points: Sequence[Any]) -> dict | None:
    """Where an unfinished search of the campaign stands: the running one's (else the next's) trials so far and bracket,
    and how far the bracket has narrowed; None when no search is left to run, or when `points` are a list's rows (they
    carry no trials' metrics)."""
    phases = campaign.plan.get("phases") or []
    if not _searches_left(campaign, points) or not all(isinstance(p, Point) for p in points):
        return None
    try:
        tool = adapter(campaign.tool)
    except KeyError:
        return None
    running = next((group_key(p) for p in points if p.status == PointStatus.RUNNING and p.phase == "search"), None)
    left = [s for s in search_report(phases, points, tool.rate_unit, tool.whole_seconds, float(campaign.plan.get("pause_s", 0)))
            if not s["done"] and not s.get("stopped")]  # fmt: skip
    here = next((s for s in left if (s["phase_index"], s["variant"], s["repeat"]) == running), left[0] if left else None)
    if here is None:
        return None
    return {**{k: here[k] for k in ("phase_index", "variant", "repeat", "trials", "unit", "bracket")},
            "narrowed_pct": narrowed_pct(here["bracket"], float(phases[here["phase_index"]].get("resolution_pct", 1.0)))}


def narrowed_pct(bracket: dict, resolution_pct: float) -> float:
    """How far a bracket has come from its search's whole range to the resolution, in % on a log scale of its width
    (relative to its lower end): 0 until both bounds are known."""
    low, high = bracket.get("low"), bracket.get("high")
    start_low, start_high = bracket["range"]
    if low is None or high is None or low <= 0:
        return 0.0
    start, now, end = (start_high - start_low) / start_low, max((high - low) / low, 1e-12), resolution_pct / 100.0
    if start <= end:
        return 100.0
    return max(0.0, min(100.0, 100.0 * math.log(start / now) / math.log(start / end)))


def _analysed(point: Any) -> dict[str, Any]:
    """A point (a stored one, or a row with only some of its columns: a migration's) in the analysis' shape."""
    metrics = point.metrics or {}
    return {**metrics, "status": point.status, "phase": getattr(point, "phase", None), "concurrency": getattr(point, "concurrency", None),
            "offered_rate": getattr(point, "offered_rate", None), "repeat": getattr(point, "repeat", 0) or 0,
            "variant": getattr(point, "variant", None),
            "generator_limited": bool(((getattr(point, "extra", None) or {}).get("generator") or {}).get("limited"))}  # fmt: skip


def summary(points: Sequence[Any]) -> dict:
    """The summary figures of the completed points, read as the analysis reads them: the ceiling (the highest achieved
    rate, repetitions averaged, generator-limited points left out), the mean latency at low load (the baseline phase,
    else the lowest load of the sweep) and the overall loss. `points` need a status and metrics; phase, load,
    repetition, variant and extra are read where present."""
    done = [p for p in points if p.status == PointStatus.COMPLETED]
    judged, _ = server_judged([_analysed(p) for p in done])
    sent = sum(p.metrics.get("sent") or 0 for p in done)
    lost = sum(p.metrics.get("lost") or 0 for p in done)
    return {
        "max_achieved_rate": (ceiling(judged) or {}).get("achieved_rate"),
        "baseline_latency_ms": low_load(judged, "latency_avg_ms"),
        "loss_pct": 100.0 * lost / sent if sent else None,
        "points_completed": len(done),
        "points_failed": sum(p.status == PointStatus.FAILED for p in points),
    }
