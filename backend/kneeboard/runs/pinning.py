"""The address checked is the address loaded: right before a point starts, the target, each ping monitor's host,
the node monitor's metrics URL and each scraped exporter's URL are checked against the target policy, resolving
names once; every tool and monitor is then given the checked address (the name kept only where the protocol needs
it: HTTP Host). No tool looks the name up again, so a name that answers differently a moment later (a short TTL)
cannot move the load nor a scrape. An exporter refused here is left out of the point with a warning; the point runs."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from kneeboard.errors import PolicyRefused
from kneeboard.policy.service import check_host
from kneeboard.db import session_scope
from kneeboard.tools import node
from kneeboard.tools.exporter import adapter as exporter
from kneeboard.tools.base import PointSpec
from kneeboard.tools.units import url_host
from kneeboard.validators import metrics_host


@dataclass(frozen=True)
class Pinned:
    """What a point loads and watches, every host replaced by the address the policy check saw (or why not)."""

    refused: str | None
    spec: PointSpec
    monitors: list[dict]
    scraped: dict  # the monitors' documents: {"metrics_url": pinned, "exporters": {name: {url, host, packs} | {refused}}}


def _address(host: str, session) -> str:  # noqa: ANN001
    return check_host(host, loc=("host",), session=session)[0]


def pin(spec: PointSpec, monitors: list[dict], scraped: dict) -> Pinned:
    """Check and pin the point's hosts (one resolution each); `refused` says why when the policy refuses any."""
    metrics_url = scraped.get("metrics_url")
    try:
        with session_scope() as session:
            address = _address(spec.host, session)
            pinned_spec = dataclasses.replace(spec, host=address, host_name=spec.host_name or (spec.host if spec.host != address else None))
            pinned_monitors = [{**m, "host": _address(m["host"], session)} if m.get("host") else m for m in monitors]
            scrapes_node = metrics_url and any(m["kind"] == node.ADAPTER.name for m in monitors)
            pinned_url = _pin_url(metrics_url, _address(metrics_host(metrics_url), session)) if scrapes_node else metrics_url
            named = {m["exporter"] for m in monitors if m["kind"] == exporter.ADAPTER.name}
            exporters = {name: _pin_exporter(name, found, session)
                         for name, found in (scraped.get("exporters") or {}).items() if name in named}
    except PolicyRefused as exc:
        return Pinned(f"refused before start: {exc}", spec, monitors, scraped)
    return Pinned(None, pinned_spec, pinned_monitors, {**scraped, "metrics_url": pinned_url, "exporters": exporters})


def _pin_exporter(name: str, found: dict, session) -> dict:  # noqa: ANN001
    """The exporter's URL at its checked address with its own host:port for the Host header, or why the policy refused it."""
    try:
        address = _address(metrics_host(found["url"]), session)
    except PolicyRefused as exc:
        return {"refused": f"exporter {name}: refused before start, not scraped: {exc}"}
    return {**found, "url": _pin_url(found["url"], address), "host": urlsplit(found["url"]).netloc}


def _pin_url(url: str, address: str) -> str:
    parts = urlsplit(url)
    netloc = url_host(address) + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))
