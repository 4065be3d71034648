"""wrk adapter: argv building and parsing of the captured wrk 4.1 outputs."""

from __future__ import annotations

import json

import pytest

from kneeboard.analysis import hdr
from kneeboard.tools import units, wrk
from kneeboard.tools.base import PointSpec, ToolInputError
from tests.support.latency import assert_same_percentiles
from tests.unit.conftest import point_spec

CAPTURED = [
    "wrk-4.1-latency.txt",
    "wrk-4.1-latency-c10.txt",
    "wrk-4.1-latency-c200.txt",
    "wrk-4.1-non2xx-404.txt",
    "wrk-4.1-refused.stderr.txt",
    "wrk-4.1-seconds-units.txt",
    "wrk-4.1-timeouts.txt",
    "wrk-lua-json.txt",
    "wrk-lua-json-c10.txt",
    "wrk-lua-json-c200.txt",
    "wrk-4.1-dist-c10.txt",  # (its c200 sibling's 88 kB would take a minute here)
    "wrk-4.1-dist-no-samples.txt",
]
DISTRIBUTIONS = ["wrk-4.1-dist-c10.txt", "wrk-4.1-dist-c200.txt"]  # Kneeboard's report.lua, command in the .cmd beside each
MB = 2**20


def spec(**changes) -> PointSpec:
    """A point spec for wrk with defaults; `changes` override them."""
    defaults = dict(host="127.0.0.1", port=8080, concurrency=50, rate=None, duration_s=10, params={"path": "/index.html"})
    return point_spec(defaults, changes)


# --- build ----------------------------------------------------------------------


def test_build_argv_and_copies_the_report_script(tmp_path):
    argv = wrk.build(spec(), tmp_path)
    script = tmp_path / "wrk_report.lua"
    assert argv == ["wrk", "-t", "2", "-c", "50", "-d", "10s", "--timeout", "2s", "--latency",
                    "-s", str(script), "http://127.0.0.1:8080/index.html"]
    assert script.read_bytes() == wrk.REPORT_SCRIPT.read_bytes()


def test_build_threads_default_to_at_most_connections(tmp_path):
    argv = wrk.build(spec(concurrency=1), tmp_path)
    assert argv[1:5] == ["-t", "1", "-c", "1"]


def test_build_explicit_threads_timeout_scheme_and_ipv6(tmp_path):
    argv = wrk.build(spec(host="::1", params={"threads": 4, "timeout_s": 5, "scheme": "https"}),
                     tmp_path)
    assert argv[1:3] == ["-t", "4"]
    assert argv[7:9] == ["--timeout", "5s"]
    assert argv[-1] == "https://[::1]:8080/"


@pytest.mark.parametrize("changes, field", [
    ({"rate": 1000.0}, "rate"),
    ({"concurrency": 0}, "concurrency"),
    ({"concurrency": True}, "concurrency"),
    ({"duration_s": 10.5}, "duration_s"),
    ({"duration_s": 0}, "duration_s"),
    ({"port": 0}, "port"),
    ({"port": 65536}, "port"),
    ({"host": "-oProxyCommand=x"}, "host"),
    ({"host": "bad host"}, "host"),
    ({"host": ""}, "host"),
    ({"params": {"path": "index.html"}}, "params.path"),
    ({"params": {"path": "/a b"}}, "params.path"),
    ({"params": {"path": "-/x"}}, "params.path"),
    ({"params": {"threads": 51}}, "params.threads"),
    ({"params": {"threads": "2"}}, "params.threads"),
    ({"params": {"timeout_s": 0}}, "params.timeout_s"),
    ({"params": {"scheme": "ftp"}}, "params.scheme"),
    ({"params": {"script": "/tmp/evil.lua"}}, "params.script"),
])
def test_build_refuses_bad_input_naming_the_field(tmp_path, changes, field):
    with pytest.raises(ToolInputError, match=rf"^{field.replace('.', '[.]')}:"):
        wrk.build(spec(**changes), tmp_path)


# --- parse: text report only ----------------------------------------------------


