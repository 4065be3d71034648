"""The lab's load balancers over the same three nginx backends (lab.backends): HAProxy (lab.haproxy), Caddy
(lab.caddy) and nginx as a balancer (here: an nginx process of its own, apart from lab-http), each on a port of its
own on the lab address; what namespace.py needs to start them as lab services and offer them as targets."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

from kneeboard.lab import backends, caddy, haproxy, nginx, processes
from kneeboard.lab.system import which

NGINX_SERVICE = "lab-nginx-lb"
NGINX_PORT = 8082
NGINX_FAILS = "max_fails=1 fail_timeout=10s"  # nginx's own defaults, written out
NGINX_NOTES = ("round robin (nginx's default), passive checks only (open-source nginx has no active health checks): a "
               f"backend is skipped for 10 s after one failed attempt ({NGINX_FAILS}), and proxy_next_upstream error "
               "timeout (nginx's default) retries a failed connection on the next backend, so a dead backend is hidden "
               "from the client; HTTP/1.1 keep-alive to the backends (keepalive 64), access_log off, worker_processes auto")  # fmt: skip
FOLDERS = ("backends", "haproxy", "caddy", "nginx-lb")  # under the lab's workdir
PROCESSES = {haproxy.SERVICE: "haproxy", caddy.SERVICE: "caddy", NGINX_SERVICE: "nginx"}  # each balancer's command name


def nginx_lb_config(host: str, workdir: Path, down: frozenset[int] = frozenset()) -> str:
    """nginx as a load balancer on host:NGINX_PORT over the three backends (those in `down` marked down)."""
    servers = [f"    server {backends.address(i)}:{backends.PORT} {NGINX_FAILS}{' down' if i in down else ''};" for i in backends.indexes()]
    return "\n".join([
        *nginx.common_directives(workdir),
        "  upstream servers {",
        "    zone servers 64k;",  # one round robin for all workers, not one per worker
        *servers,
        "    keepalive 64;",
        "  }",
        "  server {",
        f"    listen {host}:{NGINX_PORT};",
        "    location / {",
        "      proxy_pass http://servers;",
        "      proxy_http_version 1.1;",
        "      proxy_set_header Connection \"\";",
        "    }",
        "  }",
        "}",
        "",
    ])  # fmt: skip


def _start_nginx_lb(binary: str, host: str, workdir: Path, netns: str) -> subprocess.Popen:
    (workdir / "tmp").mkdir(parents=True, exist_ok=True)
    (workdir / "nginx.conf").write_text(nginx_lb_config(host, workdir))
    proc = processes.spawn(["ip", "netns", "exec", netns, *nginx.nginx_argv(binary, workdir)], workdir / "nginx.log")
    return backends.ready(proc, host, NGINX_PORT)


def set_nginx_down(host: str, workdir: Path, pid: int, index: int, down: bool) -> None:
    """Mark lab backend `index` down (or up again) in the nginx balancer's configuration and reload it (SIGHUP to its
    master, by PID: new workers take the new configuration, the old ones finish what they hold). Raises ValueError
    when it is already so, OSError when the master is gone."""
    conf = workdir / "nginx.conf"
    text = conf.read_text()
    now = frozenset(i for i in backends.indexes() if f"{backends.address(i)}:{backends.PORT} {NGINX_FAILS} down;" in text)
    if (index in now) == down:
        raise ValueError(f"{backends.name(index)} is already {'down' if down else 'up'} in nginx's upstream")
    conf.write_text(nginx_lb_config(host, workdir, now ^ {index}))
    os.kill(pid, signal.SIGHUP)


def table() -> list[tuple[str, str, int, str]]:
    """The targets the balancers add to the lab's: (kind, name, port, notes stating the configuration)."""
    pool = ", ".join(f"{backends.name(i)} {backends.address(i)}:{backends.PORT} (netns {backends.netns(i)})"
                     for i in backends.indexes())  # fmt: skip
    over = f"over three nginx backends answering with X-Backend: {pool}"
    return [
        ("http", haproxy.SERVICE, haproxy.PORT,
         f"HAProxy 2.6 (Debian) in netns kblab {over}. {haproxy.COMMON}; stats socket "
         f"haproxy/{haproxy.STATS_SOCKET} in the lab's workdir (0600, root's). Configurations (variant action "
         f"lab.haproxy_config, default {haproxy.DEFAULT}): " + "; ".join(map(haproxy.describe, haproxy.CONFIGS))),
        ("http", caddy.SERVICE, caddy.PORT,
         f"Caddy 2.6 (Debian) in netns kblab {over}. {caddy.COMMON}; admin API on a unix socket only "
         f"(caddy/{caddy.ADMIN_SOCKET} in the lab's workdir). Configurations (variant action lab.caddy_config, "
         f"default {caddy.DEFAULT}): " + "; ".join(map(caddy.describe, caddy.CONFIGS))),
        ("http", NGINX_SERVICE, NGINX_PORT, f"nginx as a load balancer in netns kblab {over}: {NGINX_NOTES}"),
    ]  # fmt: skip


def service_specs() -> list[dict]:
    """The lab service specs: the three backends (host: their own address) first, then the three balancers."""
    nginx_binary = which("nginx")
    specs = [{"kind": "http", "name": backends.service(i), "host": backends.address(i), "port": backends.PORT,
              "binary": nginx_binary} for i in backends.indexes()]  # fmt: skip
    for server in (haproxy, caddy):
        specs.append({"kind": "http", "name": server.SERVICE, "port": server.PORT, "binary": which(server.PACKAGE),
                      "missing": f"{server.PACKAGE} not installed (scripts/install-deps.sh installs Debian's)",
                      "config": server.DEFAULT})  # fmt: skip
    specs.append({"kind": "http", "name": NGINX_SERVICE, "port": NGINX_PORT, "binary": nginx_binary})
    return specs


SERVICES = (*map(backends.service, backends.indexes()), haproxy.SERVICE, caddy.SERVICE, NGINX_SERVICE)


def start(spec: dict, host: str, workdir: Path, netns: str) -> subprocess.Popen:
    """Start the backend or balancer `spec` names (one of SERVICES) under workdir; raises RuntimeError as they do."""
    name, binary = spec["name"], spec["binary"]
    if name == haproxy.SERVICE:
        return haproxy.start(binary, host, workdir / "haproxy", spec["config"], netns)
    if name == caddy.SERVICE:
        return caddy.start(binary, host, workdir / "caddy", spec["config"], netns)
    if name == NGINX_SERVICE:
        return _start_nginx_lb(binary, host, workdir / "nginx-lb", netns)
    i = next(i for i in backends.indexes() if name == backends.service(i))
    return backends.start(i, binary, workdir / "backends" / backends.name(i))
