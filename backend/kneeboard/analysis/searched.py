"""A campaign's search results as figures: one capacity per criterion, the mean over the search's repetitions with
its interval, so the report, the comparison, the conclusion and the exports quote the same number. Pure."""

from __future__ import annotations

from collections.abc import Sequence

from .capacity import AT_LEAST, BELOW, BETWEEN
from .conclusion import criterion_text, rate_text
from .repeats import bootstrap_ci


def _statement(kind: str, value: float, repeats: int, ci: tuple[float | None, float | None], unit: str) -> str:
    if kind == AT_LEAST:
        return f"≥ {rate_text(value, unit)} — the criterion held at every load tried"
    if kind == BELOW:
        return f"< {rate_text(value, unit)} — the criterion broke at the lowest load tried"
    if repeats > 1 and ci[0] is not None:
        return f"{rate_text(value, unit)} [{rate_text(ci[0], unit)}–{rate_text(ci[1], unit)}], mean of {repeats} repetitions"
    return rate_text(value, unit)


def search_capacities(searches: Sequence[dict] | None, unit: str = "ops/s", *, variant: str | None = None,
                      first_variant: bool = True) -> list[dict]:
    """Per criterion of the first finished search phase (of `variant`, else of the first variant searched when
    `first_variant`): {"criterion", "label", "metric", "limit", "kind", "value", "ci_low", "ci_high", "repeats", "per_repeat",
    "resolution_pct", "statement"}.

    `value` is the mean of the repetitions' capacities with a bootstrap interval (two or more repetitions); `kind` is a
    bound ("at_least", "below") when any repetition's is. Empty when no search finished.
    """
    done = [s for s in searches or () if s.get("done") and s.get("criteria")]
    if variant is not None or not first_variant:
        done = [s for s in done if s.get("variant") == variant]
    if not done:
        return []
    phase = min(s["phase_index"] for s in done)
    chosen = next(s.get("variant") for s in sorted(done, key=lambda s: s.get("variant") is not None) if s["phase_index"] == phase)
    runs = sorted((s for s in done if s["phase_index"] == phase and s.get("variant") == chosen), key=lambda s: s["repeat"])
    out = []
    for i, criterion in enumerate(runs[0]["criteria"]):
        found = [(s["repeat"], s["criteria"][i]) for s in runs if len(s["criteria"]) > i]
        per_repeat = [{"repeat": rep, "kind": c["kind"], "value": c["value"]} for rep, c in found]
        kinds = {r["kind"] for r in per_repeat}
        kind = next((k for k in (AT_LEAST, BELOW) if k in kinds), BETWEEN)
        ci = bootstrap_ci([r["value"] for r in per_repeat])
        low, high = (ci["ci_low"], ci["ci_high"]) if kind == BETWEEN else (None, None)
        if kind == BETWEEN and len(per_repeat) == 1:  # one run: the search's own bracket is the interval
            low, high = criterion.get("low"), criterion.get("high")
        out.append({"criterion": criterion["criterion"], "label": criterion_text(criterion["metric"], criterion["limit"]), "metric": criterion["metric"], "limit": criterion["limit"], "kind": kind,
                    "value": ci["mean"], "ci_low": low, "ci_high": high, "repeats": len(per_repeat), "per_repeat": per_repeat,
                    "resolution_pct": criterion.get("resolution_pct"), "variant": chosen,
                    "statement": _statement(kind, ci["mean"], len(per_repeat), (low, high), unit)})  # fmt: skip
    return out
