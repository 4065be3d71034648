"""Issue 50: loads derived from an earlier phase of the same run, against the lab's AdGuard Home as shipped. The hold
runs at the stated fraction of the knee its own sweep found (read back from the campaign's report by the test), in the
green or yellow zone with (next to) no loss; CSIT's 10/50/90 % of the ceiling follow; a cancelled and resumed campaign resolves
the same load again; a search that finds nothing leaves its dependent phase skipped with the reason."""

from __future__ import annotations

import re
import time

import pytest

from tests.integration.conftest import lab_target, skip_without_lab
from tests.integration.test_campaign_run import wait_status
from tests.integration.test_impairments_lab import launch
from tests.integration.test_lab_campaigns import run

skip_without_lab()
NAMES = {"names": ["www.example.lab", "h0001.example.lab", "h0002.example.lab"], "qtype": "A", "timeout_s": 2}
# AdGuard Home bends at ~15–28k q/s on these two cores (real-campaigns; seed 000's whole template: 22,324 and 27,526 on
# two days); a sweep topped at 32k once found no knee (1.32 ms at 26k, back on the plateau at 32k)
SWEEP = [2000, 8000, 14000, 20000, 26000, 32000, 40000, 50000]  # 32,102 found on 2026-11-29
# The hold at half the knee, as seed 000's template: at 0.8 of it AdGuard's socket receive buffer overflows whenever the
# server is descheduled on a shared host (UdpRcvbufErrors = dnsperf's lost; 0.38 % lost at 0.8 in a `make test` run),
# while 0.5 lost nothing (two whole template runs, and dnsperf alone for 60 s at 9,200 q/s right after 50k).
HOLD = 0.5
# ...on a quiet host. Beside other work half the knee still loses a little when the server is descheduled: 0 % in every
# quiet run on record (the two template runs, the 60 s dnsperf, this test in each quiet `make test` until then), 0.228 %
# beside `stress-ng --cpu 1` (make test-busy), 0.347 % in CI's `make test` (the background lane beside), 0.52 % beside two
# other measuring lanes; past the knee the sweep's points lose more or answer in the red zone
LOSS_BELOW_KNEE_PCT = 1.0


def plan(stack, phases: list[dict], name: str) -> dict:
    return {"name": name, "tool": "dnsperf", "target_id": lab_target(stack, "lab-adguard"), "params": NAMES, "pause_s": 0,
            "phases": phases}


def derived_phases(hold_s: float = 6) -> list[dict]:
    return [{"kind": "saturation", "label": "sweep", "concurrency": 20, "rate": SWEEP, "duration_s": 3},
            {"kind": "stability", "label": "hold", "concurrency": 20, "rate": {"phase": "sweep", "of": "knee", "fraction": HOLD},
             "duration_s": hold_s},
            {"kind": "fractions", "concurrency": 20, "found": {"phase": "sweep", "of": "ceiling"}, "duration_s": 2}]  # fmt: skip


@pytest.fixture
def preview_of(stack):
    def preview(body: dict) -> dict:
        answer = stack.api.post("/api/v1/plans/preview", json=body)
        assert answer.status_code == 200, answer.text
        return answer.json()

    return preview


def test_the_hold_runs_at_the_stated_fraction_of_the_knee_found_in_the_same_run(stack, lab, preview_of):
    body = plan(stack, derived_phases(), "derived hold")
    previewed = preview_of(body)["points"]
    hold = next(p for p in previewed if p["phase"] == "stability")
    assert hold["offered_rate"] == pytest.approx(HOLD * max(SWEEP)) and "50 % of the knee found by phase 'sweep'" in hold["rate_from"]

    campaign, points = run(stack, body, timeout_s=240)
    assert campaign["status"] == "completed", [p["error"] for p in points]
    analysis = stack.api.get(f"/api/v1/campaigns/{campaign['id']}").json()["analysis"]
    knee, top = analysis["knee"], analysis["ceiling"]
    assert knee is not None, analysis["conclusion"]
    hold = next(p for p in points if p["phase"] == "stability")
    # resolved from the sweep's points when the hold started; the final report reads the later points too (the 10 %
    # fraction joins its baseline latency): the figure the hold names is exactly twice its rate, inside the sweep, and
    # the report's final knee is either the same figure (0.19–0.34 % apart in quiet runs) or said beside it (make
    # test-busy moved it from 14,658 to 11,447 q/s, 28 %: a busy host moves the knee itself)
    named = float(re.search(r"of the ([\d,.]+) \S+ knee", hold["rate_from"]).group(1).replace(",", ""))
    assert hold["offered_rate"] == pytest.approx(HOLD * named, rel=1e-4), hold["rate_from"]
    assert min(SWEEP) <= named <= max(SWEEP), named
    if abs(named - knee["offered_rate"]) > 0.01 * named:
        assert f"the knee this report names, {knee['offered_rate']:,.0f} " in analysis["conclusion"], analysis["conclusion"]
    assert hold["rate_from"].startswith("50 % of the") and "knee" in hold["rate_from"] and "'sweep'" in hold["rate_from"]
    assert f"its rate, chosen in the same run, was {hold['rate_from']}" in analysis["conclusion"], analysis["conclusion"]
    zones = {z["zone"]: z for z in analysis["zones"]}
    yellow_ms = analysis["thresholds"]["yellow_ms"]
    print(f"\nfigures: AdGuard Home knee {knee['offered_rate']:,.0f} q/s ({knee['rule']}); hold at {hold['offered_rate']:,.0f} q/s: "
          f"mean {hold['metrics']['latency_avg_ms']:.2f} ms, loss {hold['metrics']['loss_pct']:.3f} %; zones {sorted(zones)}")
    # below saturation: no latency in the red zone and loss under LOSS_BELOW_KNEE_PCT (its rate is asserted exact above: a
    # hold at the wrong fraction fails there, whatever the host)
    assert hold["metrics"]["latency_avg_ms"] < yellow_ms and hold["metrics"]["loss_pct"] < LOSS_BELOW_KNEE_PCT, hold["metrics"]
    fractions = [p for p in points if p["phase"] == "fractions"]
    assert [round(p["offered_rate"] / top["achieved_rate"], 3) for p in fractions] == [0.1, 0.5, 0.9]
    assert all("ceiling found by phase 'sweep'" in p["rate_from"] for p in fractions)


