"""Change points of a trend: E-Divisive means (analysis.changepoints) on each headline metric's series,
stored per plan after each campaign settles, each with what differed between the two campaigns around it."""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Row, delete, select
from sqlalchemy.orm import Session

from kneeboard.analysis.changepoints import Change, e_divisive
from kneeboard.campaigns.models import Campaign
from kneeboard.compare.service import build, differences
from kneeboard.db import utcnow
from kneeboard.plans.service import get_plan
from kneeboard.trends.headline import METRICS
from kneeboard.trends.models import ChangePoint
from kneeboard.trends.service import Scope, point_out, series

DETECT_LAST = 200  # change points are looked for in the newest 200 campaigns of a series
ON_READ_LAST = 100  # for a target or a tag (not stored), the newest 100


def values_of(entry: Row, metric: str) -> float | None:
    """The entry's figure for `metric`; capacity at SLO only where it is a figure (kind between), not a bound."""
    column, _better = METRICS[metric]
    value = getattr(entry, column)
    if metric == "capacity_at_slo" and entry.capacity_kind != "between":
        return None
    return value if value is not None and math.isfinite(value) else None


@dataclass(frozen=True)
class Found:
    """A change between two consecutive campaigns of a series that have the metric."""

    metric: str
    before: Row
    after: Row
    change: Change

    @property
    def direction(self) -> str:
        """better or worse, by which way the metric is better."""
        return "better" if self.change.diff * METRICS[self.metric][1] > 0 else "worse"


def detect(entries: list[Row], metric: str, *, last: int = DETECT_LAST) -> list[Found]:
    """The change points of `metric` over the newest `last` entries that have it (oldest first in, and out)."""
    kept = [(e, v) for e in entries if (v := values_of(e, metric)) is not None][-last:]
    found = []
    for run in _same_method(kept, metric):  # a change of how the server was read is not a change in the server
        changes = e_divisive([v for _e, v in run]) if len(run) >= 2 else []
        found += [Found(metric, run[c.index - 1][0], run[c.index][0], c) for c in changes]
    return found


def _same_method(kept: list[tuple[Row, float]], metric: str) -> list[list[tuple[Row, float]]]:
    """The entries cut where the server's figures were read another way (server_cost only; one run otherwise)."""
    if metric != "server_cost":
        return [kept]
    runs: list[list[tuple[Row, float]]] = []
    for entry, value in kept:
        method = getattr(entry, "server_method", None)
        if not runs or getattr(runs[-1][-1][0], "server_method", None) != method:
            runs.append([])
        runs[-1].append((entry, value))
    return runs


def what_differed(before_id: int, after_id: int, *, session: Session) -> dict:
    """The comparison's differences (plan, target, environment with tool versions) plus the notes, keyed by campaign id."""
    found = build([str(before_id), str(after_id)], session=session)["differences"]
    notes = {str(c.id): {"notes": c.notes or ""} for c in (session.get(Campaign, before_id), session.get(Campaign, after_id))}
    return {**found, "notes": differences(notes)}


def refresh(scope: Scope, *, session: Session) -> list[ChangePoint]:
    """Detect the scope's change points again and store them (those no longer found are removed); the new ones."""
    entries = series(scope, session=session)
    stored = {(c.metric, c.after_campaign_id): c for c in session.scalars(select(ChangePoint).where(ChangePoint.scope == scope.key))}
    found = {(f.metric, f.after.campaign_id): f for metric in METRICS for f in detect(entries, metric)}
    gone = [c.id for key, c in stored.items() if key not in found]
    if gone:
        session.execute(delete(ChangePoint).where(ChangePoint.id.in_(gone)))
    new = []
    for key, f in found.items():
        row = stored.get(key) or ChangePoint(scope=scope.key, metric=f.metric, after_campaign_id=f.after.campaign_id,
                                             differences=what_differed(f.before.campaign_id, f.after.campaign_id, session=session))  # fmt: skip
        _fill(row, f)
        if key not in stored:
            row.detected_at = utcnow()
            session.add(row)
            new.append(row)
    session.flush()
    return new


def _fill(row: ChangePoint, found: Found) -> None:
    c = found.change
    row.before_campaign_id = found.before.campaign_id
    row.mean_before, row.mean_after, row.diff, row.ci_low, row.ci_high = c.mean_before, c.mean_after, c.diff, c.ci_low, c.ci_high
    row.change_pct, row.pvalue, row.direction = c.change_pct, c.pvalue, found.direction


def of_scope(scope: Scope, entries: list[Row], *, session: Session) -> list[dict]:
    """The change points a trend shows: a plan's stored ones, or (target, tag) found now over its newest campaigns."""
    shown = {e.campaign_id for e in entries}
    if scope.plan_id is not None:
        rows = session.scalars(select(ChangePoint).where(ChangePoint.scope == scope.key).order_by(ChangePoint.after_campaign_id))
        return [_out(r) for r in rows if r.after_campaign_id in shown]
    out = []
    for metric in METRICS:
        for f in detect(entries, metric, last=ON_READ_LAST):
            row = ChangePoint(scope=scope.key, metric=metric, after_campaign_id=f.after.campaign_id, differences={})
            _fill(row, f)
            out.append(_out(row))
    return out


def _out(row: ChangePoint) -> dict:
    keys = ("metric", "before_campaign_id", "after_campaign_id", "mean_before", "mean_after", "diff", "ci_low", "ci_high",
            "change_pct", "pvalue", "direction", "differences", "detected_at")  # fmt: skip
    return {**{k: getattr(row, k) for k in keys}, "compare_url": f"/compare?c={row.before_campaign_id}&c={row.after_campaign_id}"}


def describe(scope: Scope, *, metric: str, since: datetime | None, limit: int, session: Session) -> dict:
    """The trend as the API shows it: the rows, the plan's pinned baseline, the change points of `metric`."""
    baseline = get_plan(scope.plan_id, session=session).baseline_campaign_id if scope.plan_id is not None else None
    entries = series(scope, session=session, since=since, limit=limit)
    changes = [c for c in of_scope(scope, entries, session=session) if c["metric"] == metric]
    return {"scope": {"key": scope.key, "plan_id": scope.plan_id, "target_id": scope.target_id, "tool": scope.tool, "tag": scope.tag},
            "metric": metric, "baseline_campaign_id": baseline, "points": [point_out(e) for e in entries], "change_points": changes}  # fmt: skip