def test_parse_latency_report(read):
    result = wrk.parse(read("wrk-4.1-latency.txt"), "", 0)
    m = result.metrics
    assert result.error is None
    assert result.parser_version == wrk.PARSER_VERSION
    assert m["achieved_rate"] == 84457.63
    assert m["completed"] == 845690
    assert m["latency_avg_ms"] == pytest.approx(0.97)
    assert m["latency_stddev_ms"] == pytest.approx(1.15)
    assert m["latency_max_ms"] == pytest.approx(8.33)
    assert m["latency_p50_ms"] == pytest.approx(0.321)
    assert m["latency_p75_ms"] == pytest.approx(1.26)
    assert m["latency_p90_ms"] == pytest.approx(3.00)
    assert m["latency_p99_ms"] == pytest.approx(4.31)
    assert m["latency_p999_ms"] is None  # --latency prints no 99.9 %
    assert m["errors"] == 0
    assert m["throughput_bps"] == pytest.approx(66.69 * MB * 8)
    assert result.extra["bytes"] == pytest.approx(667.79 * MB)  # binary multiples printed as "MB"
    assert result.extra["duration_s"] == pytest.approx(10.01)
    assert (result.extra["threads"], result.extra["connections"]) == (2, 50)
    assert result.extra["report_script"] is False


def test_parse_mixed_us_and_ms_and_decimal_k(read):
    result = wrk.parse(read("wrk-4.1-latency-c10.txt"), "", 0)
    assert result.metrics["latency_avg_ms"] == pytest.approx(0.15964)
    assert result.metrics["latency_stddev_ms"] == pytest.approx(0.33231)
    assert result.metrics["latency_max_ms"] == pytest.approx(5.34)
    assert result.metrics["latency_p50_ms"] == pytest.approx(0.122)
    assert result.metrics["latency_p99_ms"] == pytest.approx(2.01)
    assert result.extra["thread_rps"] == pytest.approx({"avg": 44350, "stdev": 10380, "max": 60560})


def test_parse_c200(read):
    result = wrk.parse(read("wrk-4.1-latency-c200.txt"), "", 0)
    assert result.metrics["achieved_rate"] == 96195.10
    assert result.metrics["completed"] == 965180
    assert result.metrics["latency_p50_ms"] == pytest.approx(1.82)
    assert result.extra["duration_s"] == pytest.approx(10.03)


def without_json_line(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("{"))


def test_parse_seconds_units_with_trailing_space(read):
    result = wrk.parse(without_json_line(read("wrk-4.1-seconds-units.txt")), "", 0)
    assert result.metrics["latency_avg_ms"] == pytest.approx(3000.0)
    assert result.metrics["latency_stddev_ms"] == pytest.approx(0.08273)
    assert result.metrics["latency_p50_ms"] == pytest.approx(3000.0)
    assert result.metrics["latency_p99_ms"] == pytest.approx(3000.0)
    assert result.metrics["achieved_rate"] == 1.00
    assert result.extra["threads"] == 1  # "1 threads"
    assert result.extra["thread_rps"]["avg"] == 1.0
    assert result.metrics["throughput_bps"] == pytest.approx(4.13 * 1024 * 8)


def test_parse_timeouts_text_only_gives_no_latency_for_nan(read):
    result = wrk.parse(without_json_line(read("wrk-4.1-timeouts.txt")), "", 0)
    assert result.metrics["latency_avg_ms"] is None  # "0.00us … -nan%": no samples, not 0 ms
    assert result.metrics["latency_p50_ms"] is None
    assert result.extra["socket_errors"] == {"connect": 0, "read": 0, "write": 0, "timeout": 4}
    assert result.metrics["errors"] == 4
    assert result.metrics["completed"] == 4  # timed-out requests still count as requests


# --- parse: with the JSON line --------------------------------------------------


def test_parse_json_line_wins_for_latency_and_text_fills_p75(read):
    result = wrk.parse(read("wrk-lua-json.txt"), "", 0)
    m = result.metrics
    assert m["achieved_rate"] == 101303.546
    assert m["completed"] == 1013388
    assert m["latency_avg_ms"] == pytest.approx(0.479212)
    assert m["latency_min_ms"] == pytest.approx(0.015)
    assert m["latency_max_ms"] == pytest.approx(9.688)
    assert m["latency_p50_ms"] == pytest.approx(0.541)
    assert m["latency_p90_ms"] == pytest.approx(0.598)
    assert m["latency_p99_ms"] == pytest.approx(0.829)
    assert m["latency_p999_ms"] == pytest.approx(2.665)
    assert m["latency_p75_ms"] == pytest.approx(0.569)  # not in that JSON: from "75%  569.00us"
    assert m["throughput_bps"] == pytest.approx(839085264 * 8 / 10.003)
    assert result.extra["bytes"] == 839085264
    assert result.extra["duration_s"] == 10.003
    assert result.extra["report_script"] is True


@pytest.mark.parametrize("name, rps, p999", [
    ("wrk-lua-json-c10.txt", 82254.533, 5.367),
    ("wrk-lua-json-c200.txt", 94375.641, 8.075),
])
def test_parse_json_line_other_concurrencies(read, name, rps, p999):
    result = wrk.parse(read(name), "", 0)
    assert result.metrics["achieved_rate"] == rps
    assert result.metrics["latency_p999_ms"] == pytest.approx(p999)


