"""HAProxy (Debian's 2.6) in the lab: HTTP on the lab address in front of the three nginx backends (lab.backends), with
health checks every 500 ms (fall 2, rise 2), `retries 0` and no redispatch, so a dead backend's failures reach the
client; its stats socket in its folder of the lab's workdir, mode 0600 and owned by root (Kneeboard reads it, no one
else); its built-in Prometheus exporter on the lab address at :METRICS_PORT/metrics (its own frontend). Its named configurations (balancing policies) are switched by a variant (`lab.haproxy_config`)."""

from __future__ import annotations

import csv
import io
import socket
import subprocess
from pathlib import Path

from kneeboard.lab import backends, processes

SERVICE = "lab-haproxy"
PACKAGE = "haproxy"  # Debian's, and its binary
PORT = 8080
METRICS_PORT = 8405  # its built-in Prometheus exporter (http-request use-service prometheus-exporter), at /metrics
STATS_SOCKET = "stats.sock"
SERVER_LOG = "haproxy.log"
CHECK = "check inter 500 fall 2 rise 2"
DESCRIPTION_PREFIX = "kneeboard-config-"  # global `description`, read back through the stats socket (`show info`)

# name → (balance, retries, redispatch, what it is)
CONFIGS: dict[str, tuple[str, int, bool, str]] = {
    "roundrobin": ("roundrobin", 0, False, "balance roundrobin, retries 0, no redispatch: a dead backend's failures "
                                           "reach the client until the checks take it out"),
    "source": ("source", 0, False, "balance source (a hash of the client's address: one client, one backend), "
                                   "retries 0, no redispatch"),
    "redispatch": ("roundrobin", 2, True, "balance roundrobin, option redispatch, retries 2: a failed connection is "
                                          "retried on another backend, which hides a dead backend from the client"),
}  # fmt: skip
DEFAULT = "roundrobin"
COMMON = (f"HTTP checks (GET /) on every backend, {CHECK.removeprefix('check ')} (a backend is out after two failed "
          "checks, back after two good ones), timeouts connect 2 s, client and server 30 s")


def describe(config: str) -> str:
    """One line a target's notes and the docs show for a configuration."""
    return f"{config}: {CONFIGS[config][3]}"


def config_text(host: str, workdir: Path, config: str) -> str:
    """haproxy.cfg for one named configuration: a frontend on host:PORT, one backend of the lab's three servers."""
    balance, retries, redispatch, _ = CONFIGS[config]
    return "\n".join([
        "global",
        f"    description {DESCRIPTION_PREFIX}{config}",
        f"    stats socket {workdir / STATS_SOCKET} mode 600 level admin",
        "    user nobody",  # after binding: the socket stays root's
        "    group nogroup",
        "defaults",
        "    mode http",
        "    timeout connect 2s",
        "    timeout client 30s",
        "    timeout server 30s",
        f"    retries {retries}",
        "    option redispatch" if redispatch else "    no option redispatch",
        "frontend prometheus",  # HAProxy's own figures (the haproxy pack): its own frontend, not counted as lb's
        f"    bind {host}:{METRICS_PORT}",
        "    http-request use-service prometheus-exporter if { path /metrics }",
        "    no log",
        "frontend lb",
        f"    bind {host}:{PORT}",
        "    default_backend servers",
        "backend servers",
        f"    balance {balance}",
        "    option httpchk GET /",
        *(f"    server {backends.name(i)} {backends.address(i)}:{backends.PORT} {CHECK}" for i in backends.indexes()),
        "",
    ])  # fmt: skip


def write_configs(host: str, workdir: Path) -> None:
    """One haproxy.NAME.cfg per configuration under workdir (0700: the stats socket's folder is root's)."""
    workdir.mkdir(mode=0o700, parents=True, exist_ok=True)
    workdir.chmod(0o700)
    for config in CONFIGS:
        (workdir / f"haproxy.{config}.cfg").write_text(config_text(host, workdir, config))


def start(binary_path: str, host: str, workdir: Path, config: str, netns: str | None = None) -> subprocess.Popen:
    """Start HAProxy in the foreground (-db) with `config` (a process group of its own), wait until it accepts
    connections on host:PORT and its stats socket answers. Raises RuntimeError if it exits or does not answer."""
    write_configs(host, workdir)
    (workdir / STATS_SOCKET).unlink(missing_ok=True)
    argv = [binary_path, "-db", "-f", str(workdir / f"haproxy.{config}.cfg")]
    proc = processes.spawn(["ip", "netns", "exec", netns, *argv] if netns else argv, workdir / SERVER_LOG)

    return backends.ready(proc, host, PORT, lambda: running_config(workdir), config)


def command(workdir: Path, line: str, timeout_s: float = 2.0, socket_name: str = STATS_SOCKET) -> str:
    """One command on HAProxy's stats socket `workdir/socket_name` (e.g. `show stat`, `disable server servers/b1`); its
    answer. Raises OSError."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(timeout_s)
        sock.connect(str(workdir / socket_name))
        sock.sendall(line.encode() + b"\n")
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks).decode()


def show_stat(workdir: Path) -> list[dict[str, str]]:
    """`show stat` as rows (pxname, svname, status, scur, stot, hrsp_5xx…: HAProxy's CSV columns). Raises OSError."""
    text = command(workdir, "show stat").lstrip("# ")
    return [row for row in csv.DictReader(io.StringIO(text)) if row.get("pxname")]


def running_config(workdir: Path) -> str | None:
    """The configuration the running HAProxy says it runs (its `description`, from `show info` on the stats socket),
    None if the socket does not answer."""
    try:
        info = command(workdir, "show info", timeout_s=1.0)
    except OSError:
        return None
    for line in info.splitlines():
        key, _, value = line.partition(": ")
        if key == "description" and value.startswith(DESCRIPTION_PREFIX):
            name = value.removeprefix(DESCRIPTION_PREFIX)
            return name if name in CONFIGS else None
    return None
