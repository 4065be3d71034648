"""A login flood from its own process, as an attacker on another machine would send it: COUNT wrong passwords for
USERNAME, AT_ONCE at a time (one kept-alive connection per thread) from the SOURCE address; prints one
"status retry-after" line per answer. Usage: python -m tests.support.login_flood URL SOURCE USERNAME COUNT AT_ONCE"""

from __future__ import annotations

import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx


def main() -> None:
    """Send the flood and print every answer."""
    url, source, username, count, at_once = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    local = threading.local()

    def wrong(_i: int) -> str:
        if not hasattr(local, "client"):
            local.client = httpx.Client(base_url=url, timeout=60, headers={"Origin": url},
                                        transport=httpx.HTTPTransport(local_address=source))  # fmt: skip
        answer = local.client.post("/api/v1/auth/login", json={"username": username, "password": "wrong"})
        return f"{answer.status_code} {answer.headers.get('Retry-After', '-')}"

    with ThreadPoolExecutor(at_once) as pool:
        for line in pool.map(wrong, range(count)):
            print(line, flush=True)


if __name__ == "__main__":
    main()
