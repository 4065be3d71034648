"""`make bench-history`: the campaign history at 1,000 and 10,000 campaigns in a private Postgres,
measured through the real API. Prints a table and writes docs/performance/history.md.

    .venv/bin/python tests/bench/history.py [--light] [--sizes 1000,10000] [--requests 40]

By default ~500 samples per campaign (5 million at 10,000 campaigns; about 2 minutes in all on 2 cores);
--light seeds ~110 per campaign (1 million) for a quicker run.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "backend"), str(ROOT)]

from sqlalchemy import create_engine, text  # noqa: E402

from tests.bench.seed import make_templates, seed  # noqa: E402
from tests.support import services  # noqa: E402

DOC = ROOT / "docs" / "performance" / "history.md"
CHUNK = 1000
FIRST = datetime(2025, 1, 1, tzinfo=timezone.utc)
LONG_SERIES = 5  # campaigns whose stability point has 5,000 samples (the series, report and compare subjects)
GOALS = {"report": 300, "compare 5 campaigns": 500, "series of 5,000 samples": 100, "trend: the plan of 10 % of the history": 100}
PLANS = 12
TREND_SHARE = 0.1  # one more plan gets this share of all campaigns: 1,000 of 10,000 (the trend subject)
SAMPLING = {True: {"samples_per_point": 2, "stability_samples": 60}, False: {"samples_per_point": 14, "stability_samples": 215}}  # by --light


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def timed(client: httpx.Client, path: str, requests: int) -> tuple[float, float]:
    """p50 and p95 in ms of `requests` GETs of `path`, after a few unmeasured ones."""
    for _ in range(3):
        client.get(path).raise_for_status()
    times = []
    for _ in range(requests):
        began = time.perf_counter()
        response = client.get(path)
        times.append((time.perf_counter() - began) * 1000)
        response.raise_for_status()
    return statistics.median(times), percentile(times, 95)


def scenarios(engine, picked: dict, size: int) -> list[tuple[str, str]]:
    """What is measured, as (label, path)."""
    with engine.connect() as conn:
        target = conn.execute(text("SELECT target_id FROM campaigns GROUP BY target_id ORDER BY count(*) DESC LIMIT 1")).scalar()
        deep = conn.execute(text("SELECT id FROM campaigns WHERE NOT archived ORDER BY id DESC OFFSET :k LIMIT 1"), {"k": int(size * 0.9) - 1}).scalar()
    long_campaigns = picked["long_campaigns"]
    report = long_campaigns[0]
    plan_mates = next(ids for ids in picked["by_plan"].values() if report in ids)
    five = [report, *[c for c in plan_mates if c != report][:4]]
    base = "/api/v1/campaigns"
    return [
        ("list: first page", f"{base}?limit=20"),
        ("filter: tag (40 %)", f"{base}?tag=nightly"),
        ("filter: tag (2 %)", f"{base}?tag=pinned"),
        ("filter: text (8 %)", f"{base}?q=resolver"),
        ("filter: text (rare)", f"{base}?q=seed0042"),
        ("filter: target", f"{base}?target_id={target}"),
        ("filter: status", f"{base}?status=failed"),
        ("filter: tool", f"{base}?tool=wrk"),
        ("deep page: offset 90 %", f"{base}?offset={int(size * 0.9)}"),
        ("deep page: cursor 90 %", f"{base}?cursor=i{deep}"),
        ("report", f"{base}/{report}"),
        ("compare 5 campaigns", "/api/v1/compare?" + "&".join(f"c={c}" for c in five)),
        ("series of 5,000 samples", f"/api/v1/points/{picked['long_points'][0]}/samples"),
        ("trend: the plan of 10 % of the history", f"/api/v1/trends?plan_id={picked['trend_plan']}"),
    ]


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident set (VmHWM) in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure(env: dict, tmp: Path, engine, picked: dict, size: int, requests: int) -> dict:
    """Start a fresh API, time every scenario, read its peak RSS, stop it."""
    proc, url = services.start_api(env, tmp / f"api-{size}")
    try:
        with httpx.Client(base_url=url, timeout=60, headers={"Authorization": f"Bearer {env['KB_ADMIN_TOKEN']}"}) as client:
            results = {label: timed(client, path, requests) for label, path in scenarios(engine, picked, size)}
        results["API peak RSS (MB)"] = peak_rss_mb(proc.pid)
    finally:
        services.stop(proc)
    return results


def table(results: dict[int, dict], sizes: list[int]) -> str:
    """The results as a Markdown table: p50/p95 per size, the growth of p95, the goal."""
    head = "| measure | " + " | ".join(f"{s:,} p50 / p95 (ms)" for s in sizes) + " | p95 growth | goal |"
    lines = [head, "|" + " --- |" * (len(sizes) + 3)]
    for label in results[sizes[0]]:
        if label.startswith("API"):
            cells = [f"{results[s][label]:.0f} MB" for s in sizes]
            lines.append(f"| {label} | " + " | ".join(cells) + " | | ≤ 300 MB |")
            continue
        cells = [f"{results[s][label][0]:.1f} / {results[s][label][1]:.1f}" for s in sizes]
        growth = f"{results[sizes[-1]][label][1] / results[sizes[0]][label][1]:.2f}×" if len(sizes) > 1 else ""
        goal = f"< {GOALS[label]} ms" if label in GOALS else "< 100 ms, ≤ 1.5× growth"
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {growth} | {goal} |")
    return "\n".join(lines)


def write_doc(body: str, shapes: dict[int, dict], light: bool, elapsed_s: float) -> None:
    """docs/performance/history.md: how it was measured and the table."""
    shape = "; ".join(f"{s:,} campaigns: {v['points']:,} points, {v['samples']:,} samples (seeded in {v['seed_s']:.0f} s)" for s, v in shapes.items())
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(f"""# Campaign history at scale

