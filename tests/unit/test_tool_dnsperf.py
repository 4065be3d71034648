"""dnsperf adapter: argv building and parsing of real captured output."""

from __future__ import annotations

from pathlib import Path

import pytest

from kneeboard.tools import dnsperf
from kneeboard.tools.base import PointSpec, ToolInputError
from kneeboard.tools.dnsperf import latency

CAPTURE_OFF = ("latency capture was off (params.latency_capture is false, or kblat is not built: scripts/install-deps.sh "
               "builds it): this point has no latency percentiles")


def read(fixtures_dir: Path, name: str) -> str:
    return (fixtures_dir / name).read_text()


def test_baseline_summary(fixtures_dir):
    result = dnsperf.parse(read(fixtures_dir, "dnsperf-2.10-c1-Q500.txt"), "", 0)
    assert result.error is None
    m = result.metrics
    assert m["sent"] == 5000 and m["completed"] == 5000 and m["lost"] == 0 and m["loss_pct"] == 0
    assert m["achieved_rate"] == pytest.approx(499.99035)
    assert m["latency_avg_ms"] == pytest.approx(0.038) and m["latency_min_ms"] == pytest.approx(0.013)
    assert m["latency_max_ms"] == pytest.approx(2.054) and m["latency_stddev_ms"] == pytest.approx(0.044)
    assert result.extra["rcodes"] == {"NOERROR": 5000} and "hdr" not in result.extra and m["latency_p99_ms"] is None
    assert result.extra["warnings"] == [CAPTURE_OFF], "a run without kblat says its percentiles are missing"


def test_interval_lines_become_samples(fixtures_dir):
    result = dnsperf.parse(read(fixtures_dir, "dnsperf-2.10-S1-interval.txt"), "", 0)
    assert len(result.samples) == 9
    assert result.samples[0].t == pytest.approx(1795267439.812104) and result.samples[0].values == {"achieved_rate": pytest.approx(9999.570448)}
    assert dnsperf.parse_line("1795267440.813213: 9999.910100").values["achieved_rate"] == pytest.approx(9999.9101)
    assert dnsperf.parse_line("[Status] Sending queries (to 127.0.0.1:5353)") is None


def test_everything_lost_is_a_point_error(fixtures_dir):
    result = dnsperf.parse(read(fixtures_dir, "dnsperf-2.10-lost.txt"), "", 0)
    assert result.error.startswith("no answers: 291 queries sent, all lost")
    assert result.metrics["loss_pct"] == 100 and result.metrics["latency_avg_ms"] is None and result.metrics["latency_stddev_ms"] is None
    assert result.extra["rcodes"] == {}


def test_partial_loss_is_a_warning_with_timeouts_in_stdout(fixtures_dir):
    result = dnsperf.parse(read(fixtures_dir, "dnsperf-2.10-lost-partial-rcvbuf.txt"), "", 0)
    assert result.error is None and result.metrics["lost"] == 584
    assert result.metrics["loss_pct"] == pytest.approx(584 / 1634407 * 100)
    assert result.extra["warnings"] == ["584 queries lost (0.036 %)", CAPTURE_OFF]


@pytest.mark.parametrize("stem,message", [
    ("dnsperf-2.10-error-nofile", "dnsperf exited with code 1: Error: unable to open file: /nonexistent.txt"),
    ("dnsperf-2.10-error-badarg", "dnsperf exited with code 1: invalid clients: 0"),
])  # fmt: skip
def test_dnsperf_own_errors(fixtures_dir, stem, message):
    result = dnsperf.parse(read(fixtures_dir, f"{stem}.stdout.txt"), read(fixtures_dir, f"{stem}.stderr.txt"), 1)
    assert result.error == message and result.metrics == {}


@pytest.mark.parametrize("name,rate", [
    ("dnsperf-2.10-scal-c1-Q2500.txt", 2499.957751), ("dnsperf-2.10-scal-c16-Q40000.txt", 39999.372008),
    ("dnsperf-2.10-sat-c20-Q100000.txt", 99998.84001), ("dnsperf-2.10-max-c2-noQ.txt", 171922.21689),
])  # fmt: skip
def test_series_fixtures(fixtures_dir, name, rate):
    result = dnsperf.parse(read(fixtures_dir, name), "", 0)
    assert result.error is None and result.metrics["achieved_rate"] == pytest.approx(rate)


def test_garbage_never_raises():
    for text in ("", "\x00\xff garbage", "Statistics:\n  Queries sent: lots\n", "Queries sent: 5\nQueries completed: 5\n"):
        result = dnsperf.parse(text, "", 0)
        assert result.error is not None


def test_version_and_rcodes():
    assert dnsperf.parse_version("DNS Performance Testing Tool\nVersion 2.10.0\n") == "2.10.0"
    assert dnsperf.parse_rcodes("  Response codes:       NOERROR 10 (50.00%), NXDOMAIN 10 (50.00%)\n") == {"NOERROR": 10, "NXDOMAIN": 10}


