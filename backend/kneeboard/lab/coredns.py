"""CoreDNS in the lab: `example.lab` from a zone file Kneeboard writes (the names unbound answers, no forwarding, so
its cost is its own), its `prometheus` plugin on :9153, and its named configurations, which a variant switches
(`lab.coredns_config`). The binary is built by scripts/install-deps.sh, once per version."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from kneeboard.lab import builds, dns, processes

VERSION = "v1.15.0"
SERVICE = "lab-coredns"
PORT = 5300  # DNS on the lab address beside unbound's :53
METRICS_PORT = 9153
ROOT = Path(__file__).resolve().parents[3]
BUILD_DIR = Path(os.environ.get("KNEEBOARD_COREDNS_DIR", ROOT / ".cache" / "servers" / f"coredns-{VERSION}"))
BINARY = BUILD_DIR / "coredns"
QUERY_LOG = "queries.log"  # log_file's query log, in the service's folder of the lab's workdir (on disk)
SERVER_LOG = "coredns.log"  # stdout and stderr of the other configurations (startup, the errors plugin)

# name → (plugins beyond file + prometheus + errors, where stdout goes, what it is)
CONFIGS: dict[str, tuple[tuple[str, ...], str | None, str]] = {
    "minimal": ((), SERVER_LOG, "file + prometheus + errors"),
    "log_discard": (("log",), None, "minimal + log, stdout to /dev/null (the log plugin writes only to stdout)"),
    "log_file": (("log",), QUERY_LOG, f"minimal + log, stdout to {QUERY_LOG} on disk (emptied at each start)"),
}
DEFAULT = "minimal"


def binary() -> str | None:
    """The built CoreDNS binary, None when it is not built."""
    return builds.built(BINARY)


def missing_reason() -> str:
    """Why the lab has no CoreDNS: the install step's recorded build error, or that it was not built."""
    return builds.missing_reason(f"CoreDNS {VERSION}", BUILD_DIR, "1.26")


def zone_file() -> str:
    """The `example.lab` zone: SOA, NS and the A records unbound answers (dns.zone_records)."""
    zone = dns.ZONE
    lines = [
        f"$ORIGIN {zone}.",
        f"$TTL {dns.TTL}",
        f"@ IN SOA ns.{zone}. hostmaster.{zone}. 1 7200 3600 1209600 {dns.TTL}",
        f"@ IN NS ns.{zone}.",
        "ns IN A 192.0.2.53",
    ]
    lines += [f"{name}. IN A {address}" for name, address in dns.zone_records()]
    return "\n".join(lines) + "\n"


def corefile(host: str, workdir: Path, config: str) -> str:
    """The Corefile of one named configuration: `example.lab` on host:PORT only (other names are REFUSED)."""
    extra, _, _ = CONFIGS[config]
    return "\n".join(
        [
            f"{dns.ZONE}:{PORT} {{",
            f"    bind {host}",
            f"    file {workdir / 'db.example.lab'}",
            f"    prometheus {host}:{METRICS_PORT}",
            "    errors",
            *(f"    {plugin}" for plugin in extra),
            "}",
            "",
        ]
    )


def describe(config: str) -> str:
    """One line a target's notes and the docs show for a configuration."""
    return f"{config}: {CONFIGS[config][2]}"


def write_configs(host: str, workdir: Path) -> None:
    """Write the zone file and one Corefile per configuration (Corefile.NAME) under workdir."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "db.example.lab").write_text(zone_file())
    for config in CONFIGS:
        (workdir / f"Corefile.{config}").write_text(corefile(host, workdir, config))


def start(binary_path: str, host: str, workdir: Path, config: str, netns: str | None = None) -> subprocess.Popen:
    """Start CoreDNS with `config` (in a process group of its own, see processes.spawn), wait until it answers DNS on
    host:PORT and serves /metrics on :METRICS_PORT. Raises RuntimeError if it exits or does not answer in time."""
    write_configs(host, workdir)
    output = CONFIGS[config][1]
    log_path = workdir / output if output else Path(os.devnull)
    if output == QUERY_LOG:
        log_path.write_bytes(b"")  # a query log per start: it grows at the query rate
    argv = [binary_path, "-conf", str(workdir / f"Corefile.{config}")]
    proc = processes.spawn(["ip", "netns", "exec", netns, *argv] if netns else argv, log_path)
    dns.wait_until_answering(host, PORT, proc)
    processes.wait_tcp(host, METRICS_PORT, proc)
    return proc


def running_config(pid: int | None, started: int | None) -> str | None:
    """The configuration the CoreDNS process PID really runs (its `-conf Corefile.NAME`), None if it is gone."""
    if not processes.is_alive(pid, started):
        return None
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return None
    for flag, value in zip(argv, argv[1:]):
        if flag == b"-conf":
            name = Path(value.decode()).name.removeprefix("Corefile.")
            return name if name in CONFIGS else None
    return None
