"""node monitor: node_exporter pages → counters → per-CPU shares and rates, on real captured output.

Fixtures (tests/fixtures/tool-output/, commands in node-exporter-1.5.cmd and README.md): two real
node_exporter 1.5.0 pages 1 s apart, its landing page, and the scraper's own JSON lines.
"""

from __future__ import annotations

import http.server
import json
import socket
import sys
import threading

import pytest

from kneeboard.tools import node
from kneeboard.tools.base import ToolInputError
from kneeboard.tools.node import rates, scrape
from kneeboard.validators import check_metrics_url
from tests.unit.conftest import point_spec


def spec(**changes):
    """A monitor's point spec; the metrics URL arrives in documents, as the worker hands it over."""
    return point_spec(dict(host="127.0.0.1", port=0, concurrency=1, rate=None, duration_s=10, params={},
                           documents={"metrics_url": "http://127.0.0.1:9100/metrics"}), changes)


def line(t: float, page: str) -> dict:
    return {"t": t, **scrape.read_counters(page)}


# --- the page ---------------------------------------------------------------------


def test_counters_read_from_a_real_page(read):
    counters = scrape.read_counters(read("node-exporter-1.5-scrape-1.txt"))
    assert sorted(counters["cpu"]) == ["0", "1"]
    assert counters["cpu"]["0"]["softirq"] == 136.75 and counters["cpu"]["1"]["user"] == 2722.53
    assert set(counters["cpu"]["0"]) == {"idle", "iowait", "irq", "nice", "softirq", "steal", "system", "user"}
    assert counters["net"]["eth0"] == {"rx_packets": 57882, "tx_packets": 39787, "rx_drop": 0, "tx_drop": 0}
    assert counters["softnet"]["0"] == {"processed": 70663394, "dropped": 0, "squeezed": 1}


def test_landing_page_and_empty_pages_are_refused(read):
    with pytest.raises(scrape.ScrapeError, match="not Prometheus text"):
        scrape.read_counters(read("node-exporter-1.5-landing-page.html"))
    with pytest.raises(scrape.ScrapeError, match="no node_cpu_seconds_total"):
        scrape.read_counters("# HELP up whatever\n# TYPE up gauge\nup 1\n")


def test_shares_between_the_two_real_pages(read):
    before, after = line(100.0, read("node-exporter-1.5-scrape-1.txt")), line(101.0, read("node-exporter-1.5-scrape-2.txt"))
    samples = {s.series: s for s in rates.interval_samples(before, after)}
    assert {"node.cpu0", "node.cpu1", "node.net.eth0", "node.softnet.cpu0", "node.softnet.cpu1"} <= set(samples)
    # cpu0 moved idle .85 + softirq .05 + system .36 + user .03 = 1.29 s of its own time
    cpu0 = samples["node.cpu0"].values
    assert cpu0["soft"] == pytest.approx(100 * 0.05 / 1.29, abs=1e-6)
    assert cpu0["idle"] == pytest.approx(100 * 0.85 / 1.29, abs=1e-6)
    assert cpu0["usr"] == pytest.approx(100 * 0.03 / 1.29, abs=1e-6)
    assert sum(cpu0.values()) == pytest.approx(100.0, abs=1e-6)  # nice and iowait did not move here
    assert samples["node.softnet.cpu0"].values["processed_ps"] == pytest.approx(70674966 - 70663394)
    assert all(s.t == 101.0 for s in samples.values())


# --- the scraper's lines ----------------------------------------------------------


def test_scraper_lines_become_aligned_samples_and_a_summary(read):
    text = read("node-scrape-1s.jsonl")
    times = [json.loads(x)["t"] for x in text.splitlines()]
    result = node.parse(text, "", 0)
    assert result.error is None and result.extra["scrapes"] == 4 and result.extra["scrape_errors"] == 0
    cpus = [s for s in result.samples if s.series.startswith("node.cpu")]
    assert {s.series for s in cpus} == {"node.cpu0", "node.cpu1"} and len(cpus) == 6
    assert all(times[0] < s.t <= times[-1] for s in result.samples)  # within the scrapes' span: nothing before the first
    assert all(0 <= s.values["soft"] <= 100 for s in cpus)
    means = result.extra["soft_mean_pct_by_cpu"]
    assert set(means) == {"0", "1"} and means["0"] > 1.0  # the UDP load's softirq landed on CPU 0
    steady = [s.values["soft"] for s in cpus if s.series == "node.cpu0" and s.t > times[0] + node.WARMUP_S]
    assert means["0"] == pytest.approx(sum(steady) / len(steady)) and result.extra["steady_intervals"] == len(steady)
    assert result.extra["busiest_cpu_soft_mean_pct"] == max(means.values())


