"""Percentiles through the real stack: a dnsperf campaign (kblat capture on) stores each point's HDR histogram, which
GET /points/{id}/histogram decodes; capacity at SLO read on p99; percentile rows in a comparison."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest

DATA = Path(__file__).resolve().parents[1] / "unit" / "data"


def _import(stack, name: str, content: bytes) -> dict:
    response = stack.api.post("/api/v1/campaigns/import", files=[("file", (name, content))])
    assert response.status_code == 201, response.text
    return response.json()


def _reimport(stack, campaign_id: int, *, tool: str | None = None, latency_factor: float = 1.0) -> dict:
    """A campaign's JSON export imported again, as another tool or with its latencies scaled."""
    document = json.loads(stack.api.get(f"/api/v1/campaigns/{campaign_id}/export.json").content)
    document["campaign"]["tool"] = tool or document["campaign"]["tool"]
    for point in document["points"]:
        point["metrics"] = {k: (v * latency_factor if k.startswith("latency") and v is not None else v) for k, v in point["metrics"].items()}
    return _import(stack, "campaign.json", json.dumps(document).encode())


@pytest.fixture(scope="module")
def sweep(stack) -> dict:
    """Two dnsperf points of 3 s against the suite's unbound, per-answer latency captured (the default)."""
    target = stack.api.post("/api/v1/targets", json={"name": "unbound-percentiles", "kind": "dns", "host": stack.dns_host, "port": stack.dns_port}).json()
    plan = {"name": "percentiles", "tool": "dnsperf", "target_id": target["id"], "pause_s": 0, "params": {"names": ["www.example.lab"]},
            "phases": [{"kind": "saturation", "concurrency": 2, "rate": [300, 600], "duration_s": 3}]}  # fmt: skip
    plan_id = stack.api.post("/api/v1/plans", json=plan).json()["id"]
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
    deadline = time.monotonic() + 90
    while (campaign := stack.api.get(f"/api/v1/campaigns/{campaign_id}").json())["status"] not in {"completed", "failed"}:
        assert time.monotonic() < deadline, campaign["status"]
        time.sleep(0.3)
    assert campaign["status"] == "completed", campaign.get("error")
    return campaign


def test_a_points_histogram_is_its_stored_hdr_decoded(stack, sweep):
    points = stack.api.get(f"/api/v1/campaigns/{sweep['id']}/points").json()
    point = points[-1]
    got = stack.api.get(f"/api/v1/points/{point['id']}/histogram")
    assert got.status_code == 200, got.text
    body = got.json()
    assert body["window"] == "all" and body["count"] == point["metrics"]["completed"] > 1000
    assert sum(b["count"] for b in body["buckets"]) == body["count"] and 0 < len(body["buckets"]) <= 200
    assert body["buckets"][-1]["percentile"] == 100.0
    table = {row["percentile"]: row["value_ms"] for row in body["percentiles"]}
    assert [table[q] for q in (50, 90, 99, 99.9)] == [point["metrics"][m] for m in ("latency_p50_ms", "latency_p90_ms", "latency_p99_ms", "latency_p999_ms")]
    assert body["min_ms"] <= table[50] <= table[99.99] <= body["max_ms"]
    steady = stack.api.get(f"/api/v1/points/{point['id']}/histogram", params={"window": "steady", "buckets": 20}).json()
    assert steady["window"] == "steady" and steady["intervals"] >= 1 and len(steady["buckets"]) <= 20
    assert 0 < steady["count"] < body["count"], "the warm-up's answers are left out"


def test_errors_say_what_is_missing(stack, sweep):
    assert stack.api.get("/api/v1/points/999999999/histogram").status_code == 404
    seed = _import(stack, "seed.csv", (DATA / "seed000.csv").read_bytes())
    seed_point = stack.api.get(f"/api/v1/campaigns/{seed['id']}/points").json()[0]
    none = stack.api.get(f"/api/v1/points/{seed_point['id']}/histogram")
    assert none.status_code == 409 and "no stored latency histogram" in none.json()["detail"] and "imported" in none.json()["detail"]
    point_id = stack.api.get(f"/api/v1/campaigns/{sweep['id']}/points").json()[0]["id"]
    assert stack.api.get(f"/api/v1/points/{point_id}/histogram", params={"buckets": 5000}).status_code == 422
    assert stack.api.get(f"/api/v1/points/{point_id}/histogram", params={"window": "later"}).status_code == 422
    with httpx.Client(base_url=stack.api_url, timeout=10) as anonymous:
        assert anonymous.get(f"/api/v1/points/{point_id}/histogram").status_code == 401


