"""Whole campaigns generated from queueing models, with the truth known by construction (issue 47).

A generated server is an M/M/c/K queue: c workers each serving requests in an exponential time of mean S (so its
capacity is C = c / S), room for K requests in all (c in service, K − c waiting; a request that finds it full is lost),
behind a fixed network round trip. Past its capacity a server may also *fall*: each request costs more as the overload
grows (receive livelock), so the throughput falls past the peak. A small queue makes a *throughput-bound* server
(it loses requests before its latency rises much), a large one a *latency-bound* one (the queue builds, latency climbs
long before anything is lost).

Each campaign has an open-loop saturation sweep (coarse or fine, linear or irregular steps, stopping below the
server's capacity or going past it), 1–5 repetitions, noise of a coefficient of variation of 1–20 % on every
measurement (and a quarter of it on the server's speed from one point to the next), and sometimes a baseline point, a
scalability phase and a long stability point with its interval samples (drifting in rate, in p50 latency, in both or in
neither). Every point carries the monitor data such a run would: the host's CPUs (an mpstat summary: the load
generator shares the host), and, for some campaigns, the server's own exporter (its request counter and its process's
CPU). Some campaigns' generators cannot send the whole load (a host busy with the generator itself: its mpstat says so);
their verdict comes from the product's own judge (kneeboard.analysis.generator.judge), as in a run.

The truth (`Campaign.truth`) is computed here from the noise-free model, independently of the analysis:

- knee: the product's knee rule applied to the *noise-free* model at the sweep's own tested loads (the latency metric
  crossing max(k × its baseline, baseline + floor), the efficiency crossing `min_efficiency`, or the mean latency
  entering the red zone, whichever first, linearly interpolated between the tested loads around it), and also where the
  continuous model crosses (`knee_continuous`); None when the sweep crosses none of them;
- one step: the smaller of the sweep's step around the knee and 10 % of the knee;
- ceiling: the model's peak throughput; "measured" when the sweep went clearly past the peak, "lower_bound" when it
  stopped clearly below it (the generator picks sweeps that do one or the other);
- generator-limited: whether any point was asked more than the generator could send (sent < 97 % of asked);
- drift: which of the stability point's series drifted.

Pure and seeded: `campaigns(n, seed)` gives the same campaigns every time. Noise-free curves are computed for all
points of a campaign at once (numpy over loads and queue states).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import numpy as np
from scipy.special import gammaln

from kneeboard.analysis.generator import Sending, judge
from kneeboard.campaigns.analysis import point_dict
from kneeboard.states import PointStatus

K_RULE, FLOOR_MS, MIN_EFFICIENCY, GREEN_MS, YELLOW_MS = 2.0, 1.0, 0.95, 1.0, 3.0
SENT_MIN = 0.97  # generator.SENT_MIN_PCT: below this share sent, a point was not offered its load
DURATION_S = 10.0
CPUS = 2


@dataclass
class Server:
    """The queueing model: c workers of mean service time service_ms, room for k requests, a round trip, a fall."""

    c: int
    service_ms: float
    k: int
    rtt_ms: float
    fall: float  # past capacity each request costs (1 + fall × overload) times more
    cpu_ms: float  # host CPU time per request (ms of one CPU)

    @property
    def capacity(self) -> float:
        """Requests per second all workers complete when busy (before any fall)."""
        return self.c / self.service_ms * 1000.0

    def curves(self, offered: np.ndarray, speed: np.ndarray | None = None) -> dict[str, np.ndarray]:
        """Achieved rate, loss (%), mean and tail latency (ms) at each offered rate; `speed` scales each point's
        service rate (noise), 1 when None. Exact M/M/c/K stationary distribution, every load at once."""
        lam = np.asarray(offered, dtype=float)
        speed = np.ones_like(lam) if speed is None else np.asarray(speed, dtype=float)
        overload = np.maximum(0.0, lam / self.capacity - 1.0)
        mu = 1000.0 / self.service_ms * speed / (1.0 + self.fall * overload)  # per worker, per second
        a = lam / mu
        n = np.arange(self.k + 1)
        log_a = np.log(np.maximum(a, 1e-300))[:, None]
        busy = np.minimum(n, self.c)
        log_p = n * log_a - (gammaln(busy + 1) + (n - busy) * np.log(self.c))[None, :]
        p = np.exp(log_p - log_p.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        blocked = p[:, -1]
        achieved = lam * (1.0 - blocked)
        in_system = p @ n
        sojourn_ms = np.where(achieved > 0, in_system / np.maximum(achieved, 1e-12) * 1000.0, self.service_ms)
        waiting_ms = np.maximum(sojourn_ms - 1000.0 / mu, 0.0)
        mean = self.rtt_ms + sojourn_ms
        # a tail read: exponential service with the queue's wait: p50 ≈ rtt + 0.69 × sojourn, p99 ≈ rtt + 4.6 × sojourn
        return {"achieved_rate": achieved, "loss_pct": 100.0 * blocked, "latency_avg_ms": mean,
                "latency_p50_ms": self.rtt_ms + 0.69 * sojourn_ms, "latency_p99_ms": self.rtt_ms + 4.6 * sojourn_ms,
                "waiting_ms": waiting_ms, "busy_workers": achieved / mu}

    def peak(self, top: float) -> float:
        """The model's ceiling: the highest achieved rate at any offered load (searched up to `top`)."""
        grid = np.linspace(self.capacity * 0.5, max(top, self.capacity * 4.0), 200)
        return float(self.curves(grid)["achieved_rate"].max())


