"""Merging shares: the known-data test splits real dnsperf -v latencies over two "agents" and checks
that the merged percentiles are those of the concatenated latencies; sums, pooling and per-agent checks."""

from __future__ import annotations

import math
import statistics
from collections import Counter

import pytest

from kneeboard.analysis import hdr
from kneeboard.fanout.merge import merge, start_skew_ms
from kneeboard.fanout.outcome import ShareOutcome
from tests.support.latency import assert_same_percentiles, counted
from tests.unit.test_analysis_hdr import RAW, raw_latencies_us

UNITS = {"achieved_rate": "qps", "sent": "count", "completed": "count", "lost": "count", "latency_avg_ms": "ms",
         "latency_min_ms": "ms", "latency_max_ms": "ms", "latency_stddev_ms": "ms", "loss_pct": "%"}


def share(agent: str, latencies_us: list[int], *, offered: float, started: float, sent: float | None = None) -> ShareOutcome:
    """A share whose metrics and histogram are those of `latencies_us`."""
    ms = [v / 1000 for v in latencies_us]
    metrics = {"sent": sent or len(ms), "completed": len(ms), "lost": (sent or len(ms)) - len(ms), "achieved_rate": len(ms) / 5.0,
               "latency_avg_ms": statistics.fmean(ms), "latency_min_ms": min(ms), "latency_max_ms": max(ms),
               "latency_stddev_ms": statistics.pstdev(ms)}
    histogram = hdr.encode(hdr.from_counts(Counter(latencies_us).items()))
    return ShareOutcome(agent=agent, offered_rate=offered, metrics=metrics, extra={"hdr": histogram, "hdr_intervals": [[1000.2, histogram]]},
                        samples=[{"t": 1000.2, "series": "point", "values": {"achieved_rate": len(ms) / 5.0}}], started_at=started, cpus=2, cpu_s=1.0)


@pytest.fixture()
def latencies(fixtures_dir) -> list[int]:
    return raw_latencies_us((fixtures_dir / RAW).read_text())


def test_merged_percentiles_are_those_of_the_concatenated_latencies(latencies):
    import random

    shuffled = latencies[:]
    random.Random(7).shuffle(shuffled)  # each agent gets an unsorted, uneven part: 1000 and 500 answers
    a, b = shuffled[:1000], shuffled[1000:]
    result = merge([share("a1", a, offered=200, started=1000.000), share("a2", b, offered=100, started=1000.012)], UNITS, 5.0)
    union = hdr.decode(result.extra["hdr"])
    assert union.get_total_count() == len(latencies) == 1500
    assert_same_percentiles(union, counted(a + b))  # the concatenation of both agents' raw latencies
    assert {k: result.metrics[k] for k in hdr.PERCENTILES} == hdr.percentiles_ms(union)
    alone = hdr.percentiles_ms(hdr.decode(share("a2", b, offered=1, started=0).extra["hdr"]))
    assert alone != hdr.percentiles_ms(union), "the check can fail: one agent's part has other percentiles"


def test_rates_and_counts_sum_and_averages_pool_exactly(latencies):
    a, b = latencies[::3], [v for i, v in enumerate(latencies) if i % 3]
    result = merge([share("a1", a, offered=200, started=10.0, sent=520), share("a2", b, offered=100, started=10.03)], UNITS, 5.0)
    ms = [v / 1000 for v in latencies]
    assert result.metrics["completed"] == 1500 and result.metrics["sent"] == 1520 and result.metrics["lost"] == 20
    assert result.metrics["achieved_rate"] == 300.0
    assert result.metrics["loss_pct"] == pytest.approx(100 * 20 / 1520)
    assert result.metrics["latency_avg_ms"] == pytest.approx(statistics.fmean(ms))
    assert result.metrics["latency_stddev_ms"] == pytest.approx(statistics.pstdev(ms))
    assert (result.metrics["latency_min_ms"], result.metrics["latency_max_ms"]) == (min(ms), max(ms))
    assert result.extra["start_skew_ms"] == pytest.approx(30.0)
    assert [s["agent"] for s in result.extra["shares"]] == ["a1", "a2"]
    point = [s for s in result.samples if s.series == "point"]
    assert len(point) == 1 and point[0].values["achieved_rate"] == 300.0 and point[0].values["latency_p50_ms"] is not None
    assert {s.series for s in result.samples} == {"point", "agent.a1", "agent.a2"}


def test_a_weak_agent_and_a_busy_generator_are_named(latencies):
    weak = share("a2", latencies[:400], offered=100, started=0)  # 80 answers/s of the 100 offered
    weak.cpu_s = 9.5
    result = merge([share("a1", latencies[400:], offered=100, started=0), weak], UNITS, 5.0)
    text = " | ".join(result.extra["warnings"])
    assert "a2 achieved 80 of the 100 offered to it (80 %)" in text
    assert "a2's generator used 95 % of its 2 CPUs" in text
    assert "a1 achieved" not in text and result.error is None


def test_a_failed_share_is_listed_not_counted_and_all_failed_is_an_error(latencies):
    dead = ShareOutcome(agent="a2", offered_rate=100, error="agent a2 stopped answering")
    result = merge([share("a1", latencies, offered=300, started=0), dead], UNITS, 5.0)
    assert result.metrics["completed"] == 1500 and result.error is None
    assert result.extra["shares"][1]["error"] == "agent a2 stopped answering"
    assert "a2: share failed: agent a2 stopped answering" in result.extra["warnings"]
    failed = merge([dead], UNITS, 5.0)
    assert failed.error == "every agent's share failed: a2: agent a2 stopped answering" and failed.metrics == {}
    assert start_skew_ms([dead]) is None and not math.isnan(result.extra["start_skew_ms"] or 0)


def test_a_tools_other_distributions_merge_exactly_too(latencies):
    a, b = latencies[:1000], latencies[1000:]
    shares = [share("a1", a, offered=200, started=1000.0), share("a2", b, offered=100, started=1000.0)]
    for s, part in zip(shares, (a, b)):  # kbhttp's service time: here the same values halved
        s.extra["service_hdr"] = hdr.encode(hdr.from_counts(Counter(v // 2 for v in part).items()))
    result = merge(shares, UNITS, 5.0)
    service = hdr.decode(result.extra["service_hdr"])
    assert_same_percentiles(service, counted([v // 2 for v in a + b]))
    assert result.metrics["service_p99_ms"] == hdr.percentiles_ms(service)["latency_p99_ms"]
    assert "lateness_hdr" not in result.extra, "only what every share has is merged"
