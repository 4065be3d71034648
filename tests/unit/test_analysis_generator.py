"""Was the offered load sent? The pure judgement, fed real dnsperf and kbhttp output through the adapters' hooks."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from kneeboard.report import analyse
from kneeboard.analysis.generator import SENT_MIN_PCT, Sending, judge, server_judged, warning
from kneeboard.tools import dnsperf, kbhttp


def sending_of(tool, fixtures_dir, name: str, rate: float, duration_s: float, concurrency: int = 1, **params) -> Sending:
    """The adapter's own account of a captured run, for a point of that rate and duration."""
    stdout = (fixtures_dir / name).read_text()
    result = tool.ADAPTER.parse_final(stdout, "", 0)
    point = SimpleNamespace(concurrency=concurrency, offered_rate=rate, duration_s=duration_s)
    return tool.ADAPTER.sending(point, tool.ADAPTER.read_params(params), result)


def test_a_cap_of_one_query_outstanding_is_named_with_the_change_that_lifts_it(fixtures_dir):
    # dnsperf -c 1 -q 1 -Q 20000 -l 2: 98 of 40,000 queries sent, 0.033 ms each
    verdict = judge(sending_of(dnsperf, fixtures_dir, "dnsperf-2.10-q1-Q20000.txt", 20000, 2, max_outstanding=1, timeout_s=2))
    assert (verdict["asked"], verdict["sent"], verdict["limited"], verdict["cause"]) == (40000, 98, True, "outstanding")
    assert verdict["sent_pct"] == 0.2
    assert "dnsperf keeps at most 1 queries outstanding" in verdict["detail"] and "Little's law" in verdict["detail"]
    assert verdict["suggestion"] == "raise max_outstanding to ≥ 3"  # 20,000 q/s × 0.033 ms × 4, rounded up
    assert warning(verdict).startswith("generator-limited: sent 98 of the 40,000 asked for (0.2 %)")


def test_the_same_load_with_the_cap_raised_is_sent_and_judged_normally(fixtures_dir):
    # dnsperf -c 1 -q 1000 -Q 20000 -l 2: all 40,000 sent (132 lost: sent all the same)
    verdict = judge(sending_of(dnsperf, fixtures_dir, "dnsperf-2.10-q1000-Q20000.txt", 20000, 2, max_outstanding=1000, timeout_s=2))
    assert (verdict["sent"], verdict["sent_pct"], verdict["limited"], verdict["cause"], verdict["suggestion"]) == (40000, 100.0, False, None, None)


def test_dnsperfs_default_cap_holds_an_overload_back_by_littles_law(fixtures_dir):
    # dnsperf -c 4 -q 100 -Q 200000 -l 3: 281,056 of 600,000 sent at 0.792 ms: 100 outstanding allow 126k q/s at best
    s = sending_of(dnsperf, fixtures_dir, "dnsperf-2.10-q100-c4-Q200000.txt", 200000, 3, concurrency=4, max_outstanding=100, timeout_s=2)
    verdict = judge(s, cpu_busy_pct=97.0)
    assert verdict["limited"] and verdict["causes"] == ["outstanding", "cpu"] and verdict["sent_pct"] == 46.8
    assert verdict["cap_rate"] == pytest.approx(100 / 0.000792, rel=1e-3)
    assert "caps the rate at 126,000 qps (Little's law)" in verdict["detail"] and "97 % busy (mpstat)" in verdict["detail"]
    assert verdict["suggestion"].startswith("raise max_outstanding to ≥ 640")  # 200,000 × 0.792 ms = 158 in flight, × 4


def test_queries_the_server_lost_holding_the_cap_are_the_servers_shortfall(fixtures_dir):
    # dnsperf -c 4 -q 1000 -Q 200000 -l 3 -t 2: 530,397 sent, 1,577 lost, each holding a place for 2 s: ~1,050 of 1,000
    verdict = judge(sending_of(dnsperf, fixtures_dir, "dnsperf-2.10-q1000-c4-Q200000.txt", 200000, 3, concurrency=4, timeout_s=2))
    assert verdict["sent_pct"] < SENT_MIN_PCT and verdict["cause"] == "loss" and verdict["limited"] is False
    assert "the server never answered" in verdict["detail"]


