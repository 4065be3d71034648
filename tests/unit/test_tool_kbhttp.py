"""kbhttp's adapter against real captured output (tests/fixtures/tool-output/kbhttp-*, commands in the .cmd files)."""

from __future__ import annotations

import json

import pytest

from kneeboard.analysis import hdr
from kneeboard.tools import kbhttp
from kneeboard.tools.base import PointSpec, ToolInputError
from kneeboard.tools.runner import RunOutcome
from tests.support.latency import assert_same_percentiles, counted


_PEM = "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n"


def read(fixtures_dir, name: str, exit_code: int | None = 0):
    return kbhttp.parse((fixtures_dir / name).read_text(), "", exit_code)


def test_a_run_gives_rate_percentiles_and_histograms(fixtures_dir):
    result = read(fixtures_dir, "kbhttp-0.1-r200-c4.ndjson")
    m = result.metrics
    assert result.error is None
    assert m["achieved_rate"] == pytest.approx(199.6873790243936)
    assert (m["sent"], m["completed"], m["errors"], m["dropped"], m["loss_pct"]) == (600, 600, 0, 0, 0.0)
    assert (m["latency_p50_ms"], m["latency_p99_ms"], m["latency_p999_ms"]) == (2.085, 9.087, 9.815)
    assert m["latency_min_ms"] <= m["latency_p50_ms"] <= m["latency_avg_ms"] <= m["latency_max_ms"]
    point = hdr.decode(result.extra["hdr"])
    assert point.get_total_count() == 600
    assert hdr.percentiles_ms(point) == {k: m[k] for k in hdr.PERCENTILES}, "the line's figures are the histogram's"
    assert [t for t, _ in result.extra["hdr_intervals"]] == [s.t for s in result.samples] and len(result.samples) == 4
    assert hdr.merge(e for _, e in result.extra["hdr_intervals"]).get_total_count() == 600, "the intervals hold every response"
    assert result.extra["warnings"] == [] and result.extra["offered_rate"] == 200


def test_interval_lines_are_live_samples(fixtures_dir):
    lines = (fixtures_dir / "kbhttp-0.1-stall-r500-c20.ndjson").read_text().splitlines()
    samples = [kbhttp.ADAPTER.interval_reader(0.0)(line) for line in lines]
    assert samples[-1] is None, "the point line is not a sample"
    stalled = samples[2]
    assert stalled.t == 1795439568.25061
    assert stalled.values == {"achieved_rate": 526.0008852594899, "latency_p50_ms": 482.303, "latency_p90_ms": 897.535,
                              "latency_p99_ms": 992.255, "latency_p999_ms": 999.423, "sent": 506, "completed": 526, "errors": 0}
    assert kbhttp.parse_line("garbage") is None and kbhttp.parse_line('{"kbhttp":"interval",') is None


def test_the_stall_shows_in_the_tail(fixtures_dir):
    m = read(fixtures_dir, "kbhttp-0.1-stall-r500-c20.ndjson").metrics
    assert m["latency_p50_ms"] < 5 and m["latency_p999_ms"] == 997.375 and m["latency_max_ms"] == 1000.778


def test_the_stored_histogram_gives_the_raw_latencies_percentiles(fixtures_dir):
    text = (fixtures_dir / "kbhttp-0.1-raw-r300-c8.ndjson").read_text()
    raw = json.loads(text.splitlines()[-1])
    assert raw["kbhttp"] == "raw" and len(raw["us"]) == 900
    result = kbhttp.parse(text, "", 0)
    assert_same_percentiles(hdr.decode(result.extra["hdr"]), counted(raw["us"]))
    assert result.metrics["latency_max_ms"] == max(raw["us"]) / 1000 and result.metrics["latency_min_ms"] == min(raw["us"]) / 1000


def test_a_stop_by_signal_still_gives_the_point(fixtures_dir):
    result = read(fixtures_dir, "kbhttp-0.1-sigint.ndjson")
    assert result.error is None and result.metrics["completed"] == 250


