"""What scraping three exporters costs a capacity search (issue 35): the same search against the lab's CoreDNS, RUNS
times with the three exporters scraped and RUNS times without, alternating which goes first; prints the wall time per
point both ways (from the points' stored timestamps), the capacity each run found, each side's spread (max − min) and
the difference of the medians, and writes docs/performance/exporter-overhead.md.

Everything runs through the real stack, as `kneeboard up` starts it (Redis, a Celery worker, the API; SQLite), all
started here and ended here by PID; the lab is brought up when it is down (root), under the lab lock the tests take.
The target is the lab's CoreDNS registered with three exporters: CoreDNS's :9153 read by the packs coredns and
process, the same :9153 again as a second exporter read by the pack go, and the lab's node_exporter (pack node); the
"with" plan has an exporter monitor for each.

    make bench-exporters        (root; RUNS=3 TRIAL_S=4 by default, about 8 minutes)
"""

from __future__ import annotations

import os
import secrets
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "backend"), str(ROOT)]

from kneeboard.lab import coredns, namespace  # noqa: E402
from kneeboard.runs.monitors import MonitorSet, scraped_by  # noqa: E402
from tests.bench.ab import alternate  # noqa: E402
from tests.bench.lab_session import held_lab  # noqa: E402
from tests.support import services  # noqa: E402

RUNS, TRIAL_S = int(os.environ.get("RUNS", "3")), float(os.environ.get("TRIAL_S", "4"))
OVERHEAD_GOAL_S, CAPACITY_GOAL_PCT = 0.25, 2.0
EXPORTERS = [
    {"name": "coredns", "url": namespace.COREDNS_METRICS_URL, "packs": ["coredns", "process"]},
    {"name": "go", "url": namespace.COREDNS_METRICS_URL, "packs": ["go"]},
    {"name": "node", "url": namespace.METRICS_URL, "packs": ["node"]},
]
SEARCH = {"kind": "search", "concurrency": 20, "low": 20_000, "high": 100_000, "resolution_pct": 2, "duration_s": TRIAL_S,
          "min_duration_s": 2, "criteria": [{"metric": "efficiency_pct", "limit": 95}]}  # 2 s: two scrapes, a rate, per trial
PARAMS = {"names": ["www.example.lab", "h0001.example.lab"], "qtype": "A", "timeout_s": 1, "latency_capture": False}
TICK = os.sysconf("SC_CLK_TCK")
SIDES = {"with": "3 exporters scraped", "without": "no exporter"}
DOC = ROOT / "docs" / "performance" / "exporter-overhead.md"


class Stack:
    """A throwaway Kneeboard (SQLite, Redis, one worker, the API) started by this process; an admin client on it."""

    def __init__(self, tmp: Path) -> None:
        self.started, token = [], secrets.token_urlsafe(24)
        redis, redis_url = services.start_redis(tmp, password=secrets.token_urlsafe(16))
        self.started.append(redis)
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp / 'kb.db'}", "REDIS_URL": redis_url, "AGENT_NAME": "local",
               "WORKDIR": str(tmp / "work"), "KB_ADMIN_TOKEN": token,
               "PYTHONPATH": os.pathsep.join([str(ROOT / "backend"), os.environ.get("PYTHONPATH", "")])}  # fmt: skip
        services.migrate(env)
        self.started.append(services.start_worker(env, tmp))
        api, url = services.start_api(env, tmp)
        self.started.append(api)
        self.api = httpx.Client(base_url=url, timeout=30, headers={"Authorization": f"Bearer {token}"})
        services.wait_for_agent(self.api, "local")

    def close(self) -> None:
        """End everything started here, by PID."""
        self.api.close()
        services.stop_all(self.started)


def register_target(api: httpx.Client) -> int:
    """The lab's CoreDNS as a target with the three exporters (its address, port and notes from the lab's own list)."""
    lab = next(t for t in namespace.targets() if t["name"] == coredns.SERVICE)
    body = {**lab, "name": "lab-coredns-3-exporters", "exporters": EXPORTERS}
    return api.post("/api/v1/targets", json=body).raise_for_status().json()["id"]


def plan(api: httpx.Client, target_id: int, side: str) -> int:
    """The search plan of one side: the same search, with an exporter monitor per exporter or none."""
    monitors = [{"kind": "exporter", "exporter": e["name"]} for e in EXPORTERS] if side == "with" else []
    body = {"name": f"search, {SIDES[side]}", "tool": "dnsperf", "target_id": target_id, "pause_s": 0, "params": PARAMS,
            "phases": [SEARCH], "monitors": monitors}  # fmt: skip
    return api.post("/api/v1/plans", json=body).raise_for_status().json()["id"]


def stamp(text: str) -> float:
    """An API timestamp as seconds since the epoch."""
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def cpu_seconds(pid: int) -> float:
    """A process's user + system CPU-seconds so far (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def lab_pid(service: str) -> int:
    """The PID of one of the lab's services."""
    return next(s["pid"] for s in namespace.status(probe=False).services if s["name"] == service)