def test_parse_non_2xx_counts_as_errors(read):
    result = wrk.parse(read("wrk-4.1-non2xx-404.txt"), "", 0)
    assert result.error is None
    assert result.metrics["errors"] == 334107
    assert result.extra["non_2xx_3xx"] == 334107
    assert result.metrics["completed"] == 334107


def test_parse_non_2xx_from_text_when_no_json(read):
    result = wrk.parse(without_json_line(read("wrk-4.1-non2xx-404.txt")), "", 0)
    assert result.extra["non_2xx_3xx"] == 334107
    assert result.metrics["errors"] == 334107


def test_parse_seconds_units_json_figures(read):
    result = wrk.parse(read("wrk-4.1-seconds-units.txt"), "", 0)
    assert result.metrics["latency_avg_ms"] == pytest.approx(3003.69025)
    assert result.metrics["latency_p50_ms"] == pytest.approx(3003.744)
    assert result.metrics["achieved_rate"] == 0.998


def test_parse_timeouts_json_null_latency(read):
    result = wrk.parse(read("wrk-4.1-timeouts.txt"), "", 0)
    assert result.error is None
    for name in ("latency_avg_ms", "latency_min_ms", "latency_max_ms", "latency_p50_ms",
                 "latency_p75_ms", "latency_p999_ms", "latency_stddev_ms"):
        assert result.metrics[name] is None, name
    assert result.metrics["errors"] == 4
    assert result.extra["socket_errors"]["timeout"] == 4


def test_parse_takes_the_last_json_line(read):
    text = read("wrk-lua-json.txt").replace('"rps":101303.546', '"rps":1.5') \
        + read("wrk-lua-json.txt").splitlines()[-1] + "\n"
    assert wrk.parse(text, "", 0).metrics["achieved_rate"] == 101303.546


def test_parse_own_script_json_with_p75(read):
    line = ('{"duration_s":2.0,"requests":10,"bytes":1000,"rps":5.0,"errors":{"connect":1,"read":2,'
            '"write":0,"status":3,"timeout":0},"errors_total":6,"latency_us":{"min":100.000,'
            '"max":900.000,"mean":300.000,"stdev":50.000,"p50":250.000,"p75":400.000,'
            '"p90":600.000,"p99":800.000,"p99_9":900.000}}')
    result = wrk.parse(read("wrk-4.1-latency.txt") + line + "\n", "", 0)
    assert result.metrics["latency_p75_ms"] == pytest.approx(0.4)
    assert result.metrics["errors"] == 6
    assert result.extra["socket_errors"] == {"connect": 1, "read": 2, "write": 0, "timeout": 0}
    assert result.metrics["throughput_bps"] == pytest.approx(4000.0)


def test_parse_raw_lua_latency_without_samples_is_none(read):
    """A script printing wrk's raw figures: min = UINT64_MAX and percentiles 0 when no sample."""
    line = ('{"requests":4,"duration_s":5.0,"bytes":100,"errors":{"connect":0,"read":0,"write":0,'
            '"status":0,"timeout":4},"latency_us":{"min":1.844674407371e+19,"max":0,"mean":0,'
            '"stdev":0,"p50":0,"p90":0,"p99":0,"p99_9":0}}')
    result = wrk.parse(read("wrk-4.1-timeouts.txt") + line + "\n", "", 0)
    assert result.metrics["latency_min_ms"] is None
    assert result.metrics["latency_p50_ms"] is None
    assert result.metrics["latency_avg_ms"] is None


# --- the latency distribution and its HDR histogram ------------------------------


@pytest.mark.parametrize("name", DISTRIBUTIONS)
def test_the_stored_histogram_gives_the_percentiles_of_the_raw_latencies(read, name):
    """wrk's µs buckets are the run's raw latencies (at wrk's resolution): the stored histogram's
    percentiles follow HDR's rank rule over them, and come close to wrk's own figures."""
    text = read(name)
    lua = json.loads(text.splitlines()[-1])
    result = wrk.parse(text, "", 0)
    histogram = hdr.decode(result.extra["hdr"])
    assert lua["latency_dist_complete"] is True and "hdr_intervals" not in result.extra
    assert_same_percentiles(histogram, [tuple(pair) for pair in lua["latency_dist_us"]])
    assert {k: result.metrics[k] for k in hdr.PERCENTILES} == hdr.percentiles_ms(histogram)
    own = {"latency_p50_ms": "p50", "latency_p90_ms": "p90", "latency_p99_ms": "p99", "latency_p999_ms": "p99_9"}
    for metric, key in own.items():  # wrk ranks with round(p·n + 0.5), HDR with int(p·n + 0.5)
        assert result.metrics[metric] == pytest.approx(lua["latency_us"][key] / 1000, rel=2e-3), metric
    assert result.metrics["latency_p75_ms"] == pytest.approx(lua["latency_us"]["p75"] / 1000, rel=2e-3)