@dataclass
class Campaign:
    """A generated campaign: its points (in the analysis package's shape), stability samples, options and truth."""

    points: list[dict]
    samples: list[dict] | None
    options: dict
    truth: dict
    server: Server
    tags: dict = field(default_factory=dict)


def _first_crossing(xs: np.ndarray, ys: np.ndarray, threshold: float, above: bool = True) -> tuple[float, float | None, float] | None:
    """(interpolated x, x before, x past) where a noise-free curve first goes past threshold; None if it never does."""
    past = ys > threshold if above else ys < threshold
    if not past.any():
        return None
    i = int(np.argmax(past))
    if i == 0:
        return float(xs[0]), None, float(xs[0])
    f = (threshold - ys[i - 1]) / (ys[i] - ys[i - 1])
    return float(xs[i - 1] + f * (xs[i] - xs[i - 1])), float(xs[i - 1]), float(xs[i])


def _knee_truth(xs: np.ndarray, model: dict, base: float, metric: str) -> tuple[float, float | None, float] | None:
    """The knee rule on noise-free values at loads xs: the first of the latency, efficiency and red-zone crossings."""
    threshold = max(K_RULE * base, base + FLOOR_MS)
    found = [c for c in (_first_crossing(xs, model[metric], threshold),
                         _first_crossing(xs, model["achieved_rate"] / xs, MIN_EFFICIENCY, above=False),
                         _first_crossing(xs, model["latency_avg_ms"], YELLOW_MS)) if c is not None]
    return min(found, key=lambda c: c[0]) if found else None


def _sweep(rng: np.random.Generator, capacity: float, past: bool) -> tuple[np.ndarray, str]:
    """Offered loads: coarse (5-8) or fine (12-24), linear or irregular, topping out past capacity or below it."""
    top = capacity * (rng.uniform(1.3, 2.5) if past else rng.uniform(0.45, 0.8))
    fine = rng.random() < 0.5
    count = int(rng.integers(12, 25) if fine else rng.integers(5, 9))
    if rng.random() < 0.6:
        loads = np.linspace(top / count, top, count)
    else:  # irregular, denser at the low end (2k, 5k, 10k, 15k, ... as people write them)
        loads = np.sort(top * np.concatenate([[rng.uniform(0.03, 0.1)], rng.uniform(0.1, 1.0, count - 2), [1.0]]))
    loads = np.unique(np.round(loads, -1 if top > 2000 else 0))
    return loads[loads > 0], ("fine" if fine else "coarse")


