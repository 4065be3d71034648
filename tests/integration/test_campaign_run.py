"""A real dnsperf sweep: API → Celery worker → dnsperf → unbound → Postgres, watched live, exported, cancelled."""

from __future__ import annotations

import csv
import io
import json
import os
import statistics
import threading
import time

import httpx
import pytest

from kneeboard.stack import wait_scale
from kneeboard.tools import dnsperf
from kneeboard.tools.dnsperf import latency
from tests.support import outages


def three_phase_plan(target_id: int, **overrides) -> dict:
    """Baseline, scalability and saturation at rates well below the server's limit: 9 points of 2 s."""
    plan = {
        "name": "spine three phases",
        "tool": "dnsperf",
        "target_id": target_id,
        "params": {"names": ["www.example.lab", "h0001.example.lab", "h0002.example.lab"], "qtype": "A", "timeout_s": 2},
        "phases": [
            {"kind": "baseline", "concurrency": 1, "rate": 200, "duration_s": 2},
            {"kind": "scalability", "concurrency": [1, 2, 4, 8], "unit_rate": 250, "duration_s": 2},
            {"kind": "saturation", "concurrency": 4, "rate": {"start": 1000, "stop": 3000, "step": 1000}, "duration_s": 2},
            {"kind": "stability", "concurrency": 4, "rate": 1500, "duration_s": 2},
        ],
        "pause_s": 0,
        "repeat": 1,
    }
    plan.update(overrides)
    return plan


def wait_status(api: httpx.Client, campaign_id: int, wanted: set[str], timeout_s: float) -> dict:
    """Poll until the campaign reaches one of `wanted` (for `timeout_s` × the lane's wait scale: SCHED_IDLE waits longer)."""
    timeout_s *= wait_scale()
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        campaign = api.get(f"/api/v1/campaigns/{campaign_id}").json()
        if campaign["status"] in wanted:
            return campaign
        time.sleep(0.2)
    raise AssertionError(f"campaign {campaign_id} still {campaign['status']} after {timeout_s} s")


def collect_events(url: str, sink: list, headers: dict | None = None) -> None:
    """Read the campaign's server-sent events until `end`."""
    with httpx.stream("GET", url, timeout=120, headers=headers) as response:
        kind = None
        for line in response.iter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                sink.append((kind, json.loads(line[6:]), time.monotonic()))
                if kind == "end":
                    return


