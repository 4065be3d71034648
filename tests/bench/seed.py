"""Seeding a Postgres database with campaign history of realistic shapes, fast (COPY into the real tables).

Shapes: several tools and targets, a dozen plans launched again and again (nightly, release, ad hoc),
~20-35 points per campaign (baseline, scalability, saturation, a long stability point), tool stdout
on every point, per-second samples, tags, some imported campaigns, failed/cancelled/crashed ones.
Stored counts and summaries come from kneeboard.campaigns.progress, as the worker would store them.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from types import SimpleNamespace

from sqlalchemy import Engine, text

from kneeboard.report import analyse
from kneeboard.campaigns.analysis import Thresholds
from kneeboard.campaigns.progress import counts, summary

TOOLS = {"dnsperf": ("dns", 53, "qps"), "wrk": ("http", 80, "req/s"), "iperf3": ("net", 5201, "bit/s"), "devsim": ("device", 9000, "reports/s")}
WORDS = ("resolver", "edge", "cache", "ingress", "upstream", "dnssec", "anycast", "tls", "gateway", "backbone", "sidecar", "mesh")
STATUSES = (("completed", 85), ("failed", 7), ("cancelled", 5), ("crashed", 3))
STDOUT = """DNS Performance Testing Tool
Version 2.11.2

[Status] Command line: dnsperf -s 10.0.0.{h} -p 53 -d queries.txt -c {c} -Q {q} -l {d} -S 1
[Status] Sending queries (to 10.0.0.{h}:53)
[Status] Started at: Mon Nov 23 10:00:00 2026
[Status] Stopping after {d}.000000 seconds
{intervals}[Status] Testing complete (time limit)

Statistics:

  Queries sent:         {sent}
  Queries completed:    {done} ({pct:.2f}%)
  Queries lost:         {lost} ({lpct:.2f}%)

  Response codes:       NOERROR {done} (100.00%)
  Average packet size:  request 33, response 49
  Run time (s):         {d}.000021
  Queries per second:   {qps:.6f}

  Average Latency (s):  {lat:.6f} (min 0.000021, max 0.004312)
  Latency StdDev (s):   {sd:.6f}