def _noisy(rng: np.random.Generator, values: np.ndarray, cv: float) -> np.ndarray:
    """Multiplicative log-normal noise of coefficient of variation cv."""
    sigma = np.sqrt(np.log1p(cv * cv))
    return values * rng.lognormal(-sigma * sigma / 2, sigma, size=np.shape(values))


def _monitors(rng, server: Server, achieved: np.ndarray, sent_rate: np.ndarray, gen_cpu_ms: float, exporter: bool,
              gen_limited: np.ndarray) -> list[dict]:
    """What an mpstat monitor (the host: server and generator) and the server's exporter read at each point."""
    out = []
    server_cpu = np.minimum(achieved * server.cpu_ms / 1000.0, min(server.c, CPUS)) * 100.0  # % of one CPU
    gen_cpu = sent_rate * gen_cpu_ms / 1000.0 * 100.0
    for i in range(len(achieved)):
        total = min(CPUS * 100.0, server_cpu[i] + gen_cpu[i] + rng.uniform(1, 4))
        if gen_limited[i]:
            total = max(total, CPUS * 100.0 * rng.uniform(0.92, 0.99))  # the generator took what was left of the host
        avg = total / CPUS
        top = min(100.0, avg * rng.uniform(1.0, 1.25))
        mon: dict[str, Any] = {"mpstat": {"nodename": "gen", "cpus": CPUS, "intervals": int(DURATION_S), "truncated": False,
                                          "cpu_max_usr_pct": top * 0.45, "all_avg_usr_pct": avg * 0.45,
                                          "cpu_max_sys_pct": top * 0.5, "all_avg_sys_pct": avg * 0.5,
                                          "cpu_max_soft_pct": top * 0.05, "all_avg_soft_pct": avg * 0.05,
                                          "cpu_max_irq_pct": 0.0, "all_avg_irq_pct": 0.0, "cpu_max_iowait_pct": 0.0,
                                          "all_avg_iowait_pct": 0.0, "cpu_max_steal_pct": 0.0, "all_avg_steal_pct": 0.0,
                                          "cpu_max_busy_pct": top, "all_avg_busy_pct": avg}}
        if exporter:
            mon["exporter.server"] = {"scrapes": int(DURATION_S), "scrape_errors": 0, "first_error": None, "series_kept": 20,
                                      "series_dropped": 0, "packs": {
                                          "coredns": {"requests": {"value": float(achieved[i])}, "responses": {"NOERROR": float(achieved[i])},
                                                      "panics": {"value": 0.0}},
                                          "process": {"cpu": {"value": float(server_cpu[i])}, "open_fds": {"value": 13.0},
                                                      "max_fds": {"value": 20000.0}}}}
        out.append(mon)
    return out


def _stored(point: dict, extra: dict) -> dict:
    """A point as the worker hands it to the analysis: through the product's own point_dict, as from a stored row."""
    row = SimpleNamespace(id=point["seq"], metrics=point["metrics"], extra=extra, campaign=SimpleNamespace(tool="dnsperf"),
                          phase=point["phase"], concurrency=point["concurrency"], offered_rate=point["offered_rate"],
                          repeat=point["repeat"], status=PointStatus.COMPLETED, variant=None)
    return point_dict(row)


def _samples(rng, rate: float, p50: float, drift: str, cv: float, seconds: int = 60) -> list[dict]:
    """A long point's per-second samples, drifting (last third against first) in rate, p50 latency, both or neither."""
    t = np.arange(seconds, dtype=float)
    ramp = (t - t.mean()) / np.ptp(t)  # -0.5 .. 0.5
    rate_change = rng.uniform(0.12, 0.3) * rng.choice([-1, 1]) if drift in ("rate", "both") else 0.0
    lat_change = rng.uniform(0.5, 0.9) * rng.choice([-1, 1]) if drift in ("latency", "both") else 0.0
    noise = min(cv, 0.05)
    rates = _noisy(rng, rate * (1 + rate_change * ramp * 1.5), noise * 0.3)
    lats = _noisy(rng, p50 * (1 + lat_change * ramp * 1.5), noise)
    return [{"t": float(ti), "achieved_rate": float(r), "latency_p50_ms": float(lat)} for ti, r, lat in zip(t, rates, lats)]


