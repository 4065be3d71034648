"""docs/grafana-kneeboard-prometheus.json cannot drift: every kneeboard_* series its panels read is one remote_write.py
writes (named by its own code from a tool's declared metrics and a real parse's intervals), every label it selects on is
one remote write sets, every node_* series is in a real node_exporter scrape, and its uid is the one reports link to."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from kneeboard.campaigns.models import Point, SampleRow
from kneeboard.grafana import DASHBOARD_UID
from kneeboard import remote_write
from kneeboard.tools import dnsperf
from kneeboard.tools.registry import adapter

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = json.loads((ROOT / "docs/grafana-kneeboard-prometheus.json").read_text())
NAME = re.compile(r"\b((?:kneeboard|node)_[a-zA-Z0-9_]+)\b(\{[^}]*\})?")


def expressions() -> list[str]:
    """Every PromQL of the dashboard: its panels' queries and its variables'."""
    found = [t["expr"] for p in DASHBOARD["panels"] for t in p["targets"]]
    return found + [v["query"]["query"] for v in DASHBOARD["templating"]["list"] if isinstance(v.get("query"), dict)]


def written(fixtures_dir: Path) -> tuple[set[str], set[str]]:
    """The series names and labels remote write sends for a dnsperf point: the tool's declared metrics, and the intervals
    of a real dnsperf run's output."""
    parsed = dnsperf.parse((fixtures_dir / "dnsperf-2.10-S1-interval.txt").read_text(), "", 0)
    start = datetime.fromtimestamp(parsed.samples[0].t, tz=UTC)
    point = Point(id=1, phase="saturation", variant="udp", started_at=start, ended_at=datetime.fromtimestamp(parsed.samples[-1].t, tz=UTC),
                  metrics={m["name"]: 1.0 for m in adapter("dnsperf").describe()["metrics"]})
    rows = [SampleRow(point_id=1, series=s.series, t=s.t, values=s.values) for s in parsed.samples]
    series = remote_write.point_series({"campaign": "1", "plan": "p", "target": "t"}, point, rows)
    return {labels["__name__"] for labels, _ in series}, {name for labels, _ in series for name in labels} - {"__name__"}


def test_the_uid_is_the_one_reports_link_to():
    assert DASHBOARD["uid"] == DASHBOARD_UID


def test_every_kneeboard_series_and_label_it_reads_is_written(fixtures_dir):
    names, labels = written(fixtures_dir)
    assert labels == {"campaign", "plan", "target", "phase", "point", "variant"}
    used = [(m.group(1), m.group(2) or "") for e in expressions() for m in NAME.finditer(e) if m.group(1).startswith("kneeboard_")]
    assert {"kneeboard_interval_achieved_rate", "kneeboard_latency_p99_ms"} <= {n for n, _ in used}
    assert not {n for n, _ in used} - names, f"series the dashboard reads that remote write never writes: {sorted({n for n, _ in used} - names)}"
    selected = {label for _, matchers in used for label in re.findall(r"([a-zA-Z_]+)\s*=~?", matchers)}
    assert "campaign" in selected and not selected - labels
    grouped = {label for e in expressions() if "kneeboard_" in e for by in re.findall(r"by \(([^)]*)\)", e) for label in by.split(",")}
    assert not {g.strip() for g in grouped} - labels - {"instance"}


def test_every_node_series_it_reads_is_node_exporters(fixtures_dir):
    scrape = (fixtures_dir / "node-exporter-1.5-scrape-1.txt").read_text()
    exported = set(re.findall(r"^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]", scrape, re.M))
    used = {m.group(1) for e in expressions() for m in NAME.finditer(e) if m.group(1).startswith("node_")}
    assert {"node_cpu_seconds_total", "node_uname_info"} <= used
    assert not used - exported


@pytest.mark.parametrize("panel", DASHBOARD["panels"], ids=lambda p: p["title"])
def test_each_panel_reads_a_variable_the_report_link_sets_or_the_targets_node(panel):
    exprs = " ".join(t["expr"] for t in panel["targets"])
    assert "$campaign" in exprs or "$instance" in exprs
