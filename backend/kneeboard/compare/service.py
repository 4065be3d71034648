"""Building a comparison: headline figures with deltas and verdicts, and what differs."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import Session

from kneeboard.analysis import compare as compare_points
from kneeboard.analysis.points import finite, low_load, low_load_points
from kneeboard.analysis.capacity_verdict import capacity_test, capacity_verdict
from kneeboard.analysis.conclusion import criterion_text
from kneeboard.analysis.failover_events import event_table
from kneeboard.analysis.failover_verdict import COMPARED as FAILOVER_ROWS, event_figures, figure_test, figure_verdict
from kneeboard.analysis.link_cost_verdict import COMPARED as LINK_ROWS, repetition_figures
from kneeboard.analysis.generator import server_judged
from kneeboard.analysis.verdicts import FEW, MARGIN_PCT, MIN_REPEATS, SAME, follow, match_key, mean_over_points, mean_verdict, method_text, verdict_text
from kneeboard.analysis.verdicts import overall as metric_overall
from kneeboard.campaigns.analysis import point_dict
from kneeboard.campaigns.models import Campaign
from kneeboard.campaigns.models import Point
from kneeboard.campaigns.progress import summary
from kneeboard.campaigns.service import describe, get_campaign
from kneeboard.config import get_settings
from kneeboard.errors import invalid_query
from kneeboard.grafana import dashboard_link
from kneeboard.inputs import MAX_ID
from kneeboard.tools.registry import adapter

@dataclass
class Selection:
    """One column of a comparison: a campaign, or one variant of it."""

    key: str
    campaign: Campaign
    variant: str | None
    points: list[Point]
    described: dict
    environment: dict


# metric, label, unit, which way is better, the per-point metric whose verdict it takes (over all matched points)
HEADLINES = (
    ("max_achieved_rate", "Ceiling: highest achieved rate (mean of repetitions)", "rate", "higher", "achieved_rate"),
    ("baseline_latency_ms", "Mean latency at low load", "ms", "lower", "latency_avg_ms"),
    ("loss_pct", "Loss (all points)", "%", "lower", "loss_pct"),
    ("knee_rate", "Knee (offered load; its rule: see the report)", "rate", "higher", None),
    ("usl_peak_rate", "USL predicted peak throughput", "rate", "higher", None),
    ("server_cost", "Server CPU per {work} (its process counter; mean of points)", "CPU-s per {work}", "lower", "server_cost"),
)
SHOWN_WHEN_MEASURED = {"server_cost"}  # rows left out when no campaign has the figure (no exporter read the server)
MEAN_OF_POINTS = {"server_cost"}  # rows that are a mean over points: their verdict tests each repetition's mean over them
LOW_LOAD = {"baseline_latency_ms"}  # rows read at low load, whose verdict is taken there too
UNDECIDED = (SAME, FEW)  # verdicts whose row says what would decide them (verdicts.next_step)
PERCENTILES = ("latency_p50_ms", "latency_p90_ms", "latency_p99_ms", "latency_p999_ms")  # a headline row each, when measured


def _percentile_headlines(tool: str, points: dict[str, list[dict]]) -> list[tuple]:
    """A row per latency percentile the tool declares and some campaign measured, in HEADLINES' shape."""
    measured = {name for pts in points.values() for p in pts for name in PERCENTILES if finite(p.get(name)) is not None}
    return [(m.name, f"{m.title} at low load", m.unit, "lower", m.name) for m in adapter(tool).all_metrics() if m.name in measured]


def capacity_rows(described: list[dict]) -> list[dict]:
    """The capacities a comparison shows, each labelled with its criterion: every criterion of the reference's search,
    then capacity at its SLO. {"metric", "label", "pick"} where pick(analysis) → the capacity dict or None."""
    first = (described[0].get("analysis") or {})
    rows = []
    for found in first.get("searched") or []:
        def pick(analysis: dict, metric=found["metric"], limit=found["limit"]) -> dict | None:
            return next((c for c in analysis.get("searched") or [] if c["metric"] == metric and c["limit"] == limit), None)
        rows.append({"metric": f"search:{found['metric']}:{found['limit']:g}",
                     "label": f"Capacity found by the search at {criterion_text(found['metric'], found['limit'])}", "pick": pick})
    if any((d.get("analysis") or {}).get("capacity") for d in described):
        cap = first.get("capacity") or next(d["analysis"]["capacity"] for d in described if (d.get("analysis") or {}).get("capacity"))
        rows.append({"metric": "capacity_at_slo", "label": f"Capacity at {criterion_text(cap['metric'], cap['limit_ms'])} (SLO, sweep)",
                     "pick": lambda analysis: analysis.get("capacity")})
    return rows


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


