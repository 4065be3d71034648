"""A completed campaign's trend figures, read the way a comparison reads them (compare.service), never recomputed."""

from __future__ import annotations

from typing import Any

from kneeboard.campaigns.analysis import point_dict
from kneeboard.campaigns.models import Campaign
from kneeboard.campaigns.progress import stored_summary
from kneeboard.analysis.generator import server_judged
from kneeboard.analysis.points import low_load
from kneeboard.compare.service import headline_values
from kneeboard.trends.models import TrendEntry

# metric → (TrendEntry column, +1 when higher is better, −1 when lower is)
METRICS: dict[str, tuple[str, int]] = {
    "capacity_at_slo": ("capacity", +1),
    "max_achieved_rate": ("max_achieved_rate", +1),
    "latency_p50_ms": ("latency_p50_ms", -1),
    "latency_p99_ms": ("latency_p99_ms", -1),
    "loss_pct": ("loss_pct", -1),
    "server_cost": ("server_cost", -1),
}


def capacity_of(analysis: dict[str, Any] | None) -> dict[str, Any]:
    """Capacity at SLO as {"value", "low", "high", "kind", "bound"}: kind "between" (a figure, with its interval when
    repeated), "at_least" (the target held at every load: value is a lower bound) or "below" (missed at the lowest
    load: no figure). Reads a `kind` the analysis gives, else tells it from `how`."""
    capacity = (analysis or {}).get("capacity") or {}
    if not capacity:
        return {"value": None, "low": None, "high": None, "kind": None, "bound": None}
    value, how = capacity.get("value", capacity.get("capacity")), capacity.get("how") or ""  # "capacity": analyses before kinds
    kind = capacity.get("kind") or ("at_least" if how.startswith("lower bound") else "below" if value is None else "between")
    if kind == "between":
        return {"value": value, "low": capacity.get("ci_low"), "high": capacity.get("ci_high"), "kind": kind, "bound": None}
    return {"value": value if kind == "at_least" else None, "low": None, "high": None, "kind": kind, "bound": value}


WINDOW, INTERVALS = "load-window", "interval-mean"


def server_method(points: list[dict]) -> str | None:
    """How the points' server figures were read: "load-window" (counters read right before and after each load) or
    "interval-mean" (the older mean of scrape intervals); None when no exporter read the server."""
    summaries = [s for p in points for label, s in ((p.get("monitors") or {}).items()) if label.startswith("exporter.")
                 and isinstance(s, dict) and s.get("packs")]
    if not summaries:
        return None
    return WINDOW if all("window" in s or "counters" in s for s in summaries) else INTERVALS


def entry_of(campaign: Campaign) -> TrendEntry:
    """The campaign's trend row: capacity at SLO with its interval, max achieved rate, low-load p50/p99, loss and the
    server's CPU per unit of work."""
    values = headline_values({"analysis": campaign.analysis, "summary": stored_summary(campaign)})
    every = [point_dict(p) for p in campaign.points]
    points, _ = server_judged(every)
    capacity = capacity_of(campaign.analysis)
    return TrendEntry(
        campaign_id=campaign.id, plan_id=campaign.plan_id, target_id=campaign.target_id, tool=campaign.tool, name=campaign.name[:200],
        ended_at=campaign.ended_at or campaign.created_at, capacity=capacity["value"], capacity_low=capacity["low"],
        capacity_high=capacity["high"], capacity_kind=capacity["kind"], capacity_bound=capacity["bound"],
        max_achieved_rate=values["max_achieved_rate"], loss_pct=values["loss_pct"], server_cost=values["server_cost"],
        server_method=server_method(every) if values["server_cost"] is not None else None,
        latency_p50_ms=low_load(points, "latency_p50_ms"), latency_p99_ms=low_load(points, "latency_p99_ms"),
    )  # fmt: skip
