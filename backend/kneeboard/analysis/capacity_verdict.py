"""Capacity at SLO, campaign against campaign: one capacity per repetition, tested like every other metric.

≥ MIN_REPEATS repetitions a side, else "not enough data". Welch's t-test on the per-repetition
capacities decides better / worse (its p-value corrected with the comparison's other tests
when it is given one); two one-sided tests against the practical margin decide
"equivalent"; the smallest detectable change is stated at α and power. A censored repetition
(a bound, not a measurement) only lets the test say what the bound allows: a side that is
"≥ X" can be beaten or not reached, never matched; two sides censored the same way say only
"both ≥ X; widen the range" (or "both < X; lower the range"). Pure functions.
"""

from __future__ import annotations

from .capacity import AT_LEAST, BELOW, BETWEEN
from .conclusion import rate_text
from .verdicts import BETTER, CHANGE_PCT, EQUIVALENT, FEW, MARGIN_PCT, MIN_REPEATS, SAME, WORSE, equivalence, next_step, next_step_of, power_text, welch


def _kinds(reps: list[dict]) -> set[str]:
    return {r["kind"] for r in reps}


def _bound(reps: list[dict], unit: str) -> str:
    """How a censored side is said: "≥ 4,000 q/s" (the lowest of its bounds) or "< 500 q/s" (the highest)."""
    held = [r["value"] for r in reps if r["kind"] == AT_LEAST]
    if held:
        return f"≥ {rate_text(min(held), unit)}"
    return f"< {rate_text(max(r['value'] for r in reps if r['kind'] == BELOW), unit)}"


def _range_step(detail: str, a: list[dict], b: list[dict]) -> dict:
    """The next step when a bound, not the spread, keeps the verdict undecided: no repetitions decide it, the range does."""
    return {"change_pct": CHANGE_PCT, "repetitions": None, "now": min(len(a), len(b)), "detectable_pct": None,
            "text": f"no number of repetitions decides it: {detail}"}


def _untestable(a: list[dict], b: list[dict], margin_pct: float, unit: str) -> dict | None:
    """The verdict when no test can compare the sides (too few repetitions, both bounded alike), else None."""
    out = {"verdict": FEW, "basis": None, "detail": None, "detectable_pct": None, "margin_pct": margin_pct, "next_step": None}
    if len(a) < MIN_REPEATS or len(b) < MIN_REPEATS:
        out["basis"] = out["detail"] = f"needs ≥ {MIN_REPEATS} repetitions a side (has {len(a)} and {len(b)})"
        if a and b and _kinds(a) | _kinds(b) == {BETWEEN}:  # measured capacities: their spread sizes the next step
            out["next_step"] = next_step_of([r["value"] for r in a], [r["value"] for r in b])
        return out
    ka, kb = _kinds(a), _kinds(b)
    if ka & kb & {AT_LEAST, BELOW} and ka - {BETWEEN} == kb - {BETWEEN}:
        both = "both ≥" if AT_LEAST in ka else "both <"
        out["detail"] = f"{both} the range tested ({_bound(a, unit)}, {_bound(b, unit)}); " + (
            "widen the range" if AT_LEAST in ka else "lower the range")
        out["basis"] = "capacity is a bound on both sides: no test can compare them"
        out["next_step"] = _range_step(out["detail"], a, b)
        return out
    return None


def capacity_test(a: list[dict] | None, b: list[dict] | None, *, confidence: float = 0.95) -> dict | None:
    """Welch's test of B's per-repetition capacities against A's, or None when none can be made; its "p" is corrected
    with the comparison's other tests (verdicts.compare's `also`)."""
    a, b = a or [], b or []
    if _untestable(a, b, MARGIN_PCT, "") is not None:
        return None
    return welch([r["value"] for r in a], [r["value"] for r in b], confidence=confidence)


def capacity_verdict(a: list[dict] | None, b: list[dict] | None, *, confidence: float = 0.95, margin_pct: float = MARGIN_PCT,
                     unit: str = "ops/s", p_adjusted: float | None = None) -> dict:
    """B's capacity against A's, from each side's per-repetition capacities ([{"kind", "value"}]).

    `p_adjusted`: the test's p-value once corrected with the comparison's other tests (else
    its own). Returns {"verdict", "basis", "detail", "detectable_pct", "margin_pct"}: `detail`
    is the short line a reader sees ("equivalent within ±2 %; smallest detectable change
    1.3 % …", "both ≥ 4,000 q/s; widen the range").
    """
    a, b = a or [], b or []
    untestable = _untestable(a, b, margin_pct, unit)
    if untestable is not None:
        return untestable
    out = {"verdict": FEW, "basis": None, "detail": None, "detectable_pct": None, "margin_pct": margin_pct, "next_step": None}
    ka, kb = _kinds(a), _kinds(b)
    tested = welch([r["value"] for r in a], [r["value"] for r in b], confidence=confidence)
    eq = equivalence(tested, sum(r["value"] for r in a) / len(a), margin_pct=margin_pct, confidence=confidence)
    # a bound on one side biases the measured difference one way: only the other way can be concluded
    may_be_lower = AT_LEAST in ka or BELOW in kb  # the true B − A is at most the measured one
    may_be_higher = BELOW in ka or AT_LEAST in kb  # ... at least the measured one
    power = power_text(eq["detectable_pct"], confidence)
    out.update(detectable_pct=eq["detectable_pct"])
    basis = f"Welch's t-test on {len(a)} and {len(b)} per-repetition capacities"
    significant = (tested["p"] if p_adjusted is None else p_adjusted) < 1 - confidence
    if eq["equivalent"] and not (may_be_lower or may_be_higher):
        out["verdict"] = EQUIVALENT
    elif significant and tested["diff"] > 0 and not may_be_lower:
        out["verdict"] = BETTER
    elif significant and tested["diff"] < 0 and not may_be_higher:
        out["verdict"] = WORSE
    elif may_be_lower or may_be_higher:
        side, reps = ("the reference's", a) if ka - {BETWEEN} else ("this one's", b)
        out["detail"] = f"{side} capacity is only a bound ({_bound(reps, unit)}): no difference can be shown; widen the range"
        out["basis"] = basis
        out["next_step"] = _range_step(out["detail"], a, b)
        return out
    else:
        out["verdict"] = SAME
    if out["verdict"] == EQUIVALENT:
        out["detail"] = f"equivalent within ±{margin_pct:g} %; {power}"
    elif out["verdict"] == SAME:
        out["detail"] = f"the interval is wider than ±{margin_pct:g} %; {power}"
        out["next_step"] = next_step(tested, confidence=confidence)
    else:
        out["detail"] = power
    out["basis"] = basis
    return out