def test_cut_short_output_keeps_its_samples_and_says_so(fixtures_dir):
    result = read(fixtures_dir, "kbhttp-0.1-killed.ndjson", None)
    assert result.error == "kbhttp stopped before its point line (exit code None); 2 interval lines kept"
    assert len(result.samples) == 2 and result.metrics == {}
    text = (fixtures_dir / "kbhttp-0.1-r200-c4.ndjson").read_text()
    truncated = text[: text.rindex('{"kbhttp":"point"') + 60]  # the point line cut mid-way
    assert kbhttp.parse(truncated, "", None).error.startswith("kbhttp stopped before its point line")


def test_refused_names_the_reason(fixtures_dir):
    result = read(fixtures_dir, "kbhttp-0.1-refused.ndjson")
    assert result.error.startswith("no responses: 100 requests sent, none answered (connect errors 100: ")
    assert "connection refused" in result.error
    assert result.metrics["loss_pct"] == 100.0 and "hdr" not in result.extra


def test_every_response_an_error_status_fails_the_point(fixtures_dir):
    result = read(fixtures_dir, "kbhttp-0.1-404.ndjson")
    assert result.error == "every response had a non-2xx/3xx status (GET http://127.0.0.1:18483/missing: 404 File not found)"
    assert result.extra["errors"] == {"status": 100, "timeout": 0, "connect": 0, "tls": 0, "other": 0}


def test_bad_arguments_and_a_missing_binary(fixtures_dir):
    stderr = (fixtures_dir / "kbhttp-0.1-badarg.stderr.txt").read_text()
    assert kbhttp.parse("", stderr, 2).error == "kbhttp run: --rate: want requests/s in (0, 1000000], got 0"
    missing = RunOutcome(argv=["kbhttp"], error="kbhttp is not installed (not found on PATH)")
    assert kbhttp.ADAPTER.read(missing).error == "kbhttp is not installed (not found on PATH)"


def test_dropped_requests_are_a_warning():
    point = {"kbhttp": "point", "t": 1.0, "sent": 10, "completed": 10, "dropped": 40, "connections": 1, "errors": {},
             "errors_total": 0, "hdr": "x"}
    result = kbhttp.parse(json.dumps(point), "", 0)
    assert result.metrics["loss_pct"] == 80.0 and result.metrics["dropped"] == 40
    assert result.extra["warnings"] == ["the load generator was the bottleneck: 40 of 50 intended requests were never sent: all 1 connections were busy "
                                        "(the server answered slower than the offered rate; more connections would offer it)"]


def test_argv_is_built_from_checked_values(tmp_path):
    spec = PointSpec("::1", 8080, 20, 1234.5, 2.25, {"path": "/a%20b?x=1", "method": "HEAD", "timeout_s": 0.5})
    argv = kbhttp.build(spec, tmp_path)
    assert argv[1:] == ["run", "--url", "http://[::1]:8080/a%20b?x=1", "--rate", "1234.5", "--duration", "2.25s",
                        "--connections", "20", "--timeout", "0.5s", "--method", "HEAD", "--report-every", "1s"]
    assert "--raw-latencies" not in argv, "the test-only flag is never reachable from a plan"


@pytest.mark.parametrize("params,field", [({"path": "/a#b"}, "path"), ({"path": "/%zz"}, "path"), ({"path": "/a b"}, "path"),
                                          ({"method": "POST"}, "method"), ({"scheme": "ftp"}, "scheme"),
                                          ({"scheme": "https", "ca_pem": "/etc/ssl/certs/ca.pem"}, "ca_pem"),
                                          ({"ca_pem": _PEM}, ""), ({"tls_skip_verify": True}, ""), ({"tls_resumption": False}, ""),
                                          ({"scheme": "https", "ca_pem": _PEM, "tls_skip_verify": True}, ""),
                                          ({"timeout_s": 61.0}, "timeout_s"), ({"raw_latencies": True}, "raw_latencies")])
