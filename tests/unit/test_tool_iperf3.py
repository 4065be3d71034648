"""iperf3 adapter: argv building, and reading its captured 3.12 text reports (`-f k -V --forceflush`) live and whole."""

from __future__ import annotations

import pytest

from kneeboard.tools import iperf3
from kneeboard.tools.base import PointSpec, ToolInputError
from tests.unit.conftest import point_spec

CAPTURED = [
    "iperf3-3.12-tcp-P1-fk-V.txt",
    "iperf3-3.12-tcp-P2-fk-V.txt",
    "iperf3-3.12-udp-P4-fk-V.txt",
    "iperf3-3.12-udp-P1-R-fk-V.txt",
    "iperf3-3.12-udp-P4-veth-text.txt",
    "iperf3-3.12-udp-P2-fk-V-server-output.txt",
    "iperf3-3.12-udp-P1-l1200-fk-V-server-output.txt",
    "iperf3-3.12-udp-P2-R-fk-V.txt",
    "iperf3-3.12-udp-P4-l1448-fk-V-server-output-skewed.txt",
]  # the commands of the last four are in the .cmd beside each


def spec(**changes) -> PointSpec:
    """A point spec for iperf3 with defaults; `changes` override them."""
    return point_spec(dict(host="127.0.0.1", port=5201, concurrency=1, rate=None, duration_s=5, params={}), changes)


# --- build ----------------------------------------------------------------------


def test_build_tcp_unlimited(tmp_path):
    assert iperf3.build(spec(), tmp_path) == [
        "iperf3", "-c", "127.0.0.1", "-p", "5201", "-t", "5", "-P", "1", "-b", "0", "-f", "k", "-V", "--forceflush"]


def test_build_udp_total_rate_is_split_per_stream(tmp_path):
    argv = iperf3.build(spec(concurrency=4, rate=4e9, params={"protocol": "udp", "length": 1448,
                                                              "reverse": True}), tmp_path)
    assert argv == ["iperf3", "-c", "127.0.0.1", "-p", "5201", "-t", "5", "-P", "4",
                    "-b", "1000000000", "-f", "k", "-V", "--forceflush", "-u", "-R", "-l", "1448"]


def test_build_udp_asks_for_the_servers_report_unless_the_client_receives(tmp_path):
    udp = iperf3.build(spec(params={"protocol": "udp"}), tmp_path)
    assert udp[-2:] == ["-u", "--get-server-output"]
    assert "--get-server-output" not in iperf3.build(spec(params={"protocol": "udp", "reverse": True}), tmp_path)
    assert "--get-server-output" not in iperf3.build(spec(), tmp_path)


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


# --- parse: the whole report ------------------------------------------------------


def test_parse_tcp_one_stream(read):
    result = iperf3.parse(read("iperf3-3.12-tcp-P1-fk-V.txt"), "", 0)
    assert result.error is None and result.parser_version == iperf3.PARSER_VERSION
    assert result.metrics == {"throughput_bps": 21_298_803_000.0, "achieved_rate": 21_298_803_000.0, "retransmits": 6.0}
    assert result.extra["protocol"] == "tcp" and result.extra["streams"] == 1 and result.extra["blksize"] == 131_072
    assert result.extra["sender_bps"] == 21_299_002_000.0 and result.extra["cpu_host_total_pct"] == 47.9
    assert [s.values["throughput_bps"] for s in result.samples] == [20_784_803_000.0, 23_009_018_000.0, 20_102_174_000.0]


def test_parse_tcp_streams_are_summed(read):
    result = iperf3.parse(read("iperf3-3.12-tcp-P2-fk-V.txt"), "", 0)
    assert result.metrics["throughput_bps"] == 998_042_000.0 and result.extra["streams"] == 2
    assert result.extra["offered_bps"] == 1_000_000_000.0  # 500 Mbit/s per stream
    assert len(result.samples) == 3 and all(990e6 < s.values["throughput_bps"] < 1010e6 for s in result.samples)


def test_parse_udp_reads_the_receiver(read):
    result = iperf3.parse(read("iperf3-3.12-udp-P4-fk-V.txt"), "", 0)
    m = result.metrics
    assert (m["throughput_bps"], m["sent"], m["lost"], m["completed"], m["loss_pct"], m["jitter_ms"]) == (400_167_000.0, 4580.0, 0.0, 4580.0, 0.0, 0.003)
    assert result.extra["protocol"] == "udp" and result.extra["streams"] == 4


def test_parse_udp_reverse_one_stream(read):
    result = iperf3.parse(read("iperf3-3.12-udp-P1-R-fk-V.txt"), "", 0)
    assert result.extra["reverse"] is True and result.metrics["throughput_bps"] == 50_068_000.0
    assert [s.values["jitter_ms"] for s in result.samples] == [0.875, 0.022, 0.012]  # the receiver is here: -R


def test_parse_text_without_verbose_infers_udp_and_keeps_loss(read):
    result = iperf3.parse(read("iperf3-3.12-udp-P4-veth-text.txt"), "", 0)
    m = result.metrics
    assert result.extra["protocol"] == "udp" and m["throughput_bps"] == 2.53e9
    assert (m["lost"], m["completed"]) == (3239.0, 1_096_330.0 - 3239)
    assert m["loss_pct"] == 100 * 3239 / 1_096_330  # from the counts: iperf3 prints "(0.3%)"


def test_parse_refused_names_the_reason(read):
    result = iperf3.parse(read("iperf3-3.12-refused-fk-V.stdout.txt"), read("iperf3-3.12-refused-fk-V.stderr.txt"), 1)
    assert result.error == "iperf3: unable to connect to server: Connection refused" and result.metrics == {}


