"""Caddy (Debian's 2.6) in the lab: a reverse proxy on the lab address over the same three nginx backends as HAProxy
(lab.backends), with active health checks every 500 ms. Its admin API listens on a unix socket in its folder of the
lab's workdir (0700, root's), never on TCP, so nothing outside can reconfigure it; Kneeboard reads the running
configuration back through it. Its named configurations (selection policies) are switched by a variant
(`lab.caddy_config`)."""

from __future__ import annotations

import http.client
import json
import socket
import subprocess
from pathlib import Path

from kneeboard.lab import backends, processes

SERVICE = "lab-caddy"
PACKAGE = "caddy"  # Debian's, and its binary
PORT = 8081
ADMIN_SOCKET = "admin.sock"
SERVER_LOG = "caddy.log"
CHECK_INTERVAL = "500ms"
CHECK_TIMEOUT = "400ms"
POLICY_PATH = "/config/apps/http/servers/lb/routes/0/handle/0/load_balancing/selection_policy/policy"
UPSTREAMS_PATH = "/config/apps/http/servers/lb/routes/0/handle/0/upstreams"

# name → (selection policy, what it is)
CONFIGS: dict[str, tuple[str, str]] = {
    "round_robin": ("round_robin", "selection policy round_robin"),
    "ip_hash": ("ip_hash", "selection policy ip_hash (a hash of the client's address: one client, one backend)"),
}
DEFAULT = "round_robin"
COMMON = (f"active health checks GET / every {CHECK_INTERVAL} (timeout {CHECK_TIMEOUT}; Caddy 2.6 has no fall/rise: one "
          "failed check takes a backend out, one good check brings it back), no retries (lb_try_duration 0: a failed "
          "request is a 502 to the client), keep-alive to the backends, access log off, automatic HTTPS off")  # fmt: skip


def describe(config: str) -> str:
    """One line a target's notes and the docs show for a configuration."""
    return f"{config}: {CONFIGS[config][1]}"


def config(host: str, workdir: Path, name: str) -> dict:
    """Caddy's JSON configuration for one named configuration: the admin API on a unix socket, one server on
    host:PORT reverse-proxying to the lab's three backends."""
    proxy = {
        "handler": "reverse_proxy",
        "upstreams": [{"dial": f"{backends.address(i)}:{backends.PORT}"} for i in backends.indexes()],
        "load_balancing": {"selection_policy": {"policy": CONFIGS[name][0]}},
        "health_checks": {"active": {"uri": "/", "interval": CHECK_INTERVAL, "timeout": CHECK_TIMEOUT}},
    }
    return {
        "admin": {"listen": f"unix/{workdir / ADMIN_SOCKET}", "config": {"persist": False}},
        "storage": {"module": "file_system", "root": str(workdir / "data")},
        "apps": {"http": {"servers": {"lb": {"listen": [f"{host}:{PORT}"], "automatic_https": {"disable": True},
                                             "routes": [{"handle": [proxy]}]}}}},
    }  # fmt: skip


def write_configs(host: str, workdir: Path) -> None:
    """One caddy.NAME.json per configuration under workdir (0700: the admin socket's folder is root's)."""
    workdir.mkdir(mode=0o700, parents=True, exist_ok=True)
    workdir.chmod(0o700)
    for name in CONFIGS:
        (workdir / f"caddy.{name}.json").write_text(json.dumps(config(host, workdir, name), indent=2) + "\n")


def start(binary_path: str, host: str, workdir: Path, name: str, netns: str | None = None) -> subprocess.Popen:
    """Start `caddy run` with configuration `name` (a process group of its own; its config and data homes in workdir),
    wait until it accepts connections on host:PORT and its admin socket says it runs `name`. Raises RuntimeError."""
    write_configs(host, workdir)
    (workdir / ADMIN_SOCKET).unlink(missing_ok=True)
    argv = [binary_path, "run", "--config", str(workdir / f"caddy.{name}.json")]
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": str(workdir),
           "XDG_CONFIG_HOME": str(workdir / "config"), "XDG_DATA_HOME": str(workdir / "data")}  # fmt: skip
    proc = processes.spawn(["ip", "netns", "exec", netns, *argv] if netns else argv, workdir / SERVER_LOG, env=env)

    return backends.ready(proc, host, PORT, lambda: running_config(workdir), name)


class _UnixConnection(http.client.HTTPConnection):
    def __init__(self, path: Path, timeout_s: float):
        super().__init__("localhost", timeout=timeout_s)
        self.path = str(path)

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.path)


def admin_get(workdir: Path, path: str, timeout_s: float = 1.0) -> object:
    """GET one admin API path (e.g. /config/) over the unix socket; its JSON. Raises OSError or ValueError."""
    return admin(workdir, "GET", path, timeout_s=timeout_s)


def admin(workdir: Path, method: str, path: str, body: object = None, timeout_s: float = 1.0) -> object:
    """One admin API call over the unix socket (GET, or PATCH to replace the value at `path`); its JSON (None when it
    answered nothing). Raises OSError or ValueError."""
    conn = _UnixConnection(workdir / ADMIN_SOCKET, timeout_s)
    try:
        headers = {"Host": ""}  # the only origin Caddy allows on a unix socket
        if body is not None:
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = conn.getresponse()
        answer = response.read()
    finally:
        conn.close()
    if response.status != 200:
        raise OSError(f"Caddy admin {method} {path}: HTTP {response.status} {answer[:200]!r}")
    return json.loads(answer) if answer.strip() else None


def set_upstream(workdir: Path, index: int, present: bool) -> None:
    """Take lab backend `index` out of Caddy's upstreams (present False) or put it back in its place, through the
    admin API (a graceful reload of the route: requests in flight finish). Raises ValueError when it is already so,
    OSError when the admin API refuses."""
    dials = [u["dial"] for u in admin_get(workdir, UPSTREAMS_PATH)]
    dial = f"{backends.address(index)}:{backends.PORT}"
    if (dial in dials) == present:
        raise ValueError(f"{backends.name(index)} is already {'in' if present else 'out of'} Caddy's upstreams")
    wanted = [d for d in (f"{backends.address(i)}:{backends.PORT}" for i in backends.indexes())
              if (d in dials and d != dial) or (present and d == dial)]
    admin(workdir, "PATCH", UPSTREAMS_PATH, [{"dial": d} for d in wanted], timeout_s=5.0)


def running_config(workdir: Path) -> str | None:
    """The configuration the running Caddy runs (its selection policy, read from its admin API), None if it does not
    answer."""
    try:
        policy = admin_get(workdir, POLICY_PATH)
    except (OSError, ValueError):
        return None
    return next((name for name, (p, _) in CONFIGS.items() if p == policy), None)
