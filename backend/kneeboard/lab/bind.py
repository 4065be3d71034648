"""BIND 9 (Debian's `bind9`) in the lab: `named` authoritative for `example.lab` from the zone file CoreDNS serves too (the
names unbound answers), no recursion, no forwarding, so its cost is its own; its statistics channel on the lab address;
its named configurations (query log off or on, to a file on disk), which a variant switches (`lab.bind_config`).
Every file it reads or writes is in its folder of the lab's workdir; it runs as root in the foreground (`-f`), with
named's default worker threads (one per CPU)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from kneeboard.lab import coredns, dns, processes

SERVICE = "lab-bind"
PORT = 5302  # DNS on the lab address beside unbound's :53, CoreDNS's :5300 and AdGuard's :5301
STATS_PORT = 8053  # its statistics channel (/json/v1/server, /xml/v3/…), the port BIND's documentation uses
ZONE_FILE = "db.example.lab"
QUERY_LOG = "queries.log"  # querylog's file, in the service's folder of the lab's workdir (on disk)
SERVER_LOG = "named.log"  # named's own messages (start-up, zone load, errors) and its stdout/stderr
CONF_PREFIX = "named.conf."  # one file per configuration: named.conf.NAME, the `-c` named runs with

# name → (query log on, what it is)
CONFIGS: dict[str, tuple[bool, str]] = {
    "minimal": (False, "authoritative only, querylog no"),
    "querylog": (True, f"minimal + querylog yes, one line per query to {QUERY_LOG} on disk (emptied at each start)"),
}
DEFAULT = "minimal"


def binary() -> str | None:
    """Debian's named, None when bind9 is not installed."""
    return shutil.which("named") or (Path("/usr/sbin/named").exists() and "/usr/sbin/named") or None


def missing_reason() -> str:
    """Why the lab has no BIND."""
    return "BIND 9 (named) not installed: run scripts/install-deps.sh (it installs Debian's bind9)"


def describe(config: str) -> str:
    """One line a target's notes and the docs show for a configuration."""
    return f"{config}: {CONFIGS[config][1]}"


def named_conf(host: str, workdir: Path, config: str) -> str:
    """named.conf of one named configuration: `example.lab` from ZONE_FILE on host:PORT (UDP and TCP), nothing else
    served (no recursion, no forwarding, no rndc control channel), the statistics channel on host:STATS_PORT."""
    querylog = CONFIGS[config][0]
    channels = [f'    channel server {{ file "{workdir / SERVER_LOG}"; severity info; print-time yes; }};',
                "    category default { server; };"]
    if querylog:
        channels += [f'    channel queries {{ file "{workdir / QUERY_LOG}"; print-time yes; }};',
                     "    category queries { queries; };"]
    return "\n".join([
        "options {",
        f'    directory "{workdir}";',
        "    pid-file none;",
        "    session-keyfile none;",
        f"    listen-on port {PORT} {{ {host}; }};",
        "    listen-on-v6 { none; };",
        "    recursion no;",
        "    allow-query { any; };",
        "    dnssec-validation no;",
        "    notify no;",
        f"    querylog {'yes' if querylog else 'no'};",
        "};",
        "controls { };",
        f"statistics-channels {{ inet {host} port {STATS_PORT} allow {{ any; }}; }};",
        "logging {",
        *channels,
        "};",
        f'zone "{dns.ZONE}" {{ type primary; file "{workdir / ZONE_FILE}"; }};',
        "",
    ])  # fmt: skip


def write_configs(host: str, workdir: Path) -> None:
    """Write the zone file (CoreDNS's: the same records) and one named.conf.NAME per configuration under workdir."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / ZONE_FILE).write_text(coredns.zone_file())
    for config in CONFIGS:
        (workdir / f"{CONF_PREFIX}{config}").write_text(named_conf(host, workdir, config))


def start(binary_path: str, host: str, workdir: Path, config: str, netns: str | None = None) -> subprocess.Popen:
    """Start named with `config` in the foreground (in a process group of its own, see processes.spawn), its query log
    emptied, and wait until it answers DNS on host:PORT and serves its statistics channel. Raises RuntimeError if it
    exits or does not answer in time."""
    write_configs(host, workdir)
    (workdir / QUERY_LOG).unlink(missing_ok=True)  # a query log per start: it grows at the query rate
    argv = [binary_path, "-f", "-c", str(workdir / f"{CONF_PREFIX}{config}")]
    proc = processes.spawn(["ip", "netns", "exec", netns, *argv] if netns else argv, workdir / SERVER_LOG)
    dns.wait_until_answering(host, PORT, proc)
    processes.wait_tcp(host, STATS_PORT, proc)
    return proc


def running_config(pid: int | None, started: int | None) -> str | None:
    """The configuration the named process PID really runs (its `-c named.conf.NAME`), None if it is gone."""
    conf = processes.argv_option(pid, started, "-c")
    name = Path(conf).name.removeprefix(CONF_PREFIX) if conf else None
    return name if name in CONFIGS else None
