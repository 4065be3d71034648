"""The real tools on 127.0.0.1: argv from build(), output through parse(). Every run is time-bounded.

Only processes started here are stopped (through their own Popen objects).
"""

from __future__ import annotations

import http.server
import os
import shutil
import subprocess
import threading
import time

import pytest

from kneeboard.analysis import hdr
from kneeboard.tools import iperf3, mpstat, ping, wrk
from kneeboard.tools.base import PointSpec
from tests.support.services import free_port

pytestmark = pytest.mark.tools
LOOPBACK = "127.0.0.1"
GRACE_S = 15


def needs(tool: str):
    return pytest.mark.skipif(shutil.which(tool) is None, reason=f"{tool} is not installed")


def run(argv: list[str], duration_s: float, env: dict[str, str] | None = None):
    """Run argv (never a shell) with a hard timeout; return (stdout, stderr, exit code)."""
    full_env = {**os.environ, **env} if env else None
    done = subprocess.run(argv, capture_output=True, text=True, timeout=duration_s + GRACE_S,
                          env=full_env, check=False)
    return done.stdout, done.stderr, done.returncode


def point(port: int, concurrency: int = 1, rate: float | None = None, duration_s: float = 2,
          **params) -> PointSpec:
    return PointSpec(host=LOOPBACK, port=port, concurrency=concurrency, rate=rate,
                     duration_s=duration_s, params=params)


# --- wrk ------------------------------------------------------------------------


