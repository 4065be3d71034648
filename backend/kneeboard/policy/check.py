"""Is a host allowed by the target policy? Pure rules; name resolution is passed in.

Refused: numeric forms other than canonical dotted-quad or IPv6 (`134744072`, `0x7f.1`,
`0177.0.0.1`, `127.1`), IPv6 zone ids, and any address outside the policy's networks. Link-local,
metadata, unspecified, broadcast and multicast addresses are refused even inside a wide network,
unless a network entry lies within their own range. A host name must resolve, and every address it
resolves to must be allowed (a name listed in `hosts` needs no network, but never reaches a special address).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable

from kneeboard.errors import PolicyRefused
from kneeboard.policy.schemas import Policy

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
SPECIAL = tuple(ipaddress.ip_network(n) for n in (
    "169.254.0.0/16", "fe80::/10", "fd00:ec2::254/128", "100.100.100.200/32", "0.0.0.0/8", "::/128",
    "224.0.0.0/4", "ff00::/8", "255.255.255.255/32",
))  # fmt: skip
POLICY_URL = "/api/v1/policy/targets"
_NUMERIC_LABEL = re.compile(r"(0x[0-9a-f]*|[0-9]+)", re.I)
_NUMERIC_CHARS = re.compile(r"[0-9a-fx.]+", re.I)


def describe(policy: Policy) -> str:
    """The policy in a few words, for refusal messages."""
    hosts = f"; hosts {', '.join(policy.hosts)}" if policy.hosts else ""
    return f"target policy (networks {', '.join(policy.networks) or 'none'}{hosts}; see {POLICY_URL})"


def _refuse(loc: tuple, policy: Policy, why: str) -> PolicyRefused:
    return PolicyRefused(loc, f"{why}: not allowed by the {describe(policy)}")


def literal_address(host: str, policy: Policy, loc: tuple) -> IPAddress | None:
    """The address `host` spells, None for a host name; refuses zone ids and non-canonical numeric forms."""
    if "%" in host:
        raise _refuse(loc, policy, f"{host!r} carries an IPv6 zone id")
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        bare = host.rstrip(".")
        if ":" in host or (_NUMERIC_CHARS.fullmatch(bare) and _NUMERIC_LABEL.fullmatch(bare.rsplit(".", 1)[-1])):
            raise _refuse(loc, policy, f"{host!r} is a numeric address in a non-canonical form (use a dotted quad or IPv6)") from None
        return None
    if address.version == 4 and str(address) != host:
        raise _refuse(loc, policy, f"{host!r} is not a canonical dotted quad")
    return address


def _plain(address: IPAddress) -> IPAddress:
    mapped = getattr(address, "ipv4_mapped", None)
    return mapped if mapped is not None else address


def address_allowed(address: IPAddress, policy: Policy, *, by_name: bool = False) -> bool:
    """Whether load may go to `address`; `by_name` when it came from a host name the policy lists."""
    address = _plain(address)
    entries = [n for n in map(ipaddress.ip_network, policy.networks) if n.version == address.version and address in n]
    special = [s for s in SPECIAL if s.version == address.version and address in s]
    if special:
        return any(e.subnet_of(s) for e in entries for s in special)
    return by_name or bool(entries)


def _why(host: str, text: str) -> str:
    address = _plain(ipaddress.ip_address(text))
    shown = host if host == text else f"{host} resolves to {text}, which"
    if any(address.version == s.version and address in s for s in SPECIAL):
        return f"{shown} is a link-local, metadata or other special address (allowed only when listed explicitly)"
    return f"{shown} is outside the allowed networks"


def _name_listed(host: str, policy: Policy) -> bool:
    name = host.lower().rstrip(".")
    return any(name == p or (p.startswith("*.") and name.endswith(p[1:])) for p in policy.hosts)


def check_address(host: str, allowed: Policy, *, resolve: Callable[[str], list[str]] | None = None,
                  loc: tuple = ("host",)) -> list[str]:
    """The addresses load to `host` would reach; PolicyRefused (naming `loc` and the policy) if any is not allowed."""
    literal = literal_address(host, allowed, loc)
    if literal is not None:
        if not address_allowed(literal, allowed):
            raise _refuse(loc, allowed, _why(host, str(literal)))
        return [str(literal)]
    from kneeboard.policy.resolve import ResolveFailed
    from kneeboard.policy.resolve import resolve as default_resolve

    try:
        addresses = (resolve or default_resolve)(host)
    except ResolveFailed as exc:
        raise _refuse(loc, allowed, str(exc)) from None
    listed = _name_listed(host, allowed)
    for text in addresses:
        if not address_allowed(ipaddress.ip_address(text), allowed, by_name=listed):
            raise _refuse(loc, allowed, _why(host, text))
    return addresses
