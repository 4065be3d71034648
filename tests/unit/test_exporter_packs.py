"""Query packs and the exporter monitor's pure parts on real captured expositions (node_exporter 1.5, in
tests/fixtures/tool-output/node-exporter-1.5-*.txt): selection, the series cap, rates, quantiles, a user's pack."""

from __future__ import annotations

import json
import math

import pytest

from kneeboard.exporters import packs
from kneeboard.exporters.packs import PackError, all_packs, read_pack
from kneeboard.tools.exporter import adapter as exporter
from kneeboard.tools.base import ToolInputError
from kneeboard.tools.exporter import series
from kneeboard.tools.exporter.fetch import ScrapeError
from kneeboard.tools.exporter.select import select
from tests.unit.conftest import point_spec

NODE_1, NODE_2 = "node-exporter-1.5-scrape-1.txt", "node-exporter-1.5-scrape-2.txt"


def chosen(*names: str) -> list[packs.Pack]:
    return [all_packs()[n] for n in names]


def line(t: float, page: str, *names: str) -> dict:
    return {"t": t, **select(page, chosen(*names))}


def test_every_shipped_pack_reads_and_names_short_series():
    shipped = all_packs()
    assert set(shipped) == {"node", "process", "go", "coredns", "haproxy"}
    for pack in shipped.values():
        for query in pack.queries:
            assert len(f"server.{pack.name}.{query.name}") <= 60
    assert {q.metric for q in shipped["coredns"].queries} >= {"coredns_dns_requests_total", "coredns_dns_responses_total",
                                                              "coredns_dns_request_duration_seconds"}


def test_the_packs_select_from_a_real_node_exporter_page(read):
    got = select(read(NODE_1), chosen("node", "process", "go"))
    values = got["values"]
    assert values["node.cpu"]["0.softirq"] == 136.75 and values["node.cpu"]["1.user"] == 2722.53
    assert values["node.net_rx"] == {"eth0": 57882, "ifb0": 0, "ifb1": 0}
    assert values["process.cpu"] == {"value": 0.02} and values["process.open_fds"] == {"value": 11}
    assert values["go.goroutines"] == {"value": 7} and values["go.gc_pause"]["0.5"] == 1.2408e-05
    assert values["node.udp_rcvbuf_errors"] == {"value": 0} and got["dropped"] == 0
    assert got["kept"] == 47  # 16 CPU modes, 6 NIC, 4 softnet, 2 disks, 4 node gauges/counters, 4 process, 11 go


def test_a_label_filter_and_summing_over_the_other_labels():
    page = ('# TYPE h_total counter\nh_total{code="5xx",proxy="a",x="1"} 3\nh_total{code="5xx",proxy="a",x="2"} 4\n'
            'h_total{code="2xx",proxy="a",x="1"} 100\nh_total{code="5xx",proxy="b",x="1"} 1\n')
    pack = packs.Pack(name="t", title="t", queries=[packs.Query(name="errors", title="e", metric="h_total", labels={"code": "5xx"},
                                                                by=["proxy"], kind="counter", unit="1/s")])
    assert select(page, [pack])["values"] == {"t.errors": {"a": 7, "b": 1}}


def test_at_most_max_series_are_kept_and_the_rest_counted(read):
    got = select(read(NODE_1), chosen("node"), max_series=5)
    assert got["kept"] == 5 and got["dropped"] == 32 - 5
    assert sum(len(v) for v in got["values"].values()) == 5


def test_garbage_and_a_landing_page_are_not_prometheus_text(read):
    for text in (read("node-exporter-1.5-landing-page.html"), "\x00\x01 garbage {{{ 12\n", 'up{job="x} 1\n'):
        with pytest.raises(ScrapeError, match="not Prometheus text"):
            select(text, chosen("node"))


