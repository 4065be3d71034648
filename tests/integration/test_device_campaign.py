"""Issue 4 end to end: a device campaign (connection ramp + report-rate sweep) against `devsim serve` on loopback."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from kneeboard.analysis import hdr
from kneeboard.stack import free_port, stop, wait_port
from kneeboard.tools.devsim import binary
from tests.integration.test_campaign_run import wait_status

ROOT = Path(__file__).resolve().parents[2]
SINGLELIGHT = json.loads((ROOT / "simulator" / "internal" / "profile" / "singlelight.json").read_text())


@pytest.fixture(scope="module")
def platform():
    """`devsim serve --ack-reports` on a free loopback port, ended by PID after the module."""
    assert Path(binary()).exists(), "build devsim first (make test does: go build -o simulator/bin/devsim ./cmd/devsim)"
    port = free_port()
    proc = subprocess.Popen([binary(), "serve", "--listen", f"127.0.0.1:{port}", "--ack-reports", "--duration", "300s"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    wait_port(port, proc, "devsim serve")
    yield port
    stop(proc)


def device_target(stack, port: int) -> int:
    """The device target for a port, registered once."""
    name = f"devsim-{port}"
    existing = [t["id"] for t in stack.api.get("/api/v1/targets").json() if t["name"] == name]
    body = {"name": name, "kind": "device", "host": "127.0.0.1", "port": port}
    return existing[0] if existing else stack.api.post("/api/v1/targets", json=body).json()["id"]


def test_ramp_and_rate_sweep_land_like_any_campaign(stack, platform):
    plan = {
        "name": "devices", "tool": "devsim", "target_id": device_target(stack, platform),
        "params": {"profile": "singlelight", "ramp_per_s": 5000},
        "phases": [
            {"kind": "scalability", "concurrency": [50, 200], "unit_rate": 1, "duration_s": 3},
            {"kind": "saturation", "concurrency": 100, "rate": [2, 10], "duration_s": 3},
        ],
        "pause_s": 0,
    }  # fmt: skip
    plan_id = stack.api.post("/api/v1/plans", json=plan).json()["id"]
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
    campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "crashed"}, timeout_s=120)
    points = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    assert campaign["status"] == "completed", [p["error"] for p in points]
    assert [(p["concurrency"], p["offered_rate"]) for p in points] == [(50, 50), (200, 200), (100, 200), (100, 1000)]
    for point in points:
        m, extra = point["metrics"], point["extra"]
        assert point["status"] == "completed" and extra["logins"] == point["concurrency"] == extra["devices"]
        assert m["completed"] >= 0.99 * m["sent"] > 0
        assert abs(m["achieved_rate"] - point["offered_rate"]) / point["offered_rate"] < 0.15, point
        assert 0 < m["latency_p50_ms"] <= m["latency_p90_ms"] <= m["latency_p99_ms"] <= m["latency_p999_ms"]
        histogram = hdr.decode(extra["hdr"])  # the whole run's ack latencies, stored with the point
        assert histogram.get_total_count() == m["completed"]
        assert {k: m[k] for k in hdr.PERCENTILES} == hdr.percentiles_ms(histogram)
        assert extra["hdr_intervals_stored"] >= 1 and "hdr_intervals" not in extra, "per-interval histograms stay server-side"
        steady = stack.api.get(f"/api/v1/points/{point['id']}/histogram", params={"window": "steady"}).json()
        assert 0 < steady["count"] <= m["completed"], "the interval histograms are stored and merge"
    evidence = stack.api.get(f"/api/v1/points/{points[1]['id']}").json()
    assert evidence["argv"][1:3] == ["run", "--target"] and "--rate" in evidence["argv"] and '"summary":true' in evidence["stdout"]
    samples = stack.api.get(f"/api/v1/points/{points[1]['id']}/samples").json()["samples"]
    assert samples and samples[0]["values"]["connected"] == 200
    assert all(s["values"]["latency_p999_ms"] >= s["values"]["latency_p50_ms"] > 0 for s in samples)
    assert campaign["analysis"]["ceiling"]["achieved_rate"] > 0


def test_unreachable_platform_is_a_point_error(stack):
    port = free_port()
    plan = {"name": "nobody home", "tool": "devsim", "target_id": device_target(stack, port),
            "phases": [{"kind": "stability", "concurrency": 5, "rate": 1, "duration_s": 1}], "pause_s": 0}  # fmt: skip
    plan_id = stack.api.post("/api/v1/plans", json=plan).json()["id"]
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
    campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "crashed"}, timeout_s=60)
    point = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()[0]
    assert campaign["status"] == "failed" and point["status"] == "failed"
    assert "no device could log in" in point["error"] and point["extra"]["failed"] == {"refused": 5}


def test_profile_upload_is_checked_by_devsim(stack, platform):
    own = {**SINGLELIGHT, "name": "mylight"}
    created = stack.api.post("/api/v1/profiles", json={"name": "mylight", "document": own})
    assert created.status_code == 201, created.text
    assert "valid" in created.json()["summary"]
    broken = {**SINGLELIGHT, "framing": {**SINGLELIGHT["framing"], "checksum": {"algorithm": "md5"}}}
    refused = stack.api.post("/api/v1/profiles", json={"name": "broken", "document": broken})
    assert refused.status_code == 422 and refused.json()["detail"][0]["loc"] == ["body", "document"]
    assert "checksum" in refused.json()["detail"][0]["msg"]
    names = [p["name"] for p in stack.api.get("/api/v1/profiles").json()]
    assert "mylight" in names and "broken" not in names
    plan = {"name": "own profile", "tool": "devsim", "target_id": device_target(stack, platform), "params": {"profile": "nosuch"},
            "phases": [{"kind": "stability", "concurrency": 10, "rate": 1, "duration_s": 2}], "pause_s": 0}  # fmt: skip
    missing = stack.api.post("/api/v1/plans", json=plan)
    assert missing.status_code == 422 and missing.json()["detail"][0]["loc"] == ["body", "devsim", "params", "profile"]


def test_uploaded_profile_runs_from_a_file_kneeboard_writes(stack, platform):
    own = {**SINGLELIGHT, "name": "ownlight"}
    profile = stack.api.post("/api/v1/profiles", json={"name": "ownlight", "document": own}).json()
    plan = {"name": "own profile run", "tool": "devsim", "target_id": device_target(stack, platform), "params": {"profile": "ownlight"},
            "phases": [{"kind": "stability", "concurrency": 10, "rate": 2, "duration_s": 2}], "pause_s": 0}  # fmt: skip
    plan_id = stack.api.post("/api/v1/plans", json=plan).json()["id"]
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
    assert stack.api.delete(f"/api/v1/profiles/{profile['id']}").status_code == 204  # the campaign keeps its copy
    campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "crashed"}, timeout_s=60)
    point = stack.api.get(f"/api/v1/points/{stack.api.get(f'/api/v1/campaigns/{campaign_id}/points').json()[0]['id']}").json()
    assert campaign["status"] == "completed", point["error"]
    argv = point["argv"]
    assert argv[argv.index("--profile-file") + 1].endswith("/profile.json") and "--profile" not in argv
    assert campaign["plan"]["profile_document"]["name"] == "ownlight" and point["extra"]["logins"] == 10


def test_a_device_campaign_loads_an_ipv6_target(stack):
    """`::1` is in the default policy: devsim is handed `[::1]:port` and the devices log in and report."""
    port = free_port()
    proc = subprocess.Popen([binary(), "serve", "--listen", f"[::1]:{port}", "--ack-reports", "--duration", "120s"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    try:
        wait_port(port, proc, "devsim serve", host="::1")
        target = stack.api.post("/api/v1/targets", json={"name": f"devsim-v6-{port}", "kind": "device", "host": "::1", "port": port})
        assert target.status_code == 201, target.text
        plan = {"name": "devices v6", "tool": "devsim", "target_id": target.json()["id"], "pause_s": 0,
                "phases": [{"kind": "saturation", "concurrency": 50, "rate": [50], "duration_s": 2}]}  # fmt: skip
        made = stack.api.post("/api/v1/plans", json=plan)
        assert made.status_code == 201, made.text
        campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": made.json()["id"]}).json()["id"]
        campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "crashed"}, timeout_s=60)
        [point] = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
        assert campaign["status"] == "completed", point["error"]
        assert "[::1]:" in " ".join(stack.api.get(f"/api/v1/points/{point['id']}").json()["argv"])
        assert point["extra"]["logins"] == 50 and point["metrics"]["completed"] > 0
    finally:
        stop(proc)
