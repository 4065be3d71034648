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
    assert bottleneck.name(calm, None)["text"] == "the client saw no sign of saturation and no resource read is over its threshold: the closest is CPU0 softirq at 44 % of its threshold"
    hot = Readings(cpus={"0": {"softirq": 91.0, "idle": 0.0}, "1": {"softirq": 2.0, "idle": 70.0}})
    assert bottleneck.name(hot, None)["resource"] == "CPU0 softirq"


# ---- every figure read is used (issues 46 and 47): the rules on the mpstat, node and process monitors' readings

from kneeboard.evidence.assess import assess, client_saturation, sustained_from  # noqa: E402
from kneeboard.evidence.readings import HostCpus, Reading  # noqa: E402

SHARED = "yes (loopback)"


def host(mean: float, peak: float, cpus: int = 2) -> Readings:
    return Readings(host=HostCpus(cpus=cpus, mean_busy=mean, busiest=peak))


def test_a_full_shared_host_is_named_with_who_held_it_when_that_was_read():
    named = bottleneck.name(host(89.0, 100.0), None, shared=SHARED)  # the other CPU 78 % busy: none has a quarter idle
    assert named["resource"] == bottleneck.SHARED_HOST and named["kind"] == "utilisation"
    assert named["text"] == ("the host's CPUs, shared by the server and the load generator, are full (the busiest at "
                             "100 %, all 89 % busy on average, by mpstat); which process held them was not read")
    held = host(89.0, 100.0)
    held.process_cpu = Reading(110.0, "process monitor: coredns's CPU from /proc")
    assert named["value"] == pytest.approx(78.0) and named["threshold"] == bottleneck.FULL_OTHERS_PCT
    assert bottleneck.name(held, None, shared=SHARED)["text"].endswith("the server process held 1.10 of them")


def test_a_host_with_room_on_another_cpu_is_not_full_and_its_figures_carry_no_label():
    named = bottleneck.name(host(80.0, 95.0), None, shared=SHARED)  # the other CPU 65 % busy: room left
    assert named["kind"] == "none" and named["resource"] is None
    assert named["evidence"] == ["the host's CPUs: the busiest at 95 %, all 80 % busy on average, by mpstat"]
    assert "full" not in named["evidence"][0] and named["text"].startswith("the client saw no sign of saturation")


def test_the_generators_own_host_full_is_not_said_to_be_the_servers():
    named = bottleneck.name(host(97.0, 100.0), None)  # a remote server: mpstat read the generator's host alone
    assert named["resource"] == bottleneck.GENERATOR_HOST and "may be what limits" in named["text"]
    assert any(line.startswith("the server host's CPUs") for line in named["not_read"])


def test_every_cpu_full_fires_and_one_with_a_quarter_idle_is_one_thread_instead():
    full = Readings(cpus={"0": {"idle": 2.0}, "1": {"idle": 20.0}})  # 98 % and 80 %: mean 89, under CPU-bound's 95
    named = bottleneck.name(full, None)
    assert named["resource"] == "CPU" and named["text"] == "CPU0 is 98 % busy and the least busy, CPU1, 80 %: the CPUs are full"
    room = Readings(cpus={"0": {"idle": 2.0}, "1": {"idle": 30.0}})
    assert bottleneck.cpus_full(room).fired is False
    assert bottleneck.name(room, None)["text"].endswith("one thread (or one queue) limits")


def test_a_rules_label_is_said_only_when_it_fired():
    half = Readings(cpus={"0": {"idle": 50.0}, "1": {"idle": 54.0}})
    said = bottleneck.name(half, None)
    assert said["kind"] == "none" and not any("CPU-bound" in line or "full" in line for line in said["evidence"] + said["read"])
    assert "the 2 CPUs are 48 % busy on average (the least busy, CPU1, 46 %)" in said["read"]


def test_the_server_process_is_judged_on_its_usable_cpus_without_any_per_cpu_figure():
    pinned = Readings(process_cpu=Reading(98.0, "process monitor: coredns's CPU from /proc"), usable_cpus=1.0)
    named = bottleneck.name(pinned, None)
    assert named["resource"] == "server process CPU"
    assert named["text"] == "the server process uses 0.98 of its 1 usable CPU: the server process is CPU-bound"
    idle = Readings(process_cpu=Reading(60.0, "process monitor: coredns's CPU from /proc"), usable_cpus=1.0)
    assert bottleneck.name(idle, None)["kind"] == "none"
    shared_host = host(70.0, 90.0)  # no usable count: the shared host's CPUs are the process's to use
    shared_host.process_cpu = Reading(190.0, "exporter coredns: process_cpu_seconds_total")
    assert bottleneck.name(shared_host, None, shared=SHARED)["text"].startswith("the server process uses 1.90 of the host's 2 CPUs")
    alone = Readings(process_cpu=Reading(73.0, "exporter coredns: process_cpu_seconds_total"))
    assert bottleneck.name(alone, None)["read"] == ["the server process uses 0.73 of one CPU (how many it may use was not read)"]


def test_saturation_seen_with_nothing_over_its_threshold_is_said_as_such():
    said = bottleneck.name(host(80.0, 95.0), None, shared=SHARED, saturation="at this load (mean latency 3.2 ms)")
    assert said["text"] == ("saturation seen at this load (mean latency 3.2 ms); none of the resources read (the host's "
                            "CPUs: the busiest at 95 %, all 80 % busy on average, by mpstat) is over its threshold; not read: "
                            + "; ".join(said["not_read"]))
    assert any(line.startswith("the server process's own CPU") for line in said["not_read"])
    nothing = bottleneck.name(Readings(), None)
    assert nothing["text"].startswith("nothing server-side was read; not read: the server host's CPUs")


