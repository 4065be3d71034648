"""A campaign's searches for its analysis: per search (phase × variant × repetition), the capacity per criterion
with its interval, or the bracket it had reached when it stopped. Reads stored points only; no I/O of its own."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from kneeboard.search.state import AT_LEAST, BELOW, BETWEEN, Stored, bracket, config_of, found_dict, replay
from kneeboard.states import PointStatus


def group_key(point: Any) -> tuple[int, str | None, int]:
    """Which search a point belongs to: its phase, variant and repetition."""
    return point.phase_index, point.variant, point.repeat


def stored_trials(points: Iterable[Any]) -> list[Stored]:
    """A search's completed trials, in run order, as the algorithm reads them."""
    done = sorted((p for p in points if p.status == PointStatus.COMPLETED), key=lambda p: p.seq)
    return [Stored(p.offered_rate, p.duration_s, {**(p.metrics or {}), "offered_rate": p.offered_rate}) for p in done]


def search_report(phases: list[dict], points: Iterable[Any], unit: str, whole_seconds: bool = False) -> list[dict]:
    """One entry per search phase run: {phase_index, variant, repeat, done, trials, trial_seconds, criteria | bracket}."""
    groups: dict[tuple, list] = {}
    for point in points:
        if phases[point.phase_index].get("kind") == "search":
            groups.setdefault(group_key(point), []).append(point)
    report = []
    for (index, variant, repeat), members in groups.items():
        config, trials = config_of(phases[index]), stored_trials(members)
        state = replay(config, trials, whole_seconds)
        entry: dict[str, Any] = {"phase_index": index, "variant": variant, "repeat": repeat, "done": state.next is None,
                                 "trials": len(trials), "trial_seconds": sum(t.duration_s for t in trials), "unit": unit}  # fmt: skip
        if state.found is not None:
            entry["criteria"] = [found_dict(f, unit, config.resolution_pct) for f in state.found]
        else:
            entry["bracket"] = bracket(state.next, config)
        report.append(entry)
    return report


def search_capacity(searches: list[dict] | None) -> dict | None:
    """A campaign's capacity as its search found it, for comparisons: the first search phase's first criterion over its
    repetitions (of the first variant searched, as the analysis leads with the first variant), in capacity at SLO's
    shape {"kind", "value", "per_repeat", "statement", ...}; None when the campaign has no finished search. `value` is
    the mean of the repetitions'; `kind` a bound when any is."""
    done = [s for s in searches or [] if s.get("done") and s.get("criteria")]
    if not done:
        return None
    first = min((s["phase_index"], s.get("variant") is not None) for s in done)
    variant = next(s.get("variant") for s in done if (s["phase_index"], s.get("variant") is not None) == first)
    mine = [s for s in done if s["phase_index"] == first[0] and s.get("variant") == variant]
    per_repeat = [{"repeat": s["repeat"], "kind": s["criteria"][0]["kind"], "value": s["criteria"][0]["value"]}
                  for s in sorted(mine, key=lambda s: s["repeat"])]  # fmt: skip
    kinds = {r["kind"] for r in per_repeat}
    kind = next((k for k in (AT_LEAST, BELOW) if k in kinds), BETWEEN)
    criterion = mine[0]["criteria"][0]
    value = sum(r["value"] for r in per_repeat) / len(per_repeat)
    return {"kind": kind, "value": value, "per_repeat": per_repeat, "metric": criterion["metric"], "limit": criterion["limit"],
            "repeats": len(per_repeat), "how": "found by the search", "statement": criterion["statement"] if len(per_repeat) == 1 else None}
