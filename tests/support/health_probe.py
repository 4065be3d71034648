"""Polls GET /api/v1/health from its own process (so the caller's threads do not slow the client) until a stop
file appears; prints one latency in ms per line. Usage: python -m tests.support.health_probe URL SOURCE STOPFILE"""

from __future__ import annotations

import http.client
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit


def main() -> None:
    """Poll every 20 ms on one kept-alive connection from the SOURCE address."""
    url, source, stop = urlsplit(sys.argv[1]), sys.argv[2], Path(sys.argv[3])
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30, source_address=(source, 0))
    while not stop.exists():
        started = time.perf_counter()
        connection.request("GET", "/api/v1/health")
        answer = connection.getresponse()
        answer.read()
        print(f"{answer.status} {(time.perf_counter() - started) * 1000:.3f}", flush=True)
        time.sleep(0.02)


if __name__ == "__main__":
    main()
