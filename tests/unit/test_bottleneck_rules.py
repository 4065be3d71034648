"""The bottleneck rules (kneeboard.evidence.bottleneck) on captured output: the lab's node_exporter and CoreDNS under
saturation with one veth queue and no RPS, two queues with RPS, and CoreDNS pushed past its capacity
(scripts/capture_bottlenecks.py), and seed 003's own mpstat of a server with one receive queue and with several."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from kneeboard.evidence import bottleneck
from kneeboard.evidence.assess import client_rates, point_evidence
from kneeboard.evidence.readings import Readings, read
from kneeboard.tools.dnsperf import ADAPTER as DNSPERF

from tests.unit.test_server_evidence import FIXTURES, summary

MPSTAT_MODES = {"%usr": "user", "%sys": "system", "%iowait": "iowait", "%irq": "irq", "%soft": "softirq", "%idle": "idle"}


def lab_point(case: str) -> dict:
    """A dnsperf point of a captured lab case with the lab's node_exporter and CoreDNS's own exporter beside it."""
    plain = FIXTURES / f"dnsperf-lab-{case}.txt"
    text = plain.read_text() if plain.exists() else gzip.decompress(plain.with_suffix(".txt.gz").read_bytes()).decode()
    metrics = DNSPERF.parse_final(text, "", 0).metrics
    scrapes = lambda prefix: [(2.0, f"{prefix}-{case}-t1.txt"), (4.0, f"{prefix}-{case}-t2.txt")]  # noqa: E731
    return {**metrics, "id": 1, "offered_rate": None, "monitors": {
        "exporter.node": summary(scrapes("node_exporter-1.5.0-lab"), ["node"]),
        "exporter.coredns": summary(scrapes("coredns-1.15.0-lab"), ["coredns", "process", "go"])}}


def mpstat_busy(case: str) -> dict[str, float]:
    """Per-CPU busy % (100 − idle − iowait) from the same window's mpstat (`Average:` lines)."""
    busy = {}
    for line in (FIXTURES / f"mpstat-lab-{case}.txt").read_text().splitlines():
        fields = line.split()
        if fields and fields[0] == "Average:" and fields[1].isdigit():
            busy[fields[1]] = 100.0 - float(fields[-1]) - float(fields[5])
    return busy


def seed_readings(name: str) -> Readings:
    """Seed 003's mpstat lines (one interval, 16 CPUs) as the CPUs' time by mode."""
    lines = (FIXTURES / f"mpstat-seed003-{name}.txt").read_text().splitlines()
    header = next(line.split()[1:] for line in lines if "%usr" in line)
    cpus = {}
    for line in lines:
        fields = line.split()
        if len(fields) == len(header) + 1 and fields[1].isdigit():
            cpus[fields[1]] = {MPSTAT_MODES[h]: float(v) for h, v in zip(header[1:], fields[2:]) if h in MPSTAT_MODES}
    return Readings(cpus=cpus, cpus_source="mpstat")


@pytest.mark.parametrize("case", ["q1-norps", "q2-rps"])
def test_the_lab_saturated_is_cpu_bound_as_mpstat_saw_it(case):
    point = lab_point(case)
    found = read(point["monitors"])
    busy = {cpu: bottleneck.busy(modes) for cpu, modes in found.cpus.items()}
    assert busy == pytest.approx(mpstat_busy(case), abs=3.0)  # node_exporter's CPU counters and mpstat agree
    named = bottleneck.name(found, None)
    assert named["resource"] == "CPU" and named["kind"] == "utilisation" and named["text"].endswith("CPU-bound"), named
    assert named["value"] == pytest.approx(sum(busy.values()) / len(busy))
    # veth hands a packet to the receiving stack on the sending CPU: neither case puts the softirq on one CPU
    assert bottleneck.one_queue(found) is None
    assert max(m["softirq"] for m in found.cpus.values()) < 30


def test_pushed_past_its_capacity_the_kernel_drops_and_the_rules_name_it():
    """CoreDNS offered twice its capacity: the lab namespace's Udp_RcvbufErrors rose between the scrapes. (The server's
    count against the client's is judged on real points, whose windows match: tests/integration/test_server_evidence_lab.py;
    here the scrapes cover 2 s of dnsperf's 8.)"""
    point = lab_point("overload-rcvbuf")
    found = read(point["monitors"])
    rcvbuf = next(d for d in found.drops if d.what == "the kernel's UDP receive buffer overflowed")
    assert rcvbuf.value == pytest.approx(3_599 / 2, rel=0.05)  # the counter rose by 3,599 between scrapes 2 s apart
    named = point_evidence(point, DNSPERF.work_unit)["bottleneck"]
    assert named["kind"] == "saturation" and named["resource"] == "the kernel's UDP receive buffer overflowed", named
    assert named["value"] == pytest.approx(100 * rcvbuf.value / client_rates(point)["sent_rate"])
    assert any(line.endswith("CPU-bound") for line in named["evidence"])  # the CPUs, over their threshold too


def test_seed_003_one_receive_queue_is_named_from_its_own_mpstat():
    named = bottleneck.name(seed_readings("1queue"), None)
    assert named["resource"] == "CPU11 softirq" and named["value"] == pytest.approx(98.99)
    assert named["text"].startswith("CPU11's softirq is 99 % while CPU14 is 78 % idle: one receive queue")


def test_seed_003_several_receive_queues_are_not_one_queue_but_busy_cpus():
    readings = seed_readings("multiqueue")
    assert bottleneck.one_queue(readings) is None  # four CPUs carry 77-84 % softirq: spread, none saturated alone
    named = bottleneck.name(readings, None)
    assert named["resource"] == "CPU" and named["value"] == pytest.approx(100 - 3.73, abs=0.15), named  # the seed's own "all" line
    assert "16 CPUs are 96 % busy on average (the least busy, CPU0, 80 %)" in named["text"]


def test_each_rule_fires_only_over_its_threshold():
    calm = Readings(cpus={"0": {"softirq": 40.0, "idle": 50.0}, "1": {"softirq": 2.0, "idle": 70.0}})
    assert bottleneck.name(calm, None)["kind"] == "none"
    assert bottleneck.name(calm, None)["text"] == "nothing near saturation: the closest is CPU0 softirq at 44 % of its threshold"
    hot = Readings(cpus={"0": {"softirq": 91.0, "idle": 0.0}, "1": {"softirq": 2.0, "idle": 70.0}})
    assert bottleneck.name(hot, None)["resource"] == "CPU0 softirq"