def headline_values(described: dict) -> dict[str, float | None]:
    """The headline figures of a described campaign (its stored summary and analysis), by HEADLINES metric; the
    capacity is the search's first criterion when it ran one, else at its SLO (as a trend reads it)."""
    analysis = described.get("analysis") or {}
    summary = described["summary"]
    capacity = (analysis.get("searched") or [None])[0] or analysis.get("capacity") or {}
    return {
        "capacity_at_slo": capacity.get("value"),
        "max_achieved_rate": (analysis.get("ceiling") or {}).get("achieved_rate", summary["max_achieved_rate"]),
        "baseline_latency_ms": summary["baseline_latency_ms"],  # the mean latency at low load (progress.summary)
        "loss_pct": summary["loss_pct"],
        "knee_rate": (analysis.get("knee") or {}).get("offered_rate"),
        "usl_peak_rate": (analysis.get("usl") or {}).get("peak_rate"),
        "server_cost": ((analysis.get("evidence") or {}).get("cost") or {}).get("value"),
    }


def _directions(tool: str) -> dict[str, int]:
    """Which way is better for each of the tool's metrics (+1 higher, −1 lower), from the tool contract, and for the
    server evidence's (its CPU per unit of work: lower)."""
    return {**{m.name: +1 if m.better == "higher" else -1 for m in adapter(tool).all_metrics() if m.better is not None},
            "server_cost": -1}


def margin_of(campaign: Campaign) -> float:
    """The practical margin (±%) a campaign's plan set for equivalence, else the default."""
    return float((campaign.plan or {}).get("margin_pct") or MARGIN_PCT)


def _delta(value: float | None, first: float | None) -> dict | None:
    if value is None or first is None:
        return None
    return {"abs": value - first, "pct": (value - first) / abs(first) * 100.0 if first else None}


def _row(metric: str, label: str, unit: str, better: str, values: dict[str, float | None], tests: dict[str, dict | None], margin: float,
         *, intervals: dict | None = None, kinds: dict | None = None) -> dict:
    """One headline row: values, deltas and verdicts against the first key's; a verdict against the way its value moved
    is "mixed" (verdicts.follow)."""
    keys = list(values)
    first = values[keys[0]]
    tested = {k: (t or {}).get("verdict") if values[k] is not None and first is not None else None for k, t in tests.items()}
    verdicts = {k: follow(v, values[k] - first if v else None, 1 if better == "higher" else -1) for k, v in tested.items()}
    details = {k: (t or {}).get("detail") if verdicts[k] == tested[k] else
               f"the points tested say {tested[k]}; the figure moved the other way" for k, t in tests.items()}  # fmt: skip
    return {
        "metric": metric, "label": label, "unit": unit, "better": better, "values": values, "intervals": intervals,
        "deltas": {k: _delta(values[k], first) if k != keys[0] else None for k in keys},
        "verdicts": verdicts, "verdict_texts": {k: verdict_text(v, margin) for k, v in verdicts.items()},
        "basis": {k: (t or {}).get("basis") for k, t in tests.items()}, "details": details,
        "next_steps": {k: (t or {}).get("next_step") if verdicts[k] in UNDECIDED else None for k, t in tests.items()},
        "kinds": kinds,
    }  # fmt: skip


def _capacity_row(row: dict, keys: list[str], found: list[dict], margin: float, unit: str, adjusted: dict[str, float | None]) -> dict:
    """A capacity row: each side's capacity (mean of repetitions) with its interval and kind; verdicts test the
    per-repetition capacities (capacity_verdict), at their p-values corrected with the comparison's (`adjusted`)."""
    tests = {keys[0]: None, **{k: capacity_verdict(found[0].get("per_repeat"), f.get("per_repeat"), margin_pct=margin, unit=unit,
                                                   p_adjusted=adjusted[k]) for k, f in zip(keys[1:], found[1:])}}  # fmt: skip
    intervals = {k: [f["ci_low"], f["ci_high"]] if f.get("ci_low") is not None else None for k, f in zip(keys, found)}
    return _row(row["metric"], row["label"], "rate", "higher", {k: f.get("value") for k, f in zip(keys, found)}, tests, margin,
                intervals=intervals, kinds={k: f.get("kind") for k, f in zip(keys, found)})


def _low_load_keys(points_a: list[dict], points_b: list[dict], metric: str) -> set[tuple]:
    """Where both sides read `metric` at low load (points.low_load_points), as match keys."""
    return {match_key(p) for p in low_load_points(points_a, metric)} & {match_key(p) for p in low_load_points(points_b, metric)}


