"""What a lossy link costs, compared across campaigns (analysis/link_cost_verdict.py), on figures measured in the lab: one
campaign of 3 s kbhttp points at 1,000 req/s through lab-http (20 connections), three repetitions on a clean link and
three with 1 % of the link's packets dropped each way (variant lab.loss_permille 10); each tuple is one point's
(repeat, achieved req/s, TCP retransmissions host / lab, packets arrived / dropped) as its extra["impairment"] held them
(a run of tests/integration/test_link_cost_compare_lab.py)."""

from __future__ import annotations

import pytest

from kneeboard.analysis.failover_verdict import figure_test, figure_verdict
from kneeboard.analysis.link_cost_verdict import COMPARED, repetition_figures
from kneeboard.analysis.verdicts import BETTER, FEW, SAME, WORSE

CLEAN = [(0, 999.87, (0, 0), None), (1, 1000.04, (0, 0), None), (2, 1000.07, (0, 0), None)]
LOSSY = [(0, 949.69, (51, 47), (6359, 54)), (1, 930.94, (62, 59), (6392, 65)), (2, 937.44, (52, 52), (6364, 56))]


def point(repeat: int, rate: float, retransmitted: tuple, packets: tuple | None, duration_s: float = 3.0) -> dict:
    link = {"in_force": {"loss_permille": 10} if packets else {}, "tcp_retransmissions": dict(zip(("host", "lab"), retransmitted))}
    if packets:
        link["packets"] = {"arrived": packets[0], "dropped": packets[1], "dropped_pct": round(100 * packets[1] / packets[0], 3)}
    return {"repeat": repeat, "achieved_rate": rate, "duration_s": duration_s, "impairment": link}


def figures(points: list[tuple]) -> dict[str, list[float]]:
    return repetition_figures([point(*p) for p in points], 1000.0)


def test_each_repetition_gives_its_retransmissions_per_1000_requests_and_its_share_dropped():
    lossy, clean = figures(LOSSY), figures(CLEAN)
    # 98 segments sent again over 949.69 req/s × 3 s = 2,849 requests: 34.4 per 1,000
    assert lossy["link_retransmissions"] == pytest.approx([34.397, 43.325, 36.980], abs=1e-3)
    assert lossy["link_dropped_pct"] == pytest.approx([0.8492, 1.0169, 0.8800], abs=1e-4)
    assert clean == {"link_retransmissions": [0.0, 0.0, 0.0], "link_dropped_pct": []}, "a clean link counts no packets"
    assert [name for name, _, _ in COMPARED] == list(lossy)


def test_a_repetitions_points_are_summed_and_an_unread_count_adds_nothing():
    two = [point(0, 949.69, (51, 47), (6359, 54)), point(0, 1000.0, (10, 10), (6000, 6), duration_s=2),
           point(0, 1000.0, (None, 3), (6000, 60)), {"repeat": 0, "impairment": {"error": "could not read the link"}},
           {"repeat": 1, "achieved_rate": 1000, "duration_s": 3, "impairment": None}]  # fmt: skip
    found = repetition_figures(two, 1000.0)
    assert found["link_retransmissions"] == pytest.approx([(98 + 20) / (2.84907 + 2.0)], abs=1e-4)  # the host's unread: left out
    assert found["link_dropped_pct"] == pytest.approx([100 * (54 + 6 + 60) / (6359 + 6000 + 6000)])  # the repetition with no record: none


def test_a_lossy_link_is_worse_than_a_clean_one():
    lossy, clean = figures(LOSSY), figures(CLEAN)
    found = figure_verdict(clean["link_retransmissions"], lossy["link_retransmissions"], of="repetitions")
    assert found["verdict"] == WORSE and found["basis"] == "Welch's t-test on 3 and 3 repetitions"
    assert figure_test(clean["link_retransmissions"], lossy["link_retransmissions"])["diff"] == pytest.approx(38.234, abs=1e-3)
    assert figure_verdict(lossy["link_retransmissions"], clean["link_retransmissions"], of="repetitions")["verdict"] == BETTER


def test_no_verdict_without_the_figure_on_three_repetitions_a_side():
    lossy, clean = figures(LOSSY), figures(CLEAN)
    found = figure_verdict(clean["link_dropped_pct"], lossy["link_dropped_pct"], of="repetitions")
    assert found["verdict"] == FEW and found["basis"] == "needs ≥ 3 repetitions a side (has 0 and 3)"
    assert figure_verdict(clean["link_retransmissions"][:2], lossy["link_retransmissions"], of="repetitions")["verdict"] == FEW


def test_the_same_loss_cannot_be_told_apart_from_itself():
    lossy = figures(LOSSY)
    found = figure_verdict(lossy["link_dropped_pct"], lossy["link_dropped_pct"][::-1], of="repetitions")
    assert found["verdict"] == SAME and found["detail"].startswith("the interval is wider than ±2 %")
