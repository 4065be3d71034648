"""Environment facts taken when a campaign (and each variant) starts: kernel, CPU, memory, tool versions,
and per interface the settings that change network results (channels, GRO, RPS, threaded NAPI, sysctls).

Every fact is a flat string; a missing tool or file makes the fact "unavailable", never an exception.
"""

from __future__ import annotations

import ipaddress
import os
import platform
import re
import socket
from typing import Iterable

from kneeboard.lab import adguard, coredns, ethtool
from kneeboard.lab.system import CommandFailed, cpu_count, in_netns, is_root, list_sysfs, read_sysfs, run, which

UNAVAILABLE = "unavailable"
AUTOGROUP = "/proc/sys/kernel/sched_autogroup_enabled"
SYSCTLS = (
    "net.core.rmem_max",
    "net.core.rmem_default",
    "net.core.wmem_max",
    "net.core.netdev_max_backlog",
    "net.core.netdev_budget",
    "net.core.rps_sock_flow_entries",
)

# the lab's servers and tools (not load tools: those declare their version argv in their adapters)
# → (argv that prints the version and exits at once without sending anything, regex for the version)
SERVER_VERSION_ARGV: dict[str, tuple[list[str], str]] = {
    "unbound": (["unbound", "-V"], r"^Version\s+(\S+)"),
    "nginx": (["nginx", "-v"], r"nginx/(\S+)"),
    "coredns": ([str(coredns.BINARY), "-version"], r"^CoreDNS-(\S+)"),  # built into .cache/servers by install-deps.sh
    "adguardhome": ([str(adguard.BINARY), "--version"], r"AdGuard Home, version v?(\S+)"),  # the same
    "named": (["named", "-v"], r"^BIND (\S+)"),  # Debian's bind9
    "haproxy": (["haproxy", "-v"], r"HAProxy version (\S+)"),  # Debian's
    "caddy": (["caddy", "version"], r"^v?(\d+\.\d+\S*)"),  # Debian's
    "ethtool": (["ethtool", "--version"], r"ethtool version\s+(\S+)"),
    "ip": (["ip", "-V"], r"iproute2-(\S+?),?\s"),
}


# ---------------------------------------------------------------- pure parsers


def _version_spec(tool: str) -> tuple[list[str], str] | None:
    from kneeboard.tools.registry import adapter

    try:
        found = adapter(tool)
    except KeyError:
        return SERVER_VERSION_ARGV.get(tool)
    return (list(found.version_argv), found.version_pattern.pattern) if found.version_pattern else None


def parse_tool_version(tool: str, text: str) -> str | None:
    """The version a tool printed (stdout and stderr together), e.g. "2.10.0" for dnsperf; None if not found."""
    spec = _version_spec(tool)
    if spec is None:
        return None
    match = re.search(spec[1], text, re.MULTILINE)
    return match.group(1) if match else None


def parse_cpuinfo(text: str) -> dict[str, str]:
    """/proc/cpuinfo → {"cpu.model": first "model name", "cpu.online": processor entries}."""
    facts = {}
    models = re.findall(r"^model name\s*:\s*(.+)$", text, re.MULTILINE)
    if models:
        facts["cpu.model"] = models[0].strip()
    processors = re.findall(r"^processor\s*:", text, re.MULTILINE)
    if processors:
        facts["cpu.online"] = str(len(processors))
    return facts


