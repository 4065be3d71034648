"""A CPU profile as the host that ran the server took it: a stopped perf recording folded into the row
to store, or why there is none. Both sides use it: the local worker (runs/cpu_capture.py) and the observer on the
server's host (observers/agent.py), which imports no database or web code: nothing here touches either."""

from __future__ import annotations

from dataclasses import dataclass, field

from kneeboard.profiling import perf
from kneeboard.profiling.folding import Folded, cap
from kneeboard.cpu_profile_setting import CpuProfileSettings


@dataclass
class Taken:
    """A CPU profile as the host that ran the server took it: the row to store, or why there is none."""

    row: dict | None = None
    error: str | None = None
    seen: list[tuple[str, int]] = field(default_factory=list)  # samples by command name, most first (at most 5)
    fold_s: float = 0.0


def take(recording: perf.Recording, stopped: str | None, idle: bool = True) -> Taken:
    """Fold a stopped recording (at idle priority unless `idle` is False) into the row to store (its data file is
    removed after)."""
    if stopped:
        recording.data.unlink(missing_ok=True)
        return Taken(error=stopped)
    folded = perf.fold_recording(recording, idle)
    if folded.folded is None:
        return Taken(error=folded.error, fold_s=folded.seconds)
    window_s = _sampled_s(folded.folded, recording.settings) or 0.0
    return Taken(_row(recording.settings, folded.folded, window_s), None, folded.folded.by_comm.most_common(5), folded.seconds)


def _sampled_s(folded: Folded, settings: CpuProfileSettings) -> float | None:
    """The span the window's samples cover (first to last, plus one period): the window, or less when perf began
    sampling late or was stopped early."""
    if folded.first_t is None or folded.last_t is None or folded.last_t <= folded.first_t:
        return None
    return folded.last_t - folded.first_t + 1.0 / settings.frequency_hz


def _row(settings: CpuProfileSettings, folded: Folded, window_s: float) -> dict:
    capped = cap(folded.stacks)
    return {"process": settings.process, "frequency_hz": settings.frequency_hz, "window_s": round(window_s, 3),
            "samples": folded.samples, "all_samples": folded.all_samples, "stack_depth": folded.stack_depth,
            "stacks": capped.stacks, "dropped_stacks": capped.dropped_stacks, "dropped_samples": capped.dropped_samples,
            "folded": capped.text}  # fmt: skip
