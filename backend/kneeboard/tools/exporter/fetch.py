"""One HTTP GET of a metrics page, bounded every way: a total deadline (a server that drips its answer, or its
headers, is cut off when the deadline passes, not only when one read stalls), a body cap, no redirect, no proxy,
and the connection made to the address given (the pinned one) with the URL's own name as the Host header."""

from __future__ import annotations

import http.client
import socket
import threading
import time
from urllib.parse import urlsplit

MAX_BYTES = 4 * 1_048_576  # a node_exporter page is ~60 KB on a 2-CPU box, a few MB on a very large one
CHUNK = 65_536


class ScrapeError(RuntimeError):
    """A scrape that gave no page (refused, timed out, not 200, too big, not Prometheus text)."""


def fetch(url: str, timeout_s: float, max_bytes: int = MAX_BYTES, host: str | None = None) -> str:
    """The page at url, whole within timeout_s and at most max_bytes; ScrapeError naming what went wrong.

    `url` names the address to connect to (the pinned one); `host` is the Host header to send (the URL's
    name as the user wrote it), the URL's own host:port when None. A 3xx is an error, never followed."""
    parts = urlsplit(url)
    began = time.monotonic()
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout_s)
    cut = threading.Event()

    def cut_off() -> None:  # the overall deadline: wakes a read blocked on a slow drip
        cut.set()
        sock = connection.sock
        if sock is not None:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    timer = threading.Timer(timeout_s, cut_off)
    timer.daemon = True
    timer.start()
    try:
        connection.request("GET", parts.path or "/", headers={
            "Host": host or parts.netloc, "Accept": "text/plain;version=0.0.4", "Accept-Encoding": "identity"})
        response = connection.getresponse()
        if response.status != 200:
            moved = " (a redirect: not followed, the target policy checked this URL only)" if 300 <= response.status < 400 else ""
            raise ScrapeError(f"answered HTTP {response.status}{moved}")
        declared = response.getheader("Content-Length")
        if declared and declared.isdigit() and int(declared) > max_bytes:
            raise ScrapeError(f"the page is larger than {max_bytes} bytes ({declared} announced)")
        body = bytearray()
        while chunk := response.read1(CHUNK):
            body += chunk
            if len(body) > max_bytes:
                raise ScrapeError(f"the page is larger than {max_bytes} bytes")
            if time.monotonic() - began > timeout_s:
                raise TimeoutError
        if cut.is_set():
            raise TimeoutError
    except ScrapeError:
        raise
    except (OSError, http.client.HTTPException) as exc:
        if cut.is_set() or isinstance(exc, TimeoutError):
            raise ScrapeError(f"timed out: no whole answer within {timeout_s:g} s "
                              f"(a slow or dripping server; {time.monotonic() - began:.2f} s spent)") from None
        raise ScrapeError(str(getattr(exc, "reason", None) or exc) or type(exc).__name__) from None
    finally:
        timer.cancel()
        connection.close()
    return body.decode("utf-8", errors="replace")
