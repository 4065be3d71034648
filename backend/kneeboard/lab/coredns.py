"""CoreDNS in the lab: `example.lab` from a zone file Kneeboard writes (the names unbound answers, no forwarding, so
its cost is its own) over UDP/TCP, DNS over TLS and DNS over HTTPS (each on its own port, with the lab's certificate),
its `prometheus` plugin on :9153, and its named configurations, which a variant switches (`lab.coredns_config`).
The binary is built by scripts/install-deps.sh, once per version."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from kneeboard.lab import builds, dns, nginx, processes

VERSION = "v1.15.0"
SERVICE = "lab-coredns"
PORT = 5300  # DNS on the lab address beside unbound's :53
DOT_PORT = 853  # DNS over TLS, its standard port
DOH_PORT = 8443  # DNS over HTTPS at /dns-query (nginx holds :443)
DOH_PATH = "/dns-query"  # the only path CoreDNS's https server answers
METRICS_PORT = 9153
TLS_DIR = "tls"  # the certificate (cert.pem, self-signed: its own CA) and key.pem, in the service's folder
CERT_RENEW_S = 86_400  # a certificate expiring within a day is made again at the next start
ROOT = Path(__file__).resolve().parents[3]
BUILD_DIR = Path(os.environ.get("KNEEBOARD_COREDNS_DIR", ROOT / ".cache" / "servers" / f"coredns-{VERSION}"))
BINARY = BUILD_DIR / "coredns"
QUERY_LOG = "queries.log"  # log_file's query log, in the service's folder of the lab's workdir (on disk)
SERVER_LOG = "coredns.log"  # stdout and stderr of the other configurations (startup, the errors plugin)
# One CPU for the server, the other for the load generator on a 2-CPU host: with a P per CPU, Go's idle Ps spin for
# work against the generator, and that spinning, not the queries, was most of CoreDNS's CPU per query and of its spread
# between repetitions (58 µs a query ± 2.5 % with two, 39 µs with one, on loopback at 10,000 q/s).
GOMAXPROCS = 1
# CoreDNS as shipped, beside the pinned one: its own process (service SHIPPED_SERVICE, a lab target of its own) with Go's
# default GOMAXPROCS (one P per usable CPU), the same named configurations (`lab.coredns_shipped_config`), plain DNS on
# SHIPPED_PORT and its metrics on SHIPPED_METRICS_PORT (no DoT or DoH: those ports are the pinned one's).
SHIPPED_SERVICE = "lab-coredns-shipped"
SHIPPED_PORT = 5303  # beside unbound :53, lab-coredns :5300, AdGuard :5301, BIND :5302
SHIPPED_METRICS_PORT = 9154
SHIPPED_FOLDER = "coredns-shipped"  # its folder in the lab's workdir

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
    """The Corefile of one named configuration: `example.lab` on host:PORT (UDP and TCP), DOT_PORT and DOH_PORT, the same
    plugins in each server block (other names are REFUSED)."""
    extra, _, _ = CONFIGS[config]
    tls = f"    tls {workdir / TLS_DIR / 'cert.pem'} {workdir / TLS_DIR / 'key.pem'}"
    blocks = ((f"{dns.ZONE}:{PORT}", None), (f"tls://{dns.ZONE}:{DOT_PORT}", tls), (f"https://{dns.ZONE}:{DOH_PORT}", tls))
    return "".join(_server_block(server, host, workdir, METRICS_PORT, tls_line, extra) for server, tls_line in blocks)


def shipped_corefile(host: str, workdir: Path, config: str = DEFAULT) -> str:
    """The as-shipped CoreDNS's Corefile: one named configuration's plugins, plain DNS on host:SHIPPED_PORT only."""
    return _server_block(f"{dns.ZONE}:{SHIPPED_PORT}", host, workdir, SHIPPED_METRICS_PORT, None, CONFIGS[config][0])


def _server_block(server: str, host: str, workdir: Path, metrics_port: int, tls_line: str | None, extra: tuple[str, ...]) -> str:
    lines = [
        f"{server} {{",
        f"    bind {host}",
        *([tls_line] if tls_line else []),
        f"    file {workdir / 'db.example.lab'}",
        f"    prometheus {host}:{metrics_port}",
        "    errors",
        *(f"    {plugin}" for plugin in extra),
        "}",
    ]
    return "\n".join(lines) + "\n"


def describe(config: str) -> str:
    """One line a target's notes and the docs show for a configuration."""
    return f"{config}: {CONFIGS[config][2]}"