def test_a_resumed_campaign_resolves_the_same_load_again(stack, lab):
    campaign_id = launch(stack, plan(stack, derived_phases(hold_s=8), "derived resumed"))  # long enough to be cancelled running
    deadline, hold = time.monotonic() + 120, None
    while time.monotonic() < deadline:
        points = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
        hold = next(p for p in points if p["phase"] == "stability")
        if hold["status"] == "running":
            break
        time.sleep(0.2)
    assert hold and hold["status"] == "running" and hold["rate_from"], hold
    first = hold["offered_rate"]
    assert stack.api.post(f"/api/v1/campaigns/{campaign_id}/cancel").status_code == 200
    wait_status(stack.api, campaign_id, {"cancelled"}, timeout_s=60)
    assert stack.api.post(f"/api/v1/campaigns/{campaign_id}/resume").status_code == 202
    campaign = wait_status(stack.api, campaign_id, {"completed", "failed", "crashed", "cancelled"}, timeout_s=120)
    points = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    assert campaign["status"] == "completed", [p["error"] for p in points]
    again = next(p for p in points if p["phase"] == "stability")
    print(f"\nfigures: the hold resolved to {first:,.2f} q/s, and again to {again['offered_rate']:,.2f} q/s after a cancel and resume")
    assert again["status"] == "completed" and again["attempt"] == 2 and again["offered_rate"] == first


def test_a_search_that_finds_nothing_skips_the_phase_that_depends_on_it(stack, lab):
    phases = [{"kind": "search", "label": "find", "concurrency": 4, "low": 1000, "high": 2000, "duration_s": 1, "repeats": 1,
               "criteria": [{"metric": "latency_avg_ms", "limit": 0.001}]},  # no DNS answer comes back within a microsecond
              {"kind": "stability", "concurrency": 4, "rate": {"phase": "find", "of": "capacity", "fraction": 0.8}, "duration_s": 2}]  # fmt: skip
    campaign, points = run(stack, plan(stack, phases, "derived from nothing"), timeout_s=120)
    hold = next(p for p in points if p["phase"] == "stability")
    print(f"\nfigures: {len(points) - 1} search trial(s); the hold: {hold['status']}: {hold['error']}")
    assert campaign["status"] == "completed" and campaign["partial"], campaign
    assert hold["status"] == "cancelled" and hold["error"].startswith("skipped: 80 % of the capacity (criterion 1) found by phase 'find'")
    assert "found no capacity" in hold["error"]


def test_a_reference_that_cannot_be_resolved_is_refused_with_the_field(stack, lab):
    phases = derived_phases()
    phases[1]["rate"] = {"phase": "sweep", "of": "capacity", "fraction": 0.8}
    answer = stack.api.post("/api/v1/plans", json=plan(stack, phases, "bad reference"))
    assert answer.status_code == 422 and "phases[1].rate" in answer.text and "finds no capacity" in answer.text, answer.text
    phases[1]["rate"] = {"phase": "later", "of": "knee", "fraction": 0.8}
    answer = stack.api.post("/api/v1/plans", json=plan(stack, phases, "bad reference"))
    assert answer.status_code == 422 and "no phase is labelled 'later'" in answer.text, answer.text
