"""Targets Kneeboard registers itself: the local DNS server and the lab's services."""

from __future__ import annotations

from kneeboard.db import session_scope
from kneeboard.targets.schemas import TargetCreate
from kneeboard.targets.service import ensure_target


def register_local_dns(host: str, port: int) -> None:
    """The `local-dns` target: the unbound `kneeboard up` starts on loopback."""
    body = TargetCreate(name="local-dns", kind="dns", host=host, port=port, tags=["local"],
                        notes="unbound started by `kneeboard up`: www.example.lab and h0000..h0499.example.lab")  # fmt: skip
    with session_scope() as session:
        ensure_target(body, session=session)


def register_lab_targets() -> None:
    """The lab's targets (DNS: unbound and CoreDNS, HTTP, iperf3, devices), tagged `lab`."""
    from kneeboard.lab import namespace

    with session_scope() as session:
        for target in namespace.targets():
            ensure_target(TargetCreate(**target), session=session)
