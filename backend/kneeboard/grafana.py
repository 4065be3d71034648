"""Links from a report to the Grafana dashboard of docs/grafana-kneeboard-prometheus.json over the campaign's time range,
when GRAFANA_URL is set (the one place such a link is built; the UI shows what the API gives)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from urllib.parse import urlencode, urlsplit

DASHBOARD_UID = "kneeboard-prometheus"  # the uid of docs/grafana-kneeboard-prometheus.json (a unit test holds them equal)
DASHBOARD_SLUG = "kneeboard-load-and-servers"


def check_base_url(value: str) -> str:
    """GRAFANA_URL as given: empty (no links) or http(s)://HOST[:PORT][/PATH] with no query or fragment, without a
    trailing slash; ValueError otherwise (the settings fail at startup)."""
    value = value.strip()
    if not value:
        return ""
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"GRAFANA_URL must be an http:// or https:// URL with a host, not {value!r}")
    if parts.query or parts.fragment or parts.username is not None or parts.password is not None:
        raise ValueError("GRAFANA_URL must be http(s)://HOST[:PORT][/PATH], with no user, query or fragment")
    parts.port  # noqa: B018 - raises ValueError on a port out of range
    return value.rstrip("/")


def _ms(when: datetime) -> int:
    return int(when.timestamp() * 1000)


def dashboard_link(base: str, campaigns: Iterable[tuple[int, datetime | None, datetime | None]]) -> str | None:
    """The dashboard's URL over these campaigns' time range (from the earliest start to the latest end, `now` while one
    runs) with var-campaign set to each id (once); None without a base URL or when no campaign has started."""
    spans = [(cid, start, end) for cid, start, end in campaigns if start is not None]
    if not base or not spans:
        return None
    end = "now" if any(e is None for _, _, e in spans) else str(max(_ms(e) for _, _, e in spans if e is not None))
    query = [("orgId", "1"), ("from", str(min(_ms(s) for _, s, _ in spans if s is not None))), ("to", end)]
    query += [("var-campaign", str(cid)) for cid in dict.fromkeys(cid for cid, _, _ in spans)]  # a campaign's variants: once
    return f"{base}/d/{DASHBOARD_UID}/{DASHBOARD_SLUG}?{urlencode(query)}"
