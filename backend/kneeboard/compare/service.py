"""Building a comparison: headline figures with deltas and verdicts, and what differs."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.orm import Session

from kneeboard.analysis import compare as compare_points
from kneeboard.campaigns.analysis import point_dict
from kneeboard.campaigns.models import Campaign
from kneeboard.campaigns.service import describe, get_campaign

# metric, label, unit, which way is better, the per-point metric whose verdict it takes
HEADLINES = (
    ("max_achieved_rate", "Max achieved rate", "rate", "higher", "achieved_rate"),
    ("baseline_latency_ms", "Baseline latency", "ms", "lower", "latency_avg_ms"),
    ("loss_pct", "Loss", "%", "lower", "loss_pct"),
    ("knee_rate", "Knee (offered)", "rate", "higher", None),
    ("usl_peak_rate", "USL predicted peak", "rate", "higher", None),
)


def flatten(value: Any, prefix: str = "") -> dict[str, str]:
    """Nested dicts as dotted keys with JSON-text values (lists stay whole)."""
    if isinstance(value, dict):
        out: dict[str, str] = {}
        for key, inner in value.items():
            out.update(flatten(inner, f"{prefix}{key}."))
        return out
    return {prefix.rstrip("."): value if isinstance(value, str) else json.dumps(value)}


def differences(documents: dict[str, dict]) -> list[dict]:
    """The keys whose values differ between the documents (keys are campaign ids)."""
    flat = {cid: flatten(doc or {}) for cid, doc in documents.items()}
    keys = sorted(set().union(*(f.keys() for f in flat.values())))
    rows = []
    for key in keys:
        values = {cid: f.get(key) for cid, f in flat.items()}
        if len(set(values.values())) > 1:
            rows.append({"key": key, "values": values})
    return rows


def _headline_values(described: dict) -> dict[str, float | None]:
    analysis = described.get("analysis") or {}
    summary = described["summary"]
    return {
        "max_achieved_rate": summary["max_achieved_rate"],
        "baseline_latency_ms": summary["baseline_latency_ms"],
        "loss_pct": summary["loss_pct"],
        "knee_rate": (analysis.get("knee") or {}).get("offered_rate"),
        "usl_peak_rate": (analysis.get("usl") or {}).get("peak_rate"),
    }


def _delta(value: float | None, first: float | None) -> dict | None:
    if value is None or first is None:
        return None
    return {"abs": value - first, "pct": (value - first) / abs(first) * 100.0 if first else None}


def build(campaign_ids: list[int], *, session: Session) -> dict:
    """Compare campaigns; deltas and verdicts are against the first one."""
    campaigns: list[Campaign] = [get_campaign(cid, session=session) for cid in campaign_ids]
    described = [describe(c, session=session) for c in campaigns]
    keys = [str(c.id) for c in campaigns]
    values = {key: _headline_values(d) for key, d in zip(keys, described)}
    base_points = [point_dict(p) for p in campaigns[0].points]
    overall = {key: compare_points(base_points, [point_dict(p) for p in c.points])["overall"] for key, c in zip(keys[1:], campaigns[1:])}
    headline = []
    for metric, label, unit, better, point_metric in HEADLINES:
        verdicts = {keys[0]: None, **{k: (overall[k].get(point_metric) or {}).get("verdict") if point_metric else None for k in keys[1:]}}
        basis = {keys[0]: None, **{k: (overall[k].get(point_metric) or {}).get("basis") if point_metric else None for k in keys[1:]}}
        first = values[keys[0]][metric]
        headline.append({
            "metric": metric, "label": label, "unit": unit, "better": better,
            "values": {k: values[k][metric] for k in keys},
            "deltas": {k: _delta(values[k][metric], first) if k != keys[0] else None for k in keys},
            "verdicts": verdicts, "basis": basis,
        })  # fmt: skip
    return {
        "campaigns": described,
        "points": {key: c.points for key, c in zip(keys, campaigns)},
        "headline": headline,
        "differences": {
            "plan": differences({k: {kk: v for kk, v in c.plan.items() if kk != "name"} for k, c in zip(keys, campaigns)}),
            "target": differences({k: c.target for k, c in zip(keys, campaigns)}),
            "environment": differences({k: c.environment for k, c in zip(keys, campaigns)}),
        },
    }
