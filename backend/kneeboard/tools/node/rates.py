"""The node monitor's counters → rates: per-CPU shares, per-NIC and softnet rates per second. Pure.

Each pair of successive successful scrapes gives one interval, stamped with the later scrape's
time (as mpstat stamps the end of its interval). A counter that went down (exporter restarted,
host rebooted, CPU hot-plugged) gives no value for that interval; a CPU or device missing from
either scrape gives none either; the first scrape only opens the first interval.
"""

from __future__ import annotations

from typing import Any

from kneeboard.tools import units
from kneeboard.tools.base import Sample
from kneeboard.tools.exporter import series

CPU_FIELDS = {"usr": "user", "sys": "system", "irq": "irq", "soft": "softirq", "idle": "idle",
              "iowait": "iowait", "steal": "steal"}  # our field (mpstat's name) → node_exporter's mode
NET_FIELDS = {"rx_pps": "rx_packets", "tx_pps": "tx_packets", "rx_drop_ps": "rx_drop", "tx_drop_ps": "tx_drop"}
SOFTNET_FIELDS = {"processed_ps": "processed", "dropped_ps": "dropped", "squeezed_ps": "squeezed"}
MAX_DEVICES = 32  # a host with hundreds of container veths would drown the point in series
MAX_SERIES_NAME = 60  # the samples table's series column


def read_lines(stdout: str) -> tuple[list[dict[str, Any]], list[str]]:
    """The scraper's lines → (successful scrapes in time order, error messages)."""
    return series.read_lines(stdout, payload="cpu")


def interval_samples(before: dict[str, Any], after: dict[str, Any]) -> list[Sample]:
    """One interval's samples: node.cpuN (% of the CPU's time), node.net.DEV and node.softnet.cpuN (per second)."""
    t, elapsed = float(after["t"]), float(after["t"]) - float(before["t"])
    if elapsed <= 0:
        return []
    samples = []
    for cpu, now in _common(before.get("cpu"), after.get("cpu")):
        shares = cpu_shares(before["cpu"][cpu], now)
        if shares is not None:
            samples.append(Sample(t=t, values=shares, series=f"node.cpu{cpu}"))
    for device, now in _common(before.get("net"), after.get("net"))[:MAX_DEVICES]:
        rates = per_second(before["net"][device], now, elapsed, NET_FIELDS)
        if rates is not None and len(f"node.net.{device}") <= MAX_SERIES_NAME:
            samples.append(Sample(t=t, values=rates, series=f"node.net.{device}"))
    for cpu, now in _common(before.get("softnet"), after.get("softnet")):
        rates = per_second(before["softnet"][cpu], now, elapsed, SOFTNET_FIELDS)
        if rates is not None:
            samples.append(Sample(t=t, values=rates, series=f"node.softnet.cpu{cpu}"))
    return samples


def cpu_shares(before: dict[str, float], after: dict[str, float]) -> dict[str, float | None] | None:
    """Each mode's share of the CPU's time over the interval, in %; None after a counter reset.

    The denominator is the CPU's own total (all modes), as mpstat does, not the wall time between
    scrapes: the scrape's own delay (a busy exporter, a slow network) would otherwise skew every share.
    """
    deltas = {mode: after[mode] - before[mode] for mode in after if mode in before
              and units.is_number(after[mode]) and units.is_number(before[mode])}
    total = sum(deltas.values())
    if not deltas or total <= 0 or any(d < 0 for d in deltas.values()):
        return None
    return {field: (100.0 * deltas[mode] / total if mode in deltas else None) for field, mode in CPU_FIELDS.items()}


def per_second(before: dict[str, float], after: dict[str, float], elapsed: float,
               fields: dict[str, str]) -> dict[str, float | None] | None:
    """Counter deltas per second under our field names; None when any counter went down (a reset)."""
    values: dict[str, float | None] = {}
    for field, counter in fields.items():
        old, new = before.get(counter), after.get(counter)
        if not (units.is_number(old) and units.is_number(new)):
            values[field] = None
        elif new < old:
            return None
        else:
            values[field] = (new - old) / elapsed
    return values if any(v is not None for v in values.values()) else None


def all_samples(scrapes: list[dict[str, Any]]) -> list[Sample]:
    """Every interval's samples, from successive scrapes."""
    return [s for before, after in zip(scrapes, scrapes[1:]) for s in interval_samples(before, after)]


def summarise(samples: list[Sample], since: float) -> dict[str, Any]:
    """Mean % per CPU of every mode (mean_pct_by_cpu; %soft alone as soft_mean_pct_by_cpu) and softnet drops/squeezes
    over the samples stamped after `since` (the steady window)."""
    steady = [s for s in samples if s.t > since] or samples
    modes: dict[str, dict[str, list[float]]] = {}
    for s in steady:
        if s.series.startswith("node.cpu"):
            cpu = modes.setdefault(s.series.removeprefix("node.cpu"), {})
            for field, value in s.values.items():
                if value is not None:
                    cpu.setdefault(field, []).append(value)
    by_cpu = {cpu: {f: sum(v) / len(v) for f, v in fields.items()} for cpu, fields in sorted(modes.items(), key=lambda kv: _cpu_order(kv[0]))}
    means = {cpu: fields["soft"] for cpu, fields in by_cpu.items() if "soft" in fields}
    softnet = [s.values for s in steady if s.series.startswith("node.softnet.")]
    intervals = len({s.t for s in steady})
    return {
        "soft_mean_pct_by_cpu": means,
        "mean_pct_by_cpu": by_cpu,
        "busiest_cpu_soft_mean_pct": max(means.values()) if means else None,
        "softnet_dropped_ps_mean": _mean_of_sums(softnet, "dropped_ps", intervals),
        "softnet_squeezed_ps_mean": _mean_of_sums(softnet, "squeezed_ps", intervals),
        "steady_intervals": intervals,
    }


def _common(before: Any, after: Any) -> list[tuple[str, dict[str, float]]]:
    """Keys present in both scrapes (a CPU or device missing from either gives no value), in a stable order."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    keys = sorted((k for k in after if k in before and isinstance(after[k], dict) and isinstance(before[k], dict)),
                  key=_cpu_order)
    return [(k, after[k]) for k in keys]


def _cpu_order(key: str) -> tuple[int, str]:
    return (int(key), "") if key.isdigit() else (1 << 30, key)


def _mean_of_sums(values: list[dict[str, float | None]], field: str, intervals: int) -> float | None:
    """Σ over CPUs, averaged over the intervals (drops per second on the whole host)."""
    present = [v[field] for v in values if v.get(field) is not None]
    return sum(present) / intervals if present and intervals else None
