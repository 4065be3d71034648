"""What a CPU profile costs a capacity search (issue 38): the same dnsperf search against the lab's CoreDNS, RUNS times
with `cpu_profile: {process: coredns, frequency_hz: 99}` and RUNS times without, alternating which goes first; prints
the capacity each run found, each side's spread (max − min) and the difference of the medians (goal: under 3 % and
within the spread), the profiles' samples and fold time, and writes docs/performance/cpu-profile-overhead.md.

The real stack (Redis, a Celery worker, the API; SQLite) is started and ended here by PID (exporter_overhead.Stack);
the lab is brought up when it is down (root), under the lab lock the tests take. Every trial is TRIAL_S long, so each
one is profiled over TRIAL_S − 2 s (1 s warm-up, 1 s before the load ends).

    make bench-profiling        (root, perf; RUNS=3 TRIAL_S=6 by default, about 8 minutes)
"""

from __future__ import annotations

import os
import shutil
import statistics
import sys
import tempfile
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "backend"), str(ROOT)]

from kneeboard.lab import coredns, namespace  # noqa: E402
from tests.bench.exporter_overhead import PARAMS, SEARCH, Stack, campaign  # noqa: E402
from tests.bench.ab import alternate  # noqa: E402
from tests.bench.lab_session import held_lab  # noqa: E402

RUNS, TRIAL_S = int(os.environ.get("RUNS", "3")), float(os.environ.get("TRIAL_S", "6"))
GOAL_PCT = 3.0
PROFILE = {"process": "coredns", "frequency_hz": 99}
SIDES = {"with": "CPU profile at 99 Hz", "without": "no CPU profile"}
DOC = ROOT / "docs" / "performance" / "cpu-profile-overhead.md"


def plan(api, target_id: int, side: str) -> int:
    """The search plan of one side: the same search, with the CPU profile or without."""
    body = {"name": f"search, {SIDES[side]}", "tool": "dnsperf", "target_id": target_id, "pause_s": 0, "params": PARAMS,
            "phases": [{**SEARCH, "duration_s": TRIAL_S, "min_duration_s": TRIAL_S}],
            **({"cpu_profile": PROFILE} if side == "with" else {})}  # fmt: skip
    return api.post("/api/v1/plans", json=body).raise_for_status().json()["id"]


def target(api) -> int:
    """The lab's CoreDNS as a target (address, port and notes from the lab's own list)."""
    lab = next(t for t in namespace.targets() if t["name"] == coredns.SERVICE)
    existing = [t for t in api.get("/api/v1/targets").json() if t["name"] == lab["name"]]
    return existing[0]["id"] if existing else api.post("/api/v1/targets", json=lab).raise_for_status().json()["id"]


def profiled(api, campaign_id: int) -> dict:
    """The campaign's points' CPU profiles: how many points have one, their samples, fold times and warnings."""
    points = api.get(f"/api/v1/campaigns/{campaign_id}/points").json()
    kept = [p["extra"]["cpu_profile"] for p in points if (p.get("extra") or {}).get("cpu_profile")]
    return {"points": len(points), "profiled": len(kept), "samples": [k["samples"] for k in kept],
            "fold_s": [k["fold_s"] for k in kept], "cpu_pct": [100 * k["samples"] / k["frequency_hz"] / k["window_s"] for k in kept if k["window_s"]],
            "warnings": [w for p in points for w in p.get("warnings") or [] if w.startswith("CPU profile")]}  # fmt: skip


