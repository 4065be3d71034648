"""dnsperf's interval series starts at the first interval that counted answers: no leading 0 q/s sample.

The fixtures are real runs against unbound where dnsperf 2.10 printed its first `-S 1` line as the interval's count
over the seconds since the epoch ("0.000003" at 5,000 q/s), with and without kblat's interval reports before each line.
"""

from __future__ import annotations

from kneeboard.tools import dnsperf
from kneeboard.tools.base import Sample
from kneeboard.tools.dnsperf.latency import IntervalReader


def test_the_misprinted_first_interval_is_no_sample(fixtures_dir):
    text = (fixtures_dir / "dnsperf-2.10-S1-epoch-first-interval.txt").read_text()
    result = dnsperf.parse(text, "", 0)
    assert result.error is None and result.metrics["achieved_rate"] > 4999
    assert [(s.t, s.values) for s in result.samples] == [(1795729214.013762, {"achieved_rate": 5000.714816})]


def test_with_kblat_the_first_intervals_percentiles_go_with_it(fixtures_dir):
    text = (fixtures_dir / "kblat-dnsperf-2.10-v-epoch-first-interval.txt").read_text()
    result = dnsperf.parse(text, "", 0)
    (sample,) = result.samples
    assert sample.t == 1795729261.62037 and sample.values["achieved_rate"] == 2998.984682
    assert sample.values["latency_p50_ms"] == 0.032, "the second interval keeps its own percentiles, not the dropped one's"
    live = dnsperf.ADAPTER.interval_reader(0.0)
    assert [s.values for line in text.splitlines() if (s := live(line))] == [sample.values], "live samples alike"


def test_only_leading_idle_intervals_are_left_out():
    rates = [0.0, 0.4, 900.0, 0.0, 1000.0]
    read = IntervalReader(lambda line: Sample(t=float(line.split(":")[0]), values={"achieved_rate": float(line.split(":")[1])}))
    kept = [s for i, r in enumerate(rates) if (s := read(f"{1795729200 + i}.000000: {r}"))]
    assert [s.values["achieved_rate"] for s in kept] == [900.0, 0.0, 1000.0], "a stall in the middle is a measurement: kept"
