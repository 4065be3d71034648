"""Repeat until decided on the lab's CoreDNS, minimal against log_file (seed 001's template, one load a pass): the
worker runs passes until the sequential test decides CPU per 1,000 queries, and it decides "worse" for logging within
the budget. On this two-core host a 3-repetition comparison left it "no detectable difference" (issue 50: +18 %,
detectable change 52.8 %).

Why 6 s points at 15,000 q/s (2026-11-29, the host shared with other sessions' tests): the server's CPU is read from
/proc over the load (the process monitor) and is precise (0.5-2.7 CPU-s a point, ticks of 0.01 s); what spreads is the
host. With the process descheduled, CoreDNS serves more queries a wakeup and its CPU per query falls (0.021-0.042 ms a
query for the same configuration within one run), so two points 3 s long, run one after the other, differ by whatever
ran beside them: paired differences -24 … +65 % (sd 15-18 %) against a logging cost of +10-15 %, and three runs of 3 s
points at 15,000 q/s (and the earlier 2 s at 10,000, +6.9 %) ended undecided at 20 passes or the budget, one decided at
pass 18. Points of 6 s average the neighbours' bursts: decided "worse" after 9 passes (115 s of points, +22.2 %) and,
beside `stress-ng --cpu 1`, after 10 (133 s, +16.4 %). The lab's pinned CoreDNS (GOMAXPROCS=1): lab.coredns_config
switches that one; the as-shipped instance (lab-coredns-shipped) has no configuration variant."""

from __future__ import annotations

import math
import time

import pytest

from kneeboard.analysis.sequential import passes_of
from kneeboard.campaigns.analysis import point_dict
from kneeboard.campaigns.models import Campaign
from kneeboard.db import session_scope
from kneeboard.lab import coredns

from tests.integration.conftest import skip_without_lab
from tests.integration.test_lab_campaigns import run
from tests.integration.test_server_evidence_lab import coredns_target

skip_without_lab()
if coredns.binary() is None:
    pytest.skip(coredns.missing_reason(), allow_module_level=True)

BUDGET_S = 150.0
RATE, POINT_S = 15000, 6


def test_logging_is_decided_worse_by_cpu_per_thousand_queries_within_the_budget(stack, lab):
    template = stack.api.get("/api/v1/plans/templates/dns-coredns-logging-seed001").json()["plan"]
    plan = {**template, "name": "seed 001 until decided", "target_id": coredns_target(stack), "pause_s": 0, "repeat": 2,
            "phases": [{**template["phases"][0], "rate": [RATE], "duration_s": POINT_S}],
            "monitors": [*template["monitors"], {"kind": "process", "interval_s": 1}],
            "until_decided": {"metrics": ["server_cost"], "max_passes": 20, "budget_s": BUDGET_S}}  # fmt: skip
    started = time.monotonic()
    campaign, points = run(stack, plan, timeout_s=420)
    took = time.monotonic() - started
    assert campaign["status"] == "completed", [p["error"] for p in points]
    with session_scope() as session:
        stored = session.get(Campaign, campaign["id"])
        record = stored.analysis["until_decided"]
        pairs = passes_of([point_dict(p) for p in stored.points], ["server_cost"], "minimal", "log_file")
    cost = record["variants"]["log_file"]["metrics"]["server_cost"]
    diffs = [100 * math.expm1(math.log(b / a)) for a, b in (p["server_cost"] for p in pairs)]
    print(f"\nfigures: {RATE} q/s, {POINT_S} s points; {record['passes']} passes in {record['spent_s']:.0f} s of points "
          f"({took:.0f} s in all), stopped: {record['stopped']}; CPU per 1,000 queries log_file vs minimal "
          f"{cost['effect_pct']:+.1f} % (anytime-valid interval {cost['low_pct']} … {cost['high_pct']} %); per pass "
          f"(minimal, log_file CPU-s per 1,000) {[(round(a, 4), round(b, 4)) for a, b in (p['server_cost'] for p in pairs)]}; "
          f"differences % {[round(d, 1) for d in diffs]}; verdict after each pass: {cost['history']}")
    assert record["stopped"] == "decided" and cost["verdict"] == "worse", record
    assert record["spent_s"] <= BUDGET_S
