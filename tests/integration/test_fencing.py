"""Fencing: a stale run (its lease lost, its campaign resumed elsewhere) cannot write; two reapers never crash
a campaign whose lease was renewed meanwhile; a spool left by a long outage is stored once the database is back."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

from sqlalchemy import func, select, update

from kneeboard.models import import_all
from kneeboard.agents import service as agents
from kneeboard.campaigns.models import Campaign, Point, SampleRow
from kneeboard.db import session_scope, utcnow
from kneeboard.runs import spool
from kneeboard.runs.execution import _begin_point, _start
from kneeboard.runs.leases import executing, renew
from kneeboard.runs.recovery import crash_expired
from kneeboard.runs.store import Run, store_point, store_recovered
from kneeboard.tools.base import PointResult, PointSpec, Sample
from kneeboard.stack import start_worker
from kneeboard.tools.registry import adapter
from tests.support import outages
from tests.support.services import wait_for_agent

from tests.integration.test_crash_safety import _launch, _plan, _wait, _wait_running_point


import_all()  # every table, for the relationships loaded in this process


def _idle_agent(name: str) -> None:
    """An agent row no worker consumes: its campaigns stay queued until this test runs them in-process."""
    with session_scope() as session:
        agents.register(name, {}, session=session)


def _expire(campaign_id: int) -> None:
    with session_scope() as session:
        session.execute(update(Campaign).where(Campaign.id == campaign_id).values(lease_expires_at=utcnow() - timedelta(seconds=1)))


def _result(rate: float) -> PointResult:
    return PointResult(metrics={"achieved_rate": rate}, samples=[Sample(t=time.time(), values={"achieved_rate": rate})])


def test_a_stale_attempt_cannot_overwrite_the_new_attempts_point(stack, dns_target, tmp_path):
    _idle_agent("fence-a")
    campaign_id = _launch(stack, _plan(stack, dns_target["id"], points=1, duration_s=1), agent="fence-a")
    old = Run(campaign_id, "fence-a", "old-holder", 1)
    assert _start(campaign_id, "fence-a", old.owner)[3] == 1
    [point] = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    assert _begin_point(point["id"], old) is not None
    spec = PointSpec(host=stack.dns_host, port=stack.dns_port, concurrency=1, rate=100.0, duration_s=1, params={})
    tool = adapter("dnsperf")

    _expire(campaign_id)  # the old holder is cut off: the reaper crashes its campaign, a user resumes it
    with session_scope() as session:
        assert campaign_id in crash_expired(session=session)
    assert stack.api.post(f"/api/v1/campaigns/{campaign_id}/resume").status_code == 202
    new = Run(campaign_id, "fence-a", "new-holder", 2)
    assert _start(campaign_id, "fence-a", new.owner)[3] == 2
    assert _begin_point(point["id"], new) is not None

    assert store_point(point["id"], spec, None, _result(111.0), tool, old) is None  # the old attempt's write: refused
    workdir = tmp_path / f"campaign-{campaign_id}" / f"point-{point['id']}"
    workdir.mkdir(parents=True)
    spooled = spool.keep(workdir, _result(111.0), None, point_id=point["id"], attempt=1, owner=old.owner, tool="dnsperf", rate=100.0)
    assert store_point(point["id"], spec, None, _result(222.0), tool, new) == "completed"
    assert spool.recover(tmp_path, store_recovered) == []  # nor can its spool, later
    assert not spooled.exists() and spooled.with_name(spool.STALE).exists()

    [stored] = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    assert stored["status"] == "completed" and stored["attempt"] == 2 and stored["metrics"]["achieved_rate"] == 222.0
    with session_scope() as session:
        rows = session.scalars(select(SampleRow).where(SampleRow.point_id == point["id"])).all()
    assert [r.values["achieved_rate"] for r in rows] == [222.0]
    _expire(campaign_id)  # end the in-process run now, not when its lease lapses during a later test
    with session_scope() as session:
        assert crash_expired(session=session) == [campaign_id]


def test_a_reaper_leaves_a_lease_renewed_after_its_read(stack, dns_target):
    _idle_agent("fence-b")
    campaign_id = _launch(stack, _plan(stack, dns_target["id"], points=1, duration_s=1), agent="fence-b")
    holder = "renewing-holder"
    _start(campaign_id, "fence-b", holder)
    _expire(campaign_id)
    crashed: list[list[int]] = []
    with executing(campaign_id), session_scope() as renewing:
        assert renew(holder, session=renewing) == 1  # row locked, new expiry not yet committed
        reaper = threading.Thread(target=lambda: crashed.append(_reap()))
        reaper.start()
        time.sleep(1.0)  # the reaper has read the expired lease and now waits on the row
        assert reaper.is_alive(), "the reaper did not wait for the renewing transaction"
    reaper.join(timeout=10)
    second = _reap()  # a second reaper after the renewal: nothing to do either
    assert crashed == [[]] and second == []
    assert stack.api.get(f"/api/v1/campaigns/{campaign_id}").json()["status"] == "running"
    _expire(campaign_id)
    both: list[list[int]] = []
    reapers = [threading.Thread(target=lambda: both.append(_reap())) for _ in range(2)]
    for r in reapers:
        r.start()
    for r in reapers:
        r.join(timeout=10)
    assert sorted(both) == [[], [campaign_id]]  # two reapers at once: crashed once


def _reap() -> list[int]:
    with session_scope() as session:
        return crash_expired(session=session)


def test_a_spool_left_by_a_long_outage_is_stored_when_the_database_returns(stack, dns_target):
    name = "spool-a"
    proc = start_worker({**stack.env, "AGENT_NAME": name, "DB_RETRY_S": "2", "LEASE_S": "6"}, stack.tmp / f"agent-{name}")
    stack.started.append(proc)
    wait_for_agent(stack.api, name)
    campaign_id = _launch(stack, _plan(stack, dns_target["id"], points=1, duration_s=4), agent=name)
    _wait_running_point(stack, campaign_id, 0)
    outages.postgres_down(stack, 12.0)  # the point ends and its store gives up (DB_RETRY_S=2) while Postgres is down
    _wait(stack, campaign_id, {"crashed", "failed"}, timeout_s=60)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        [point] = stack.api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
        if point["status"] == "completed":
            break
        time.sleep(0.5)
    print(f"\nspool after a 12 s outage: point {point['status']}, achieved {point['metrics'].get('achieved_rate')}")
    assert point["status"] == "completed" and point["metrics"]["achieved_rate"] > 0
    assert "stored from the agent's spool" in " ".join(point["warnings"])
    with session_scope() as session:
        rows = session.scalar(select(func.count()).select_from(SampleRow).where(SampleRow.point_id == point["id"]))
        attempts = session.scalar(select(func.count()).select_from(Point).where(Point.campaign_id == campaign_id))
    assert rows > 0 and attempts == 1
    time.sleep(3)  # another heartbeat: stored once, not twice
    with session_scope() as session:
        assert session.scalar(select(func.count()).select_from(SampleRow).where(SampleRow.point_id == point["id"])) == rows
