"""The lab's HTTP target: an nginx configuration and content Kneeboard writes itself."""

from __future__ import annotations

from pathlib import Path

INDEX_BYTES = 590
SLOW_BYTES = 3000
SLOW_RATE = 1000  # bytes/s: /slow/3k.html takes 3 s


def index_body() -> bytes:
    """A 590-byte /index.html (the size used by the HTTP fixtures)."""
    head = b"<!DOCTYPE html>\n<html><head><title>Kneeboard lab</title></head><body>\n<p>Kneeboard lab HTTP target.</p>\n"
    tail = b"</body></html>\n"
    filler = (b"<!-- padding -->\n" * 40)[: INDEX_BYTES - len(head) - len(tail)]
    return head + filler + tail


def nginx_config(host: str, port: int, workdir: Path) -> str:
    """An nginx config: foreground, worker_processes auto, access_log off, pid/temp/logs under workdir."""
    tmp = workdir / "tmp"
    return "\n".join(
        [
            "daemon off;",
            "worker_processes auto;",
            f"pid {workdir / 'nginx.pid'};",
            f"error_log {workdir / 'error.log'} warn;",
            "events { worker_connections 4096; }",
            "http {",
            "  access_log off;",
            "  default_type text/html;",
            "  keepalive_requests 100000;",
            f"  client_body_temp_path {tmp / 'body'};",
            f"  proxy_temp_path {tmp / 'proxy'};",
            f"  fastcgi_temp_path {tmp / 'fastcgi'};",
            f"  uwsgi_temp_path {tmp / 'uwsgi'};",
            f"  scgi_temp_path {tmp / 'scgi'};",
            "  server {",
            f"    listen {host}:{port};",
            f"    root {workdir / 'www'};",
            f"    location /slow/ {{ limit_rate {SLOW_RATE}; }}",
            "  }",
            "}",
            "",
        ]
    )


def write_site(host: str, port: int, workdir: Path) -> Path:
    """Write the config, /index.html and /slow/3k.html under workdir; return the config path."""
    www = workdir / "www"
    (www / "slow").mkdir(parents=True, exist_ok=True)
    (workdir / "tmp").mkdir(parents=True, exist_ok=True)
    for folder in (workdir, www, www / "slow"):
        folder.chmod(0o755)  # nginx workers run as nobody
    (www / "index.html").write_bytes(index_body())
    (www / "slow" / "3k.html").write_bytes((b"k" * 99 + b"\n") * (SLOW_BYTES // 100))
    conf = workdir / "nginx.conf"
    conf.write_text(nginx_config(host, port, workdir))
    return conf


def nginx_argv(binary: str, workdir: Path) -> list[str]:
    """argv running nginx in the foreground with our config and prefix (no compiled-in paths touched)."""
    return [binary, "-p", f"{workdir}/", "-c", str(workdir / "nginx.conf"), "-e", str(workdir / "error.log")]
