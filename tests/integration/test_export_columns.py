"""The CSV export through the API: each column once, in the order docs/api.md documents."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "unit" / "data"


def documented_columns(tool_metrics: list[str]) -> list[str]:
    """docs/api.md's column line, with `<metrics>` standing for the tool's metrics not already named."""
    text = (ROOT / "docs" / "api.md").read_text()
    section = text.split("## CSV export", 1)[1].split("\n## ", 1)[0]
    line = re.search(r"^`(campaign_id, .*)`$", section, re.MULTILINE)
    assert line, "docs/api.md lists the CSV columns"
    named = [c.strip() for c in line.group(1).split(",")]
    at = named.index("<metrics>")
    rest = [m for m in tool_metrics if m not in named]
    return [*named[:at], *rest, *named[at + 1 :]]


def test_csv_header_is_unique_and_documented(stack, dns_target):
    seed = (DATA / "seed000.csv").read_bytes()
    imported = stack.api.post("/api/v1/campaigns/import", files=[("file", ("bench.csv", seed))], data={"target_id": str(dns_target["id"])})
    assert imported.status_code == 201, imported.text
    campaign = imported.json()

    exported = stack.api.get(f"/api/v1/campaigns/{campaign['id']}/export.csv")
    assert exported.status_code == 200
    rows = list(csv.reader(io.StringIO(exported.text)))
    header = rows[0]
    duplicates = sorted({c for c in header if header.count(c) > 1})
    assert not duplicates, f"columns repeated in the CSV header: {duplicates}"

    tool = next(t for t in stack.api.get("/api/v1/tools").json() if t["name"] == campaign["tool"])
    assert header == documented_columns([m["name"] for m in tool["metrics"]])

    points = stack.api.get(f"/api/v1/campaigns/{campaign['id']}/points").json()
    assert len(rows) == 1 + len(points) and all(len(r) == len(header) for r in rows[1:])
    first = dict(zip(header, rows[1]))
    assert float(first["offered_rate"]) == points[0]["offered_rate"]
    assert float(first["achieved_rate"]) == points[0]["metrics"]["achieved_rate"]
