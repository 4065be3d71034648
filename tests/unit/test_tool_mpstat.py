"""mpstat adapter: argv/env building and parsing of the captured sysstat 12.6 JSON outputs."""

from __future__ import annotations

import datetime as dt

import pytest

from kneeboard.tools import mpstat
from kneeboard.tools.base import PointSpec, ToolInputError
from tests.unit.conftest import point_spec

CAPTURED = [
    "mpstat-12.6-json.json",
    "mpstat-12.6-json-veth-q4.json",
    "mpstat-12.6-json-veth-q4-rps3.json",
    "mpstat-12.6-json-veth-q1-threaded-napi.json",
    "mpstat-12.6-json-sigint.json",
    "mpstat-12.6-json-truncated-sigterm.json",
    "mpstat-12.6-text.txt",
]


def spec(**changes) -> PointSpec:
    """A point spec for mpstat with defaults; `changes` override them."""
    return point_spec(dict(host="127.0.0.1", port=0, concurrency=1, rate=None, duration_s=10, params={}), changes)


def utc(text: str) -> float:
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.timezone.utc).timestamp()


def by_series(samples, series):
    return [s for s in samples if s.series == series]


# --- build ----------------------------------------------------------------------


def test_build_covers_the_duration(tmp_path):
    assert mpstat.build(spec(), tmp_path) == ["mpstat", "-P", "ALL", "-o", "JSON", "1", "10"]
    assert mpstat.build(spec(duration_s=2.5), tmp_path)[-1] == "3"
    assert mpstat.build(spec(params={"interval_s": 2}), tmp_path)[-2:] == ["2", "5"]


def test_build_env_makes_dates_iso_and_clock_utc():
    assert mpstat.build_env() == {"S_TIME_FORMAT": "ISO", "TZ": "UTC", "LC_ALL": "C"}


@pytest.mark.parametrize("changes, field", [
    ({"duration_s": 0}, "duration_s"),
    ({"duration_s": None}, "duration_s"),
    ({"params": {"interval_s": 0}}, "params.interval_s"),
    ({"params": {"interval_s": "1"}}, "params.interval_s"),
    ({"params": {"cpus": "ALL"}}, "params.cpus"),
])
def test_build_refuses_bad_input_naming_the_field(tmp_path, changes, field):
    with pytest.raises(ToolInputError, match=rf"^{field.replace('.', '[.]')}:"):
        mpstat.build(spec(**changes), tmp_path)


# --- parse ----------------------------------------------------------------------


def test_parse_one_sample_per_cpu_per_interval(read):
    result = mpstat.parse(read("mpstat-12.6-json.json"), "", 0)
    assert result.error is None
    assert result.metrics == {}
    assert result.parser_version == mpstat.PARSER_VERSION
    assert len(result.samples) == 8 * 3
    assert {s.series for s in result.samples} == {"mpstat.all", "mpstat.cpu0", "mpstat.cpu1"}
    cpu1 = by_series(result.samples, "mpstat.cpu1")
    assert cpu1[0].t == utc("2026-11-21T13:31:19")
    assert cpu1[1].t == utc("2026-11-21T13:31:20")
    assert cpu1[1].values == {"usr": 3.06, "sys": 51.02, "irq": 0.0, "soft": 45.92, "idle": 0.0,
                              "iowait": 0.0, "steal": 0.0}
    assert result.extra["intervals"] == 8
    assert result.extra["cpus"] == 2
    assert result.extra["nodename"] == "vm"
    assert result.extra["truncated"] is False


def test_parse_summary_extras(read):
    extra = mpstat.parse(read("mpstat-12.6-json.json"), "", 0).extra
    assert extra["cpu_max_soft_pct"] == 50.0  # cpu1 at 13:31:23
    assert extra["cpu_max_sys_pct"] == 60.0
    assert extra["cpu_max_busy_pct"] == 100.0  # cpu1 idle 0.00
    assert extra["all_avg_soft_pct"] == pytest.approx(122.86 / 8)
    assert extra["cpu_max_steal_pct"] == 1.28


def test_parse_rps_spreads_soft_over_both_cpus(read):
    result = mpstat.parse(read("mpstat-12.6-json-veth-q4-rps3.json"), "", 0)
    assert result.extra["cpu_max_soft_pct"] == 67.37
    assert max(s.values["soft"] for s in by_series(result.samples, "mpstat.cpu1")) == 44.55


def test_parse_q4_without_rps_keeps_soft_on_one_cpu(read):
    result = mpstat.parse(read("mpstat-12.6-json-veth-q4.json"), "", 0)
    assert max(s.values["soft"] for s in by_series(result.samples, "mpstat.cpu0")) == 0.0
    assert result.extra["cpu_max_soft_pct"] == 52.0


