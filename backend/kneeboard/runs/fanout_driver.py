"""The conductor of a fanned point, in the database-connected worker that runs the campaign.

It reserves the point's agents, splits the point, sends each agent its share with a start time
a few seconds ahead (each agent waits for it on its own clock corrected by its measured offset),
gathers the shares' outcomes from Redis (remote agents take their shares and send outcomes through the API,
`agentlink/`, never Redis), stops every agent's load at the first failure or a
cancel, and merges what came back.
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from dataclasses import asdict, dataclass

import redis
from sqlalchemy import select

from kneeboard.agents.models import Agent
from kneeboard.agents.service import is_alive
from kneeboard.campaigns.models import Point
from kneeboard.config import get_settings
from kneeboard.db import session_scope
from kneeboard.fanout.keys import ALIVE_MS, KEEP_S, LEASE_MS, RunKeys, polling, work
from kneeboard.fanout.merge import merge
from kneeboard.fanout.outcome import ShareOutcome
from kneeboard.fanout.reserve import Reservation, ReserveError
from kneeboard.fanout.share import LATE_S
from kneeboard.fanout.split import split
from kneeboard.runs import faults
from kneeboard.tools.base import PointResult, PointSpec, ToolInputError
from kneeboard.tools.contract import ToolAdapter
from kneeboard.tools.runner import RunOutcome

log = logging.getLogger(__name__)
RESERVE_TIMEOUT_S = 30.0
READY_TIMEOUT_S = 20.0  # how long a reserved agent may take to be waiting for work (it may be finishing its last share)
PREPARE_S = 3.0  # from sending the shares to their start: each agent takes its task, checks the policy, builds its argv
STOP_WAIT_S = 15.0  # after a stop, how long the other agents get to report


class FanoutError(Exception):
    """The fanned point cannot run (agents missing, not alive, or not reservable)."""


@dataclass(frozen=True)
class Fan:
    """What a point asks for: a count of agents or their names, and the failure policy."""

    agents: int | list[str]
    on_failure: str = "fail"
    attempt: int = 1  # the point's attempt: agents' outcomes are accepted for this one only


def fan_of(point_id: int) -> Fan | None:
    """The point's fan-out (its phase's `agents`, else the plan's), or None for a one-agent point."""
    with session_scope() as session:
        point = session.get(Point, point_id)
        plan = point.campaign.plan
        agents = plan["phases"][point.phase_index].get("agents") or plan.get("agents")
        return Fan(agents, plan.get("on_agent_failure") or "fail", point.attempt) if agents else None


def resolve(fan: Fan) -> list[str]:
    """The agents' names: the named ones (each must be alive), or the first N alive remote agents by name."""
    with session_scope() as session:
        remote = [a for a in session.scalars(select(Agent).order_by(Agent.name))
                  if (a.facts or {}).get("remote") and (a.facts or {}).get("role") != "observer"]  # observers take no load
        alive = [a.name for a in remote if is_alive(a)]
    if isinstance(fan.agents, int):
        if len(alive) < fan.agents:
            raise FanoutError(f"the point needs {fan.agents} agents; {len(alive)} remote agents are alive ({', '.join(alive) or 'none'})")
        return alive[: fan.agents]
    silent = [n for n in fan.agents if n not in alive]
    if silent:
        raise FanoutError(f"agent{'s' if len(silent) > 1 else ''} {', '.join(silent)} not registered or not alive "
                          "(start it with `kneeboard agent --name NAME --url API_URL --token TOKEN`)")
    return list(fan.agents)


def run_fanned(fan: Fan, campaign_id: int, point_id: int, tool: ToolAdapter, spec: PointSpec,
               should_cancel) -> tuple[PointResult, RunOutcome | None]:
    """Run the point as shares on its agents; the merged result and the evidence of every share."""
    settings = get_settings()
    broker = redis.Redis.from_url(settings.redis_url)
    try:
        names = resolve(fan)
        parts = split(spec, len(names), tool=tool.name)
        with Reservation(broker, names, f"campaign {campaign_id} point {point_id}").acquire(RESERVE_TIMEOUT_S):
            _wait_polling(broker, names, should_cancel)
            keys, start_at = RunKeys(uuid.uuid4().hex), time.time() + PREPARE_S
            timeout_s = tool.time_limit_s(spec, settings.grace_s)
            broker.set(keys.lease, "conductor", px=LEASE_MS)
            broker.set(keys.assignment, json.dumps({"campaign_id": campaign_id, "point_id": point_id, "attempt": fan.attempt,
                                                    "agents": names}), ex=KEEP_S)  # fmt: skip
            for name, part in zip(names, parts):
                job = {"run": keys.run, "campaign_id": campaign_id, "point_id": point_id, "tool": tool.name, "spec": asdict(part),
                       "start_at": start_at, "timeout_s": timeout_s, "output_limit": tool.output_limit or settings.raw_output_limit}
                broker.rpush(work(name), json.dumps(job))  # the agent takes it from the API (GET /agent/work)
                broker.expire(work(name), int(PREPARE_S + LATE_S) + 1)
            outcomes, cancelled = _gather(broker, keys, dict(zip(names, parts)), start_at, start_at + timeout_s + STOP_WAIT_S,
                                          should_cancel, stop_on_failure=fan.on_failure == "fail")
    except (FanoutError, ReserveError, ToolInputError) as exc:
        return PointResult(error=str(exc)), None
    finally:
        broker.close()
    result = merge([outcomes[n] for n in names], {m.name: m.unit for m in tool.metrics}, spec.duration_s)
    _apply_policy(result, [outcomes[n] for n in names], fan.on_failure, cancelled)
    return result, _evidence([outcomes[n] for n in names], cancelled)