class _QuietHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):  # noqa: N802 (http.server's naming)
        status, body = (200, b"kneeboard\n") if self.path == "/index.html" else (404, b"no\n")
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def http_port():
    server = http.server.ThreadingHTTPServer((LOOPBACK, 0), _QuietHandler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@needs("wrk")
def test_wrk_against_a_loopback_server(http_port, tmp_path):
    argv = wrk.build(point(http_port, concurrency=2, path="/index.html"), tmp_path)
    result = wrk.parse(*run(argv, 2))
    m = result.metrics
    assert result.error is None
    assert result.extra["report_script"] is True  # our Lua JSON line was printed and read
    assert m["achieved_rate"] > 0
    assert m["completed"] > 0
    assert m["errors"] == 0
    assert 0 < m["latency_p50_ms"] <= m["latency_p75_ms"] <= m["latency_p90_ms"] <= m["latency_p99_ms"] <= m["latency_p999_ms"]
    assert m["latency_min_ms"] <= m["latency_avg_ms"] <= m["latency_max_ms"]
    histogram = hdr.decode(result.extra["hdr"])  # built from wrk's whole latency distribution
    assert {k: m[k] for k in hdr.PERCENTILES} == hdr.percentiles_ms(histogram) and histogram.get_total_count() > 0
    assert m["throughput_bps"] > 0


@needs("wrk")
def test_wrk_counts_404_as_errors(http_port, tmp_path):
    argv = wrk.build(point(http_port, concurrency=1, duration_s=1, path="/missing"), tmp_path)
    result = wrk.parse(*run(argv, 1))
    assert result.metrics["completed"] > 0
    assert result.extra["non_2xx_3xx"] == result.metrics["completed"]
    assert result.metrics["errors"] == result.metrics["completed"]


@needs("wrk")
def test_wrk_connection_refused(tmp_path):
    argv = wrk.build(point(free_port(), duration_s=1), tmp_path)
    stdout, stderr, code = run(argv, 1)
    result = wrk.parse(stdout, stderr, code)
    assert code == 1
    assert "Connection refused" in result.error


@needs("wrk")
def test_wrk_version():
    stdout, stderr, code = run(wrk.ADAPTER.version_argv, 0)
    assert code == 1  # wrk -v exits 1
    assert wrk.parse_version(stdout + stderr)


# --- iperf3 ---------------------------------------------------------------------


@pytest.fixture
def iperf3_port():
    port = free_port()
    server = subprocess.Popen(["iperf3", "-s", "-1", "-B", LOOPBACK, "-p", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    yield port
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def run_iperf3(spec: PointSpec, tmp_path):
    """The one-off server may not listen yet: retry while the connection is refused."""
    for _ in range(20):
        result = iperf3.parse(*run(iperf3.build(spec, tmp_path), spec.duration_s))
        if not (result.error and "Connection refused" in result.error):
            return result
        time.sleep(0.1)
    return result


@needs("iperf3")
def test_iperf3_tcp(iperf3_port, tmp_path):
    result = run_iperf3(point(iperf3_port, concurrency=2, duration_s=2), tmp_path)
    assert result.error is None
    assert result.metrics["throughput_bps"] > 0
    assert result.metrics["retransmits"] is not None
    assert result.extra["protocol"] == "tcp"
    assert result.extra["streams"] == 2
    assert len(result.samples) == 2
    assert abs(result.samples[-1].t - time.time()) < 60


@needs("iperf3")
def test_iperf3_udp_total_rate(iperf3_port, tmp_path):
    spec = point(iperf3_port, concurrency=2, rate=20e6, duration_s=2, protocol="udp", length=1200)
    result = run_iperf3(spec, tmp_path)
    assert result.error is None
    assert result.extra["offered_bps"] == 20e6  # 2 streams × -b 10000000
    assert result.extra["blksize"] == 1200
    assert result.metrics["throughput_bps"] == pytest.approx(20e6, rel=0.2)
    assert result.metrics["loss_pct"] is not None
    assert result.metrics["sent"] > 0
    assert "--get-server-output" in iperf3.build(spec, tmp_path)  # each interval's jitter and loss, from the server
    assert len(result.samples) == 2 and all(s.values["jitter_ms"] is not None and s.values["datagrams"] > 0 for s in result.samples)


@needs("iperf3")
def test_iperf3_refused_reports_the_error(tmp_path):
    stdout, stderr, code = run(iperf3.build(point(free_port(), duration_s=1), tmp_path), 1)
    assert code == 1  # in text mode iperf3 exits 1 and says why on stderr
    assert iperf3.parse(stdout, stderr, code).error == "iperf3: unable to connect to server: Connection refused"


@needs("iperf3")
def test_iperf3_version():
    assert iperf3.parse_version(run(iperf3.ADAPTER.version_argv, 0)[0])


# --- ping -----------------------------------------------------------------------


@needs("ping")
def test_ping_loopback(tmp_path):
    stdout, stderr, code = run(ping.build(point(0, duration_s=1, host=LOOPBACK), tmp_path), 1)
    result = ping.parse(stdout, stderr, code)
    assert result.error is None
    assert result.metrics["loss_pct"] == 0.0
    assert result.extra["transmitted"] == 5
    assert len(result.samples) == 5
    assert result.extra["relative_time"] is False
    assert abs(result.samples[0].t - time.time()) < 60  # -D epoch timestamps
    live = [ping.parse_line(line) for line in stdout.splitlines()]
    assert sum(sample is not None for sample in live) == 5


@needs("ping")
def test_ping_version():
    assert ping.parse_version(run(ping.ADAPTER.version_argv, 0)[0])


# --- mpstat ---------------------------------------------------------------------


@needs("mpstat")
def test_mpstat_two_seconds(tmp_path):
    stdout, stderr, code = run(mpstat.build(point(0, duration_s=2), tmp_path), 2, mpstat.build_env())
    result = mpstat.parse(stdout, stderr, code)
    cpus = os.cpu_count()
    assert result.error is None
    assert len(result.samples) == 2 * (cpus + 1)
    assert {s.series for s in result.samples} == {"mpstat.all", *(f"mpstat.cpu{n}" for n in range(cpus))}
    assert abs(result.samples[-1].t - time.time()) < 60  # the UTC clock is read as UTC
    assert result.extra["cpu_max_busy_pct"] is not None


@needs("mpstat")
def test_mpstat_sigterm_is_salvaged(tmp_path):
    argv = mpstat.build(point(0, duration_s=30), tmp_path)
    monitor = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, **mpstat.build_env()})
    try:
        time.sleep(2.5)
        monitor.terminate()
        stdout, stderr = monitor.communicate(timeout=GRACE_S)
    finally:
        if monitor.poll() is None:
            monitor.kill()
            monitor.wait()
    result = mpstat.parse(stdout, stderr, monitor.returncode)
    assert result.error is None
    assert result.extra["truncated"] is True
    assert result.extra["intervals"] >= 1


@needs("mpstat")
def test_mpstat_version():
    stdout, stderr, _ = run(mpstat.ADAPTER.version_argv, 0)
    assert mpstat.parse_version(stdout + stderr)
