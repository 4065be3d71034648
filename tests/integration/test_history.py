"""History at scale, checked for right answers: every filter against a direct query, cursor pages,
stored progress and summary against a computation from the points, clamped series, the data migration."""

from __future__ import annotations

import json
import random
import sqlite3
import time

import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from kneeboard.campaigns.models import Campaign
from kneeboard.campaigns.progress import counts, summary
from kneeboard.campaigns.status import CAMPAIGN_TERMINAL
from tests.bench.seed import make_templates, seed
from tests.integration.test_migrations import alembic

DATA = "tests/unit/data/seed000.csv"


@pytest.fixture(scope="module")
def history(stack):
    """A few dozen seeded campaigns of every shape in the suite's Postgres, two of them archived."""
    engine = create_engine(stack.env["DATABASE_URL"])
    rng = random.Random(3)
    picked = seed(engine, make_templates(engine, rng, plans=4), 60, samples_per_point=1, stability_samples=5, long_series=1, rng=rng)
    for campaign_id in picked["campaigns"][5:7]:
        assert stack.api.patch(f"/api/v1/campaigns/{campaign_id}", json={"archived": True}).status_code == 200
    yield engine, picked
    engine.dispose()


def every_campaign(engine) -> list[dict]:
    """All campaigns as plain rows, straight from the database (what the filters are checked against)."""
    with engine.connect() as conn:
        columns = (Campaign.id, Campaign.status, Campaign.tool, Campaign.target_id, Campaign.tags, Campaign.name, Campaign.source, Campaign.archived)
        return [dict(row._mapping) for row in conn.execute(select(*columns).order_by(Campaign.id.desc()))]


def expected(rows: list[dict], archived: bool = False, status=None, tool=None, target_id=None, tag=None, q=None) -> list[int]:
    """The ids a filter must return, newest first, by the plainest reading of each filter."""
    return [r["id"] for r in rows if r["archived"] == archived and (not status or r["status"] == status) and (not tool or r["tool"] == tool)
            and (not target_id or r["target_id"] == target_id) and (not tag or tag in (r["tags"] or []))
            and (not q or q.lower() in r["name"].lower() or q.lower() in r["source"].lower())]  # fmt: skip


def walk(api, limit: int, **params) -> list[int]:
    """Every id of a filtered list, page after page by cursor."""
    ids, cursor = [], None
    for _ in range(1000):
        page = api.get("/api/v1/campaigns", params={**params, "limit": limit, **({"cursor": cursor} if cursor else {})}).json()
        ids += [c["id"] for c in page["items"]]
        cursor = page["next_cursor"]
        if cursor is None:
            return ids
    raise AssertionError("the cursor never ended")


def test_every_filter_returns_exactly_its_campaigns(stack, history):
    engine, picked = history
    rows = every_campaign(engine)
    target = rows[-1]["target_id"] or next(r["target_id"] for r in rows if r["target_id"])
    cases = [{}, {"archived": True}, {"status": "completed"}, {"status": "failed"}, {"status": "crashed"}, {"tool": "wrk"},
             {"tool": "dnsperf"}, {"target_id": target}, {"tag": "nightly"}, {"tag": "imported"}, {"tag": "no-such-tag"},
             {"q": "Resolver"}, {"q": "seed00"}, {"q": "%"}, {"q": "_"}, {"tag": "nightly", "tool": "dnsperf", "status": "completed"},
             {"q": "#1", "target_id": target}]  # fmt: skip
    for params in cases:
        want = expected(rows, **params)
        page = stack.api.get("/api/v1/campaigns", params={**params, "limit": 200}).json()
        assert page["total"] == len(want), (params, page["total"], len(want))
        assert [c["id"] for c in page["items"]] == want[:200], params
        assert walk(stack.api, 7, **params) == want, params
    assert len(expected(rows, tag="nightly")) > 5 and len(expected(rows, q="%")) == 0, "the cases must mean something"


def test_cursor_pages_walk_every_campaign_once_in_order(stack, history):
    ids = walk(stack.api, 9)
    assert ids == sorted(set(ids), reverse=True), "newest first, no campaign twice"
    assert ids == expected(every_campaign(history[0]))
    by_offset = []
    for offset in range(0, len(ids), 9):
        page = stack.api.get("/api/v1/campaigns", params={"limit": 9, "offset": offset}).json()
        assert page["offset"] == offset and page["total"] == len(ids)
        by_offset += [c["id"] for c in page["items"]]
    assert by_offset == ids
    bad = stack.api.get("/api/v1/campaigns", params={"cursor": "12; drop"})
    assert bad.status_code == 422 and "cursor" in bad.text


def _tiny_plan(target_id: int) -> dict:
    return {"name": "history one point", "tool": "dnsperf", "target_id": target_id, "pause_s": 0, "repeat": 1,
            "params": {"names": ["www.example.lab"], "qtype": "A", "timeout_s": 2},
            "phases": [{"kind": "baseline", "concurrency": 1, "rate": 100, "duration_s": 1}]}  # fmt: skip


