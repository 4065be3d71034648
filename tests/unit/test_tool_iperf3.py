"""iperf3 adapter: argv building and parsing of the captured iperf3 3.12 --json outputs."""

from __future__ import annotations

import json

import pytest

from kneeboard.tools import iperf3
from kneeboard.tools.base import PointSpec, ToolInputError
from tests.unit.conftest import point_spec

CAPTURED = [
    "iperf3-3.12-tcp.json",
    "iperf3-3.12-udp-P4.json",
    "iperf3-3.12-udp-P4-l1448.json",
    "iperf3-3.12-udp-P4-veth-q1.json",
    "iperf3-3.12-udp-P4-veth-q4.json",
    "iperf3-3.12-udp-P4-veth-text.txt",
    "iperf3-error-busy.json",
    "iperf3-error-refused.json",
    "iperf3-error-refused-text.stderr.txt",
]


def spec(**changes) -> PointSpec:
    """A point spec for iperf3 with defaults; `changes` override them."""
    return point_spec(dict(host="127.0.0.1", port=5201, concurrency=1, rate=None, duration_s=5, params={}), changes)


# --- build ----------------------------------------------------------------------


def test_build_tcp_unlimited(tmp_path):
    assert iperf3.build(spec(), tmp_path) == [
        "iperf3", "-c", "127.0.0.1", "-p", "5201", "-t", "5", "-P", "1", "-b", "0", "--json"]


def test_build_udp_total_rate_is_split_per_stream(tmp_path):
    argv = iperf3.build(spec(concurrency=4, rate=4e9, params={"protocol": "udp", "length": 1448,
                                                              "reverse": True}), tmp_path)
    assert argv == ["iperf3", "-c", "127.0.0.1", "-p", "5201", "-t", "5", "-P", "4",
                    "-b", "1000000000", "--json", "-u", "-R", "-l", "1448"]


def test_per_stream_bitrate_rounds():
    assert iperf3.per_stream_bitrate(3, 4) == 1
    assert iperf3.per_stream_bitrate(1e9, 3) == 333333333
    assert iperf3.per_stream_bitrate(None, 8) == 0


@pytest.mark.parametrize("changes, field", [
    ({"concurrency": 0}, "concurrency"),
    ({"concurrency": 129}, "concurrency"),
    ({"rate": 0}, "rate"),
    ({"rate": -5.0}, "rate"),
    ({"rate": float("nan")}, "rate"),
    ({"rate": 1, "concurrency": 4}, "rate"),  # < 1 bit/s per stream
    ({"rate": "1G"}, "rate"),
    ({"duration_s": 0}, "duration_s"),
    ({"duration_s": 2.5}, "duration_s"),
    ({"host": "-R"}, "host"),
    ({"host": "a..b"}, "host"),
    ({"port": -1}, "port"),
    ({"params": {"protocol": "sctp"}}, "params.protocol"),
    ({"params": {"reverse": "yes"}}, "params.reverse"),
    ({"params": {"reverse": 1}}, "params.reverse"),
    ({"params": {"protocol": "udp", "length": 65508}}, "params.length"),
    ({"params": {"length": 8}}, "params.length"),
    ({"params": {"logfile": "/etc/passwd"}}, "params.logfile"),
])
def test_build_refuses_bad_input_naming_the_field(tmp_path, changes, field):
    with pytest.raises(ToolInputError, match=rf"^{field.replace('.', '[.]')}:"):
        iperf3.build(spec(**changes), tmp_path)


# --- parse ----------------------------------------------------------------------


