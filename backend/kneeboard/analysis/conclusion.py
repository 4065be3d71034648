"""The plain-language summary of an analysis, filled in from a fixed template, read at a glance: a headline of two or
three sentences (where it is fine, where it breaks, what limits it, with the numbers) and the detail in sections.

Every figure it quotes names its metric and the rule that produced it (capacity: its criterion and where the SLO came
from; knee: its rule; zones: their latency statistic; ceiling: a bound when the top point kept up). The statements
themselves are the analyses' own (knee, ceiling, stability, evidence): this module only arranges them, and says no
phrase twice in a row (:func:`dedupe`)."""

from __future__ import annotations

import re


_LATENCY = {"latency_avg_ms": "mean latency", "latency_p50_ms": "p50 latency", "latency_p90_ms": "p90 latency",
            "latency_p99_ms": "p99 latency", "latency_p999_ms": "p99.9 latency"}
_SI = ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))
SLO_SOURCES = {"plan": "the plan's SLO", "settings": "the SLO set in the analysis settings",
               "default": "a default SLO: the plan sets none"}


def rate_text(x: float, unit: str) -> str:
    """A rate in its unit; bit/s with an SI prefix (22.9 Gbit/s, not 22,851,029,000 bit/s)."""
    if unit == "bit/s":
        scale, prefix = next(((s, p) for s, p in _SI if abs(x) >= s), (1.0, ""))
        return f"{x / scale:,.3g} {prefix}bit/s"
    return f"{x:,.0f} {unit}"


def metric_name(metric: str) -> str:
    """A metric as a reader says it: "p99 latency", "mean latency", "loss", "efficiency"."""
    return _LATENCY.get(metric) or {"loss_pct": "loss", "efficiency_pct": "efficiency"}.get(metric, metric)


def criterion_text(metric: str, limit: float) -> str:
    """A limit as a reader says it: "p99 latency ≤ 10 ms", "loss ≤ 1 %", "efficiency ≥ 95 %"."""
    if metric == "efficiency_pct":
        return f"efficiency ≥ {limit:g} %"
    unit = " %" if metric.endswith("_pct") else " ms" if metric.endswith("_ms") else ""
    return f"{metric_name(metric)} ≤ {limit:g}{unit}"


def _ms(x: float) -> str:
    return f"{x:.2f} ms"


def _searched(searched: list[dict], unit: str) -> str:
    runs = searched[0]["repeats"]
    how = f"the mean of {runs} repetitions" if runs > 1 else "one run"
    parts = [f"capacity at {criterion_text(s['metric'], s['limit'])}: {s['statement']}" for s in searched]
    return f"The capacity search found ({how}, each criterion searched alone) " + "; ".join(parts) + "."


def _not_sent(left_out: list[dict], unit: str) -> str:
    loads = ", ".join(f"{rate_text(p['offered_rate'], unit)} offered ({p['sent_pct']:g} % sent, {p['cause']})"
                      for p in left_out if p.get("offered_rate") is not None)
    return (f"The load generator did not send {len(left_out)} load(s), left out of every figure below: {loads}; "
            f"to measure the server there, {left_out[-1]['suggestion']}.")


def _capacity(capacity: dict) -> str:
    source = SLO_SOURCES.get(capacity.get("slo_source") or "default", SLO_SOURCES["default"])
    eff = capacity.get("min_efficiency")
    rule = f" at ≥ {eff * 100:g} % efficiency" if eff is not None else ""
    return (f"Capacity at {criterion_text(capacity['metric'], capacity['limit_ms'])} ({source}; the highest load of the sweep "
            f"keeping it{rule}): {capacity['statement']}.")


def _ceiling(ceiling: dict | None, unit: str) -> str:
    if not ceiling:
        return "No completed point measured an achieved rate, so there is no ceiling."
    if ceiling.get("statement"):  # the ceiling's own reading: measured (with the loads past it) or a lower bound, and why
        return f"Ceiling (highest mean achieved rate of any load): {ceiling['statement']}."
    if ceiling.get("bound"):
        return (f"Ceiling (highest mean achieved rate): ≥ {rate_text(ceiling['achieved_rate'], unit)}, a lower bound: "
                "the point that achieved it still kept up with its offered load, so the system's limit lies above.")
    return f"Ceiling (highest mean achieved rate of any load): {rate_text(ceiling['achieved_rate'], unit)}."