def report(runs: dict[str, list[dict]], order: list[str], load: list[float]) -> str:
    """The figures as markdown (printed, and written to DOC)."""
    side = {}
    for name, done in runs.items():
        capacities = [r["capacity"] for r in done]
        side[name] = {"capacities": capacities, "median": statistics.median(capacities), "spread": max(capacities) - min(capacities),
                      "per_point": statistics.mean(r["campaign_wall"] / r["trials"] for r in done)}  # fmt: skip
    with_, without = side["with"], side["without"]
    difference = with_["median"] - without["median"]
    pct, spread = 100 * difference / without["median"], max(with_["spread"], without["spread"])
    met = abs(pct) < GOAL_PCT and abs(difference) <= spread
    profiles = [r["profile"] for r in runs["with"]]
    folds = [s for p in profiles for s in p["fold_s"]]
    samples = [s for p in profiles for s in p["samples"]]
    warnings = sorted({w for p in profiles for w in p["warnings"]})
    rows = [f"| {SIDES[name]} | {', '.join(f'{c:,.0f}' for c in s['capacities'])} | {s['median']:,.0f} | {s['spread']:,.0f} "
            f"({100 * s['spread'] / s['median']:.1f} %) | {s['per_point']:.2f} |" for name, s in side.items()]  # fmt: skip
    return "\n".join([
        "# What a CPU profile costs a capacity search", "",
        f"`make bench-profiling` on {os.cpu_count()} CPUs, {datetime.now():%Y-%m-%d %H:%M}: a dnsperf capacity search against the lab's",
        f"CoreDNS {coredns.VERSION} (`minimal`, {namespace.LAB_ADDR}:{coredns.PORT}), {RUNS} campaigns with a CPU profile of `coredns`",
        f"(perf record -e cpu-clock -F 99 -a -g over each trial's steady window, folded after it at nice 19) and {RUNS} without,",
        f"in the order {', '.join(order)}. The search: {SEARCH['low']:,}–{SEARCH['high']:,} q/s, answered ≥ "
        f"{SEARCH['criteria'][0]['limit']} % of offered, resolution {SEARCH['resolution_pct']} %, trials of {TRIAL_S:g} s, dnsperf -c {SEARCH['concurrency']}.",
        "Kneeboard, dnsperf, CoreDNS and perf share the machine's CPUs; load average (1 min) "
        f"{load[0]:.2f} at the start and {load[-1]:.2f} at the end.", "",
        "| side | capacity found each run, q/s | median | spread (max − min) | campaign wall ÷ points, s |",
        "|---|---|---|---|---|", *rows, "",
        f"Capacity, difference of the medians (with − without): **{difference:+,.0f} q/s ({pct:+.2f} %)**, the larger spread",
        f"{spread:,.0f} q/s; goal under {GOAL_PCT:g} % and within the spread: **{'met' if met else 'not met'}**.",
        f"Profiles: {sum(p['profiled'] for p in profiles)} of {sum(p['points'] for p in profiles)} trials profiled, "
        + (f"{statistics.median(samples):,.0f} CoreDNS samples per trial (median), folding took {statistics.median(folds):.2f} s "
           f"(median, max {max(folds):.2f} s) after each trial." if folds else "none folded.")
        + (" Warnings: " + "; ".join(warnings) if warnings else ""), "",
    ])  # fmt: skip


def main() -> int:
    """Bring up what is needed, run the campaigns alternately, print and write the figures."""
    if coredns.binary() is None:
        raise SystemExit(coredns.missing_reason())
    if shutil.which("perf") is None:
        raise SystemExit("perf is not installed (Debian: linux-perf)")
    tmp = Path(tempfile.mkdtemp(prefix="kb-bench-profiling-"))
    tmp.chmod(0o755)
    load, kb = [os.getloadavg()[0]], None
    try:
        with held_lab():
            kb = Stack(tmp)
            target_id = target(kb.api)
            plans = {side: plan(kb.api, target_id, side) for side in SIDES}

            def one(plan_id: int) -> dict:
                done = campaign(kb.api, plan_id)
                return {**done, "profile": profiled(kb.api, done["id"])}

            runs, order = alternate(plans, RUNS, one, lambda i, side, done: (
                f"run {i + 1} {side:>7}: capacity {done['capacity']:,.0f} q/s ({done['kind']}), {done['trials']} trials, "
                f"{done['profile']['profiled']} profiled, campaign {done['campaign_wall']:.1f} s"))  # fmt: skip
            load.append(os.getloadavg()[0])
    finally:
        if kb is not None:
            kb.close()
        shutil.rmtree(tmp, ignore_errors=True)
    text = report(runs, order, load)
    print(text)
    DOC.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
