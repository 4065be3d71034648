"""Three nginx backends for the lab's load balancers, each in a network namespace of its own joined to kblab by a veth
pair, each answering every path with a small body and `X-Backend: bN`:

    netns kbbN: kbe0 10.78.N.2/24 (default route via 10.78.N.1) ──veth── kblN 10.78.N.1/24 (netns kblab)

The balancers run in kblab and reach 10.78.N.2 directly. The host reaches the backends too (a probe, or a load tool
aimed at one backend): a route to 10.78.0.0/16 via the lab address, and forwarding switched on in kblab for its
interfaces kbl0 and kbl1..3 only (never net.ipv4.ip_forward). A backend is a lab service of its own
(`lab-backend-bN`), so it can be stopped and started alone."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from typing import Callable

from kneeboard.lab import nginx, processes
from kneeboard.lab.system import run, write_sysfs

COUNT = 3
PORT = 80
SUBNET = "10.78.0.0/16"
NETNS_PREFIX = "kbb"
INNER_IF = "kbe0"
BODY_BYTES = 3  # "bN\n"


def name(i: int) -> str:
    """The i-th backend's name (1-based), its X-Backend header and body: b1, b2, b3."""
    return f"b{i}"


def service(i: int) -> str:
    """The i-th backend's lab service name."""
    return f"lab-backend-{name(i)}"


def netns(i: int) -> str:
    """The i-th backend's network namespace."""
    return f"{NETNS_PREFIX}{i}"


def lab_if(i: int) -> str:
    """The kblab end of the i-th backend's veth pair (kbl0 is the host's)."""
    return f"kbl{i}"


def gateway(i: int) -> str:
    """The kblab side's address on the i-th backend's link (the balancers' source address towards it)."""
    return f"10.78.{i}.1"


def address(i: int) -> str:
    """The i-th backend's own address."""
    return f"10.78.{i}.2"


def indexes() -> range:
    """1..COUNT."""
    return range(1, COUNT + 1)


def _namespaces() -> set[str]:
    return {line.split()[0] for line in run(["ip", "netns", "list"], check=False).stdout.splitlines() if line.strip()}


def _exists(argv: list[str]) -> bool:
    return run(argv, check=False).returncode == 0


def ensure_network(lab_netns: str, lab_uplink: str, host_if: str, lab_addr: str) -> None:
    """Create what is missing of the backends' namespaces and links (idempotent), the host's route to SUBNET via the
    lab address, and forwarding in kblab on its uplink and the backends' links. Raises CommandFailed."""
    present = _namespaces()
    for i in indexes():
        ns, dev = netns(i), lab_if(i)
        if ns not in present:
            run(["ip", "netns", "add", ns])
        if not _exists(["ip", "-n", lab_netns, "link", "show", dev]):
            if _exists(["ip", "-n", ns, "link", "show", INNER_IF]):
                run(["ip", "-n", ns, "link", "del", INNER_IF])
            run(["ip", "-n", lab_netns, "link", "add", dev, "type", "veth", "peer", "name", INNER_IF, "netns", ns])
        run(["ip", "-n", lab_netns, "addr", "replace", f"{gateway(i)}/24", "dev", dev])
        run(["ip", "-n", ns, "addr", "replace", f"{address(i)}/24", "dev", INNER_IF])
        for link_ns, link in ((lab_netns, dev), (ns, "lo"), (ns, INNER_IF)):
            run(["ip", "-n", link_ns, "link", "set", link, "up"])
        run(["ip", "-n", ns, "route", "replace", "default", "via", gateway(i)])
        write_sysfs(f"/proc/sys/net/ipv4/conf/{dev}/forwarding", "1", lab_netns)
    write_sysfs(f"/proc/sys/net/ipv4/conf/{lab_uplink}/forwarding", "1", lab_netns)
    run(["ip", "route", "replace", SUBNET, "via", lab_addr, "dev", host_if])


def namespaces() -> list[str]:
    """The backends' namespaces (whether they exist or not)."""
    return [netns(i) for i in indexes()]


def remove() -> None:
    """Delete the backends' namespaces (their veth pairs go with them; the host's route goes with the lab's own link).
    Their servers are ended first, by PID (namespace.down)."""
    present = _namespaces()
    for ns in namespaces():
        if ns in present:
            run(["ip", "netns", "del", ns], check=False)


def nginx_config(i: int, workdir: Path) -> str:
    """The i-th backend's nginx: one worker, every path answered 200 with body "bN" and `X-Backend: bN`."""
    return "\n".join([
        *nginx.common_directives(workdir, workers="1"),
        "  default_type text/plain;",
        "  server {",
        f"    listen {address(i)}:{PORT};",
        f"    location / {{ add_header X-Backend {name(i)} always; return 200 \"{name(i)}\\n\"; }}",
        "  }",
        "}",
        "",
    ])  # fmt: skip


def start(i: int, binary: str, workdir: Path) -> subprocess.Popen:
    """Write the i-th backend's config under workdir and start its nginx in its namespace (a process group of its own);
    wait until it accepts connections. Raises RuntimeError if it exits or does not answer in time."""
    (workdir / "tmp").mkdir(parents=True, exist_ok=True)
    (workdir / "nginx.conf").write_text(nginx_config(i, workdir))
    argv = ["ip", "netns", "exec", netns(i), *nginx.nginx_argv(binary, workdir)]
    proc = processes.spawn(argv, workdir / "nginx.log")
    return ready(proc, address(i), PORT)


def ready(proc: subprocess.Popen, host: str, port: int, says: Callable[[], str | None] | None = None,
          config: str | None = None, timeout_s: float = 10.0) -> subprocess.Popen:
    """proc once host:port accepts connections and (given `says`, which reads it back from the running server) the
    server says it runs `config` (its control socket may answer a moment after its port). A server that does not in
    time is stopped (by PID), not left running unrecorded, and RuntimeError raised."""
    try:
        processes.wait_tcp(host, port, proc, timeout_s)
        deadline = time.monotonic() + timeout_s
        while says is not None and (running := says()) != config:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server says it runs {running!r}, not {config!r}")
            time.sleep(0.1)
    except RuntimeError:
        processes.stop(proc.pid, None)
        raise
    return proc