def test_refused_and_not_prometheus_are_clear_errors(read):
    refused = node.parse(read("node-scrape-refused.jsonl"), "", 0)
    assert refused.samples == [] and "0 successful scrape" in refused.error and "Connection refused" in refused.error
    landing = node.parse(read("node-scrape-landing-page.jsonl"), "", 0)
    assert landing.samples == [] and "not Prometheus text" in landing.error


def test_first_scrape_alone_gives_no_rate(read):
    first = read("node-scrape-1s.jsonl").splitlines()[0]
    result = node.parse(first, "", None)
    assert result.samples == [] and "1 successful scrape(s), rates need two" in result.error


def test_scraper_that_could_not_start_says_why():
    result = node.parse("", "node scrape: must start with http://\n", 2)
    assert "must start with http://" in result.error


def test_garbage_lines_are_counted_and_skipped(read):
    text = "\n".join(["garbage", *read("node-scrape-1s.jsonl").splitlines(), '{"no": "t"}', "[1, 2]"])
    result = node.parse(text, "", 0)
    assert result.error is None and result.extra["scrape_errors"] == 3 and result.extra["scrapes"] == 4
    assert result.extra["first_error"].startswith("not a scraper line")


def test_an_error_between_scrapes_spans_the_gap(read):
    lines = read("node-scrape-1s.jsonl").splitlines()
    gap = json.dumps({"t": json.loads(lines[1])["t"], "error": "http://x: timed out"})
    result = node.parse("\n".join([lines[0], gap, *lines[2:]]), "", 0)
    cpu0 = [s for s in result.samples if s.series == "node.cpu0"]
    assert len(cpu0) == 2 and result.extra["first_error"] == "http://x: timed out"


# --- rate maths: resets, missing CPUs --------------------------------------------


def cpu(user: float, system: float, softirq: float, idle: float) -> dict:
    return {"user": user, "system": system, "softirq": softirq, "idle": idle, "irq": 0.0, "iowait": 0.0, "steal": 0.0}


def test_counter_reset_gives_no_value_for_that_interval_only():
    scrapes = [
        {"t": 0.0, "cpu": {"0": cpu(10, 10, 10, 70), "1": cpu(5, 5, 5, 85)}, "softnet": {"0": {"processed": 1000, "dropped": 5, "squeezed": 0}}},
        {"t": 1.0, "cpu": {"0": cpu(0.1, 0.1, 0.2, 0.6), "1": cpu(5.2, 5.2, 5.4, 85.2)}, "softnet": {"0": {"processed": 10, "dropped": 0, "squeezed": 0}}},
        {"t": 2.0, "cpu": {"0": cpu(0.2, 0.2, 0.4, 1.2), "1": cpu(5.4, 5.4, 5.8, 85.4)}, "softnet": {"0": {"processed": 110, "dropped": 2, "squeezed": 1}}},
    ]
    samples = rates.all_samples(scrapes)
    cpu0 = [s for s in samples if s.series == "node.cpu0"]
    assert [s.t for s in cpu0] == [2.0] and cpu0[0].values["soft"] == pytest.approx(20.0)
    cpu1 = [s for s in samples if s.series == "node.cpu1"]
    assert [s.t for s in cpu1] == [1.0, 2.0] and cpu1[0].values["soft"] == pytest.approx(40.0)
    softnet = [s for s in samples if s.series == "node.softnet.cpu0"]
    assert [s.t for s in softnet] == [2.0] and softnet[0].values == {"processed_ps": 100.0, "dropped_ps": 2.0, "squeezed_ps": 1.0}


def test_a_cpu_missing_from_one_scrape_is_left_out_of_that_interval():
    scrapes = [
        {"t": 0.0, "cpu": {"0": cpu(1, 1, 1, 1), "1": cpu(1, 1, 1, 1)}},
        {"t": 1.0, "cpu": {"0": cpu(1.5, 1, 1, 1.5)}},  # cpu1 went offline
        {"t": 2.0, "cpu": {"0": cpu(2, 1, 1, 2), "1": cpu(2, 2, 2, 2)}},
        {"t": 3.0, "cpu": {"0": cpu(2.5, 1, 1, 2.5), "1": cpu(2.5, 2, 2, 2.5)}},
    ]
    series = [(s.t, s.series) for s in rates.all_samples(scrapes)]
    assert series == [(1.0, "node.cpu0"), (2.0, "node.cpu0"), (3.0, "node.cpu0"), (3.0, "node.cpu1")]
    assert rates.cpu_shares(cpu(1, 1, 1, 1), cpu(1, 1, 1, 1)) is None  # no time passed on that CPU


