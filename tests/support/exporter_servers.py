"""Tiny misbehaving (and one well-behaved) Prometheus endpoints on loopback, for the exporter monitor's tests.

Each answers GET on any path, in its own thread, and records (address it was reached on, Host header) per request.
"""

from __future__ import annotations

import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CPU_MODES = ("user", "system", "softirq", "idle")


def many_series_page(n: int, tick: int) -> bytes:
    """A node_exporter-like page with n node_cpu_seconds_total series (n/4 CPUs × 4 modes), counters moving with tick."""
    lines = ["# TYPE node_cpu_seconds_total counter"]
    lines += [f'node_cpu_seconds_total{{cpu="{i // 4}",mode="{CPU_MODES[i % 4]}"}} {tick * (1 + i % 4)}' for i in range(n)]
    return ("\n".join(lines) + "\n").encode()


class Endpoint:
    """One loopback HTTP server behaving as `mode`: "drip", "redirect", "oversized", "garbage", "many" or "ok"."""

    def __init__(self, mode: str, address: str = "127.0.0.1", port: int = 0, *, location: str = "", page: bytes = b"") -> None:
        endpoint = self
        self.mode, self.location, self.page = mode, location, page
        self.requests: list[tuple[str, str | None]] = []

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.0"

            def do_GET(self) -> None:  # noqa: N802 - the http.server API
                endpoint.requests.append((self.server.server_address[0], self.headers.get("Host")))
                getattr(endpoint, f"_{endpoint.mode}")(self)

            def log_message(self, *_args) -> None:
                pass

        self.server = ThreadingHTTPServer((address, port), Handler)
        self.server.daemon_threads = True
        self.port = self.server.server_address[1]
        self.url = f"http://{address}:{self.port}/metrics"
        self.thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)

    def _start(self, handler: BaseHTTPRequestHandler, status: int = 200, **headers: str) -> None:
        handler.send_response(status)
        for name, value in headers.items():
            handler.send_header(name.replace("_", "-"), value)
        handler.end_headers()

    def _drip(self, handler: BaseHTTPRequestHandler) -> None:
        """Headers at once, then one byte of a valid page every 0.2 s for up to 20 s."""
        self._start(handler, Content_Type="text/plain")
        try:
            for byte in many_series_page(4, 1) * 20:
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
                time.sleep(0.2)
        except OSError:
            pass

    def _redirect(self, handler: BaseHTTPRequestHandler) -> None:
        self._start(handler, 302, Location=self.location, Content_Length="0")

    def _oversized(self, handler: BaseHTTPRequestHandler) -> None:
        """A valid page of ~6 MB, streamed without a Content-Length."""
        self._start(handler, Content_Type="text/plain")
        chunk = b"# HELP filler a comment line of a page that is far too large\n" * 1000
        try:
            for _ in range(100):
                handler.wfile.write(chunk)
        except OSError:
            pass

    def _garbage(self, handler: BaseHTTPRequestHandler) -> None:
        body = b'\x00\x01 not prometheus {{{ "x" 12\n'
        self._start(handler, Content_Length=str(len(body)))
        handler.wfile.write(body)

    def _many(self, handler: BaseHTTPRequestHandler) -> None:
        body = many_series_page(300, len(self.requests))
        self._start(handler, Content_Length=str(len(body)))
        handler.wfile.write(body)

    def _ok(self, handler: BaseHTTPRequestHandler) -> None:
        body = self.page or many_series_page(8, len(self.requests))
        self._start(handler, Content_Length=str(len(body)))
        handler.wfile.write(body)

    def __enter__(self) -> Endpoint:
        self.thread.start()
        return self

    def __exit__(self, *_exc) -> None:
        self.server.shutdown()
        self.server.server_close()