def monitor_cost(tmp: Path, point_s: float = 2.0, times: int = 3) -> dict:
    """The worker's own MonitorSet with the three exporter monitors beside an idle `point_s` point, `times` times: the
    median seconds to start them and to stop and read them (what a point's wall time gains), and samples kept."""
    monitors = [{"kind": "exporter", "exporter": e["name"]} for e in EXPORTERS]
    starts, stops, samples = [], [], []
    for _ in range(times):
        began = time.monotonic()
        watchers = MonitorSet(monitors, point_s, tmp, scraped_by({"exporters": EXPORTERS}))
        starts.append(time.monotonic() - began)
        time.sleep(point_s)
        ended = time.monotonic()
        samples.append(len(watchers.stop()))
        stops.append(time.monotonic() - ended)
    return {"start": statistics.median(starts), "stop": statistics.median(stops), "samples": samples, "point_s": point_s}


def campaign(api: httpx.Client, plan_id: int) -> dict:
    """Run one campaign of the plan to its end: its capacity found, its trials, and their wall times."""
    exporter_pid = lab_pid(namespace.METRICS_SERVICE)
    exporter_cpu = cpu_seconds(exporter_pid)
    campaign_id = api.post("/api/v1/campaigns", json={"plan_id": plan_id}).raise_for_status().json()["id"]
    deadline = time.monotonic() + 600
    while (found := api.get(f"/api/v1/campaigns/{campaign_id}").json())["status"] not in {"completed", "failed", "crashed", "cancelled"}:
        if time.monotonic() > deadline:
            raise RuntimeError(f"campaign {campaign_id} still {found['status']} after 600 s")
        time.sleep(1)
    exporter_cpu = cpu_seconds(exporter_pid) - exporter_cpu
    points = api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    if found["status"] != "completed":
        raise RuntimeError(f"campaign {campaign_id} {found['status']}: {found.get('error')} {[p['error'] for p in points]}")
    (search,) = found["analysis"]["search"]
    (criterion,) = search["criteria"]
    monitors = sorted({m for p in points for m in (p.get("extra") or {}).get("monitors", {})}) if points else []
    return {"id": campaign_id, "capacity": criterion["value"], "kind": criterion["kind"], "trials": len(points),
            "trial_s": sum(p["duration_s"] for p in points), "wall": [stamp(p["ended_at"]) - stamp(p["started_at"]) for p in points],
            "excess": [stamp(p["ended_at"]) - stamp(p["started_at"]) - p["duration_s"] for p in points],
            "campaign_wall": stamp(found["ended_at"]) - stamp(found["started_at"]), "monitors": monitors, "exporter_cpu": exporter_cpu,
            "warnings": [w for p in points for w in p.get("warnings") or [] if w.startswith("monitor ")]}  # fmt: skip


def figures(runs: dict[str, list[dict]]) -> dict:
    """Per side: the mean wall time per point beyond its trial's length, capacities, their median and spread; the differences."""
    side = {}
    for name, done in runs.items():
        capacities = [r["capacity"] for r in done]
        excess = [x for r in done for x in r["excess"]]
        side[name] = {"excess": statistics.mean(excess), "excess_median": statistics.median(excess), "points": len(excess),
                      "per_point": statistics.mean(r["campaign_wall"] / r["trials"] for r in done),
                      "exporter_cpu": statistics.mean(r["exporter_cpu"] for r in done),
                      "capacities": capacities, "median": statistics.median(capacities), "spread": max(capacities) - min(capacities)}  # fmt: skip
    with_, without = side["with"], side["without"]
    difference = with_["median"] - without["median"]
    return {"side": side, "overhead": with_["excess"] - without["excess"], "overhead_median": with_["excess_median"] - without["excess_median"],
            "overhead_campaign": with_["per_point"] - without["per_point"], "difference": difference,
            "difference_pct": 100 * difference / without["median"], "spread": max(with_["spread"], without["spread"])}  # fmt: skip


