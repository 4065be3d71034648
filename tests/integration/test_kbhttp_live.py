"""kbhttp for real on 127.0.0.1: its stored histograms against the raw latencies of the same run, and a
whole campaign through the API (Celery worker → kbhttp → `kbhttp serve` → Postgres)."""

from __future__ import annotations

import json
import subprocess

import pytest

from kneeboard.analysis import hdr
from kneeboard.tools import kbhttp
from kneeboard.tools.base import PointSpec
from tests.integration.test_campaign_run import wait_status
from tests.support.kbhttp_server import serving
from tests.support.latency import assert_same_percentiles, counted

pytestmark = pytest.mark.tools


def test_stored_histograms_give_the_percentiles_of_the_raw_latencies(tmp_path):
    with serving("--delay", "3ms") as port:
        argv = kbhttp.build(PointSpec("127.0.0.1", port, 8, 400.0, 3), tmp_path)
        # the test-only flag: the adapter never passes it, so no plan can reach it
        done = subprocess.run([*argv, "--raw-latencies"], capture_output=True, text=True, timeout=20, check=True)
    raw = json.loads(done.stdout.splitlines()[-1])
    result = kbhttp.parse(done.stdout, done.stderr, done.returncode)
    assert raw["kbhttp"] == "raw" and len(raw["us"]) == 1200 and result.error is None
    assert min(raw["us"]) >= 3000, "every answer waited the server's 3 ms delay"
    assert_same_percentiles(hdr.decode(result.extra["hdr"]), counted(raw["us"]))
    assert_same_percentiles(hdr.merge(e for _, e in result.extra["hdr_intervals"]), counted(raw["us"]))
    print(f"\n1200 requests at 400 req/s: p50 {result.metrics['latency_p50_ms']} ms, p99.9 {result.metrics['latency_p999_ms']} ms "
          f"= the raw values of the same rank")


def test_a_kbhttp_campaign_through_the_api(stack):
    with serving("--delay", "1ms") as port:
        target = stack.api.post("/api/v1/targets", json={"name": f"kbhttp-serve-{port}", "kind": "http", "host": "127.0.0.1", "port": port})
        assert target.status_code == 201, target.text
        plan = {"name": "open loop", "tool": "kbhttp", "target_id": target.json()["id"], "params": {"path": "/x", "timeout_s": 2},
                "phases": [{"kind": "saturation", "concurrency": 4, "rate": [100, 200], "duration_s": 2}], "pause_s": 0}
        no_rate = stack.api.post("/api/v1/plans", json={**plan, "phases": [{"kind": "stability", "concurrency": 4, "duration_s": 2}]})
        assert no_rate.status_code == 422 and no_rate.json()["detail"][0]["loc"] == ["body", "kbhttp", "phases", 0, "rate"], no_rate.text
        created = stack.api.post("/api/v1/plans", json=plan)
        assert created.status_code == 201, created.text
        launched = stack.api.post("/api/v1/campaigns", json={"plan_id": created.json()["id"]})
        assert launched.status_code == 202, launched.text
        campaign = wait_status(stack.api, launched.json()["id"], {"completed", "failed", "crashed"}, timeout_s=90)
    assert campaign["status"] == "completed", campaign
    points = stack.api.get(f"/api/v1/campaigns/{campaign['id']}/points").json()
    assert [p["offered_rate"] for p in points] == [100, 200]
    for point in points:
        m = point["metrics"]
        assert point["status"] == "completed" and m["sent"] == 2 * point["offered_rate"] and m["errors"] == 0, point
        assert m["efficiency"] == pytest.approx(1, abs=0.05)
        assert 1 <= m["latency_p50_ms"] <= m["latency_p90_ms"] <= m["latency_p99_ms"] <= m["latency_p999_ms"]
        assert hdr.decode(point["extra"]["hdr"]).get_total_count() == m["completed"]
        assert point["extra"]["hdr_intervals_stored"] >= 1 and "hdr_intervals" not in point["extra"]
    evidence = stack.api.get(f"/api/v1/points/{points[1]['id']}").json()
    assert evidence["argv"][1:5] == ["run", "--url", f"http://127.0.0.1:{port}/x", "--rate"] and evidence["tool_version"] == "0.3.0", evidence
    samples = stack.api.get(f"/api/v1/points/{points[1]['id']}/samples").json()["samples"]
    assert samples and all(s["values"]["latency_p99_ms"] > 0 for s in samples if s["series"] == "point")
    print(f"\nkbhttp campaign: {[(p['offered_rate'], p['metrics']['achieved_rate'], p['metrics']['latency_p999_ms']) for p in points]}")