def test_a_full_run_below_the_cap_is_sent(fixtures_dir):
    # the 2026-11-21 saturation series: -Q 60000 -l 10 sent 599,998 (two short of rate × duration)
    verdict = judge(sending_of(dnsperf, fixtures_dir, "dnsperf-2.10-sat-c20-Q60000.txt", 60000, 10, concurrency=20, max_outstanding=100))
    assert verdict["sent"] == 599998 and verdict["limited"] is False


def test_no_offered_rate_no_judgement(fixtures_dir):
    assert sending_of(dnsperf, fixtures_dir, "dnsperf-2.10-max-c20-noQ.txt", None, 10, concurrency=20) is None


def test_cpu_sockets_and_unknown():
    base = dict(tool="dnsperf", unit="queries", rate_unit="qps", offered_rate=50000, duration_s=2, asked=100000, sent=60000,
                latency_ms=0.1, timeout_s=5, cap=1000, cap_param="max_outstanding", cap_label="queries outstanding", cap_max=65536)
    assert judge(Sending(**base), cpu_busy_pct=93.0)["causes"] == ["cpu"]
    assert judge(Sending(**base), cpu_busy_pct=60.0)["cause"] == "unknown"
    sockets = judge(Sending(**base, socket_failures=12, socket_detail="failed to send packet: Resource temporarily unavailable"))
    assert sockets["cause"] == "sockets" and "12 sends its sockets refused (first: failed to send packet" in sockets["detail"]
    # 3 % short: still sent (pacing ends a point a query or two short; a host stall of a few tens of ms is made up)
    assert judge(Sending(**{**base, "sent": 97000}))["limited"] is False
    assert judge(Sending(**{**base, "sent": 96900}))["limited"] is True
    # past dnsperf's own bound, only more agents help; a fanned point's cap is per agent
    wide = judge(Sending(**{**base, "latency_ms": 2000.0}))
    assert wide["suggestion"] == "max_outstanding is at most 65,536: split the load over more agents"
    fanned = judge(Sending(**{**base, "latency_ms": 20.0, "cap": 2000, "cap_shares": 2}))
    assert fanned["suggestion"] == "raise max_outstanding to ≥ 2,000"  # 50,000 × 20 ms × 4 = 4,000 over two agents


def test_kbhttp_connections_are_its_cap(fixtures_dir):
    # kbhttp run --rate 1000 --connections 2 against a server answering in 10 ms: 388 sent, 1,612 never sent
    s = sending_of(kbhttp, fixtures_dir, "kbhttp-0.2-delay10ms-r1000-c2.ndjson", 1000, 2, concurrency=2)
    assert (s.cap, s.cap_param, s.asked, s.sent) == (2, "concurrency", 2000, 388)
    verdict = judge(s)
    assert verdict["limited"] and verdict["cause"] == "outstanding" and verdict["sent_pct"] == 19.4
    assert "kbhttp keeps at most 2 connections (one request in flight each); at 10.3 ms that caps the rate at 193 req/s" in verdict["detail"]
    assert verdict["suggestion"] == "raise concurrency to ≥ 42"  # 1,000 req/s × 10.34 ms service time × 4
    # a 1 s stall that kbhttp queued behind its 20 connections and sent late: all 2,500 were sent
    stalled = judge(sending_of(kbhttp, fixtures_dir, "kbhttp-0.1-stall-r500-c20.ndjson", 500, 5, concurrency=20))
    assert (stalled["sent"], stalled["limited"]) == (2500, False)


def point(rate: float, achieved: float, latency: float, limited: bool = False) -> dict:
    return {"phase": "saturation", "concurrency": 1, "offered_rate": rate, "achieved_rate": achieved, "latency_avg_ms": latency,
            "repeat": 0, "status": "completed", "variant": None, "generator_limited": limited,
            "generator": {"limited": limited, "sent_pct": 40.0, "cause": "outstanding", "detail": "d", "suggestion": "raise it"} if limited else None}