def test_rates_and_gauges_between_the_two_real_pages(read):
    before, after = line(100.0, read(NODE_1), "node", "process", "go"), line(102.0, read(NODE_2), "node", "process", "go")
    samples = {s.series: s.values for s in series.interval_samples(before, after, chosen("node", "process", "go"))}
    raw = before["values"], after["values"]
    soft = (raw[1]["node.cpu"]["0.softirq"] - raw[0]["node.cpu"]["0.softirq"]) * 100 / 2
    assert samples["server.node.cpu"]["0.softirq"] == pytest.approx(soft) and soft > 0
    assert samples["server.process.cpu"]["value"] == pytest.approx(
        (raw[1]["process.cpu"]["value"] - raw[0]["process.cpu"]["value"]) * 100 / 2)
    assert samples["server.go.goroutines"] == {"value": raw[1]["go.goroutines"]["value"]}
    assert samples["server.go.gc_pause"]["0.5"] == pytest.approx(raw[1]["go.gc_pause"]["0.5"] * 1000)  # ms


def test_a_counter_that_went_down_gives_no_rate():
    query = packs.Query(name="c", title="c", metric="c_total", kind="counter", unit="1/s")
    assert series.query_values(query, {"value": 10}, {"value": 4}, 1.0) == {"value": None}
    assert series.query_values(query, {"value": 10}, {"value": 14}, 2.0) == {"value": 2.0}


def test_histogram_quantiles_interpolate_inside_the_bucket():
    before = {"0.001": 0, "0.01": 0, "0.1": 0, "+Inf": 0}
    after = {"0.001": 10, "0.01": 90, "0.1": 100, "+Inf": 100}
    assert series.histogram_quantile(0.5, before, after) == pytest.approx(0.001 + 0.009 * (50 - 10) / 80)
    assert series.histogram_quantile(0.99, before, after) == pytest.approx(0.01 + 0.09 * (99 - 90) / 10)
    assert series.histogram_quantile(0.05, before, after) == pytest.approx(0.001 * 5 / 10)
    beyond = {"0.001": 0, "0.01": 0, "0.1": 0, "+Inf": 10}
    assert series.histogram_quantile(0.5, before, beyond) == 0.1  # all above the last bound: that bound, as Prometheus says
    assert series.histogram_quantile(0.5, before, before) is None  # nothing observed
    assert series.histogram_quantile(0.5, after, before) is None  # a reset
    query = packs.Query(name="d", title="d", metric="d", kind="histogram", quantiles=[0.5, 0.99], scale=1000, unit="ms")
    got = series.query_values(query, {"value": before}, {"value": after}, 1.0)
    assert set(got) == {"p50", "p99"} and got["p50"] == pytest.approx(1000 * (0.001 + 0.009 * 40 / 80))


def test_parse_gives_samples_a_summary_and_warnings(read):
    lines = [line(100.0 + i, read(NODE_1 if i % 2 == 0 else NODE_2), "node", "process") for i in range(2)]
    lines[0]["dropped"] = 3
    stdout = "\n".join([json.dumps(lines[0]), json.dumps({"t": 100.5, "error": "timed out: no whole answer"}),
                        json.dumps({**lines[1], "t": 101.6})])
    result = exporter.parse(stdout, "", 0)
    assert result.error is None and {s.series for s in result.samples} >= {"server.node.cpu", "server.process.cpu"}
    assert result.extra["scrapes"] == 2 and result.extra["scrape_errors"] == 1
    assert result.extra["packs"]["process"]["rss"]["value"] > 0 and "node" in result.extra["packs"]
    assert any("1 of 3 scrapes failed" in w and "timed out" in w for w in result.extra["warnings"])
    assert any("3 series over the cap of 200" in w for w in result.extra["warnings"])
    failed = exporter.parse(json.dumps({"t": 1.0, "error": "answered HTTP 302 (a redirect: not followed)"}), "", 0)
    assert "0 successful scrape(s)" in failed.error and "302" in failed.error


