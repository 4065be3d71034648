"""A real DNS server (unbound) answering `example.lab` from local data."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

from kneeboard.lab import processes

ZONE = "example.lab"
EXTRA_NAMES = 500
TTL = 300


def zone_names(count: int = EXTRA_NAMES) -> list[str]:
    """The names the server answers: www.example.lab plus h0000..hNNNN.example.lab."""
    return [f"www.{ZONE}"] + [f"h{i:04d}.{ZONE}" for i in range(count)]


def zone_records() -> list[tuple[str, str]]:
    """(name, IPv4 address) of every A record the lab's DNS servers answer (unbound's local data, CoreDNS's zone file)."""
    names = zone_names()
    return [(names[0], "192.0.2.10")] + [(name, f"192.0.2.{i % 250 + 1}") for i, name in enumerate(names[1:])]


def unbound_config(host: str, port: int, workdir: Path, threads: int = 1) -> str:
    """An unbound configuration serving the local zone only, in the foreground."""
    data = [f'  local-data: "{name}. {TTL} IN A {address}"' for name, address in zone_records()]
    return "\n".join(
        [
            "server:",
            f"  interface: {host}",
            f"  port: {port}",
            "  do-daemonize: no",
            '  username: ""',
            '  chroot: ""',
            f'  directory: "{workdir}"',
            '  pidfile: ""',
            '  logfile: ""',
            "  use-syslog: no",
            "  verbosity: 0",
            f"  num-threads: {threads}",
            '  module-config: "iterator"',
            "  access-control: 127.0.0.0/8 allow",
            "  access-control: 10.0.0.0/8 allow",
            "  access-control: ::1 allow",
            '  local-zone: "." refuse',
            f'  local-zone: "{ZONE}." static',
            *data,
            "remote-control:",
            "  control-enable: no",
            "",
        ]
    )


def unbound_binary() -> str | None:
    """Path of the unbound binary, if installed."""
    return shutil.which("unbound") or (Path("/usr/sbin/unbound").exists() and "/usr/sbin/unbound") or None


def start_unbound(host: str, port: int, workdir: Path, netns: str | None = None) -> subprocess.Popen:
    """Start unbound in the foreground on host:port (optionally inside a netns), in a process group of its own (not a
    session: see processes.spawn); wait until it answers."""
    binary = unbound_binary()
    if binary is None:
        raise RuntimeError("unbound is not installed (apt-get install unbound)")
    workdir.mkdir(parents=True, exist_ok=True)
    conf = workdir / "unbound.conf"
    conf.write_text(unbound_config(host, port, workdir))
    argv = [binary, "-d", "-c", str(conf)]
    if netns:
        argv = ["ip", "netns", "exec", netns, *argv]
    proc = processes.spawn(argv, workdir / "unbound.log")
    if netns is None:
        wait_until_answering(host, port, proc)
    return proc


def wait_until_answering(host: str, port: int, proc: subprocess.Popen | None = None, timeout_s: float = 10.0) -> None:
    """Send a query for www.example.lab until an answer comes back or the timeout passes."""
    query = _query_packet(f"www.{ZONE}")
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the DNS server exited with code {proc.returncode}")
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_DGRAM) as sock:
            sock.settimeout(0.3)
            try:
                sock.sendto(query, (host, port))
                if sock.recv(512)[:2] == query[:2]:
                    return
            except OSError:
                time.sleep(0.1)
    raise RuntimeError(f"no DNS answer from {host}:{port} within {timeout_s:.0f} s")


def _query_packet(name: str) -> bytes:
    header = b"\x4b\x42\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00"
    labels = b"".join(bytes([len(p)]) + p.encode() for p in name.split(".")) + b"\x00"
    return header + labels + b"\x00\x01\x00\x01"