def parse_meminfo(text: str) -> dict[str, str]:
    """/proc/meminfo → {"memory.total_mib": …}."""
    match = re.search(r"^MemTotal:\s*(\d+)\s*kB", text, re.MULTILINE)
    return {"memory.total_mib": str(int(match.group(1)) // 1024)} if match else {}


def channel_facts(prefix: str, text: str) -> dict[str, str]:
    """`ethtool -l` output → {PREFIX.channels.rx: current, …, PREFIX.channels.rx_max: max} ("n/a" kept)."""
    parsed = ethtool.parse_channels(text)
    facts = {}
    for section, suffix in (("current", ""), ("max", "_max")):
        for kind, value in parsed.get(section, {}).items():
            facts[f"{prefix}.channels.{kind}{suffix}"] = "n/a" if value is None else str(value)
    return facts


def offload_facts(prefix: str, text: str) -> dict[str, str]:
    """`ethtool -k` output → {PREFIX.gro, PREFIX.rx-udp-gro-forwarding, PREFIX.gso, PREFIX.tso}: "on"/"off"."""
    parsed = ethtool.parse_features(text)
    facts = {}
    for name in ("gro", "rx-udp-gro-forwarding", "rx-gro-list", "gso", "tso"):
        on = ethtool.feature_on(parsed, name)
        if on is not None:
            facts[f"{prefix}.{name}"] = "on" if on else "off"
    return facts


def host_sharing(facts: dict) -> dict[str, str] | None:
    """What a report must say when the load generator shares the host with the server (the facts
    `generator.shares_host` and `kernel.sched_autogroup_enabled`); None when it does not, or is not known to."""
    shared = str(facts.get("generator.shares_host") or "")
    if not shared.startswith("yes"):
        return None
    where = shared.partition("(")[2].rstrip(")") or "this host"
    autogroup = str(facts.get("kernel.sched_autogroup_enabled") or UNAVAILABLE)
    note = (f"the load generator shares this host with the server ({where}); kernel.sched_autogroup_enabled={autogroup}: "
            "near saturation the latency depends on how the scheduler groups the two")
    return {"shares_host": shared, "sched_autogroup_enabled": autogroup, "note": note}


# ---------------------------------------------------------------- collectors


def _read_proc(path: str) -> str:
    try:
        with open(path) as fh:
            return fh.read()
    except OSError:
        return ""


def tool_version(tool: str) -> str:
    """The installed version of a known tool ("unavailable" if missing, unknown or unparsable)."""
    spec = _version_spec(tool)
    if spec is None or which(spec[0][0]) is None:
        return UNAVAILABLE
    try:
        proc = run(spec[0], timeout_s=5, check=False)
    except CommandFailed:
        return UNAVAILABLE
    return parse_tool_version(tool, proc.stdout + "\n" + proc.stderr) or UNAVAILABLE


def interface_facts(dev: str, netns: str | None = None) -> dict[str, str]:
    """Facts of one interface (in a netns if given): channels, offloads, RPS masks, threaded NAPI, MTU."""
    prefix = f"nic.{dev}"
    facts = {f"{prefix}.netns": netns or "host"}
    base = f"/sys/class/net/{dev}"
    if netns and not is_root():
        return {**facts, f"{prefix}.error": "unavailable (reading another netns needs root)"}
    try:
        if not list_sysfs(base, netns):
            return {**facts, f"{prefix}.present": "no"}
        for option, parse, name in (("-l", channel_facts, "channels"), ("-k", offload_facts, "gro")):
            proc = run(in_netns(netns, ["ethtool", option, dev]), check=False) if which("ethtool") else None
            got = parse(prefix, proc.stdout) if proc is not None and proc.returncode == 0 else {}
            facts.update(got or {f"{prefix}.{name}": UNAVAILABLE})
        queues = [q for q in list_sysfs(f"{base}/queues", netns) if q.startswith("rx-")]
        facts[f"{prefix}.rx_queues"] = str(len(queues))
        masks = [read_sysfs(f"{base}/queues/{q}/rps_cpus", netns) or "?" for q in queues]
        facts[f"{prefix}.rps_cpus"] = " ".join(masks) if masks else UNAVAILABLE
        facts[f"{prefix}.threaded"] = read_sysfs(f"{base}/threaded", netns) or UNAVAILABLE
        facts[f"{prefix}.mtu"] = read_sysfs(f"{base}/mtu", netns) or UNAVAILABLE
    except CommandFailed:
        facts[f"{prefix}.error"] = UNAVAILABLE
    return facts


def _is_local_address(address: str) -> bool:
    """True if `address` is one of this host's own (a socket can be bound to it here)."""
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.bind((address, 0))
            return True
    except OSError:
        return False


def _where(host: str) -> str | None:
    """"loopback", "an address of this host", or None for another host; OSError when the name does not resolve."""
    addresses = {info[4][0] for info in socket.getaddrinfo(host, None, proto=socket.IPPROTO_UDP)}
    if any(ipaddress.ip_address(a.partition("%")[0]).is_loopback for a in addresses):
        return "loopback"
    return "an address of this host" if any(_is_local_address(a) for a in addresses) else None


def on_this_host(host: str) -> str | None:
    """Whether `host` is this host: "loopback", "an address of this host", or None (another host, or unresolvable)."""
    try:
        return _where(host)
    except (OSError, UnicodeError):
        return None


def generator_shares_host(target_host: str, lab_address: str | None = None) -> str:
    """Whether this host, the load generator, is also the server's: "yes (loopback)", "yes (lab namespace on this
    host)" (when `lab_address`, the address of a lab namespace on this host, is the target's), "yes (an address of
    this host)", "no", or "unavailable (…)" when the target's name does not resolve."""
    if target_host == lab_address:
        return "yes (lab namespace on this host)"
    try:
        where = _where(target_host)
    except (OSError, UnicodeError):
        return f"{UNAVAILABLE} (cannot resolve {target_host})"
    return f"yes ({where})" if where else "no"


def collect_facts(
    interfaces: Iterable[str] = (),
    netns_interfaces: Iterable[tuple[str, str]] = (),
    tools: Iterable[str] = (),
    target_host: str | None = None,
    lab_address: str | None = None,
) -> dict[str, str]:
    """All facts as flat strings: kernel, kernel.sched_autogroup_enabled, cpu.*, memory.*, tool.NAME, nic.DEV.*,
    sysctl.NAME, and with `target_host` generator.shares_host (see generator_shares_host) (never raises)."""
    facts = {"kernel": platform.release() or UNAVAILABLE, "cpu.count": str(cpu_count())}
    facts["kernel.sched_autogroup_enabled"] = _read_proc(AUTOGROUP).strip() or UNAVAILABLE
    if target_host:
        facts["generator.shares_host"] = generator_shares_host(target_host, lab_address)
    facts["cpu.count_total"] = str(os.cpu_count() or UNAVAILABLE)
    facts.update(parse_cpuinfo(_read_proc("/proc/cpuinfo")))
    facts.setdefault("cpu.model", platform.processor() or UNAVAILABLE)
    facts.update(parse_meminfo(_read_proc("/proc/meminfo")))
    for tool in tools:
        facts[f"tool.{tool}"] = tool_version(tool)
    for dev in interfaces:
        facts.update(interface_facts(dev))
    for netns, dev in netns_interfaces:
        facts.update(interface_facts(dev, netns))
    for name in SYSCTLS:
        value = _read_proc("/proc/sys/" + name.replace(".", "/")).strip()
        facts[f"sysctl.{name}"] = " ".join(value.split()) or UNAVAILABLE
    return facts
