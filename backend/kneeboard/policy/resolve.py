"""Resolving a host name in a thread with a deadline, so a slow resolver never holds up the caller."""

from __future__ import annotations

import socket
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

TIMEOUT_S = 1.0
_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="kb-resolve")


class ResolveFailed(Exception):
    """The name does not resolve, or not within the deadline."""


def _lookup(host: str) -> list[str]:
    infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]).split("%", 1)[0] for info in infos))


def resolve(host: str, timeout_s: float = TIMEOUT_S) -> list[str]:
    """Every address `host` resolves to (getaddrinfo in a pool thread, at most `timeout_s` seconds)."""
    future = _POOL.submit(_lookup, host)
    try:
        addresses = future.result(timeout=timeout_s)
    except FutureTimeout:
        raise ResolveFailed(f"{host!r} did not resolve within {timeout_s:g} s") from None
    except (OSError, UnicodeError) as exc:
        raise ResolveFailed(f"{host!r} does not resolve ({exc})") from None
    if not addresses:
        raise ResolveFailed(f"{host!r} resolves to no address")
    return addresses
