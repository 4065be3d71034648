"""docs/grafana-kneeboard-prometheus.json against a real Prometheus (Debian's, its remote-write receiver on) scraping a
real node_exporter every second: a dnsperf point's series, written as remote_write.py writes them, and every panel's
PromQL answers with data, the join of Kneeboard's rate with node_exporter's CPU included."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx
import pytest

from kneeboard.campaigns.models import Point, SampleRow
from kneeboard import remote_write
from kneeboard.tools import dnsperf
from tests.support.prometheus import NodeExporter, Prometheus

pytestmark = pytest.mark.lab  # the host's own network: the dashboard's network panel reads the host's interfaces
DASHBOARD = json.loads((Path(__file__).resolve().parents[2] / "docs/grafana-kneeboard-prometheus.json").read_text())


def a_point_just_run(fixtures_dir: Path) -> tuple[Point, list[SampleRow]]:
    """A real dnsperf run's metrics and intervals, moved to the last seconds (Prometheus takes only recent samples)."""
    parsed = dnsperf.parse((fixtures_dir / "dnsperf-2.10-S1-interval.txt").read_text(), "", 0)
    shift = time.time() - 2 - parsed.samples[-1].t
    rows = [SampleRow(point_id=5, series=s.series, t=s.t + shift, values=s.values) for s in parsed.samples]
    metrics = {**parsed.metrics, "latency_p99_ms": 0.25}  # kblat's figure: this capture ran without it
    point = Point(id=5, phase="saturation", variant="udp", metrics=metrics, started_at=datetime.fromtimestamp(rows[0].t - 1, tz=UTC),
                  ended_at=datetime.fromtimestamp(rows[-1].t, tz=UTC))
    return point, rows


def test_every_panel_answers_with_kneeboards_and_node_exporters_series(tmp_path, fixtures_dir):
    point, rows = a_point_just_run(fixtures_dir)
    series = remote_write.point_series({"campaign": "77", "plan": "sweep", "target": "coredns"}, point, rows)
    with NodeExporter(tmp_path / "textfiles") as node, Prometheus(tmp_path / "prom", {"node": [node.address]}, remote_write=True) as prom:
        prom.wait_for(f'node_cpu_seconds_total{{instance="{node.address}"}}')
        sent = httpx.post(f"{prom.url}/api/v1/write", content=remote_write.encode(series), timeout=10,
                          headers={"Content-Encoding": "snappy", "Content-Type": "application/x-protobuf",
                                   "X-Prometheus-Remote-Write-Version": "0.1.0"})
        assert sent.status_code == 204, sent.text
        time.sleep(3)  # node_exporter's rate needs scrapes after the point's first interval
        start, end = rows[0].t, time.time()
        answers = {}
        for panel in DASHBOARD["panels"]:
            for target in panel["targets"]:
                expr = (target["expr"].replace("$campaign", "77").replace("$instance", node.address.replace(".", "\\\\."))
                        .replace("$__rate_interval", "4s"))
                answer = httpx.get(f"{prom.url}/api/v1/query_range", params={"query": expr, "start": start, "end": end, "step": 1},
                                   timeout=10).json()
                assert answer["status"] == "success", (panel["title"], expr, answer)
                answers[(panel["title"], target["refId"])] = answer["data"]["result"]
        variables = {v["name"]: v["query"]["query"] for v in DASHBOARD["templating"]["list"] if isinstance(v.get("query"), dict)}
        campaigns = httpx.get(f"{prom.url}/api/v1/label/campaign/values", params={"match[]": "kneeboard_interval_achieved_rate"}).json()
        nodes = httpx.get(f"{prom.url}/api/v1/label/instance/values", params={"match[]": "node_uname_info"}).json()
    empty = [key for key, result in answers.items() if not result or not result[0]["values"]]
    assert not empty, f"panels with no data: {empty}"
    assert variables["campaign"] == "label_values(kneeboard_interval_achieved_rate, campaign)" and campaigns["data"] == ["77"]
    assert nodes["data"] == [node.address]
    achieved = answers[("Load beside the server's CPU", "A")][0]
    assert achieved["metric"] == {"__name__": "kneeboard_interval_achieved_rate", "campaign": "77", "plan": "sweep", "target": "coredns",
                                  "phase": "saturation", "point": "5", "variant": "udp"}
    assert float(achieved["values"][0][1]) == pytest.approx(rows[0].values["achieved_rate"])
    joined = [float(v) for _, v in answers[("Server CPU seconds per 1,000 requests", "A")][0]["values"]]
    assert all(v > 0 for v in joined)
    print(f"\nfigures: {len(answers)} dashboard queries answered; CPU s per 1,000 requests (this host idle, ~10,000 q/s written): "
          f"median {sorted(joined)[len(joined) // 2]:.5f}")