def _described(campaign: Campaign, session: Session, pinned: dict[int, dict | None] | None) -> dict:
    """`describe`, with the analysis pinned by a share link in place of the live one."""
    described = describe(campaign, session=session)
    if pinned is not None and campaign.id in pinned:
        described["analysis"] = pinned[campaign.id]
    return described


def select(selector: str, *, session: Session, pinned: dict[int, dict | None] | None = None) -> Selection:
    """`12` is campaign 12; `12@1 queue` is its variant "1 queue" alone; `pinned` replaces analyses (a share link's)."""
    ident, _, variant = selector.partition("@")
    if not (ident.isascii() and ident.isdigit() and len(ident) <= 19 and int(ident) <= MAX_ID) or len(variant) > 80:
        raise invalid_query("c", f"{selector!r} is not a campaign id (12) or id@variant (12@1 queue)")
    campaign = get_campaign(int(ident), session=session)
    if not variant:
        return Selection(selector, campaign, None, campaign.points, _described(campaign, session, pinned), campaign.environment)
    labels = [v["label"] for v in campaign.plan.get("variants", [])]
    if variant not in labels:
        raise invalid_query("c", f"campaign {ident} has no variant {variant!r} (it has {labels})")
    points = [p for p in campaign.points if p.variant == variant]
    described = _described(campaign, session, pinned)
    whole = described.get("analysis") or {}
    own = whole.get("variants", {}).get(variant)
    searches = [s for s in whole.get("search") or [] if s.get("variant") == variant]
    described.update(summary=summary(points), analysis={**own, "search": searches} if own is not None else None)
    described["name"] = f"{campaign.name} · {variant}"
    environment = {k: v for k, v in campaign.environment.items() if k != "variants"}
    environment.update(campaign.environment.get("variants", {}).get(variant, {}))
    return Selection(selector, campaign, variant, points, described, environment)


def _plan_of(selection: Selection) -> dict:
    plan = {k: v for k, v in selection.campaign.plan.items() if k not in {"name", "variants"}}
    if selection.variant is not None:
        chosen = next(v for v in selection.campaign.plan["variants"] if v["label"] == selection.variant)
        plan["variant"] = chosen
    return plan


def _completed(selection: Selection) -> list[Point]:
    return [p for p in selection.points if p.status == "completed"]


def _link_inputs(selection: Selection) -> list[dict]:
    """The completed points in link_cost_verdict.repetition_figures' shape."""
    return [{"repeat": p.repeat, "achieved_rate": (p.metrics or {}).get("achieved_rate"), "duration_s": p.duration_s,
             "impairment": (p.extra or {}).get("impairment")} for p in _completed(selection)]  # fmt: skip