def test_parse_tcp(read):
    result = iperf3.parse(read("iperf3-3.12-tcp.json"), "", 0)
    assert result.error is None
    assert result.parser_version == iperf3.PARSER_VERSION
    assert result.metrics == {"throughput_bps": 34425139745.06864,
                              "achieved_rate": 34425139745.06864, "retransmits": 104}
    extra = result.extra
    assert extra["sender_bps"] == 34425394480.35293
    assert extra["receiver_bps"] == 34425139745.06864
    assert extra["cpu_host_total_pct"] == 99.36889698765673
    assert extra["cpu_remote_total_pct"] == 44.82280024982696
    assert (extra["protocol"], extra["streams"], extra["blksize"]) == ("tcp", 1, 131072)
    assert extra["version"] == "3.12"
    assert extra["offered_bps"] is None  # no -b: unlimited
    assert extra["truncated"] is False


def test_parse_tcp_interval_samples(read):
    samples = iperf3.parse(read("iperf3-3.12-tcp.json"), "", 0).samples
    assert len(samples) == 5
    assert samples[0].t == pytest.approx(1795267758 + 1.000459)
    assert samples[0].series == "point"
    assert samples[0].values["throughput_bps"] == 28550107003.80579
    assert samples[0].values["retransmits"] == 6
    assert samples[3].values["retransmits"] == 35


def test_parse_udp_uses_the_receiver(read):
    result = iperf3.parse(read("iperf3-3.12-udp-P4.json"), "", 0)
    m = result.metrics
    assert m["throughput_bps"] == 3996393900.5469  # sum_received, not sum / sum_sent
    assert m["achieved_rate"] == m["throughput_bps"]
    assert m["lost"] == 56
    assert m["sent"] == 76284
    assert m["completed"] == 76284 - 56
    assert m["loss_pct"] == 0.0734098893608096
    assert m["jitter_ms"] == 0.015334409040582987  # sum_sent says 0
    assert "retransmits" not in m
    assert result.extra["sender_bps"] == 3999367396.78637
    assert result.extra["blksize"] == 32768
    assert result.extra["streams"] == 4
    assert result.extra["offered_bps"] == 4e9  # -b 1G is per stream


def test_parse_udp_interval_samples(read):
    samples = iperf3.parse(read("iperf3-3.12-udp-P4.json"), "", 0).samples
    assert len(samples) == 5
    assert samples[0].t == pytest.approx(1795267765 + 1.000119)
    assert samples[0].values["packets"] == 15248
    assert samples[-1].values["throughput_bps"] == 4000189641.5829153


def test_parse_udp_1448(read):
    result = iperf3.parse(read("iperf3-3.12-udp-P4-l1448.json"), "", 0)
    assert result.metrics["throughput_bps"] == 2992228099.206611
    assert result.metrics["lost"] == 3655
    assert result.metrics["sent"] == 1295208
    assert result.metrics["loss_pct"] == 0.28219405686190946
    assert result.extra["blksize"] == 1448
    assert result.extra["cpu_host_total_pct"] == 99.60212183026758


@pytest.mark.parametrize("name, bps, lost", [
    ("iperf3-3.12-udp-P4-veth-q1.json", 2908304406.677696, 4129),
    ("iperf3-3.12-udp-P4-veth-q4.json", 2625351245.266838, 3555),
])
def test_parse_udp_veth(read, name, bps, lost):
    result = iperf3.parse(read(name), "", 0)
    assert result.metrics["throughput_bps"] == bps
    assert result.metrics["lost"] == lost


@pytest.mark.parametrize("name, message", [
    ("iperf3-error-refused.json", "iperf3: unable to connect to server: Connection refused"),
    ("iperf3-error-busy.json", "iperf3: the server is busy running a test. try again later"),
])
def test_parse_error_with_exit_code_zero(read, name, message):
    result = iperf3.parse(read(name), "", 0)
    assert result.error == message
    assert result.metrics == {}
    assert result.samples == []
    assert result.extra["version"] == "3.12"


def test_parse_text_mode_refused_from_stderr(read):
    result = iperf3.parse("", read("iperf3-error-refused-text.stderr.txt"), 1)
    assert result.error == "iperf3: error - unable to connect to server: Connection refused"


def test_parse_text_report_is_an_error(read):
    result = iperf3.parse(read("iperf3-3.12-udp-P4-veth-text.txt"), "", 0)
    assert result.error == "iperf3: output is not a JSON report (was --json given?)"