def test_capacity_at_slo_on_a_chosen_percentile(stack, sweep):
    default = sweep["analysis"]["capacity"]
    assert default["metric"] == "latency_p99_ms"  # unchanged: p99 when measured
    on_p50 = stack.api.post(f"/api/v1/campaigns/{sweep['id']}/analysis", json={"slo_ms": 50, "slo_metric": "latency_p50_ms"})
    assert on_p50.status_code == 200, on_p50.text
    assert on_p50.json()["analysis"]["capacity"]["metric"] == "latency_p50_ms" and on_p50.json()["analysis"]["capacity"]["limit_ms"] == 50
    assert stack.api.get(f"/api/v1/campaigns/{sweep['id']}").json()["analysis"]["thresholds"]["slo_metric"] == "latency_p50_ms"
    unknown = stack.api.post(f"/api/v1/campaigns/{sweep['id']}/analysis", json={"slo_metric": "latency_p42_ms"})
    assert unknown.status_code == 422 and unknown.json()["detail"][0]["loc"] == ["body", "slo_metric"]
    no_latency = _reimport(stack, sweep["id"], tool="iperf3")
    lacking = stack.api.post(f"/api/v1/campaigns/{no_latency['id']}/analysis", json={"slo_metric": "latency_p99_ms"})
    assert lacking.status_code == 422 and lacking.json()["detail"][0]["loc"] == ["body", "slo_metric"]
    assert "iperf3 does not measure latency_p99_ms" in lacking.json()["detail"][0]["msg"]


def test_a_comparison_has_a_row_per_measured_percentile(stack, sweep):
    slower = _reimport(stack, sweep["id"], latency_factor=2.0)
    body = stack.api.get("/api/v1/compare", params=[("c", sweep["id"]), ("c", slower["id"])]).json()
    rows = {h["metric"]: h for h in body["headline"]}
    assert [m for m in rows if m.startswith("latency_p")] == ["latency_p50_ms", "latency_p90_ms", "latency_p99_ms", "latency_p999_ms"]
    p99 = rows["latency_p99_ms"]
    lightest = min(stack.api.get(f"/api/v1/campaigns/{sweep['id']}/points").json(), key=lambda p: p["offered_rate"])
    assert p99["label"] == "Latency p99 at low load" and p99["unit"] == "ms" and p99["better"] == "lower"
    assert p99["values"][str(sweep["id"])] == lightest["metrics"]["latency_p99_ms"]
    assert p99["values"][str(slower["id"])] == pytest.approx(2 * lightest["metrics"]["latency_p99_ms"])
    assert p99["deltas"][str(slower["id"])]["pct"] == pytest.approx(100.0)
    assert p99["verdicts"][str(slower["id"])] == "not enough data"  # one run per load: no verdict without repetitions


def test_a_share_link_reads_the_histogram_of_its_own_points_only(stack, sweep):
    point = stack.api.get(f"/api/v1/campaigns/{sweep['id']}/points").json()[-1]
    created = stack.api.post(f"/api/v1/campaigns/{sweep['id']}/shares", json={"expires_in_s": 600})
    assert created.status_code == 201, created.text
    token = created.json()["url"].rsplit("/s/", 1)[1]
    with httpx.Client(base_url=stack.api_url) as anonymous:  # no login: the link is the credential
        shared = anonymous.get(f"/api/v1/shared/{token}/points/{point['id']}/histogram", params={"window": "steady"})
        assert shared.status_code == 200, shared.text
        signed_in = stack.api.get(f"/api/v1/points/{point['id']}/histogram", params={"window": "steady"}).json()
        assert shared.json() == signed_in
        assert anonymous.get(f"/api/v1/points/{point['id']}/histogram").status_code == 401, "the signed-in route still needs a login"
        foreign = _reimport(stack, sweep["id"])  # another campaign's point: not the link's
        foreign_point = stack.api.get(f"/api/v1/campaigns/{foreign['id']}/points").json()[0]["id"]
        assert anonymous.get(f"/api/v1/shared/{token}/points/{foreign_point}/histogram").status_code == 404
        assert anonymous.get(f"/api/v1/shared/{token}/points/999999999/histogram").status_code == 404
        assert anonymous.get(f"/api/v1/shared/{token}x/points/{point['id']}/histogram").status_code == 404
        stack.api.delete(f"/api/v1/shares/{created.json()['id']}")
        assert anonymous.get(f"/api/v1/shared/{token}/points/{point['id']}/histogram").status_code == 410
