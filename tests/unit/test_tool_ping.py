"""ping adapter: argv building, live reply lines and parsing of the captured iputils outputs."""

from __future__ import annotations

import pytest

from kneeboard.tools import ping
from kneeboard.tools.base import PointSpec, ToolInputError
from tests.unit.conftest import point_spec

CAPTURED = [
    "ping-20.txt",
    "ping-20-idle.txt",
    "ping-20-veth-q4.txt",
    "ping-unreachable.txt",
]
REPLY_D = "[1795269447.680397] 64 bytes from 127.0.0.1: icmp_seq=1 ttl=64 time=0.021 ms"


def spec(**changes) -> PointSpec:
    """A point spec for ping with defaults; `changes` override them (the host is ping's own parameter)."""
    host = changes.pop("host", "10.213.0.2")
    params = {"host": host, **changes.pop("params", {})}
    return point_spec(dict(host=host, port=0, concurrency=1, rate=None, duration_s=4, params=params), changes)


# --- build ----------------------------------------------------------------------


def test_build_counts_requests_for_the_duration(tmp_path):
    assert ping.build(spec(), tmp_path) == [
        "ping", "-n", "-D", "-i", "0.2", "-W", "1", "-c", "20", "10.213.0.2"]
    assert ping.build(spec(duration_s=1.1), tmp_path)[-2] == "6"


def test_build_accepts_hostnames_and_ipv6(tmp_path):
    assert ping.build(spec(host="lab-1.example.lab"), tmp_path)[-1] == "lab-1.example.lab"
    assert ping.build(spec(host="::1"), tmp_path)[-1] == "::1"


@pytest.mark.parametrize("changes, field", [
    ({"host": "-f"}, "params.host"),
    ({"host": "a b"}, "params.host"),
    ({"host": "256.1.1.1"}, "params.host"),
    ({"host": "x" * 64 + ".lab"}, "params.host"),
    ({"host": None}, "params.host"),
    ({"duration_s": 0.1}, "duration_s"),
    ({"duration_s": float("inf")}, "duration_s"),
    ({"params": {"interval_s": 0.001}}, "params.interval_s"),
])
def test_build_refuses_bad_input_naming_the_field(tmp_path, changes, field):
    with pytest.raises(ToolInputError, match=rf"^{field.replace('.', '[.]')}:"):
        ping.build(spec(**changes), tmp_path)


# --- parse_line -----------------------------------------------------------------


def test_parse_line_with_timestamp():
    sample = ping.parse_line(REPLY_D)
    assert sample.t == 1795269447.680397
    assert sample.values == {"rtt_ms": 0.021}
    assert sample.series == "ping"


def test_parse_line_without_timestamp_is_relative_to_the_first_request():
    sample = ping.parse_line("64 bytes from 10.213.0.2: icmp_seq=6 ttl=64 time=0.025 ms")
    assert sample.t == pytest.approx(1.0)
    assert sample.values == {"rtt_ms": 0.025}


@pytest.mark.parametrize("line", [
    "PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.",
    "64 bytes from 127.0.0.1: icmp_seq=2 ttl=64 time=0.036 ms (DUP!)",
    "From 10.213.0.1 icmp_seq=1 Destination Host Unreachable",
    "rtt min/avg/max/mdev = 0.019/0.026/0.032/0.003 ms",
    "",
])
def test_parse_line_ignores_everything_but_replies(line):
    assert ping.parse_line(line) is None


# --- parse ----------------------------------------------------------------------


def test_parse_twenty_replies(read):
    result = ping.parse(read("ping-20.txt"), "", 0)
    assert result.error is None
    assert result.parser_version == ping.PARSER_VERSION
    assert result.metrics == {"loss_pct": 0.0}
    assert result.extra["rtt_min_ms"] == 0.019
    assert result.extra["rtt_avg_ms"] == 0.026
    assert result.extra["rtt_max_ms"] == 0.032
    assert result.extra["rtt_mdev_ms"] == 0.003
    assert (result.extra["transmitted"], result.extra["received"]) == (20, 20)
    assert result.extra["relative_time"] is True
    assert len(result.samples) == 20
    assert [s.values["rtt_ms"] for s in result.samples[:3]] == [0.019, 0.032, 0.032]
    assert result.samples[-1].t == pytest.approx(19 * 0.2)