def test_stored_progress_and_summary_equal_the_computation_from_points(stack, history, dns_target):
    from kneeboard.runs.recovery import crash
    from kneeboard.runs.resume import resume

    plan = stack.api.post("/api/v1/plans", json=_tiny_plan(dns_target["id"])).json()
    run_id = stack.api.post("/api/v1/campaigns", json={"plan_id": plan["id"]}).json()["id"]  # _store and _settle
    with open(DATA, "rb") as handle:
        imported = stack.api.post("/api/v1/campaigns/import", files=[("file", ("seed000.csv", handle.read()))]).json()  # the importer
    deadline = time.monotonic() + 90
    while stack.api.get(f"/api/v1/campaigns/{run_id}").json()["status"] not in {"completed", "failed", "crashed"}:
        assert time.monotonic() < deadline, "the one-point campaign did not end"
        time.sleep(0.3)
    engine, picked = history
    with Session(engine) as session:  # resume, then crash, in one transaction never committed: both store
        crashed = session.scalars(select(Campaign).where(Campaign.status.in_(("crashed", "cancelled")), Campaign.id.in_(picked["campaigns"]))).first()
        resume(crashed.id, session=session)
        assert (crashed.points_done, crashed.points_total) == (counts(crashed.points)["done"], len(crashed.points))
        assert crashed.points_done == crashed.summary["points_completed"] < len(crashed.points)
        crash(crashed, "test")
        assert crashed.points_done == len(crashed.points) and crashed.points_cancelled == counts(crashed.points)["cancelled"] > 0
        session.rollback()
    with Session(engine) as session:
        campaigns = session.scalars(select(Campaign).order_by(Campaign.id)).all()
        assert {run_id, imported["id"]} <= {c.id for c in campaigns}
        for campaign in (c for c in campaigns if c.status in CAMPAIGN_TERMINAL):  # an active one may change meanwhile
            tally = counts(campaign.points)
            shown = stack.api.get(f"/api/v1/campaigns/{campaign.id}").json()
            assert {k: shown["progress"][k] for k in tally} == tally, campaign.id
            assert shown["summary"] == pytest.approx(summary(campaign.points)), campaign.id
            assert campaign.summary == pytest.approx(summary(campaign.points)), campaign.id
            assert (campaign.points_done, campaign.points_total) == (tally["done"], tally["total"]), campaign.id
    listed = {c["id"]: c for c in stack.api.get("/api/v1/campaigns", params={"limit": 200}).json()["items"]}
    assert listed[run_id]["progress"]["done"] == 1 and listed[run_id]["summary"]["points_completed"] == 1


def test_series_above_the_cap_is_clamped_and_says_so(stack, history):
    point_id = history[1]["long_points"][0]
    wide = stack.api.get(f"/api/v1/points/{point_id}/samples", params={"max_points": 20000})
    assert wide.status_code == 200, wide.text
    body = wide.json()
    assert body["clamped"] is True and body["max_points"] == 2000 and body["downsampled"] is True and len(body["samples"]) == 2000
    narrow = stack.api.get(f"/api/v1/points/{point_id}/samples", params={"max_points": 100}).json()
    assert narrow["clamped"] is False and narrow["max_points"] == 100 and len(narrow["samples"]) == 100
    assert narrow["samples"][0]["t"] == pytest.approx(sum(range(50)) / 50), "bucket means of t = 0, 1, 2, …"
    assert stack.api.get("/api/v1/points/999999999/samples").status_code == 404


def test_data_migration_fills_tags_counts_and_summary(tmp_path):
    url = f"sqlite:///{tmp_path / 'kb.db'}"
    assert alembic("upgrade", "0007_history-1", url=url).returncode == 0
    db = sqlite3.connect(tmp_path / "kb.db")
    db.execute("INSERT INTO campaigns (id, name, tool, plan, target, status, partial, tags, agent, source, environment, created_at, attempt, archived) "
               "VALUES (1, 'old', 'dnsperf', '{}', '{}', 'completed', 0, '[\"b\", \"a\", \"b\"]', 'local', 'live', '{}', '2026-01-01', 1, 0)")
    points = [("completed", "baseline", {"achieved_rate": 10, "latency_avg_ms": 1.5, "sent": 100, "lost": 1}), ("failed", "ramp", {}),
              ("completed", "ramp", {"achieved_rate": 20}), ("crashed", "ramp", {})]  # fmt: skip
    for seq, (status, phase, metrics) in enumerate(points):
        db.execute("INSERT INTO points (campaign_id, seq, phase_index, phase, concurrency, duration_s, repeat, status, warnings, metrics, extra, "
                   "argv, stdout, stderr, attempt) VALUES (1, ?, 0, ?, 1, 1, 0, ?, '[]', ?, '{}', '[]', '', '', 1)", (seq, phase, status, json.dumps(metrics)))  # fmt: skip
    db.commit()
    done = alembic("upgrade", "head", url=url)
    assert done.returncode == 0, done.stderr
    row = db.execute("SELECT points_total, points_done, points_failed, points_cancelled, summary FROM campaigns").fetchone()
    assert row[:4] == (4, 4, 1, 1)
    assert json.loads(row[4]) == {"max_achieved_rate": 20, "baseline_latency_ms": 1.5, "loss_pct": 1.0, "points_completed": 2, "points_failed": 1}
    assert db.execute("SELECT tag FROM campaign_tags ORDER BY tag").fetchall() == [("a",), ("b",)]
    assert alembic("downgrade", "0007_history-1", url=url).returncode == 0