def interrupted_report(read) -> str:
    """Shape seen from iperf3 3.12 --json on SIGTERM (rc 1): JSON still printed, receiver zeros."""
    report = json.loads(read("iperf3-3.12-udp-P4.json"))
    report["intervals"] = report["intervals"][:2]
    for key in ("bytes", "bits_per_second", "jitter_ms", "lost_packets", "packets", "lost_percent"):
        report["end"]["sum_received"][key] = 0
    report["error"] = "interrupt - the client has terminated"
    return json.dumps(report)


def test_parse_interrupted_client_keeps_sender_figures_but_no_receiver_zeros(read):
    result = iperf3.parse(interrupted_report(read), "", 1)
    assert result.error == "iperf3: interrupt - the client has terminated"
    assert result.metrics["throughput_bps"] is None
    assert result.metrics["loss_pct"] is None
    assert result.metrics["sent"] == 76284
    assert result.extra["receiver_bps"] is None
    assert result.extra["sender_bps"] == 3999367396.78637
    assert len(result.samples) == 2


def test_parse_skips_noise_before_the_json(read):
    result = iperf3.parse("warning: something\n" + read("iperf3-3.12-tcp.json"), "", 0)
    assert result.metrics["retransmits"] == 104


def test_parse_report_without_end_is_an_error(read):
    report = json.loads(read("iperf3-3.12-tcp.json"))
    del report["end"]
    result = iperf3.parse(json.dumps(report), "", 0)
    assert result.error == "iperf3: the report has no end summary"
    assert len(result.samples) == 5


def test_parse_salvages_a_capture_with_its_middle_dropped(read):
    """The runner keeps head and tail of long output; iperf3's summary is in the tail."""
    lines = read("iperf3-3.12-udp-P4.json").splitlines(keepends=True)
    text = "".join(lines[:250]) + "[kneeboard: 63 lines omitted]\n" + "".join(lines[-120:])
    result = iperf3.parse(text, "", 0)
    assert result.error is None
    assert result.extra["truncated"] is True
    assert result.metrics["throughput_bps"] == 3996393900.5469
    assert result.metrics["loss_pct"] == 0.0734098893608096
    assert result.extra["streams"] == 4
    assert len(result.samples) == 3  # the intervals still complete in the head


def test_parse_cut_before_the_end_keeps_the_intervals(read):
    lines = read("iperf3-3.12-udp-P4.json").splitlines(keepends=True)
    result = iperf3.parse("".join(lines[:200]), "", -9)
    assert result.error == "iperf3: the report has no end summary"
    assert result.metrics == {}
    assert len(result.samples) == 2


@pytest.mark.parametrize("name", CAPTURED)
def test_parse_never_raises_on_truncated_output(read, name):
    text = read(name)
    for cut in range(0, len(text), 11):
        result = iperf3.parse(text[:cut], "", 0)
        assert result.error is not None or result.metrics


@pytest.mark.parametrize("garbage", ["\x00\xff", "{", "[]", '{"end": 5, "intervals": "x"}',
                                     '{"start": [], "end": {"sum_received": []}}',
                                     '{"intervals": [{"sum": {"end": "x"}}, 7], '
                                     '"start": {"timestamp": {"timesecs": 1}}}'])
def test_parse_garbage_is_an_error_not_an_exception(garbage):
    result = iperf3.parse(garbage, "", 0)
    assert result.error is not None
    assert result.samples == []


def test_parse_line_is_never_live():
    assert iperf3.ADAPTER.parse_interval('\t"intervals":\t[{') is None


def test_version():
    assert iperf3.ADAPTER.version_argv == ["iperf3", "--version"]
    assert iperf3.parse_version("iperf 3.12 (cJSON 1.7.15)\nLinux vm 6.18\n") == "3.12"
    assert iperf3.parse_version("iperf3: command not found") is None