def test_parse_threaded_napi_shows_as_sys(read):
    extra = mpstat.parse(read("mpstat-12.6-json-veth-q1-threaded-napi.json"), "", 0).extra
    assert extra["cpu_max_sys_pct"] == 97.03
    assert extra["cpu_max_soft_pct"] == 17.17


def test_parse_sigint_output_is_valid_with_two_samples_per_cpu(read):
    result = mpstat.parse(read("mpstat-12.6-json-sigint.json"), "", 0)
    assert result.error is None
    for series in ("mpstat.all", "mpstat.cpu0", "mpstat.cpu1"):
        assert [s.t for s in by_series(result.samples, series)] == [
            utc("2026-11-21T13:29:53"), utc("2026-11-21T13:29:54")]


def test_parse_salvages_json_truncated_by_sigterm(read):
    result = mpstat.parse(read("mpstat-12.6-json-truncated-sigterm.json"), "", -15)
    assert result.error is None
    assert result.extra["truncated"] is True
    assert result.extra["cpus"] == 2
    assert len(result.samples) == 6
    cpu1 = by_series(result.samples, "mpstat.cpu1")
    assert [s.t for s in cpu1] == [utc("2026-11-21T13:29:51"), utc("2026-11-21T13:29:52")]
    assert cpu1[1].values["sys"] == 1.0


def test_parse_truncated_inside_the_first_interval_is_an_error(read):
    text = read("mpstat-12.6-json-truncated-sigterm.json")
    cut = text.index('"timestamp": "13:29:52"') - 200
    assert mpstat.parse(text[:cut], "", -15).error == "mpstat: no complete interval in the output"


def test_parse_truncated_keeps_only_complete_intervals(read):
    text = read("mpstat-12.6-json.json")
    cut = text.index('"timestamp": "13:31:22"') + 100
    result = mpstat.parse(text[:cut], "", -15)
    assert len(result.samples) == 3 * 3
    assert result.extra["intervals"] == 3


def test_parse_iso_date(read):
    text = read("mpstat-12.6-json-sigint.json").replace('"11/21/26"', '"2026-11-21"')
    assert mpstat.parse(text, "", 0).samples[0].t == utc("2026-11-21T13:29:53")


def test_parse_twelve_hour_clock(read):
    text = read("mpstat-12.6-json-sigint.json").replace('"13:29:53"', '"01:29:53 PM"')
    assert mpstat.parse(text, "", 0).samples[0].t == utc("2026-11-21T13:29:53")


def test_parse_midnight_rollover(read):
    text = read("mpstat-12.6-json-sigint.json") \
        .replace('"13:29:53"', '"23:59:59"').replace('"13:29:54"', '"00:00:00"')
    times = [s.t for s in by_series(mpstat.parse(text, "", 0).samples, "mpstat.all")]
    assert times == [utc("2026-11-21T23:59:59"), utc("2026-11-22T00:00:00")]


def test_parse_unreadable_date_is_an_error(read):
    text = read("mpstat-12.6-json-sigint.json").replace('"11/21/26"', '"21.11.2026"')
    assert mpstat.parse(text, "", 0).error == \
        "mpstat: unreadable date '21.11.2026' (expected S_TIME_FORMAT=ISO)"


def test_parse_text_output_is_an_error(read):
    result = mpstat.parse(read("mpstat-12.6-text.txt"), "", 0)
    assert result.error == "mpstat: output is not mpstat JSON (was -o JSON given?)"


def test_parse_no_output_uses_stderr():
    result = mpstat.parse("", "mpstat: invalid option -- 'x'\n", 1)
    assert result.error == "mpstat: invalid option -- 'x'"


@pytest.mark.parametrize("name", CAPTURED)
def test_parse_never_raises_on_truncated_output(read, name):
    text = read(name)
    for cut in range(0, len(text), 13):
        result = mpstat.parse(text[:cut], "", 0)
        assert result.error is not None or result.samples


@pytest.mark.parametrize("garbage", ["\x00\xff", "{", '{"sysstat": 1}', '{"sysstat": {"hosts": [7]}}',
                                     '"statistics": [ {"timestamp": 5, "cpu-load": "x"}, ',
                                     '{"sysstat": {"hosts": [{"date": "2026-01-01", "statistics": '
                                     '[{"timestamp": "10:00:00", "cpu-load": [1, {"cpu": "all"}]}]}]}}'])
def test_parse_garbage_is_an_error_not_an_exception(garbage):
    result = mpstat.parse(garbage, "", 0)
    assert result.error is not None
    assert result.samples == []


def test_parse_line_is_never_live():
    assert mpstat.ADAPTER.parse_interval('{"cpu": "all", "usr": 0.00}') is None


def test_version():
    assert mpstat.ADAPTER.version_argv == ["mpstat", "-V"]
    assert mpstat.parse_version("sysstat version 12.6.1\n(C) Sebastien Godard\n") == "12.6.1"
    assert mpstat.parse_version("") is None
