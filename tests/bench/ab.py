"""A/B benchmark runs: each side's campaign RUNS times, alternating which side goes first."""

from __future__ import annotations

import time
from collections.abc import Callable


def alternate(plans: dict[str, int], runs: int, one: Callable[[int], dict],
              said: Callable[[int, str, dict], str]) -> tuple[dict[str, list[dict]], list[str]]:
    """Run each side's plan `runs` times (`one(plan_id)`), the sides' order swapped every round, each from a server at
    rest; prints `said(round, side, result)` after each. The results by side, and the order they ran in."""
    done: dict[str, list[dict]] = {side: [] for side in plans}
    order: list[str] = []
    sides = list(plans)
    for i in range(runs):
        for side in (sides if i % 2 == 0 else sides[::-1]):
            time.sleep(2)  # every search starts from a server at rest
            result = one(plans[side])
            done[side].append(result)
            order.append(side)
            print(said(i, side, result), flush=True)
    return done, order
