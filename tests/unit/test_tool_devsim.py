"""devsim's ack-latency histograms: the stored ones give the percentiles of the raw ack latencies of a known run.

The runs (commands in the .cmd beside each fixture) used devsim's hidden, test-only `--raw-latencies`, which prints
every ack latency in µs on stderr at the end; the adapter never passes it.
"""

from __future__ import annotations

import json

import pytest

from kneeboard.analysis import hdr
from kneeboard.tools import devsim
from kneeboard.tools.base import PointSpec
from tests.support.latency import assert_same_percentiles, counted

ONE_PROCESS, TWO_PROCESSES = "devsim-run-d20-r200-hdr", "devsim-run-d40-r400-procs2-hdr"


def run(read, name: str):
    """(stdout, stderr, parsed result) of one captured run."""
    stdout, stderr = read(f"{name}.ndjson"), read(f"{name}.stderr.txt")
    return stdout, stderr, devsim.parse(stdout, stderr, 0)


def raw_latencies(stderr: str) -> list[int]:
    """Every ack latency (µs) the run's processes printed under --raw-latencies."""
    return [us for line in stderr.splitlines() if line.startswith('{"raw_ack_us"') for us in json.loads(line)["raw_ack_us"]]


@pytest.mark.parametrize("name, processes, acks", [(ONE_PROCESS, 1, 598), (TWO_PROCESSES, 2, 1199)])
def test_the_stored_histogram_gives_the_percentiles_of_the_raw_ack_latencies(read, name, processes, acks):
    """With --procs 2 the parent decoded, merged and encoded again its children's histograms: still exact."""
    _, stderr, result = run(read, name)
    assert stderr.count('{"raw_ack_us"') == processes
    raw = raw_latencies(stderr)
    histogram = hdr.decode(result.extra["hdr"])
    assert len(raw) == histogram.get_total_count() == result.metrics["completed"] == acks
    assert_same_percentiles(histogram, counted(raw))
    assert {k: result.metrics[k] for k in hdr.PERCENTILES} == hdr.percentiles_ms(histogram), "devsim's own figures agree"
    assert result.metrics["latency_max_ms"] == max(raw) / 1000  # the max stays exact


@pytest.mark.parametrize("name", [ONE_PROCESS, TWO_PROCESSES])
def test_each_reporting_interval_stores_its_histogram_and_samples_carry_its_percentiles(read, name):
    stdout, _, result = run(read, name)
    lines = [json.loads(line) for line in stdout.splitlines()[:-1]]
    reporting = [line for line in lines if line["phase"] == "report"]
    assert [t for t, _ in result.extra["hdr_intervals"]] == [line["t"] for line in reporting] == [s.t for s in result.samples]
    assert all("hdr" not in line for line in lines if line["phase"] != "report")
    for (_, encoded), line, sample in zip(result.extra["hdr_intervals"], reporting, result.samples):
        histogram = hdr.decode(encoded)
        assert histogram.get_total_count() == line["acked"]
        assert {k: sample.values[k] for k in hdr.PERCENTILES} == hdr.percentiles_ms(histogram)
    assert sum(hdr.decode(h).get_total_count() for _, h in result.extra["hdr_intervals"]) <= result.metrics["completed"]


def test_output_of_an_older_devsim_has_no_histogram(read):
    _, _, result = run(read, "devsim-run-d20-r200")
    assert result.error is None and "hdr" not in result.extra and "hdr_intervals" not in result.extra
    assert result.metrics["latency_p99_ms"] == 0.976 and result.metrics["latency_p999_ms"] is None


def test_no_ack_no_percentile(read):
    _, _, result = run(read, "devsim-run-refused")
    assert all(result.metrics[k] is None for k in hdr.PERCENTILES)
    assert all(s.values[k] is None for s in result.samples for k in hdr.PERCENTILES)


def test_the_adapter_never_asks_for_raw_latencies(tmp_path):
    argv = devsim.build(PointSpec("127.0.0.1", 17911, 10, 100.0, 2, {}), tmp_path)
    assert "--raw-latencies" not in argv and argv[1] == "run"


def test_the_percentile_metrics_are_declared():
    declared = {m.name for m in devsim.ADAPTER.metrics}
    assert set(hdr.PERCENTILES) <= declared