def _knee(knee: dict | None, unit: str, max_load: float | None, axis: str) -> str | None:
    if not knee:
        if max_load is None:
            return None
        if axis == "achieved":
            return (f"No knee: mean latency stayed on its plateau up to {rate_text(max_load, unit)} achieved, the top of the "
                    "sweep; the knee lies beyond it.")
        return (f"No knee: mean latency stayed on its plateau and the achieved rate followed the offered load up to "
                f"{rate_text(max_load, unit)} offered, the top of the sweep; the knee lies beyond it.")
    lat = f" at {_ms(knee['latency_avg_ms'])} mean latency" if knee.get("latency_avg_ms") is not None else ""
    rule = knee.get("rule_text") or knee.get("rule")
    if knee.get("load_axis") == "achieved":  # a closed-loop sweep: no offered rate
        at = f" at concurrency {knee['concurrency']}" if knee.get("concurrency") is not None else ""
        return f"Knee ({rule}): {rate_text(knee['achieved_rate'], unit)} achieved{at}{lat}; {knee.get('why')}."
    achieved = f" ({rate_text(knee['achieved_rate'], unit)} achieved{lat})" if knee.get("achieved_rate") is not None else ""
    s = f"Knee ({rule}): {rate_text(knee['offered_rate'], unit)} offered{achieved}"
    if max_load is not None and knee["offered_rate"] >= max_load:
        s += "; it is also the highest load measured, so the real knee may lie beyond the sweep"
    return s + (f"; {knee['why']}." if knee.get("why") else ".")


def _zones(zones: list[dict], green_ms: float, yellow_ms: float, unit: str, axis: str) -> str:
    label = {
        "green": f"green (mean latency < {green_ms:g} ms)",
        "yellow": f"yellow ({green_ms:g}–{yellow_ms:g} ms)",
        "red": f"red (≥ {yellow_ms:g} ms)",
    }
    spans = [f"{label[z['zone']]} {z['from_rate']:,.0f}–{z['to_rate']:,.0f} {unit} {axis}" for z in zones]
    s = "Operating ranges by mean latency: " + "; ".join(spans) + "."
    green = next((z for z in zones if z["zone"] == "green"), None)
    if green:
        s += f" For mean latency under {green_ms:g} ms stay below about {rate_text(green['to_rate'], unit)} {axis}"
        yellow = next((z for z in zones if z["zone"] == "yellow"), None)
        if yellow:
            s += f", and treat {yellow['from_rate']:,.0f}–{yellow['to_rate']:,.0f} {unit} {axis} as a warning band"
        s += "."
    return s


def _usl(usl: dict, unit: str) -> str:
    if usl.get("sigma") is None:
        return usl["note"]
    r2 = f", R² {usl['r2']:.2f}" if usl.get("r2") is not None else ""
    s = f"The Universal Scalability Law fit of throughput against concurrency (σ {usl['sigma']:.3g}, κ {usl['kappa']:.3g}{r2})"
    if usl.get("peak_concurrency") is not None and usl.get("peak_rate") is not None:
        return s + f" predicts a peak throughput of {rate_text(usl['peak_rate'], unit)} at concurrency {usl['peak_concurrency']:.1f}."
    if usl.get("peak_rate") is not None:
        return s + f" finds no retrograde region; throughput levels off towards {rate_text(usl['peak_rate'], unit)}."
    return s + " predicts no limit within the model."


def _in_flight(inflight: dict, ceiling: dict | None, unit: str) -> str | None:
    parts = []
    if inflight.get("at_ceiling") is not None and ceiling:
        parts.append(f"reaching the ceiling of {rate_text(ceiling['achieved_rate'], unit)} at the {_ms(inflight['baseline_ms'])} "
                     f"baseline mean latency takes about {inflight['at_ceiling']:.1f} requests in flight")
    if inflight.get("at_knee") is not None:
        parts.append(f"at the knee {inflight['at_knee']:.1f} were in flight (its achieved rate × its mean latency)")
    if not parts:
        return None
    return ("By Little's law (requests in flight = throughput × latency), " + "; ".join(parts)
            + ". These count requests, not the load tool's clients or connections.")