def test_the_client_sees_saturation_in_efficiency_a_fall_or_latency_far_above_the_lowest_loads():
    points = [{"offered_rate": 1000.0, "achieved_rate": 1000.0, "latency_avg_ms": 0.2},
              {"offered_rate": 2000.0, "achieved_rate": 1990.0, "latency_avg_ms": 0.5},  # kept up, 2.5×: nothing
              {"offered_rate": 3000.0, "achieved_rate": 2990.0, "latency_avg_ms": 2.5},  # 12.5× the lowest load's
              {"offered_rate": 4000.0, "achieved_rate": 3000.0, "latency_avg_ms": 1.0},  # 75 % of the offered load
              {"offered_rate": 5000.0, "achieved_rate": 2700.0, "latency_avg_ms": 1.0}]  # less than 3,000 achieved below
    signs = client_saturation(points)
    assert signs[:2] == [None, None]
    assert signs[2] == "mean latency 2.50 ms, 12× the lowest load's 0.20 ms"
    assert signs[3] == "3,000/s achieved of 4,000/s offered (75 %)"
    assert "2,700/s achieved, less than the 3,000/s of a lower load" in signs[4]


def test_a_resource_over_its_threshold_in_one_repetition_of_three_is_not_the_campaigns():
    assert sustained_from({1.0: False, 2.0: True, 3.0: True}) == 2.0 and sustained_from({1.0: True, 2.0: False}) is None

    def point(i: int, load: float, mean_busy: float) -> dict:
        return {"id": i, "offered_rate": load, "achieved_rate": load, "latency_avg_ms": 0.2, "repeat": i % 3,
                "status": "completed", "monitors": {"mpstat": {"cpus": 2, "all_avg_busy_pct": mean_busy, "cpu_max_busy_pct": 100.0}}}

    once = [point(i, load, 89.0 if (load, i % 3) == (2000.0, 1) else 70.0) for i, load in enumerate([1000.0] * 3 + [2000.0] * 3)]
    evidence = assess(once, work=("1,000 queries", 1000.0), host_shared=SHARED)
    assert [e["bottleneck"]["resource"] for e in evidence["points"]].count(bottleneck.SHARED_HOST) == 1
    assert evidence["bottleneck"]["resource"] is None and evidence["bottleneck"]["text"].startswith("the client saw no sign of saturation")
    twice = [point(i, load, 89.0 if load == 2000.0 and i % 3 else 70.0) for i, load in enumerate([1000.0] * 3 + [2000.0] * 3)]
    evidence = assess(twice, work=("1,000 queries", 1000.0), host_shared=SHARED)
    assert evidence["bottleneck"]["resource"] == bottleneck.SHARED_HOST


def test_a_server_starved_of_its_shared_cpu_is_named_only_where_saturation_was_seen():
    from kneeboard.evidence.bottleneck import PROCESS, name
    from kneeboard.evidence.readings import read

    monitors = {"process": {"process": "coredns", "pids": [9], "cpu_s": 2.0, "window_s": 4.3, "load_s": 4.0, "load_cpu_pct": 50.0,
                            "usable_cpus": 1, "runqueue_wait_s": 2.6, "host_busy_cpu_s": 8.5, "host_cpu_s": 8.6}}
    r = read(monitors)
    assert name(r, 40_000, saturation="at this load (31,000/s achieved of 40,000/s offered)")["resource"] == PROCESS
    assert name(r, 40_000)["resource"] != PROCESS  # it got half its CPU and nothing was seen to saturate: not its limit
    quiet = read({"process": {**monitors["process"], "host_busy_cpu_s": 6.0}})  # the host had room: it was not starved
    assert name(quiet, 40_000, saturation="at this load (…)")["resource"] != PROCESS
    # the host full by mpstat's reading (CPU-bound at 96.5 %; or CPU0 100 % and CPU1 89 %: "the CPUs are full") but not
    # by the process monitor's over the load (93.5 %): full is what any reading says (`make test` runs beside another
    # lane named the host's CPUs at 80,000 q/s, not CoreDNS, which got 0.53 of its one CPU and waited for it 0.55 of
    # the time)
    crowded = read({"process": {**monitors["process"], "host_busy_cpu_s": 8.04},  # 93.5 % busy by /proc/stat over the load
                    "mpstat": {"cpus": 2, "all_avg_busy_pct": 97.0, "cpu_max_busy_pct": 100.0,
                                           "mean_pct_by_cpu": {"0": {"idle": 0.0}, "1": {"idle": 7.0}}}})
    named = name(crowded, 40_000, shared=SHARED, saturation="at this load (31,000/s achieved of 40,000/s offered)")
    assert named["resource"] == PROCESS and "others' work" in named["text"], named
    assert any("busy on average" in e and "CPU-bound" in e for e in named["evidence"]), named  # the full host said beside it
    full = read({"process": {**monitors["process"], "host_busy_cpu_s": 8.04},
                 "mpstat": {"cpus": 2, "mean_pct_by_cpu": {"0": {"idle": 0.0}, "1": {"idle": 11.0}}}})
    named = name(full, 40_000, shared=SHARED, saturation="at this load (31,000/s achieved of 40,000/s offered)")
    assert named["resource"] == PROCESS and "the host's CPUs are full with others' work" in named["text"], named
