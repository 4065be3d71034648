"""A point's server-side count from the two readings that bracket its load (tools/exporter/series.window_summary) and
PromQL's rate between the first and last samples stored inside the load (promql/queries.rate_between_samples)."""

from __future__ import annotations

import pytest

from kneeboard.exporters.packs import all_packs
from kneeboard.promql import queries
from kneeboard.tools.base import Sample
from kneeboard.tools.exporter import series

COREDNS = [all_packs()["coredns"], all_packs()["process"]]


def reading(t: float, requests: float, cpu: float, buckets: dict[str, float] | None = None) -> dict:
    values = {"coredns.requests": {"value": requests}, "process.cpu": {"value": cpu}}
    if buckets is not None:
        values["coredns.latency"] = {"value": buckets}
    return {"t": t, "values": values}


def test_counters_are_the_increase_between_the_readings_over_the_load():
    before, after = reading(100.0, 1_000_000, 50.0), reading(104.3, 1_080_000, 52.4)
    # a 1 s scrape after the load (t=105) read nothing: it must not pull the figure down
    tail = [Sample(t=105.0, values={"value": 0.0}, series="server.coredns.requests")]
    summary = series.window_summary(before, after, COREDNS, load_s=4.0, inside=tail[:0])
    assert summary["packs"]["coredns"]["requests"]["value"] == pytest.approx(20_000)  # 80,000 over the 4 s load
    assert summary["window"]["counted"]["coredns.requests"] == {"value": 80_000}
    assert summary["window"]["before_t"] == 100.0 and summary["window"]["after_t"] == 104.3
    cpu = next(q for q in all_packs()["process"].queries if q.name == "cpu")
    assert summary["packs"]["process"]["cpu"]["value"] == pytest.approx(2.4 / 4.0 * cpu.scale)


def test_a_counter_that_went_down_counts_from_zero_and_is_said():
    summary = series.window_summary(reading(0, 500, 1), reading(4, 120, 2), COREDNS, 4.0, [])
    assert summary["window"]["counted"]["coredns.requests"] == {"value": 120}
    assert summary["window"]["resets"] == ["coredns.requests value"]


def test_gauges_come_from_scrapes_inside_the_load_never_after_it():
    gauge = next(q for p in COREDNS for q in p.queries if q.kind == "gauge")
    pack = next(p for p in COREDNS if gauge in p.queries)
    key = f"{pack.name}.{gauge.name}"
    before = {"t": 0.0, "values": {key: {"value": 1.0}}}
    after = {"t": 4.0, "values": {key: {"value": 9.0}}}
    inside = [Sample(t=2.0, values={"value": 3.0}, series=f"server.{key}"), Sample(t=3.0, values={"value": 5.0}, series=f"server.{key}")]
    assert series.window_summary(before, after, COREDNS, 4.0, inside)["packs"][pack.name][gauge.name]["value"] == 4.0
    assert series.window_summary(before, after, COREDNS, 4.0, [])["packs"][pack.name][gauge.name]["value"] == 9.0 * gauge.scale


def test_summarise_never_falls_back_to_intervals_outside_the_window():
    samples = [Sample(t=t, values={"value": v}, series="server.coredns.requests") for t, v in ((1.0, 10_000), (5.0, 0.0))]
    assert series.summarise(samples, since=1.5, until=4.5)["packs"] == {}
    assert series.summarise(samples, since=0.5, until=4.5)["packs"]["coredns"]["requests"]["value"] == 10_000


def test_promql_rate_between_the_first_and_last_samples_inside_the_load():
    expr = queries.raw_counter_exprs(all_packs()["coredns"], [("job", "=", "coredns")], 8.0)[0]
    assert expr.promql.startswith("coredns_dns_requests_total{") and expr.promql.endswith("[8000ms]")
    # two servers' series; one restarts in the middle (600 → 100)
    result = [{"metric": {"server": "a"}, "values": [[10.0, "0"], [11.0, "1000"], [12.0, "2000"]]},
              {"metric": {"server": "b"}, "values": [[10.5, "500"], [11.5, "600"], [12.5, "100"]]},
              {"metric": {"server": "c"}, "values": [[11.0, "7"]]}]  # one sample: no rate
    rates = queries.rate_between_samples(expr, result, 200)
    assert rates == {"value": pytest.approx(1000 + 200 / 2.0)}