def _stability(st: dict, sp: dict | None, unit: str, result: dict) -> str:
    if st["verdict"] == "insufficient data":
        s = "Stability over time could not be judged (fewer than 6 interval samples of the long point)"
    elif st.get("statement"):  # the stability's own reading: the verdict with what drifted
        s = f"The long stability run is {st['statement']}"
    else:
        s = f"The long stability run is {st['verdict']}"
        drifts = []
        if st.get("rate_drift_pct") is not None:
            drifts.append(f"achieved rate {st['rate_drift_pct']:+.1f} %")
        if st.get("latency_drift_pct") is not None:
            drifts.append(f"{metric_name(st.get('latency_metric') or 'latency_avg_ms')} {st['latency_drift_pct']:+.1f} %")
        if drifts:
            s += " (last third against first: " + ", ".join(drifts) + ")"
    if sp and sp.get("achieved_rate") is not None and sp.get("offered_rate"):
        lat = f" at {_ms(sp['latency_avg_ms'])} mean latency" if sp.get("latency_avg_ms") is not None else ""
        s += (f"; overall it achieved {rate_text(sp['achieved_rate'], unit)} of {rate_text(sp['offered_rate'], unit)} offered "
              f"({sp['achieved_rate'] / sp['offered_rate'] * 100:.1f} % efficiency){lat}")
    if sp and sp.get("rate_from"):
        s += f"; its rate, chosen in the same run, was {sp['rate_from']}" + _read_again(sp.get("rate_found"), result, unit)
    return s + "."


def _read_again(found: dict | None, result: dict, unit: str) -> str:
    """Said when the report's own knee or ceiling, read from every phase's points, is not the figure a derived load
    was resolved from (what its phase alone had found when the derived phase started): a busy host moves it."""
    if not found or found.get("of") not in {"knee", "ceiling"} or not (figure := result.get(found["of"])):
        return ""
    now = figure["offered_rate"] if found["of"] == "knee" else figure["achieved_rate"]
    if now is None or abs(now - found["value"]) <= 0.01 * found["value"]:
        return ""
    return (f" (the {found['of']} this report names, {rate_text(now, unit)}, is read from every phase's points, the later "
            f"ones included; {rate_text(found['value'], unit)} is what phase {found['phase']!r} alone had found when this one started)")


def _bottleneck(evidence: dict, unit: str) -> str:
    """The server evidence's bottleneck (kneeboard.evidence.assess), where it was judged, or why none is named."""
    found, at = evidence.get("bottleneck"), evidence.get("at") or {}
    if not found:
        return f"Bottleneck: {evidence.get('missing') or 'no server evidence'}."
    where = at.get("where", "")
    load = f", {at['offered_rate']:,.0f} {unit} offered" if at.get("offered_rate") is not None else ""
    also = f" Also over its threshold: {'; '.join(found['evidence'])}." if found["resource"] and found.get("evidence") else ""
    return f"Bottleneck ({where}{load}): {found['text']}.{also}"


SECTIONS = {"generator": "Loads not sent", "bottleneck": "Bottleneck", "searched": "Capacity found by the search",
            "capacity": "Capacity at SLO", "ceiling": "Ceiling", "knee": "Knee", "zones": "Operating ranges",
            "usl": "Scalability (USL)", "in_flight": "Requests in flight", "stability": "Stability", "oscillation": "Oscillation"}
_REPEATED = re.compile(r"(?i)\b([^\W\d][^:;,.()]{2,}?)(\s*[:;,]\s+)\1(?=\s*[:;,.]|\s*$)")


