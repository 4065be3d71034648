"""Splitting one point into per-agent shares. Pure: no I/O."""

from __future__ import annotations

from dataclasses import replace

from kneeboard.tools.base import PointSpec, ToolInputError
from kneeboard.tools.devsim.params import DevsimParams

DEVICES_PER_PROC = 16_000  # one connection each; under a 20,000 open-file hard limit with room for the rest
MAX_PROCS = next(m.le for m in DevsimParams.model_fields["procs"].metadata if hasattr(m, "le"))


def divide(total: int, parts: int) -> list[int]:
    """`total` in `parts` integers as even as possible, the remainder going to the first parts."""
    base, extra = divmod(total, parts)
    return [base + (i < extra) for i in range(parts)]


def split(spec: PointSpec, count: int, *, tool: str = "") -> list[PointSpec]:
    """The point as `count` shares: offered rate and concurrency (devsim: devices, ramp and ids) divided.

    A whole rate is divided in whole units (the remainder to the first agents), so the shares add up
    to the point exactly; ToolInputError when there is less concurrency than agents.
    """
    if count < 1:
        raise ToolInputError("a point needs at least one agent")
    if spec.concurrency < count:
        raise ToolInputError(f"concurrency {spec.concurrency} cannot be split over {count} agents (each needs at least 1)")
    concurrencies = divide(spec.concurrency, count)
    rates = _rates(spec.rate, count) if tool != "devsim" else _by_devices(spec.rate, concurrencies)
    shares = []
    for i in range(count):
        params = dict(spec.params)
        if tool == "devsim":
            params.update(_devsim_share(spec.params, concurrencies, i))
        shares.append(replace(spec, concurrency=concurrencies[i], rate=rates[i], params=params))
    return shares


def _rates(rate: float | None, count: int) -> list[float | None]:
    if rate is None:
        return [None] * count
    if float(rate).is_integer() and rate >= count:
        return [float(r) for r in divide(int(rate), count)]
    return [rate / count] * count


def _by_devices(rate: float | None, devices: list[int]) -> list[float | None]:
    """devsim offers a rate per device: each share offers its devices' part of the total."""
    return [None if rate is None else rate * n / sum(devices) for n in devices]


def _devsim_share(params: dict, devices: list[int], index: int) -> dict:
    """Distinct device ids per agent (each share starts where the previous one ends), its part of the ramp and
    of the processes: never so few that one process would hold more than DEVICES_PER_PROC connections."""
    mine = devices[index]
    wanted = -(-int(params.get("procs", 1)) * mine // sum(devices))
    changed = {"start_id": int(params.get("start_id", 1)) + sum(devices[:index]),
               "procs": min(MAX_PROCS, mine, max(wanted, -(-mine // DEVICES_PER_PROC)))}
    if params.get("ramp_per_s"):
        changed["ramp_per_s"] = max(1, divide(int(params["ramp_per_s"]), len(devices))[index])
    return changed
