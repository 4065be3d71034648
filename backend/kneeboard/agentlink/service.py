"""The agent link's work on the server side: registration of one live process per agent name, heartbeats,
work handed out by long-poll, and each share's sign of life, live samples and outcome, accepted only from the
agent the share is assigned to, in its current attempt. The remote agent reaches Redis only through here."""

from __future__ import annotations

import json
import logging
import time
from functools import lru_cache

import redis
import redis.asyncio as aioredis
from sqlalchemy.orm import Session

from kneeboard.agentlink.schemas import Beat, Hello, LiveSample, OutcomeIn
from kneeboard.agents.models import Agent
from kneeboard.agents.service import heartbeat, is_alive
from kneeboard.auth.errors import Forbidden
from kneeboard.live import channel
from kneeboard.campaigns.models import Point
from kneeboard.config import get_settings
from kneeboard.db import utcnow
from kneeboard.errors import Conflict
from kneeboard.fanout.keys import ALIVE_MS, KEEP_S, RunKeys, polling, work
from kneeboard.fanout.outcome import ShareOutcome
from kneeboard.fanout.share import LATE_S
from kneeboard.states import PointStatus

log = logging.getLogger(__name__)
POLL_S = 20.0  # a work poll waits this long for a share, then answers 204 and the agent asks again


@lru_cache
def broker() -> redis.Redis:
    """The agent link's client of the server's private Redis (shares, observe assignments)."""
    return redis.Redis.from_url(get_settings().redis_url)


@lru_cache
def async_broker() -> aioredis.Redis:
    """The same Redis for the event loop's long-polls."""
    # a socket timeout above the work poll's BLPOP (5 s): redis-py 8 defaults to 5 s, which cut every idle poll off
    return aioredis.from_url(get_settings().redis_url, socket_timeout=30)


def hello(agent: str, body: Hello, *, session: Session, role: str = "agent") -> dict:
    """Register the agent's process (`role`: agent, or observer); Forbidden for another name than the credential's,
    Conflict when the name is a local worker's or another live process holds it."""
    if body.agent != agent:
        raise Forbidden(f"this credential is agent {agent}'s; it cannot register as {body.agent}")
    row = session.get(Agent, agent, with_for_update=True)
    if row is not None and not (row.facts or {}).get("remote"):
        raise Conflict(f"{agent} is the name of a database-connected worker; a remote agent may not take it")
    holder = (row.facts or {}).get("instance") if row is not None else None
    if row is not None and is_alive(row) and holder not in (None, body.instance):
        raise Conflict(f"agent {agent} is live in another process (instance {holder[:8]}…, heard from within "
                       f"{3 * get_settings().heartbeat_s:g} s); a second process may not register under its name")
    row = row or Agent(name=agent)
    facts = body.facts
    row.hostname, row.tools, row.last_heartbeat = facts.hostname, facts.tools, utcnow()
    row.facts = {"remote": True, "instance": body.instance, "cpus": facts.cpus, "addresses": facts.addresses, "clock_offset_ms": None,
                 "role": role}
    session.add(row)
    session.flush()
    return {"agent": agent, "server_time": time.time(), "heartbeat_s": get_settings().heartbeat_s, "poll_s": POLL_S}


def current_instance(agent: str, instance: str, *, session: Session) -> None:
    """Conflict unless `instance` is the process registered under `agent` (a superseded process must stop)."""
    row = session.get(Agent, agent)
    if row is None or (row.facts or {}).get("instance") != instance:
        raise Conflict(f"this process is not agent {agent}'s registered one (restarted elsewhere, or never said hello); register again")


def beat(agent: str, body: Beat, *, session: Session) -> float:
    """A heartbeat of the registered process; returns the server's clock."""
    current_instance(agent, body.instance, session=session)
    return heartbeat(agent, session=session, beat=body)


async def take_work(agent: str, wait_s: float) -> dict | None:
    """The next share waiting for `agent`, within `wait_s`; shares already too late to start are dropped."""
    client, deadline = async_broker(), time.monotonic() + wait_s
    try:
        while (left := deadline - time.monotonic()) > 0:
            await client.set(polling(agent), "1", px=int((min(left, 5.0) + 1) * 1000))
            item = await client.blpop([work(agent)], timeout=min(left, 5.0))
            if item is None:
                continue
            job = json.loads(item[1])
            if time.time() <= job["start_at"] + LATE_S:
                return job
            log.warning("share of run %s for agent %s dropped: nobody took it before its start", job["run"], agent)
        return None
    finally:
        await client.delete(polling(agent))


def assignment(agent: str, run: str) -> dict:
    """The run's assignment when it names `agent`; Forbidden otherwise (whether or not the run exists)."""
    raw = broker().get(RunKeys(run).assignment)
    found = json.loads(raw) if raw else None
    if found is None or agent not in found["agents"]:
        raise Forbidden(f"no share of run {run} is assigned to agent {agent}")
    return found


def share_state(agent: str, run: str) -> str | None:
    """Renew the share's sign of life; the reason the agent must stop now (a stop, the point over, or the
    conductor's lease lapsed), or None to go on."""
    assignment(agent, run)
    client, keys = broker(), RunKeys(run)
    client.set(keys.alive(agent), "1", px=ALIVE_MS)
    stop, closed, lease = client.mget([keys.stop, keys.closed, keys.lease])
    if stop:
        return stop.decode()
    if closed:
        return "the point is over"
    if not lease:
        return "the conductor's lease lapsed (it stopped renewing it: killed, or cut off)"
    return None


def publish_samples(agent: str, run: str, samples: list[LiveSample]) -> None:
    """A share's live intervals to its campaign's channel, as this agent's series."""
    found = assignment(agent, run)
    pipe = broker().pipeline(transaction=False)
    for sample in samples:
        data = {"point_id": found["point_id"], "t": sample.t, "series": f"agent.{agent}", "values": sample.values}
        pipe.publish(channel(found["campaign_id"]), json.dumps({"event": "sample", "data": data}))
    pipe.execute()


def accept_outcome(agent: str, run: str, body: OutcomeIn, *, session: Session) -> dict:
    """Hand the conductor `agent`'s outcome: only for a share assigned to it, in the point's current attempt,
    while the conductor still gathers, once. Conflict (nothing changed) otherwise."""
    found = assignment(agent, run)
    client, keys = broker(), RunKeys(run)
    if client.exists(keys.closed):
        raise Conflict(f"run {run} is over: its conductor no longer gathers outcomes")
    point = session.get(Point, found["point_id"])
    if point is None or point.attempt != found["attempt"] or point.status != PointStatus.RUNNING:
        raise Conflict(f"run {run} is not the current attempt of point {found['point_id']}")
    if not client.set(keys.reported(agent), "1", nx=True, ex=KEEP_S):
        raise Conflict(f"agent {agent} already reported its share of run {run}")
    outcome = ShareOutcome(agent=agent, **body.model_dump())
    client.rpush(keys.results, outcome.to_json())
    client.expire(keys.results, KEEP_S)
    return found
