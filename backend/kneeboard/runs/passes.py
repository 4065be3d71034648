"""Repeat until decided on the worker: after each pass, the sequential test over the campaign's stored points says
whether another pass runs (its points added, variants in the other order) or why the campaign stops. Its state is the
campaign's points: a cancelled campaign resumed decides again from what was stored, the same way."""

from __future__ import annotations

from pydantic import TypeAdapter

from kneeboard.analysis.sequential import stop_reason, trace
from kneeboard.campaigns.analysis import point_dict
from kneeboard.campaigns.models import Campaign
from kneeboard.campaigns.service import point_of
from kneeboard.campaigns.progress import store
from kneeboard.db import session_scope
from kneeboard.plans.expand import expand
from kneeboard.plans.schemas import PlanBody, metric_sense
from kneeboard.states import PointStatus
from kneeboard.tools.registry import adapter

_PLAN = TypeAdapter(PlanBody)


def verdict_of(campaign: Campaign, *, cancelled: bool = False) -> dict | None:
    """The campaign's repeat-until-decided record: the sequential trace over its points with each verdict's history,
    the passes run, the seconds they took, and why it stopped (None: it goes on). None for a plan without the option."""
    until = campaign.plan.get("until_decided")
    if not until:
        return None
    tool = adapter(campaign.tool)
    senses = {m: metric_sense(tool, m) for m in until["metrics"]}
    variants = [v["label"] for v in campaign.plan.get("variants") or []]
    found = trace([point_dict(p) for p in campaign.points], variants, senses, margin_pct=until.get("margin_pct", 5.0))
    spent = sum((p.ended_at - p.started_at).total_seconds() for p in campaign.points if p.started_at and p.ended_at)
    reason = "cancelled (resume runs on from the stored passes)" if cancelled else stop_reason(
        found, passes=found["passes"], max_passes=until["max_passes"], spent_s=spent, budget_s=until.get("budget_s"))
    return {**found, "spent_s": spent, "stopped": reason, "max_passes": until["max_passes"], "budget_s": until.get("budget_s")}


def another(campaign_id: int) -> list[tuple[int, str | None]]:
    """Add the next pass's points while the campaign is undecided and within its bounds; their (id, variant) in run
    order, [] when it stops (or has no such option). Odd passes run the variants in reverse, so a steady drift falls on
    each side alike."""
    with session_scope() as session:
        campaign = session.get(Campaign, campaign_id)
        record = verdict_of(campaign)
        if record is None or record["stopped"] is not None:
            return []
        number = max((p.repeat for p in campaign.points), default=-1) + 1
        first = [p for p in expand(_PLAN.validate_python(campaign.plan)) if p.repeat == 0]
        order = [v["label"] for v in campaign.plan["variants"]][:: -1 if number % 2 else 1]
        first.sort(key=lambda p: (order.index(p.variant), p.seq))
        seq = max(p.seq for p in campaign.points) + 1
        # the campaign's attempt: after a resume the worker runs only points of its own attempt (a point of an earlier
        # one is stale to it), so a pass added with the default attempt was never run and another was added, forever
        added = [point_of(p, seq=seq + k, repeat=number, status=PointStatus.PENDING, attempt=campaign.attempt)
                 for k, p in enumerate(first)]
        campaign.points.extend(added)
        store(campaign)
        session.flush()
        return [(p.id, p.variant) for p in added]