def dedupe(text: str) -> str:
    """A text without a phrase said twice in a row ("No bottleneck named: no bottleneck named: x" → "No bottleneck named: x"):
    a phrase followed by a colon, semicolon or comma and then by itself again (case aside) is kept once."""
    while (shorter := _REPEATED.sub(lambda m: m.group(1), text)) != text:
        text = shorter
    return text


def split_outside_parentheses(text: str, sep: str) -> list[str]:
    """`text` split at `sep` outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and text.startswith(sep, i):
            parts.append(text[start:i])
            start = i + len(sep)
    return [*parts, text[start:]]


def _bare(text: str) -> str:
    """`text` without its parenthesised asides (the detail a section gives in full)."""
    out, depth = [], 0
    for ch in text:
        depth += ch == "("
        if depth == 0:
            out.append(ch)
        depth -= ch == ")" and depth > 0
    return re.sub(r"\s+([,;:.])", r"\1", re.sub(r"\s{2,}", " ", "".join(out))).strip()


def _short(text: str, keep: int = 1) -> str:
    """A statement for the headline: its first `keep` clauses (split at top-level semicolons) as they are, the rest bare."""
    clauses = [c.strip() for c in split_outside_parentheses(text.rstrip(". "), "; ")]
    return "; ".join(clauses[:keep] + [_bare(c) for c in clauses[keep:] if _bare(c)])


def _sentence(text: str) -> str:
    text = dedupe(text.strip())
    return (text[:1].upper() + text[1:]).rstrip(".") + "." if text else ""


def _fine(result: dict, green_ms: float, unit: str, axis: str, searched: list[dict] | None) -> str | None:
    """Where it is fine: below the green zone's end, and the capacity at the SLO (or the search's first criterion)."""
    green = next((z for z in result.get("zones") or [] if z["zone"] == "green"), None)
    others = [z for z in result.get("zones") or [] if z["zone"] != "green"]
    parts = []
    if green and not others:
        parts.append(f"mean latency stays under {green_ms:g} ms across the sweep, up to {rate_text(green['to_rate'], unit)} {axis}")
    elif green:
        parts.append(f"mean latency stays under {green_ms:g} ms up to about {rate_text(green['to_rate'], unit)} {axis}")
    if searched:
        parts.append(f"capacity at {criterion_text(searched[0]['metric'], searched[0]['limit'])} (the search): {searched[0]['statement']}")
    elif (capacity := result.get("capacity")) and capacity.get("statement"):
        source = {"plan": "the plan's SLO", "settings": "the analysis settings' SLO"}.get(capacity.get("slo_source") or "", "a default SLO")
        parts.append(f"capacity at {criterion_text(capacity['metric'], capacity['limit_ms'])} ({source}): {capacity['statement']}")
    return "; ".join(parts) or None


def _breaks(result: dict, unit: str, max_load: float | None, axis: str) -> str | None:
    """Where it breaks: the knee (its rule's crossing, bare) and the ceiling (its statement, bare)."""
    knee, top = result.get("knee"), result.get("ceiling")
    parts = []
    if knee:
        why = f": {_bare(split_outside_parentheses(knee['why'], '; ')[0])}" if knee.get("why") else ""
        parts.append(f"it breaks at the knee, {rate_text(knee['offered_rate'], unit)} {knee.get('load_axis') or axis}{why}")
    elif max_load is not None:
        parts.append(f"no knee up to {rate_text(max_load, unit)} {axis}, the top of the sweep")
    if top:
        said = top.get("statement") or (f"≥ {rate_text(top['achieved_rate'], unit)}, a lower bound" if top.get("bound")
                                         else rate_text(top["achieved_rate"], unit))  # fmt: skip
        parts.append(f"its ceiling (highest mean achieved rate) is {_bare(said)}")
    return "; ".join(parts) or None


def _limits(result: dict, unit: str) -> str | None:
    """What limits it: the bottleneck's statement (its first clause in full, the rest bare), or why none is named; and
    the loads the generator did not send."""
    evidence, parts = result.get("evidence") or {}, []
    found = evidence.get("bottleneck")
    if found and found.get("resource"):
        parts.append(f"what limits it: {_short(found['text'])}")
    elif found or evidence.get("missing"):
        parts.append(f"what limits it is not named: {_short(found['text'] if found else evidence['missing'])}")
    if left_out := result.get("generator_limited") or []:
        loads = ", ".join(rate_text(p["offered_rate"], unit) for p in left_out if p.get("offered_rate") is not None)
        parts.append(f"the load generator did not send {len(left_out)} load(s){f' ({loads} offered)' if loads else ''}, "
                     "left out of these figures")
    return "; ".join(parts) or None


def headline(result: dict, *, green_ms: float = 1.0, max_load: float | None = None, unit: str = "ops/s",
             searched: list[dict] | None = None, load_axis: str = "offered") -> str:
    """Two or three sentences with the numbers: where it is fine, where it breaks, what limits it (each left out when
    the analysis has nothing to say of it)."""
    said = [_fine(result, green_ms, unit, load_axis, searched), _breaks(result, unit, max_load, load_axis), _limits(result, unit)]
    return " ".join(_sentence(s) for s in said if s)


def sections(
    result: dict,
    *,
    min_efficiency: float = 0.95,
    green_ms: float = 1.0,
    yellow_ms: float = 3.0,
    stability_point: dict | None = None,
    max_load: float | None = None,
    unit: str = "ops/s",
    searched: list[dict] | None = None,
    load_axis: str = "offered",
) -> list[dict]:
    """The detail, a section each: the loads the generator did not send, the bottleneck the server's metrics name, the
    search's capacities when it ran one, then capacity at SLO, ceiling, knee, zones, USL, requests in flight, stability
    and oscillation, each naming its metric and rule. [{"key", "title", "text"}]; a missing figure drops or replaces its section."""
    found: list[tuple[str, str]] = []
    if left_out := result.get("generator_limited") or []:
        found.append(("generator", _not_sent(left_out, unit)))
    if evidence := result.get("evidence"):
        found.append(("bottleneck", _bottleneck(evidence, unit)))
    if searched:
        found.append(("searched", _searched(searched, unit)))
    capacity = result.get("capacity")
    if capacity and capacity.get("statement"):
        found.append(("capacity", _capacity(capacity)))
    found.append(("ceiling", _ceiling(result.get("ceiling"), unit)))
    if (knee := _knee(result.get("knee"), unit, max_load, load_axis)) is not None:
        found.append(("knee", knee))
    if zones := result.get("zones") or []:
        found.append(("zones", _zones(zones, green_ms, yellow_ms, unit, load_axis)))
    if usl := result.get("usl"):
        found.append(("usl", _usl(usl, unit)))
    if (inflight := result.get("requests_in_flight")) and (text := _in_flight(inflight, result.get("ceiling"), unit)):
        found.append(("in_flight", text))
    if st := result.get("stability"):
        found.append(("stability", _stability(st, stability_point, unit, result)))
    if osc := result.get("oscillation") or []:
        rates = ", ".join(f"{r:,.0f}" for r in osc)
        found.append(("oscillation", f"The achieved rate dipped while the offered load rose at {rates} {unit} offered: oscillation near saturation."))
    return [{"key": key, "title": SECTIONS[key], "text": dedupe(text)} for key, text in found]


def conclude(result: dict, *, baseline_ms: float | None = None, **how) -> dict:
    """The analysis read at a glance: {"headline": :func:`headline`, "sections": :func:`sections`, "conclusion": the
    sections' texts as one paragraph (the key analyses had before headlines)}. `how`: :func:`sections`' keywords."""
    del baseline_ms  # the baseline is read from the analysis' own figures
    parts = sections(result, **how)
    lead = headline(result, **{k: how[k] for k in ("green_ms", "max_load", "unit", "searched", "load_axis") if k in how})
    return {"headline": lead, "sections": parts, "conclusion": " ".join(p["text"] for p in parts)}


def conclusion(result: dict, **how) -> str:
    """One English paragraph: every section's text in order (:func:`sections`); `result` has the keys of
    :func:`kneeboard.report.analyse` (without "conclusion"), `how` the keywords of :func:`conclude`."""
    return conclude(result, **how)["conclusion"]
