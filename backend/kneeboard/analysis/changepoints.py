"""Change points in a series of campaigns: E-Divisive means (Matteson & James, 2014), as in Apache Otava.

The energy statistic q̂(τ) = m·k/n · (2·mean|X−Y| − mean|X−X'| − mean|Y−Y'|) of splitting a segment
into X = its first m values and Y = the other k is largest where the distributions differ most.
Segments are split one change point at a time, the best candidate of all segments first (searching
over the segment's end κ too, as Matteson & James do), while a permutation test (values shuffled within
each segment) finds a q̂ as large in at most `split_pvalue` of the shuffles. Then Hunter's merge step
(Fleming et al., ICPE 2023; Otava's): the weakest change is dropped while Welch's test between its
neighbouring segments is above `max_pvalue` or the mean moves by less than `min_magnitude`, and each
change is moved to its least-squares location. Every change carries Welch's interval of the difference
of the neighbouring segments' means.
Pure numpy; seeded, so the same series always gives the same answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .verdicts import welch

SPLIT_PVALUE = 0.05  # permutation test of an E-Divisive split
MAX_PVALUE = 0.001  # Welch's test of a kept change against its neighbouring segments (Otava's default)
PERMUTATIONS = 199
MIN_SIZE = 5  # values on each side of a change before it is looked for
MIN_MAGNITUDE = 0.01  # a change of the mean smaller than 1 % is not reported
SEED = 20261125


@dataclass(frozen=True)
class Change:
    """A change between series[index - 1] and series[index], with the neighbouring segments' statistics."""

    index: int
    pvalue: float
    mean_before: float
    mean_after: float
    diff: float
    ci_low: float
    ci_high: float

    @property
    def change_pct(self) -> float | None:
        """The change of the mean in percent of the mean before (None when that is 0)."""
        return (self.mean_after - self.mean_before) / abs(self.mean_before) * 100.0 if self.mean_before else None


