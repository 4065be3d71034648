"""A campaign's points as CSV and JSON."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from kneeboard.campaigns.analysis import point_dict
from kneeboard.campaigns.models import Campaign, Point
from kneeboard.tools.registry import adapter

POINT_COLUMNS = ("seq", "variant", "phase", "concurrency", "offered_rate", "duration_s", "repeat", "status", "error")
CLOSING_COLUMNS = ("extra", "warnings")
SERVER_COLUMNS = ("server_rate", "server_cost")  # the server evidence's figures (kneeboard.evidence.assess.figures)
EVIDENCE_COLUMNS = ("argv", "tool_version", "exit_code", "parser_version", "agent", "started_at", "ended_at")


def point_record(point: Point) -> dict[str, Any]:
    """A point with its parameters, metrics, extras and evidence (raw output included)."""
    record = {c: getattr(point, c) for c in POINT_COLUMNS + EVIDENCE_COLUMNS}
    record.update(metrics=point.metrics, extra=point.extra, warnings=point.warnings, stdout=point.stdout, stderr=point.stderr)
    return record


def to_json(campaign: Campaign) -> str:
    """The whole campaign: its frozen plan, target, environment, analysis and every point."""
    head = {c: getattr(campaign, c) for c in ("id", "name", "tool", "status", "partial", "tags", "agent", "source",
                                               "plan", "target", "environment", "analysis", "created_at", "started_at", "ended_at")}  # fmt: skip
    return json.dumps({"format": "kneeboard-campaign/1", "campaign": head, "points": [point_record(p) for p in campaign.points]}, default=str, indent=1)


def csv_columns(tool: str) -> tuple[list[str], list[str]]:
    """The CSV header (docs/api.md lists it) and the metric columns in it: each name once.

    A metric that is also a point column (offered_rate: the planned rate, which the derived metric repeats) or a
    closing column keeps only its first place.
    """
    fixed = ("campaign_id", *POINT_COLUMNS)
    metrics = [m for m in dict.fromkeys(m.name for m in adapter(tool).all_metrics()) if m not in fixed and m not in CLOSING_COLUMNS]
    return [*fixed, *metrics, *SERVER_COLUMNS, *CLOSING_COLUMNS], metrics


def to_csv(campaign: Campaign) -> str:
    """One row per point: parameters, each of the tool's metrics once, the server's count and cost, extras, warnings."""
    header, names = csv_columns(campaign.tool)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    for point in campaign.points:
        figures = point_dict(point)
        writer.writerow(
            [campaign.id, *(getattr(point, c) for c in POINT_COLUMNS), *(point.metrics.get(m) for m in names),
             *(figures.get(c) for c in SERVER_COLUMNS), json.dumps(point.extra, default=str, sort_keys=True), "; ".join(point.warnings)]
        )  # fmt: skip
    return buffer.getvalue()