def report(runs: dict[str, list[dict]], order: list[str], load: list[float], cost: dict) -> str:
    """The figures as markdown (printed, and written to docs/performance/exporter-overhead.md)."""
    f = figures(runs)
    with_, without = f["side"]["with"], f["side"]["without"]
    met_overhead = f["overhead"] <= OVERHEAD_GOAL_S
    met_capacity = abs(f["difference"]) <= f["spread"] and abs(f["difference_pct"]) < CAPACITY_GOAL_PCT
    rows = [f"| {SIDES[name]} | {', '.join(f'{c:,.0f}' for c in s['capacities'])} | {s['median']:,.0f} | {s['spread']:,.0f} "
            f"({100 * s['spread'] / s['median']:.1f} %) | {s['points']} | {s['excess']:.3f} | {s['excess_median']:.3f} | {s['per_point']:.2f} |"
            for name, s in f["side"].items()]  # fmt: skip
    warnings = Counter(f"{side}: {w}" for side, done in runs.items() for r in done for w in r["warnings"])
    return "\n".join([
        "# What scraping three exporters costs a capacity search", "",
        f"`make bench-exporters` on {os.cpu_count()} CPUs, {datetime.now():%Y-%m-%d %H:%M}: a dnsperf capacity search against the",
        f"lab's CoreDNS {coredns.VERSION} (`minimal`, {namespace.LAB_ADDR}:{coredns.PORT}), {RUNS} campaigns with three exporters scraped",
        f"every second during each point and {RUNS} without, in the order {', '.join(order)} (alternating which side goes first).",
        "The exporters: CoreDNS's :9153 (packs coredns, process), the same :9153 as a second exporter (pack go) and the lab's",
        "node_exporter (pack node); the plan names each in an `exporter` monitor. The search: "
        f"{SEARCH['low']:,}–{SEARCH['high']:,} q/s, answered ≥ {SEARCH['criteria'][0]['limit']} % of offered, resolution {SEARCH['resolution_pct']} %, "
        f"trials {SEARCH['min_duration_s']:g}–{TRIAL_S:g} s, dnsperf -c {SEARCH['concurrency']} -t {PARAMS['timeout_s']:g}.",
        "Kneeboard (API, worker, Redis, SQLite), dnsperf, CoreDNS and the exporters share the machine's CPUs; load average",
        f"(1 min) {load[0]:.2f} at the start and {load[-1]:.2f} at the end (other work on the machine moves both sides alike).", "",
        "| side | capacity found each run, q/s | median | spread (max − min) | points | wall − trial length per point, mean s | median s | campaign wall ÷ points, s |",
        "|---|---|---|---|---|---|---|---|", *rows, "",
        "Per-point overhead (mean wall time of a point beyond its trial's length, with − without, from the points' stored",
        f"`started_at`/`ended_at`): **{f['overhead']:+.3f} s** (medians {f['overhead_median']:+.3f} s; campaign wall time per point",
        f"{f['overhead_campaign']:+.3f} s); goal ≤ {OVERHEAD_GOAL_S} s: **{'met' if met_overhead else 'not met'}**.",
        f"Capacity, difference of the medians (with − without): **{f['difference']:+,.0f} q/s ({f['difference_pct']:+.2f} %)**, the larger",
        f"spread {f['spread']:,.0f} q/s; goal within the spread and under {CAPACITY_GOAL_PCT:g} %: **{'met' if met_capacity else 'not met'}**.",
        "", "Where the time goes: the worker's own `MonitorSet` (kneeboard/runs/monitors.py) with the three exporter monitors",
        f"beside an idle {cost['point_s']:g} s point, run here {len(cost['samples'])} times: starting them took {cost['start']:.3f} s (median),",
        f"stopping and reading them **{cost['stop']:.3f} s** (the point's end waits for it: the runner polls its cancel every 0.1 s,",
        f"then SIGINT and the scraper's exit), samples kept {cost['samples']}. A point's exporters share one scraper process",
        "(`python -m kneeboard.tools.exporter.scrape --each …`): one interpreter's start per point (~0.18 CPU-s here), not one per exporter. The lab's",
        f"node_exporter used {with_['exporter_cpu']:.2f} CPU-s per campaign with the exporters scraped and {without['exporter_cpu']:.2f} without.",
        "", "The monitors' warnings on the points (× how many points): "
        + ("; ".join(f"{w} (× {n})" for w, n in sorted(warnings.items())) if warnings else "none."),
        "Monitors stored on the points with exporters: " + ", ".join(runs["with"][0]["monitors"]) + ".", "",
    ])  # fmt: skip


def main() -> int:
    """Bring up what is needed, run the campaigns alternately, print and write the figures."""
    if coredns.binary() is None:
        raise SystemExit(coredns.missing_reason())
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-exporters-"))
    tmp.chmod(0o755)
    load, kb = [os.getloadavg()[0]], None
    try:
        with held_lab():
            kb = Stack(tmp)
            target_id = register_target(kb.api)
            plans = {side: plan(kb.api, target_id, side) for side in SIDES}
            runs, order = alternate(plans, RUNS, lambda plan_id: campaign(kb.api, plan_id), lambda i, side, done: (
                f"run {i + 1} {side:>7}: capacity {done['capacity']:,.0f} q/s ({done['kind']}), {done['trials']} trials, "
                f"{done['trial_s']:g} trial-s, mean wall − trial {statistics.mean(done['excess']):.3f} s, "
                f"campaign {done['campaign_wall']:.1f} s"))  # fmt: skip
            cost = monitor_cost(tmp)
            load.append(os.getloadavg()[0])
    finally:
        if kb is not None:
            kb.close()
        shutil.rmtree(tmp, ignore_errors=True)
    text = report(runs, order, load, cost)
    print(text)
    DOC.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
