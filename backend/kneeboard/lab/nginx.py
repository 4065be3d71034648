"""The lab's HTTP targets: an nginx configuration and content Kneeboard writes itself, and an https
listener beside the http one with a self-signed certificate generated for it (openssl, argv only)."""

from __future__ import annotations

import ipaddress
import subprocess
from dataclasses import dataclass
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


TLS_NAME = "www.example.lab"  # the certificate's name (beside the listener's address), answered by the lab's DNS
CERT_DAYS = 30


@dataclass(frozen=True)
class TlsListener:
    """An https listener: its port and its certificate and key files (the certificate is its own CA)."""

    port: int
    cert: Path
    key: Path


def generate_certificate(host: str, folder: Path, name: str = TLS_NAME) -> tuple[Path, Path]:
    """A self-signed P-256 certificate for `name` and the address `host` (subjectAltName), and its key; (cert, key)."""
    folder.mkdir(parents=True, exist_ok=True)
    cert, key = folder / "cert.pem", folder / "key.pem"
    kind = "IP" if _is_address(host) else "DNS"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-days", str(CERT_DAYS), "-subj", f"/CN={name}", "-addext", f"subjectAltName=DNS:{name},{kind}:{host}",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True, timeout=30)  # fmt: skip
    key.chmod(0o644)  # nginx's master reads it as root; the lab's workdir is the lab's own
    return cert, key


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _tls_server(host: str, tls: TlsListener, www: Path) -> list[str]:
    """The https server block: same content, session cache and tickets on (clients may resume)."""
    return [
        "  server {",
        f"    listen {host}:{tls.port} ssl;",
        f"    ssl_certificate {tls.cert};",
        f"    ssl_certificate_key {tls.key};",
        "    ssl_session_cache shared:kbtls:1m;",
        "    ssl_session_tickets on;",
        f"    root {www};",
        "  }",
    ]


def common_directives(workdir: Path, workers: str = "auto") -> list[str]:
    """What every lab nginx shares: foreground, pid, error log and temp files under workdir, access_log off (the
    main context, then the start of the http block)."""
    tmp = workdir / "tmp"
    return [
        "daemon off;",
        f"worker_processes {workers};",
        f"pid {workdir / 'nginx.pid'};",
        f"error_log {workdir / 'error.log'} warn;",
        "events { worker_connections 4096; }",
        "http {",
        "  access_log off;",
        "  keepalive_requests 100000;",
        *(f"  {kind}_temp_path {tmp / folder};" for kind, folder in
          (("client_body", "body"), ("proxy", "proxy"), ("fastcgi", "fastcgi"), ("uwsgi", "uwsgi"), ("scgi", "scgi"))),
    ]  # fmt: skip


def nginx_config(host: str, port: int, workdir: Path, tls: TlsListener | None = None) -> str:
    """An nginx config: foreground, worker_processes auto, access_log off, pid/temp/logs under workdir; https beside when `tls`."""
    return "\n".join(
        [
            *common_directives(workdir),
            "  default_type text/html;",
            "  server {",
            f"    listen {host}:{port};",
            f"    root {workdir / 'www'};",
            f"    location /slow/ {{ limit_rate {SLOW_RATE}; }}",
            "  }",
            *(_tls_server(host, tls, workdir / "www") if tls else []),
            "}",
            "",
        ]
    )


def write_site(host: str, port: int, workdir: Path, tls_port: int | None = None) -> Path:
    """Write the config, /index.html and /slow/3k.html under workdir (and, with `tls_port`, a certificate
    under workdir/tls for an https listener on that port); return the config path."""
    www = workdir / "www"
    (www / "slow").mkdir(parents=True, exist_ok=True)
    (workdir / "tmp").mkdir(parents=True, exist_ok=True)
    for folder in (workdir, www, www / "slow"):
        folder.chmod(0o755)  # nginx workers run as nobody
    (www / "index.html").write_bytes(index_body())
    (www / "slow" / "3k.html").write_bytes((b"k" * 99 + b"\n") * (SLOW_BYTES // 100))
    tls = TlsListener(tls_port, *generate_certificate(host, workdir / "tls")) if tls_port else None
    conf = workdir / "nginx.conf"
    conf.write_text(nginx_config(host, port, workdir, tls))
    return conf


def certificate_pem(workdir: Path) -> str | None:
    """The https listener's certificate as PEM text (the CA bundle a plan's ca_pem takes), None without one."""
    cert = workdir / "tls" / "cert.pem"
    return cert.read_text() if cert.is_file() else None


def nginx_argv(binary: str, workdir: Path) -> list[str]:
    """argv running nginx in the foreground with our config and prefix (no compiled-in paths touched)."""
    return [binary, "-p", f"{workdir}/", "-c", str(workdir / "nginx.conf"), "-e", str(workdir / "error.log")]
