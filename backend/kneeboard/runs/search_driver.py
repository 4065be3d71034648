"""The worker's side of a search phase: each trial is an ordinary point, created while the search runs.

The next trial comes from the algorithm fed with the stored trials (search/state.py), so a resumed campaign
continues from its bracket. The bracket is published on the campaign's live channel as it narrows.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import select

from kneeboard import live
from kneeboard.campaigns.models import Campaign, Point
from kneeboard.campaigns.progress import store
from kneeboard.config import get_settings
from kneeboard.db import session_scope
from kneeboard.runs.leases import holds
from kneeboard.retry import retrying
from kneeboard.runs.store import Run
from kneeboard.search.report import budget_stop, group_key, stored_trials
from kneeboard.search.state import bracket, config_of, found_dict, replay, run_duration
from kneeboard.states import PointStatus
from kneeboard.tools.registry import adapter

RunPoint = Callable[..., None]


def is_search(point_id: int) -> bool:
    """Whether the point is a trial of a search phase."""
    with session_scope() as session:
        return session.scalar(select(Point.phase).where(Point.id == point_id)) == "search"


def drive(point_id: int, run: Run, watch, run_point: RunPoint, refused: str | None = None) -> None:
    """Run the search `point_id` belongs to, trial after trial, until it ends, a trial does not complete, or the
    campaign is cancelled (or its lease lost). `run_point` runs one point (runs/execution.py's)."""
    first = True
    while True:
        step = retrying(lambda: _next_trial(point_id, run), "choosing the next trial")
        if step is None:
            return
        point_id, event, pause = step
        live.publish(run.campaign_id, "search", event)
        if point_id is None or (not first and watch.sleep(pause)):
            return
        run_point(point_id, run, watch, refused=refused)
        if retrying(lambda: _status(point_id), "reading a trial") != PointStatus.COMPLETED or watch():
            return  # a trial that failed stops this search (a resume measures it again); a cancel stops it too
        first = False


def _status(point_id: int) -> str:
    with session_scope() as session:
        return session.scalar(select(Point.status).where(Point.id == point_id))


def _next_trial(point_id: int, run: Run) -> tuple[int | None, dict, float] | None:
    """Under the campaign's lock: the point for the next trial (a pending one of this search, else a new one) set
    to the trial's rate and duration; None for the point when the search has ended (its unused points removed)."""
    with session_scope() as session:
        campaign = session.get(Campaign, session.get(Point, point_id).campaign_id, with_for_update=True, populate_existing=True)
        point = session.get(Point, point_id, populate_existing=True)
        if not holds(campaign, run.owner) or campaign.attempt != run.attempt:
            return None
        phase, key = campaign.plan["phases"][point.phase_index], group_key(point)
        members = sorted((p for p in campaign.points if group_key(p) == key), key=lambda p: p.seq)
        config, tool = config_of(phase), adapter(campaign.tool)
        state = replay(config, stored_trials(members), tool.whole_seconds)
        where = {"phase_index": key[0], "variant": key[1], "repeat": key[2], "unit": tool.rate_unit}
        pending = [p for p in members if p.status == PointStatus.PENDING]
        pause = float(campaign.plan.get("pause_s", 0))
        stopped = state.next and budget_stop(phase, members, state.next, tool.whole_seconds, pause)
        if state.next is None or stopped:
            for unused in pending:
                campaign.points.remove(unused)
            store(campaign)
            if stopped:  # the bracket found so far stays on the campaign's analysis (search/report.py says the same)
                return None, {**where, "done": False, "stopped": stopped, "trials": state.used, **bracket(state.next, config)}, 0.0
            found = [found_dict(f, tool.rate_unit, config.resolution_pct) for f in state.found]
            return None, {**where, "done": True, "criteria": found, "trials": state.used}, 0.0
        if len(members) - len(pending) >= get_settings().max_points:  # a guard: the algorithm ends long before
            return None, {**where, "done": False, "error": f"stopped after MAX_POINTS ({len(members)}) trials"}, 0.0
        trial = pending[0] if pending else _new_point(campaign, point)
        trial.offered_rate, trial.duration_s = state.next.rate, run_duration(state.next.duration_s, tool.whole_seconds)
        store(campaign)
        session.flush()
        event = {**where, "done": False, "trials": state.used, **bracket(state.next, config)}
        return trial.id, event, pause


def _new_point(campaign: Campaign, like: Point) -> Point:
    """A new pending trial of the same search, last in the campaign's order, of the campaign's current attempt."""
    point = Point(seq=max(p.seq for p in campaign.points) + 1, variant=like.variant, phase_index=like.phase_index, phase="search",
                  concurrency=like.concurrency, offered_rate=like.offered_rate, duration_s=like.duration_s, repeat=like.repeat,
                  attempt=campaign.attempt, status=PointStatus.PENDING)  # fmt: skip
    campaign.points.append(point)
    return point