@pytest.mark.foreground  # each point's rate within 5 %: under SCHED_IDLE beside a CPU-bound lab test it got no CPU (CI)
def test_three_phase_sweep_runs_to_completed(stack, dns_target):
    plan = stack.api.post("/api/v1/plans", json=three_phase_plan(dns_target["id"]))
    assert plan.status_code == 201, plan.text
    preview = stack.api.post("/api/v1/plans/preview", json=three_phase_plan(dns_target["id"])).json()
    assert preview["point_count"] == 9 and preview["estimated_s"] >= 18

    launched = stack.api.post("/api/v1/campaigns", json={"plan_id": plan.json()["id"], "tags": ["spine"]})
    assert launched.status_code == 202, launched.text
    campaign_id = launched.json()["id"]
    events: list = []
    watcher = threading.Thread(target=collect_events, args=(f"{stack.api_url}/api/v1/campaigns/{campaign_id}/events", events, stack.auth))
    watcher.start()
    campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "crashed"}, timeout_s=120)
    watcher.join(timeout=30)

    assert campaign["status"] == "completed", campaign
    assert campaign["progress"]["done"] == campaign["progress"]["total"] == 9
    assert campaign["plan"]["phases"][0]["kind"] == "baseline"
    assert campaign["environment"].get("kernel") or campaign["environment"] == {}
    points = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    assert [p["phase"] for p in points] == ["baseline"] + ["scalability"] * 4 + ["saturation"] * 3 + ["stability"]
    deviations = [(p["metrics"]["achieved_rate"] - p["offered_rate"]) / p["offered_rate"] for p in points if p["metrics"]]
    print(f"\nfigures: 9 points, largest |achieved - offered| / offered = {max(map(abs, deviations)):.4%}, took {campaign['progress']['elapsed_s']:.1f} s; "
          + ", ".join(f"c{p['concurrency']}@{p['offered_rate']:g}: {d:+.3%} (sent {p['metrics']['sent']:.0f}, "
                      f"run {p['extra']['run_time_s']} s)" for p, d in zip(points, deviations)))
    # Below the server's limit the server keeps up with what is offered. The sweep as a whole must be
    # on the rate; one 2 s point may lose a few % to a busy host (CI once saw -3.8 %: 75 ms of a 2 s point).
    assert statistics.median(map(abs, deviations)) < 0.01, deviations
    assert statistics.median(p["metrics"]["lost"] for p in points) == 0, "below its limit the server answers every query"
    for point, deviation in zip(points, deviations):
        assert point["status"] == "completed", point
        metrics = point["metrics"]
        assert metrics["loss_pct"] <= 0.5, point  # a busy host has timed out 23 queries of a point (0.46 %)
        assert abs(deviation) < 0.05, point
        assert metrics["efficiency"] == pytest.approx(metrics["achieved_rate"] / point["offered_rate"])
        assert metrics["inflight"] == pytest.approx(metrics["achieved_rate"] * metrics["latency_avg_ms"] / 1000)
        assert 0 < metrics["latency_min_ms"] <= metrics["latency_avg_ms"] <= metrics["latency_max_ms"]
        assert point["extra"]["rcodes"] == {"NOERROR": metrics["completed"]}

    evidence = stack.api.get(f"/api/v1/points/{points[3]['id']}").json()
    argv = evidence["argv"]
    assert "-S" in argv and argv[argv.index("-c") + 1] == "4"
    if latency.kblat():  # captured: dnsperf -v piped through kblat, and the evidence says so
        assert argv[0] == "dnsperf" and argv[-3:] == ["-v", "|", latency.kblat()] and evidence["extra"]["hdr"].startswith("HISTF")
        assert 0 < evidence["metrics"]["latency_p50_ms"] <= evidence["metrics"]["latency_p99_ms"] <= evidence["metrics"]["latency_p999_ms"]
    else:
        assert argv[:3] == ["stdbuf", "-oL", "dnsperf"] and evidence["warnings"][-1].startswith("latency capture was off")
    assert evidence["tool_version"] == "2.10.0" and evidence["exit_code"] == 0 and evidence["parser_version"] == dnsperf.PARSER_VERSION
    assert "Queries per second" in evidence["stdout"] and evidence["agent"] == "local"
    assert evidence["started_at"] < evidence["ended_at"]
    # a 2 s point has one or two `-S` intervals; dnsperf 2.10 now and then prints its first one as a count over the epoch
    # (latency.NO_ANSWER_RATE), which is left out: most points, not each, must have a sample
    per_point = [stack.api.get(f"/api/v1/points/{p['id']}/samples").json()["samples"] for p in points]
    assert sum(bool(samples) for samples in per_point) > len(points) / 2, [len(samples) for samples in per_point]  # most (a fresh clone: 6 of 9)
    samples = [s for point_samples in per_point for s in point_samples]
    assert all(s["values"]["achieved_rate"] > 0 for s in samples)
    assert not latency.kblat() or all(s["values"]["latency_p99_ms"] > 0 for s in samples), "each interval carries its percentiles"

    kinds = [kind for kind, _data, _t in events]
    assert "sample" in kinds and "point" in kinds and kinds[-1] == "end"
    first_sample = next(t for kind, _d, t in events if kind == "sample")
    assert first_sample < events[-1][2] - 2, "samples reach the API while the campaign runs, not at its end"

    exported = stack.api.get(f"/api/v1/campaigns/{campaign_id}/export.csv")
    rows = list(csv.DictReader(io.StringIO(exported.text)))
    assert len(rows) == 9 and float(rows[0]["achieved_rate"]) == pytest.approx(points[0]["metrics"]["achieved_rate"])
    document = stack.api.get(f"/api/v1/campaigns/{campaign_id}/export.json").json()
    assert len(document["points"]) == 9 and document["campaign"]["plan"]["name"] == "spine three phases"

    listed = stack.api.get("/api/v1/campaigns", params={"tag": "spine", "status": "completed"}).json()
    assert campaign_id in [c["id"] for c in listed["items"]]


def dnsperf_pids() -> set[int]:
    """PIDs of every dnsperf below this pytest process (its stack's worker runs them; another lane of the suite runs its
    own): read-only, nothing is killed here."""
    return {pid for pid in outages.descendants(os.getpid()) if outages.command(pid) == "dnsperf"}


