"""`kneeboard trend PLAN`: a plan's series of completed campaigns and its change points; --fail-on-change gates CI."""

from __future__ import annotations

import argparse

from kneeboard.client import exits, output
from kneeboard.client.http import Client

METRICS = ("capacity_at_slo", "max_achieved_rate", "latency_p50_ms", "latency_p99_ms", "loss_pct")


def add_trend_command(sub: argparse._SubParsersAction, connection) -> None:
    """Add `trend` to the `kneeboard` parser."""
    trend = sub.add_parser("trend", help="a plan's campaigns over time and where they changed (exit 96 with --fail-on-change)")
    trend.add_argument("plan", type=int, help="the plan id")
    trend.add_argument("--metric", choices=METRICS, default="capacity_at_slo", help="whose change points to show (default capacity_at_slo)")
    trend.add_argument("--since", metavar="DATE", help="only campaigns that ended at or after this ISO date or time")
    trend.add_argument("--fail-on-change", type=int, metavar="SINCE_CAMPAIGN",
                       help="exit 96 when the metric changed after this campaign (a change point whose later side is newer)")
    connection(trend)
    trend.set_defaults(handler=trend_command)


def _capacity(capacity: dict) -> str:
    """A capacity as a figure with its interval, or as the bound it is."""
    kind, value = capacity.get("kind"), capacity.get("value")
    if kind == "at_least":
        return f"≥ {capacity.get('bound') or value:.0f}"
    if kind == "below" or value is None:
        return "below the lowest load" if kind == "below" else "—"
    low, high = capacity.get("low"), capacity.get("high")
    return f"{value:.0f} [{low:.0f}, {high:.0f}]" if low is not None and high is not None else f"{value:.0f}"


def trend_command(args: argparse.Namespace, client: Client) -> int:
    """Print the series and the change points; with --fail-on-change, exit 96 if one is newer than the given campaign."""
    trend = client.get("/trends", plan_id=args.plan, metric=args.metric, since=args.since)
    rows = [[p["campaign_id"], (p["ended_at"] or "")[:16], _capacity(p["capacity"]), p["max_achieved_rate"], p["latency_p50_ms"],
             p["latency_p99_ms"], p["loss_pct"]] for p in trend["points"]]  # fmt: skip
    output.table(rows, ["campaign", "ended", "capacity at SLO", "max rate", "p50 ms", "p99 ms", "loss %"])
    changes = trend["change_points"]
    for c in changes:
        pct = f"{c['change_pct']:+.1f} %" if c["change_pct"] is not None else f"{c['diff']:+.4g}"
        print(f"change in {c['metric']} between {c['before_campaign_id']} and {c['after_campaign_id']}: {c['mean_before']:.4g} → "
              f"{c['mean_after']:.4g} ({pct}, 95 % CI of the difference [{c['ci_low']:.4g}, {c['ci_high']:.4g}]) {c['direction']}; "
              f"compare: {client.url}{c['compare_url']}")  # fmt: skip
    if not changes:
        print(f"no change point in {args.metric} over {len(trend['points'])} campaign(s)")
    if args.fail_on_change is not None and any(c["after_campaign_id"] > args.fail_on_change for c in changes):
        print(f"{args.metric} changed after campaign {args.fail_on_change}")
        return exits.CHANGED
    return exits.OK
