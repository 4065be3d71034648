"""The address checked is the address loaded: right before a point starts, the target, each ping monitor's host
and the node monitor's metrics URL are checked against the target policy, resolving names once; every tool and
monitor is then given the checked address (the name kept only where the protocol needs it: HTTP Host). No tool
looks the name up again, so a name that answers differently a moment later (a short TTL) cannot move the load."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from kneeboard.errors import PolicyRefused
from kneeboard.policy.service import check_host
from kneeboard.db import session_scope
from kneeboard.tools import node
from kneeboard.tools.base import PointSpec
from kneeboard.tools.units import url_host
from kneeboard.validators import metrics_host


@dataclass(frozen=True)
class Pinned:
    """What a point loads and watches, every host replaced by the address the policy check saw (or why not)."""

    refused: str | None
    spec: PointSpec
    monitors: list[dict]
    metrics_url: str | None


def _address(host: str, session) -> str:  # noqa: ANN001
    return check_host(host, loc=("host",), session=session)[0]


def pin(spec: PointSpec, monitors: list[dict], metrics_url: str | None) -> Pinned:
    """Check and pin the point's hosts (one resolution each); `refused` says why when the policy refuses any."""
    try:
        with session_scope() as session:
            address = _address(spec.host, session)
            pinned_spec = dataclasses.replace(spec, host=address, host_name=spec.host_name or (spec.host if spec.host != address else None))
            pinned_monitors = [{**m, "host": _address(m["host"], session)} if m.get("host") else m for m in monitors]
            scraped = metrics_url if metrics_url and any(m["kind"] == node.ADAPTER.name for m in monitors) else None
            pinned_url = _pin_url(scraped, _address(metrics_host(scraped), session)) if scraped else metrics_url
    except PolicyRefused as exc:
        return Pinned(f"refused before start: {exc}", spec, monitors, metrics_url)
    return Pinned(None, pinned_spec, pinned_monitors, pinned_url)


def _pin_url(url: str, address: str) -> str:
    parts = urlsplit(url)
    netloc = url_host(address) + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))
