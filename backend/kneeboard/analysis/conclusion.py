"""The plain-language summary of an analysis, filled in from a fixed template."""

from __future__ import annotations


_LATENCY = {"latency_avg_ms": "mean latency", "latency_p50_ms": "p50", "latency_p90_ms": "p90", "latency_p99_ms": "p99",
            "latency_p999_ms": "p99.9"}
_SI = ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"))


def rate_text(x: float, unit: str) -> str:
    """A rate in its unit; bit/s with an SI prefix (22.9 Gbit/s, not 22,851,029,000 bit/s)."""
    if unit == "bit/s":
        scale, prefix = next(((s, p) for s, p in _SI if abs(x) >= s), (1.0, ""))
        return f"{x / scale:,.3g} {prefix}bit/s"
    return f"{x:,.0f} {unit}"


def _ms(x: float) -> str:
    return f"{x:.2f} ms"


def conclusion(
    result: dict,
    *,
    baseline_ms: float | None = None,
    k: float = 2.0,
    min_efficiency: float = 0.95,
    green_ms: float = 1.0,
    yellow_ms: float = 3.0,
    stability_point: dict | None = None,
    max_load: float | None = None,
    unit: str = "ops/s",
) -> str:
    """One English paragraph stating ceiling, knee, zones, USL peak, Little's law, stability.

    `result` has the keys of :func:`kneeboard.analysis.analyse` (without "conclusion").
    Every sentence comes from a template; a missing figure drops or replaces its sentence.
    """
    parts: list[str] = []
    capacity = result.get("capacity")
    if capacity and capacity.get("statement"):
        parts.append(f"Capacity at {_LATENCY.get(capacity['metric'], capacity['metric'])} ≤ {capacity['limit_ms']:g} ms: "
                     f"{capacity['statement']}.")
    ceiling = result.get("ceiling")
    if ceiling:
        parts.append(f"The system's ceiling is {rate_text(ceiling['achieved_rate'], unit)}, the highest rate achieved.")
    else:
        parts.append("No completed point measured an achieved rate, so there is no ceiling.")

    knee = result.get("knee")
    rule = f"within {k:g}× the {_ms(baseline_ms)} baseline latency" if baseline_ms else f"within {k:g}× the baseline latency"
    if knee:
        s = (
            f"The knee is at {rate_text(knee['offered_rate'], unit)} offered "
            f"({rate_text(knee['achieved_rate'], unit)} achieved at {_ms(knee['latency_avg_ms'])}): "
            f"the highest load whose latency stays {rule} at ≥ {min_efficiency * 100:g} % efficiency"
        )
        if max_load is not None and knee["offered_rate"] >= max_load:
            s += "; it is also the highest load measured, so the real knee lies beyond the sweep"
        parts.append(s + ".")
    elif baseline_ms is not None:
        parts.append(f"No load of the sweep kept latency {rule} at ≥ {min_efficiency * 100:g} % efficiency, so no knee was found.")

    zones = result.get("zones") or []
    if zones:
        label = {
            "green": f"green (latency < {green_ms:g} ms)",
            "yellow": f"yellow ({green_ms:g}–{yellow_ms:g} ms)",
            "red": f"red (≥ {yellow_ms:g} ms)",
        }
        spans = [
            f"{label[z['zone']]} {z['from_rate']:,.0f}–{z['to_rate']:,.0f} {unit}" for z in zones
        ]
        green = next((z for z in zones if z["zone"] == "green"), None)
        s = "Operating ranges by latency: " + "; ".join(spans) + "."
        if green:
            s += f" Recommended: stay below about {rate_text(green['to_rate'], unit)}"
            yellow = next((z for z in zones if z["zone"] == "yellow"), None)
            if yellow:
                s += f", and treat {yellow['from_rate']:,.0f}–{yellow['to_rate']:,.0f} {unit} as a warning band"
            s += "."
        parts.append(s)

    usl = result.get("usl")
    if usl and usl.get("sigma") is not None:
        r2 = f", R² {usl['r2']:.2f}" if usl.get("r2") is not None else ""
        s = f"The Universal Scalability Law fit (σ {usl['sigma']:.3g}, κ {usl['kappa']:.3g}{r2})"
        if usl.get("peak_concurrency") is not None and usl.get("peak_rate") is not None:
            s += (
                f" predicts a peak of {rate_text(usl['peak_rate'], unit)} at concurrency "
                f"{usl['peak_concurrency']:.1f}."
            )
        elif usl.get("peak_rate") is not None:
            s += f" finds no retrograde region; throughput levels off towards {rate_text(usl['peak_rate'], unit)}."
        else:
            s += " predicts no limit within the model."
        parts.append(s)
    elif usl:
        parts.append(usl["note"])

    if result.get("optimal_concurrency") is not None:
        parts.append(
            f"By Little's law (ceiling × baseline latency) about {result['optimal_concurrency']:.1f} "
            "requests in flight already reach the ceiling; more concurrency only adds queueing."
        )

    st = result.get("stability")
    if st:
        if st["verdict"] == "insufficient data":
            s = "Stability over time could not be judged (fewer than 6 interval samples of the long point)"
        else:
            s = f"The long stability run is {st['verdict']}"
            drifts = []
            if st.get("rate_drift_pct") is not None:
                drifts.append(f"rate {st['rate_drift_pct']:+.1f} %")
            if st.get("latency_drift_pct") is not None:
                drifts.append(f"latency {st['latency_drift_pct']:+.1f} %")
            if drifts:
                s += " (last third against first: " + ", ".join(drifts) + ")"
        sp = stability_point
        if sp and sp.get("achieved_rate") is not None and sp.get("offered_rate"):
            lat = f" at {_ms(sp['latency_avg_ms'])}" if sp.get("latency_avg_ms") is not None else ""
            s += (
                f"; overall it delivered {rate_text(sp['achieved_rate'], unit)} of "
                f"{rate_text(sp['offered_rate'], unit)} offered "
                f"({sp['achieved_rate'] / sp['offered_rate'] * 100:.1f} %){lat}"
            )
        parts.append(s + ".")

    osc = result.get("oscillation") or []
    if osc:
        rates = ", ".join(f"{r:,.0f}" for r in osc)
        parts.append(
            f"Throughput dipped while the offered load rose at {rates} {unit}: oscillation near saturation."
        )
    return " ".join(parts)