def test_params_refuse_what_kbhttp_would_refuse(params, field, tmp_path):
    with pytest.raises(ToolInputError, match=rf"^params[.]{field}:" if field else r"^params: .*(https|not both)"):
        kbhttp.build(PointSpec("127.0.0.1", 80, 1, 10.0, 1, params), tmp_path)


def test_https_verifies_against_the_ca_bundle_counts_handshakes_and_keeps_three_latencies(fixtures_dir):
    result = read(fixtures_dir, "kbhttp-0.2-https-r200-c4.ndjson")
    m = result.metrics
    assert result.error is None and (m["sent"], m["completed"], m["dropped"]) == (599, 599, 1)
    assert (m["handshakes"], m["handshakes_resumed"], m["queued"]) == (4, 3, 0), "4 connections, 3 resumed the first one's session"
    assert (m["latency_p50_ms"], m["service_p50_ms"], m["lateness_p50_ms"], m["lateness_p99_ms"]) == (0.346, 0.29, 0.05, 0.546)
    assert m["service_min_ms"] <= m["service_p50_ms"] < m["latency_p50_ms"], "the service time leaves out the generator's lateness"
    assert hdr.decode(result.extra["service_hdr"]).get_total_count() == 599
    assert result.extra["tls"] == {"server_name": "www.example.lab", "verify": "ca-bundle", "resumption": True}
    assert sum(s.values["handshakes"] for s in result.samples) == 4 and "service_p99_ms" in result.samples[0].values


def test_a_certificate_that_fails_verification_is_a_clear_point_error(fixtures_dir):
    result = read(fixtures_dir, "kbhttp-0.2-https-badca.ndjson")
    assert result.error.startswith("TLS handshake failed, no responses (100 of 100 requests): ")
    assert "x509: certificate signed by unknown authority" in result.error
    assert result.extra["errors"]["tls"] == 100 and result.metrics["handshakes"] == 0


def test_a_late_generator_and_skipped_verification_are_warnings():
    point = {"kbhttp": "point", "t": 1.0, "sent": 10, "completed": 10, "dropped": 0, "connections": 1, "errors": {}, "queued": 3,
             "errors_total": 0, "hdr": "x", "lateness": {"p50_ms": 0.2, "p99_ms": 1.5}, "tls": {"verify": "skipped", "server_name": "h"}}
    warnings = kbhttp.parse(json.dumps(point), "", 0).extra["warnings"]
    assert warnings[0].startswith("the load generator was the bottleneck: it sent late (p99 lateness 1.5 ms > 1 ms)")
    assert warnings[1] == "3 requests waited for a free connection (every connection was busy when they were due)"
    assert warnings[2].startswith("TLS certificate verification was skipped")
    on_time = kbhttp.parse((json.dumps({**point, "lateness": {"p99_ms": 0.9}, "queued": 0, "tls": None})), "", 0)
    assert on_time.extra["warnings"] == []


def test_https_argv_writes_the_ca_bundle_to_a_file_kneeboard_names(tmp_path):
    spec = PointSpec("127.0.0.1", 8443, 4, 100.0, 2, {"scheme": "https", "ca_pem": _PEM, "tls_resumption": False}, host_name="www.example.lab")
    argv = kbhttp.build(spec, tmp_path)
    assert argv[argv.index("--url") + 1] == "https://127.0.0.1:8443/"
    assert argv[-5:] == ["--host", "www.example.lab:8443", "--ca", str(tmp_path / kbhttp.CA_FILE), "--no-resume"]
    assert (tmp_path / kbhttp.CA_FILE).read_text() == _PEM
    skip = kbhttp.build(PointSpec("127.0.0.1", 8443, 4, 100.0, 2, {"scheme": "https", "tls_skip_verify": True}), tmp_path)
    assert skip[-1] == "--insecure" and "--ca" not in skip


def test_a_point_without_rate_is_refused(tmp_path):
    with pytest.raises(ToolInputError, match="^rate: kbhttp is open-loop"):
        kbhttp.build(PointSpec("127.0.0.1", 80, 1, None, 1), tmp_path)