def test_parse_cut_off_run_has_no_receiver_throughput(read):
    text = read("iperf3-3.12-tcp-P1-fk-V.txt").replace("21298803 Kbits/sec                  receiver", "0 Kbits/sec                  receiver")
    text = text.replace("7.44 GBytes  0 Kbits/sec", "0.00 Bytes  0 Kbits/sec")
    result = iperf3.parse(text, "", 0)
    assert result.metrics["throughput_bps"] is None and "before the server reported" in result.error


@pytest.mark.parametrize("name", CAPTURED)
def test_parse_never_raises_on_truncated_output(read, name):
    text = read(name)
    for cut in range(0, len(text), max(1, len(text) // 40)):
        iperf3.parse(text[:cut], "", None)


@pytest.mark.parametrize("garbage", ["\x00\xff", "{", "[SUM] 0.00-1.00 sec x Bytes", "[  5] 0.00-1.00 sec 1 Bytes 1 Kbits/sec receiver"])
def test_parse_garbage_is_an_error_not_an_exception(garbage):
    assert iperf3.parse(garbage, "", 0).error


# --- live: interval lines as they come -------------------------------------------------


@pytest.mark.parametrize("name, streams", [("iperf3-3.12-tcp-P1-fk-V.txt", 1), ("iperf3-3.12-tcp-P2-fk-V.txt", 2),
                                           ("iperf3-3.12-udp-P4-fk-V.txt", 4)])
def test_live_reader_gives_one_sample_per_second(read, name, streams):
    reader = iperf3.ADAPTER.interval_reader(1_000.0)
    samples = [s for line in read(name).splitlines() if (s := reader(line))]
    assert reader.streams == streams
    assert [s.t for s in samples] == [1_001.0, 1_002.0, 1_003.0]
    whole = iperf3.parse(read(name), "", 0).samples
    assert [s.values for s in samples] == [s.values for s in whole]


# --- UDP jitter and loss per interval ---------------------------------------------------


def test_the_servers_report_gives_each_interval_its_jitter_and_loss(read):
    """-P 2 at 4 Gbit/s on loopback: the server's [SUM] interval lines, matched to the client's by their start."""
    result = iperf3.parse(read("iperf3-3.12-udp-P2-fk-V-server-output.txt"), "", 0)
    got = [(s.values["jitter_ms"], s.values["lost"], s.values["datagrams"], s.values["loss_pct"]) for s in result.samples]
    assert got == [(0.013, 4485, 15246, 100 * 4485 / 15246), (0.011, 5937, 15260, 100 * 5937 / 15260),
                   (0.071, 3546, 15175, 100 * 3546 / 15175)]
    assert [s.values["count"] for s in result.samples] == [15248, 15258, 15264]  # the client's own sent datagrams stay
    m = result.metrics  # the client's summary, not the server's copy of it
    assert (m["sent"], m["lost"], m["jitter_ms"], m["throughput_bps"]) == (45770, 14029, 0.04, 2_772_999_000.0)
    assert m["lost"] == sum(s.values["lost"] for s in result.samples) + 61  # the server's late "3.00-3.00" interval matches none


def test_the_servers_report_for_one_stream(read):
    result = iperf3.parse(read("iperf3-3.12-udp-P1-l1200-fk-V-server-output.txt"), "", 0)
    assert [(s.values["jitter_ms"], s.values["datagrams"]) for s in result.samples] == [(0.015, 2083), (0.007, 2082), (0.014, 2084)]
    assert result.metrics["jitter_ms"] == 0.014 and result.extra["streams"] == 1


def test_live_samples_are_completed_in_place_at_the_end(read):
    """Live, the client's lines come first: the samples already handed out get the server's figures when its report arrives."""
    text = read("iperf3-3.12-udp-P2-fk-V-server-output.txt")
    reader = iperf3.ADAPTER.interval_reader(1_000.0)
    before_server, kept = text.split("Server output:")[0], []
    for line in text.splitlines():
        sample = reader(line)
        if sample is not None:
            assert "jitter_ms" not in sample.values and before_server.count(line) == 1
            kept.append(sample)
    assert reader.streams == 2 and [s.t for s in kept] == [1_001.0, 1_002.0, 1_003.0]
    assert [s.values for s in kept] == [s.values for s in iperf3.parse(text, "", 0).samples]
    assert all("jitter_ms" in s.values for s in kept)


def test_the_servers_report_matches_intervals_its_own_timer_ended_apart(read):
    """The client printed 0.00-1.01 and 1.01-2.00, the server 0.00-1.00, 1.00-2.00 and a late 2.00-2.00."""
    result = iperf3.parse(read("iperf3-3.12-udp-P4-l1448-fk-V-server-output-skewed.txt"), "", 0)
    got = [(s.values["jitter_ms"], s.values["lost"], s.values["datagrams"]) for s in result.samples]
    assert got == [(0.297, 1537, 33165), (0.043, 4191, 35157)]
    assert [s.values["count"] for s in result.samples] == [33656, 34988]


def test_reverse_mode_has_jitter_and_loss_live(read):
    result = iperf3.parse(read("iperf3-3.12-udp-P2-R-fk-V.txt"), "", 0)
    assert [(s.values["jitter_ms"], s.values["datagrams"]) for s in result.samples] == [(0.046, 192), (0.012, 190)]


def test_version():
    assert iperf3.ADAPTER.version_argv == ["iperf3", "--version"]
    assert iperf3.parse_version("iperf 3.12 (cJSON 1.7.15)\nLinux vm 6.18\n") == "3.12"
    assert iperf3.parse_version("iperf3: command not found") is None