def test_build_writes_the_query_file_and_never_a_shell(tmp_path):
    spec = PointSpec(host="127.0.0.1", port=5353, concurrency=4, rate=1000.4, duration_s=2,
                     params={"names": ["www.example.lab", "h0001.example.lab"], "qtype": "AAAA", "timeout_s": 2, "latency_capture": False,
                             "max_outstanding": 250})  # fmt: skip
    argv = dnsperf.build(spec, tmp_path)
    assert argv == ["dnsperf", "-s", "127.0.0.1", "-p", "5353", "-d", str(tmp_path / "queries.txt"), "-c", "4", "-q", "250",
                    "-Q", "1000", "-l", "2", "-t", "2", "-S", "1"]  # fmt: skip
    assert (tmp_path / "queries.txt").read_text() == "www.example.lab AAAA\nh0001.example.lab AAAA\n"
    unlimited = dnsperf.build(PointSpec("::1", 53, 1, None, 1.5, {"latency_capture": False}), tmp_path)
    assert "-Q" not in unlimited and unlimited[unlimited.index("-l") + 1] == "1.5"
    assert unlimited[unlimited.index("-q") + 1] == "1000", "a plan without max_outstanding gets the default, shown in the argv"


@pytest.mark.parametrize("value", [0, 65_537, "100", 1.5])
def test_max_outstanding_keeps_dnsperfs_own_bounds(tmp_path, value):
    with pytest.raises(ToolInputError, match="max_outstanding"):
        dnsperf.build(PointSpec("127.0.0.1", 53, 1, 1000, 1, {"max_outstanding": value}), tmp_path)


@pytest.mark.parametrize("params,field", [({"names": ["-d/etc/passwd"]}, "names"), ({"names": ["a b"]}, "names"), ({"qtype": "BOGUS"}, "qtype")])
def test_build_refuses_bad_values(tmp_path, params, field):
    with pytest.raises(ToolInputError, match=field):
        dnsperf.build(PointSpec("127.0.0.1", 53, 1, None, 1, params), tmp_path)


@pytest.mark.parametrize("built,wanted", [("/opt/kb/kblat", True), (None, True), ("/opt/kb/kblat", False)])
def test_capture_adds_v_and_pipes_through_kblat_only_when_wanted_and_built(tmp_path, monkeypatch, built, wanted):
    monkeypatch.setattr(latency, "kblat", lambda: built)
    spec = PointSpec("127.0.0.1", 53, 2, 1000, 2, {"latency_capture": wanted})
    on = bool(built and wanted)
    assert (dnsperf.build(spec, tmp_path)[-1] == "-v") is on
    assert dnsperf.ADAPTER.pipe_through(spec) == (["/opt/kb/kblat"] if on else None)


def test_kblat_reports_become_percentiles_histograms_and_interval_samples(fixtures_dir):
    text = read(fixtures_dir, "kblat-dnsperf-2.10-v-c2-Q500-S1.txt")
    result = dnsperf.parse(text, "", 0)
    assert result.error is None and result.extra["warnings"] == []
    m = result.metrics
    assert (m["latency_p50_ms"], m["latency_p90_ms"], m["latency_p99_ms"], m["latency_p999_ms"]) == (0.057, 0.106, 2.011, 4.061)
    assert m["latency_avg_ms"] == pytest.approx(0.125), "dnsperf's own summary is still read"
    assert result.extra["hdr"].startswith("HISTF") and [t for t, _ in result.extra["hdr_intervals"]] == [1795432171.049615, 1795432172.049939]
    assert [s.values for s in result.samples] == [
        {"achieved_rate": 500.079536, "latency_p50_ms": 0.047, "latency_p90_ms": 0.065, "latency_p99_ms": 1.281, "latency_p999_ms": 2.671},
        {"achieved_rate": 499.838052, "latency_p50_ms": 0.054, "latency_p90_ms": 0.09, "latency_p99_ms": 0.805, "latency_p999_ms": 2.487},
    ]
    live = dnsperf.ADAPTER.interval_reader(0.0)
    assert [s.values for line in text.splitlines() if (s := live(line))] == [s.values for s in result.samples]


def test_capture_that_failed_or_lost_everything(fixtures_dir):
    raw = dnsperf.parse(read(fixtures_dir, "dnsperf-2.10-v-c2-Q500-S1.txt"), "", 0)
    assert raw.error is None and raw.extra["warnings"][0].startswith("latency capture failed: dnsperf ran with -v but kblat printed no histogram")
    lost = dnsperf.parse(read(fixtures_dir, "kblat-dnsperf-2.10-v-lost.txt"), "", 0)
    assert lost.error.startswith("no answers") and lost.metrics["latency_p99_ms"] is None and lost.extra["hdr_intervals"] == []