def campaign(rng: np.random.Generator) -> Campaign:
    """One generated campaign with its truth."""
    c = int(rng.choice([1, 2, 4, 8, 16, 32, 64]))
    capacity = float(np.exp(rng.uniform(np.log(2_000), np.log(200_000))))
    throughput_bound = rng.random() < 0.4
    k = c + 2 + int(rng.uniform(c / 2, 2 * c)) if throughput_bound else c + int(np.exp(rng.uniform(np.log(20), np.log(1000))))
    server = Server(c=c, service_ms=c / capacity * 1000.0, k=k, rtt_ms=float(rng.uniform(0.03, 0.3)),
                    fall=float(rng.choice([0.0, 0.0, rng.uniform(0.1, 0.6)])), cpu_ms=float(rng.uniform(0.3, 1.2)) * CPUS / capacity * 1000.0)
    past = rng.random() < 0.7
    loads, grain = _sweep(rng, server.capacity, past)
    repeats = int(rng.integers(1, 6))
    cv = float(rng.uniform(0.01, 0.2))
    generator_capacity = float(loads[-1] * rng.uniform(0.4, 0.9)) if rng.random() < 0.25 else np.inf
    exporter = rng.random() < 0.5
    slo_metric = "latency_p99_ms" if rng.random() < 0.2 else None
    gen_cpu_ms = float(rng.uniform(0.2, 0.6)) * 1000.0 / max(generator_capacity if np.isfinite(generator_capacity) else 4 * loads[-1], 1.0)

    rows: list[tuple[str, int, float]] = []  # (phase, concurrency, offered)
    if rng.random() < 0.5:
        rows.append(("baseline", 1, float(np.round(loads[0] * rng.uniform(0.1, 0.5)))))
    scal = rng.random() < 0.2
    unit_rate = float(server.capacity / rng.uniform(4, 40)) if scal else 0.0
    if scal:
        rows += [("scalability", n, unit_rate * n) for n in (1, 2, 4, 8, 16, 32)]
    rows += [("saturation", 20, float(x)) for x in loads]
    stab_drift = str(rng.choice(["none", "rate", "latency", "both"])) if rng.random() < 0.3 else None
    stab_load = float(loads[len(loads) // 3]) if stab_drift else None
    if stab_drift:
        rows.append(("stability", 20, stab_load))

    phase = np.array([r[0] for r in rows] * repeats)
    conc = np.array([r[1] for r in rows] * repeats)
    offered = np.array([r[2] for r in rows] * repeats, dtype=float)
    repeat = np.repeat(np.arange(repeats), len(rows))
    sent_rate = np.minimum(offered, generator_capacity * rng.uniform(0.98, 1.02, offered.size))
    gen_limited = sent_rate < SENT_MIN * offered
    speed = _noisy(rng, np.ones(offered.size), cv / 4)
    noisy = server.curves(sent_rate, speed)
    monitors = _monitors(rng, server, noisy["achieved_rate"], sent_rate, gen_cpu_ms, exporter, gen_limited)

    points = []
    for i in range(offered.size):
        lost_pct = float(noisy["loss_pct"][i])
        sent = sent_rate[i] * DURATION_S
        achieved = float(noisy["achieved_rate"][i] * rng.normal(1.0, 2e-4))
        metrics = {"sent": sent, "completed": achieved * DURATION_S, "lost": sent - achieved * DURATION_S,
                   "achieved_rate": achieved, "loss_pct": lost_pct}
        for key in ("latency_avg_ms", "latency_p50_ms", "latency_p99_ms"):
            metrics[key] = float(_noisy(rng, noisy[key][i], cv))
        verdict = judge(Sending(tool="dnsperf", unit="queries", rate_unit="qps", offered_rate=float(offered[i]), duration_s=DURATION_S,
                                asked=float(offered[i] * DURATION_S), sent=float(sent), lost=float(metrics["lost"]),
                                latency_ms=metrics["latency_avg_ms"], timeout_s=2.0, cap=None),
                        cpu_busy_pct=monitors[i]["mpstat"]["all_avg_busy_pct"])
        point = {"seq": i, "phase": str(phase[i]), "concurrency": int(conc[i]), "offered_rate": float(offered[i]),
                 "repeat": int(repeat[i]), "metrics": metrics}
        points.append(_stored(point, {"monitors": monitors[i], "generator": verdict}))

    samples = None
    if stab_drift:
        at = server.curves(np.array([min(stab_load, generator_capacity)]))
        samples = _samples(rng, float(at["achieved_rate"][0]), float(at["latency_p50_ms"][0]), stab_drift, cv)

    # the truth, from the noise-free model at the loads the server was offered (the generator-limited ones left out)
    judged = ~gen_limited
    sat = (phase == "saturation") & judged & (repeat == 0)
    xs = offered[sat]
    knee = cont = None
    if xs.size:
        model = server.curves(xs)
        calm = (phase != "stability") & judged & (repeat == 0)
        clean = server.curves(offered[calm])
        ok = clean["achieved_rate"] / offered[calm] >= MIN_EFFICIENCY
        metric = slo_metric or "latency_avg_ms"
        base = float(clean[metric][ok].min()) if ok.any() else float(clean[metric].min())
        knee = _knee_truth(xs, model, base, metric)
        grid = np.linspace(xs[0], xs[-1], 300)
        found = _knee_truth(grid, server.curves(grid), base, metric)
        cont = found[0] if found else None
    peak = server.peak(float(offered.max()))
    # the ceiling's class, by the model at the loads the server was offered: past its peak (at least two loads on its
    # plateau and the top one short of its offered rate, or a fall), stopped clearly below its capacity, or neither (None:
    # a sweep that stepped over the peak without a load near it, where neither class is decided; not scored)
    swept = np.unique(offered[np.isin(phase, ("baseline", "scalability", "saturation")) & judged])
    clean = server.curves(swept)["achieved_rate"] / peak if swept.size else np.zeros(1)
    plateau = int((clean >= 0.9).sum())
    fell = swept.size > 1 and clean[-1] < 0.9 * clean.max()
    kind = ("measured" if (plateau >= 2 and clean[-1] * peak / swept[-1] < 0.9) or fell
            else "lower_bound" if clean.max() <= 0.85 and swept[-1] <= 0.85 * server.capacity else None)
    truth = {
        "knee": knee[0] if knee else None,
        "knee_between": knee[1:] if knee else None,
        "knee_continuous": cont,
        "one_step": _one_step(xs, knee[0]) if knee else (float(np.diff(xs).max()) if xs.size > 1 else None),
        "top_load": float(xs[-1]) if xs.size else None,
        "ceiling": peak,
        "ceiling_kind": kind,  # None: the sweep ended near the peak, where neither class is clearly right
        "generator_limited": bool(gen_limited.any()),
        "scalability_generator_limited": bool((gen_limited & (phase == "scalability")).any()),
        "drift": stab_drift,
        "saturated": bool(xs.size and float(server.curves(xs[-1:])["achieved_rate"][0]) < MIN_EFFICIENCY * xs[-1]),
    }
    options = {"k": K_RULE, "min_efficiency": MIN_EFFICIENCY, "knee_floor_ms": FLOOR_MS, "green_ms": GREEN_MS, "yellow_ms": YELLOW_MS,
               "slo_ms": YELLOW_MS, "slo_metric": slo_metric, "slo_source": "plan" if slo_metric else "default", "unit": "qps",
               "work": ("1,000 queries", 1000.0), "host_shared": "yes (loopback)"}
    tags = {"grain": grain, "past": past, "repeats": repeats, "cv": cv, "bound": "throughput" if throughput_bound else "latency",
            "falls": server.fall > 0, "exporter": exporter, "scalability": scal, "metric": slo_metric or "latency_avg_ms"}
    return Campaign(points=points, samples=samples, options=options, truth=truth, server=server, tags=tags)


def _one_step(xs: np.ndarray, knee: float) -> float:
    """The smaller of the sweep's step around the knee and 10 % of the knee."""
    i = int(np.searchsorted(xs, knee))
    lo, hi = xs[max(i - 1, 0)], xs[min(i, xs.size - 1)]
    step = float(hi - lo) if hi > lo else float(np.diff(xs).min() if xs.size > 1 else knee)
    return min(step, 0.1 * knee)


def campaigns(n: int, seed: int = 47) -> list[Campaign]:
    """n generated campaigns, the same for the same seed."""
    rng = np.random.default_rng(seed)
    return [campaign(rng) for _ in range(n)]


STATEMENTS = ("knee", "ceiling class", "generator-limited", "USL note's reason", "stability's drifted metric")


def _knee_verdict(truth: dict, knee: dict | None) -> tuple[bool, bool]:
    """(missed, false alarm) of the knee against the truth: within one step of it, or both saying none (a knee within
    one step of the top load counts as none and the other way round: the sweep cannot tell them apart)."""
    t, step, top = truth["knee"], truth["one_step"], truth["top_load"]
    p = knee["offered_rate"] if knee else None
    slack = 1e-6 * (top or 1.0)
    if t is not None and p is not None:
        return abs(p - t) > step + slack, False
    if t is None and p is None:
        return False, False
    if t is None:  # said a knee where the model crosses nothing within the sweep
        return False, p < top - (step or 0.0) - slack
    return t < top - step - slack, False


def score(c: Campaign, result: dict) -> dict[str, tuple[bool, bool]]:
    """Per statement that applies to this campaign: (missed, false alarm) against the campaign's truth. The ceiling's
    class is scored only where the sweep decides it, the USL note only with a scalability phase, the stability card
    only with a stability point."""
    truth = c.truth
    out = {"knee": _knee_verdict(truth, result.get("knee"))}
    kind = (result.get("ceiling") or {}).get("kind")
    if truth["ceiling_kind"] is not None:
        out["ceiling class"] = (truth["ceiling_kind"] == "measured" and kind != "measured",
                                truth["ceiling_kind"] == "lower_bound" and kind != "lower_bound")
    said = bool(result.get("generator_limited"))
    out["generator-limited"] = (truth["generator_limited"] and not said, said and not truth["generator_limited"])
    if result.get("usl"):
        note = (result["usl"].get("note") or "").lower()
        out["USL note's reason"] = (truth["scalability_generator_limited"] and "generator" not in note,
                                    "generator" in note and not truth["scalability_generator_limited"])
    if truth["drift"] is not None:
        named = {d["metric"] for d in (result.get("stability") or {}).get("drifted") or []}
        want = {"none": set(), "rate": {"achieved_rate"}, "latency": {"latency_p50_ms"}, "both": {"achieved_rate", "latency_p50_ms"}}[truth["drift"]]
        out["stability's drifted metric"] = (bool(want - named), bool(named - want))
    return out


def broken_invariants(result: dict) -> list[str]:
    """The analysis's own invariants that this result breaks (none expected): the knee past the red zone's start or
    past the first load where its rule was crossed; a ceiling called a lower bound while a higher load achieved less."""
    broken = []
    knee, top = result.get("knee"), result.get("ceiling")
    red = next((z["from_rate"] for z in result.get("zones") or [] if z["zone"] == "red"), None)
    if knee and red is not None and knee["offered_rate"] > red + 1e-6 * red:
        broken.append(f"knee {knee['offered_rate']:,.0f} inside the red zone from {red:,.0f}")
    if knee and knee.get("between") and knee["between"][1] is not None and knee["offered_rate"] > knee["between"][1]:
        broken.append("knee above the first load past its rule")
    if top and top.get("bound") and any(p["achieved_rate"] < 0.9 * top["achieved_rate"] for p in top.get("past") or []):
        broken.append("a lower bound with a higher load achieving 10 % less")
    if top and not top.get("bound") and "lower bound" in (top.get("statement") or ""):
        broken.append("a measured ceiling said as a lower bound")
    return broken