def test_a_user_adds_a_pack_by_writing_a_file(tmp_path):
    (tmp_path / "mine.yaml").write_text("name: mine\ntitle: Mine\nqueries:\n  - {name: up, title: up, metric: up, kind: gauge, unit: ''}\n")
    with pytest.raises(PackError, match="unit"):
        all_packs(tmp_path)
    (tmp_path / "mine.yaml").write_text("name: mine\ntitle: Mine\nqueries:\n  - {name: up, title: up, metric: up, kind: gauge, unit: state}\n")
    assert all_packs(tmp_path)["mine"].queries[0].metric == "up"
    (tmp_path / "other.json").write_text(json.dumps({"name": "wrong", "title": "x", "queries": []}))
    with pytest.raises(PackError, match="other.json"):
        read_pack(tmp_path / "other.json")


def spec(exporters: dict, **params):
    return point_spec(dict(host="127.0.0.1", port=0, concurrency=1, rate=None, duration_s=10, params={"exporter": "dns", **params},
                           documents={"exporters": exporters}), {})


def test_argv_names_the_pinned_url_the_host_header_and_the_packs(tmp_path):
    found = {"dns": {"url": "http://127.0.0.1:9153/metrics", "host": "dns.lab:9153", "packs": ["coredns", "process"]}}
    argv = exporter.build(spec(found), tmp_path)
    assert argv[1:] == ["-m", "kneeboard.tools.exporter.scrape", "http://127.0.0.1:9153/metrics", "dns.lab:9153", "1", "10",
                        "coredns,process"]
    with pytest.raises(ToolInputError, match="no exporter named 'dns'"):
        exporter.build(spec({}), tmp_path)
    with pytest.raises(ToolInputError, match="refused before start"):
        exporter.build(spec({"dns": {"refused": "exporter dns: refused before start, not scraped: 10.9.9.9"}}), tmp_path)
    assert not math.isnan(exporter.WARMUP_S)


# --- CoreDNS 1.15.0's own /metrics, captured mid-load (tests/fixtures/tool-output/README.md, coredns-1.15.0-*) ----


def coredns_interval(read, config: str) -> dict:
    names = ("coredns", "process", "go")
    before = line(1.5, read(f"coredns-1.15.0-{config}-Q20000-metrics-t1.5s.txt"), *names)
    after = line(2.5, read(f"coredns-1.15.0-{config}-Q20000-metrics-t2.5s.txt"), *names)
    assert before["dropped"] == 0 and before["kept"] == 35
    return {s.series: s.values for s in series.interval_samples(before, after, chosen(*names))}


def test_the_coredns_pack_on_a_real_coredns_under_20k_qps(read):
    got = coredns_interval(read, "minimal")
    requests = got["server.coredns.requests"]["value"]
    assert requests == 50026 - 29985  # coredns_dns_requests_total at 2.5 s and 1.5 s
    assert got["server.coredns.responses"] == {"NOERROR": requests}
    assert requests == pytest.approx(19996.530602, rel=0.01)  # dnsperf's own q/s in the same run (-dnsperf.txt)
    # the second's 20,041 requests by bucket: 19,711 ≤ 0.25 ms, 229 more ≤ 0.5 ms: p50 and p99 interpolated by hand
    assert got["server.coredns.duration"]["p50"] == pytest.approx(0.25 * (0.5 * 20041) / 19711)
    assert got["server.coredns.duration"]["p99"] == pytest.approx(0.25 + 0.25 * (0.99 * 20041 - 19711) / 229)
    assert got["server.process.cpu"]["value"] == pytest.approx((2.14 - 1.33) * 100)
    assert got["server.go.goroutines"] == {"value": 16}
    cpu_per_1000 = got["server.process.cpu"]["value"] / 100 / requests * 1000
    print(f"\nfigures: CoreDNS counted {requests:.0f} q/s (dnsperf 19,997), p50 {got['server.coredns.duration']['p50']:.3f} ms, "
          f"p99 {got['server.coredns.duration']['p99']:.3f} ms, {cpu_per_1000 * 1000:.1f} ms CPU per 1,000 queries")


def test_the_coredns_pack_sees_the_log_files_tail_latency(read):
    minimal, logged = coredns_interval(read, "minimal"), coredns_interval(read, "log_file")
    assert logged["server.coredns.requests"]["value"] == 49980 - 29937
    assert logged["server.coredns.duration"]["p99"] > 10 * minimal["server.coredns.duration"]["p99"]
