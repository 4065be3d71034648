"""A point's events after it ran: kept on the point, their failover figures, and one audit entry each."""

from __future__ import annotations

from kneeboard.audit.service import record_now
from kneeboard.events.figures import distribution, per_event
from kneeboard.events.schedule import Fired


def file(fired: Fired, extra: dict, *, campaign_id: int, point_id: int, agent: str, observed: Fired | None = None) -> list[str]:
    """Put the fired events (the worker's and the observers') and their failover figures in the point's extra, audit
    each event and each thing an observer put back; the warnings. A point that no event took a backend out of gets the
    distribution over the backends instead (when it counted a header)."""
    observed = observed or Fired()
    records = sorted(fired.records + observed.records, key=lambda r: r["t"])
    if records:
        extra["events"] = records
        extra["failover"] = per_event(extra.get("outcomes"), records)
    if observed.reverted:
        extra["events_put_back"] = observed.reverted
    for record in records + observed.reverted:
        actor = f"observer:{record['observer']}" if record.get("observer") else f"agent:{agent}"
        what = "event" if record in records else "put_back"
        record_now(actor, what, "campaign", campaign_id, f"point {point_id}: {record['action']} {record['value']}",
                   None, {k: v for k, v in record.items() if k in ("at_s", "t", "done", "listening", "error", "http_status")})
    if not extra.get("failover") and (spread := distribution(extra.get("outcomes"))):
        extra["distribution"] = spread
    return fired.warnings + observed.warnings