def test_cancel_mid_point_kills_dnsperf_and_keeps_finished_points(stack, dns_target):
    body = three_phase_plan(dns_target["id"], name="to cancel", phases=[
        {"kind": "baseline", "concurrency": 1, "rate": 200, "duration_s": 1},
        {"kind": "stability", "concurrency": 2, "rate": 500, "duration_s": 30},
    ])  # fmt: skip
    plan_id = stack.api.post("/api/v1/plans", json=body).json()["id"]
    before = dnsperf_pids()
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        points = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
        if points[1]["status"] == "running" and dnsperf_pids() - before:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("the long point never started")
    time.sleep(1.0)
    asked = time.monotonic()
    response = stack.api.post(f"/api/v1/campaigns/{campaign_id}/cancel")
    assert response.status_code == 200 and response.json()["status"] in {"cancelling", "cancelled"}
    while dnsperf_pids() - before and time.monotonic() - asked < 5:
        time.sleep(0.05)
    gone_after = time.monotonic() - asked
    print(f"\nfigures: dnsperf gone {gone_after:.2f} s after the cancel request")
    assert not dnsperf_pids() - before, "dnsperf still running after cancel"
    assert gone_after < 2.0, f"dnsperf took {gone_after:.2f} s to go"
    campaign = wait_status(stack.api, campaign_id, {"cancelled"}, timeout_s=15)
    assert campaign["partial"] is True
    points = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    assert points[0]["status"] == "completed" and points[0]["metrics"]["completed"] > 0
    assert points[1]["status"] == "cancelled"
    again = stack.api.post(f"/api/v1/campaigns/{campaign_id}/cancel")
    assert again.status_code == 409


def test_a_variant_that_cannot_be_applied_fails_its_points_with_the_reason(stack, dns_target):
    from tests.support.labs import lab_absent

    body = three_phase_plan(dns_target["id"], name="variant without lab",
                            phases=[{"kind": "baseline", "concurrency": 1, "rate": 100, "duration_s": 1}],
                            variants=[{"label": "1 queue", "set": {"lab.veth_queues": 1}}])  # fmt: skip
    with lab_absent():  # no lab: the setting has nothing to apply to
        plan_id = stack.api.post("/api/v1/plans", json=body).json()["id"]
        campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
        campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "crashed"}, timeout_s=60)
    point = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()[0]
    assert campaign["status"] == "failed" and point["status"] == "failed"
    assert point["error"].startswith("variant '1 queue': setting lab.veth_queues=1 could not be applied"), point["error"]
    assert stack.api.get(f"/api/v1/points/{point['id']}").json()["argv"] == [], "nothing ran"
    assert campaign["environment"]["variants"]["1 queue"]["setting.error"] == point["error"]


def test_variants_may_change_the_tools_params_and_each_point_runs_its_own(stack, dns_target):
    """UDP against TCP on one resolver in one campaign: a variant's `params` go over the plan's, checked by the tool."""
    bad = three_phase_plan(dns_target["id"], variants=[{"label": "quic", "params": {"mode": "quic"}}])
    answer = stack.api.post("/api/v1/plans", json=bad)
    assert answer.status_code == 422 and "variants[0].params.mode" in answer.text, answer.text
    both = three_phase_plan(dns_target["id"], variants=[{"label": "tls", "params": {"mode": "tcp", "tls_skip_verify": True}}])
    answer = stack.api.post("/api/v1/plans", json=both)
    assert answer.status_code == 422 and "tls_skip_verify is for modes dot and doh (mode is tcp)" in answer.text, answer.text
    body = three_phase_plan(dns_target["id"], name="udp vs tcp", phases=[{"kind": "baseline", "concurrency": 2, "rate": 300, "duration_s": 1}],
                            variants=[{"label": "udp"}, {"label": "tcp", "params": {"mode": "tcp"}}])  # fmt: skip
    plan_id = stack.api.post("/api/v1/plans", json=body).json()["id"]
    campaign_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan_id}).json()["id"]
    campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "crashed"}, timeout_s=180)  # SCHED_IDLE beside a busy foreground
    points = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    assert campaign["status"] == "completed", [p["error"] for p in points]
    argv = {p["variant"]: stack.api.get(f"/api/v1/points/{p['id']}").json()["argv"] for p in points}
    assert "-m" not in argv["udp"] and argv["tcp"][argv["tcp"].index("-m") + 1] == "tcp"
    # each transport answered (how many of the 300 depends on this lane's CPU: under SCHED_IDLE beside a hog dnsperf sent fewer)
    assert all(p["metrics"]["completed"] > 0 for p in points), [p["metrics"] for p in points]
