"""Completed campaigns of a plan with chosen capacity, stored through the ORM as the worker would leave them
(points, stored summary, analysis), then settled by the same function the worker calls."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from kneeboard.campaigns.analysis import analyse_campaign
from kneeboard.campaigns.models import Campaign, Point
from kneeboard.campaigns.progress import store
from kneeboard.db import session_scope
from kneeboard.states import CampaignStatus, PointStatus
from kneeboard.runs.settled import settled

RATES = [1000.0 * r for r in range(1, 11)]


def plan_body(target_id: int, name: str, repeat: int) -> dict:
    """A dnsperf plan whose points `completed_campaign` fills in: a baseline and a saturation sweep."""
    return {"name": name, "tool": "dnsperf", "target_id": target_id, "pause_s": 0, "repeat": repeat,
            "phases": [{"kind": "baseline", "concurrency": 1, "rate": 200, "duration_s": 1},
                       {"kind": "saturation", "concurrency": 8, "rate": RATES, "duration_s": 1}]}  # fmt: skip


def _metrics(rng: random.Random, rate: float, ceiling: float, noise: float) -> dict:
    achieved = min(rate, ceiling) * (1 + noise * rng.gauss(0, 1))
    latency = 0.5 + 8.0 * max(0.0, rate / ceiling - 0.85) + 0.01 * rng.random()
    return {"achieved_rate": achieved, "latency_avg_ms": latency, "latency_p50_ms": latency * 0.9, "latency_p99_ms": latency * 2,
            "sent": int(rate), "lost": 0, "completed": int(rate), "loss_pct": 0.0}  # fmt: skip


def completed_campaign(plan: dict, ceiling: float, *, seed: int, when: datetime | None = None, noise: float = 0.01,
                       tags: tuple[str, ...] = ()) -> int:
    """A completed campaign of `plan` (as the API returned it) whose capacity is about `ceiling`; settled. Its id."""
    rng = random.Random(seed)
    when = when or datetime.now(timezone.utc)
    with session_scope() as session:
        campaign = Campaign(name=plan["name"], tool=plan["tool"], plan_id=plan["id"], target_id=plan["target_id"], plan=plan,
                            target={"id": plan["target_id"], "name": "t", "kind": "dns", "host": "127.0.0.1", "port": 53, "tags": []},
                            status=CampaignStatus.QUEUED, tags=sorted({"trend-test", *tags}), agent="local", source="live")  # fmt: skip
        for step in (CampaignStatus.STARTING, CampaignStatus.RUNNING, CampaignStatus.COMPLETED):
            campaign.status = step
        loads = [("baseline", 1, 200.0)] + [("saturation", 8, r) for r in RATES]
        seq = 0
        for repeat in range(plan.get("repeat", 1)):
            for index, (phase, concurrency, rate) in enumerate(loads):
                campaign.points.append(Point(seq=seq, phase_index=min(index, 1), phase=phase, concurrency=concurrency, offered_rate=rate,
                                             duration_s=1.0, repeat=repeat, status=PointStatus.COMPLETED, tool_version="2.11.2",
                                             metrics=_metrics(rng, rate, ceiling, noise)))  # fmt: skip
                seq += 1
        campaign.created_at = campaign.started_at = when
        campaign.ended_at = when + timedelta(minutes=5)
        store(campaign)
        session.add(campaign)
        session.flush()
        campaign.analysis = analyse_campaign(campaign)
        campaign_id = campaign.id
    settled(campaign_id)
    return campaign_id
