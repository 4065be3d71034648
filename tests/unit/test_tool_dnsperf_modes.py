"""dnsperf's transports (udp, tcp, dot, doh): parameters, argv, and parsing of its output captured against the lab's
CoreDNS (tests/support/capture_dnsperf_modes.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kneeboard.tools import dnsperf
from kneeboard.tools.base import PointSpec, ToolInputError


def parse(fixtures_dir: Path, case: str):
    return dnsperf.parse((fixtures_dir / f"dnsperf-2.10-mode-{case}.txt").read_text(), "", 0)


def argv(tmp_path: Path, params: dict, host: str = "10.77.0.2", host_name: str | None = None) -> list[str]:
    return dnsperf.build(PointSpec(host, 5300, 4, 1000.0, 2, {"latency_capture": False, **params}, host_name=host_name), tmp_path)


def test_udp_is_the_default_and_its_argv_is_unchanged(tmp_path):
    assert dnsperf.ADAPTER.read_params({}).mode == "udp"
    assert argv(tmp_path, {})[:5] == ["dnsperf", "-s", "10.77.0.2", "-p", "5300"]
    assert argv(tmp_path, {"mode": "udp"}) == argv(tmp_path, {})


@pytest.mark.parametrize(("params", "head"), [
    ({"mode": "tcp"}, ["-m", "tcp", "-s", "10.77.0.2", "-p", "5300"]),
    ({"mode": "dot", "port": 853}, ["-m", "dot", "-s", "10.77.0.2", "-p", "853"]),
    ({"mode": "doh", "port": 8443}, ["-m", "doh", "-O", "doh-uri=https://10.77.0.2:8443/dns-query", "-O", "doh-method=GET",
                                     "-s", "10.77.0.2", "-p", "8443"]),
    ({"mode": "doh", "port": 443, "doh_path": "/q%2Fx", "doh_method": "POST"},
     ["-m", "doh", "-O", "doh-uri=https://10.77.0.2/q%2Fx", "-O", "doh-method=POST", "-s", "10.77.0.2", "-p", "443"]),
])  # fmt: skip
def test_each_transport_maps_to_its_flags(tmp_path, params, head):
    built = argv(tmp_path, params)
    assert built[1 : 1 + len(head)] == head
    assert built[built.index("-c") : built.index("-c") + 4] == ["-c", "4", "-q", "1000"]


def test_doh_names_the_target_in_its_uri_and_brackets_an_ipv6_address(tmp_path):
    assert argv(tmp_path, {"mode": "doh"}, host_name="dns.example.lab")[4] == "doh-uri=https://dns.example.lab:5300/dns-query"
    assert argv(tmp_path, {"mode": "doh", "port": 8443}, host="::1")[4] == "doh-uri=https://[::1]:8443/dns-query"


@pytest.mark.parametrize(("params", "field", "says"), [
    ({"mode": "quic"}, "params.mode", "Input should be 'udp', 'tcp', 'dot' or 'doh'"),
    ({"mode": "dot", "port": 0}, "params.port", "greater than or equal to 1"),
    ({"mode": "dot", "port": 65536}, "params.port", "less than or equal to 65535"),
    ({"mode": "dot", "port": "853"}, "params.port", "valid integer"),
    ({"mode": "doh", "doh_method": "PUT"}, "params.doh_method", "'GET' or 'POST'"),
    ({"mode": "dot", "doh_path": "/dns-query"}, "params", "doh_path is for mode doh (mode is dot)"),
    ({"doh_method": "GET"}, "params", "doh_method is for mode doh (mode is udp)"),
])  # fmt: skip
def test_bad_transport_settings_are_refused_naming_the_field(tmp_path, params, field, says):
    with pytest.raises(ToolInputError) as refused:
        argv(tmp_path, params)
    assert str(refused.value).startswith(f"{field}: ") and says in str(refused.value)


@pytest.mark.parametrize("path", ["dns-query", "/a b", "/a?dns=x", "/a#b", "/%zz", "/../../etc/passwd\n", "/é", "/" + "a" * 2000])
def test_a_doh_path_is_a_url_path_never_a_query_or_a_file(tmp_path, path):
    with pytest.raises(ToolInputError, match=r"^params\.doh_path: "):
        argv(tmp_path, {"mode": "doh", "doh_path": path})


def test_only_dot_and_doh_ask_for_a_certificate_check():
    port = dnsperf.ADAPTER.unverified_tls_port
    spec = PointSpec("10.77.0.2", 5300, 2, 100.0, 1)
    assert port(spec) is None and port(PointSpec("10.77.0.2", 5300, 2, 100.0, 1, {"mode": "tcp"})) is None
    assert port(PointSpec("10.77.0.2", 5300, 2, 100.0, 1, {"mode": "dot", "port": 853})) == 853
    assert port(PointSpec("10.77.0.2", 8443, 2, 100.0, 1, {"mode": "doh"})) == 8443  # the target's port


def test_udp_has_no_connection_figures(fixtures_dir):
    result = parse(fixtures_dir, "udp")
    assert result.error is None and result.metrics["achieved_rate"] == pytest.approx(1999.796021)
    assert result.metrics["reconnections"] is None and result.metrics["connect_latency_avg_ms"] is None
    assert "connections" not in result.extra and "http_codes" not in result.extra


@pytest.mark.parametrize(("case", "rate", "query_ms", "connect"), [
    ("tcp", 1999.866009, 0.158, (3.093, 0.980, 5.207, 2.989)),
    ("dot", 1973.412731, 5.409, (4.462, 2.143, 6.782, 3.280)),
    ("doh", 1996.364247, 1.132, (27.655, 4.850, 46.593, 13.502)),
])  # fmt: skip
def test_connection_statistics_are_read_apart_from_the_queries(fixtures_dir, case, rate, query_ms, connect):
    result = parse(fixtures_dir, case)
    m, connections = result.metrics, result.extra["connections"]
    assert result.error is None and m["achieved_rate"] == pytest.approx(rate)
    assert m["latency_avg_ms"] == pytest.approx(query_ms)  # the queries' line, not the connections' below it
    avg, low, high, spread = connect
    assert connections == {"reconnections": 0, "connect_latency_avg_ms": pytest.approx(avg), "connect_latency_min_ms": pytest.approx(low),
                           "connect_latency_max_ms": pytest.approx(high), "connect_latency_stddev_ms": pytest.approx(spread)}
    assert (m["reconnections"], m["connect_latency_avg_ms"], m["connect_latency_max_ms"]) == (0, pytest.approx(avg), pytest.approx(high))


def test_doh_http_codes_and_the_answers_dnsperf_dropped(fixtures_dir):
    clean = parse(fixtures_dir, "doh-post")
    assert clean.extra["http_codes"] == {"200": 400} and clean.metrics["completed"] == 400
    assert not [w for w in clean.extra["warnings"] if "DoH" in w]
    for case, dropped in (("doh", 7), ("doh-dropped", 78)):  # every query was answered 200; dnsperf counted fewer
        result = parse(fixtures_dir, case)
        assert result.error is None and result.extra["http_codes"] == {"200": 4000}
        assert f"dnsperf received {dropped} DoH answers (HTTP 2xx) it did not count" in " ".join(result.extra["warnings"])
        assert result.metrics["lost"] == dropped


def test_doh_answered_only_with_http_errors_is_a_clear_point_error(fixtures_dir):
    result = parse(fixtures_dir, "doh-badpath")
    assert result.extra["http_codes"] == {"404": 396, "unknown": 4}
    assert result.error == "no DoH answer: every request had an HTTP error (HTTP 404 396, HTTP unknown 4); is doh_path the server's?"
    assert result.metrics["latency_stddev_ms"] is None  # the connections' StdDev line is not the queries'
    assert "DoH requests answered with an HTTP error: HTTP 404 396, HTTP unknown 4" in result.extra["warnings"]


def test_the_connections_stddev_is_never_taken_for_the_queries(fixtures_dir):
    text = (fixtures_dir / "dnsperf-2.10-mode-dot.txt").read_text()
    assert text.count("Latency StdDev (s):") == 2
    one = text.replace("  Latency StdDev (s):   0.015054\n", "")  # as dnsperf prints it when one query or none completed
    assert dnsperf.parse(one, "", 0).metrics["latency_stddev_ms"] is None
    assert dnsperf.parse(text, "", 0).metrics["latency_stddev_ms"] == pytest.approx(15.054)
