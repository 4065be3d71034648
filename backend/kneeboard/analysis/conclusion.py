"""The plain-language summary of an analysis, filled in from a fixed template.

Every figure it quotes names its metric and the rule that produced it (capacity: its criterion and where the SLO came
from; knee: its rule; zones: their latency statistic; ceiling: a bound when the top point kept up)."""

from __future__ import annotations


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


def _stability(st: dict, sp: dict | None, unit: str) -> str:
    if st["verdict"] == "insufficient data":
        s = "Stability over time could not be judged (fewer than 6 interval samples of the long point)"
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
    return s + "."


def _bottleneck(evidence: dict, unit: str) -> str:
    """The server evidence's bottleneck (kneeboard.evidence.assess), where it was judged, or why none is named."""
    found, at = evidence.get("bottleneck"), evidence.get("at") or {}
    if not found:
        return f"Bottleneck: {evidence.get('missing') or 'no server evidence'}."
    where = at.get("where", "")
    load = f", {at['offered_rate']:,.0f} {unit} offered" if at.get("offered_rate") is not None else ""
    also = f" Also over its threshold: {'; '.join(found['evidence'])}." if found["resource"] and found.get("evidence") else ""
    return f"Bottleneck ({where}{load}): {found['text']}.{also}"


def conclusion(
    result: dict,
    *,
    baseline_ms: float | None = None,
    min_efficiency: float = 0.95,
    green_ms: float = 1.0,
    yellow_ms: float = 3.0,
    stability_point: dict | None = None,
    max_load: float | None = None,
    unit: str = "ops/s",
    searched: list[dict] | None = None,
    load_axis: str = "offered",
) -> str:
    """One English paragraph: the loads the generator did not send, the bottleneck the server's metrics name, the search's capacities when it ran one, then capacity at SLO, ceiling, knee, zones,
    USL, requests in flight, stability and oscillation, each naming its metric and rule.

    `result` has the keys of :func:`kneeboard.analysis.analyse` (without "conclusion"); `searched` the search's
    capacities (:func:`kneeboard.analysis.searched.search_capacities`); `load_axis` what the sweep's loads are ("offered",
    or "achieved" for a closed-loop sweep). A missing figure drops or replaces its sentence.
    """
    parts: list[str] = []
    if left_out := result.get("generator_limited") or []:
        parts.append(_not_sent(left_out, unit))
    if evidence := result.get("evidence"):
        parts.append(_bottleneck(evidence, unit))
    if searched:
        parts.append(_searched(searched, unit))
    capacity = result.get("capacity")
    if capacity and capacity.get("statement"):
        parts.append(_capacity(capacity))
    parts.append(_ceiling(result.get("ceiling"), unit))
    if (knee := _knee(result.get("knee"), unit, max_load, load_axis)) is not None:
        parts.append(knee)
    if zones := result.get("zones") or []:
        parts.append(_zones(zones, green_ms, yellow_ms, unit, load_axis))
    if usl := result.get("usl"):
        parts.append(_usl(usl, unit))
    if (inflight := result.get("requests_in_flight")) and (text := _in_flight(inflight, result.get("ceiling"), unit)):
        parts.append(text)
    if st := result.get("stability"):
        parts.append(_stability(st, stability_point, unit))
    if osc := result.get("oscillation") or []:
        rates = ", ".join(f"{r:,.0f}" for r in osc)
        parts.append(f"The achieved rate dipped while the offered load rose at {rates} {unit} offered: oscillation near saturation.")
    return " ".join(parts)