def test_no_sample_stores_no_histogram(read):
    result = wrk.parse(read("wrk-4.1-dist-no-samples.txt"), "", 0)
    assert result.error is None and "hdr" not in result.extra
    assert all(result.metrics[k] is None for k in hdr.PERCENTILES)


def test_a_distribution_cut_short_stores_no_histogram_and_says_so(read):
    """report.lua stops listing buckets past its budget: wrk's own percentiles then, and a warning."""
    text = read("wrk-4.1-dist-c200.txt").replace('"latency_dist_complete":true', '"latency_dist_complete":false')
    result = wrk.parse(text, "", 0)
    assert "hdr" not in result.extra
    assert result.metrics["latency_p99_ms"] == 7.681  # wrk's own p99 (the histogram's is 7.683)
    assert "too wide to list in full" in result.extra["warnings"][0]


@pytest.mark.parametrize("bad", ['[[15,"3"]]', "[[15]]", "[[-1,2]]", "[7]", '"x"'])
def test_a_malformed_distribution_is_not_stored(read, bad):
    text = read("wrk-4.1-dist-c10.txt")
    start = text.index('"latency_dist_us":') + len('"latency_dist_us":')
    text = text[:start] + bad + text[text.index(',"latency_dist_complete"'):]
    result = wrk.parse(text, "", 0)
    assert result.error is None and "hdr" not in result.extra
    assert result.metrics["latency_p50_ms"] == 0.111  # wrk's own


@pytest.mark.parametrize("text, ms", [("159.64us", 0.15964), ("1.26ms", 1.26), ("3.00s", 3000.0),
                                      ("1.50m", 90_000.0), ("2.00h", 7_200_000.0), ("0.00us", 0.0),
                                      ("3ms", 3.0), ("1.0x", None), ("-nan%", None), ("", None)])
def test_wrk_time_units(text, ms):
    assert units.duration_ms(text) == (pytest.approx(ms) if ms is not None else None)


# --- failures and garbage -------------------------------------------------------


def test_parse_connection_refused(read):
    result = wrk.parse("", read("wrk-4.1-refused.stderr.txt"), 1)
    assert result.error == "wrk: unable to connect to 127.0.0.1:8099 Connection refused"
    assert result.metrics == {}


def test_parse_empty_output_without_stderr_names_exit_code():
    assert wrk.parse("", "", None).error == "wrk: no output (process did not exit normally)"
    assert wrk.parse("", "", 1).error == "wrk: no output (exit code 1)"


def test_parse_usage_text_is_an_error():
    result = wrk.parse("Usage: wrk <options> <url>\n  -c, --connections <N>\n", "", 1)
    assert result.error == "wrk: no report found in the output"


@pytest.mark.parametrize("name", CAPTURED)
def test_parse_never_raises_on_truncated_output(read, name):
    text = read(name)
    for cut in range(0, len(text), 7):
        result = wrk.parse(text[:cut], "", 0)
        assert result.error is not None or result.metrics


@pytest.mark.parametrize("garbage", ["\x00\xff{{{", "{not json\n", "{}\n", "[1,2]\n",
                                     "  1 requests in , read\n", "Requests/sec: nan\n"])
def test_parse_garbage_is_an_error_not_an_exception(garbage):
    result = wrk.parse(garbage, "", 0)
    assert result.error == "wrk: no report found in the output"


def test_parse_json_line_with_wrong_types_does_not_raise():
    line = '{"requests":"many","latency_us":{"p50":"x","mean":true},"errors":{"connect":"a"}}\n'
    result = wrk.parse(line, "", 0)
    assert result.metrics["latency_p50_ms"] is None
    assert result.metrics["completed"] is None


def test_parse_line_is_never_live():
    assert wrk.ADAPTER.parse_interval("Requests/sec:  84457.63") is None


def test_version():
    assert wrk.ADAPTER.version_argv == ["wrk", "-v"]
    text = "wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer\nUsage: wrk <options> <url>\n"
    assert wrk.parse_version(text) == "debian/4.1.0-3+b2"
    assert wrk.parse_version("command not found") is None