def test_the_analysis_leaves_generator_limited_points_out_and_lists_them():
    points = [point(1000, 1000, 0.1), point(2000, 2000, 0.1), point(4000, 3990, 0.12), point(8000, 3300, 0.6, limited=True)]
    kept, left_out = server_judged(points)
    assert [p["offered_rate"] for p in kept] == [1000, 2000, 4000]
    assert left_out == [{"offered_rate": 8000, "concurrency": 1, "phase": "saturation", "repeat": 0, "sent_pct": 40.0,
                         "cause": "outstanding", "detail": "d", "suggestion": "raise it"}]
    result = analyse(points)
    assert result["generator_limited"] == left_out
    assert result["conclusion"].startswith("The load generator did not send 1 load(s)") and "raise it" in result["conclusion"]
    assert result["ceiling"]["achieved_rate"] == 3990, "the ceiling is the server's, not the generator's 3,300 at 8,000 offered"
    assert analyse(points[:3])["ceiling"] == result["ceiling"] and analyse(points[:3])["zones"] == result["zones"]


def test_a_search_whose_failing_bound_the_generator_did_not_send_says_so():
    from kneeboard.search.algorithm import run
    from kneeboard.search.report import search_report
    from kneeboard.search.state import config_of

    phase = {"kind": "search", "low": 1000, "high": 8000, "duration_s": 1, "min_duration_s": 1, "resolution_pct": 5, "repeats": 1,
             "criteria": [{"metric": "efficiency_pct", "limit": 95}]}
    sends = 3000  # the generator's limit; the server would keep up with 5,000

    def measure(trial):
        return {"achieved_rate": min(trial.rate, sends), "completed": 1, "errors": 0, "offered_rate": trial.rate}

    found, done = run(config_of(phase), measure)
    points = [SimpleNamespace(phase_index=0, variant=None, repeat=0, seq=i, status="completed", offered_rate=t.rate, duration_s=t.duration_s,
                              metrics={**r, "offered_rate": t.rate},
                              extra={"generator": judge(Sending("dnsperf", "queries", "qps", t.rate, 1, t.rate, min(t.rate, sends)))})
              for i, (t, r) in enumerate(done)]  # fmt: skip
    criterion = search_report([phase], points, "qps")[0]["criteria"][0]
    assert criterion["kind"] == "between" and criterion["high"] > criterion["low"] >= sends  # 3,000 of 3,071 is 97.7 %: sent
    assert criterion["generator_limited"]["offered_rate"] == criterion["high"] and criterion["generator_limited"]["cause"] == "unknown"
    assert "but the generator sent only" in criterion["statement"] and "the server's capacity may be higher" in criterion["statement"]
    for p in points:  # the same trials, every one sent: nothing to flag
        p.extra = {"generator": {"limited": False}}
    assert "generator_limited" not in search_report([phase], points, "qps")[0]["criteria"][0]


def test_a_limited_point_above_the_others_does_not_set_the_ceiling():
    points = [point(1000, 1000, 0.1), point(2000, 2000, 0.1), point(4000, 3990, 0.12), point(16000, 5200, 0.9, limited=True)]
    result = analyse(points)
    assert result["ceiling"]["achieved_rate"] == 3990 and result["ceiling"]["bound"] is True  # the 4,000 load kept up: "≥"
    assert analyse([{**p, "generator_limited": False, "generator": None} for p in points])["ceiling"]["achieved_rate"] == 5200


def test_a_cap_full_all_the_time_is_named_though_the_mean_latency_is_tiny():
    # make test-busy, beside stress-ng --cpu 1: dnsperf -q 2 sent 8.5 % of 40,000 q/s for 1.5 s and read ~0.01 ms answers,
    # so Little's law needs 0.4 in flight; each place came round every 0.59 ms: the cap, not an unknown cause
    busy = dict(tool="dnsperf", unit="queries", rate_unit="qps", offered_rate=40000, duration_s=1.5, asked=60000, sent=5100,
                latency_ms=0.01, timeout_s=1, cap=2, cap_param="max_outstanding", cap_label="queries outstanding", cap_max=65536)
    verdict = judge(Sending(**busy))
    assert verdict["cause"] == "outstanding" and "each place coming round every 0.59 ms" in verdict["detail"], verdict
    assert verdict["suggestion"] == "raise max_outstanding to ≥ 24"  # 40,000 q/s × 0.59 ms
    # the same shortfall with a cap whose places came round far slower than an answer and a hand-back: not the cap
    assert judge(Sending(**{**busy, "cap": 100}))["cause"] == "unknown"