Written by `make bench-history` (tests/bench/history.py) on {platform.node()} ({os.cpu_count()} cores, Python {platform.python_version()});
the whole run took {elapsed_s / 60:.1f} min; load average at the end {os.getloadavg()[0]:.1f} (other work on the
machine shows as noise in the p95s). Each figure is client-side wall time over loopback, {ARGS.requests} requests after 3 warm-ups,
against a fresh API process (uvicorn, one worker) and a private Postgres (fsync off).

Data ({'`--light`: ~110 samples per campaign' if light else 'default: ~500 samples per campaign; `--light` seeds ~110 for a quicker run'}): {shape}.
Shapes: 13 stored plans over 4 tools (dnsperf, wrk, iperf3, devsim) launched again and again (one of them, the trend subject, for
10 % of all campaigns: about 1,000 at 10,000), 20–35 points per campaign
(baseline, scalability, saturation, a long stability point), dnsperf-like stdout on every measured point, per-second samples,
tags (nightly 40 %, release-x.y 20 %, pinned 2 %, a team or `imported`), 8 % imported campaigns, 15 % failed, cancelled or
crashed. {LONG_SERIES} campaigns carry a stability point of exactly 5,000 samples (the series, report and compare subjects).
Stored counts and summaries come from `campaigns/progress.py`, the analysis is computed once per plan.
Seeding uses COPY into the real tables (the ORM would take minutes at this size), then `VACUUM ANALYZE`, as
autovacuum would soon after such a load (statistics, visibility map, GIN pending lists).

{body}

How the list stays flat: filters are SQL (tags through the indexed `campaign_tags` table, text through `pg_trgm`
GIN indexes on `lower(name)` and `lower(source)`), a page loads only the list's columns (never a point, never stdout),
progress and summary are stored on the campaign when points settle (only active campaigns count their points, for the
ETA), and `cursor` pages by keyset (`id < cursor`). What still grows with history is `total` (a `count(*)` over the
matching rows, index-only through the partial index `ix_campaigns_shown` and `campaign_tags`) and `offset` itself;
the cursor avoids the second. A series is read as (series, t, values-as-text) tuples parsed in one `json.loads` and
downsampled with numpy; the API freezes its import-time heap (`gc.freeze()`) so gen-2 collections stay out of requests.
""")


def main() -> None:
    """Start Postgres and Redis, seed size after size, measure each through a fresh API, write the doc."""
    began = time.monotonic()
    sizes = [int(s) for s in ARGS.sizes.split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-history-"))
    tmp.chmod(0o755)
    started = []
    try:
        pg, database_url = services.start_postgres(tmp / "pg")
        started.append(pg)
        redis, redis_url = services.start_redis(tmp)
        started.append(redis)
        env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": redis_url, "AGENT_NAME": "bench", "WORKDIR": str(tmp / "work"),
               "KB_ADMIN_TOKEN": secrets.token_urlsafe(32), "PYTHONPATH": str(ROOT / "backend")}  # fmt: skip
        services.migrate(env)
        engine = create_engine(database_url)
        rng = random.Random(7)
        templates = make_templates(engine, rng, plans=PLANS + 1)
        weights = [1.0] * PLANS + [PLANS * TREND_SHARE / (1 - TREND_SHARE)]
        picked = {"long_campaigns": [], "long_points": [], "by_plan": {}, "points": 0, "samples": 0, "trend_plan": templates[-1].plan_id}
        results, shapes, seeded, seed_s = {}, {}, 0, 0.0
        for size in sizes:
            t0 = time.monotonic()
            while seeded < size:
                count = min(CHUNK, size - seeded)
                got = seed(engine, templates, count, rng=rng, long_series=LONG_SERIES if seeded == 0 else 0, **SAMPLING[ARGS.light],
                           start=FIRST + timedelta(minutes=90 * seeded), weights=weights)  # fmt: skip
                if seeded == 0:
                    picked["long_campaigns"] = got["campaigns"][:LONG_SERIES]
                    picked["long_points"] = got["long_points"]
                for plan, ids in got["by_plan"].items():
                    picked["by_plan"].setdefault(plan, []).extend(ids)
                picked["points"] += got["points"]
                picked["samples"] += got["samples"]
                seeded += count
                print(f"  seeded {seeded:,} campaigns, {picked['samples']:,} samples ({time.monotonic() - t0:.0f} s)", flush=True)
            seed_s += time.monotonic() - t0
            shapes[size] = {"points": picked["points"], "samples": picked["samples"], "seed_s": seed_s}
            results[size] = measure(env, tmp, engine, picked, size, ARGS.requests)
            print(f"measured {size:,} campaigns", flush=True)
        body = table(results, sizes)
        print(body)
        write_doc(body, shapes, ARGS.light, time.monotonic() - began)
        print(f"wrote {DOC.relative_to(ROOT)} in {(time.monotonic() - began) / 60:.1f} min")
    finally:
        for proc in reversed(started):
            services.stop(proc)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--light", action="store_true", help="~110 samples per campaign (1 million at 10,000) instead of ~500 (5 million)")
    parser.add_argument("--sizes", default="1000,10000", help="campaign counts to measure at, ascending")
    parser.add_argument("--requests", type=int, default=40, help="timed requests per measure")
    ARGS = parser.parse_args()
    main()