def _q_grid(z: np.ndarray, min_size: int) -> tuple[np.ndarray, np.ndarray]:
    """q̂(τ, κ) of every row of `z` (shape (B, n)) over the splits of z[:κ] at τ with at least `min_size` values a
    side (-inf elsewhere), shape (B, T, K), and the τ of each grid row."""
    n = z.shape[1]
    d = np.abs(z[:, :, None] - z[:, None, :])
    p = np.zeros((z.shape[0], n + 1, n + 1))
    p[:, 1:, 1:] = d.cumsum(1).cumsum(2)
    tau = np.arange(min_size, n - min_size + 1)[:, None]
    kappa = np.arange(2 * min_size, n + 1)[None, :]
    m, k = tau.astype(float), (kappa - tau).astype(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        within_x, cross_total = p[:, tau, tau], p[:, tau, kappa]
        between = cross_total - within_x
        within_y = p[:, kappa, kappa] - 2 * cross_total + within_x
        energy = 2 * between / (m * k) - within_x / (m * (m - 1)) - within_y / (k * (k - 1))
        q = np.where(k >= min_size, m * k / (m + k) * energy, -np.inf)
    return q, tau[:, 0]


def _best_split(z: np.ndarray, min_size: int) -> tuple[int, float]:
    """(τ, q̂) maximising q̂(τ, κ) over the splits of z[:κ] at τ, every κ ≤ len(z), with at least `min_size`
    values a side (Matteson & James's search over κ finds a change even when the series later returns);
    (-1, -inf) when `z` is too short."""
    if z.size < 2 * min_size:
        return -1, -np.inf
    q, tau = _q_grid(z[None, :], min_size)
    row, _col = np.unravel_index(int(np.argmax(q[0])), q.shape[1:])
    return int(tau[row]), float(q[0].max())


def _candidate(x: np.ndarray, bounds: list[int], min_size: int) -> tuple[int, float]:
    """The best split over every segment between consecutive `bounds`: (absolute index, q̂)."""
    best = (-1, -np.inf)
    for start, stop in zip(bounds, bounds[1:]):
        tau, q = _best_split(x[start:stop], min_size)
        if tau >= 0 and q > best[1]:
            best = (start + tau, q)
    return best


def _pvalue(x: np.ndarray, bounds: list[int], q: float, *, min_size: int, permutations: int, rng: np.random.Generator,
            stop_at: float = 1.0, batch: int = 25) -> float:
    """The share of within-segment shuffles whose best q̂ reaches `q` (with the observed one counted); shuffles are
    scored `batch` at a time, and counting stops once the p-value cannot come back under `stop_at`."""
    reached, done, enough = 0, 0, stop_at * (permutations + 1)
    while done < permutations and reached + 1 <= enough:
        size = min(batch, permutations - done)
        best = np.full(size, -np.inf)
        for start, stop in zip(bounds, bounds[1:]):
            if stop - start >= 2 * min_size:
                shuffled = rng.permuted(np.broadcast_to(x[start:stop], (size, stop - start)), axis=1)
                best = np.maximum(best, _q_grid(shuffled, min_size)[0].max(axis=(1, 2)))
        reached += int((best >= q).sum())
        done += size
    return (reached + 1) / (done + 1)


def _describe(x: np.ndarray, bounds: list[int], index: int) -> Change:
    """The change at `index` between its neighbouring segments (bounds sorted, `index` among them)."""
    at = bounds.index(index)
    before, after = x[bounds[at - 1]:index], x[index:bounds[at + 1]]
    if before.size >= 2 and after.size >= 2:
        test = welch(before, after)
    else:
        diff = float(after.mean() - before.mean())
        test = {"diff": diff, "ci_low": diff, "ci_high": diff}
    return Change(index, test.get("p", 1.0), float(before.mean()), float(after.mean()), test["diff"], test["ci_low"], test["ci_high"])


def _refine(x: np.ndarray, bounds: list[int], min_size: int) -> list[int]:
    """Each inner bound moved to the split of its two neighbouring segments that explains most of their
    variance (the least-squares location of a mean shift, sharper than q̂'s argmax); repeated until stable."""
    bounds = list(bounds)
    for _ in range(10):
        moved = False
        for at in range(1, len(bounds) - 1):
            z = x[bounds[at - 1]:bounds[at + 1]]
            tau = np.arange(min(min_size, z.size // 2), max(z.size - min_size, z.size // 2) + 1)
            tau = tau[(tau > 0) & (tau < z.size)]
            sums = np.cumsum(z)
            m, k = tau.astype(float), (z.size - tau).astype(float)
            gain = m * k / z.size * (sums[tau - 1] / m - (sums[-1] - sums[tau - 1]) / k) ** 2
            best = bounds[at - 1] + int(tau[int(np.argmax(gain))])
            moved |= best != bounds[at]
            bounds[at] = best
        if not moved:
            break
    return bounds


def _big_enough(x: np.ndarray, bounds: list[int], index: int, min_magnitude: float) -> bool:
    at = bounds.index(index)
    before, after = x[bounds[at - 1]:index].mean(), x[index:bounds[at + 1]].mean()
    scale = abs(before) if before else max(abs(after), 1e-12)
    return abs(after - before) / scale >= min_magnitude


def _merge(x: np.ndarray, bounds: list[int], max_pvalue: float, min_magnitude: float) -> list[int]:
    """Hunter's merge step: drop the weakest inner bound while its neighbouring segments do not differ
    (Welch's p above `max_pvalue`, or a mean moved by less than `min_magnitude`), re-testing after each drop."""
    bounds = list(bounds)
    while len(bounds) > 2:
        scores = []
        for at in range(1, len(bounds) - 1):
            before, after = x[bounds[at - 1]:bounds[at]], x[bounds[at]:bounds[at + 1]]
            pvalue = welch(before, after)["p"] if before.size >= 2 and after.size >= 2 else 1.0
            weak = pvalue > max_pvalue or not _big_enough(x, bounds, bounds[at], min_magnitude)
            scores.append((weak, pvalue, at))
        weak, _p, at = max(scores)
        if not weak:
            break
        del bounds[at]
    return bounds


def e_divisive(series: Sequence[float], *, max_pvalue: float = MAX_PVALUE, permutations: int = PERMUTATIONS,
               min_size: int = MIN_SIZE, min_magnitude: float = MIN_MAGNITUDE, split_pvalue: float = SPLIT_PVALUE,
               seed: int = SEED) -> list[Change]:
    """The change points of `series` (finite values, in time order), first index of each new segment ascending.

    Candidates: E-Divisive splits while the best one's permutation p-value is ≤ `split_pvalue`. Kept: those
    whose neighbouring segments still differ by Welch's test at `max_pvalue` and by `min_magnitude` (relative)
    after the weakest are merged away one by one, each moved to its least-squares location.
    """
    x = np.asarray(series, dtype=float)
    if x.ndim != 1 or not np.isfinite(x).all():
        raise ValueError("the series must be one-dimensional and finite")
    rng = np.random.default_rng(seed)
    bounds = [0, x.size]
    while True:
        index, q = _candidate(x, bounds, min_size)
        if index < 0:
            break
        pvalue = _pvalue(x, bounds, q, min_size=min_size, permutations=permutations, rng=rng, stop_at=split_pvalue)
        if pvalue > split_pvalue:
            break
        bounds = sorted([*bounds, index])
    bounds = _merge(x, _refine(x, bounds, min_size), max_pvalue, min_magnitude)
    bounds = _refine(x, bounds, min_size)
    return [_describe(x, bounds, i) for i in bounds[1:-1]]
