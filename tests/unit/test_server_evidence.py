"""Server evidence (kneeboard.evidence) on captured output: CoreDNS's own /metrics and dnsperf's report of the same
runs (tests/fixtures/tool-output/coredns-1.15.0-*), read through the exporter monitor's own selection and rates."""

from __future__ import annotations

from pathlib import Path

import pytest

from kneeboard.report import analyse
from kneeboard.evidence import bottleneck
from kneeboard.evidence.assess import agreement, assess, cost, figures, point_evidence
from kneeboard.evidence.readings import Readings, read
from kneeboard.exporters.packs import all_packs
from kneeboard.tools.dnsperf import ADAPTER as DNSPERF
from kneeboard.tools.exporter import series
from kneeboard.tools.exporter.select import select

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "tool-output"
WORK = DNSPERF.work_unit


def summary(files: list[tuple[float, str]], pack_names: list[str]) -> dict:
    """An exporter monitor's stored summary from captured expositions [(t, file)], as the monitor computes it."""
    packs = [all_packs()[name] for name in pack_names]
    scrapes = [{**select((FIXTURES / name).read_text(), packs), "t": t} for t, name in files]
    return series.summarise(series.all_samples(scrapes, packs), since=0.0)


def coredns_point(config: str) -> dict:
    """A dnsperf point against the lab's CoreDNS at 20,000 q/s with CoreDNS's own exporter beside it."""
    metrics = DNSPERF.parse_final((FIXTURES / f"coredns-1.15.0-{config}-Q20000-dnsperf.txt").read_text(), "", 0).metrics
    files = [(1.5, f"coredns-1.15.0-{config}-Q20000-metrics-t1.5s.txt"), (2.5, f"coredns-1.15.0-{config}-Q20000-metrics-t2.5s.txt")]
    return {**metrics, "id": 7, "phase": "saturation", "offered_rate": 20_000.0, "repeat": 1, "status": "completed",
            "monitors": {"exporter.coredns": summary(files, ["coredns", "process", "go"])}}


def test_coredns_counts_what_dnsperf_sent_and_its_cpu_per_thousand_is_its_process_counters():
    point = coredns_point("minimal")
    found = read(point["monitors"])
    assert found.requests.source == "exporter coredns: coredns_dns_requests_total"
    assert found.process_cpu.source == "exporter coredns: process_cpu_seconds_total"
    agreed = agreement(point, found)
    assert agreed["agree"] and abs(agreed["difference_pct"]) < 2, agreed
    assert agreed["text"].endswith("they agree")
    # between the two scrapes CoreDNS counted 20,041 requests and 0.81 CPU-seconds (the files' own counters)
    assert found.requests.value == pytest.approx(20_041) and found.process_cpu.value == pytest.approx(81.0)
    spent = cost(point, found, WORK)
    assert spent["value"] == pytest.approx(0.81 / 20_041 * 1000) and spent["unit"] == "CPU-s per 1,000 queries"
    assert figures(point, WORK) == {"server_rate": pytest.approx(20_041), "server_cost": pytest.approx(spent["value"])}


def test_a_server_that_counted_less_says_where_the_difference_went():
    point = coredns_point("minimal")
    found = read(point["monitors"])
    overloaded = {**point, "sent": point["sent"] * 1.5, "completed": point["completed"], "lost": point["sent"] * 0.5}
    found.drops = [bottleneck_reading(9_000.0, "the kernel's UDP receive buffer overflowed"),
                   bottleneck_reading(0.0, "the TCP listen queue overflowed")]
    said = agreement(overloaded, found)
    assert not said["agree"] and said["difference_pct"] < -30
    assert [w["what"] for w in said["where"]] == ["the kernel's UDP receive buffer overflowed"]  # a zero rate names nothing
    assert "UDP receive buffer overflowed: 9,000/s" in said["text"]
    found.drops = [bottleneck_reading(0.0, "the kernel's UDP receive buffer overflowed")]
    assert "no drop counter read here explains it" in agreement(overloaded, found)["text"]
    found.drops = []
    assert "nothing read here says where the difference went (no drop counter was read)" in agreement(overloaded, found)["text"]
    uncounted = {k: v for k, v in overloaded.items() if k not in ("sent", "lost")}  # a tool that counts no sends (wrk)
    assert "of the 19,997/s the client had answered" in agreement(uncounted, found)["text"]


def bottleneck_reading(value: float, what: str):
    from kneeboard.evidence.readings import Reading

    return Reading(value, "exporter node: node_netstat_Udp_RcvbufErrors", what)


def test_without_an_exporter_nothing_is_guessed():
    point = {**coredns_point("minimal"), "monitors": {"mpstat": {"cpu_max_busy_pct": 99.0}}}
    evidence = point_evidence(point, WORK)
    assert evidence["agreement"] is None and evidence["cost"] is None
    said = evidence["bottleneck"]
    assert said["kind"] == "none" and said["resource"] is None
    # the busiest CPU alone is read and said, not judged (one CPU at 99 % of two may be one thread, or all of them)
    assert said["text"].startswith("no rule could judge what was read (the busiest CPU of the load generator's host at 99 %")
    assert any(line.startswith("the server process's own CPU") for line in said["not_read"])
    assert assess([{**point, "monitors": {}}], work=WORK) is None


