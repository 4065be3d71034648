"""The PromQL a point asks for (pure): packs written as PromQL over a target's selector, the window cut below
Prometheus's 11,000 points per series, and answers read into the scrape's series and keys."""

from __future__ import annotations

import pytest

from kneeboard.exporters.packs import all_packs
from kneeboard.promql import queries
from kneeboard.promql.schemas import PrometheusSource, ServerCreate
from pydantic import ValidationError


def test_a_selector_is_parsed_and_written_back_quoted():
    matchers = queries.parse_selector('{job="coredns", instance=~"10\\\\.0\\\\.0\\\\.5:.*",  env!="a\\"b"}')
    assert matchers == [("job", "=", "coredns"), ("instance", "=~", "10\\.0\\.0\\.5:.*"), ("env", "!=", 'a"b')]
    assert queries.render_selector(matchers) == '{job="coredns",instance=~"10\\\\.0\\\\.0\\\\.5:.*",env!="a\\"b"}'
    assert queries.parse_selector("") == [] and queries.parse_selector("{}") == []
    for bad in ['{job=coredns}', '{job="x"} or vector(1)', '{__name__="up"}', 'job="x",,', '{a="1"}) + (x']:
        with pytest.raises(ValueError):
            queries.parse_selector(bad)


def test_pack_queries_read_as_the_scrape_reads_them():
    selector = [("job", "=", "coredns")]
    exprs = {e.series + e.suffix: e for e in queries.pack_exprs(all_packs()["coredns"], selector, 2.0)}
    assert exprs["server.coredns.requests"].promql == 'sum (rate(coredns_dns_requests_total{job="coredns"}[2000ms]))'
    assert exprs["server.coredns.responses"].promql == 'sum by (rcode) (rate(coredns_dns_responses_total{job="coredns"}[2000ms]))'
    assert exprs["server.coredns.durationp99"].promql == ('histogram_quantile(0.99, sum by (le) '
                                                         '(rate(coredns_dns_request_duration_seconds_bucket{job="coredns"}[2000ms])))')
    assert exprs["server.coredns.durationp99"].scale == 1000
    assert exprs["server.coredns.cache_entries"].promql == 'sum by (type) (coredns_cache_entries{job="coredns"})'
    cpu = queries.pack_exprs(all_packs()["node"], [], 2.0)[0]
    assert cpu.promql == "sum by (cpu,mode) (rate(node_cpu_seconds_total[2000ms]))" and cpu.scale == 100


def test_a_long_point_is_cut_below_eleven_thousand_points_per_series():
    day = queries.windows(1000.0, 1000.0 + 86_400, 1.0)
    assert len(day) == 9 and all((end - start) / 1.0 + 1 <= 10_000 < queries.MAX_POINTS for start, end in day)
    assert day[0][0] == 1000.0 and day[-1][1] == 1000.0 + 86_400
    assert all(b[0] - a[1] == 1.0 for a, b in zip(day, day[1:]))  # no step asked twice, none skipped
    assert queries.windows(5.0, 5.0, 1.0) == [(5.0, 5.0)] and queries.windows(5.0, 4.0, 1.0) == []
    assert queries.first_step(100.0, 110.0, 2.0, 1.0) == 103.0 and queries.first_step(100.0, 101.5, 2.0, 1.0) == 101.5


def test_an_answer_becomes_the_scrapes_keys_and_too_many_series_keep_none():
    [expr] = [e for e in queries.pack_exprs(all_packs()["coredns"], [], 2.0) if e.series.endswith("responses")]
    matrix = [{"metric": {"rcode": "NOERROR"}, "values": [[10, "100.5"], [11, "NaN"]]},
              {"metric": {"rcode": "SERVFAIL"}, "values": [[10, "2"]]}]
    steps, count = queries.read_matrix(expr, matrix, 200)
    assert count == 2 and steps == {10.0: {"NOERROR": 100.5, "SERVFAIL": 2.0}, 11.0: {"NOERROR": None}}
    quantile = next(e for e in queries.pack_exprs(all_packs()["coredns"], [], 2.0) if e.suffix == "p99")
    assert queries.read_matrix(quantile, [{"metric": {}, "values": [[10, "0.002"]]}], 200)[0] == {10.0: {"p99": 2.0}}
    with pytest.raises(ValueError, match="10000 series, over the cap of 200"):
        queries.read_matrix(expr, [{"metric": {"rcode": str(i)}, "values": []} for i in range(10_000)], 200)
    samples = queries.samples_of({"server.coredns.responses": steps})
    assert [s.t for s in samples] == [10.0] and samples[0].series == "server.coredns.responses"  # a step of only NaN: none


def test_a_prometheus_url_and_source_are_checked():
    assert ServerCreate(name="team", url="https://prom.example.com/prometheus/").url == "https://prom.example.com/prometheus"
    for url in ["ftp://prom.example.com", "https://u:p@prom.example.com", "http://prom.example.com/?x=1", "http://-x/"]:
        with pytest.raises(ValidationError) as caught:
            ServerCreate(name="team", url=url)
        assert caught.value.errors()[0]["loc"] == ("url",)
    with pytest.raises(ValidationError, match="not both"):
        ServerCreate(name="team", url="http://p:9090", bearer_token="a", basic={"username": "u", "password": "p"})
    with pytest.raises(ValidationError, match="name packs or queries"):
        PrometheusSource(server="team")
    with pytest.raises(ValidationError, match="no pack 'nope'"):
        PrometheusSource(server="team", packs=["nope"])
    with pytest.raises(ValidationError, match="not a label selector"):
        PrometheusSource(server="team", packs=["node"], selector='{job=~".+"} or up')


def test_a_source_that_no_longer_reads_is_a_warning_not_a_lost_point():
    from kneeboard.promql.evaluate import after_point

    found = after_point({"server": "team", "packs": ["gone_pack"]}, 100.0, 105.0, sleep=lambda _s: None)
    assert found.samples == [] and found.summary == {} and found.label == "exporter.prometheus team"
    assert len(found.warnings) == 1 and found.warnings[0].startswith("prometheus team: not read: ValidationError"), found.warnings