"""


@dataclass
class Template:
    """A stored plan launched many times: its tool, target, phases and the analysis its points give."""

    plan_id: int
    target_id: int
    name: str
    tool: str
    ceiling: float
    phases: list[tuple[str, int, float, float]] = field(default_factory=list)  # kind, concurrency, rate, duration
    body: dict = field(default_factory=dict)
    analysis: dict | None = None


def _metrics(rng: random.Random, template: Template, rate: float, concurrency: int) -> dict:
    achieved = min(rate, template.ceiling) * rng.uniform(0.97, 1.0)
    latency = 0.4 + 2.0 * max(0.0, rate / template.ceiling - 0.8) + rng.uniform(0, 0.05)
    sent = int(rate * 10)
    lost = int(sent * max(0.0, 1 - template.ceiling / rate)) if rate > template.ceiling else 0
    return {"achieved_rate": achieved, "latency_avg_ms": latency, "latency_stddev_ms": latency / 4, "loss_pct": 100.0 * lost / sent,
            "sent": sent, "lost": lost, "completed": sent - lost, "errors": 0, "concurrency": concurrency}  # fmt: skip


def _phases(rng: random.Random, long_s: float) -> list[tuple[str, int, float, float]]:
    phases = [("baseline", 1, 200.0, 10.0)]
    phases += [("scalability", c, 250.0 * c, 10.0) for c in (1, 2, 4, 8, 16)[: rng.randint(4, 5)]]
    phases += [("saturation", 8, 1000.0 * r, 10.0) for r in range(1, rng.randint(10, 26))]
    return phases + [("stability", 8, 5000.0, long_s)]


def _valid_phase(tool: str, concurrency: int, rate: float, duration_s: float) -> dict:
    """One point as a phase the plan schema accepts (a custom phase; closed-loop wrk takes no rate)."""
    phase = {"kind": "custom", "concurrency": concurrency, "duration_s": duration_s}
    return phase if tool == "wrk" else {**phase, "rate": rate}


def make_templates(engine: Engine, rng: random.Random, *, plans: int = 12) -> list[Template]:
    """Targets and plans in the database, one template per plan, each with its analysis computed once."""
    templates = []
    with engine.begin() as conn:
        for i in range(plans):
            tool = list(TOOLS)[i % len(TOOLS)]
            kind, port, _unit = TOOLS[tool]
            target_id = conn.execute(text("INSERT INTO targets (name, kind, host, port, notes, tags, created_at) VALUES "
                                          "(:n, :k, :h, :p, '', :t, now()) RETURNING id"),
                                     {"n": f"bench-{kind}-{i}-{rng.random():.6f}", "k": kind, "h": f"10.0.0.{i + 1}", "p": port,
                                      "t": json.dumps([f"site-{i % 3}"])}).scalar()  # fmt: skip
            name = f"{WORDS[i % len(WORDS)]} {tool} {('sweep', 'capacity', 'soak')[i % 3]}"
            template = Template(0, target_id, name, tool, rng.uniform(8_000, 20_000), _phases(rng, 3600.0))
            template.body = {"name": name, "tool": tool, "target_id": target_id, "pause_s": 1, "repeat": 1,
                             "phases": [_valid_phase(tool, c, r, d) for _k, c, r, d in template.phases]}  # fmt: skip
            template.plan_id = conn.execute(text("INSERT INTO plans (name, tool, target_id, body, created_at, updated_at) "
                                                 "VALUES (:n, :t, :g, :b, now(), now()) RETURNING id"),
                                            {"n": name, "t": tool, "g": target_id, "b": json.dumps(template.body)}).scalar()  # fmt: skip
            points = [{"phase": k, "concurrency": c, "offered_rate": r, "repeat": 0, "status": "completed", "variant": None,
                       **{m: v for m, v in _metrics(rng, template, r, c).items() if m in ("achieved_rate", "latency_avg_ms", "latency_stddev_ms", "loss_pct")}}
                      for k, c, r, _d in template.phases]  # fmt: skip
            template.analysis = {**analyse(points, None, unit=TOOLS[tool][2], **Thresholds().model_dump()), "thresholds": Thresholds().model_dump()}
            templates.append(template)
    return templates


def _ids(cur, sequence: str, count: int) -> list[int]:
    cur.execute(f"SELECT nextval('{sequence}') FROM generate_series(1, %s)", (count,))
    return [row[0] for row in cur.fetchall()]


def _stdout(rng: random.Random, c: int, rate: float, duration: float, metrics: dict) -> str:
    lines = "".join(f"[Status] interval {s}: {metrics['achieved_rate'] * rng.uniform(0.98, 1.02):.1f} qps\n" for s in range(min(int(duration), 12)))
    return STDOUT.format(h=c % 250, c=c, q=int(rate), d=int(duration), intervals=lines, sent=metrics["sent"], done=metrics["completed"],
                         pct=100.0 - metrics["loss_pct"], lost=metrics["lost"], lpct=metrics["loss_pct"], qps=metrics["achieved_rate"],
                         lat=metrics["latency_avg_ms"] / 1000, sd=metrics["latency_stddev_ms"] / 1000)  # fmt: skip


def seed(engine: Engine, templates: list[Template], count: int, *, samples_per_point: int, stability_samples: int,
         long_series: int = 0, rng: random.Random | None = None, start: datetime | None = None, weights: list[float] | None = None) -> dict:
    """Insert `count` finished campaigns (with points, samples and tags), each of a template drawn with `weights`
    (default: alike); the first `long_series` of them get a stability point with exactly 5,000 samples. Returns ids worth measuring."""
    rng = rng or random.Random(7)
    start = start or datetime(2025, 1, 1, tzinfo=timezone.utc)
    raw = engine.raw_connection()
    picked: dict = {"long_points": [], "campaigns": [], "by_plan": {}}
    try:
        cur = raw.cursor()
        campaign_ids = _ids(cur, "campaigns_id_seq", count)
        campaign_rows, tag_rows, point_rows, sample_rows = [], [], [], []
        for n, cid in enumerate(campaign_ids):
            template = rng.choices(templates, weights)[0] if weights else rng.choice(templates)
            created = start + timedelta(minutes=90 * n + rng.randint(0, 60))
            status = rng.choices([s for s, _ in STATUSES], [w for _, w in STATUSES])[0]
            imported = rng.random() < 0.08
            tags = {"nightly"} if rng.random() < 0.4 else set()
            tags |= {f"release-{rng.randint(1, 20)}.{rng.randint(0, 3)}"} if rng.random() < 0.2 else set()
            tags |= {"pinned"} if rng.random() < 0.02 else set()
            tags |= {"imported"} if imported else {f"team-{rng.choice('abc')}"}
            point_ids = _ids(cur, "points_id_seq", len(template.phases))
            points = []
            cut = len(template.phases) if status == "completed" else rng.randint(1, len(template.phases) - 1)
            for seq, ((kind, c, rate, duration), pid) in enumerate(zip(template.phases, point_ids)):
                metrics = _metrics(rng, template, rate, c)
                pstatus = "completed" if seq < cut else ("failed" if status == "failed" and seq == cut else "cancelled")
                if pstatus != "completed":
                    metrics = {}
                began = created + timedelta(seconds=15 * seq)
                points.append(SimpleNamespace(status=pstatus, phase=kind, concurrency=c, offered_rate=rate, repeat=0, variant=None, metrics=metrics))
                stdout = _stdout(rng, c, rate, duration, _metrics(rng, template, rate, c)) if pstatus != "cancelled" else ""
                point_rows.append((pid, cid, seq, None, 0, kind, c, rate, duration, 0, 1, pstatus, None if pstatus != "failed" else "exit 1",
                                   "[]", json.dumps(metrics), "{}", json.dumps(["dnsperf", "-c", str(c)]), "2.11.2" if stdout else None,
                                   0 if stdout else None, stdout, "", "1", "local", began, began + timedelta(seconds=duration)))  # fmt: skip
                if pstatus != "completed":
                    continue
                many = 5000 if kind == "stability" and n < long_series else stability_samples if kind == "stability" else samples_per_point
                if many == 5000:
                    picked["long_points"].append(pid)
                base = metrics["achieved_rate"]
                sample_rows += [(pid, "point", float(t), json.dumps({"achieved_rate": base * rng.uniform(0.95, 1.05), "latency_avg_ms": metrics["latency_avg_ms"],
                                 "lost": 0.0})) for t in range(many)]  # fmt: skip
            tally = counts(points)
            campaign_rows.append((cid, f"{template.name} #{n}", template.tool, template.plan_id if not imported else None, template.target_id,
                                  json.dumps(template.body), json.dumps({"id": template.target_id, "name": template.name, "host": "10.0.0.1"}),
                                  status, status != "completed", None if status == "completed" else f"{status} at point {cut}",
                                  json.dumps(sorted(tags)), "local", f"import: seed{n:04d}.csv (seed CSV)" if imported else "live",
                                  "{}", json.dumps(template.analysis), created, created, created + timedelta(minutes=75), 1, False,
                                  tally["total"], tally["done"], tally["failed"], tally["cancelled"], json.dumps(summary(points))))  # fmt: skip
            tag_rows += [(cid, tag) for tag in sorted(tags)]
            picked["by_plan"].setdefault(template.plan_id, []).append(cid)
        _copy(cur, "campaigns", "id, name, tool, plan_id, target_id, plan, target, status, partial, error, tags, agent, source, environment, "
                                "analysis, created_at, started_at, ended_at, attempt, archived, points_total, points_done, points_failed, "
                                "points_cancelled, summary", campaign_rows)  # fmt: skip
        _copy(cur, "campaign_tags", "campaign_id, tag", tag_rows)
        _copy(cur, "points", "id, campaign_id, seq, variant, phase_index, phase, concurrency, offered_rate, duration_s, repeat, attempt, status, "
                             "error, warnings, metrics, extra, argv, tool_version, exit_code, stdout, stderr, parser_version, agent, "
                             "started_at, ended_at", point_rows)  # fmt: skip
        _copy(cur, "samples", "point_id, series, t, values", sample_rows)
        raw.commit()
        raw.driver_connection.autocommit = True
        raw.driver_connection.execute("VACUUM ANALYZE")  # what autovacuum does soon after a bulk load: statistics, visibility map, GIN lists
        raw.driver_connection.autocommit = False
    finally:
        raw.close()
    picked["campaigns"] = campaign_ids
    picked["samples"] = len(sample_rows)
    picked["points"] = len(point_rows)
    return picked


def _copy(cur, table: str, columns: str, rows: list[tuple]) -> None:
    with cur.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)
