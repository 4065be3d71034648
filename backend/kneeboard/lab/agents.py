"""Load agents in the lab: K network namespaces `kb-agent-1..K`, each with its own address on a lab bridge,
so fan-out runs for real on one box (each agent its own source address, its own ephemeral ports).

    kb-agent-i: kbe0 10.77.1.(10+i)/24 ──veth── kbaI ─┐
                                                     kbbr0 10.77.1.1 (host: the API and Redis listen here)
    host: kbh0 10.77.0.1 ──veth── kbl0 10.77.0.2 (netns kblab, the servers under test)

The host routes between the two lab subnets: forwarding is switched on for kbbr0 and kbh0 only (never
net.ipv4.ip_forward), and the agents get routes to the lab subnets only, no default route. The agents
are `kneeboard agent` processes started with `ip netns exec` (which execs, so the PID is the agent's)
in an environment without DATABASE_URL, REDIS_URL or the admin token, each with its own agent credential:
they reach the API on the bridge address and nothing else of the server.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from kneeboard.lab import processes
from kneeboard.lab_link import HOST_ADDR, HOST_IF, NETNS, PREFIX_LEN
from kneeboard.lab.system import run

BRIDGE = "kbbr0"
BRIDGE_ADDR = "10.77.1.1"
AGENT_SUBNET = "10.77.1.0/24"
LAB_SUBNET = "10.77.0.0/24"
INNER_IF = "kbe0"
MAX_AGENTS = 16  # a plan fans a point over at most 16 agents
NETNS_PREFIX = "kb-agent-"
SECRET_ENV = ("DATABASE_URL", "REDIS_URL", "KB_ADMIN_TOKEN")


def netns(i: int) -> str:
    """The i-th agent's namespace (1-based)."""
    return f"{NETNS_PREFIX}{i}"


def address(i: int) -> str:
    """The i-th agent's own address on the bridge."""
    return f"10.77.1.{10 + i}"


def agent_name(i: int) -> str:
    """The name the i-th lab agent registers with (also its queue)."""
    return f"agent-{i}"


def _namespaces() -> list[str]:
    names = [line.split()[0] for line in run(["ip", "netns", "list"], check=False).stdout.splitlines() if line.strip()]
    return [name for name in names if re.fullmatch(rf"{NETNS_PREFIX}\d+", name)]


def _exists(argv: list[str]) -> bool:
    return run(argv, check=False).returncode == 0


def _forwarding(dev: str, on: bool) -> None:
    Path(f"/proc/sys/net/ipv4/conf/{dev}/forwarding").write_text("1\n" if on else "0\n")


def forward_rules() -> list[list[str]]:
    """The FORWARD rules that let the two lab subnets reach each other whatever the chain's policy: a running dockerd
    sets it to DROP, which would cut the agents off from the servers under test."""
    return [["FORWARD", "-s", src, "-d", dst, "-m", "comment", "--comment", "kneeboard-lab", "-j", "ACCEPT"]
            for src, dst in ((AGENT_SUBNET, LAB_SUBNET), (LAB_SUBNET, AGENT_SUBNET))]


def _allow_forwarding(on: bool) -> None:
    """Add the FORWARD rules (once) or remove them; nothing where iptables is not installed."""
    if shutil.which("iptables") is None:
        return
    for rule in forward_rules():
        present = _exists(["iptables", "-C", *rule])
        if on and not present:
            run(["iptables", "-I", *rule[:1], "1", *rule[1:]])
        elif not on and present:
            run(["iptables", "-D", *rule])


def ensure(count: int) -> list[str]:
    """Make (or complete) the bridge and agent namespaces 1..count, routed to the lab; needs the lab's link up.
    Returns the namespaces' names. Raises CommandFailed."""
    if not 1 <= count <= MAX_AGENTS:
        raise ValueError(f"AGENTS must be 1…{MAX_AGENTS}, got {count}")
    if not _exists(["ip", "link", "show", BRIDGE]):
        run(["ip", "link", "add", BRIDGE, "type", "bridge"])
    run(["ip", "addr", "replace", f"{BRIDGE_ADDR}/{PREFIX_LEN}", "dev", BRIDGE])
    run(["ip", "link", "set", BRIDGE, "up"])
    for dev in (BRIDGE, HOST_IF):
        _forwarding(dev, True)
    _allow_forwarding(True)
    run(["ip", "-n", NETNS, "route", "replace", AGENT_SUBNET, "via", HOST_ADDR])
    names = []
    for i in range(1, count + 1):
        ns, host_if = netns(i), f"kba{i}"
        if ns not in _namespaces():
            run(["ip", "netns", "add", ns])
        if not _exists(["ip", "link", "show", host_if]):
            run(["ip", "link", "add", host_if, "type", "veth", "peer", "name", INNER_IF, "netns", ns])
        run(["ip", "link", "set", host_if, "master", BRIDGE, "up"])
        run(["ip", "-n", ns, "addr", "replace", f"{address(i)}/{PREFIX_LEN}", "dev", INNER_IF])
        run(["ip", "-n", ns, "link", "set", "lo", "up"])
        run(["ip", "-n", ns, "link", "set", INNER_IF, "up"])
        run(["ip", "-n", ns, "route", "replace", LAB_SUBNET, "via", BRIDGE_ADDR])
        names.append(ns)
    return names


def remove() -> None:
    """End whatever runs in the agent namespaces (by PID), delete them, their links and the bridge."""
    for ns in _namespaces():
        for pid in run(["ip", "netns", "pids", ns], check=False).stdout.split():
            processes.stop(int(pid), None)
        run(["ip", "netns", "del", ns], check=False)  # its veth ends go with it
    if _exists(["ip", "link", "show", BRIDGE]):
        run(["ip", "link", "del", BRIDGE])
    if _exists(["ip", "link", "show", HOST_IF]):
        _forwarding(HOST_IF, False)
    _allow_forwarding(False)


def start_api(env: dict[str, str], rundir: Path) -> tuple[subprocess.Popen, str]:
    """An API process for the agents, listening on the bridge address (beside the one on loopback) and answering to
    that Host. The agents reach nothing else of the server: Redis and the database stay on loopback."""
    from kneeboard import stack

    return stack.start_api({**env, "HOST": BRIDGE_ADDR}, rundir, host=BRIDGE_ADDR, log="api-agents.log")


def agent_env(credential: str) -> dict[str, str]:
    """The agents' environment: ours without database, broker or admin credentials, plus the agent's credential."""
    env = {k: v for k, v in os.environ.items() if k not in SECRET_ENV}
    env["KB_AGENT_TOKEN"] = credential
    return env


def start(i: int, api_url: str, credential: str, log_path: Path) -> subprocess.Popen:
    """Start `kneeboard agent --name agent-i` in namespace kb-agent-i (its credential in its environment, not argv).
    Plain http to the bridge is asked for explicitly: the bridge is this machine's own, reached by nobody else."""
    argv = ["ip", "netns", "exec", netns(i), sys.executable, "-m", "kneeboard.cli", "agent", "--name", agent_name(i), "--url", api_url,
            "--insecure-http"]  # fmt: skip
    env = agent_env(credential)
    backend = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [backend, env.get("PYTHONPATH")]))
    return processes.spawn(argv, log_path, env=env)
