"""Repeat until decided on a drifting host (issue 50, item 4): 2,000 seeded simulated campaigns a case.

Each campaign compares a reference A with a variant B on three named headline metrics (CPU per 1,000 queries and p99
latency, lower is better; the ceiling, higher is better) over at most MAX_PASSES passes. Every run's figure is its
truth times the host's speed at that moment times a run-to-run noise of CV 5 % (the spread of a 4 s CoreDNS point on
the lab's two shared cores after the first seconds; tests/integration/test_server_evidence_lab.py measured 3–7 %).
The host drifts: its speed falls linearly by DRIFT over the campaign and wanders as a random walk of 1 % a run (a
neighbour's load coming and going). The passes alternate the order of the variants (A B, then B A), as the worker
runs them. The sequential test (analysis/sequential.py) looks after every pass.

The control runs the same number of points, all of A before all of B, and pairs the i-th run of each: the drift then
separates the sides and the same test, at the same level, is fooled.
"""

from __future__ import annotations

import numpy as np

from kneeboard.analysis.sequential import ALPHA, BETTER, EQUIVALENT, UNDECIDED, WORSE, intervals, verdicts

RUNS, MAX_PASSES, CV, WALK, DRIFT, MARGIN_PCT = 2000, 30, 0.05, 0.01, 0.30, 5.0
SENSES = np.array([-1, +1, -1])  # cpu per 1,000 queries, ceiling, p99
SIGN = np.array([+1, -1, +1])  # how a slower host moves each metric: more CPU a query, a lower ceiling, a higher p99


def campaigns(rng: np.random.Generator, change: np.ndarray, *, interleaved: bool) -> np.ndarray:
    """The per-pass log-ratios ln(B / A), shape (RUNS, metrics, MAX_PASSES), of RUNS simulated campaigns whose true
    log-ratios are `change` (one a metric): interleaved (A B / B A a pass) or all of A then all of B."""
    runs = 2 * MAX_PASSES
    slots = np.arange(runs)
    speed = np.log1p(-DRIFT * slots / runs) + np.cumsum(rng.normal(0, WALK, size=(RUNS, 1, runs)), axis=-1)
    noise = rng.normal(0, CV, size=(RUNS, SIGN.size, runs))
    logs = -SIGN[None, :, None] * speed + noise  # each run's log figure before the variant's own change
    passes = np.arange(MAX_PASSES)
    if interleaved:
        first, second = 2 * passes, 2 * passes + 1
        a_slot, b_slot = np.where(passes % 2 == 0, first, second), np.where(passes % 2 == 0, second, first)
    else:
        a_slot, b_slot = passes, MAX_PASSES + passes
    return logs[..., b_slot] + change[None, :, None] - logs[..., a_slot]


def outcome(diffs: np.ndarray) -> np.ndarray:
    """Each campaign's verdicts after every pass, shape (RUNS, metrics, MAX_PASSES), at ALPHA over the three metrics."""
    low, high = intervals(diffs, metrics=SIGN.size, alpha=ALPHA)
    return verdicts(low, high, SENSES[None, :, None], MARGIN_PCT)


def stopped(verdict: np.ndarray) -> np.ndarray:
    """Each campaign's verdicts where it stops: the first pass with every metric decided, else the last pass."""
    decided = (verdict != UNDECIDED).all(axis=1)
    at = np.where(decided.any(axis=-1), decided.argmax(axis=-1), MAX_PASSES - 1)
    return np.take_along_axis(verdict, at[:, None, None], axis=-1)[..., 0], at + 1


