"""Splitting a point over agents: shares add up to the point exactly; devsim ids never overlap."""

from __future__ import annotations

import pytest

from kneeboard.fanout.split import divide, split
from kneeboard.tools.base import PointSpec, ToolInputError


def spec(concurrency: int, rate: float | None, **params) -> PointSpec:
    return PointSpec(host="127.0.0.1", port=53, concurrency=concurrency, rate=rate, duration_s=5, params=params)


def test_rate_and_concurrency_are_divided_with_remainders_to_the_first_agents():
    shares = split(spec(7, 1001.0), 3)
    assert [s.concurrency for s in shares] == [3, 2, 2]
    assert [s.rate for s in shares] == [334.0, 334.0, 333.0]
    assert sum(s.rate for s in shares) == 1001.0 and sum(s.concurrency for s in shares) == 7
    assert all(s.host == "127.0.0.1" and s.duration_s == 5 for s in shares)


def test_a_fractional_rate_is_shared_evenly_and_closed_loop_stays_none():
    assert [s.rate for s in split(spec(2, 2.5), 2)] == [1.25, 1.25]
    assert [s.rate for s in split(spec(4, None), 2)] == [None, None]
    assert divide(5, 1) == [5]


def test_less_concurrency_than_agents_is_refused():
    with pytest.raises(ToolInputError, match="concurrency 1 cannot be split over 2 agents"):
        split(spec(1, 100.0), 2)
    with pytest.raises(ToolInputError):
        split(spec(1, 100.0), 0)


def test_devsim_devices_get_distinct_id_ranges_and_their_part_of_rate_and_ramp():
    shares = split(spec(100_001, 200_002.0, start_id=10, ramp_per_s=5000), 2, tool="devsim")
    assert [s.concurrency for s in shares] == [50_001, 50_000]
    assert [s.params["start_id"] for s in shares] == [10, 50_011]  # share 2 starts right after share 1's last id
    assert [s.params["ramp_per_s"] for s in shares] == [2500, 2500]
    assert [s.rate for s in shares] == pytest.approx([100_002.0, 100_000.0])  # reports/s follow the devices


def test_devsim_processes_follow_the_devices_and_no_process_holds_more_than_its_file_limit_allows():
    shares = split(spec(100_000, 10_000.0, procs=8), 4, tool="devsim")
    assert [s.params["procs"] for s in shares] == [2, 2, 2, 2]  # the plan's 8 processes, shared
    shares = split(spec(100_000, 10_000.0), 4, tool="devsim")  # one process asked for: 25,000 connections would not fit
    assert [s.params["procs"] for s in shares] == [2, 2, 2, 2]
    assert all(s.concurrency / s.params["procs"] <= 16_000 for s in shares)
    assert [s.params["procs"] for s in split(spec(3, 1.0, procs=16), 3, tool="devsim")] == [1, 1, 1]  # never more than devices
    assert [s.params["procs"] for s in split(spec(1_000_000, 1.0), 2, tool="devsim")] == [16, 16]  # devsim's own bound