def test_nothing_near_saturation_is_said_with_the_closest_resource():
    said = bottleneck.name(read(coredns_point("minimal")["monitors"]), 20_000.0)
    assert said["kind"] == "none" and said["resource"] is None and said["text"].startswith("the client saw no sign of saturation")


def test_rules_each_name_their_resource_from_cpu_modes():
    one_queue = Readings(cpus={"0": {"softirq": 98.0, "idle": 1.0}, "1": {"softirq": 3.0, "idle": 61.0, "user": 30.0}})
    assert bottleneck.name(one_queue, None)["resource"] == "CPU0 softirq"
    both = Readings(cpus={"0": {"softirq": 20.0, "idle": 2.0}, "1": {"softirq": 18.0, "idle": 1.0}})
    found = bottleneck.name(both, None)
    assert found["resource"] == "CPU" and found["text"] == "both CPUs ≥ 98 % busy: CPU-bound"


def test_the_analysis_leads_its_conclusion_with_the_bottleneck_and_keeps_the_cost():
    points = [coredns_point("minimal"), {**coredns_point("log_file"), "id": 8, "offered_rate": 30_000.0}]
    result = analyse(points, unit="qps", work=WORK, host_shared="yes (lab namespace on this host)")
    evidence = result["evidence"]
    assert [p["point_id"] for p in evidence["points"]] == [7, 8]
    assert evidence["cost"]["points"] == 2 and evidence["cost"]["unit"] == "CPU-s per 1,000 queries"
    assert "host CPU includes the load generator's" in evidence["notes"][0]
    at = evidence["at"]
    # the second point was offered 30,000 q/s and achieved under 20,000: saturation seen, which nothing read explains
    assert at == {"point_id": 8, "offered_rate": 30_000.0, "where": "where the client first saw saturation"}
    assert result["conclusion"].startswith(f"Bottleneck ({at['where']}, 30,000 qps offered): saturation seen at 30,000 offered (")
    assert "none of the resources read (GC pauses stop the server" in result["conclusion"]
    assert "nothing near saturation" not in result["conclusion"]
    calm = analyse(points[:1], unit="qps", work=WORK)  # one point that kept up: nothing seen, the closest resource said
    assert calm["conclusion"].startswith("Bottleneck (at the highest load judged, 20,000 qps offered): the client saw no sign of saturation")


def test_every_monitor_reading_is_read_mpstat_node_and_process_from_their_real_output():
    """mpstat's JSON, the node monitor's scrapes and the process monitor's /proc readings, parsed by their adapters:
    mpstat as the load generator's host (each CPU's modes too), the node monitor's every mode (not softirq alone), the
    process monitor's CPU kept over an exporter's process pack."""
    from kneeboard.tools import mpstat
    from kneeboard.tools.node import parse as node_parse
    from kneeboard.tools.process.adapter import parse as process_parse

    on_host = mpstat.parse((FIXTURES / "mpstat-12.6-json-veth-q1-threaded-napi.json").read_text(), "", 0).extra
    scraped = node_parse((FIXTURES / "node-scrape-1s.jsonl").read_text(), "", 0).extra
    burn = process_parse((FIXTURES.parent / "process" / "kb-burn.jsonl").read_text(), "", 0).extra
    exporter = coredns_point("minimal")["monitors"]["exporter.coredns"]
    found = read({"mpstat": on_host, "node": scraped, "process": burn, "exporter.coredns": exporter})
    assert found.host.source == "mpstat on the load generator's host" and found.host.cpus == 2
    # each CPU's mean busy, averaged, is the all-CPU line mpstat printed itself (its own rounding: 0.01 % per field)
    per_cpu = [bottleneck.busy(modes) for modes in found.host.by_cpu.values()]
    assert sum(per_cpu) / len(per_cpu) == pytest.approx(on_host["all_avg_busy_pct"], abs=0.1)
    assert found.host.busiest == on_host["cpu_max_busy_pct"] and set(found.host.by_cpu["1"]) >= {"user", "system", "softirq", "idle"}
    assert found.cpus_source == "node monitor" and set(found.cpus["0"]) >= {"user", "system", "softirq", "idle", "iowait"}
    assert sum(found.cpus["1"].values()) == pytest.approx(100.0)  # every mode of the CPU's time, not softirq alone
    assert found.process_cpu.source == "process monitor: kb-burn's CPU from /proc"
    assert found.process_cpu.value == burn["cpu_pct_of_one"] and found.usable_cpus == burn["usable_cpus"]
    assert found.requests.source.startswith("exporter coredns")  # the exporter still counts the requests
    older = read({"node": {"soft_mean_pct_by_cpu": scraped["soft_mean_pct_by_cpu"]}})
    assert older.cpus_source == "node monitor (softirq only)" and set(older.cpus["0"]) == {"softirq"}


def test_a_process_monitor_that_found_no_process_leaves_the_exporters_process_cpu_standing():
    """A lab CoreDNS restarted by a variant was not found by the process monitor (pids [], cpu 0.0, its warning): that
    zero is not the server's CPU, the exporter's process pack gives it."""
    missed = {"process": "coredns", "pids": [], "cpu_s": 0.0, "window_s": 3.07, "cpu_pct_of_one": 0.0, "usable_cpus": None}
    found = read({"process": missed, **coredns_point("minimal")["monitors"]})
    assert found.process_cpu.source == "exporter coredns: process_cpu_seconds_total" and found.process_cpu.value > 0
