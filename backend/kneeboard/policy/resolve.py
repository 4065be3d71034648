"""Resolving a host name in a thread with a deadline, so a slow resolver never holds up the caller."""

from __future__ import annotations

import socket
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout

import dns.exception
import dns.resolver

from kneeboard.config import get_settings

TIMEOUT_S = 1.0
_POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="kb-resolve")


class ResolveFailed(Exception):
    """The name does not resolve, or not within the deadline."""


def _lookup(host: str) -> list[str]:
    server = get_settings().dns_resolver
    if server:
        return _ask(server, host)
    infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]).split("%", 1)[0] for info in infos))


def _ask(server: str, host: str) -> list[str]:
    """A and AAAA of `host` from the DNS server at "ADDRESS:PORT" (DNS_RESOLVER), asked directly with no cache."""
    address, _, port = server.rpartition(":")
    resolver = dns.resolver.Resolver(configure=False)
    resolver.nameservers, resolver.port, resolver.lifetime, resolver.cache = [address.strip("[]")], int(port), TIMEOUT_S, None
    found = []
    for kind in ("A", "AAAA"):
        try:
            found += [rr.address for rr in resolver.resolve(host, kind, search=False)]
        except (dns.resolver.NoAnswer, dns.resolver.NXDOMAIN):
            continue
        except dns.exception.DNSException as exc:
            raise OSError(f"DNS server {server}: {exc}") from None
    return found


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