def build(selectors: list[str], *, session: Session, pinned: dict[int, dict | None] | None = None) -> dict:
    """Compare campaigns (or variants of one); deltas and verdicts are against the first one; `pinned` as in `select`."""
    selections = [select(s, session=session, pinned=pinned) for s in selectors]
    if len({s.key for s in selections}) < len(selections):
        raise invalid_query("c", "the same campaign is selected twice")
    keys = [s.key for s in selections]
    described = [s.described for s in selections]
    values = {key: headline_values(d) for key, d in zip(keys, described)}
    tools = {s.campaign.tool for s in selections}
    if len(tools) > 1:
        raise invalid_query("c", f"campaigns of different tools ({', '.join(sorted(tools))}) measure different things; compare like with like")
    directions = _directions(selections[0].campaign.tool)
    margin = margin_of(selections[0].campaign)
    dicts = {s.key: server_judged([point_dict(p) for p in s.points])[0] for s in selections}  # a load never sent judges no server
    capacities = capacity_rows(described)
    found = {row["metric"]: [row["pick"](d.get("analysis") or {}) or {} for d in described] for row in capacities}
    tool = adapter(selections[0].campaign.tool)
    work, work_size = tool.work_unit
    samples = {s.key: {**event_figures(f for p in _completed(s) for f in (p.extra or {}).get("failover") or []),
                      **repetition_figures(_link_inputs(s), work_size)} for s in selections}  # fmt: skip
    # failover rows are shown when measured (a side without a figure: "not enough data"); link rows only when the
    # reference and another side have it on enough repetitions
    sampled = [(name, label.format(work=work), unit.format(work=work), of) for rows, of, least in
               ((FAILOVER_ROWS, "failure events", 1), (LINK_ROWS, "repetitions", MIN_REPEATS)) for name, label, unit in rows
               if len(samples[keys[0]][name]) >= least and any(len(samples[k][name]) >= least for k in keys[1:])]  # fmt: skip
    means = {key: {m: mean_over_points(dicts[keys[0]], dicts[key], m, margin_pct=margin) for m in MEAN_OF_POINTS} for key in keys[1:]}
    # every test of a comparison is corrected together: the capacities, means over points, failover and link figures join the
    # metrics' points (verdicts.compare)
    verdicts_by = {key: compare_points(dicts[keys[0]], dicts[key], directions, margin_pct=margin,
                                       also={**{m: (capacity_test(f[0].get("per_repeat"), f[i].get("per_repeat")) or {}).get("p")
                                                for m, f in found.items()},
                                             **{f"mean:{m}": (t or {}).get("p") for m, t in means[key].items()},
                                             **{m: (figure_test(samples[keys[0]][m], samples[key][m]) or {}).get("p") for m, *_ in sampled}})
                   for i, key in enumerate(keys) if i}  # fmt: skip
    overall = {key: result["overall"] for key, result in verdicts_by.items()}
    unit = tool.rate_unit
    headline = [_capacity_row(row, keys, found[row["metric"]], margin, unit, {k: verdicts_by[k]["also"][row["metric"]] for k in keys[1:]})
                for row in capacities]  # fmt: skip
    rows = [*HEADLINES, *_percentile_headlines(selections[0].campaign.tool, dicts)]
    for key in keys:
        values[key].update({row[0]: low_load(dicts[key], row[0]) for row in rows[len(HEADLINES):]})
    low = {row[0] for row in rows[len(HEADLINES):]} | LOW_LOAD
    for metric, label, unit_name, better, point_metric in rows:
        if metric in SHOWN_WHEN_MEASURED and all(values[k][metric] is None for k in keys):
            continue
        label, unit_name = label.format(work=work), unit_name.format(work=work)
        if metric in low:  # a figure at low load takes its verdict from the low-load points alone
            tests = {keys[0]: None, **{k: metric_overall(verdicts_by[k]["points"], point_metric, directions.get(point_metric),
                                                         at=_low_load_keys(dicts[keys[0]], dicts[k], point_metric), margin_pct=margin)
                                       for k in keys[1:]}}  # fmt: skip
        elif metric in MEAN_OF_POINTS:
            tests = {keys[0]: None, **{k: mean_verdict(means[k][metric], verdicts_by[k]["also"][f"mean:{metric}"], directions.get(metric))
                                       if means[k][metric] else overall[k].get(point_metric) for k in keys[1:]}}  # fmt: skip
        else:
            tests = {keys[0]: None, **{k: overall[k].get(point_metric) if point_metric else None for k in keys[1:]}}
        kinds = {k: "at_least" if ((d.get("analysis") or {}).get("ceiling") or {}).get("bound") else None
                 for k, d in zip(keys, described)} if metric == "max_achieved_rate" else None  # fmt: skip
        headline.append(_row(metric, label, unit_name, better, {k: values[k][metric] for k in keys}, tests, margin,
                             kinds=kinds if kinds and any(kinds.values()) else None))
    # per failure event, the repetitions' events pooled (analysis/failover_verdict.py); per repetition, what the link's
    # impairment cost (analysis/link_cost_verdict.py)
    for metric, label, unit_name, of in sampled:
        tests = {keys[0]: None, **{k: figure_verdict(samples[keys[0]][metric], samples[k][metric], margin_pct=margin,
                                                     p_adjusted=verdicts_by[k]["also"][metric], of=of) for k in keys[1:]}}  # fmt: skip
        values = {k: sum(samples[k][metric]) / len(samples[k][metric]) if samples[k][metric] else None for k in keys}
        headline.append(_row(metric, label, unit_name, "lower", values, tests, margin))
    return {
        "selectors": keys,
        "margin_pct": margin,
        "method": method_text(verdicts_by[keys[1]]["confidence"], margin, [verdicts_by[k]["families"] for k in keys[1:]]),
        "campaigns": described,
        "points": {s.key: s.points for s in selections},
        "headline": headline,
        "failover_events": {s.key: event_table({"phase": p.phase, "concurrency": p.concurrency, "offered_rate": p.offered_rate,
                                                "failover": (p.extra or {}).get("failover")} for p in _completed(s)) for s in selections},
        "bottlenecks": {key: ((d.get("analysis") or {}).get("evidence") or {}).get("bottleneck") for key, d in zip(keys, described)},
        "point_verdicts": verdicts_by,
        "grafana_url": dashboard_link(get_settings().grafana_url,
                                      [(s.campaign.id, s.campaign.started_at, s.campaign.ended_at) for s in selections]),
        "differences": {
            "plan": differences({s.key: _plan_of(s) for s in selections}),
            "target": differences({s.key: s.campaign.target for s in selections}),
            "environment": differences({s.key: s.environment for s in selections}),
        },
    }
