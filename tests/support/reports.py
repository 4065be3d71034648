"""Campaigns for the export tests: imported through the API as Kneeboard JSON (as the browser tests do), then given
per-second samples of the point and of its monitors written straight to the database (an import carries none)."""

from __future__ import annotations

import json

HOSTILE = 'sweep <script>alert("x")</script> & <img src=x onerror=alert(1)> | `code`'


def _metrics(offered: float, achieved: float, latency_ms: float) -> dict:
    """A dnsperf point's metrics, percentiles included."""
    sent, completed = round(offered * 10), round(achieved * 10)
    return {"achieved_rate": achieved, "latency_avg_ms": latency_ms, "latency_min_ms": latency_ms * 0.4, "latency_max_ms": latency_ms * 12,
            "latency_p50_ms": latency_ms * 0.9, "latency_p90_ms": latency_ms * 1.8, "latency_p99_ms": latency_ms * 4,
            "latency_p999_ms": latency_ms * 9, "sent": sent, "completed": completed, "lost": sent - completed,
            "loss_pct": 100 * (sent - completed) / sent}  # fmt: skip


def campaign_document(name: str, *, points: int = 50, speed: float = 1.0, duration_s: float = 60.0) -> dict:
    """A Kneeboard JSON export of a finished dnsperf sweep of `points` loads (the last a stability point), with mpstat and ping monitors in its plan."""
    ceiling = 30_000 * speed
    rows = []
    for seq in range(points - 1):
        rate = 1000.0 * (seq + 1)
        achieved = min(rate, ceiling) * 0.995
        latency = 0.3 if rate <= ceiling * 0.8 else 0.3 + (rate - ceiling * 0.8) / 2000
        rows.append({"seq": seq, "phase": "saturation", "concurrency": 20, "offered_rate": rate, "duration_s": duration_s, "repeat": 0,
                     "metrics": _metrics(rate, achieved, latency)})  # fmt: skip
    rows.append({"seq": points - 1, "phase": "stability", "concurrency": 20, "offered_rate": ceiling * 0.7, "duration_s": duration_s,
                 "repeat": 0, "metrics": _metrics(ceiling * 0.7, ceiling * 0.7 * 0.995, 0.3)})  # fmt: skip
    plan = {"name": name, "tool": "dnsperf", "target_id": None, "params": {"names": ["www.example.lab"], "qtype": "A"},
            "phases": [{"kind": "saturation", "concurrency": 20, "rate": {"start": 1000, "stop": 1000 * (points - 1), "step": 1000}, "duration_s": duration_s},
                       {"kind": "stability", "concurrency": 20, "rate": ceiling * 0.7, "duration_s": duration_s}],
            "monitors": [{"kind": "mpstat"}, {"kind": "ping", "host": "127.0.0.1"}], "pause_s": 0, "repeat": 1}  # fmt: skip
    head = {"name": name, "tool": "dnsperf", "agent": "local", "tags": ["export"], "plan": plan, "environment": {"kernel": "6.1.0", "nic_queues": 4},
            "target": {"name": "export-dns", "kind": "dns", "host": "127.0.0.1", "port": 53, "tags": []}}  # fmt: skip
    return {"format": "kneeboard-campaign/1", "campaign": head, "points": rows}


def import_campaign(stack, name: str, **kwargs) -> dict:
    """Import a campaign_document through POST /campaigns/import; returns the campaign."""
    document = json.dumps(campaign_document(name, **kwargs)).encode()
    imported = stack.api.post("/api/v1/campaigns/import", files=[("file", ("campaign.json", document))])
    assert imported.status_code == 201, imported.text
    return imported.json()


def add_samples(campaign_id: int, *, cpus: int = 4) -> int:
    """One sample a second for every point: the tool's (rate, latency), mpstat per CPU and overall, ping; returns how many.
    The campaign is marked as run by Kneeboard (source "live"), so its report draws the timeline of every point too."""
    from kneeboard.campaigns.models import Campaign, SampleRow
    from kneeboard.models import import_all
    from kneeboard.db import session_scope

    import_all()  # every table, for the foreign keys
    written = 0
    with session_scope() as session:
        campaign = session.get(Campaign, campaign_id)
        campaign.source = "live"
        start = 1_700_000_000.0
        for point in campaign.points:
            rate = point.metrics["achieved_rate"]
            for s in range(int(point.duration_s)):
                t = start + s
                wobble = (s % 7) / 7
                rows = [SampleRow(point_id=point.id, series="point", t=t, values={"achieved_rate": rate * (0.98 + 0.04 * wobble), "latency_avg_ms": point.metrics["latency_avg_ms"]})]
                rows += [SampleRow(point_id=point.id, series=f"mpstat.cpu{c}", t=t, values={"usr": 20.0 + c, "sys": 5.0, "soft": 10.0 + 8 * c * wobble, "irq": 0.5, "idle": 60.0})
                         for c in range(cpus)]  # fmt: skip
                rows.append(SampleRow(point_id=point.id, series="mpstat.all", t=t, values={"usr": 22.0, "sys": 5.0, "soft": 14.0, "irq": 0.5, "idle": 58.0}))
                rows.append(SampleRow(point_id=point.id, series="ping", t=t, values={"rtt_ms": 0.05 + 0.01 * wobble, "loss_pct": 0.0}))
                session.add_all(rows)
                written += len(rows)
            start += point.duration_s + 1
    return written