def test_identical_variants_are_rarely_called_worse_or_better_and_a_ten_percent_change_is_found():
    rng = np.random.default_rng(50)
    same = outcome(campaigns(rng, np.zeros(3), interleaved=True))
    ever = np.isin(same, (WORSE, BETTER)).any(axis=(1, 2)).mean()  # at any look, not only where it stopped
    final, passes = stopped(same)
    equivalent = (final == EQUIVALENT).all(axis=1).mean()

    changed = outcome(campaigns(rng, np.array([np.log(1.10), 0.0, 0.0]), interleaved=True))
    found = (changed[:, 0, :] == WORSE).any(axis=-1).mean()
    first = np.where((changed[:, 0, :] == WORSE).any(axis=-1), (changed[:, 0, :] == WORSE).argmax(axis=-1) + 1, 0)
    others = np.isin(changed[:, 1:, :], (WORSE, BETTER)).any(axis=(1, 2)).mean()

    control = outcome(campaigns(rng, np.zeros(3), interleaved=False))
    fooled = np.isin(control, (WORSE, BETTER)).any(axis=(1, 2)).mean()
    print(f"\n{RUNS} campaigns a case, 3 named metrics, ≤ {MAX_PASSES} passes, CV {CV:.0%}, drift {DRIFT:.0%} + walk {WALK:.0%}/run: "
          f"identical variants called worse/better on some metric at any look in {ever:.1%} (all three equivalent within "
          f"±{MARGIN_PCT:g} % in {equivalent:.0%}, median {np.median(passes):.0f} passes); a real +10 % CPU per query found "
          f"worse in {found:.1%} within the budget (median {np.median(first[first > 0]):.0f} passes), another metric "
          f"called in {others:.1%}; control (all of A before all of B): fooled in {fooled:.1%}")
    assert ever <= 0.06
    assert found >= 0.80
    assert others <= 0.06
    assert fooled >= 0.25, "the control must show the drift: all of A before all of B is called different far above 5 %"


def test_the_interval_edge_is_where_the_t_test_bayes_factor_reaches_its_threshold():
    """An independent reading of the closed form: scipy's root of the Bayes factor in t at the threshold."""
    from scipy import optimize

    from kneeboard.analysis.sequential import G, half_width

    d = np.random.default_rng(1).normal(0.02, 0.07, size=12)
    mean, width = half_width(d, 60.0)
    n, sd = d.size, d.std(ddof=1)

    def bf(t: float) -> float:
        r = 1 + n * G
        return r**-0.5 * ((1 + t * t / (n - 1)) / (1 + t * t / ((n - 1) * r))) ** (n / 2)

    t = optimize.brentq(lambda x: bf(x) - 60.0, 0.0, 50.0)
    assert abs(width[-1] - t * sd / np.sqrt(n)) < 1e-9
    assert np.isnan(width[0]) and np.isinf(half_width(d[:2], 60.0)[1][-1])  # one difference: no spread; two: no bound at 60


def test_decide_reports_each_metric_history_and_why_it_stops():
    from kneeboard.analysis.sequential import BUDGET, DECIDED, PASSES, decide, stop_reason

    rng = np.random.default_rng(2)
    passes = [{"cpu": (1.0, 1.3 * f), "p99": (2.0, 2.0 * g)} for f, g in rng.normal(1, 0.02, size=(15, 2))]
    result = decide(passes, {"cpu": -1, "p99": -1}, margin_pct=5.0)
    assert result["metrics"]["cpu"]["verdict"] == WORSE and result["metrics"]["p99"]["verdict"] == EQUIVALENT
    assert result["metrics"]["cpu"]["history"][0] == UNDECIDED and len(result["metrics"]["cpu"]["history"]) == 15
    assert 25 < result["metrics"]["cpu"]["effect_pct"] < 35 and result["decided"]
    assert stop_reason(result, passes=15, max_passes=30, spent_s=150, budget_s=600) == DECIDED
    undecided = decide(passes[:1], {"cpu": -1}, margin_pct=5.0)
    assert stop_reason(undecided, passes=1, max_passes=1, spent_s=10, budget_s=None) == PASSES
    assert stop_reason(undecided, passes=1, max_passes=9, spent_s=10, budget_s=15) == BUDGET
    assert stop_reason(undecided, passes=1, max_passes=9, spent_s=10, budget_s=25) is None


def test_passes_pair_each_variant_with_the_reference_within_a_pass():
    from kneeboard.analysis.sequential import passes_of, trace

    def point(repeat, variant, cost, status="completed"):
        return {"repeat": repeat, "variant": variant, "status": status, "server_cost": cost}

    points = [point(0, "a", 1.0), point(0, "a", 3.0), point(0, "b", 2.4), point(1, "b", 2.0), point(1, "a", 1.9),
              point(2, "a", 2.0), point(2, "b", 9.0, "failed")]  # fmt: skip
    assert passes_of(points, ["server_cost"], "a", "b") == [{"server_cost": (2.0, 2.4)}, {"server_cost": (1.9, 2.0)}]
    found = trace(points, ["a", "b"], {"server_cost": -1}, margin_pct=5.0)
    assert found["passes"] == 3 and found["variants"]["b"]["metrics"]["server_cost"]["passes"] == 2
    assert found["variants"]["b"]["level"] == ALPHA and not found["decided"]
