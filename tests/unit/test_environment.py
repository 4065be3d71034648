"""Environment facts: pure parsers on captured output, and collect_facts never raising."""

from __future__ import annotations

import pathlib

from kneeboard import environment
from kneeboard.environment import channel_facts, collect_facts, offload_facts, parse_cpuinfo, parse_meminfo, parse_tool_version

FIXTURES = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "tool-output"


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text()


def test_channel_facts_q1_and_q4():
    q1 = channel_facts("nic.kbl0", fixture("ethtool-6.1-l-q1.txt"))
    assert q1["nic.kbl0.channels.rx"] == "1" and q1["nic.kbl0.channels.tx"] == "1"
    assert q1["nic.kbl0.channels.rx_max"] == "4"
    assert q1["nic.kbl0.channels.combined"] == "n/a"
    q4 = channel_facts("nic.kbl0", fixture("ethtool-6.1-l-q4.txt"))
    assert q4["nic.kbl0.channels.rx"] == "4"


def test_offload_facts_veth():
    facts = offload_facts("nic.kbl0", fixture("ethtool-6.1-k-veth.txt"))
    assert facts["nic.kbl0.gro"] == "on"
    assert facts["nic.kbl0.rx-udp-gro-forwarding"] == "on"
    assert facts["nic.kbl0.rx-gro-list"] == "off"


def test_tool_versions_from_captured_text():
    dnsperf = fixture("dnsperf-2.10-error-badarg.stdout.txt") + fixture("dnsperf-2.10-error-badarg.stderr.txt")
    assert parse_tool_version("dnsperf", dnsperf) == "2.10.0"
    assert parse_tool_version("wrk", "wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer\nUsage: wrk <options> <url>\n") == "debian/4.1.0-3+b2"
    assert parse_tool_version("iperf3", "iperf 3.12 (cJSON 1.7.15)\nLinux vm 6.18\n") == "3.12"
    assert parse_tool_version("mpstat", "sysstat version 12.6.1\n(C) Sebastien Godard\n") == "12.6.1"
    assert parse_tool_version("unbound", "Version 1.17.1\n\nConfigure line: …\n") == "1.17.1"
    assert parse_tool_version("nginx", "nginx version: nginx/1.22.1\n") == "1.22.1"
    assert parse_tool_version("named", "BIND 9.18.49-1~deb12u3-Debian (Extended Support Version) <id:>\n") == "9.18.49-1~deb12u3-Debian"
    assert parse_tool_version("ethtool", "ethtool version 6.1\n") == "6.1"
    assert parse_tool_version("ping", "ping from iputils 20221126\nlibcap: yes\n") == "20221126"
    assert parse_tool_version("ip", "ip utility, iproute2-6.1.0, libbpf 1.1.2\n") == "6.1.0"
    assert parse_tool_version("wrk", "") is None
    assert parse_tool_version("unknown-tool", "Version 1") is None


def test_cpuinfo_and_meminfo():
    cpuinfo = "processor\t: 0\nmodel name\t: AMD EPYC\n\nprocessor\t: 1\nmodel name\t: AMD EPYC\n"
    assert parse_cpuinfo(cpuinfo) == {"cpu.model": "AMD EPYC", "cpu.online": "2"}
    assert parse_cpuinfo("") == {}
    assert parse_meminfo("MemTotal:       24684544 kB\nMemFree: 1 kB\n") == {"memory.total_mib": "24106"}
    assert parse_meminfo("") == {}


def test_collect_facts_basic_keys():
    facts = collect_facts()
    assert facts["kernel"] and int(facts["cpu.count"]) >= 1
    assert "cpu.model" in facts
    assert "sysctl.net.core.rmem_max" in facts and "sysctl.net.core.netdev_max_backlog" in facts
    assert all(isinstance(v, str) for v in facts.values())


def test_collect_facts_missing_things_never_raise(monkeypatch):
    monkeypatch.setattr(environment, "which", lambda tool: None)
    facts = collect_facts(interfaces=["kbnosuch9"], netns_interfaces=[("kbnosuchns", "kbnosuch8")], tools=["dnsperf", "nosuchtool"])
    assert facts["tool.dnsperf"] == "unavailable"
    assert facts["tool.nosuchtool"] == "unavailable"
    assert facts["nic.kbnosuch9.present"] == "no"


def test_collect_facts_loopback():
    facts = collect_facts(interfaces=["lo"])
    assert facts["nic.lo.rx_queues"] == "1"
    assert facts["nic.lo.threaded"] in ("0", "1", "unavailable")
    assert facts["nic.lo.gro"] in ("on", "off", "unavailable")