def write_configs(host: str, workdir: Path) -> None:
    """Write the zone file, one Corefile per configuration (Corefile.NAME) and the certificate (when it is missing or
    expires within a day) under workdir."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "db.example.lab").write_text(zone_file())
    if not _certificate_lasts(workdir / TLS_DIR / "cert.pem"):
        nginx.generate_certificate(host, workdir / TLS_DIR)
    for config in CONFIGS:
        (workdir / f"Corefile.{config}").write_text(corefile(host, workdir, config))


def start(binary_path: str, host: str, workdir: Path, config: str, netns: str | None = None) -> subprocess.Popen:
    """Start CoreDNS with `config` (in a process group of its own, see processes.spawn), wait until it answers DNS on
    host:PORT, serves /metrics on :METRICS_PORT and accepts DoT and DoH connections. Raises RuntimeError if it exits
    or does not answer in time."""
    write_configs(host, workdir)
    env = {**os.environ, "GOMAXPROCS": str(GOMAXPROCS)}
    return _launch([binary_path, "-conf", str(workdir / f"Corefile.{config}")], _output(workdir, config), env, host, PORT,
                   (METRICS_PORT, DOT_PORT, DOH_PORT), netns)


def start_shipped(binary_path: str, host: str, workdir: Path, config: str = DEFAULT, netns: str | None = None) -> subprocess.Popen:
    """Start CoreDNS as shipped (Go's default GOMAXPROCS: none set in its environment, whatever the caller's) with
    `config` on host:SHIPPED_PORT, wait until it answers DNS and serves /metrics on :SHIPPED_METRICS_PORT. Raises
    RuntimeError if it exits or does not answer in time."""
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "db.example.lab").write_text(zone_file())
    conf = workdir / f"Corefile.{config}"
    conf.write_text(shipped_corefile(host, workdir, config))
    env = {k: v for k, v in os.environ.items() if k != "GOMAXPROCS"}
    return _launch([binary_path, "-conf", str(conf)], _output(workdir, config), env, host, SHIPPED_PORT,
                   (SHIPPED_METRICS_PORT,), netns)


def _output(workdir: Path, config: str) -> Path:
    """Where `config` sends CoreDNS's stdout: its query log (emptied: one per start, it grows at the query rate), the
    server log, or nowhere."""
    output = CONFIGS[config][1]
    if output == QUERY_LOG:
        (workdir / output).write_bytes(b"")
    return workdir / output if output else Path(os.devnull)


class Shipped:
    """The as-shipped instance's configurations, as a configuration action (lab/actions.py) reads a server's."""

    SERVICE, CONFIGS, DEFAULT = SHIPPED_SERVICE, CONFIGS, DEFAULT
    describe = staticmethod(describe)


def _launch(argv: list[str], log_path: Path, env: dict[str, str], host: str, dns_port: int, tcp_ports: tuple[int, ...],
            netns: str | None) -> subprocess.Popen:
    proc = processes.spawn(["ip", "netns", "exec", netns, *argv] if netns else argv, log_path, env)
    dns.wait_until_answering(host, dns_port, proc)
    for port in tcp_ports:
        processes.wait_tcp(host, port, proc)
    return proc


def certificate_pem(workdir: Path) -> str | None:
    """The DoT and DoH listeners' certificate as PEM text (self-signed: the CA to trust), None before the first start."""
    cert = workdir / TLS_DIR / "cert.pem"
    return cert.read_text() if cert.is_file() else None


def _certificate_lasts(cert: Path) -> bool:
    """True when cert exists and is still valid a day from now."""
    if not cert.is_file():
        return False
    check = ["openssl", "x509", "-checkend", str(CERT_RENEW_S), "-noout", "-in", str(cert)]
    return subprocess.run(check, capture_output=True, timeout=30).returncode == 0


def running_config(pid: int | None, started: int | None) -> str | None:
    """The configuration the CoreDNS process PID really runs (its `-conf Corefile.NAME`), None if it is gone."""
    conf = processes.argv_option(pid, started, "-conf")
    name = Path(conf).name.removeprefix("Corefile.") if conf else None
    return name if name in CONFIGS else None
