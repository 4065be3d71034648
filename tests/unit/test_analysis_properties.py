"""The campaign analysis (kneeboard.analysis.analyse, what the worker runs) on 2,000 campaigns generated from
queueing models with their truth known by construction (tests/support/campaign_model.py; `make bench-analysis` runs
10,000 and prints every statement's misses and false alarms).

The targets are the issue's: the knee within one step of the truth in ≥ 95 % of campaigns, the ceiling's class right in
≥ 99 % (of those where the sweep decides it), "generator-limited" missed and falsely said in ≤ 2 % each, and the
analysis's own invariants never broken. Measured with this seed: the knee 97.6 %, the ceiling class 99.8 %, the
generator-limited statement and the stability's drifted metric 100 % (10,000 campaigns: see the report of issue 47)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from kneeboard.analysis import analyse
from tests.support.campaign_model import broken_invariants, campaigns, score

N = 2_000
SEED = 2047


@pytest.fixture(scope="module")
def outcomes():
    """Every generated campaign with its analysis."""
    return [(c, analyse(c.points, c.samples, **c.options)) for c in campaigns(N, seed=SEED)]


@pytest.fixture(scope="module")
def tally(outcomes):
    misses, alarms = Counter(), Counter()
    for c, result in outcomes:
        for name, (missed, false) in score(c, result).items():
            misses[name] += missed
            alarms[name] += false
    return misses, alarms


def test_the_mix_has_what_the_issue_asks_for(outcomes):
    truths = [c.truth for c, _ in outcomes]
    assert np.mean([t["generator_limited"] for t in truths]) >= 0.20
    assert np.mean([t["ceiling_kind"] == "lower_bound" for t in truths]) >= 0.20  # stopping below capacity
    assert np.mean([t["ceiling_kind"] == "measured" for t in truths]) >= 0.40
    assert np.mean([t["knee"] is None for t in truths]) >= 0.10  # "no knee found" is an answer to be right about
    tags = [c.tags for c, _ in outcomes]
    assert {t["repeats"] for t in tags} == {1, 2, 3, 4, 5} and {t["grain"] for t in tags} == {"coarse", "fine"}
    assert min(t["cv"] for t in tags) < 0.02 and max(t["cv"] for t in tags) > 0.19
    assert {t["bound"] for t in tags} == {"latency", "throughput"} and any(t["falls"] for t in tags)


def test_the_knee_is_within_one_step_of_the_truth(tally):
    misses, alarms = tally
    assert 1 - (misses["knee"] + alarms["knee"]) / N >= 0.95


def test_the_ceiling_class_is_right(tally):
    misses, alarms = tally
    assert 1 - (misses["ceiling class"] + alarms["ceiling class"]) / N >= 0.99


def test_generator_limited_is_neither_missed_nor_falsely_said(tally):
    misses, alarms = tally
    assert misses["generator-limited"] / N <= 0.02 and alarms["generator-limited"] / N <= 0.02
    assert alarms["USL note's reason"] == 0  # a USL note names the generator only when it limited a scalability point


def test_the_stability_card_names_what_drifted(tally):
    misses, alarms = tally
    assert misses["stability's drifted metric"] == alarms["stability's drifted metric"] == 0


def test_no_analysis_breaks_its_own_invariants(outcomes):
    broken = [(i, b) for i, (_, result) in enumerate(outcomes) for b in broken_invariants(result)]
    assert broken == []