def _wait_polling(broker: redis.Redis, names: list[str], should_cancel) -> None:
    """Until every agent has a work poll waiting in the API, so that each takes its share as soon as it is sent
    (an agent just started, or busy posting its last outcome, would otherwise find its share gone stale)."""
    deadline = time.monotonic() + READY_TIMEOUT_S
    while waiting := [n for n in names if not broker.exists(polling(n))]:
        if time.monotonic() > deadline:
            raise FanoutError(f"agent{'s' if len(waiting) > 1 else ''} {', '.join(waiting)} alive but not asking for work within "
                              f"{READY_TIMEOUT_S:g} s (is it stuck on its API link? see its log)")
        if should_cancel():
            raise FanoutError("cancelled while running")
        time.sleep(0.1)


def _gather(broker: redis.Redis, keys: RunKeys, parts: dict[str, PointSpec], start_at: float, deadline: float,
            should_cancel, stop_on_failure: bool) -> tuple[dict[str, ShareOutcome], bool]:
    """Every share's outcome: reported, or made up here for an agent that died, never came, or ran out of time.
    A failure stops every agent's load (unless the plan keeps partial points); so does a cancel."""
    got: dict[str, ShareOutcome] = {}
    seen: set[str] = set()
    cancelled = False

    def lost(name: str, why: str) -> None:
        got[name] = ShareOutcome(agent=name, offered_rate=parts[name].rate, error=why)
        if stop_on_failure:
            stop(f"agent {name} failed: {why}")

    def stop(reason: str) -> None:
        nonlocal deadline
        if broker.set(keys.stop, reason, nx=True, ex=KEEP_S):
            log.warning("fanned run %s stopped: %s", keys.run, reason)
            deadline = min(deadline, time.time() + STOP_WAIT_S)

    try:
        while len(got) < len(parts):
            broker.set(keys.lease, "conductor", px=LEASE_MS)  # a dead conductor's agents stop within LEASE_MS
            faults.inject("gather")
            item = broker.blpop([keys.results], timeout=0.5)
            if item is not None:
                outcome = ShareOutcome.from_json(item[1])
                got[outcome.agent] = outcome
                if outcome.error and not outcome.cancelled and stop_on_failure:
                    stop(f"agent {outcome.agent} failed: {outcome.error}")
            now = time.time()
            for name in [n for n in parts if n not in got]:
                if broker.exists(keys.alive(name)):
                    seen.add(name)
                elif name in seen:
                    lost(name, f"agent {name} stopped answering during the point (no sign of life for {ALIVE_MS / 1000:g} s); its share is lost")
                elif now > start_at + LATE_S + ALIVE_MS / 1000:
                    lost(name, f"agent {name} did not take its share by the start time (is it running and consuming its queue?)")
            if not cancelled and should_cancel():
                cancelled = True
                stop("the campaign was cancelled")
            if now > deadline:
                for name in [n for n in parts if n not in got]:
                    lost(name, f"agent {name} sent no result in time")
    finally:
        broker.set(keys.stop, "the point is over", nx=True, ex=KEEP_S)  # nothing of this run may still be waiting to start
        broker.set(keys.closed, "1", ex=KEEP_S)  # and nothing of it is accepted any more
    return got, cancelled


def _apply_policy(result: PointResult, shares: list[ShareOutcome], on_failure: str, cancelled: bool) -> None:
    """A failed agent fails the point, or (policy `partial`) leaves it partial with the other shares."""
    failed = [s for s in shares if s.error and not s.cancelled]
    if cancelled:
        result.error = "cancelled while running"
    elif failed and (on_failure == "fail" or result.error):
        first = failed[0]
        stopped = [s.agent for s in shares if s.cancelled]
        result.error = (f"agent {first.agent}'s share failed: {first.error}"
                        + (f"; the load of {', '.join(stopped)} was stopped" if stopped else ""))
    elif failed:
        result.extra["partial"] = True
        result.extra["warnings"].insert(0, f"partial point: {len(failed)} of {len(shares)} agents failed "
                                           f"({', '.join(s.agent for s in failed)}); the figures are those of the others")


def _evidence(shares: list[ShareOutcome], cancelled: bool) -> RunOutcome:
    """The point's evidence: the first agent's argv, every agent's output tail under its name."""
    first = next((s for s in shares if s.argv), shares[0])
    codes = [s.exit_code for s in shares if s.exit_code]
    outcome = RunOutcome(argv=first.argv, exit_code=codes[0] if codes else (first.exit_code if first.argv else None), cancelled=cancelled)
    outcome.stdout = "".join(f"===== agent {s.agent} =====\n{s.stdout}\n" for s in shares)
    outcome.stderr = "".join(f"===== agent {s.agent} =====\n{s.stderr}\n" for s in shares if s.stderr or s.error)
    return outcome
