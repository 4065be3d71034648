"""A stored CPU profile read: its top functions, and what grew or shrank between two points. Pure (no I/O).

Counts are samples of the named process over the profile's window. "Per 1,000 requests" divides them by the requests
completed in that window; "share" is of the process's samples (self: the function was the leaf; total: it was on
the stack at all, counted once per sample however often it recurs)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

PER = 1000.0  # samples per this many requests
SIGN = "B − A per 1,000 requests, A the reference"  # how every change of the differential is signed
RANKS = ("self", "total")  # the differential's views: what grew in itself (the default, as perf diff and pprof rank), or beneath it


def parse_folded(text: str) -> Counter:
    """Folded lines ("a;b;c 12") → stack → samples; a malformed line is skipped."""
    stacks: Counter = Counter()
    for line in text.splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            stacks[stack] += int(count)
    return stacks


@dataclass(frozen=True)
class Costs:
    """Per function: samples as the leaf (self) and samples with it anywhere on the stack (total)."""

    self_: Counter
    total: Counter
    samples: int


def costs(stacks: Counter) -> Costs:
    """Each function's self and total samples."""
    own: Counter = Counter()
    total: Counter = Counter()
    for stack, count in stacks.items():
        frames = stack.split(";")
        own[frames[-1]] += count
        for frame in set(frames):
            total[frame] += count
    return Costs(own, total, sum(stacks.values()))


def _per(count: float, requests: float | None) -> float | None:
    return PER * count / requests if requests else None


def _share(count: float, samples: int) -> float:
    return 100.0 * count / samples if samples else 0.0


def top_functions(stacks: Counter, requests: float | None, limit: int = 30, by: str = "self") -> list[dict]:
    """The `limit` functions with the most samples (`by` "self" or "total"): samples, share of the process's samples,
    and samples per 1,000 requests (None when the request count is unknown)."""
    c = costs(stacks)
    ranked = c.self_ if by == "self" else c.total
    names = sorted(ranked, key=lambda name: (-ranked[name], name))[:limit]
    return [{"function": name, "self_samples": c.self_[name], "total_samples": c.total[name],
             "self_pct": _share(c.self_[name], c.samples), "total_pct": _share(c.total[name], c.samples),
             "self_per_1k": _per(c.self_[name], requests), "total_per_1k": _per(c.total[name], requests)}
            for name in names]  # fmt: skip


def _change(kind: str, a: Counter, a_samples: int, a_requests: float, b: Counter, b_samples: int, b_requests: float,
            name: str) -> dict:
    before, after = _per(a[name], a_requests), _per(b[name], b_requests)
    return {f"{kind}_per_1k_a": before, f"{kind}_per_1k_b": after, f"{kind}_per_1k_change": after - before,
            f"{kind}_pct_a": _share(a[name], a_samples), f"{kind}_pct_b": _share(b[name], b_samples),
            f"{kind}_pct_change": _share(b[name], b_samples) - _share(a[name], a_samples)}


def differential(a: Counter, a_requests: float, b: Counter, b_requests: float, limit: int = 30) -> dict:
    """What changed from point A (the reference) to point B, per 1,000 requests (both need a request count) and as a
    share of each point's samples; every change is B − A (`sign`).

    `functions`: the `limit` functions whose self samples per 1,000 requests changed most (either way), largest first:
    what grew or shrank in itself, as `perf diff` and pprof's diff rank (a caller whose callee grew only grows in total).
    `functions_by_total`: the same ranked by the change of their total samples (the second view: where beneath a
    function the cost went). `frames`: the flame graph's frames (a stack prefix: one function reached by one path) that
    grew or shrank most, largest change first. `stacks`: every stack of either point with its samples per 1,000 requests
    in A and B (what a differential flame graph draws)."""
    ca, cb = costs(a), costs(b)
    names = set(ca.total) | set(cb.total)
    functions = [{"function": name,
                  **_change("total", ca.total, ca.samples, a_requests, cb.total, cb.samples, b_requests, name),
                  **_change("self", ca.self_, ca.samples, a_requests, cb.self_, cb.samples, b_requests, name)}
                 for name in names]  # fmt: skip
    ranked = {by: sorted(functions, key=lambda f, by=by: (-abs(f[f"{by}_per_1k_change"]), f["function"]))[:limit] for by in RANKS}
    pa, pb = _prefixes(a), _prefixes(b)
    frames = [{"frame": path.rsplit(";", 1)[-1], "path": path,
               **_change("total", pa, ca.samples, a_requests, pb, cb.samples, b_requests, path)}
              for path in set(pa) | set(pb)]  # fmt: skip
    frames.sort(key=lambda f: (-abs(f["total_per_1k_change"]), f["path"].count(";"), f["path"]))
    stacks = [{"stack": s, "per_1k_a": _per(a[s], a_requests), "per_1k_b": _per(b[s], b_requests)}
              for s in sorted(set(a) | set(b))]  # fmt: skip
    return {"samples_a": ca.samples, "samples_b": cb.samples,
            "per_1k_a": _per(ca.samples, a_requests), "per_1k_b": _per(cb.samples, b_requests), "sign": SIGN, "ranked_by": RANKS[0],
            "functions": ranked["self"], "functions_by_total": ranked["total"], "frames": frames[:limit], "stacks": stacks}  # fmt: skip


def _prefixes(stacks: Counter) -> Counter:
    """Every stack prefix (a flame graph's frame) with the samples beneath it."""
    out: Counter = Counter()
    for stack, count in stacks.items():
        frames = stack.split(";")
        for depth in range(1, len(frames) + 1):
            out[";".join(frames[:depth])] += count
    return out
