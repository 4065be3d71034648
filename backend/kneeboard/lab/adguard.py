"""AdGuard Home in the lab: a resolver forwarding to the lab's unbound, configured by Kneeboard (AdGuardHome.yaml in its
folder of the lab's workdir) so that nothing but its own cost is measured: no rate limit (its default of 20 q/s per
client would be the ceiling of any benchmark), no filter lists or downloads, no update checks, no client lookups. Its
HTTP API (/control/…) is on the lab address with a generated user, so its own counters (/control/stats) can be read.
The binary is built by scripts/install-deps.sh, once per version."""

from __future__ import annotations

import base64
import json
import os
import secrets
import subprocess
import urllib.request
from pathlib import Path

import bcrypt
import yaml

from kneeboard.lab import builds, dns, processes

VERSION = "v0.107.79"
SERVICE = "lab-adguard"
PORT = 5301  # DNS on the lab address beside unbound's :53 and CoreDNS's :5300 (5353 is mDNS)
HTTP_PORT = 3000  # its web API, AdGuard's own default port
SCHEMA_VERSION = 34  # configmigrate.LastSchemaVersion of v0.107.79: a file at it is read as written, not migrated
USER = "kneeboard"
ROOT = Path(__file__).resolve().parents[3]
BUILD_DIR = Path(os.environ.get("KNEEBOARD_ADGUARD_DIR", ROOT / ".cache" / "servers" / f"adguardhome-{VERSION}"))
BINARY = BUILD_DIR / "AdGuardHome"
CONFIG_FILE = "AdGuardHome.yaml"
PASSWORD_FILE = "password"  # the generated user's password (0600), beside its bcrypt hash in CONFIG_FILE
SERVER_LOG = "adguard.log"  # AdGuard's own log (stderr)
QUERY_LOG = "querylog.json"  # under data/, when the query log is on
DATA_FILES = (QUERY_LOG, f"{QUERY_LOG}.1", "stats.db")  # under data/: emptied at each start (on disk)

# name → (query log on, what it is)
CONFIGS: dict[str, tuple[bool, str]] = {
    "querylog_off": (False, "query log off; statistics on (its /control/stats counters)"),
    "querylog_on": (True, "query log on, to data/querylog.json on disk (flushed every 1000 entries, emptied at each "
                          "start); statistics on"),
}  # fmt: skip
DEFAULT = "querylog_off"
COMMON = ("ratelimit 0, no filter lists (filter updates off), no update checks, cache on (4 MiB, AdGuard's default), "
          "no client lookups (rDNS, WHOIS, ARP, hosts file)")  # fmt: skip


def binary() -> str | None:
    """The built AdGuard Home binary, None when it is not built."""
    return builds.built(BINARY)


def missing_reason() -> str:
    """Why the lab has no AdGuard Home: the install step's recorded build error, or that it was not built."""
    return builds.missing_reason(f"AdGuard Home {VERSION}", BUILD_DIR, "1.26.6")


def describe(config: str) -> str:
    """One line a target's notes and the docs show for a configuration."""
    return f"{config}: {CONFIGS[config][1]}"


def password(workdir: Path) -> str:
    """The generated user's password, made once (128 random bits) and kept in PASSWORD_FILE, readable by root only."""
    path = workdir / PASSWORD_FILE
    if not path.exists():
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_urlsafe(16))
    return path.read_text().strip()


def config(host: str, workdir: Path, name: str, upstream: str) -> dict:
    """The AdGuardHome.yaml of one named configuration (keys of schema SCHEMA_VERSION; the rest are AdGuard's defaults)."""
    querylog = CONFIGS[name][0]
    # bcrypt's work factor protects guessable passwords; this one is random, and every API call checks it on the CPUs
    # under test, so the cheapest factor
    hashed = bcrypt.hashpw(password(workdir).encode(), bcrypt.gensalt(rounds=4)).decode()
    no_lookups = {"whois": False, "arp": False, "rdns": False, "dhcp": False, "hosts": False}
    return {
        "http": {"address": f"{host}:{HTTP_PORT}"},
        "users": [{"name": USER, "password": hashed}],
        "dns": {
            "bind_hosts": [host], "port": PORT, "ratelimit": 0, "upstream_dns": [upstream], "bootstrap_dns": [upstream],
            "fallback_dns": [], "use_private_ptr_resolvers": False, "local_ptr_upstreams": [], "hostsfile_enabled": False,
        },
        "tls": {"enabled": False, "port_https": 0, "port_dns_over_tls": 0, "port_dns_over_quic": 0},  # nginx holds :443
        "querylog": {"enabled": querylog, "file_enabled": True, "interval": "24h", "size_memory": 1000},
        "statistics": {"enabled": True, "interval": "24h"},
        "filters": [], "whitelist_filters": [], "user_rules": [],
        "filtering": {"filters_update_interval": 0, "protection_enabled": True, "filtering_enabled": True},
        "clients": {"runtime_sources": no_lookups},
        "dhcp": {"enabled": False},
        "log": {"file": "", "verbose": False},
        "schema_version": SCHEMA_VERSION,
    }  # fmt: skip


def start(binary_path: str, host: str, workdir: Path, name: str, upstream: str, netns: str | None = None) -> subprocess.Popen:
    """Write AdGuardHome.yaml for configuration `name`, start AdGuard Home (in a process group of its own, see
    processes.spawn) with data of its own (query log and statistics emptied), wait until it answers DNS on host:PORT and
    its API on HTTP_PORT. Raises RuntimeError if it exits or does not answer in time."""
    workdir.mkdir(mode=0o700, parents=True, exist_ok=True)
    conf = workdir / CONFIG_FILE
    conf.write_text(yaml.safe_dump(config(host, workdir, name, upstream), sort_keys=False))
    conf.chmod(0o600)  # it holds the user's hash; AdGuard's own permission check asks for 0600
    for data in DATA_FILES:
        (workdir / "data" / data).unlink(missing_ok=True)
    argv = [binary_path, "--work-dir", str(workdir), "--config", str(conf), "--no-check-update"]
    proc = processes.spawn(["ip", "netns", "exec", netns, *argv] if netns else argv, workdir / SERVER_LOG)
    dns.wait_until_answering(host, PORT, proc)
    processes.wait_tcp(host, HTTP_PORT, proc)
    return proc


def api(host: str, workdir: Path, path: str, timeout_s: float = 2.0) -> dict:
    """GET one of AdGuard's /control/… endpoints with the generated user (HTTP Basic); its JSON. Raises OSError."""
    token = base64.b64encode(f"{USER}:{password(workdir)}".encode()).decode()
    request = urllib.request.Request(f"http://{host}:{HTTP_PORT}{path}", headers={"Authorization": f"Basic {token}"})
    with urllib.request.urlopen(request, timeout=timeout_s) as response:
        return json.load(response)


def running_config(host: str, workdir: Path) -> str | None:
    """The configuration AdGuard really runs, read from its API (its query log on or off), None if it does not answer."""
    try:
        enabled = api(host, workdir, "/control/querylog/config")["enabled"]
    except (OSError, ValueError, KeyError):
        return None
    return next(name for name, (querylog, _) in CONFIGS.items() if querylog == enabled)