def test_promql_answers_that_are_not_matrices_are_refused():
    expr = queries.raw_counter_exprs(all_packs()["coredns"], [], 8.0)[0]
    with pytest.raises(ValueError):
        queries.rate_between_samples(expr, {"not": "a list"}, 200)
    with pytest.raises(ValueError):
        queries.rate_between_samples(expr, [{"metric": {}, "values": []}] * 3, 2)


def test_a_series_born_during_the_load_counts_from_zero():
    before = {"t": 0.0, "values": {"process.cpu": {"value": 1.0}}}  # no request yet: CoreDNS has no such series
    summary = series.window_summary(before, reading(4.0, 40_000, 2.0), COREDNS, 4.0, [])
    assert summary["window"]["counted"]["coredns.requests"] == {"value": 40_000}


def test_cost_is_cpu_seconds_over_requests_counted_both_over_the_whole_load():
    from kneeboard.evidence.assess import agreement, cost
    from kneeboard.evidence.readings import read

    monitors = {
        "exporter.coredns": {"packs": {"coredns": {"requests": {"value": 20_000.0}}},
                             "window": {"before_t": 10.0, "after_t": 16.2, "load_s": 4.0,
                                        "counted": {"coredns.requests": {"value": 80_000}}}},
        # dnsperf waited 2 s for late answers: the process window is 6.2 s, the load 4 s
        "process": {"process": "coredns", "pids": [7], "cpu_s": 3.2, "window_s": 6.2, "cpu_pct_of_one": 51.6,
                    "load_s": 4.0, "load_cpu_pct": 80.0, "usable_cpus": 2},
    }
    point = {"achieved_rate": 19_990.0, "sent": 80_000, "completed": 79_960, "lost": 40}
    r = read(monitors)
    assert r.process_cpu.value == 80.0 and r.process_cpu.count == 3.2 and r.requests.count == 80_000
    found = cost(point, r, ("1,000 queries", 1000))
    assert found["value"] == pytest.approx(3.2 / 80_000 * 1000) and "whole load" in found["source"]
    said = agreement(point, r)
    assert said["agree"] and said["count"] == 80_000 and "right before the load and after it, once it stopped rising (6.20 s apart)" in said["text"]


def test_the_closing_reading_waits_while_the_servers_request_counter_still_rises():
    before, closing = reading(100.0, 1_000_000, 50.0), reading(104.0, 1_080_000, 52.4)  # 20,000/s over the load
    backlog = reading(104.1, 1_081_000, 52.5)  # 10,000/s a tenth of a second after the tool ended: still answering
    assert series.still_counting(before, closing, backlog, COREDNS, 0.01)
    idle = reading(104.2, 1_081_010, 52.6)  # 100/s: 0.5 % of the load's rate, and the CPU counter does not count
    assert not series.still_counting(before, backlog, idle, COREDNS, 0.01)
    assert series.still_counting(before, backlog, idle, COREDNS, 0.001)
    assert not series.still_counting(before, closing, {"t": 104.1, "error": "refused"}, COREDNS, 0.01)
    assert not series.still_counting(reading(100.0, 5, 50.0), reading(104.0, 5, 52.0), reading(104.1, 9, 52.0), COREDNS, 0.01)  # nothing counted over the load


def test_client_and_server_agree_on_counts_when_the_clients_rates_run_to_its_last_answer():
    from kneeboard.evidence.assess import agreement
    from kneeboard.evidence.readings import read

    # dnsperf's run time runs to its last answer (4.1 s for a 4 s load on a busy host): its rates read 2.5 % lower than
    # the server's over the load, though both counted the same queries
    monitors = {"exporter.coredns": {"packs": {"coredns": {"requests": {"value": 91_600 / 4.0}}},
                                     "window": {"before_t": 10.0, "after_t": 15.9, "load_s": 4.0,
                                                "counted": {"coredns.requests": {"value": 91_600}}}}}
    point = {"achieved_rate": 91_500 / 4.1, "sent": 92_000, "completed": 91_500, "lost": 500}
    said = agreement(point, read(monitors))
    assert said["server_rate"] > 1.02 * said["sent_rate"]  # by their rates, the server counted more than was sent...
    assert said["agree"] and said["difference_pct"] == pytest.approx(100 * (91_600 - 92_000) / 92_000)  # ...by counts, not
    assert said["text"].startswith("the server counted 91,600 of the 92,000 queries the client sent (-0.4 %): they agree")
    more = {**monitors["exporter.coredns"], "window": {**monitors["exporter.coredns"]["window"], "counted": {"coredns.requests": {"value": 95_000}}}}
    assert "more than was sent" in agreement(point, read({"exporter.coredns": more}))["text"]