def test_summary_means_soft_over_the_steady_window():
    scrapes = [{"t": float(t), "cpu": {"0": cpu(0, 0, s, 100 * t - s)}} for t, s in [(0, 0), (1, 90), (2, 100), (3, 110)]]
    samples = rates.all_samples(scrapes)
    assert [round(s.values["soft"]) for s in samples] == [90, 10, 10]
    summary = rates.summarise(samples, since=1.0)  # the first interval is the warm-up
    assert summary["soft_mean_pct_by_cpu"] == {"0": pytest.approx(10.0)} and summary["steady_intervals"] == 2


# --- argv -------------------------------------------------------------------------


def test_argv_runs_our_scraper_on_the_targets_url(tmp_path):
    argv = node.build(spec(duration_s=14.0, params={"interval_s": 2}), tmp_path)
    assert argv == [sys.executable, "-m", "kneeboard.tools.node.scrape", "http://127.0.0.1:9100/metrics", "2", "14"]


@pytest.mark.parametrize("documents, message", [
    ({}, "metrics_url: the target has none"),
    ({"metrics_url": "file:///etc/passwd"}, "metrics_url: must start with http://"),
    ({"metrics_url": "http://127.0.0.1:9100/metrics?x=--help"}, "metrics_url: must be http://HOST:PORT/PATH"),
])
def test_argv_refuses_a_missing_or_bad_url(tmp_path, documents, message):
    with pytest.raises(ToolInputError, match=message.replace("?", r"\?")):
        node.build(spec(documents=documents), tmp_path)


def test_params_hold_no_url(tmp_path):
    with pytest.raises(ToolInputError, match="params.metrics_url"):
        node.build(spec(params={"metrics_url": "http://127.0.0.1:1/metrics"}), tmp_path)


def test_metrics_url_is_normalised_and_checked():
    assert check_metrics_url("http://[::1]:9100/metrics") == "http://[::1]:9100/metrics"
    assert check_metrics_url("http://LocalHost:9100") == "http://localhost:9100/metrics"
    for bad in ("http://u:p@127.0.0.1:9100/metrics", "http://127.0.0.1:0/metrics", "http://0x7f.1:9100/metrics"):
        with pytest.raises(ValueError):
            check_metrics_url(bad)


# --- fetching: 404, timeout, size cap (a real socket on loopback) -----------------


class _Handler(http.server.BaseHTTPRequestHandler):
    body = b""
    status = 200

    def do_GET(self):  # noqa: N802 - the http.server API
        self.send_response(self.status)
        self.end_headers()
        self.wfile.write(self.body)

    def log_message(self, *args):
        pass


def serve(status: int, body: bytes):
    handler = type("H", (_Handler,), {"status": status, "body": body})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def test_http_404_is_a_scrape_error():
    server = serve(404, b"nope")
    try:
        got = scrape.scrape_once(f"http://127.0.0.1:{server.server_port}/metrics", 1.0)
    finally:
        server.shutdown()
    assert got["error"].endswith("answered HTTP 404") and "cpu" not in got


def test_a_page_over_the_cap_is_refused(read):
    server = serve(200, read("node-exporter-1.5-scrape-1.txt").encode())
    try:
        url = f"http://127.0.0.1:{server.server_port}/metrics"
        with pytest.raises(scrape.ScrapeError, match="larger than 1000 bytes"):
            scrape.fetch(url, 1.0, max_bytes=1000)
        assert sorted(scrape.scrape_once(url, 1.0)["cpu"]) == ["0", "1"]
    finally:
        server.shutdown()


def test_a_silent_server_times_out_within_the_timeout():
    listener = socket.create_server(("127.0.0.1", 0))  # accepts (backlog), never answers
    try:
        got = scrape.scrape_once(f"http://127.0.0.1:{listener.getsockname()[1]}/metrics", 0.3)
    finally:
        listener.close()
    assert "timed out" in got["error"]


def test_the_scraper_follows_no_redirect():
    """A metrics_url on an allowed host that redirects elsewhere: an error, and no request reaches the target."""
    import http.server
    import threading

    from kneeboard.tools.node import scrape

    reached: list[str] = []

    class Elsewhere(http.server.BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802
            reached.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} 1\n")

        def log_message(self, *_args):
            pass

    target = http.server.HTTPServer(("127.0.0.1", 0), Elsewhere)

    class Redirecting(Elsewhere):
        def do_GET(self):  # noqa: N802
            self.send_response(302)
            self.send_header("Location", f"http://127.0.0.1:{target.server_port}/metrics")
            self.end_headers()

    source = http.server.HTTPServer(("127.0.0.1", 0), Redirecting)
    for server in (target, source):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with pytest.raises(scrape.ScrapeError, match="302.*not followed"):
            scrape.fetch(f"http://127.0.0.1:{source.server_port}/metrics", 2)
        assert reached == []
        assert "node_cpu" in scrape.fetch(f"http://127.0.0.1:{target.server_port}/metrics", 2)  # the same server, asked directly
    finally:
        for server in (target, source):
            server.shutdown()
