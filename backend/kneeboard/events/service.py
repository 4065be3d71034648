"""A point's events after it ran: kept on the point, their failover figures, and one audit entry each."""

from __future__ import annotations

from kneeboard.audit.service import record_now
from kneeboard.events.figures import distribution, per_event
from kneeboard.events.schedule import Fired


def file(fired: Fired, extra: dict, *, campaign_id: int, point_id: int, agent: str) -> list[str]:
    """Put the fired events and their failover figures in the point's extra, audit each event; the warnings. A point
    that no event took a backend out of gets the distribution over the backends instead (when it counted a header)."""
    if fired.records:
        extra["events"] = fired.records
        extra["failover"] = per_event(extra.get("outcomes"), fired.records)
    for record in fired.records:
        record_now(f"agent:{agent}", "event", "campaign", campaign_id, f"point {point_id}: {record['action']} {record['value']}",
                   None, {k: v for k, v in record.items() if k in ("at_s", "t", "done", "listening", "error")})
    if not extra.get("failover") and (spread := distribution(extra.get("outcomes"))):
        extra["distribution"] = spread
    return fired.warnings