@pytest.mark.parametrize("name, avg", [("ping-20-idle.txt", 0.078), ("ping-20-veth-q4.txt", 0.040)])
def test_parse_other_runs(read, name, avg):
    assert ping.parse(read(name), "", 0).extra["rtt_avg_ms"] == avg


def test_parse_unreachable_is_full_loss_not_an_error(read):
    result = ping.parse(read("ping-unreachable.txt"), "", 1)
    assert result.error is None
    assert result.metrics == {"loss_pct": 100.0}
    assert result.samples == []
    assert result.extra["rtt_avg_ms"] is None
    assert (result.extra["transmitted"], result.extra["received"]) == (5, 0)


def test_parse_errors_count():
    text = ("PING 10.213.0.3 (10.213.0.3) 56(84) bytes of data.\n"
            "From 10.213.0.1 icmp_seq=1 Destination Host Unreachable\n\n"
            "--- 10.213.0.3 ping statistics ---\n"
            "5 packets transmitted, 0 received, +5 errors, 100% packet loss, time 814ms\n")
    result = ping.parse(text, "", 1)
    assert result.metrics["loss_pct"] == 100.0
    assert result.extra["errors"] == 5


def test_parse_timestamped_output_is_epoch():
    text = ("PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.\n" + REPLY_D + "\n\n"
            "--- 127.0.0.1 ping statistics ---\n"
            "1 packets transmitted, 1 received, 0% packet loss, time 0ms\n"
            "rtt min/avg/max/mdev = 0.021/0.021/0.021/0.000 ms\n")
    result = ping.parse(text, "", 0)
    assert result.extra["relative_time"] is False
    assert result.samples[0].t == 1795269447.680397


def test_parse_killed_before_the_summary_keeps_the_replies(read):
    """SIGTERM makes iputils ping exit without its statistics (SIGINT prints them)."""
    text = "".join(read("ping-20.txt").splitlines(keepends=True)[:21])
    result = ping.parse(text, "", -15)
    assert result.error is None
    assert result.metrics == {"loss_pct": None}
    assert len(result.samples) == 20
    assert result.extra["received"] == 20
    assert result.extra["rtt_min_ms"] == 0.019
    assert result.extra["rtt_max_ms"] == 0.032
    assert result.extra["rtt_avg_ms"] == pytest.approx(0.026, abs=0.001)  # ping's own summary
    assert result.extra["rtt_mdev_ms"] == pytest.approx(0.003, abs=0.001)


def test_parse_unknown_host_uses_stderr():
    result = ping.parse("", "ping: nosuch.invalid: Name or service not known\n", 2)
    assert result.error == "ping: nosuch.invalid: Name or service not known"


@pytest.mark.parametrize("garbage", ["\x00\xff", "hello\nworld\n", "PING x\n", "{}",
                                     "rtt min/avg/max/mdev = 1/2/3/4 ms\n"])
def test_parse_garbage_is_an_error_not_an_exception(garbage):
    result = ping.parse(garbage, "", 0)
    assert result.error is not None


@pytest.mark.parametrize("name", CAPTURED)
def test_parse_never_raises_on_truncated_output(read, name):
    text = read(name)
    for cut in range(0, len(text), 5):
        result = ping.parse(text[:cut], "", 0)
        assert result.error is not None or result.samples or result.metrics


def test_version():
    assert ping.ADAPTER.version_argv == ["ping", "-V"]
    assert ping.parse_version("ping from iputils 20221126\nlibcap: yes, IDN: yes\n") == "20221126"
    assert ping.parse_version("ping utility, iputils-s20180629\n") == "s20180629"
    assert ping.parse_version("PING") is None
